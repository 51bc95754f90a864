import { and, eq, inArray, isNull, sql } from "drizzle-orm";
import type { z } from "zod";
import { assertCan, can, personWhoCan, reachesWholeEntity } from "~/core/actor";
import { AUDIT, type AuditAction } from "~/core/audit-actions";
import type { ServiceContext } from "~/core/context.server";
import { type Input, resolveInput } from "~/core/input";
import { type Effects, withTx } from "~/core/unit-of-work.server";
import { entities, type Incident, materialLines, timeEntries, users } from "~/db/schema";
import { dayIn } from "~/lib/dates";
import { ForbiddenError, NotFoundError, ValidationError } from "~/lib/errors";
import { parseInput } from "~/lib/validation";
import { assigneeCandidates, findIncidentInReach } from "~/modules/incidents/queries.server";
import { incidentWorkLogged } from "./changes.server";
import { type HourlyRatesInput, HourlyRatesSchema, type MaterialLineInput, MaterialLineSchema, type TimeEntryInput, TimeEntrySchema } from "./schema";

/**
 * Time and material recorded on an incident (issue 62; tasks follow with the same tables). Who may:
 * - whoever handles the incident (it is in their reach) and may record time (`create time`) records
 *   their own time and material lines, and corrects or deletes their own entries only;
 * - who may `manage time` (managers and administrators) records time for any person the incident may
 *   be assigned to, and corrects or deletes any entry of an incident in their reach.
 * An incident out of reach, another entity's or archived, is "Incident not found"; an entry not of that
 * incident is "Entry not found". Each verb writes its audit row and emits `incident.work-logged` in its
 * transaction.
 */

/** The record the work was done on: an incident for now, a task later. */
export interface WorkTarget {
  incidentId: number;
}

export const timeEntryNotFound = () => new NotFoundError("timeCosts:errors.entryNotFound", "TIME_ENTRY_NOT_FOUND");
export const materialLineNotFound = () => new NotFoundError("timeCosts:errors.lineNotFound", "MATERIAL_LINE_NOT_FOUND");
const notYours = () => new ForbiddenError("timeCosts:errors.notYours", "NOT_YOUR_ENTRY");

const validId = (id: number) => Number.isSafeInteger(id) && id > 0 && id <= 2_147_483_647;

/** Checks the permission, then runs `work` on the locked incident in reach, in one unit of work. */
function onIncident<T>(ctx: ServiceContext, target: WorkTarget, work: (tx: ServiceContext, incident: Incident, effects: Effects, actorId: number) => Promise<T>) {
  const actor = personWhoCan(ctx.actor, "create", "time");
  assertCan(actor, "handle", "incident");
  return withTx(ctx, async (tx, effects) => {
    const incident = await findIncidentInReach(tx, target.incidentId, { lock: true });
    return work(tx, incident, effects, actor.id);
  });
}

/**
 * The person the time is for: the actor when none is named (or themselves); someone else only for who
 * may manage time, and only a person the incident may be assigned to (active, of the entity, reaching
 * its room).
 */
async function workerOf(ctx: ServiceContext, incident: Incident, actorId: number, userId: number | null | undefined): Promise<number> {
  if (userId == null || userId === actorId) return actorId;
  if (!can(ctx.actor, "manage", "time")) throw new ForbiddenError("timeCosts:errors.othersTime", "NOT_YOUR_TIME");
  const [person] = await ctx.db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.id, userId), eq(users.entityId, ctx.entityId), assigneeCandidates(ctx, incident.roomId)));
  if (!person) throw new ValidationError({ userId: ["timeCosts:validation.personOutOfReach"] }, "timeCosts:validation.personOutOfReach", "PERSON_NOT_ALLOWED");
  return person.id;
}

/**
 * The hourly rate of `userId` now (their own, else the entity's default; null: none), captured on the
 * entry so that a later change of rates does not rewrite past costs.
 */
