import { and, eq, gte, inArray, isNull, lt, lte, type SQL, sql } from "drizzle-orm";
import { assertCan } from "~/core/actor";
import type { ServiceContext } from "~/core/context.server";
import { IncidentStatus } from "~/db/enums";
import { buildings, facilities, incidentMonthAssigneeCounts, incidentMonthCounts, incidents, incidentTypes, users } from "~/db/schema";
import { now } from "~/lib/clock.server";
import { dayIn, endOfDay, startOfDay } from "~/lib/dates";
import { NotFoundError } from "~/lib/errors";
import { incidentReach, incidentsOutsideReach, isEntityWide, reachOutline, treeScope } from "~/modules/facilities/policy.server";
import { incidentTypeName } from "~/modules/incident-types/queries.server";
import { ALL_STATUSES, type DashboardFilters, type DashboardPeriod, dashboardPeriod, lastDayOfMonth, monthsBetween, OPEN_STATUSES, TOP_TYPES } from "./filters";

/**
 * The dashboard's figures (SPEC.md sections 2 and 9; decision 030). Every figure counts the
 * incidents (not archived) created in the period, by their current status, within the viewer's reach
 * (`incidentReach`): per month (in the entity's time zone) created, Done, Rejected and still open
 * (Pending or In Progress); the top 10 incident types with their share of the created ones; per
 * assignee open, Done and the average handling time; the average handling time (creation to Done, in
 * hours; Rejected ones are not Done, so never counted) overall and per priority; and the counts by
 * status and by priority. Exact, never sampled.
 *
 * Administrators' dashboards over whole months of the entity, or of one incident type, are summed from
 * the monthly counters the triggers of migration 0011 keep (a few thousand rows at most); the others
 * (a facility, a building, a manager's reach, a period that cuts a month) count the period's incidents
 * on the covering index `incidents_list_created_idx` (migration 0032). Both answer the same rows, grouped the same way.
 */
export const dashboardFilterNotFound = () => new NotFoundError("dashboard:errors.filterNotFound", "DASHBOARD_FILTER_NOT_FOUND");

export interface MonthFigures {
  /** YYYY-MM. */
  month: string;
  /** The days of the month inside the period (for the links). */
  from: string;
  to: string;
  created: number;
  done: number;
  rejected: number;
  open: number;
}

export interface TypeFigures {
  /** null: incidents without a type. */
  id: number | null;
  name: string | null;
  count: number;
  /** Share of the incidents created in the period, 0 to 1. */
  share: number;
}

export interface AssigneeFigures {
  /** null: unassigned. */
  id: number | null;
  name: string | null;
  open: number;
  done: number;
  /** Average creation to Done of the Done ones, in hours (one decimal); null when none is Done. */
  averageHours: number | null;
}

export interface HandlingFigures {
  /** null: Not Selected; undefined for the overall figure. */
  priority?: number | null;
  done: number;
  averageHours: number | null;
}

export interface DashboardFigures {
  timeZone: string;
  period: DashboardPeriod;
  filters: DashboardFilters;
  /** Whether the monthly counters answered (else the incidents were counted). */
  fromCounters: boolean;
  total: number;
  months: MonthFigures[];
  types: TypeFigures[];
  /** How many types have incidents in the period (the top lists at most 10). */
  typeCount: number;
  assignees: AssigneeFigures[];
  handling: HandlingFigures;
  handlingByPriority: HandlingFigures[];
  byStatus: { status: IncidentStatus; count: number }[];
  byPriority: { priority: number | null; count: number }[];
}

/** The grouped rows both sources answer: one grouping set per kind. */
interface Cell {
  month: string | null;
  typeId: number | null;
  priority: number | null;
  assigneeId: number | null;
  status: number | null;
  n: number;
  seconds: number;
}

const PRIORITIES: (number | null)[] = [null, 0, 1, 2, 3];
const hours = (seconds: number, n: number) => (n > 0 ? Math.round((seconds / n / 3600) * 10) / 10 : null);

