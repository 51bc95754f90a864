import { and, asc, count, desc, eq, gte, inArray, isNotNull, isNull, lt, ne, type SQL, sql } from "drizzle-orm";
import { assertCan } from "~/core/actor";
import type { ServiceContext } from "~/core/context.server";
import { IncidentStatus, type TaskStatus } from "~/db/enums";
import { buildings, equipmentCategories, equipmentItems, equipmentTypes, incidents, plannedMaintenances, rooms, tasks } from "~/db/schema";
import { now } from "~/lib/clock.server";
import { dayIn, startOfMonth } from "~/lib/dates";
import { NotFoundError } from "~/lib/errors";
import type { ListQuery, Page } from "~/lib/list-query";
import { readPage } from "~/lib/list-page.server";
import { incidentReach, treeScope } from "~/modules/facilities/policy.server";
import { addMonths } from "~/modules/dashboard/filters";
import { equipmentItemColumns, equipmentItemName, itemType, typeCategory } from "~/modules/equipment/columns.server";

/**
 * Equipment reliability (issue 62): per equipment item, generic equipment or room, the failures (the
 * incidents not rejected and not marked as duplicates), the time to repair (report to Done: `created_at`
 * to `done_at`, which the status verb sets on Done and keeps on Archived), its median and mean, and the
 * mean time between failures (the mean gap between consecutive failures' report times, which is
 * `(last - first) / (n - 1)`; none under two failures). Computed in SQL over the incidents within the
 * viewer's reach (`incidentReach`), never over archived rows (a cascading archive hides them).
 */
export const equipmentItemNotFound = () => new NotFoundError("equipment:errors.equipmentItemNotFound", "EQUIPMENT_ITEM_NOT_FOUND");

/** How many months the history's chart and the dashboard's table look back (the current one included). */
export const RELIABILITY_MONTHS = 12;
/** Rows of the dashboard's "least reliable equipment" table. */
export const LEAST_RELIABLE_LIMIT = 10;
/** Maintenance tasks shown on an item's history. */
export const HISTORY_TASKS = 10;

export interface ReliabilityFigures {
  failures: number;
  /** Failures that reached Done (and so have a time to repair). */
  repaired: number;
  /** Report to Done, in hours (one decimal); null when none is repaired. */
  medianRepairHours: number | null;
  meanRepairHours: number | null;
  /** Mean time between failures, in hours (one decimal); null under two failures. */
  mtbfHours: number | null;
  /**
   * Hours out of service (one decimal): over the failures marked "equipment out of service", the
   * downtime set by hand, else report to Done (to now while open). 0 when none is marked.
   */
  downtimeHours: number;
}

export type ReliabilityScope = { equipmentItemId: number } | { equipmentTypeId: number } | { roomId: number };

/** A half-open span of report times: [from, to). */
export interface ReliabilityPeriod {
  from: Date;
  to: Date;
}

const NONE: ReliabilityFigures = { failures: 0, repaired: 0, medianRepairHours: null, meanRepairHours: null, mtbfHours: null, downtimeHours: 0 };

const hours = (seconds: unknown) => (seconds === null || seconds === undefined ? null : Math.round((Number(seconds) / 3600) * 10) / 10);

/** The incidents that count as failures, within the viewer's reach (each query adds its entity condition). */
function failureConditions(ctx: ServiceContext, period?: ReliabilityPeriod): SQL[] {
  return [
    isNull(incidents.archivedAt),
    ne(incidents.status, IncidentStatus.REJECTED),
    isNull(incidents.duplicateOfId),
    ...(period ? [gte(incidents.createdAt, period.from), lt(incidents.createdAt, period.to)] : []),
    ...[incidentReach(ctx)].filter((c): c is SQL => Boolean(c)),
  ];
}

