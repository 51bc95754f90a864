import { Temporal } from "temporal-polyfill";
import type { ClockKind, ClockRun, OpeningInterval, WorkingCalendar } from "./calendar";

/**
 * Service levels (issue 62): how long a target's clock has run and when it reaches its target. Pure and
 * client-safe: the same answers on the server and in the browser, whatever the machine's own time zone.
 *
 * Two clocks (`ClockKind`):
 * - `calendar` counts real elapsed time, every minute of every day;
 * - `working` counts real elapsed time only inside the calendar's opening intervals, on open days, read in
 *   the calendar's time zone.
 *
 * Opening times are local wall-clock times, so 08:00–17:00 is nine hours on the 23-hour and on the 25-hour
 * day of a daylight-saving change; an interval that spans the change itself (00:00–24:00 that day) counts
 * the real minutes that pass in it (23 or 25 hours). A wall time the change skips (02:30 in spring) stands
 * for the instant of the change; a wall time the change repeats (02:30 in autumn) for its first occurrence.
 *
 * Minutes are real minutes and may be fractional when an instant falls between whole minutes (an incident
 * created at 16:30:27). A target is due at the earliest instant its clock has counted all of it: a
 * four-hour working target started at 13:00 on a day that closes at 17:00 is due at 17:00 that day, not at
 * the next opening; a zero target is due where it starts.
 *
 * Long spans are fast: days are stepped one by one only around what makes a week irregular (a closed day,
 * a daylight-saving change); a regular week is counted whole from the weekly opening hours.
 */

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;
const WEEK_MS = 7 * DAY_MS;
/** A working clock that finds no opening time within this many days gives up (see `addClockTime`). */
const SEARCH_LIMIT_DAYS = 100 * 366;

type Weekday = 1 | 2 | 3 | 4 | 5 | 6 | 7;

/** A calendar made ready for stepping: its intervals per weekday and the opening time of a regular week. */
interface Stepper {
  timeZone: string;
  closedDays: ReadonlySet<string>;
  week: readonly (readonly OpeningInterval[])[];
  /** The opening time of a week with no closed day and no daylight-saving change, in milliseconds. */
  weekMs: number;
}

function stepper(cal: WorkingCalendar): Stepper {
  const week: (readonly OpeningInterval[])[] = [[]];
  let weekMinutes = 0;
  for (let d = 1; d <= 7; d++) {
    const intervals = (cal.week[d as Weekday] ?? []).filter((i) => i.closes > i.opens);
    week.push(intervals);
    for (const i of intervals) weekMinutes += i.closes - i.opens;
  }
  return { timeZone: cal.timeZone, closedDays: cal.closedDays, week, weekMs: weekMinutes * MINUTE_MS };
}

// ---------------------------------------------------------------------------
// Local days, as whole days since 1970-01-01 in the calendar's wall-clock time
// ---------------------------------------------------------------------------

/** ISO weekday (1 Monday .. 7 Sunday) of a local day number: 1970-01-01 was a Thursday. */
const weekdayOf = (day: number): Weekday => ((((day + 3) % 7) + 7) % 7 + 1) as Weekday;

/** "YYYY-MM-DD" of a local day number. */
const dayText = (day: number) => new Date(day * DAY_MS).toISOString().slice(0, 10);

/** The local day number of an instant in `timeZone`. */
function localDayNumber(ms: number, timeZone: string): number {
  const zoned = Temporal.Instant.fromEpochMilliseconds(ms).toZonedDateTimeISO(timeZone);
  return Math.floor((ms + zoned.offsetNanoseconds / 1e6) / DAY_MS);
}

/**
 * The instant a wall-clock time is reached on a local day: `minute` after local midnight (1440 is the
 * next day's midnight). A time skipped by a daylight-saving change is the instant of the change; a repeated
 * time is its first occurrence. The result never decreases as `minute` grows.
 */
function wallInstant(day: number, minute: number, timeZone: string): number {
  const wallMs = day * DAY_MS + minute * MINUTE_MS;
  const wall = new Date(wallMs);
  const zoned = new Temporal.PlainDateTime(
    wall.getUTCFullYear(),
    wall.getUTCMonth() + 1,
    wall.getUTCDate(),
    wall.getUTCHours(),
    wall.getUTCMinutes(),
  ).toZonedDateTime(timeZone, { disambiguation: "compatible" });
  // "compatible" moves a skipped time forward by the gap: its wall time then differs from the one asked,
  // and the change lies at or before that instant (a millisecond later, "previous" includes it).
  if (zoned.epochMilliseconds + zoned.offsetNanoseconds / 1e6 !== wallMs) {
    const after = Temporal.Instant.fromEpochMilliseconds(zoned.epochMilliseconds + 1).toZonedDateTimeISO(timeZone);
    const change = after.getTimeZoneTransition("previous");
    if (change) return change.epochMilliseconds;
  }
  return zoned.epochMilliseconds;
}

