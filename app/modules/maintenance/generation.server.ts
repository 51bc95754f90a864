import { sql } from "drizzle-orm";
import { assertCan } from "~/core/actor";
import type { ServiceContext } from "~/core/context.server";
import { withStatement, withTx } from "~/core/unit-of-work.server";
import { TaskStatus, type TimeMeasure } from "~/db/enums";
import { now } from "~/lib/clock.server";
import { addDays, dayIn } from "~/lib/dates";
import { rowsOf } from "~/lib/list-page.server";
import { occurrenceDates, type Recurrence, TASK_HORIZON_DAYS } from "./recurrence";

/**
 * The tasks a planned maintenance generates (SPEC.md section 3, decision 050), inside the caller's unit
 * of work.
 *
 * A plan yields one task per (room or equipment item of its selection, due date): its location rows
 * (a whole facility or building, rooms added later included; ENTITY = every room; single rooms) give
 * room tasks, its equipment items give item tasks in the item's room. Archived facilities, buildings,
 * rooms and items yield nothing. Due dates follow the plan's recurrence (recurrence.ts), from today in
 * the entity's time zone to today + TASK_HORIZON_DAYS, never past the end date; `generated_until`
 * records how far. Tasks are created pending with the plan's time of day and no assignee of their own.
 *
 * Every pass is a reconciliation of the plans it locks: the dates and targets are computed in
 * TypeScript, the plans' tasks from today on read, the missing ones inserted in bulk, day by day (`unnest`
 * arrays), the pending tasks from today on that the plan no longer yields deleted, the pending ones' time
 * set to the plan's. Done tasks and tasks before today are never touched. Running it twice changes
 * nothing the second time.
 *
 * Concurrency: a pass locks its plans' rows first (`for no key update`, which still lets tasks reference
 * them). A plan's verb and the nightly pass therefore take turns on one plan; two nightly passes at once
 * skip each other's plans (`skip locked`), so no two writers insert the same keys. A pass that waited
 * for a plan reads its tasks after the lock (each statement sees what committed before it), so it
 * inserts only what is still missing; the unique key would refuse a duplicate (failing the pass rather
 * than skipping it in silence).
 */

/** The day generation counts from and how far it looks; tests and the bench set them. */
export interface GenerationOptions {
  /** Today in the entity's zone (`YYYY-MM-DD`); default from the server's clock and `ctx.timeZone`. */
  today?: string;
  /** Default TASK_HORIZON_DAYS. */
  horizonDays?: number;
}

export interface GenerationResult {
  /** Plans brought in line. */
  plans: number;
  created: number;
  removed: number;
}

interface PlanRow {
  id: number;
  start_date: string;
  end_date: string;
  occurrence_interval: number | null;
  occurrence_unit: number;
  time_of_day: string | null;
  archived: boolean;
}

/** Rows a bulk insert sends in one statement. */
const INSERT_CHUNK = 20_000;

const intArray = (values: readonly (number | null)[]) => `{${values.map((v) => (v === null ? "NULL" : String(v))).join(",")}}`;
const textArray = (values: readonly (string | null)[]) => `{${values.map((v) => (v === null ? "NULL" : v)).join(",")}}`;

function todayOf(ctx: ServiceContext, options: GenerationOptions): string {
  return options.today ?? dayIn(now(), ctx.timeZone);
}

function ruleOf(plan: PlanRow): Recurrence {
  return {
    startDate: plan.start_date,
    endDate: plan.end_date,
    occurrenceInterval: plan.occurrence_interval,
    occurrenceUnit: plan.occurrence_unit as TimeMeasure,
  };
}

const planColumns = sql.raw(`id, start_date::text as start_date, end_date::text as end_date, occurrence_interval,
  occurrence_unit, time_of_day::text as time_of_day, archived_at is not null as archived`);

/**
 * The (plan, room, equipment item or null) pairs the plans select today, without archived places or
 * items, ordered.
 */
