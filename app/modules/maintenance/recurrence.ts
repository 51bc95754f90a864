import { TimeMeasure } from "~/db/enums";
import { addDays, dayIn } from "~/lib/dates";

/**
 * When a planned maintenance falls due (SPEC.md section 3, decision 050). Pure and client-safe: the
 * generation of tasks, the plan screens' preview and the tests read the same rule.
 *
 * Dates are calendar days (`YYYY-MM-DD`, no time zone): a plan's start and end dates are local days of
 * the entity, and so are its tasks' due dates; the time of day is a local time kept beside them, so a
 * task at 08:00 stays at 08:00 across daylight-saving changes.
 *
 * - Every N days or weeks: the start date, then every N (or 7 N) days.
 * - Every N months or years: the start date's day of the month, N (or 12 N) months on, counted from the
 *   start date each time (never from the previous occurrence, so nothing drifts). A month without that
 *   day takes its last day: from January 31, monthly is February 28 (29), March 31, April 30...; from
 *   February 29, yearly is February 28 in the years without one.
 * - UNSPECIFIED (no occurrence): once, on the start date.
 * - Nothing before the start date nor after the end date (both inclusive). A missing interval is 1.
 */
export interface Recurrence {
  startDate: string;
  endDate: string;
  occurrenceInterval: number | null;
  occurrenceUnit: TimeMeasure;
}

/** How many days ahead of today a plan's tasks exist (the rolling horizon). */
export const TASK_HORIZON_DAYS = 90;

const DAY_MS = 86_400_000;

/** Days since 1970-01-01 of a calendar day. */
function dayNumber(day: string): number {
  return Date.parse(`${day}T00:00:00Z`) / DAY_MS;
}

function fromDayNumber(n: number): string {
  return new Date(n * DAY_MS).toISOString().slice(0, 10);
}

function daysInMonth(year: number, month0: number): number {
  return new Date(Date.UTC(year, month0 + 1, 0)).getUTCDate();
}

/** The anchor's day of the month `months` months after it, on the last day of a shorter month. */
function monthsAfter(anchor: { year: number; month0: number; day: number }, months: number): string {
  const total = anchor.year * 12 + anchor.month0 + months;
  const year = Math.floor(total / 12);
  const month0 = total - year * 12;
  const day = Math.min(anchor.day, daysInMonth(year, month0));
  return `${String(year).padStart(4, "0")}-${String(month0 + 1).padStart(2, "0")}-${String(day).padStart(2, "0")}`;
}

const later = (a: string, b: string) => (a > b ? a : b);
const earlier = (a: string, b: string) => (a < b ? a : b);

/** The step of a rule in days (DAY, WEEK) or months (MONTH, YEAR); null when it happens once. */
function stepOf(rule: Recurrence): { days: number } | { months: number } | null {
  const n = Math.max(1, Math.floor(rule.occurrenceInterval ?? 1));
  switch (rule.occurrenceUnit) {
    case TimeMeasure.DAY:
      return { days: n };
    case TimeMeasure.WEEK:
      return { days: 7 * n };
    case TimeMeasure.MONTH:
      return { months: n };
    case TimeMeasure.YEAR:
      return { months: 12 * n };
    default:
      return null;
  }
}

/** The due dates of a plan from `from` to `to` (both inclusive), in order. */
export function occurrenceDates(rule: Recurrence, from: string, to: string): string[] {
  const first = later(from, rule.startDate);
  const last = earlier(to, rule.endDate);
  if (first > last) return [];
  const step = stepOf(rule);
  if (!step) return rule.startDate >= first && rule.startDate <= last ? [rule.startDate] : [];
  const dates: string[] = [];
  if ("days" in step) {
    const start = dayNumber(rule.startDate);
    const end = dayNumber(last);
    const k = Math.ceil((dayNumber(first) - start) / step.days);
    for (let n = start + k * step.days; n <= end; n += step.days) dates.push(fromDayNumber(n));
    return dates;
  }
  const [year, month, day] = rule.startDate.split("-").map(Number);
  const anchor = { year, month0: month - 1, day };
  const [fy, fm] = first.split("-").map(Number);
  // The first candidate month at or before `first`, on the rule's rhythm; the date check skips it when early.
  const monthsToFirst = (fy - year) * 12 + (fm - 1 - anchor.month0);
  let k = Math.max(0, Math.floor(monthsToFirst / step.months));
  for (;;) {
    const date = monthsAfter(anchor, k * step.months);
    if (date > last) return dates;
    if (date >= first) dates.push(date);
    k++;
  }
}

/** Whether a plan falls due on `day`. */
export function isOccurrence(rule: Recurrence, day: string): boolean {
  return occurrenceDates(rule, day, day).length === 1;
}

/**
 * The days a plan's tasks exist for, seen from the instant `now` in the entity's zone: from today there
 * to `horizonDays` days later. A change of the entity's zone moves "today" (and so the window), never a
 * task's due date.
 */
export function generationWindow(now: Date | number, timeZone: string, horizonDays = TASK_HORIZON_DAYS): { from: string; to: string } {
  const today = dayIn(now, timeZone);
  return { from: today, to: addDays(today, horizonDays) };
}