/** The opening intervals of a local day as instants [from, to), in order; none on a closed day. */
function openSpans(s: Stepper, day: number): [number, number][] {
  const intervals = s.week[weekdayOf(day)];
  if (intervals.length === 0 || s.closedDays.has(dayText(day))) return [];
  return intervals.map((i) => [wallInstant(day, i.opens, s.timeZone), wallInstant(day, i.closes, s.timeZone)]);
}

/**
 * Whether the seven local days from `day` (which starts at `dayStart`) form a regular week: no closed day
 * and no change of UTC offset, so their opening time is exactly `weekMs` and they end at `dayStart + WEEK_MS`.
 */
function isRegularWeek(s: Stepper, day: number, dayStart: number): boolean {
  for (let d = day; d < day + 7; d++) if (s.closedDays.has(dayText(d))) return false;
  const change = Temporal.Instant.fromEpochMilliseconds(dayStart).toZonedDateTimeISO(s.timeZone).getTimeZoneTransition("next");
  return change === null || change.epochMilliseconds >= dayStart + WEEK_MS;
}

function noOpeningHours(): never {
  throw new Error("The working calendar has no opening hours on any weekday: a working clock never runs.");
}

/** The instant `amountMs` of working time after `startMs` (integer milliseconds). */
function addWorkingMs(startMs: number, amountMs: number, s: Stepper): number {
  if (amountMs <= 0) return startMs;
  if (s.weekMs === 0) noOpeningHours();
  let remaining = amountMs;
  const firstDay = localDayNumber(startMs, s.timeZone);
  for (let day = firstDay; day < firstDay + SEARCH_LIMIT_DAYS; ) {
    // A whole regular week after the start that does not reach the target: counted at once. ("> weekMs":
    // a target reached exactly at the week's last closing is found by the day-by-day steps below.)
    if (remaining > s.weekMs) {
      const dayStart = wallInstant(day, 0, s.timeZone);
      if (dayStart >= startMs && isRegularWeek(s, day, dayStart)) {
        remaining -= s.weekMs;
        day += 7;
        continue;
      }
    }
    for (const [opens, closes] of openSpans(s, day)) {
      const from = Math.max(opens, startMs);
      if (closes <= from) continue;
      if (remaining <= closes - from) return from + remaining;
      remaining -= closes - from;
    }
    day += 1;
  }
  throw new Error("The working calendar has no opening time within a hundred years (every open day is closed).");
}

/** The working time between two instants (integer milliseconds). */
function workingMsBetween(fromMs: number, toMs: number, s: Stepper): number {
  if (toMs <= fromMs || s.weekMs === 0) return 0;
  let total = 0;
  for (let day = localDayNumber(fromMs, s.timeZone); ; ) {
    const dayStart = wallInstant(day, 0, s.timeZone);
    if (dayStart >= toMs) return total;
    if (dayStart >= fromMs && dayStart + WEEK_MS <= toMs && isRegularWeek(s, day, dayStart)) {
      total += s.weekMs;
      day += 7;
      continue;
    }
    for (const [opens, closes] of openSpans(s, day)) {
      const overlap = Math.min(closes, toMs) - Math.max(opens, fromMs);
      if (overlap > 0) total += overlap;
    }
    day += 1;
  }
}

const toMs = (minutes: number) => Math.round(minutes * MINUTE_MS);

function addMs(startMs: number, amountMs: number, clock: ClockKind, s: Stepper): number {
  return clock === "calendar" ? startMs + Math.max(0, amountMs) : addWorkingMs(startMs, amountMs, s);
}

function msBetween(fromMs: number, toMs: number, clock: ClockKind, s: Stepper): number {
  if (toMs <= fromMs) return 0;
  return clock === "calendar" ? toMs - fromMs : workingMsBetween(fromMs, toMs, s);
}

// ---------------------------------------------------------------------------
// The public arithmetic
// ---------------------------------------------------------------------------

/** Whether a working clock can ever run on this calendar: some weekday has an opening interval. */
export function hasOpeningHours(cal: WorkingCalendar): boolean {
  return stepper(cal).weekMs > 0;
}

/**
 * The instant when `minutes` of clock time have run from `start`. A working clock started outside the
 * opening hours starts counting at the next opening; zero (or fewer) minutes give `start` itself.
 *
 * Throws an Error when the working clock can never count that much: the calendar has no opening interval
 * on any weekday (check `hasOpeningHours` first, or validate the entity's settings), or no open day for a
 * hundred years. A calendar clock never throws.
 */
export function addClockTime(start: Date, minutes: number, clock: ClockKind, cal: WorkingCalendar): Date {
  return new Date(addMs(start.getTime(), toMs(minutes), clock, stepper(cal)));
}

/** The clock minutes between two instants: 0 when `to` is not after `from`. */
export function clockMinutesBetween(from: Date, to: Date, clock: ClockKind, cal: WorkingCalendar): number {
  return msBetween(from.getTime(), to.getTime(), clock, stepper(cal)) / MINUTE_MS;
}

