import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { type Deferred, deferred } from "~/core/input";
import { apiRoute, created, idParam, methodNotAllowed, parseJson } from "~/http/api.server";
import { incidentIdParam } from "~/http/incident-api.server";
import { ValidationError } from "~/lib/errors";
import { taskNotFound } from "~/modules/maintenance/task-queries.server";
import { CURRENCIES, MATERIAL_DESCRIPTION_MAX, MAX_ENTRY_MINUTES, MAX_HOURLY_RATE, TIME_NOTE_MAX } from "~/modules/time-costs/constants";
import { getWork } from "~/modules/time-costs/queries.server";
import type { HourlyRatesInput, MaterialLineInput, TimeEntryInput } from "~/modules/time-costs/schema";
import { addMaterialLine, deleteMaterialLine, deleteTimeEntry, entityNotFound, materialLineNotFound, recordTime, startClock, stopClock, timeEntryNotFound, updateMaterialLine, updateTimeEntry, type WorkTarget } from "~/modules/time-costs/service.server";

/**
 * The time and material calls under /api/incidents/{id} and /api/tasks/{id} (issue 62), one handler of
 * each for both records (the route modules only name theirs), and what they share: the record, entry and
 * line ids of the address (a malformed one is "not found" before the database is asked), the bodies as the verbs
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

/** The kinds of record whose work the REST calls read and write. */
export type WorkRecordKind = "incident" | "task";

/** The record of the address (`{id}`); a malformed id is 404 INCIDENT_NOT_FOUND or TASK_NOT_FOUND. */
function targetOf(kind: WorkRecordKind, params: { id?: string }): WorkTarget {
  if (kind === "incident") return { incidentId: incidentIdParam(params) };
  const id = idParam(params.id);
  if (!id) throw taskNotFound();
  return { taskId: id };
}

/**
 * GET and POST /api/{incidents|tasks}/{id}/time-entries. GET: the record's time entries, oldest first
 * (at most 200), as `[{ id, person: { id, name }, workedOn, minutes, note, hourlyRate, cost, editable }]`
 * with X-Total-Count (every entry) and X-Total-Minutes (their sum). POST `{ workedOn, hours, minutes,
 * note?, userId? }`: records time (one's own; a manager's also for another person who reaches the
 * record's room); 201 with `{ id }`.
 */
export function timeEntriesRoute(kind: WorkRecordKind) {
  return {
    loader: apiRoute<LoaderFunctionArgs>(async ({ params, ctx }) => {
      const work = await getWork(ctx, targetOf(kind, params));
      return Response.json(work.entries, { headers: { "X-Total-Count": String(work.totals.entries), "X-Total-Minutes": String(work.totals.minutes) } });
    }),
    action: apiRoute<ActionFunctionArgs>(async ({ request, params, ctx }) => {
      if (request.method !== "POST") return methodNotAllowed("GET, POST");
      return created(await recordTime(ctx, targetOf(kind, params), workBody<TimeEntryInput>(request)));
    }),
  };
}

/**
 * PATCH and DELETE /api/{incidents|tasks}/{id}/time-entries/{entryId}: PATCH changes the fields sent (the
 * others are kept) and answers `{ id }`; DELETE removes the entry. A technician changes their own entries
 * only (403 NOT_YOUR_ENTRY); managers any within reach. An entry of another record is 404
 * TIME_ENTRY_NOT_FOUND.
 */
export function timeEntryRoute(kind: WorkRecordKind) {
  return {
    action: apiRoute<ActionFunctionArgs>(async ({ request, params, ctx }) => {
      if (request.method !== "PATCH" && request.method !== "DELETE") return methodNotAllowed("PATCH, DELETE");
      const target = targetOf(kind, params);
      const entryId = entryIdParam(params);
      if (request.method === "DELETE") return deleteTimeEntry(ctx, target, entryId);
      return updateTimeEntry(ctx, target, entryId, workBody<Partial<TimeEntryInput>>(request));
    }),
    loader: apiRoute(() => methodNotAllowed("PATCH, DELETE")),
  };
}

/**
 * GET and POST /api/{incidents|tasks}/{id}/material-lines. GET: the record's material lines, oldest first
 * (at most 200), as `[{ id, description, quantity, unitCost, total, addedBy, editable }]` (amounts as
 * exact decimal strings) with X-Total-Count (every line) and X-Total-Amount (the sum of their totals).
 * POST `{ description, quantity, unitCost }`: adds a line; 201 with `{ id }`.
 */
export function materialLinesRoute(kind: WorkRecordKind) {
  return {
    loader: apiRoute<LoaderFunctionArgs>(async ({ params, ctx }) => {
      const work = await getWork(ctx, targetOf(kind, params));
      return Response.json(work.lines, { headers: { "X-Total-Count": String(work.totals.lines), "X-Total-Amount": work.totals.materials } });
    }),
    action: apiRoute<ActionFunctionArgs>(async ({ request, params, ctx }) => {
      if (request.method !== "POST") return methodNotAllowed("GET, POST");
      return created(await addMaterialLine(ctx, targetOf(kind, params), workBody<MaterialLineInput>(request)));
    }),
  };
}

/**
 * PATCH and DELETE /api/{incidents|tasks}/{id}/material-lines/{lineId}: as timeEntryRoute; a line of
 * another record is 404 MATERIAL_LINE_NOT_FOUND.
 */
export function materialLineRoute(kind: WorkRecordKind) {
  return {
    action: apiRoute<ActionFunctionArgs>(async ({ request, params, ctx }) => {
      if (request.method !== "PATCH" && request.method !== "DELETE") return methodNotAllowed("PATCH, DELETE");
      const target = targetOf(kind, params);
      const lineId = lineIdParam(params);
      if (request.method === "DELETE") return deleteMaterialLine(ctx, target, lineId);
      return updateMaterialLine(ctx, target, lineId, workBody<Partial<MaterialLineInput>>(request));
    }),
    loader: apiRoute(() => methodNotAllowed("PATCH, DELETE")),
  };
}

/**
 * POST /api/{incidents|tasks}/{id}/clock/start and /clock/stop: the caller's own clock on the record,
 * the verbs of the views' Start and Stop buttons. Start answers 201 `{ startedAt }` (409 CLOCK_RUNNING
 * while one of theirs runs, here or elsewhere); stop records the time entry and answers 201 `{ id,
 * minutes, capped }` (409 CLOCK_NOT_RUNNING when none of theirs runs on this record).
 */
export function clockRoute(kind: WorkRecordKind, step: "start" | "stop") {
  const verb = step === "start" ? startClock : stopClock;
  return {
    action: apiRoute<ActionFunctionArgs>(async ({ request, params, ctx }) => {
      if (request.method !== "POST") return methodNotAllowed("POST");
      return created(await verb(ctx, targetOf(kind, params)));
    }),
    loader: apiRoute(() => methodNotAllowed("POST")),
  };
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
      .describe("Who worked: left out or null, the caller; another person only for managers and administrators (someone who reaches the incident's or task's room)"),
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
