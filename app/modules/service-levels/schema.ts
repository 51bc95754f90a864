import { z } from "zod";
import { isCalendarDay } from "~/lib/dates";
import { checkbox, idField, INVALID, REQUIRED, requiredText } from "~/lib/schema-helpers";
import type { ClockKind, OpeningInterval } from "./calendar";
import { CLOCK_KINDS, HOLIDAY_LANGUAGES, MAX_CLOSED_DAY_NAME, MAX_HOLIDAY_YEAR, MAX_TARGET_HOURS, MAX_WARNING_MINUTES, MIN_HOLIDAY_YEAR, minutesOf, minutesOfHours, TARGET_PRIORITIES, TIME, WEEKDAYS, type TargetPriority, type WeekdayName } from "./values";

/**
 * Service levels (issue 62, decision 064): the settings' forms and verbs share these shapes. Client-safe;
 * messages are i18n keys. Values arrive as a form posts them (text), and the verbs receive the same.
 */
export * from "./values";

// ---------------------------------------------------------------------------
// Opening hours
// ---------------------------------------------------------------------------

const TIME_INVALID = "serviceLevels:validation.time";

const time = () => z.string({ error: TIME_INVALID }).trim().regex(TIME, TIME_INVALID).nullish();

/**
 * One weekday of the form: open or closed, and when open, its opening and closing times. A closing time
 * of 00:00 is midnight at the end of the day (00:00 to 00:00: open all day). The parsed value parses
 * again to itself (the form's action and the verb both parse it); `intervalsOf` reads it.
 */
const weekday = () =>
  z.object({ open: checkbox(), opens: time(), closes: time() }).superRefine((day, ctx) => {
    if (!day.open) return;
    if (!day.opens) ctx.addIssue({ code: "custom", path: ["opens"], message: REQUIRED });
    if (!day.closes) ctx.addIssue({ code: "custom", path: ["closes"], message: REQUIRED });
    if (day.opens && day.closes && (minutesOf(day.closes) || 1440) <= minutesOf(day.opens)) {
      ctx.addIssue({ code: "custom", path: ["closes"], message: "serviceLevels:validation.closesAfterOpens" });
    }
  });

/** A parsed weekday's opening intervals (none when closed). */
export function intervalsOf(day: z.output<ReturnType<typeof weekday>>): OpeningInterval[] {
  return day.open && day.opens && day.closes ? [{ opens: minutesOf(day.opens), closes: minutesOf(day.closes) || 1440 }] : [];
}

export const WorkingWeekSchema = z.object(Object.fromEntries(WEEKDAYS.map((name) => [name, weekday()])) as Record<WeekdayName, ReturnType<typeof weekday>>);
export type WorkingWeekInput = z.input<typeof WorkingWeekSchema>;

// ---------------------------------------------------------------------------
// Closed days
// ---------------------------------------------------------------------------

export const ClosedDaySchema = z.object({
  day: z.string({ error: REQUIRED }).trim().min(1, REQUIRED).refine(isCalendarDay, "serviceLevels:validation.date"),
  name: requiredText(MAX_CLOSED_DAY_NAME),
});
export type ClosedDayInput = z.input<typeof ClosedDaySchema>;

export const RemoveClosedDaySchema = z.object({ closedDayId: idField(INVALID) });

export const PublicHolidaysSchema = z.object({
  year: z
    .number({ error: "serviceLevels:validation.year" })
    .int("serviceLevels:validation.year")
    .min(MIN_HOLIDAY_YEAR, "serviceLevels:validation.year")
    .max(MAX_HOLIDAY_YEAR, "serviceLevels:validation.year"),
  language: z.enum(HOLIDAY_LANGUAGES, { error: INVALID }),
});
export type PublicHolidaysInput = z.input<typeof PublicHolidaysSchema>;

// ---------------------------------------------------------------------------
// Targets
// ---------------------------------------------------------------------------

const HOURS = /^\d{1,5}([.,]\d{1,2})?$/;
const HOURS_INVALID = "serviceLevels:validation.hours";

/** Hours as typed, empty for no target: at least a minute, at most a year; the value stays the text typed. */
const hours = () =>
  z
    .string({ error: HOURS_INVALID })
    .trim()
    // Text that is not hours stops here: one message beside the field, not three.
    .regex(HOURS, { message: HOURS_INVALID, abort: true })
    .refine((text) => minutesOfHours(text) >= 1, HOURS_INVALID)
    .refine((text) => minutesOfHours(text) <= MAX_TARGET_HOURS * 60, "serviceLevels:validation.hoursTooMany")
    .nullish()
    .transform((text) => text ?? null);

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