/** Checks that the filters' facility, building and type exist in the entity (and in reach): else "not found". */
export async function checkFilters(ctx: ServiceContext, filters: DashboardFilters): Promise<void> {
  if (filters.facilityId) {
    const [row] = await ctx.db
      .select({ id: facilities.id })
      .from(facilities)
      .where(and(eq(facilities.id, filters.facilityId), eq(facilities.entityId, ctx.entityId), treeScope(ctx, "facility")));
    if (!row) throw dashboardFilterNotFound();
  }
  if (filters.buildingId) {
    const [row] = await ctx.db
      .select({ id: buildings.id })
      .from(buildings)
      .where(and(eq(buildings.id, filters.buildingId), eq(buildings.entityId, ctx.entityId), treeScope(ctx, "building")));
    if (!row) throw dashboardFilterNotFound();
  }
  if (filters.incidentTypeId) {
    const [row] = await ctx.db
      .select({ id: incidentTypes.id })
      .from(incidentTypes)
      .where(and(eq(incidentTypes.id, filters.incidentTypeId), eq(incidentTypes.entityId, ctx.entityId)));
    if (!row) throw dashboardFilterNotFound();
  }
}

/** Whether the counters can answer for the whole entity: no place filter, whole months (the last one may run up to today). */
function wholeMonthsOfEntity(filters: DashboardFilters, period: DashboardPeriod, today: string): boolean {
  return !filters.facilityId && !filters.buildingId && period.from.endsWith("-01") && (period.to === lastDayOfMonth(period.to) || period.to >= today);
}

/**
 * How the figures are counted: `counters` for a whole-entity actor; `countersLessOutside` for an actor
 * reaching at least half of the entity's buildings (the entity's counters less the incidents outside
 * their reach, the smaller set to count); `incidents` otherwise (their reach's incidents counted).
 */
type Source = { kind: "counters" } | { kind: "countersLessOutside"; outsideBuildings: number[] } | { kind: "incidents" };

async function sourceFor(ctx: ServiceContext, filters: DashboardFilters, period: DashboardPeriod, today: string): Promise<Source> {
  if (!wholeMonthsOfEntity(filters, period, today)) return { kind: "incidents" };
  if (isEntityWide(ctx.actor)) return { kind: "counters" };
  const outline = await reachOutline(ctx);
  return outline?.wide ? { kind: "countersLessOutside", outsideBuildings: outline.outside } : { kind: "incidents" };
}

const num = (column: SQL | string) => (typeof column === "string" ? sql.raw(column) : column);

async function cellsFromCounters(ctx: ServiceContext, filters: DashboardFilters, period: DashboardPeriod): Promise<Cell[]> {
  const c = incidentMonthCounts;
  const a = incidentMonthAssigneeCounts;
  const fromMonth = `${period.from.slice(0, 7)}-01`;
  const toMonth = `${period.to.slice(0, 7)}-01`;
  const byType = ctx.db
    .select({
      month: sql<string | null>`to_char(${c.month}, 'YYYY-MM')`,
      typeId: c.incidentTypeId,
      priority: c.priority,
      status: c.status,
      n: sql<number>`sum(${c.count})::int`.mapWith(Number),
      seconds: sql<number>`sum(${c.handlingSeconds})::float8`.mapWith(Number),
    })
    .from(c)
    .where(and(eq(c.entityId, ctx.entityId), gte(c.month, fromMonth), lte(c.month, toMonth), filters.incidentTypeId ? eq(c.incidentTypeId, filters.incidentTypeId) : undefined))
    .groupBy(sql`grouping sets ((${c.month}, ${c.status}), (${c.incidentTypeId}), (${c.priority}, ${c.status}))`);
  // The counters per assignee have no type: with a type, those figures count the incidents.
  const byAssignee = filters.incidentTypeId
    ? null
    : ctx.db
        .select({
          assigneeId: a.assigneeId,
          status: a.status,
          n: sql<number>`sum(${a.count})::int`.mapWith(Number),
          seconds: sql<number>`sum(${a.handlingSeconds})::float8`.mapWith(Number),
        })
        .from(a)
        .where(and(eq(a.entityId, ctx.entityId), gte(a.month, fromMonth), lte(a.month, toMonth)))
        .groupBy(a.assigneeId, a.status);
  const [typeRows, assigneeRows] = await Promise.all([byType, byAssignee ?? cellsFromIncidents(ctx, filters, period, { only: "assignee" })]);
  const cells: Cell[] = typeRows.map((r) => ({ ...r, assigneeId: null }));
  for (const r of assigneeRows) cells.push({ month: null, typeId: null, priority: null, ...r });
  return cells;
}