/** The aggregate columns of the figures, over the failures a statement selects. */
function figureColumns() {
  const repaired = sql`${incidents.status} in (${IncidentStatus.DONE}, ${IncidentStatus.ARCHIVED}) and ${incidents.doneAt} is not null`;
  const repairSeconds = sql`extract(epoch from ${incidents.doneAt} - ${incidents.createdAt})`;
  return {
    failures: sql<number>`count(*)::int`.mapWith(Number),
    repaired: sql<number>`(count(*) filter (where ${repaired}))::int`.mapWith(Number),
    medianSeconds: sql<number | null>`percentile_cont(0.5) within group (order by ${repairSeconds}) filter (where ${repaired})`,
    meanSeconds: sql<number | null>`avg(${repairSeconds}) filter (where ${repaired})`,
    mtbfSeconds: sql<number | null>`case when count(*) > 1
      then extract(epoch from max(${incidents.createdAt}) - min(${incidents.createdAt})) / (count(*) - 1) end`,
    downtimeSeconds: sql<number>`coalesce(sum(case
      when ${incidents.downtimeMinutes} is not null then ${incidents.downtimeMinutes} * 60
      else extract(epoch from coalesce(${incidents.doneAt}, ${new Date(now()).toISOString()}::timestamptz) - ${incidents.createdAt}) end)
      filter (where ${incidents.equipmentDown}), 0)`,
  };
}

type RawFigures = { failures: number; repaired: number; medianSeconds: unknown; meanSeconds: unknown; mtbfSeconds: unknown; downtimeSeconds: unknown };
const toFigures = (r: RawFigures): ReliabilityFigures => ({
  failures: Number(r.failures),
  repaired: Number(r.repaired),
  medianRepairHours: hours(r.medianSeconds),
  meanRepairHours: hours(r.meanSeconds),
  mtbfHours: hours(r.mtbfSeconds),
  downtimeHours: hours(r.downtimeSeconds) ?? 0,
});

/** The condition naming the scope's incidents (a generic equipment: the incidents on its items). */
function scopeCondition(ctx: ServiceContext, scope: ReliabilityScope): SQL {
  if ("equipmentItemId" in scope) return eq(incidents.equipmentItemId, scope.equipmentItemId);
  if ("roomId" in scope) return eq(incidents.roomId, scope.roomId);
  return sql`${incidents.equipmentItemId} in (select i.id from equipment_items i
    where i.entity_id = ${ctx.entityId} and i.equipment_type_id = ${scope.equipmentTypeId})`;
}

/**
 * The figures of one equipment item, generic equipment or room, optionally over the failures reported
 * in a period. What lies outside the entity or the viewer's reach counts nothing.
 */
export async function getReliability(ctx: ServiceContext, scope: ReliabilityScope, period?: ReliabilityPeriod): Promise<ReliabilityFigures> {
  assertCan(ctx.actor, "read", "incident");
  const [row] = await ctx.db
    .select(figureColumns())
    .from(incidents)
    .where(and(eq(incidents.entityId, ctx.entityId), scopeCondition(ctx, scope), ...failureConditions(ctx, period)));
  return row ? toFigures(row) : NONE;
}

/** The last RELIABILITY_MONTHS months (YYYY-MM, oldest first) in the entity's time zone, and their span. */
export function lastMonths(ctx: ServiceContext, months = RELIABILITY_MONTHS): { months: string[]; period: ReliabilityPeriod } {
  const thisMonth = `${dayIn(now(), ctx.timeZone).slice(0, 7)}-01`;
  const list = Array.from({ length: months }, (_, i) => addMonths(thisMonth, i - months + 1).slice(0, 7));
  return { months: list, period: { from: startOfMonth(list[0], ctx.timeZone), to: startOfMonth(addMonths(thisMonth, 1).slice(0, 7), ctx.timeZone) } };
}

export interface MonthFailures {
  /** YYYY-MM. */
  month: string;
  failures: number;
}

