import { Priority, type IncidentPriority } from "~/db/enums";
import type { ClockKind } from "./calendar";

/**
 * Service levels (issue 62): the names, limits and conversions the settings' forms and verbs share.
 * Client-safe and free of zod, so that the screen's first load does not carry the schemas (decision 021).
 */

/** The weekdays as the forms name them, Monday first: ISO weekday = index + 1. */
export const WEEKDAYS = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"] as const;
export type WeekdayName = (typeof WEEKDAYS)[number];
export type IsoWeekday = 1 | 2 | 3 | 4 | 5 | 6 | 7;

/** The priorities targets are set for, in the order the screen lists them ("none": Not Selected). */
export const TARGET_PRIORITIES = ["low", "medium", "high", "critical", "none"] as const;
export type TargetPriority = (typeof TARGET_PRIORITIES)[number];

export const PRIORITY_OF: Readonly<Record<TargetPriority, IncidentPriority>> = {
  low: Priority.LOW,
  medium: Priority.MEDIUM,
  high: Priority.HIGH,
  critical: Priority.CRITICAL,
  none: null,
};

export function targetPriorityOf(priority: IncidentPriority): TargetPriority {
  return TARGET_PRIORITIES.find((key) => PRIORITY_OF[key] === priority) ?? "none";
}

/** The clocks, as the table's CHECK lists them (db/schema/service-levels.ts, held equal by a test). */
export const CLOCK_KINDS = ["working", "calendar"] as const satisfies readonly ClockKind[];

/** The longest target (a year) and warning lead (a week), in minutes: the table's CHECKs. */
export const MAX_TARGET_HOURS = 366 * 24;
export const MAX_WARNING_MINUTES = 7 * 24 * 60;
export const MAX_CLOSED_DAY_NAME = 100;

/** A time of day as the forms post it ("08:30"). */
export const TIME = /^([01]\d|2[0-3]):([0-5]\d)$/;

/** "HH:MM" as minutes after midnight. */
export function minutesOf(time: string): number {
  const [, h, m] = TIME.exec(time) ?? [];
  return Number(h) * 60 + Number(m);
}

/** Minutes after midnight as "HH:MM" (1440, midnight at the end of the day, as "00:00"). */
export function timeOf(minutes: number): string {
  const m = minutes % 1440;
  return `${String(Math.floor(m / 60)).padStart(2, "0")}:${String(m % 60).padStart(2, "0")}`;
}

/** The languages the public holidays' names are offered in (date-holidays' codes). */
export const HOLIDAY_LANGUAGES = ["en", "fr", "nl"] as const;
export type HolidayLanguage = (typeof HOLIDAY_LANGUAGES)[number];
export const MIN_HOLIDAY_YEAR = 2000;
export const MAX_HOLIDAY_YEAR = 2100;

/** The holidays' language for a screen language ("fr-BE": "fr"). */
export function holidayLanguageOf(locale: string): HolidayLanguage {
  const language = locale.slice(0, 2);
  return (HOLIDAY_LANGUAGES as readonly string[]).includes(language) ? (language as HolidayLanguage) : "en";
}

/** Minutes of hours as typed ("4", "1.5", "0,25"), rounded to the minute. */
export function minutesOfHours(text: string): number {
  return Math.round(Number(text.replace(",", ".")) * 60);
}

/** Minutes as the hours the form shows ("1.5"). */
export function hoursOf(minutes: number): string {
  return String(Math.round((minutes / 60) * 100) / 100);
}
