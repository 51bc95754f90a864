import { and, asc, eq, inArray, isNull, type SQL, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { can, personWhoCan } from "~/core/actor";
import { type ServiceContext, readAll } from "~/core/context.server";
import { entities, materialLines, tasks, timeClocks, timeEntries, users } from "~/db/schema";
import { assigneeCandidates } from "~/modules/incidents/queries.server";
import { mayMarkTask } from "~/modules/maintenance/tasks.server";
import { userNotFound } from "~/modules/users/management.server";
import { ForbiddenError } from "~/lib/errors";
import { DEFAULT_CURRENCY } from "./constants";
import { assertRateKeeper, findWorkRecord, isTaskTarget, mayStopClock, validId, type WorkRecord, type WorkTarget, workOfRecord } from "./service.server";

/** One time entry as the incident and task views show it. */
export interface TimeEntryRow {
  id: number;
  person: { id: number; name: string };
  /** `YYYY-MM-DD`. */
  workedOn: string;
  minutes: number;
  /** The hourly rate captured when the entry was recorded ("45.00"); null: none, or hidden from the viewer. */
  hourlyRate: string | null;
  /** minutes / 60 × the rate, rounded to the cent ("67.50"); null without a rate, or hidden from the viewer. */
  cost: string | null;
  /** A colleague's entry seen by a technician: its rate and cost are not shown (seesEveryonesCost). */
  costHidden: boolean;
  note: string | null;
  /** Whether the viewer may correct or delete it (their own, or any for a manager). */
  editable: boolean;
}

/** One material line; amounts as exact decimal strings ("2.500", "12.50"). */
export interface MaterialLineRow {
  id: number;
  description: string;
  quantity: string;
  unitCost: string;
  /** quantity × unit cost, rounded to the cent. */
  total: string;
  addedBy: { id: number; name: string } | null;
  editable: boolean;
}

export interface RecordWork {
  entries: TimeEntryRow[];
  lines: MaterialLineRow[];
  /**
   * Every entry and line counted: the time, the labour cost (the entries with a rate), the material and
   * their sum, as exact decimal strings; `unpricedEntries`: the entries without a rate (labour is partial).
   * `labour` and `total` are null for a viewer who does not see everyone's cost while other people's
   * time counts in them (they would tell a colleague's cost by subtraction).
   */
  totals: { minutes: number; labour: string | null; materials: string; total: string | null; unpricedEntries: number; entries: number; lines: number };
  /** The entity's currency (ISO 4217) of every amount. */
  currency: string;
  /** Whether the viewer may record time and material here. */
  canRecord: boolean;
  /** The people a manager may record time for (who reach the record's room); empty for others. */
  people: { id: number; name: string }[];
  /**
   * The viewer's running clock (start and stop): `here` on this record, or elsewhere (then they cannot
   * start one here); null: none.
   */
  clock: { startedAt: Date; here: boolean } | null;
}

const personName = (name: string | null, surname: string | null) => `${name ?? ""} ${surname ?? ""}`.trim();

/** A material line's amount, rounded to the cent. */
const lineTotal = sql`round(${materialLines.quantity} * ${materialLines.unitCost}, 2)`;
/** A time entry's cost at its captured rate, rounded to the cent; null without a rate. */
const entryCost = sql`round(${timeEntries.minutes} * ${timeEntries.hourlyRate} / 60, 2)`;

/**
 * Whether the reader sees the rate and cost of everyone's time (decision 065): who may manage time
 * (managers and administrators, within their reach) and the system. Others (technicians) see those of
 * their own entries only; a record's labour total only while all its time is theirs.
 */
export function seesEveryonesCost(ctx: ServiceContext): boolean {
  return ctx.actor?.kind === "system" || can(ctx.actor, "manage", "time");
}

/** At most this many entries and lines are listed on the view (the totals count them all). */
export const WORK_ROWS_SHOWN = 200;

/**
 * Whether the viewer may record work on the record: a person who may record time, and handle incidents
 * or, on a task, mark it done (theirs or nobody's for a technician).
 */
async function mayRecordOn(ctx: ServiceContext, record: WorkRecord): Promise<boolean> {
  const actor = ctx.actor;
  if (!actor || actor.kind === "system" || !can(actor, "create", "time")) return false;
  if (record.kind === "incident") return can(actor, "handle", "incident");
  if (!can(actor, "update", "task")) return false;
  return mayMarkTask(ctx, actor, record.row).then(
    () => true,
    (error: unknown) => {
      if (error instanceof ForbiddenError) return false;
      throw error;
    },
  );
}

/**
 * The time entries and material lines of an incident or a task in the viewer's reach ("Incident not
 * found", "Task not found" otherwise), oldest first, with their totals computed in SQL over every row,
 * and the viewer's running clock.
 */
export async function getWork(ctx: ServiceContext, target: WorkTarget): Promise<RecordWork> {
  const record = await findWorkRecord(ctx, target);
  const viewerId = ctx.actor?.id ?? null;
  const manages = can(ctx.actor, "manage", "time");
  const seesAll = seesEveryonesCost(ctx);
  const canRecord = await mayRecordOn(ctx, record);
  const addedBy = alias(users, "added_by");
  // The record's own entries and lines, within the entity.
  const recordEntries = and(workOfRecord(timeEntries, record), eq(timeEntries.entityId, ctx.entityId));
  const recordLines = and(workOfRecord(materialLines, record), eq(materialLines.entityId, ctx.entityId));
  const [entries, lines, totals, people, clocks] = await readAll(ctx, [
    () =>
      ctx.db
        .select({
          id: timeEntries.id,
          userId: timeEntries.userId,
          name: users.name,
          surname: users.surname,
          workedOn: timeEntries.workedOn,
          minutes: timeEntries.minutes,
          hourlyRate: timeEntries.hourlyRate,
          cost: sql<string | null>`${entryCost}::text`,
          note: timeEntries.note,
        })
        .from(timeEntries)
        .innerJoin(users, eq(users.id, timeEntries.userId))
        .where(recordEntries)
        .orderBy(asc(timeEntries.workedOn), asc(timeEntries.id))
        .limit(WORK_ROWS_SHOWN),
    () =>
      ctx.db
        .select({
          id: materialLines.id,
          description: materialLines.description,
          quantity: materialLines.quantity,
          unitCost: materialLines.unitCost,
          total: sql<string>`${lineTotal}::text`,
          createdById: materialLines.createdById,
          name: addedBy.name,
          surname: addedBy.surname,
        })
        .from(materialLines)
        .leftJoin(addedBy, eq(addedBy.id, materialLines.createdById))
        .where(recordLines)
        .orderBy(asc(materialLines.id))
        .limit(WORK_ROWS_SHOWN),
    () => workTotals(ctx, target),
    async () =>
      manages
        ? // tenant-scope: scoped by assigneeCandidates, whose first condition is users.entity_id = ctx.entityId
          ctx.db
            .select({ id: users.id, name: users.name, surname: users.surname })
            .from(users)
            .where(assigneeCandidates(ctx, record.row.roomId))
            .orderBy(asc(sql`lower(${users.surname})`), asc(sql`lower(${users.name})`), asc(users.id))
            .limit(500)
        : [],
    async () =>
      viewerId !== null && ctx.actor?.kind !== "system"
        ? ctx.db
            .select({ startedAt: timeClocks.startedAt, here: sql<boolean>`coalesce(${workOfRecord(timeClocks, record)}, false)` })
            .from(timeClocks)
            .where(and(eq(timeClocks.userId, viewerId), eq(timeClocks.entityId, ctx.entityId)))
        : [],
  ] as const);
  return {
    entries: entries.map((e) => {
      const costHidden = !seesAll && e.userId !== viewerId;
      return {
        id: e.id,
        person: { id: e.userId, name: personName(e.name, e.surname) },
        workedOn: e.workedOn,
        minutes: e.minutes,
        hourlyRate: costHidden ? null : e.hourlyRate,
        cost: costHidden ? null : e.cost,
        costHidden,
        note: e.note,
        editable: canRecord && (manages || e.userId === viewerId),
      };
    }),
    lines: lines.map((l) => ({
      id: l.id,
      description: l.description,
      quantity: l.quantity,
      unitCost: l.unitCost,
      total: l.total,
      addedBy: l.createdById ? { id: l.createdById, name: personName(l.name, l.surname) } : null,
      editable: canRecord && (manages || l.createdById === viewerId),
    })),
    totals: totals.totals,
    currency: totals.currency,
    canRecord,
    people: people.map((p) => ({ id: p.id, name: personName(p.name, p.surname) })),
    clock: clocks[0] ? { startedAt: clocks[0].startedAt, here: clocks[0].here } : null,
  };
}

export type WorkTotals = Pick<RecordWork, "totals" | "currency">;

/**
 * The sums of the time entries a statement reads: the time, the labour cost (each entry's minutes / 60 ×
 * its captured rate, rounded to the cent, entries without a rate left out and counted), and for a viewer
 * who sees only their own cost (seesEveryonesCost) how many entries are someone else's.
 */
function timeSums(ctx: ServiceContext) {
  const viewerId = ctx.actor?.id ?? null;
  const othersTime = seesEveryonesCost(ctx) ? sql`0` : viewerId === null ? sql`count(*)` : sql`count(*) filter (where ${timeEntries.userId} <> ${viewerId})`;
  return {
    others: sql<number>`(${othersTime})::int`.as("others"),
    minutes: sql<number>`coalesce(sum(${timeEntries.minutes}), 0)::int`.as("minutes"),
    labour: sql<string>`coalesce(sum(${entryCost}), 0)::numeric(14,2)`.as("labour"),
    unpriced: sql<number>`(count(*) filter (where ${timeEntries.hourlyRate} is null))::int`.as("unpriced"),
    entries: sql<number>`count(*)::int`.as("entries"),
  };
}

/** The sums of the material lines a statement reads: each line rounded to the cent. */
const materialSums = () => ({ amount: sql<string>`coalesce(sum(${lineTotal}), 0)::numeric(14,2)`.as("amount"), lines: sql<number>`count(*)::int`.as("lines") });

/** One row of sums as the totals: labour and total null while someone else's time counts for a viewer who sees only their own cost. */
interface SumsRow {
  minutes: number | null;
  labour: string | null;
  unpriced: number | null;
  others: number | null;
  entries: number | null;
  lines: number | null;
  materials: string | null;
  total: string | null;
}
function totalsOf(row: SumsRow | undefined): WorkTotals["totals"] {
  const hidden = (row?.others ?? 0) > 0;
  return {
    minutes: row?.minutes ?? 0,
    labour: hidden ? null : (row?.labour ?? "0.00"),
    materials: row?.materials ?? "0.00",
    total: hidden ? null : (row?.total ?? "0.00"),
    unpricedEntries: row?.unpriced ?? 0,
    entries: row?.entries ?? 0,
    lines: row?.lines ?? 0,
  };
}

/** The totals of the entries and lines matching the two conditions (the entity's), in one statement, with the entity's currency. */
async function sumsWhere(ctx: ServiceContext, entriesOf: SQL, linesOf: SQL): Promise<WorkTotals> {
  const time = ctx.db
    .select(timeSums(ctx))
    .from(timeEntries)
    .where(and(entriesOf, eq(timeEntries.entityId, ctx.entityId)))
    .as("time");
  const material = ctx.db
    .select(materialSums())
    .from(materialLines)
    .where(and(linesOf, eq(materialLines.entityId, ctx.entityId)))
    .as("material");
  const [row] = await ctx.db
    .select({
      currency: entities.currency,
      minutes: time.minutes,
      labour: sql<string>`${time.labour}::text`,
      unpriced: time.unpriced,
      others: time.others,
      entries: time.entries,
      lines: material.lines,
      materials: sql<string>`${material.amount}::text`,
      total: sql<string>`(${time.labour} + ${material.amount})::numeric(14,2)::text`,
    })
    .from(entities)
    .crossJoin(time)
    .crossJoin(material)
    .where(eq(entities.id, ctx.entityId));
  return { totals: totalsOf(row), currency: row?.currency ?? DEFAULT_CURRENCY };
}

/**
 * The totals of an incident's or a task's work, in one statement over every entry and line: the time,
 * the labour cost, the material (timeSums, materialSums) and their sum, and the entity's currency;
 * labour and total null for a viewer who sees only their own cost while others' time counts
 * (seesEveryonesCost). The caller has read the record in the viewer's reach.
 */
export function workTotals(ctx: ServiceContext, target: WorkTarget): Promise<WorkTotals> {
  const entriesOf = isTaskTarget(target) ? eq(timeEntries.taskId, target.taskId) : eq(timeEntries.incidentId, target.incidentId);
  const linesOf = isTaskTarget(target) ? eq(materialLines.taskId, target.taskId) : eq(materialLines.incidentId, target.incidentId);
  return sumsWhere(ctx, entriesOf, linesOf);
}

/** The work of a day's tasks (one per location): each task's totals, and the day's over them all. */
export interface TaskDayWork {
  byTask: Record<number, WorkTotals["totals"]>;
  day: WorkTotals["totals"];
  currency: string;
}

/**
 * The totals of the work on several tasks of one planned maintenance's day (the task view's locations),
 * each task's and all of them together, with the same rule for a viewer who sees only their own cost
 * (a task's labour hidden while a colleague's time counts there, the day's while it counts anywhere).
 * Two statements whatever the number of tasks. The caller has read the tasks in the viewer's reach.
 */
export async function taskDayWork(ctx: ServiceContext, taskIds: number[]): Promise<TaskDayWork> {
  const time = ctx.db
    .select({ taskId: timeEntries.taskId, ...timeSums(ctx) })
    .from(timeEntries)
    .where(and(inArray(timeEntries.taskId, taskIds), eq(timeEntries.entityId, ctx.entityId)))
    .groupBy(timeEntries.taskId)
    .as("time");
  const material = ctx.db
    .select({ taskId: materialLines.taskId, ...materialSums() })
    .from(materialLines)
    .where(and(inArray(materialLines.taskId, taskIds), eq(materialLines.entityId, ctx.entityId)))
    .groupBy(materialLines.taskId)
    .as("material");
  const labour = sql`coalesce(${time.labour}, 0)`;
  const amount = sql`coalesce(${material.amount}, 0)`;
  const [rows, day] = await readAll(ctx, [
    () =>
      ctx.db
        .select({
          taskId: tasks.id,
          minutes: time.minutes,
          labour: sql<string>`${labour}::numeric(14,2)::text`,
          unpriced: time.unpriced,
          others: time.others,
          entries: time.entries,
          lines: material.lines,
          materials: sql<string>`${amount}::numeric(14,2)::text`,
          total: sql<string>`(${labour} + ${amount})::numeric(14,2)::text`,
        })
        .from(tasks)
        .leftJoin(time, eq(time.taskId, tasks.id))
        .leftJoin(material, eq(material.taskId, tasks.id))
        .where(and(inArray(tasks.id, taskIds), eq(tasks.entityId, ctx.entityId))),
    () => sumsWhere(ctx, inArray(timeEntries.taskId, taskIds), inArray(materialLines.taskId, taskIds)),
  ] as const);
  return { byTask: Object.fromEntries(rows.map((row) => [row.taskId, totalsOf(row)])), day: day.totals, currency: day.currency };
}

/** The entity's rates as the rates screen shows them. */
export interface HourlyRates {
  currency: string;
  /** The default hourly rate ("45.00"); null: none. */
  defaultRate: string | null;
  /** The entity's people (not archived), by surname, with their own rate (null: the default). */
  people: { id: number; name: string; email: string; rate: string | null }[];
}

/** The entity's currency, default rate and each person's rate (administrators only; `entityId`: the one the caller names). */
export async function getHourlyRates(ctx: ServiceContext, entityId: number = ctx.entityId): Promise<HourlyRates> {
  assertRateKeeper(ctx, "read", entityId);
  const [[entity], people] = await readAll(ctx, [
    () => ctx.db.select({ currency: entities.currency, defaultRate: entities.defaultHourlyRate }).from(entities).where(eq(entities.id, ctx.entityId)),
    () =>
      ctx.db
        .select({ id: users.id, name: users.name, surname: users.surname, email: users.email, rate: users.hourlyRate })
        .from(users)
        .where(and(eq(users.entityId, ctx.entityId), isNull(users.archivedAt)))
        .orderBy(asc(sql`lower(${users.surname})`), asc(sql`lower(${users.name})`), asc(users.id))
        .limit(2000),
  ] as const);
  return {
    currency: entity?.currency ?? DEFAULT_CURRENCY,
    defaultRate: entity?.defaultRate ?? null,
    people: people.map((p) => ({ id: p.id, name: personName(p.name, p.surname), email: p.email, rate: p.rate })),
  };
}

/** A person's running clock (start and stop), as the REST call answers it. */
export interface RunningClock {
  startedAt: Date;
  /** The record it runs on: an incident or a task (the other null). */
  incidentId: number | null;
  taskId: number | null;
  /**
   * Whether they can still stop it there (its record in their reach, and a task theirs to mark); when
   * not, starting a clock elsewhere replaces it (startClock).
   */
  stoppable: boolean;
}

/**
 * The running clock of `userId`, who must be the caller (who may record time): one's own only, like
 * one's notifications. Another person of the entity is 403 NOT_YOUR_CLOCK, anyone else (another
 * entity's, an id that is none) 404 USER_NOT_FOUND. Null: no clock runs.
 */
export async function getRunningClock(ctx: ServiceContext, userId: number): Promise<RunningClock | null> {
  const actor = personWhoCan(ctx.actor, "create", "time");
  if (userId !== actor.id) {
    const [person] = validId(userId)
      ? await ctx.db
          .select({ id: users.id })
          .from(users)
          .where(and(eq(users.id, userId), eq(users.entityId, ctx.entityId)))
      : [];
    if (!person) throw userNotFound();
    throw new ForbiddenError("timeCosts:errors.othersClock", "NOT_YOUR_CLOCK");
  }
  const [clock] = await ctx.db
    .select({ startedAt: timeClocks.startedAt, incidentId: timeClocks.incidentId, taskId: timeClocks.taskId })
    .from(timeClocks)
    .where(and(eq(timeClocks.userId, actor.id), eq(timeClocks.entityId, ctx.entityId)));
  if (!clock) return null;
  return { ...clock, stoppable: await mayStopClock(ctx, clock) };
}
