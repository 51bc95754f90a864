/**
 * Input schemas of the time and costs verbs (client-safe, shared by the forms and, later, the REST
 * calls). Messages are i18n keys. A form posts strings ("1", "12,50"); JSON may post numbers: both
 * read alike. Amounts stay decimal strings ("12.50") from the form to the `numeric` columns, never
 * binary floats.
 */
import { z } from "zod";
import { isCalendarDay } from "~/lib/dates";
import { optionalText, requiredText } from "~/lib/schema-helpers";
import { CURRENCIES, MAX_ENTRY_MINUTES, MAX_HOURLY_RATE, MAX_QUANTITY, MAX_UNIT_COST, MATERIAL_DESCRIPTION_MAX, TIME_NOTE_MAX } from "./constants";

const DURATION = "timeCosts:validation.duration";
const HOURS = "timeCosts:validation.hours";
const MINUTES = "timeCosts:validation.minutes";
const DAY = "timeCosts:validation.workedOn";
const PERSON = "timeCosts:validation.person";
const QUANTITY = "timeCosts:validation.quantity";
const UNIT_COST = "timeCosts:validation.unitCost";

const blank = (v: unknown) => v === undefined || v === null || (typeof v === "string" && v.trim() === "");

/** A whole number from a form's string or JSON; a blank input is 0 (the other half of a duration may hold it). */
const wholeNumber = (message: string, max: number) =>
  z.preprocess(
    (v) => (blank(v) ? 0 : typeof v === "string" && /^\d{1,5}$/.test(v.trim()) ? Number(v.trim()) : v),
    z.number({ error: message }).int(message).min(0, message).max(max, message),
  );

/**
 * A decimal amount with at most `scale` decimals, written with a point or a comma ("12,50" in French and
 * Dutch), as the exact string "12.50"; refused: signs, exponents, thousands separators, more than
 * `max`, fewer than `min` (exclusive when `positive`).
 */
export const decimalField = (message: string, scale: number, max: number, options: { positive?: boolean } = {}) =>
  z.preprocess(
    (v) => {
      if (typeof v === "number") return Number.isFinite(v) ? String(v) : "";
      return typeof v === "string" ? v.trim().replace(",", ".") : v;
    },
    z
      .string({ error: message })
      // Text that is not an amount stops here: one message beside the field, not two.
      .regex(new RegExp(`^\\d{1,10}(\\.\\d{1,${scale}})?$`), { message, abort: true })
      .refine((s) => Number(s) <= max && (options.positive ? Number(s) > 0 : true), message)
      .transform((s) => {
        const [whole, fraction = ""] = s.split(".");
        const trimmed = whole.replace(/^0+(?=\d)/, "");
        return fraction ? `${trimmed}.${fraction}` : trimmed;
      }),
  );

/** A person's id (the worker), or none given: the actor themselves. */
const personField = () =>
  z.preprocess(
    (v) => (blank(v) || v === "self" ? null : typeof v === "string" && /^\d{1,10}$/.test(v.trim()) ? Number(v.trim()) : v),
    z.number({ error: PERSON }).int(PERSON).positive(PERSON).max(2_147_483_647, PERSON).nullable(),
  );

const dayField = () => z.string({ error: DAY }).trim().refine(isCalendarDay, DAY);

/** Hours and minutes of one entry: together more than nothing and at most a day. */
const timeShape = {
  userId: personField().optional(),
  workedOn: dayField(),
  hours: wholeNumber(HOURS, 24),
  minutes: wholeNumber(MINUTES, MAX_ENTRY_MINUTES),
  note: optionalText(TIME_NOTE_MAX),
};

const withDuration = <T extends { hours: number; minutes: number }>(value: T, issues: z.RefinementCtx) => {
  const total = value.hours * 60 + value.minutes;
  if (total < 1 || total > MAX_ENTRY_MINUTES) issues.addIssue({ code: "custom", message: DURATION, path: ["minutes"] });
};

/** Records time: the day, the duration (hours and minutes), a note, and for a manager the person who worked. */
export const TimeEntrySchema = z.object(timeShape).superRefine(withDuration);
export type TimeEntryInput = z.input<typeof TimeEntrySchema>;
export type TimeEntryValues = z.output<typeof TimeEntrySchema>;

export const MaterialLineSchema = z.object({
  description: requiredText(MATERIAL_DESCRIPTION_MAX, "timeCosts:validation.description"),
  quantity: decimalField(QUANTITY, 3, MAX_QUANTITY, { positive: true }),
  unitCost: decimalField(UNIT_COST, 2, MAX_UNIT_COST),
});
export type MaterialLineInput = z.input<typeof MaterialLineSchema>;
export type MaterialLineValues = z.output<typeof MaterialLineSchema>;

const RATE = "timeCosts:validation.rate";
const CURRENCY = "timeCosts:validation.currency";

/** An hourly rate ("45", "45,50"), or a blank field: no rate (null). */
const rateField = () => z.preprocess((v) => (blank(v) ? null : v), decimalField(RATE, 2, MAX_HOURLY_RATE).nullable());

/**
 * The entity's rates (administrators): its currency, its default hourly rate (blank: none) and each
 * listed person's own rate (blank: the default). A person left out of `rates` keeps theirs.
 */
export const HourlyRatesSchema = z.object({
  currency: z.enum(CURRENCIES, { error: CURRENCY }),
  defaultRate: rateField(),
  rates: z
    .array(
      z.object({
        userId: z.preprocess(
          (v) => (typeof v === "string" && /^\d{1,10}$/.test(v.trim()) ? Number(v.trim()) : v),
          z.number({ error: PERSON }).int(PERSON).positive(PERSON).max(2_147_483_647, PERSON),
        ),
        rate: rateField(),
      }),
    )
    .max(2000)
    .default([]),
});
export type HourlyRatesInput = z.input<typeof HourlyRatesSchema>;
export type HourlyRatesValues = z.output<typeof HourlyRatesSchema>;