async function currentRateOf(ctx: ServiceContext, userId: number): Promise<string | null> {
  const [row] = await ctx.db
    .select({ rate: sql<string | null>`coalesce(${users.hourlyRate}, ${entities.defaultHourlyRate})::text` })
    .from(users)
    .innerJoin(entities, eq(entities.id, users.entityId))
    .where(and(eq(users.id, userId), eq(users.entityId, ctx.entityId)));
  return row?.rate ?? null;
}

/** Work is recorded up to today (the entity's), not ahead. */
function checkDay(ctx: ServiceContext, workedOn: string) {
  if (workedOn > dayIn(new Date(), ctx.timeZone)) {
    throw new ValidationError({ workedOn: ["timeCosts:validation.future"] }, "timeCosts:validation.future", "WORK_IN_FUTURE");
  }
}

/** The audit log's record kind of each kind of work. */
const WORK_RECORD_TYPE = { time: "timeEntry", material: "materialLine" } as const;

/**
 * One change of the work in the unit of work: its audit row (the incident's id first in its details)
 * and the `incident.work-logged` event.
 */
async function logWork(
  effects: Effects,
  incident: Incident,
  change: { kind: "time" | "material"; id: number; action: "added" | "updated" | "deleted"; audit: AuditAction; details: Record<string, unknown> },
) {
  await effects.audit({
    action: change.audit,
    recordType: WORK_RECORD_TYPE[change.kind],
    recordId: change.id,
    details: { incidentId: incident.id, ...change.details },
  });
  await effects.emit(incidentWorkLogged, { incidentId: incident.id, shortId: incident.shortId, kind: change.kind, id: change.id, action: change.action });
}

/** The input of a verb that records work, read once the actor is known to be allowed to record it. */
async function recorderInput<S extends z.ZodType>(ctx: ServiceContext, schema: S, rawInput: Input<z.input<S>>): Promise<z.output<S>> {
  personWhoCan(ctx.actor, "create", "time");
  assertCan(ctx.actor, "handle", "incident");
  return parseInput(schema, await resolveInput(rawInput));
}

const minutesOf = (value: { hours: number; minutes: number }) => value.hours * 60 + value.minutes;

/**
 * The change of a correction, read once the actor is known to be allowed to record work: the fields it
 * sends (a form sends them all, a REST PATCH some), completed with the stored values inside the verb's
 * transaction, on the locked row, so that two changes of different fields at once both hold.
 */
async function changeInput<T extends object>(ctx: ServiceContext, rawInput: Input<Partial<T>>): Promise<Record<string, unknown>> {
  personWhoCan(ctx.actor, "create", "time");
  assertCan(ctx.actor, "handle", "incident");
  const raw = await resolveInput(rawInput);
  if (!raw || typeof raw !== "object" || Array.isArray(raw)) throw new ValidationError({ _form: ["common:validation.invalid"] }, "common:validation.invalid");
  return raw as Record<string, unknown>;
}

const has = (change: Record<string, unknown>, field: string) => Object.hasOwn(change, field);
const sent = (change: Record<string, unknown>, field: string, stored: unknown) => (has(change, field) ? change[field] : stored);

/**
 * A time entry's change over its stored values: the fields sent replace the stored ones, the others are
 * kept. The duration is one value: sending `hours` or `minutes` replaces both (the one left out is 0),
 * so "minutes: 30" is half an hour, not the stored hours and 30 minutes. Left out, the person stays.
 */
function timeEntryChange(entry: { workedOn: string; minutes: number; note: string | null }, change: Record<string, unknown>): unknown {
  const duration = has(change, "hours") || has(change, "minutes") ? { hours: change.hours, minutes: change.minutes } : { hours: Math.floor(entry.minutes / 60), minutes: entry.minutes % 60 };
  return { userId: change.userId, workedOn: sent(change, "workedOn", entry.workedOn), ...duration, note: sent(change, "note", entry.note) };
}

/** A material line's change over its stored values: the fields sent replace the stored ones. */
function materialLineChange(line: { description: string; quantity: string; unitCost: string }, change: Record<string, unknown>): unknown {
  return { description: sent(change, "description", line.description), quantity: sent(change, "quantity", line.quantity), unitCost: sent(change, "unitCost", line.unitCost) };
}

// ---------------------------------------------------------------------------
// Time
// ---------------------------------------------------------------------------