/**
 * The conditions selecting the dashboard's incidents: the entity's, not archived, within `reach`, created
 * in the period (its days and months are the entity's: the context's zone, which the counters' triggers
 * read from the same column), of the filters' type and place. Shared by every figure counted from the
 * incidents (the service levels too, `service-levels.server.ts`).
 */
export function periodIncidents(ctx: ServiceContext, filters: DashboardFilters, period: DashboardPeriod, reach: SQL | undefined): (SQL | undefined)[] {
  const tz = ctx.timeZone;
  const conditions: (SQL | undefined)[] = [
    eq(incidents.entityId, ctx.entityId),
    isNull(incidents.archivedAt),
    reach,
    gte(incidents.createdAt, startOfDay(period.from, tz)),
    lt(incidents.createdAt, endOfDay(period.to, tz)),
  ];
  if (filters.incidentTypeId) conditions.push(eq(incidents.incidentTypeId, filters.incidentTypeId));
  if (filters.buildingId) {
    conditions.push(sql`${incidents.roomId} in (select r.id from rooms r where r.entity_id = ${ctx.entityId} and r.building_id = ${filters.buildingId})`);
  } else if (filters.facilityId) {
    conditions.push(
      sql`${incidents.roomId} in (select r.id from rooms r join buildings b on b.id = r.building_id
        where r.entity_id = ${ctx.entityId} and b.facility_id = ${filters.facilityId})`,
    );
  }
  return conditions;
}

/**
 * The period's incidents grouped as the counters are. `only: "assignee"`: the assignee grouping alone.
 * `outside`: the incidents of this part of the outside of the actor's reach (`incidentsOutsideReach`) instead of those in it.
 */
async function cellsFromIncidents(
  ctx: ServiceContext,
  filters: DashboardFilters,
  period: DashboardPeriod,
  { only, outside }: { only?: "assignee"; outside?: SQL } = {},
): Promise<Cell[]> {
  const tz = ctx.timeZone;
  const conditions = periodIncidents(ctx, filters, period, outside ?? incidentReach(ctx));
  // tenant-scope: scoped by periodIncidents, whose first condition is the entity's
  const inner = ctx.db
    .select({
      month: sql<string>`to_char(date_trunc('month', ${incidents.createdAt} at time zone ${tz}), 'YYYY-MM')`.as("month"),
      typeId: sql<number>`coalesce(${incidents.incidentTypeId}, 0)`.as("type_id"),
      priority: sql<number>`coalesce(${incidents.priority}, -1)`.as("priority"),
      assigneeId: sql<number>`coalesce(${incidents.assigneeId}, 0)`.as("assignee_id"),
      status: sql<number>`${incidents.status}`.as("status"),
      seconds: sql<number>`case when ${incidents.status} = ${IncidentStatus.DONE} and ${incidents.doneAt} is not null
        then round(extract(epoch from ${incidents.doneAt} - ${incidents.createdAt}))::bigint else 0 end`.as("seconds"),
    })
    .from(incidents)
    .where(and(...conditions))
    .as("x");
  const sets = only === "assignee" ? sql`(${num("x.assignee_id")}, ${num("x.status")})` : sql`(${num("x.month")}, ${num("x.status")}), (${num("x.type_id")}), (${num("x.priority")}, ${num("x.status")}), (${num("x.assignee_id")}, ${num("x.status")})`;
  const grouped = (column: string) => (only === "assignee" ? sql<null>`null` : sql.raw(column));
  return ctx.db
    .select({
      month: sql<string | null>`${grouped("x.month")}`,
      typeId: sql<number | null>`${grouped("x.type_id")}`,
      priority: sql<number | null>`${grouped("x.priority")}`,
      assigneeId: sql<number | null>`x.assignee_id`,
      status: sql<number | null>`x.status`,
      n: sql<number>`count(*)::int`.mapWith(Number),
      seconds: sql<number>`coalesce(sum(x.seconds), 0)::float8`.mapWith(Number),
    })
    .from(inner)
    .groupBy(sql`grouping sets (${sets})`);
}