/** Failures per month of the scope over the last RELIABILITY_MONTHS months (months without any count 0). */
export async function failuresPerMonth(ctx: ServiceContext, scope: ReliabilityScope): Promise<MonthFailures[]> {
  assertCan(ctx.actor, "read", "incident");
  const { months, period } = lastMonths(ctx);
  const month = sql<string>`to_char(date_trunc('month', ${incidents.createdAt} at time zone ${ctx.timeZone}), 'YYYY-MM')`;
  const rows = await ctx.db
    .select({ month, n: sql<number>`count(*)::int`.mapWith(Number) })
    .from(incidents)
    .where(and(eq(incidents.entityId, ctx.entityId), scopeCondition(ctx, scope), ...failureConditions(ctx, period)))
    // By position: the zone is a parameter, so the grouped expression would not match the selected one.
    .groupBy(sql`1`);
  const byMonth = new Map(rows.map((r) => [r.month, r.n]));
  return months.map((m) => ({ month: m, failures: byMonth.get(m) ?? 0 }));
}

export interface LeastReliableRow extends ReliabilityFigures {
  id: number;
  internalReference: string | null;
  equipmentName: string;
  roomId: number;
  roomName: string;
}

/**
 * The dashboard's "least reliable equipment": the equipment items (active, within reach) with the
 * most failures reported over the last RELIABILITY_MONTHS months, at most LEAST_RELIABLE_LIMIT, with
 * their MTBF and times to repair over the same failures. Ties: shorter MTBF first, then the item id.
 *
 * Two steps: the ranking reads only counts and first and last report times (one hash aggregate over the
 * period's failures on equipment, a hundred thousand items at the scale seed); the medians, which sort
 * each group, are then computed for the ranked items alone, on `incidents_equipment_item_idx`.
 */
export async function listLeastReliableEquipment(ctx: ServiceContext, limit = LEAST_RELIABLE_LIMIT): Promise<LeastReliableRow[]> {
  assertCan(ctx.actor, "read", "dashboard");
  const { period } = lastMonths(ctx);
  const failures = sql<number>`count(*)`;
  const mtbf = sql`case when count(*) > 1 then max(${incidents.createdAt}) - min(${incidents.createdAt}) end / greatest(count(*) - 1, 1)`;
  const ranked = await ctx.db
    .select({ itemId: sql<number>`${incidents.equipmentItemId}`.mapWith(Number) })
    .from(incidents)
    .innerJoin(equipmentItems, and(eq(equipmentItems.id, incidents.equipmentItemId), eq(equipmentItems.entityId, ctx.entityId), isNull(equipmentItems.archivedAt)))
    .where(and(eq(incidents.entityId, ctx.entityId), isNotNull(incidents.equipmentItemId), ...failureConditions(ctx, period)))
    .groupBy(incidents.equipmentItemId)
    .orderBy(desc(failures), sql`${mtbf} asc nulls last`, asc(incidents.equipmentItemId))
    .limit(limit);
  const ids = ranked.map((r) => r.itemId);
  if (ids.length === 0) return [];
  const [rows, items] = await Promise.all([
    ctx.db
      .select({ itemId: sql<number>`${incidents.equipmentItemId}`.mapWith(Number), ...figureColumns() })
      .from(incidents)
      .where(and(eq(incidents.entityId, ctx.entityId), inArray(incidents.equipmentItemId, ids), ...failureConditions(ctx, period)))
      .groupBy(incidents.equipmentItemId),
    ctx.db
      .select({ ...equipmentItemName, roomId: rooms.id, roomName: rooms.name })
      .from(equipmentItems)
      .innerJoin(equipmentTypes, itemType)
      .innerJoin(rooms, eq(rooms.id, equipmentItems.roomId))
      .where(and(eq(equipmentItems.entityId, ctx.entityId), inArray(equipmentItems.id, ids))),
  ]);
  const figuresOf = new Map(rows.map(({ itemId, ...r }) => [itemId, toFigures(r)]));
  const itemOf = new Map(items.map((item) => [item.id, item]));
  return ids.flatMap((id) => {
    const item = itemOf.get(id);
    return item ? [{ ...item, ...(figuresOf.get(id) ?? NONE) }] : [];
  });
}

// ---------------------------------------------------------------------------
// An equipment item's history (/view-equipment/{id})
// ---------------------------------------------------------------------------
export interface EquipmentItemSummary {
  id: number;
  internalReference: string | null;
  equipmentTypeId: number;
  equipmentName: string;
  categoryName: string;
  roomId: number;
  roomName: string;
  buildingName: string;
}

