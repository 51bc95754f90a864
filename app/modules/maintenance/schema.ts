import { z } from "zod";
import { isCalendarDay } from "~/lib/dates";
import { type AreaFieldsOf, defineFields, textMax } from "~/lib/fields";
import { idField, idList, optionalText, requiredText, tagsField } from "~/lib/schema-helpers";

/**
 * Maintenance types and planned maintenance (SPEC.md sections 3, 5, 8 and 9): one shape for the forms
 * (client and server validation), the verbs and the REST bodies. Client-safe; messages are i18n keys.
 *
 * Occurrence: every `occurrenceInterval` (>= 1) days, weeks, months or years (`occurrenceUnit` 1 to 4 of
 * TimeMeasure), or once on the start date (`occurrenceUnit` 0, unspecified; no interval). Dates are
 * local dates (YYYY-MM-DD) and the time of day a local time (HH:MM) in the entity's time zone.
 */

/** The occurrence units of TimeMeasure (app/db/enums.ts): unspecified (once), day, week, month, year. */
export const OCCURRENCE_UNITS = [0, 1, 2, 3, 4] as const;
export const MAX_OCCURRENCE_INTERVAL = 999;
/** The most ids one selection list may hold (a form or a REST body). */
export const MAX_SELECTION = 1000;

const occurrenceUnit = () =>
  z
    .union([z.literal(0), z.literal(1), z.literal(2), z.literal(3), z.literal(4)], { error: "maintenance:validation.occurrenceUnit" })
    .nullish()
    .transform((v) => v ?? 0);

const occurrenceInterval = () =>
  z
    .number({ error: "maintenance:validation.occurrenceInterval" })
    .int("maintenance:validation.occurrenceInterval")
    .min(1, "maintenance:validation.occurrenceInterval")
    .max(MAX_OCCURRENCE_INTERVAL, "maintenance:validation.occurrenceInterval")
    .nullish();

/** Minutes one maintenance takes: a whole number above 0, or empty (none). */
const estimatedDuration = () =>
  z
    .number({ error: "maintenance:validation.estimatedDuration" })
    .int("maintenance:validation.estimatedDuration")
    .min(1, "maintenance:validation.estimatedDuration")
    .max(100_000, "maintenance:validation.estimatedDuration")
    .nullish()
    .transform((v) => v ?? null);

const selection = () => idList().refine((ids) => ids.length <= MAX_SELECTION, "maintenance:validation.tooMany");

/** A local date `YYYY-MM-DD` that exists in the calendar. */
export function isLocalDate(value: string): boolean {
  return isCalendarDay(value);
}

const localDate = (required: string) =>
  z.string({ error: required }).trim().min(1, required).refine((v) => v === "" || isLocalDate(v), "maintenance:validation.date");

/** `HH:MM` (a trailing `:SS`, as PostgreSQL answers, is accepted); empty or missing is none. */
const timeOfDay = () =>
  z
    .string({ error: "maintenance:validation.time" })
    .trim()
    .nullish()
    .transform((v) => (v ? v : null))
    .refine((v) => v === null || /^([01]\d|2[0-3]):[0-5]\d(:[0-5]\d)?$/.test(v), "maintenance:validation.time")
    .transform((v) => (v ? v.slice(0, 5) : null));

const occurrenceShape = {
  occurrenceUnit: occurrenceUnit(),
  occurrenceInterval: occurrenceInterval(),
};

/** Once has no interval; a repeat without one is every 1 unit. */
function normalOccurrence<T extends { occurrenceUnit: number; occurrenceInterval?: number | null }>(value: T) {
  return { ...value, occurrenceInterval: value.occurrenceUnit === 0 ? null : (value.occurrenceInterval ?? 1) };
}

const maintenanceTypeShape = {
  name: requiredText(200, "maintenance:validation.typeNameRequired"),
  tags: tagsField(),
  ...occurrenceShape,
  instructions: optionalText(5000),
  estimatedDuration: estimatedDuration(),
  /** Default assignees of the plans made from the type. */
  assigneeIds: selection(),
  /** Default rooms and equipment items of the plans made from the type. */
  roomIds: selection(),
  equipmentItemIds: selection(),
};

export const MaintenanceTypeSchema = z.object(maintenanceTypeShape).transform(normalOccurrence);
export type MaintenanceTypeInput = z.input<typeof MaintenanceTypeSchema>;
export type MaintenanceTypeValues = z.output<typeof MaintenanceTypeSchema>;

/**
 * A maintenance type's own fields (issue 59, "one field, one place"): each is a key of the schema above
 * and a column of `maintenance_types`. The verbs write them (`fieldValues`), the detail reads them
 * (`fieldColumns`), the edit form starts from them, the import's template and values and the export's
 * columns follow them. A new field of the type is declared here (its header: its form label, `label`).
 */
export const MAINTENANCE_TYPE_FIELDS = defineFields({
  fields: {
    name: { kind: "text", required: true, max: textMax(maintenanceTypeShape.name), example: "Boiler check" },
    occurrenceUnit: { kind: "choice", choice: "occurrenceUnit" },
    occurrenceInterval: { kind: "integer", example: "1" },
    instructions: { kind: "text", max: textMax(maintenanceTypeShape.instructions), example: "Check the pressure" },
    estimatedDuration: { kind: "integer", example: "30", label: "maintenance:form.estimatedDuration" },
    tags: { kind: "tags", example: "safety" },
  },
  exportOrder: ["name", "tags", "occurrenceUnit", "occurrenceInterval", "instructions", "estimatedDuration"],
} satisfies AreaFieldsOf<MaintenanceTypeValues>);

export const PlannedMaintenanceSchema = z
  .object({
    name: requiredText(200, "maintenance:validation.planNameRequired"),
    maintenanceTypeId: idField("maintenance:validation.typeRequired"),
    startDate: localDate("maintenance:validation.startDateRequired"),
    endDate: localDate("maintenance:validation.endDateRequired"),
    timeOfDay: timeOfDay(),
    ...occurrenceShape,
    instructions: optionalText(5000),
    assigneeIds: selection(),
    /** The location tree: whole facilities and buildings (rooms added later included), single rooms and equipment items. */
    facilityIds: selection(),
    buildingIds: selection(),
    roomIds: selection(),
    equipmentItemIds: selection(),
  })
  .superRefine(
    (value, ctx) => {
      const v = (value ?? {}) as Partial<typeof value>;
      if (typeof v.startDate === "string" && typeof v.endDate === "string" && isLocalDate(v.startDate) && isLocalDate(v.endDate) && v.endDate < v.startDate) {
        ctx.addIssue({ code: "custom", message: "maintenance:validation.endBeforeStart", path: ["endDate"] });
      }
      const chosen = [v.facilityIds, v.buildingIds, v.roomIds, v.equipmentItemIds].some((ids) => Array.isArray(ids) && ids.length > 0);
      if (!chosen) ctx.addIssue({ code: "custom", message: "maintenance:validation.selection", path: ["selection"] });
    },
    // Checked even when another field is wrong, so that every error shows at once.
    { when: () => true },
  )
  .transform(normalOccurrence);
export type PlannedMaintenanceInput = z.input<typeof PlannedMaintenanceSchema>;
export type PlannedMaintenanceValues = z.output<typeof PlannedMaintenanceSchema>;