/** Whether a working clock counts at `instant` (inside an opening interval of an open day). */
export function isWorkingTime(instant: Date, cal: WorkingCalendar): boolean {
  const s = stepper(cal);
  const at = instant.getTime();
  const day = localDayNumber(at, s.timeZone);
  // An instant may belong to the day before its wall-clock date when midnight is repeated: look at both.
  return [day - 1, day].some((d) => openSpans(s, d).some(([opens, closes]) => opens <= at && at < closes));
}

/** Where a target stands at `now`. */
export interface TargetState {
  /** The clock minutes the runs have counted up to `now`. */
  elapsedMinutes: number;
  /** The clock minutes left before the target is reached (0 once reached). */
  remainingMinutes: number;
  /** Whether a run is still open (its `to` is null): the clock keeps counting after `now`. */
  running: boolean;
  /**
   * When the target is reached if the clock keeps running from `now` (the instant it was reached when it
   * already is); null when the clock is stopped.
   */
  due: Date | null;
  /** Whether the clock has counted the whole target by `now` (reaching it exactly counts). */
  breached: boolean;
  /** The instant, inside a run, at which the clock had counted the whole target; null while not breached. */
  breachedAt: Date | null;
}

/**
 * Where a target of `targetMinutes` stands at `now`, given the spans its clock runs (`runs`: a rejected
 * incident closes its run, reopening it starts a new one). A run still open (`to` null) counts until `now`;
 * time after `now` is not counted. Overlapping runs count their shared time once.
 *
 * Breached means the clock has counted the whole target, so the target is breached from the instant it is
 * due: a zero target is breached as soon as its first run starts. With no run at all nothing has run:
 * not breached, and no due date.
 */
export function targetState(runs: readonly ClockRun[], targetMinutes: number, clock: ClockKind, cal: WorkingCalendar, now: Date): TargetState {
  const s = stepper(cal);
  const nowMs = now.getTime();
  const targetMs = Math.max(0, toMs(targetMinutes));

  // The spans counted: each run clipped at now, in order, overlaps merged.
  const spans: [number, number][] = [];
  const clipped = runs
    .map((r): [number, number] => [r.from.getTime(), Math.min(r.to?.getTime() ?? nowMs, nowMs)])
    .filter(([from, to]) => from <= to)
    .sort((a, b) => a[0] - b[0]);
  for (const [from, to] of clipped) {
    const last = spans[spans.length - 1];
    if (last && from <= last[1]) last[1] = Math.max(last[1], to);
    else spans.push([from, to]);
  }

  const working = clock === "working";
  const never = working && s.weekMs === 0;
  let elapsedMs = 0;
  let breachedAtMs: number | null = null;
  for (const [from, to] of spans) {
    const counted = msBetween(from, to, clock, s);
    if (breachedAtMs === null && !never && elapsedMs + counted >= targetMs) breachedAtMs = addMs(from, targetMs - elapsedMs, clock, s);
    elapsedMs += counted;
  }

  const open = runs.filter((r) => r.to === null);
  const running = open.length > 0;
  let dueMs: number | null = null;
  if (running && !never) {
    if (breachedAtMs !== null) dueMs = breachedAtMs;
    else {
      // A run that has not started yet starts counting when it starts.
      const resumesAt = Math.max(nowMs, Math.min(...open.map((r) => r.from.getTime())));
      dueMs = addMs(resumesAt, targetMs - elapsedMs, clock, s);
    }
  }

  return {
    elapsedMinutes: elapsedMs / MINUTE_MS,
    remainingMinutes: Math.max(0, targetMs - elapsedMs) / MINUTE_MS,
    running,
    due: dueMs === null ? null : new Date(dueMs),
    breached: breachedAtMs !== null,
    breachedAt: breachedAtMs === null ? null : new Date(breachedAtMs),
  };
}

// ---------------------------------------------------------------------------
// Small helpers for the settings and the screens
// ---------------------------------------------------------------------------

/** The local calendar day ("YYYY-MM-DD") of an instant in `timeZone`. */
export function localDay(instant: Date, timeZone: string): string {
  return dayText(localDayNumber(instant.getTime(), timeZone));
}

/**
 * Minutes after midnight of a wall-clock time written "HH:MM" (00:00 to 24:00, 24:00 being the end of the
 * day, for an interval that closes at midnight); null when the text is not such a time.
 */
export function parseClockTime(text: string): number | null {
  const match = /^([01]\d|2[0-4]):([0-5]\d)$/.exec(text.trim());
  if (!match) return null;
  const minutes = Number(match[1]) * 60 + Number(match[2]);
  return minutes <= 1440 ? minutes : null;
}

/** "HH:MM" of minutes after midnight (1440 is "24:00"). */
export function formatClockTime(minutes: number): string {
  const h = Math.floor(minutes / 60);
  const m = minutes % 60;
  return `${String(h).padStart(2, "0")}:${String(m).padStart(2, "0")}`;
}