/** Records time spent on the incident (one's own, or a manager's for another person). */
export async function recordTime(ctx: ServiceContext, target: WorkTarget, rawInput: Input<TimeEntryInput>): Promise<{ id: number }> {
  const input = await recorderInput(ctx, TimeEntrySchema, rawInput);
  checkDay(ctx, input.workedOn);
  return onIncident(ctx, target, async (tx, incident, effects, actorId) => {
    const userId = await workerOf(tx, incident, actorId, input.userId);
    const minutes = minutesOf(input);
    const hourlyRate = await currentRateOf(tx, userId);
    const [row] = await tx.db
      .insert(timeEntries)
      .values({ entityId: tx.entityId, incidentId: incident.id, userId, workedOn: input.workedOn, minutes, hourlyRate, note: input.note, createdById: actorId })
      .returning({ id: timeEntries.id });
    await logWork(effects, incident, {
      kind: "time",
      id: row.id,
      action: "added",
      audit: AUDIT.timeEntry.record,
      details: { userId, workedOn: input.workedOn, minutes, hourlyRate },
    });
    return { id: row.id };
  });
}

/** The entry of the incident, locked; one's own unless the actor may manage time. */
async function entryToChange(ctx: ServiceContext, incident: Incident, actorId: number, entryId: number) {
  if (!validId(entryId)) throw timeEntryNotFound();
  const [entry] = await ctx.db
    .select()
    .from(timeEntries)
    .where(and(eq(timeEntries.id, entryId), eq(timeEntries.incidentId, incident.id), eq(timeEntries.entityId, ctx.entityId)))
    .for("update");
  if (!entry) throw timeEntryNotFound();
  if (entry.userId !== actorId && !can(ctx.actor, "manage", "time")) throw notYours();
  return entry;
}

/**
 * Corrects a time entry (the day, the duration, the note; the person for a manager). The fields left
 * out keep their stored values (timeEntryChange), read on the locked entry.
 */
export async function updateTimeEntry(ctx: ServiceContext, target: WorkTarget, entryId: number, rawInput: Input<Partial<TimeEntryInput>>): Promise<{ id: number }> {
  const change = await changeInput<TimeEntryInput>(ctx, rawInput);
  return onIncident(ctx, target, async (tx, incident, effects, actorId) => {
    const entry = await entryToChange(tx, incident, actorId, entryId);
    const input = parseInput(TimeEntrySchema, timeEntryChange(entry, change));
    checkDay(tx, input.workedOn);
    // Left out (or named again), the person stays who they were, even one who no longer reaches the
    // incident; a technician cannot hand their entry to someone else.
    const userId = input.userId === undefined || input.userId === entry.userId ? entry.userId : await workerOf(tx, incident, actorId, input.userId);
    const minutes = minutesOf(input);
    if (entry.userId === userId && entry.workedOn === input.workedOn && entry.minutes === minutes && (entry.note ?? null) === input.note) return { id: entry.id };
    // The entry keeps the rate it was recorded with; given to another person, it takes theirs (today's).
    const hourlyRate = userId === entry.userId ? entry.hourlyRate : await currentRateOf(tx, userId);
    await tx.db
      .update(timeEntries)
      .set({ userId, workedOn: input.workedOn, minutes, hourlyRate, note: input.note, updatedAt: new Date() })
      .where(and(eq(timeEntries.id, entry.id), eq(timeEntries.entityId, tx.entityId)));
    await logWork(effects, incident, {
      kind: "time",
      id: entry.id,
      action: "updated",
      audit: AUDIT.timeEntry.update,
      details: {
        before: { userId: entry.userId, workedOn: entry.workedOn, minutes: entry.minutes, hourlyRate: entry.hourlyRate },
        after: { userId, workedOn: input.workedOn, minutes, hourlyRate },
      },
    });
    return { id: entry.id };
  });
}