/**
 * The figures of the viewer's dashboard. Facility managers and administrators only. `countIncidents`
 * (tests) counts the incidents even where the counters could answer.
 */
export async function getDashboard(ctx: ServiceContext, filters: DashboardFilters, options: { countIncidents?: boolean } = {}): Promise<DashboardFigures> {
  assertCan(ctx.actor, "read", "dashboard");
  await checkFilters(ctx, filters);
  const timeZone = ctx.timeZone;
  const today = dayIn(now(), timeZone);
  const period = dashboardPeriod(filters, today);
  const source: Source = options.countIncidents ? { kind: "incidents" } : await sourceFor(ctx, filters, period, today);
  const cells =
    source.kind === "counters"
      ? await cellsFromCounters(ctx, filters, period)
      : source.kind === "countersLessOutside"
        ? await countersLessOutside(ctx, filters, period, source.outsideBuildings)
        : await cellsFromIncidents(ctx, filters, period);
  const figures = await shape(ctx, cells, period);
  return { ...figures, timeZone, period, filters, fromCounters: source.kind !== "incidents" };
}

const cellKey = (c: Cell) => [c.month, c.typeId, c.priority, c.assigneeId, c.status].map((v) => (v === null || v === undefined ? "" : String(v))).join("|");

/**
 * The entity's counters less the period's incidents outside the actor's reach, cell by cell. With a type
 * filter the counters' assignee figures are already counted from the reach's incidents, so only the other
 * groupings are taken away.
 */
async function countersLessOutside(ctx: ServiceContext, filters: DashboardFilters, period: DashboardPeriod, outsideBuildings: number[]): Promise<Cell[]> {
  const [entityCells, ...outsideParts] = await Promise.all([
    cellsFromCounters(ctx, filters, period),
    ...incidentsOutsideReach(ctx, outsideBuildings).map((outside) => cellsFromIncidents(ctx, filters, period, { outside })),
  ]);
  const cells = new Map(entityCells.map((c) => [cellKey(c), { ...c }]));
  for (const o of outsideParts.flat()) {
    if (filters.incidentTypeId && o.assigneeId !== null) continue;
    const c = cells.get(cellKey(o));
    // Every incident outside the reach is one of the entity's counted ones, so its cell exists.
    if (!c) continue;
    c.n -= o.n;
    c.seconds -= o.seconds;
  }
  return [...cells.values()];
}

const int = (v: unknown) => (v === null || v === undefined ? null : Number(v));

