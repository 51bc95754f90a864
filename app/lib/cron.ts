/**
 * Five-field cron expressions (`minute hour day-of-month month day-of-week`) and their due times in an
 * IANA time zone, for the job schedules (docs/decisions/045-schedules-on-the-job-queue.md).
 *
 * Supported in each field: `*`, a number, a range `a-b`, a step `*\/s`, `a-b/s` or `a/s` (from a to the
 * field's end), and comma lists of these. Bounds: minute 0-59, hour 0-23, day of month 1-31, month 1-12,
 * day of week 0-7 (0 and 7 are Sunday). As in Vixie cron, when both day fields are restricted (neither
 * starts with `*`) a day matches if either does; otherwise both must.
 * Not supported (refused when parsed): names (`JAN`, `MON`), `?`, `L`, `W`, `#`, the `@daily` kind of
 * shorthands, a seconds or year field, and ranges that wrap around (`22-2`).
 *
 * Due times are wall-clock times of the zone, with its daylight-saving changes (offsets from Intl):
 * - a time that does not exist (skipped when clocks go forward) is due at the change itself, i.e. at the
 *   first valid time after it (02:30 on the spring-forward day in Brussels is due at 03:00 CEST); several
 *   skipped times fall on that one instant, so they are due once;
 * - a time that occurs twice (clocks go back) is due at its first occurrence only, so a daily 02:30 runs
 *   once on the fall-back day, and an hourly job has no second run in the repeated hour.
 */
import { isSupportedTimeZone, wallClock, zoneOffset } from "./dates";

export class CronError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "CronError";
  }
}

export interface CronExpression {
  /** The text it was parsed from, with single spaces. */
  source: string;
  /** Allowed values of each field, ascending. */
  minutes: number[];
  hours: number[];
  daysOfMonth: number[];
  months: number[];
  /** 0 (Sunday) to 6; a 7 in the text is stored as 0. */
  daysOfWeek: number[];
  /** Whether the day fields restrict (do not start with `*`): both restricted means either may match. */
  dayOfMonthRestricted: boolean;
  dayOfWeekRestricted: boolean;
}

interface FieldSpec {
  name: string;
  min: number;
  max: number;
}

const FIELDS: FieldSpec[] = [
  { name: "minute", min: 0, max: 59 },
  { name: "hour", min: 0, max: 23 },
  { name: "day of month", min: 1, max: 31 },
  { name: "month", min: 1, max: 12 },
  { name: "day of week", min: 0, max: 7 },
];

const NUMBER = /^\d{1,2}$/;

function parseNumber(text: string, field: FieldSpec): number {
  if (!NUMBER.test(text)) throw new CronError(`cron ${field.name}: "${text}" is not a number`);
  const value = Number(text);
  if (value < field.min || value > field.max) throw new CronError(`cron ${field.name}: ${value} is outside ${field.min}-${field.max}`);
  return value;
}

function parseField(text: string, field: FieldSpec): number[] {
  const values = new Set<number>();
  for (const item of text.split(",")) {
    if (item === "") throw new CronError(`cron ${field.name}: empty list item in "${text}"`);
    const [range, stepText, extra] = item.split("/");
    if (extra !== undefined) throw new CronError(`cron ${field.name}: "${item}" has two steps`);
    let step = 1;
    if (stepText !== undefined) {
      if (!/^\d{1,2}$/.test(stepText) || Number(stepText) < 1) throw new CronError(`cron ${field.name}: step "${stepText}" must be a whole number from 1`);
      step = Number(stepText);
    }
    let from: number;
    let to: number;
    if (range === "*") {
      from = field.min;
      to = field.max;
    } else if (range.includes("-")) {
      const [a, b, more] = range.split("-");
      if (more !== undefined) throw new CronError(`cron ${field.name}: "${range}" is not a range`);
      from = parseNumber(a, field);
      to = parseNumber(b, field);
      if (from > to) throw new CronError(`cron ${field.name}: range "${range}" runs backwards (wrap-around is not supported)`);
    } else {
      from = parseNumber(range, field);
      // `a/s` runs from a to the field's end; a lone number is just itself.
      to = stepText !== undefined ? field.max : from;
    }
    for (let v = from; v <= to; v += step) values.add(v);
  }
  return [...values].sort((a, b) => a - b);
}

