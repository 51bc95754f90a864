import { and, eq, inArray, isNull, sql } from "drizzle-orm";
import type { z } from "zod";
import { assertCan, can, personWhoCan, reachesWholeEntity } from "~/core/actor";
import { AUDIT, type AuditAction } from "~/core/audit-actions";
import type { ServiceContext } from "~/core/context.server";
import { type Input, resolveInput } from "~/core/input";
import { type Effects, withTx } from "~/core/unit-of-work.server";
import { entities, type Incident, materialLines, type Task, timeClocks, timeEntries, users } from "~/db/schema";
import { now } from "~/lib/clock.server";
import { dayIn } from "~/lib/dates";
import { ConflictError, ForbiddenError, NotFoundError, ValidationError } from "~/lib/errors";
import { parseInput } from "~/lib/validation";
import { assigneeCandidates, findIncidentInReach } from "~/modules/incidents/queries.server";
import { findTaskInReach } from "~/modules/maintenance/task-queries.server";
import { mayMarkTask } from "~/modules/maintenance/tasks.server";
import { incidentWorkLogged, taskWorkLogged } from "./changes.server";
import { MAX_ENTRY_MINUTES } from "./constants";
import { type HourlyRatesInput, HourlyRatesSchema, type MaterialLineInput, MaterialLineSchema, type TimeEntryInput, TimeEntrySchema } from "./schema";

/**
 * Time and material recorded on an incident or a maintenance task (issue 62). Who may:
 * - whoever may record time (`create time`) and work on the record records their own time and
 *   material lines, and corrects or deletes their own entries only. On an incident: whoever handles it
 *   (it is in their reach). On a task: the rule of marking it done (maintenance/tasks.server.ts
 *   `mayMarkTask`): a task in reach that is theirs or nobody's, any in reach for a manager;
 * - who may `manage time` (managers and administrators) records time for any person who reaches the
 *   record's room (an incident's possible assignees), and corrects or deletes any entry of a record in
 *   their reach.
 * A record out of reach, another entity's or archived, is "Incident not found" / "Task not found"; an
 * entry not of that record is "Entry not found". Each verb writes its audit row and emits
 * `incident.work-logged` or `task.work-logged` in its transaction.
 *
 * Start and stop (decision 065): `startClock` keeps one running clock per person (`time_clocks`, keyed by
 * the person) on one record; `stopClock` deletes it and records an entry that started then, of the
 * elapsed minutes rounded up, at most a day (1440: a clock left running longer records a full day, and
 * the person corrects it).
 */

/** The record the work was done on: an incident or a maintenance task. */
export type WorkTarget = { incidentId: number; taskId?: undefined } | { taskId: number; incidentId?: undefined };

/** The record read in reach (and locked, for a write). */
export type WorkRecord = { kind: "incident"; row: Incident } | { kind: "task"; row: Task };

export const isTaskTarget = (target: WorkTarget): target is { taskId: number } => target.taskId !== undefined;

export const timeEntryNotFound = () => new NotFoundError("timeCosts:errors.entryNotFound", "TIME_ENTRY_NOT_FOUND");
export const materialLineNotFound = () => new NotFoundError("timeCosts:errors.lineNotFound", "MATERIAL_LINE_NOT_FOUND");
const notYours = () => new ForbiddenError("timeCosts:errors.notYours", "NOT_YOUR_ENTRY");

export const validId = (id: number) => Number.isSafeInteger(id) && id > 0 && id <= 2_147_483_647;

/** The incident or task of `target` in the viewer's reach (NotFound otherwise). */
export async function findWorkRecord(ctx: ServiceContext, target: WorkTarget, options: { lock?: boolean } = {}): Promise<WorkRecord> {
  if (isTaskTarget(target)) return { kind: "task", row: await findTaskInReach(ctx, target.taskId, options) };
  return { kind: "incident", row: await findIncidentInReach(ctx, target.incidentId, options) };
}

