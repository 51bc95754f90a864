import { dateTimeFormat } from "./intl";

/**
 * Dates, one way everywhere (decision 044): every screen, the work order and the server's filters use
 * these, in the entity's time zone (`ServiceContext.timeZone` on the server; in the browser the zone the
 * root loader hands down, see `use-dates.tsx`). Client-safe and pure: the same input gives the same text
 * on the server and in the browser, whatever the machines' own time zones.
 *
 * Instants are ISO strings or Dates; calendar days are `YYYY-MM-DD` and months `YYYY-MM`, which belong to
 * no time zone (a day of the dashboard's period, a filter's day).
 */

/** The zone of an entity that chose none (the column's default). */
export const DEFAULT_TIME_ZONE = "Europe/Brussels";

let zones: readonly string[] | undefined;

/**
 * The time zones an entity may choose: the runtime's IANA list (`Intl.supportedValuesOf`), with UTC,
 * sorted. The server validates against its own list and hands it to the settings screen.
 */
export function supportedTimeZones(): readonly string[] {
  if (!zones) {
    const list = typeof Intl.supportedValuesOf === "function" ? Intl.supportedValuesOf("timeZone") : [];
    zones = [...new Set([...list, "UTC", DEFAULT_TIME_ZONE])].sort();
  }
  return zones;
}

let zoneSet: Set<string> | undefined;
/** Whether `zone` is one of `supportedTimeZones()` (the exact spelling). */
export function isSupportedTimeZone(zone: unknown): zone is string {
  zoneSet ??= new Set(supportedTimeZones());
  return typeof zone === "string" && zoneSet.has(zone);
}

// ---------------------------------------------------------------------------
// Formatting
// ---------------------------------------------------------------------------

export interface DateFormats {
  timeZone: string;
  /** "Nov 29, 2026": the day of an instant. */
  date(at: string | Date): string;
  /** "Nov 29, 2026, 1:34 AM": an instant. */
  dateTime(at: string | Date): string;
  /** "1:34 AM": the time of an instant. */
  time(at: string | Date): string;
  /** "November 2026": a month (`YYYY-MM`). */
  month(month: string): string;
  /** "Nov 29, 2026": a calendar day (`YYYY-MM-DD`), in the same style as `date`. */
  day(day: string): string;
  /** "Sun": the weekday of a calendar day (`YYYY-MM-DD`). */
  weekday(day: string): string;
  /** "2:30 PM": a local time of day (`HH:MM[:SS]`, a maintenance task's), with no zone to move it. */
  wallTime(time: string): string;
}

const formats = new Map<string, DateFormats>();

const instant = (at: string | Date) => (typeof at === "string" ? new Date(at) : at);

/** The formatters of one language and time zone (made once per pair). */
export function dateFormats(locale: string, timeZone: string): DateFormats {
  const key = `${locale}\u0000${timeZone}`;
  let kept = formats.get(key);
  if (!kept) {
    const date = dateTimeFormat(locale, { dateStyle: "medium", timeZone });
    const dateTime = dateTimeFormat(locale, { dateStyle: "medium", timeStyle: "short", timeZone });
    const time = dateTimeFormat(locale, { timeStyle: "short", timeZone });
    // Calendar days and months are read as midnight UTC and written in UTC: no zone moves them.
    const day = dateTimeFormat(locale, { dateStyle: "medium", timeZone: "UTC" });
    const month = dateTimeFormat(locale, { month: "long", year: "numeric", timeZone: "UTC" });
    const weekday = dateTimeFormat(locale, { weekday: "short", timeZone: "UTC" });
    const wallTime = dateTimeFormat(locale, { timeStyle: "short", timeZone: "UTC" });
    kept = {
      timeZone,
      date: (at) => date.format(instant(at)),
      dateTime: (at) => dateTime.format(instant(at)),
      time: (at) => time.format(instant(at)),
      month: (m) => month.format(new Date(`${m}-01T00:00:00Z`)),
      day: (d) => day.format(new Date(`${d}T00:00:00Z`)),
      weekday: (d) => weekday.format(new Date(`${d}T00:00:00Z`)),
      wallTime: (t) => wallTime.format(new Date(`1970-01-01T${t.length === 5 ? `${t}:00` : t}Z`)),
    };
    if (formats.size >= 100) formats.clear();
    formats.set(key, kept);
  }
  return kept;
}

// ---------------------------------------------------------------------------
// Time-zone arithmetic
// ---------------------------------------------------------------------------