async function targetsOf(ctx: ServiceContext, planIds: readonly number[]): Promise<Array<{ plan_id: number; room_id: number; item_id: number | null }>> {
  const e = ctx.entityId;
  const ids = sql`${intArray(planIds)}::int[]`;
  const result = await ctx.db.execute(sql`
    with selected (plan_id, room_id, item_id) as (
      select l.planned_maintenance_id, r.id, null::int from planned_maintenance_locations l
        join rooms r on r.entity_id = l.entity_id
        where l.entity_id = ${e} and l.planned_maintenance_id = any(${ids}) and l.object_type = 0
      union
      select l.planned_maintenance_id, r.id, null::int from planned_maintenance_locations l
        join buildings b on b.facility_id = l.facility_id and b.entity_id = l.entity_id
        join rooms r on r.building_id = b.id
        where l.entity_id = ${e} and l.planned_maintenance_id = any(${ids}) and l.object_type = 1
      union
      select l.planned_maintenance_id, r.id, null::int from planned_maintenance_locations l
        join rooms r on r.building_id = l.building_id and r.entity_id = l.entity_id
        where l.entity_id = ${e} and l.planned_maintenance_id = any(${ids}) and l.object_type = 2
      union
      select l.planned_maintenance_id, l.room_id, null::int from planned_maintenance_locations l
        where l.entity_id = ${e} and l.planned_maintenance_id = any(${ids}) and l.object_type = 3
      union
      select pr.planned_maintenance_id, pr.room_id, null::int from planned_maintenance_rooms pr
        where pr.entity_id = ${e} and pr.planned_maintenance_id = any(${ids})
      union
      select pe.planned_maintenance_id, i.room_id, i.id from planned_maintenance_equipment_items pe
        join equipment_items i on i.id = pe.equipment_item_id and i.entity_id = pe.entity_id and i.archived_at is null
        where pe.entity_id = ${e} and pe.planned_maintenance_id = any(${ids})
    )
    select s.plan_id, s.room_id, s.item_id from selected s
      join rooms r on r.id = s.room_id and r.entity_id = ${e} and r.archived_at is null
      join buildings b on b.id = r.building_id and b.archived_at is null
      join facilities f on f.id = b.facility_id and f.archived_at is null
    order by s.plan_id, s.room_id, s.item_id nulls first`);
  return rowsOf<{ plan_id: number; room_id: number; item_id: number | null }>(result).map((r) => ({
    plan_id: Number(r.plan_id),
    room_id: Number(r.room_id),
    item_id: r.item_id === null ? null : Number(r.item_id),
  }));
}

const targetKey = (roomId: number, itemId: number | null) => `${roomId}:${itemId ?? ""}`;