/** The permission to record work on this kind of record: `create time`, and handling incidents or updating tasks. */
function recorderOf(ctx: ServiceContext, target: WorkTarget) {
  const actor = personWhoCan(ctx.actor, "create", "time");
  if (isTaskTarget(target)) assertCan(actor, "update", "task");
  else assertCan(actor, "handle", "incident");
  return actor;
}

/** Checks the permission, then runs `work` on the locked record in reach that the actor may work on, in one unit of work. */
function onRecord<T>(ctx: ServiceContext, target: WorkTarget, work: (tx: ServiceContext, record: WorkRecord, effects: Effects, actorId: number) => Promise<T>) {
  const actor = recorderOf(ctx, target);
  return withTx(ctx, async (tx, effects) => {
    const record = await findWorkRecord(tx, target, { lock: true });
    if (record.kind === "task") await mayMarkTask(tx, actor, record.row);
    return work(tx, record, effects, actor.id);
  });
}

/** The columns naming the record on a new row. */
const recordColumns = (record: WorkRecord) => (record.kind === "incident" ? { incidentId: record.row.id } : { taskId: record.row.id });
/** The rows of `table` belonging to the record (the caller adds the entity). */
const ofRecord = (table: typeof timeEntries | typeof materialLines | typeof timeClocks, record: WorkRecord) =>
  record.kind === "incident" ? eq(table.incidentId, record.row.id) : eq(table.taskId, record.row.id);
export { ofRecord as workOfRecord };

/**
 * The person the time is for: the actor when none is named (or themselves); someone else only for who
 * may manage time, and only a person who reaches the record's room (an incident's possible assignees:
 * active, of the entity).
 */
async function workerOf(ctx: ServiceContext, record: WorkRecord, actorId: number, userId: number | null | undefined): Promise<number> {
  if (userId == null || userId === actorId) return actorId;
  if (!can(ctx.actor, "manage", "time")) throw new ForbiddenError("timeCosts:errors.othersTime", "NOT_YOUR_TIME");
  const [person] = await ctx.db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.id, userId), eq(users.entityId, ctx.entityId), assigneeCandidates(ctx, record.row.roomId)));
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
  if (workedOn > dayIn(new Date(now()), ctx.timeZone)) {
    throw new ValidationError({ workedOn: ["timeCosts:validation.future"] }, "timeCosts:validation.future", "WORK_IN_FUTURE");
  }
}

/** The audit log's record kind of each kind of work. */
const WORK_RECORD_TYPE = { time: "timeEntry", material: "materialLine" } as const;

/**
 * One change of the work in the unit of work: its audit row (the record's id first in its details:
 * `incidentId` or `taskId`) and the `incident.work-logged` or `task.work-logged` event.
 */
async function logWork(
  effects: Effects,
  record: WorkRecord,
  change: { kind: "time" | "material"; id: number; action: "added" | "updated" | "deleted"; audit: AuditAction; details: Record<string, unknown> },
) {
  await effects.audit({
    action: change.audit,
    recordType: WORK_RECORD_TYPE[change.kind],
    recordId: change.id,
    details: { ...recordColumns(record), ...change.details },
  });
  const what = { kind: change.kind, id: change.id, action: change.action };
  if (record.kind === "incident") {
    await effects.emit(incidentWorkLogged, { incidentId: record.row.id, shortId: record.row.shortId, ...what });
  } else {
    const task = record.row;
    await effects.emit(taskWorkLogged, { taskId: task.id, plannedMaintenanceId: task.plannedMaintenanceId, roomId: task.roomId, dueDate: task.dueDate, ...what });
  }
}

/** The input of a verb that records work, read once the actor is known to be allowed to record it. */
async function recorderInput<S extends z.ZodType>(ctx: ServiceContext, target: WorkTarget, schema: S, rawInput: Input<z.input<S>>): Promise<z.output<S>> {
  recorderOf(ctx, target);
  return parseInput(schema, await resolveInput(rawInput));
}

const minutesOf = (value: { hours: number; minutes: number }) => value.hours * 60 + value.minutes;