/** Deletes a time entry (one's own; any for a manager). */
export async function deleteTimeEntry(ctx: ServiceContext, target: WorkTarget, entryId: number): Promise<void> {
  await onIncident(ctx, target, async (tx, incident, effects, actorId) => {
    const entry = await entryToChange(tx, incident, actorId, entryId);
    await tx.db.delete(timeEntries).where(and(eq(timeEntries.id, entry.id), eq(timeEntries.entityId, tx.entityId)));
    await logWork(effects, incident, {
      kind: "time",
      id: entry.id,
      action: "deleted",
      audit: AUDIT.timeEntry.delete,
      details: { userId: entry.userId, workedOn: entry.workedOn, minutes: entry.minutes },
    });
  });
}

// ---------------------------------------------------------------------------
// Material
// ---------------------------------------------------------------------------

/** Adds a material line (description, quantity, unit cost) to the incident. */
export async function addMaterialLine(ctx: ServiceContext, target: WorkTarget, rawInput: Input<MaterialLineInput>): Promise<{ id: number }> {
  const input = await recorderInput(ctx, MaterialLineSchema, rawInput);
  return onIncident(ctx, target, async (tx, incident, effects, actorId) => {
    const [row] = await tx.db
      .insert(materialLines)
      .values({ entityId: tx.entityId, incidentId: incident.id, description: input.description, quantity: input.quantity, unitCost: input.unitCost, createdById: actorId })
      .returning({ id: materialLines.id });
    await logWork(effects, incident, {
      kind: "material",
      id: row.id,
      action: "added",
      audit: AUDIT.materialLine.add,
      details: { description: input.description, quantity: input.quantity, unitCost: input.unitCost },
    });
    return { id: row.id };
  });
}

/** The line of the incident, locked; one the actor added unless they may manage time. */
async function lineToChange(ctx: ServiceContext, incident: Incident, actorId: number, lineId: number) {
  if (!validId(lineId)) throw materialLineNotFound();
  const [line] = await ctx.db
    .select()
    .from(materialLines)
    .where(and(eq(materialLines.id, lineId), eq(materialLines.incidentId, incident.id), eq(materialLines.entityId, ctx.entityId)))
    .for("update");
  if (!line) throw materialLineNotFound();
  if (line.createdById !== actorId && !can(ctx.actor, "manage", "time")) throw notYours();
  return line;
}

/** Corrects a material line (one's own; any for a manager); the fields left out keep their stored values. */
export async function updateMaterialLine(ctx: ServiceContext, target: WorkTarget, lineId: number, rawInput: Input<Partial<MaterialLineInput>>): Promise<{ id: number }> {
  const change = await changeInput<MaterialLineInput>(ctx, rawInput);
  return onIncident(ctx, target, async (tx, incident, effects, actorId) => {
    const line = await lineToChange(tx, incident, actorId, lineId);
    const input = parseInput(MaterialLineSchema, materialLineChange(line, change));
    if (line.description === input.description && Number(line.quantity) === Number(input.quantity) && Number(line.unitCost) === Number(input.unitCost)) {
      return { id: line.id };
    }
    await tx.db
      .update(materialLines)
      .set({ description: input.description, quantity: input.quantity, unitCost: input.unitCost, updatedAt: new Date() })
      .where(and(eq(materialLines.id, line.id), eq(materialLines.entityId, tx.entityId)));
    await logWork(effects, incident, {
      kind: "material",
      id: line.id,
      action: "updated",
      audit: AUDIT.materialLine.update,
      details: {
        before: { description: line.description, quantity: line.quantity, unitCost: line.unitCost },
        after: { description: input.description, quantity: input.quantity, unitCost: input.unitCost },
      },
    });
    return { id: line.id };
  });
}

/** Deletes a material line (one's own; any for a manager). */
export async function deleteMaterialLine(ctx: ServiceContext, target: WorkTarget, lineId: number): Promise<void> {
  await onIncident(ctx, target, async (tx, incident, effects, actorId) => {
    const line = await lineToChange(tx, incident, actorId, lineId);
    await tx.db.delete(materialLines).where(and(eq(materialLines.id, line.id), eq(materialLines.entityId, tx.entityId)));
    await logWork(effects, incident, {
      kind: "material",
      id: line.id,
      action: "deleted",
      audit: AUDIT.materialLine.delete,
      details: { description: line.description, quantity: line.quantity, unitCost: line.unitCost },
    });
  });
}