const DAY_MS = 86_400_000;
/** Days from `from` to `day`. */
const offsetOf = (day: string, from: string) => Math.round((Date.parse(`${day}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS);

/**
 * A plan's tasks from today on, grouped by target: the pending ones (ids, days after today, and those
 * whose time is not the plan's) and the days of the done ones.
 */
interface ExistingGroup {
  plan_id: number;
  room_id: number;
  item_id: number | null;
  ids: number[] | null;
  offsets: number[] | null;
  retime: number[] | null;
  done: number[] | null;
}

/** Brings the locked `plans` in line (see the header); runs inside the caller's transaction. */
async function reconcile(ctx: ServiceContext, plans: readonly PlanRow[], today: string, horizonDays: number): Promise<GenerationResult> {
  if (plans.length === 0) return { plans: 0, created: 0, removed: 0 };
  const e = ctx.entityId;
  const planIds = plans.map((p) => p.id);
  const active = plans.filter((p) => !p.archived);
  const targets = active.length ? await targetsOf(ctx, active.map((p) => p.id)) : [];
  const targetsByPlan = new Map<number, Array<{ room_id: number; item_id: number | null }>>();
  for (const t of targets) {
    let list = targetsByPlan.get(t.plan_id);
    if (!list) targetsByPlan.set(t.plan_id, (list = []));
    list.push(t);
  }

  // The tasks from today on, one row per target (arrays read far faster than a row per task): the
  // pending ones are kept when the plan still yields them and deleted otherwise; the done ones stay, and
  // their days are not generated again.
  const pending = sql.raw(`t.status = ${TaskStatus.PENDING}`);
  const groups = rowsOf<ExistingGroup>(
    await ctx.db.execute(sql`
      select t.planned_maintenance_id as plan_id, t.room_id, t.equipment_item_id as item_id,
        array_agg(t.id order by t.due_date) filter (where ${pending}) as ids,
        array_agg(t.due_date - ${today}::date order by t.due_date) filter (where ${pending}) as offsets,
        array_agg(t.id) filter (where ${pending} and t.due_time is distinct from p.time_of_day) as retime,
        array_agg(t.due_date - ${today}::date) filter (where not ${pending}) as done
      from tasks t join planned_maintenances p on p.id = t.planned_maintenance_id and p.entity_id = ${e}
      where t.entity_id = ${e} and t.planned_maintenance_id = any(${intArray(planIds)}::int[])
        and t.due_date >= ${today}::date
      group by t.planned_maintenance_id, t.room_id, t.equipment_item_id`),
  );
  const planById = new Map(plans.map((p) => [p.id, p]));
  // Each plan's due days, as days after today, far enough to judge its furthest pending task.
  const reach = new Map<number, number>(plans.map((p) => [p.id, horizonDays]));
  for (const g of groups) {
    const planId = Number(g.plan_id);
    let furthest = reach.get(planId)!;
    for (const offset of g.offsets ?? []) furthest = Math.max(furthest, Number(offset));
    reach.set(planId, furthest);
  }
  const dueDays = new Map<number, { dates: string[]; days: number[]; offsets: Set<number> }>();
  for (const plan of active) {
    const dates = occurrenceDates(ruleOf(plan), today, addDays(today, reach.get(plan.id)!));
    const days = dates.map((d) => offsetOf(d, today));
    dueDays.set(plan.id, { dates, days, offsets: new Set(days) });
  }
  const keysByPlan = new Map(active.map((p) => [p.id, new Set((targetsByPlan.get(p.id) ?? []).map((t) => targetKey(t.room_id, t.item_id)))]));

  /** Per plan and target, the days after today that already have a task: a pending one that stays, or a done one. */
  const kept = new Map<string, Set<number>>();
  const removeIds: number[] = [];
  const retimeIds: number[] = [];
  for (const g of groups) {
    const planId = Number(g.plan_id);
    const key = targetKey(Number(g.room_id), g.item_id === null ? null : Number(g.item_id));
    const yields = !planById.get(planId)!.archived && keysByPlan.get(planId)!.has(key);
    const due = dueDays.get(planId)?.offsets;
    const stays = new Set<number>((g.done ?? []).map(Number));
    const staying = new Set<number>();
    (g.offsets ?? []).forEach((raw, i) => {
      const offset = Number(raw);
      if (yields && due!.has(offset)) {
        stays.add(offset);
        staying.add(Number(g.ids![i]));
      } else removeIds.push(Number(g.ids![i]));
    });
    if (stays.size) kept.set(`${planId}:${key}`, stays);
    // A new time of day moves the pending tasks that stay (the removed ones go anyway).
    for (const id of g.retime ?? []) if (staying.has(Number(id))) retimeIds.push(Number(id));
  }
  let removed = 0;
  if (removeIds.length) {
    const result = await ctx.db.execute(sql`
      delete from tasks where entity_id = ${e} and status = ${TaskStatus.PENDING} and id = any(${intArray(removeIds)}::int[]) and ${noRecordedWork} returning id`);
    removed = rowsOf(result).length;
  }
  if (retimeIds.length) {
    await ctx.db.execute(sql`
      update tasks t set due_time = p.time_of_day, updated_at = now()
      from planned_maintenances p
      where p.id = t.planned_maintenance_id and p.entity_id = ${e} and t.entity_id = ${e}
        and t.id = any(${intArray(retimeIds)}::int[]) and t.status = ${TaskStatus.PENDING}`);
  }

  // The missing tasks, day by day (then plan, room and item): a day's tasks then sit side by side in
  // the table, as the nightly passes write them, so the calendar and the list read a day from few pages.
  const horizon = addDays(today, horizonDays);
  const cols = { plan: [] as number[], room: [] as number[], item: [] as (number | null)[], date: [] as string[], time: [] as (string | null)[] };
  let created = 0;
  const flush = async () => {
    if (cols.plan.length === 0) return;
    // Only missing keys are sent (the plans are locked, their tasks from today on read above): a plain
    // insert, the occurrence key refusing a duplicate should one come anyway.
    await ctx.db.execute(sql`
      insert into tasks (entity_id, planned_maintenance_id, room_id, equipment_item_id, due_date, due_time)
      select ${e}::int, v.plan_id, v.room_id, v.item_id, v.due_date, v.due_time
      from unnest(${intArray(cols.plan)}::int[], ${intArray(cols.room)}::int[], ${intArray(cols.item)}::int[],
        ${textArray(cols.date)}::date[], ${textArray(cols.time)}::time[]) as v(plan_id, room_id, item_id, due_date, due_time)`);
    created += cols.plan.length;
    for (const list of Object.values(cols)) list.length = 0;
  };
  const until: string[] = [];
  /** Per day after today: the day, and the plans falling due that day (indexes into `due`). */
  const days: Array<{ date: string; plans: number[] }> = [];
  /** The plans with targets, each target with the days that already have its pending task. */
  const due: Array<{ plan: PlanRow; targets: Array<{ room_id: number; item_id: number | null; stays: Set<number> | undefined }> }> = [];
  for (const plan of active) {
    const last = plan.end_date < horizon ? plan.end_date : horizon;
    until.push(last);
    const planTargets = targetsByPlan.get(plan.id);
    if (!planTargets) continue;
    const targets = planTargets.map((t) => ({ ...t, stays: kept.get(`${plan.id}:${targetKey(t.room_id, t.item_id)}`) }));
    const index = due.push({ plan, targets }) - 1;
    const { dates, days: offsets } = dueDays.get(plan.id)!;
    for (let i = 0; i < dates.length && dates[i] <= last; i++) (days[offsets[i]] ??= { date: dates[i], plans: [] }).plans.push(index);
  }
  for (let offset = 0; offset < days.length; offset++) {
    const day = days[offset];
    if (!day) continue;
    for (const index of day.plans) {
      const { plan, targets } = due[index];
      for (const t of targets) {
        if (t.stays?.has(offset)) continue;
        cols.plan.push(plan.id);
        cols.room.push(t.room_id);
        cols.item.push(t.item_id);
        cols.date.push(day.date);
        cols.time.push(plan.time_of_day);
        if (cols.plan.length >= INSERT_CHUNK) await flush();
      }
    }
  }
  await flush();
  if (active.length) {
    await ctx.db.execute(sql`
      update planned_maintenances p set generated_until = v.until
      from unnest(${intArray(active.map((p) => p.id))}::int[], ${textArray(until)}::date[]) as v(id, until)
      where p.id = v.id and p.entity_id = ${e} and p.generated_until is distinct from v.until`);
  }
  return { plans: plans.length, created, removed };
}

/**
 * Brings the plan's tasks in line with the plan from today (in the entity's time zone) to the horizon:
 * creates the missing ones, removes future pending tasks the plan no longer yields (after an edit),
 * never touches done tasks. Idempotent. An archived plan yields nothing (its pending tasks from today
 * go); a plan of another entity changes nothing.
 */
export async function regeneratePlanTasks(
  ctx: ServiceContext,
  plannedMaintenanceId: number,
): Promise<{ created: number; removed: number }> {
  const { created, removed } = await regeneratePlans(ctx, [plannedMaintenanceId]);
  return { created, removed };
}

/** `regeneratePlanTasks` for several plans of the entity, with the day and horizon given (tests, the bench). */
export async function regeneratePlans(ctx: ServiceContext, planIds: readonly number[], options: GenerationOptions = {}): Promise<GenerationResult> {
  assertCan(ctx.actor, "manage", "maintenance");
  const today = todayOf(ctx, options);
  return withTx(ctx, async (tx) => {
    const plans = rowsOf<PlanRow>(
      await tx.db.execute(sql`
        select ${planColumns} from planned_maintenances
        where entity_id = ${tx.entityId} and id = any(${intArray(planIds)}::int[])
        order by id for no key update`),
    );
    return reconcile(tx, plans, today, options.horizonDays ?? TASK_HORIZON_DAYS);
  });
}

/**
 * A condition on `tasks`: no time or material was recorded on the task. Deleting a task deletes its work
 * (on delete cascade), so a pending task someone already worked on stays when its plan stops yielding
 * it (decision 065).
 */
// tenant-scope: scoped by the outer tasks row (of the entity): the task's own entries and lines
const noRecordedWork = sql`not exists (select 1 from time_entries w where w.task_id = tasks.id) and not exists (select 1 from material_lines m where m.task_id = tasks.id)`;

/** Archiving a plan: removes its pending tasks from today on (but those with recorded work); done tasks stay. */
export async function removeFuturePendingTasks(ctx: ServiceContext, plannedMaintenanceId: number): Promise<number> {
  assertCan(ctx.actor, "manage", "maintenance");
  const today = todayOf(ctx, {});
  return withStatement(ctx, async (c) => {
    const result = await c.db.execute(sql`
      delete from tasks
      where entity_id = ${c.entityId} and planned_maintenance_id = ${plannedMaintenanceId}
        and status = ${TaskStatus.PENDING} and due_date >= ${today}::date and ${noRecordedWork}
      returning id`);
    return rowsOf(result).length;
  });
}

/** Plans one transaction of a pass brings in line (the plans it locks, and for how long). */
export const PLANS_PER_TRANSACTION = 100;
/** Transactions a pass runs side by side (on the embedded database they take turns on its one connection). */
export const PASS_CONCURRENCY = 2;

/**
 * The nightly pass for one entity: every active plan still running today brought in line and extended
 * to the horizon (new rooms of a selected building or facility get their tasks, archived places lose
 * their pending ones). Plans another pass holds right now are skipped: that pass does them.
 *
 * The plans are taken PLANS_PER_TRANSACTION at a time, each batch in its own transaction, PASS_CONCURRENCY
 * batches side by side: a plan is locked only while its own batch runs (a person editing it waits for
 * that batch, not for the entity's whole pass), and on PostgreSQL the batches' inserts use more than one
 * core. Each batch is a complete reconciliation of its plans, so a pass that fails half-way leaves the
 * batches it finished in line and the next pass does the rest. Inside a caller's unit of work the pass
 * is one batch of that transaction.
 */
export async function extendEntityTasks(ctx: ServiceContext, options: GenerationOptions & { plansPerTransaction?: number } = {}): Promise<GenerationResult> {
  assertCan(ctx.actor, "manage", "maintenance");
  const today = todayOf(ctx, options);
  const horizonDays = options.horizonDays ?? TASK_HORIZON_DAYS;
  const running = sql`archived_at is null and end_date >= ${today}::date`;
  /** Locks the plans still running among `ids` (all of them when null) and brings them in line. */
  const pass = (tx: ServiceContext, ids: readonly number[] | null) =>
    tx.db
      .execute(
        sql`select ${planColumns} from planned_maintenances
          where entity_id = ${tx.entityId} and ${running}${ids ? sql` and id = any(${intArray(ids)}::int[])` : sql``}
          order by id for no key update skip locked`,
      )
      .then((result) => reconcile(tx, rowsOf<PlanRow>(result), today, horizonDays));
  if (ctx.uow) return withTx(ctx, (tx) => pass(tx, null));

  const ids = rowsOf<{ id: number }>(
    await ctx.db.execute(sql`select id from planned_maintenances where entity_id = ${ctx.entityId} and ${running} order by id`),
  ).map((r) => Number(r.id));
  const size = Math.max(1, options.plansPerTransaction ?? PLANS_PER_TRANSACTION);
  const batches: number[][] = [];
  for (let i = 0; i < ids.length; i += size) batches.push(ids.slice(i, i + size));
  const total: GenerationResult = { plans: 0, created: 0, removed: 0 };
  let next = 0;
  let failure: unknown;
  const worker = async () => {
    while (failure === undefined && next < batches.length) {
      const batch = batches[next++];
      try {
        const result = await withTx(ctx, (tx) => pass(tx, batch));
        total.plans += result.plans;
        total.created += result.created;
        total.removed += result.removed;
      } catch (error) {
        failure ??= error;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(PASS_CONCURRENCY, batches.length) }, worker));
  if (failure !== undefined) throw failure;
  return total;
}