/** Days in a month of a leap year: the most a day-of-month value can reach in that month. */
const MOST_DAYS = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** Parses a five-field expression; throws CronError saying what is wrong. */
export function parseCron(text: string): CronExpression {
  const parts = text.trim().split(/\s+/);
  if (parts.length !== 5 || parts[0] === "") {
    throw new CronError(`cron "${text}": expected 5 fields (minute hour day-of-month month day-of-week), found ${parts[0] === "" ? 0 : parts.length}`);
  }
  const [minutes, hours, daysOfMonth, months, weekDays] = parts.map((part, i) => parseField(part, FIELDS[i]));
  const expression: CronExpression = {
    source: parts.join(" "),
    minutes,
    hours,
    daysOfMonth,
    months,
    daysOfWeek: [...new Set(weekDays.map((d) => d % 7))].sort((a, b) => a - b),
    dayOfMonthRestricted: !parts[2].startsWith("*"),
    dayOfWeekRestricted: !parts[4].startsWith("*"),
  };
  // Only the day of month can make an expression impossible (`0 0 30 2 *`): the week days recur.
  if (expression.dayOfMonthRestricted && !expression.dayOfWeekRestricted) {
    const possible = months.some((m) => daysOfMonth.some((d) => d <= MOST_DAYS[m - 1]));
    if (!possible) throw new CronError(`cron "${text}": no month has such a day`);
  }
  return expression;
}

// ---------------------------------------------------------------------------------------------------
// Time zones

/** Whether `name` is a time zone this runtime knows (an IANA name such as `Europe/Brussels`, or `UTC`). */
export const isTimeZone = (name: string): boolean => isSupportedTimeZone(name);

/** The wall-clock time in `timeZone` at `instant` (milliseconds since the epoch). */
export const wallTime = (timeZone: string, instant: number) => wallClock(instant, timeZone);

/** How far the zone's wall clock is ahead of UTC at `instant`, in milliseconds (whole seconds). */
const offsetAt = (timeZone: string, instant: number) => zoneOffset(instant, timeZone);

const DAY_MS = 86_400_000;

/**
 * The instant at which the zone's clock shows this wall time: its first occurrence when it shows it twice
 * (clocks going back), and the moment of the change when it never shows it (clocks going forward, the
 * first valid time after it). Assumes at most one offset change within a day either side.
 */
export function instantOf(timeZone: string, year: number, month: number, day: number, hour: number, minute: number): number {
  const asUtc = Date.UTC(year, month - 1, day, hour, minute);
  const before = offsetAt(timeZone, asUtc - DAY_MS);
  const after = offsetAt(timeZone, asUtc + DAY_MS);
  const early = asUtc - Math.max(before, after);
  const late = asUtc - Math.min(before, after);
  if (offsetAt(timeZone, early) === asUtc - early) return early;
  if (offsetAt(timeZone, late) === asUtc - late) return late;
  if (after <= before) return asUtc - before; // not a forward change after all: nothing better to offer
  // A skipped time: find the change, the first instant of [early, late] on the later offset.
  let lo = early; // still on the earlier offset
  let hi = late; // on the later one
  while (hi - lo > 1000) {
    const mid = lo + Math.floor((hi - lo) / 2000) * 1000;
    if (offsetAt(timeZone, mid) === after) hi = mid;
    else lo = mid;
  }
  return hi;
}

/** How many days ahead a due time is looked for: a 29 February may be 8 years away. */
const SEARCH_DAYS = 366 * 9;
/** Offsets within one day differ by less than this (DST changes are at most 2 hours), in minutes. */
const OFFSET_SLACK_MINUTES = 180;

function dayMatches(expression: CronExpression, dayOfMonth: number, dayOfWeek: number): boolean {
  const byMonthDay = expression.daysOfMonth.includes(dayOfMonth);
  const byWeekDay = expression.daysOfWeek.includes(dayOfWeek);
  if (expression.dayOfMonthRestricted && expression.dayOfWeekRestricted) return byMonthDay || byWeekDay;
  return byMonthDay && byWeekDay;
}

/**
 * The first due time of `expression` in `timeZone` strictly after `after` (milliseconds since the epoch),
 * as milliseconds since the epoch (always on a whole minute of the zone's clock, or at a DST change).
 */
export function nextCronTime(expression: CronExpression | string, after: number, timeZone: string): number {
  const cron = typeof expression === "string" ? parseCron(expression) : expression;
  const start = wallTime(timeZone, after);
  const startMinute = start.hour * 60 + start.minute;
  // Wall times map to instants in the same order (a skipped time to the change, a repeated one to its first
  // occurrence), so the first wall time from the start day on whose instant is past `after` is the answer.
  const firstDay = Date.UTC(start.year, start.month - 1, start.day);
  for (let i = 0; i < SEARCH_DAYS; i++) {
    const date = new Date(firstDay + i * DAY_MS);
    const month = date.getUTCMonth() + 1;
    if (!cron.months.includes(month)) continue;
    const day = date.getUTCDate();
    if (!dayMatches(cron, day, date.getUTCDay())) continue;
    for (const hour of cron.hours) {
      for (const minute of cron.minutes) {
        // Earlier times of the start day are certainly not after `after`: skip their time-zone work.
        if (i === 0 && hour * 60 + minute < startMinute - OFFSET_SLACK_MINUTES) continue;
        const instant = instantOf(timeZone, date.getUTCFullYear(), month, day, hour, minute);
        if (instant > after) return instant;
      }
    }
  }
  throw new CronError(`cron "${cron.source}": no due time within ${Math.floor(SEARCH_DAYS / 366)} years`);
}