/**
 * One active equipment item of the entity within the viewer's reach (its room in a facility or building
 * they are linked to); anything else, another entity's item included, is "not found".
 */
export async function getEquipmentItemSummary(ctx: ServiceContext, id: number): Promise<EquipmentItemSummary> {
  assertCan(ctx.actor, "read", "place");
  const [row] = await ctx.db
    .select({ ...equipmentItemColumns, roomId: rooms.id, roomName: rooms.name, buildingName: buildings.name })
    .from(equipmentItems)
    .innerJoin(equipmentTypes, itemType)
    .innerJoin(equipmentCategories, typeCategory)
    .innerJoin(rooms, eq(rooms.id, equipmentItems.roomId))
    .innerJoin(buildings, eq(buildings.id, rooms.buildingId))
    .where(
      and(
        eq(equipmentItems.id, id),
        eq(equipmentItems.entityId, ctx.entityId),
        isNull(equipmentItems.archivedAt),
        isNull(rooms.archivedAt),
        treeScope(ctx, "equipmentItem"),
      ),
    )
    .limit(1);
  if (!row) throw equipmentItemNotFound();
  return row;
}

export interface HistoryIncident {
  id: number;
  shortId: number;
  title: string;
  status: IncidentStatus;
  /** Marked as a duplicate (not a failure). */
  duplicate: boolean;
  createdAt: string;
  doneAt: string | null;
}

/** The item's incidents (every status, duplicates marked), newest first, a page at a time. */
export async function listEquipmentItemIncidents(ctx: ServiceContext, itemId: number, query: Pick<ListQuery, "page" | "size">): Promise<Page<HistoryIncident>> {
  assertCan(ctx.actor, "read", "incident");
  const where = and(eq(incidents.entityId, ctx.entityId), eq(incidents.equipmentItemId, itemId), isNull(incidents.archivedAt), incidentReach(ctx));
  const page = await readPage(
    { ...query, sort: "createdAt", dir: "desc", q: "" },
    ctx.db
      .select({
        id: incidents.id,
        shortId: incidents.shortId,
        title: incidents.title,
        status: incidents.status,
        duplicateOfId: incidents.duplicateOfId,
        createdAt: incidents.createdAt,
        doneAt: incidents.doneAt,
      })
      .from(incidents)
      .where(where)
      .orderBy(desc(incidents.createdAt), desc(incidents.id))
      .$dynamic(),
    ctx.db.select({ n: count() }).from(incidents).where(where),
  );
  return {
    ...page,
    items: page.items.map(({ duplicateOfId, createdAt, doneAt, ...r }) => ({
      ...r,
      duplicate: duplicateOfId !== null,
      createdAt: createdAt.toISOString(),
      doneAt: doneAt?.toISOString() ?? null,
    })),
  };
}

export interface HistoryTask {
  plannedMaintenanceId: number;
  name: string;
  dueDate: string;
  status: TaskStatus;
  doneAt: string | null;
}

/** The item's maintenance tasks due up to today, latest first (at most HISTORY_TASKS). */
export async function listEquipmentItemTasks(ctx: ServiceContext, itemId: number): Promise<HistoryTask[]> {
  assertCan(ctx.actor, "read", "task");
  const today = dayIn(now(), ctx.timeZone);
  const rows = await ctx.db
    .select({
      plannedMaintenanceId: tasks.plannedMaintenanceId,
      name: plannedMaintenances.name,
      dueDate: tasks.dueDate,
      status: tasks.status,
      doneAt: tasks.doneAt,
    })
    .from(tasks)
    .innerJoin(plannedMaintenances, and(eq(plannedMaintenances.id, tasks.plannedMaintenanceId), eq(plannedMaintenances.entityId, ctx.entityId)))
    .where(and(eq(tasks.entityId, ctx.entityId), eq(tasks.equipmentItemId, itemId), sql`${tasks.dueDate} <= ${today}`))
    .orderBy(desc(tasks.dueDate), desc(tasks.id))
    .limit(HISTORY_TASKS);
  return rows.map((r) => ({ ...r, doneAt: r.doneAt?.toISOString() ?? null }));
}
