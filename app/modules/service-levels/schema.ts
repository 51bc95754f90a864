import { z } from "zod";
import { Priority, type IncidentPriority } from "~/db/enums";
import { checkbox, idField, INVALID, REQUIRED, requiredText } from "~/lib/schema-helpers";
import type { ClockKind, OpeningInterval } from "./calendar";

/**
 * Service levels (issue 62, decision 064): the settings' forms and verbs share these shapes. Client-safe;
 * messages are i18n keys. Values arrive as a form posts them (text), and the verbs receive the same.
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

// ---------------------------------------------------------------------------
// Opening hours
// ---------------------------------------------------------------------------

const TIME = /^([01]\d|2[0-3]):([0-5]\d)$/;
const TIME_INVALID = "serviceLevels:validation.time";

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

const time = () => z.string({ error: TIME_INVALID }).trim().regex(TIME, TIME_INVALID).nullish();

/**
 * One weekday of the form: open or closed, and when open, its opening and closing times. A closing time
 * of 00:00 is midnight at the end of the day (00:00 to 00:00: open all day).
 */
const weekday = () =>
  z
    .object({ open: checkbox(), opens: time(), closes: time() })
    .superRefine((day, ctx) => {
      if (!day.open) return;
      if (!day.opens) ctx.addIssue({ code: "custom", path: ["opens"], message: REQUIRED });
      if (!day.closes) ctx.addIssue({ code: "custom", path: ["closes"], message: REQUIRED });
      if (day.opens && day.closes) {
        const closes = minutesOf(day.closes) || 1440;
        if (closes <= minutesOf(day.opens)) ctx.addIssue({ code: "custom", path: ["closes"], message: "serviceLevels:validation.closesAfterOpens" });
      }
    })
    .transform((day): OpeningInterval[] => (day.open && day.opens && day.closes ? [{ opens: minutesOf(day.opens), closes: minutesOf(day.closes) || 1440 }] : []));

export const WorkingWeekSchema = z.object(Object.fromEntries(WEEKDAYS.map((name) => [name, weekday()])) as Record<WeekdayName, ReturnType<typeof weekday>>);
export type WorkingWeekInput = z.input<typeof WorkingWeekSchema>;

// ---------------------------------------------------------------------------
// Closed days
// ---------------------------------------------------------------------------

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** A real calendar date "YYYY-MM-DD". */
export function isLocalDate(value: string): boolean {
  const [, y, m, d] = DATE.exec(value) ?? [];
  if (!y) return false;
  const date = new Date(Date.UTC(Number(y), Number(m) - 1, Number(d)));
  return date.getUTCFullYear() === Number(y) && date.getUTCMonth() === Number(m) - 1 && date.getUTCDate() === Number(d);
}

export const ClosedDaySchema = z.object({
  day: z.string({ error: REQUIRED }).trim().min(1, REQUIRED).refine(isLocalDate, "serviceLevels:validation.date"),
  name: requiredText(MAX_CLOSED_DAY_NAME),
});
export type ClosedDayInput = z.input<typeof ClosedDaySchema>;

export const RemoveClosedDaySchema = z.object({ closedDayId: idField(INVALID) });

/** The languages the public holidays' names are offered in (date-holidays' codes). */
export const HOLIDAY_LANGUAGES = ["en", "fr", "nl"] as const;
export type HolidayLanguage = (typeof HOLIDAY_LANGUAGES)[number];
export const MIN_HOLIDAY_YEAR = 2000;
export const MAX_HOLIDAY_YEAR = 2100;

export const PublicHolidaysSchema = z.object({
  year: z
    .number({ error: "serviceLevels:validation.year" })
    .int("serviceLevels:validation.year")
    .min(MIN_HOLIDAY_YEAR, "serviceLevels:validation.year")
    .max(MAX_HOLIDAY_YEAR, "serviceLevels:validation.year"),
  language: z.enum(HOLIDAY_LANGUAGES, { error: INVALID }),
});
export type PublicHolidaysInput = z.input<typeof PublicHolidaysSchema>;

/** The holidays' language for a screen language ("fr-BE": "fr"). */
export function holidayLanguageOf(locale: string): HolidayLanguage {
  const language = locale.slice(0, 2);
  return (HOLIDAY_LANGUAGES as readonly string[]).includes(language) ? (language as HolidayLanguage) : "en";
}

// ---------------------------------------------------------------------------
// Targets
// ---------------------------------------------------------------------------

const HOURS = /^\d{1,5}([.,]\d{1,2})?$/;
const HOURS_INVALID = "serviceLevels:validation.hours";

/** Hours as typed ("4", "1.5", "0,25"), empty for no target: whole minutes, at least one. */
const hours = () =>
  z
    .string({ error: HOURS_INVALID })
    .trim()
    .regex(HOURS, HOURS_INVALID)
    .transform((text) => Math.round(Number(text.replace(",", ".")) * 60))
    .refine((minutes) => minutes >= 1, HOURS_INVALID)
    .refine((minutes) => minutes <= MAX_TARGET_HOURS * 60, "serviceLevels:validation.hoursTooMany")
    .nullish()
    .transform((minutes) => minutes ?? null);

const clock = () => z.enum(CLOCK_KINDS, { error: INVALID }).nullish().transform((kind): ClockKind => kind ?? "working");

const target = () => z.object({ responseHours: hours(), responseClock: clock(), resolutionHours: hours(), resolutionClock: clock() });

/** The five priorities' targets: hours (empty: no target) and the clock each counts with. */
export const TargetsSchema = z.object(Object.fromEntries(TARGET_PRIORITIES.map((key) => [key, target()])) as Record<TargetPriority, ReturnType<typeof target>>);
export type TargetsInput = z.input<typeof TargetsSchema>;
export type TargetsValues = z.output<typeof TargetsSchema>;

// ---------------------------------------------------------------------------
// Warning before a breach
// ---------------------------------------------------------------------------

export const WarningLeadSchema = z.object({
  warnBeforeMinutes: z
    .number({ error: "serviceLevels:validation.warnBefore" })
    .int("serviceLevels:validation.warnBefore")
    .min(1, "serviceLevels:validation.warnBefore")
    .max(MAX_WARNING_MINUTES, "serviceLevels:validation.warnBefore")
    .nullish()
    .transform((minutes) => minutes ?? null),
});
export type WarningLeadInput = z.input<typeof WarningLeadSchema>;