const pad = (n: number, width = 2) => String(n).padStart(width, "0");

/** The wall-clock fields of an instant in a zone. */
export function wallClock(at: number, timeZone: string): { year: number; month: number; day: number; hour: number; minute: number; second: number } {
  const parts = dateTimeFormat("en-US", {
    timeZone,
    hourCycle: "h23",
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit",
  }).formatToParts(new Date(at));
  const get = (type: Intl.DateTimeFormatPartTypes) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  return { year: get("year"), month: get("month"), day: get("day"), hour: get("hour") % 24, minute: get("minute"), second: get("second") };
}

/** The zone's offset from UTC at an instant, in milliseconds (New York in winter: -5 h). */
export function zoneOffset(at: Date | number, timeZone: string): number {
  const ms = typeof at === "number" ? at : at.getTime();
  const whole = Math.floor(ms / 1000) * 1000;
  const w = wallClock(whole, timeZone);
  return Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second) - whole;
}

/** The calendar day (`YYYY-MM-DD`) of an instant in a zone: "today" there, with `now`. */
export function dayIn(at: Date | number, timeZone: string): string {
  const w = wallClock(typeof at === "number" ? at : at.getTime(), timeZone);
  return `${pad(w.year, 4)}-${pad(w.month)}-${pad(w.day)}`;
}

/**
 * Whether `value` is a calendar day `YYYY-MM-DD` that exists (2026-02-30 does not) in the years the app
 * deals with, 1970 to 2999: what a form or an address may name. Outside them date arithmetic leaves the
 * four-digit years (a month grid of year 0 would never end), so they are refused where they come in.
 */
export function isCalendarDay(value: unknown): value is string {
  if (typeof value !== "string" || !/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const date = new Date(`${value}T00:00:00Z`);
  if (Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== value) return false;
  const year = date.getUTCFullYear();
  return year >= 1970 && year < 3000;
}

/** `day` (`YYYY-MM-DD`) moved by `n` days. */
export function addDays(day: string, n: number): string {
  const date = new Date(`${day}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + n);
  return date.toISOString().slice(0, 10);
}

/**
 * The instant a wall-clock time of a zone names. A time skipped by a change to summer time names the
 * instant as far after the change as the time is after the skipped hour's start (02:30 on the day New
 * York skips 02:00-03:00 is 03:30 local); a time that happens twice names the first.
 */
function zonedInstant(wall: number, timeZone: string): number {
  const before = zoneOffset(wall - 86_400_000, timeZone);
  const after = zoneOffset(wall + 86_400_000, timeZone);
  const fits = [before, after].map((offset) => wall - offset).filter((at) => zoneOffset(at, timeZone) === wall - at);
  if (fits.length) return Math.min(...fits);
  return wall - before;
}

/** The first instant of a calendar day (`YYYY-MM-DD`) in a zone. */
export function startOfDay(day: string, timeZone: string): Date {
  return new Date(zonedInstant(Date.parse(`${day}T00:00:00Z`), timeZone));
}

/** The first instant after a calendar day in a zone (the start of the next day): an exclusive end. */
export function endOfDay(day: string, timeZone: string): Date {
  return startOfDay(addDays(day, 1), timeZone);
}

/** The first instant of a month (`YYYY-MM`) in a zone. */
export function startOfMonth(month: string, timeZone: string): Date {
  return startOfDay(`${month}-01`, timeZone);
}

/** The first instant after a month in a zone: an exclusive end. */
export function endOfMonth(month: string, timeZone: string): Date {
  const [y, m] = month.split("-").map(Number);
  const next = m === 12 ? `${pad(y + 1, 4)}-01` : `${pad(y, 4)}-${pad(m + 1)}`;
  return startOfMonth(next, timeZone);
}

/**
 * The instant a local date and time of a zone name (a task due on `day` at `time`, `HH:MM` or
 * `HH:MM:SS`): the same wall-clock time whatever the offset that day. A time skipped by a change to
 * summer time lands as far after the change as it was after the skipped hour's start; a time that
 * happens twice names the first. Without a time, the start of the day.
 */
export function localInstant(day: string, time: string | null, timeZone: string): Date {
  if (!time) return startOfDay(day, timeZone);
  const [h, m, s = "0"] = time.split(":");
  const wall = Date.parse(`${day}T00:00:00Z`) + ((Number(h) * 60 + Number(m)) * 60 + Math.floor(Number(s))) * 1000;
  return new Date(zonedInstant(wall, timeZone));
}