/**
 * The change of a correction, read once the actor is known to be allowed to record work: the fields it
 * sends (a form sends them all, a REST PATCH some), completed with the stored values inside the verb's
 * transaction, on the locked row, so that two changes of different fields at once both hold.
 */
async function changeInput<T extends object>(ctx: ServiceContext, target: WorkTarget, rawInput: Input<Partial<T>>): Promise<Record<string, unknown>> {
  recorderOf(ctx, target);
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

/** Inserts a time entry of the record at the worker's current rate, with its audit row and change. */
async function insertEntry(
  tx: ServiceContext,
  record: WorkRecord,
  effects: Effects,
  actorId: number,
  entry: { userId: number; workedOn: string; minutes: number; startedAt?: Date; note: string | null },
): Promise<{ id: number }> {
  const hourlyRate = await currentRateOf(tx, entry.userId);
  const [row] = await tx.db
    .insert(timeEntries)
    .values({ entityId: tx.entityId, ...recordColumns(record), ...entry, hourlyRate, createdById: actorId })
    .returning({ id: timeEntries.id });
  await logWork(effects, record, {
    kind: "time",
    id: row.id,
    action: "added",
    audit: AUDIT.timeEntry.record,
    details: { userId: entry.userId, workedOn: entry.workedOn, minutes: entry.minutes, hourlyRate, ...(entry.startedAt ? { startedAt: entry.startedAt.toISOString() } : {}) },
  });
  return { id: row.id };
}

/** Records time spent on the record (one's own, or a manager's for another person). */
export async function recordTime(ctx: ServiceContext, target: WorkTarget, rawInput: Input<TimeEntryInput>): Promise<{ id: number }> {
  const input = await recorderInput(ctx, target, TimeEntrySchema, rawInput);
  checkDay(ctx, input.workedOn);
  return onRecord(ctx, target, async (tx, record, effects, actorId) => {
    const userId = await workerOf(tx, record, actorId, input.userId);
    return insertEntry(tx, record, effects, actorId, { userId, workedOn: input.workedOn, minutes: minutesOf(input), note: input.note });
  });
}

/** The entry of the record, locked; one's own unless the actor may manage time. */
async function entryToChange(ctx: ServiceContext, record: WorkRecord, actorId: number, entryId: number) {
  if (!validId(entryId)) throw timeEntryNotFound();
  const [entry] = await ctx.db
    .select()
    .from(timeEntries)
    .where(and(eq(timeEntries.id, entryId), ofRecord(timeEntries, record), eq(timeEntries.entityId, ctx.entityId)))
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
  const change = await changeInput<TimeEntryInput>(ctx, target, rawInput);
  return onRecord(ctx, target, async (tx, record, effects, actorId) => {
    const entry = await entryToChange(tx, record, actorId, entryId);
    const input = parseInput(TimeEntrySchema, timeEntryChange(entry, change));
    checkDay(tx, input.workedOn);
    // Left out (or named again), the person stays who they were, even one who no longer reaches the
    // record; a technician cannot hand their entry to someone else.
    const userId = input.userId === undefined || input.userId === entry.userId ? entry.userId : await workerOf(tx, record, actorId, input.userId);
    const minutes = minutesOf(input);
    if (entry.userId === userId && entry.workedOn === input.workedOn && entry.minutes === minutes && (entry.note ?? null) === input.note) return { id: entry.id };
    // The entry keeps the rate it was recorded with; given to another person, it takes theirs (today's).
    const hourlyRate = userId === entry.userId ? entry.hourlyRate : await currentRateOf(tx, userId);
    await tx.db
      .update(timeEntries)
      .set({ userId, workedOn: input.workedOn, minutes, hourlyRate, note: input.note, updatedAt: new Date() })
      .where(and(eq(timeEntries.id, entry.id), eq(timeEntries.entityId, tx.entityId)));
    await logWork(effects, record, {
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
  await onRecord(ctx, target, async (tx, record, effects, actorId) => {
    const entry = await entryToChange(tx, record, actorId, entryId);
    await tx.db.delete(timeEntries).where(and(eq(timeEntries.id, entry.id), eq(timeEntries.entityId, tx.entityId)));
    await logWork(effects, record, {
      kind: "time",
      id: entry.id,
      action: "deleted",
      audit: AUDIT.timeEntry.delete,
      details: { userId: entry.userId, workedOn: entry.workedOn, minutes: entry.minutes },
    });
  });
}

// ---------------------------------------------------------------------------
// Start and stop
// ---------------------------------------------------------------------------

const clockRunning = () => new ConflictError("timeCosts:errors.clockRunning", "CLOCK_RUNNING");
const noClock = () => new ConflictError("timeCosts:errors.noClock", "CLOCK_NOT_RUNNING");

/**
 * The minutes of a clock started at `startedAt` and stopped at `stoppedAt`: the elapsed time rounded up
 * to the minute, at least 1, at most a day (MAX_ENTRY_MINUTES).
 */
export function clockMinutes(startedAt: Date, stoppedAt: Date): { minutes: number; capped: boolean } {
  const elapsed = Math.max(1, Math.ceil((stoppedAt.getTime() - startedAt.getTime()) / 60_000));
  return elapsed > MAX_ENTRY_MINUTES ? { minutes: MAX_ENTRY_MINUTES, capped: true } : { minutes: elapsed, capped: false };
}

/** Whether the actor could still stop `clock` where it runs: its record in reach, and on a task, theirs to mark. */
export async function mayStopClock(ctx: ServiceContext, clock: { incidentId: number | null; taskId: number | null }): Promise<boolean> {
  const target: WorkTarget = clock.taskId !== null ? { taskId: clock.taskId } : { incidentId: clock.incidentId! };
  try {
    const record = await findWorkRecord(ctx, target);
    if (record.kind === "task") await mayMarkTask(ctx, ctx.actor!, record.row);
    return true;
  } catch (error) {
    if (error instanceof NotFoundError || error instanceof ForbiddenError) return false;
    throw error;
  }
}

/**
 * Starts the actor's clock on the record (their own time only). A person has at most one running
 * clock: one already running, here or elsewhere, is 409 CLOCK_RUNNING and nothing changes, unless they
 * could no longer stop it (its record out of their reach): then this one replaces it. Written in the
 * audit log (`timeEntry.start-clock`, the person's id as the record).
 */
export async function startClock(ctx: ServiceContext, target: WorkTarget): Promise<{ startedAt: Date }> {
  return onRecord(ctx, target, async (tx, record, effects, actorId) => {
    // To the second: what the card shows ("running since 10:14") and what the entry keeps.
    const startedAt = new Date(Math.floor(now() / 1000) * 1000);
    const [row] = await tx.db
      .insert(timeClocks)
      .values({ userId: actorId, entityId: tx.entityId, ...recordColumns(record), startedAt })
      .onConflictDoNothing({ target: timeClocks.userId })
      .returning({ startedAt: timeClocks.startedAt });
    if (!row) {
      const [running] = await tx.db
        .select()
        .from(timeClocks)
        .where(and(eq(timeClocks.userId, actorId), eq(timeClocks.entityId, tx.entityId)))
        .for("update");
      if (!running || (await mayStopClock(tx, running))) throw clockRunning();
      // The running clock's record left the person's reach (or is no longer their task): it can no
      // longer be stopped there, so this start replaces it rather than leave them without a clock.
      await tx.db
        .update(timeClocks)
        .set({ incidentId: null, taskId: null, ...recordColumns(record), startedAt })
        .where(and(eq(timeClocks.userId, actorId), eq(timeClocks.entityId, tx.entityId)));
    }
    await effects.audit({
      action: AUDIT.timeEntry.startClock,
      recordType: "timeEntry",
      recordId: actorId,
      details: { ...recordColumns(record), startedAt: startedAt.toISOString() },
    });
    return { startedAt };
  });
}

/**
 * Stops the actor's clock running on the record and records their time entry: started then, on the day
 * it started (the entity's), of the elapsed minutes rounded up; over a day, a full day (`capped`). No
 * clock of theirs on this record is 409 CLOCK_NOT_RUNNING and nothing changes.
 */
export async function stopClock(ctx: ServiceContext, target: WorkTarget): Promise<{ id: number; minutes: number; capped: boolean }> {
  return onRecord(ctx, target, async (tx, record, effects, actorId) => {
    const [clock] = await tx.db
      .delete(timeClocks)
      .where(and(eq(timeClocks.userId, actorId), eq(timeClocks.entityId, tx.entityId), ofRecord(timeClocks, record)))
      .returning();
    if (!clock) throw noClock();
    const { minutes, capped } = clockMinutes(clock.startedAt, new Date(now()));
    const workedOn = dayIn(clock.startedAt, tx.timeZone);
    const { id } = await insertEntry(tx, record, effects, actorId, { userId: actorId, workedOn, minutes, startedAt: clock.startedAt, note: null });
    return { id, minutes, capped };
  });
}

// ---------------------------------------------------------------------------
// Material
// ---------------------------------------------------------------------------

/** Adds a material line (description, quantity, unit cost) to the record. */
export async function addMaterialLine(ctx: ServiceContext, target: WorkTarget, rawInput: Input<MaterialLineInput>): Promise<{ id: number }> {
  const input = await recorderInput(ctx, target, MaterialLineSchema, rawInput);
  return onRecord(ctx, target, async (tx, record, effects, actorId) => {
    const [row] = await tx.db
      .insert(materialLines)
      .values({ entityId: tx.entityId, ...recordColumns(record), description: input.description, quantity: input.quantity, unitCost: input.unitCost, createdById: actorId })
      .returning({ id: materialLines.id });
    await logWork(effects, record, {
      kind: "material",
      id: row.id,
      action: "added",
      audit: AUDIT.materialLine.add,
      details: { description: input.description, quantity: input.quantity, unitCost: input.unitCost },
    });
    return { id: row.id };
  });
}

/** The line of the record, locked; one the actor added unless they may manage time. */
async function lineToChange(ctx: ServiceContext, record: WorkRecord, actorId: number, lineId: number) {
  if (!validId(lineId)) throw materialLineNotFound();
  const [line] = await ctx.db
    .select()
    .from(materialLines)
    .where(and(eq(materialLines.id, lineId), ofRecord(materialLines, record), eq(materialLines.entityId, ctx.entityId)))
    .for("update");
  if (!line) throw materialLineNotFound();
  if (line.createdById !== actorId && !can(ctx.actor, "manage", "time")) throw notYours();
  return line;
}

/** Corrects a material line (one's own; any for a manager); the fields left out keep their stored values. */
export async function updateMaterialLine(ctx: ServiceContext, target: WorkTarget, lineId: number, rawInput: Input<Partial<MaterialLineInput>>): Promise<{ id: number }> {
  const change = await changeInput<MaterialLineInput>(ctx, target, rawInput);
  return onRecord(ctx, target, async (tx, record, effects, actorId) => {
    const line = await lineToChange(tx, record, actorId, lineId);
    const input = parseInput(MaterialLineSchema, materialLineChange(line, change));
    if (line.description === input.description && Number(line.quantity) === Number(input.quantity) && Number(line.unitCost) === Number(input.unitCost)) {
      return { id: line.id };
    }
    await tx.db
      .update(materialLines)
      .set({ description: input.description, quantity: input.quantity, unitCost: input.unitCost, updatedAt: new Date() })
      .where(and(eq(materialLines.id, line.id), eq(materialLines.entityId, tx.entityId)));
    await logWork(effects, record, {
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
  await onRecord(ctx, target, async (tx, record, effects, actorId) => {
    const line = await lineToChange(tx, record, actorId, lineId);
    await tx.db.delete(materialLines).where(and(eq(materialLines.id, line.id), eq(materialLines.entityId, tx.entityId)));
    await logWork(effects, record, {
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
