import { z } from "zod";
import { type Deferred, deferred } from "~/core/input";
import { idParam, parseJson } from "~/http/api.server";
import { CURRENCIES, MATERIAL_DESCRIPTION_MAX, MAX_ENTRY_MINUTES, MAX_HOURLY_RATE, TIME_NOTE_MAX } from "~/modules/time-costs/constants";
import { ValidationError } from "~/lib/errors";
import type { HourlyRatesInput } from "~/modules/time-costs/schema";
import { entityNotFound, materialLineNotFound, timeEntryNotFound } from "~/modules/time-costs/service.server";

/**
 * What the time and material calls under /api/incidents/{id} share (issue 62): the entry and line ids of
 * the address (a malformed one is "not found" before the database is asked), the bodies as the verbs
 * read them (validated by the verb, after its permission check, with TimeEntrySchema or
 * MaterialLineSchema; a PATCH's body is completed with the stored values by the verb, in its
 * transaction), and the documented shapes of those bodies (the verbs' schemas preprocess their fields, which JSON
 * Schema cannot express).
 */

/** The time entry id of the address; a malformed one is 404 TIME_ENTRY_NOT_FOUND. */
export function entryIdParam(params: { entryId?: string }): number {
  const id = idParam(params.entryId);
  if (!id) throw timeEntryNotFound();
  return id;
}

/** The material line id of the address; a malformed one is 404 MATERIAL_LINE_NOT_FOUND. */
export function lineIdParam(params: { lineId?: string }): number {
  const id = idParam(params.lineId);
  if (!id) throw materialLineNotFound();
  return id;
}

/** The entity id of /api/entities/{id}/hourly-rates; a malformed one is 404 ENTITY_NOT_FOUND (another entity's, the verb's). */
export function ratesEntityParam(params: { id?: string }): number {
  const id = idParam(params.id);
  if (!id) throw entityNotFound();
  return id;
}

/** A JSON object body (anything else is 400 through parseJson: INVALID_JSON, VALIDATION); its fields are the verb's to check. */
const ObjectBody = z.record(z.string(), z.unknown());

function objectBody(request: Request): Promise<Record<string, unknown>> {
  return parseJson(request, ObjectBody);
}

/** A POST's body (the whole entry or line) or a PATCH's (the fields to change), read when the verb asks for it. */
export function workBody<T>(request: Request): Deferred<T> {
  return deferred(async () => (await objectBody(request)) as T);
}

// ---------------------------------------------------------------------------
// The documented bodies and answers (OpenAPI)
// ---------------------------------------------------------------------------

const wholeOrText = (description: string) => z.union([z.number().int().min(0), z.string()]).describe(description);
const decimal = (description: string) => z.union([z.number().min(0), z.string()]).describe(description);

export const TimeEntryBodySchema = z
  .object({
    userId: z
      .number()
      .int()
      .positive()
      .nullable()
      .optional()
      .describe("Who worked: left out or null, the caller; another person only for managers and administrators (someone the incident may be assigned to)"),
    workedOn: z.string().describe("The day worked (YYYY-MM-DD), not after today in the entity's time zone"),
    hours: wholeOrText("Hours (0 to 24)").optional(),
    minutes: wholeOrText(`Minutes; hours and minutes together 1 to ${MAX_ENTRY_MINUTES}`).optional(),
    note: z.string().max(TIME_NOTE_MAX).nullable().optional(),
  })
  .meta({ title: "TimeEntryBody" });
export const TimeEntryPatchSchema = TimeEntryBodySchema.partial().meta({
  title: "TimeEntryPatch",
  description: "The fields to change; the others keep their values. Sending hours or minutes replaces the whole duration.",
});

export const MaterialLineBodySchema = z
  .object({
    description: z.string().max(MATERIAL_DESCRIPTION_MAX),
    quantity: decimal('More than 0, at most 3 decimals (a point or a comma: "2,5")'),
    unitCost: decimal("0 or more, at most 2 decimals, in the entity's currency"),
  })
  .meta({ title: "MaterialLineBody" });
export const MaterialLinePatchSchema = MaterialLineBodySchema.partial().meta({
  title: "MaterialLinePatch",
  description: "The fields to change; the others keep their values.",
});

/**
 * A PUT of the rates: a JSON object that names `defaultRate` (null clears it). A form leaves a blank
 * default out and means "none"; a JSON body that leaves it out must not clear it by accident. The
 * fields are the verb's to check (HourlyRatesSchema).
 */
export function ratesBody(request: Request): Deferred<HourlyRatesInput> {
  return deferred(async () => {
    const body = await objectBody(request);
    if (!Object.hasOwn(body, "defaultRate")) throw new ValidationError({ defaultRate: ["timeCosts:validation.rate"] }, "timeCosts:validation.rate");
    return body as HourlyRatesInput;
  });
}

const rate = (description: string) => z.union([z.number().min(0).max(MAX_HOURLY_RATE), z.string()]).nullable().describe(description);

export const HourlyRatesBodySchema = z
  .object({
    currency: z.enum(CURRENCIES).describe("The entity's currency (ISO 4217); amounts are relabelled, not converted"),
    defaultRate: rate('The default hourly rate of people without their own ("45,50" or 45.5; null: none); required, so that leaving it out does not clear it'),
    rates: z
      .array(z.object({ userId: z.number().int().positive(), rate: rate("Their own hourly rate; null: the default") }))
      .max(2000)
      .optional()
      .describe("The people whose rate changes (the entity's, not archived; another id refuses the whole body); the others keep theirs"),
  })
  .meta({ title: "HourlyRatesBody" });