// ---------------------------------------------------------------------------
// Rates
// ---------------------------------------------------------------------------

export const entityNotFound = () => new NotFoundError("settings:errors.entityNotFound", "ENTITY_NOT_FOUND");

/**
 * Who may read or set the rates (`read`/`manage rate`: administrators, or their token with the rate
 * scope): the rates span every person of the entity, so a token limited to some facilities may not
 * (403). Another entity's id (the REST address names one) is "Entity not found".
 */
export function assertRateKeeper(ctx: ServiceContext, action: "read" | "manage", entityId: number): void {
  const actor = personWhoCan(ctx.actor, action, "rate");
  if (!reachesWholeEntity(actor)) throw new ForbiddenError("timeCosts:errors.ratesWholeEntity", "RATES_WHOLE_ENTITY");
  if (entityId !== ctx.entityId) throw entityNotFound();
}

const sameAmount = (a: string | null, b: string | null) => (a === null || b === null ? a === b : Number(a) === Number(b));

/**
 * Sets the entity's currency, its default hourly rate and the listed people's own rates (administrators
 * only). Every listed person must be one of the entity's people, not archived: anyone else (another
 * entity's id) refuses the whole form. Entries already recorded keep the rate they were recorded with.
 * `entityId`: the entity the caller names (REST), refused unless it is theirs.
 * One audit row `rate.set` with what changed.
 */
export async function setHourlyRates(ctx: ServiceContext, rawInput: Input<HourlyRatesInput>, entityId: number = ctx.entityId): Promise<void> {
  assertRateKeeper(ctx, "manage", entityId);
  const input = parseInput(HourlyRatesSchema, await resolveInput(rawInput));
  const ids = input.rates.map((r) => r.userId);
  if (new Set(ids).size !== ids.length) throw new ValidationError({ rates: ["timeCosts:validation.ratePerson"] }, "timeCosts:validation.ratePerson", "RATE_PERSON_TWICE");
  await withTx(ctx, async (tx, effects) => {
    const [entity] = await tx.db
      .select({ currency: entities.currency, defaultRate: entities.defaultHourlyRate })
      .from(entities)
      .where(eq(entities.id, tx.entityId))
      .for("update");
    const people = ids.length
      ? await tx.db
          .select({ id: users.id, rate: users.hourlyRate })
          .from(users)
          .where(and(eq(users.entityId, tx.entityId), inArray(users.id, ids), isNull(users.archivedAt)))
          .for("update")
      : [];
    if (people.length !== ids.length) throw new ValidationError({ rates: ["timeCosts:validation.ratePerson"] }, "timeCosts:validation.ratePerson", "RATE_PERSON_NOT_FOUND");
    const before = new Map(people.map((p) => [p.id, p.rate]));
    const changedPeople = input.rates.filter((r) => !sameAmount(before.get(r.userId) ?? null, r.rate));
    const entityChanged = entity.currency !== input.currency || !sameAmount(entity.defaultRate, input.defaultRate);
    if (!entityChanged && !changedPeople.length) return;
    if (entityChanged) {
      await tx.db.update(entities).set({ currency: input.currency, defaultHourlyRate: input.defaultRate, updatedAt: new Date() }).where(eq(entities.id, tx.entityId));
    }
    for (const person of changedPeople) {
      await tx.db
        .update(users)
        .set({ hourlyRate: person.rate })
        .where(and(eq(users.id, person.userId), eq(users.entityId, tx.entityId)));
    }
    await effects.audit({
      action: AUDIT.rate.set,
      recordType: "rate",
      recordId: tx.entityId,
      details: {
        ...(entity.currency !== input.currency ? { currency: { from: entity.currency, to: input.currency } } : {}),
        ...(!sameAmount(entity.defaultRate, input.defaultRate) ? { defaultRate: { from: entity.defaultRate, to: input.defaultRate } } : {}),
        people: changedPeople.map((p) => ({ userId: p.userId, from: before.get(p.userId) ?? null, to: p.rate })),
      },
    });
  });
}