/** Turns the grouped rows into the figures (names read for the listed types and assignees). */
async function shape(ctx: ServiceContext, raw: Cell[], period: DashboardPeriod) {
  const cells = raw.map((c) => ({ ...c, typeId: int(c.typeId), priority: int(c.priority), assigneeId: int(c.assigneeId), status: int(c.status) }));
  const months = new Map<string, MonthFigures>(
    monthsBetween(period.from, period.to).map((month) => {
      const first = `${month}-01`;
      const last = lastDayOfMonth(first);
      return [month, { month, from: first < period.from ? period.from : first, to: last > period.to ? period.to : last, created: 0, done: 0, rejected: 0, open: 0 }];
    }),
  );
  const typeCounts: { id: number | null; count: number }[] = [];
  const assignees = new Map<number | null, { open: number; done: number; seconds: number }>();
  const handling = new Map<number | null, { done: number; seconds: number }>(PRIORITIES.map((p) => [p, { done: 0, seconds: 0 }]));
  const byStatus = new Map<number, number>(ALL_STATUSES.map((s) => [s, 0]));
  const byPriority = new Map<number | null, number>(PRIORITIES.map((p) => [p, 0]));
  const open = (status: number) => (OPEN_STATUSES as readonly number[]).includes(status);

  for (const c of cells) {
    if (c.month !== null && c.status !== null) {
      const m = months.get(c.month);
      if (!m) continue;
      m.created += c.n;
      if (c.status === IncidentStatus.DONE) m.done += c.n;
      else if (c.status === IncidentStatus.REJECTED) m.rejected += c.n;
      else if (open(c.status)) m.open += c.n;
    } else if (c.typeId !== null) {
      if (c.n > 0) typeCounts.push({ id: c.typeId === 0 ? null : c.typeId, count: c.n });
    } else if (c.priority !== null && c.status !== null) {
      const p = c.priority === -1 ? null : c.priority;
      byStatus.set(c.status, (byStatus.get(c.status) ?? 0) + c.n);
      byPriority.set(p, (byPriority.get(p) ?? 0) + c.n);
      if (c.status === IncidentStatus.DONE) {
        const h = handling.get(p)!;
        h.done += c.n;
        h.seconds += c.seconds;
      }
    } else if (c.assigneeId !== null && c.status !== null) {
      const id = c.assigneeId === 0 ? null : c.assigneeId;
      const a = assignees.get(id) ?? { open: 0, done: 0, seconds: 0 };
      if (open(c.status)) a.open += c.n;
      else if (c.status === IncidentStatus.DONE) {
        a.done += c.n;
        a.seconds += c.seconds;
      }
      if (c.n > 0) assignees.set(id, a);
    }
  }

  const total = [...byStatus.values()].reduce((s, n) => s + n, 0);
  typeCounts.sort((x, y) => y.count - x.count || (x.id === null ? 1 : 0) - (y.id === null ? 1 : 0) || (x.id ?? 0) - (y.id ?? 0));
  const top = typeCounts.slice(0, TOP_TYPES);
  const typeIds = top.flatMap((t) => (t.id === null ? [] : [t.id]));
  const userIds = [...assignees.keys()].filter((id): id is number => id !== null);
  const name = incidentTypeName(ctx.locale);
  const [typeNames, userNames] = await Promise.all([
    typeIds.length
      ? ctx.db.select({ id: incidentTypes.id, name }).from(incidentTypes).where(and(eq(incidentTypes.entityId, ctx.entityId), inArray(incidentTypes.id, typeIds)))
      : [],
    userIds.length
      ? ctx.db
          .select({ id: users.id, name: users.name, surname: users.surname })
          .from(users)
          .where(and(eq(users.entityId, ctx.entityId), inArray(users.id, userIds)))
      : [],
  ]);
  const typeName = new Map(typeNames.map((t) => [t.id, t.name]));
  const userName = new Map(userNames.map((u) => [u.id, `${u.name ?? ""} ${u.surname ?? ""}`.trim()]));

  const assigneeRows: AssigneeFigures[] = [...assignees.entries()]
    .map(([id, a]) => ({ id, name: id === null ? null : (userName.get(id) ?? null), open: a.open, done: a.done, averageHours: hours(a.seconds, a.done) }))
    .sort((x, y) => y.open + y.done - (x.open + x.done) || (x.name ?? "").localeCompare(y.name ?? "") || (x.id ?? 0) - (y.id ?? 0));
  const allDone = [...handling.values()].reduce((s, h) => ({ done: s.done + h.done, seconds: s.seconds + h.seconds }), { done: 0, seconds: 0 });

  return {
    total,
    months: [...months.values()],
    types: top.map((t) => ({ id: t.id, name: t.id === null ? null : (typeName.get(t.id) ?? null), count: t.count, share: total ? t.count / total : 0 })),
    typeCount: typeCounts.length,
    assignees: assigneeRows,
    handling: { done: allDone.done, averageHours: hours(allDone.seconds, allDone.done) },
    handlingByPriority: PRIORITIES.map((p) => ({ priority: p, done: handling.get(p)!.done, averageHours: hours(handling.get(p)!.seconds, handling.get(p)!.done) })),
    byStatus: ALL_STATUSES.map((s) => ({ status: s, count: byStatus.get(s) ?? 0 })),
    byPriority: PRIORITIES.map((p) => ({ priority: p, count: byPriority.get(p) ?? 0 })),
  };
}
