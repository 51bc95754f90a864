import { and, eq, inArray, type SQL, sql } from "drizzle-orm";
import { assertCan } from "~/core/actor";
import type { ServiceContext } from "~/core/context.server";
import { buildings, entities, equipmentItems, equipmentTypes, facilities, incidentTypes, rooms } from "~/db/schema";
import { now } from "~/lib/clock.server";
import { dayIn, endOfDay, startOfDay } from "~/lib/dates";
import { rowsOf } from "~/lib/list-page.server";
import { incidentReachByPlace, reachOutline } from "~/modules/facilities/policy.server";
import { incidentTypeName } from "~/modules/incident-types/queries.server";
import { buildingReach, roomReach } from "~/modules/maintenance/task-queries.server";
import { DEFAULT_CURRENCY } from "~/modules/time-costs/constants";
import { addMonths, type DashboardFilters, type DashboardPeriod, dashboardPeriod, lastDayOfMonth, monthsBetween, TOP_COST_PLACES } from "./filters";
import { checkFilters } from "./queries.server";

/**
 * The dashboard's "Time and costs" (issue 62): the time entries and material lines of the period within
 * the viewer's reach, summed per month, per facility, per building and per incident type (a task's work
 * is "Planned maintenance": tasks have no type), with the rooms and equipment items that cost the most.
 *
 * - The period is when the work was done: a time entry's day (`worked_on`, already the entity's), a
 *   material line's creation instant in the entity's time zone. So the months are the entity's.
 * - A row counts when its incident (not archived) is in the viewer's reach (`incidentReach`, as every
 *   other figure of the dashboard) or its task is (`taskReach`). The place filters apply to the record's
 *   room; the type filter keeps the incidents of that type (and so no task).
 * - Amounts are exact (whole cents): each entry's cost is minutes / 60 × the rate it captured and each
 *   line's quantity × unit cost, rounded to the cent as the incident view rounds them, then summed.
 *   Entries without a rate count in the hours and as `unpricedEntries`, not in the labour cost.
 * The sums are read from monthly roll-ups kept by triggers (migration 0053, decision 065), not from the
 * work rows: see `groupedRows`. Then one more read names what the section lists.
 */

export interface CostFigures {
  /** Time recorded, in minutes. */
  minutes: number;
  /** Amounts in the entity's currency, exact decimal strings ("1234.50"). */
  labour: string;
  materials: string;
  total: string;
  /** Time entries without an hourly rate: their time is counted, their cost is not. */
  unpricedEntries: number;
  entries: number;
  lines: number;
}

export interface CostMonth extends CostFigures {
  /** YYYY-MM. */
  month: string;
}

export interface CostFacility extends CostFigures {
  /** null: incidents without a room. */
  id: number | null;
  name: string | null;
}

export interface CostBuilding extends CostFigures {
  /** null: incidents without a room. */
  id: number | null;
  name: string | null;
  facilityName: string | null;
}

export interface CostType extends CostFigures {
  /** `type`: incidents of a type; `none`: incidents without a type; `maintenance`: planned maintenance tasks. */
  kind: "type" | "none" | "maintenance";
  id: number | null;
  name: string | null;
}

export interface CostRoom extends CostFigures {
  id: number;
  name: string;
  buildingName: string;
}

export interface CostEquipment extends CostFigures {
  id: number;
  equipmentName: string;
  internalReference: string | null;
  roomName: string | null;
}

export interface DashboardCosts {
  /** The entity's currency (ISO 4217) of every amount. */
  currency: string;
  period: DashboardPeriod;
  total: CostFigures;
  /** Every month of the period, in order (zero where nothing was recorded). */
  months: CostMonth[];
  /** Those with costs, the costliest first; the same for the buildings and types. */
  facilities: CostFacility[];
  buildings: CostBuilding[];
  types: CostType[];
  /** The ten costliest rooms and equipment items (total, then time). */
  rooms: CostRoom[];
  equipment: CostEquipment[];
}

/** The dimensions, in the order of the `grouping()` bits (the first is the highest). */
const DIMENSIONS = ["month", "facility_id", "building_id", "type_key", "room_id", "equipment_id"] as const;
type Dimension = (typeof DIMENSIONS)[number] | "total";
/** `grouping(...)` of a grouping set over one dimension: every other bit is set. */
const groupingOf = (d: (typeof DIMENSIONS)[number]) => (2 ** DIMENSIONS.length - 1) ^ (2 ** (DIMENSIONS.length - 1 - DIMENSIONS.indexOf(d)));
const ALL_GROUPED = 2 ** DIMENSIONS.length - 1;

/** `type_key` of a task's work, and of an incident without a type. */
const MAINTENANCE_KEY = -1;
const NO_TYPE_KEY = 0;

interface RawRow {
  grp: number | string;
  month: string | null;
  facility_id: number | string | null;
  building_id: number | string | null;
  type_key: number | string | null;
  room_id: number | string | null;
  equipment_id: number | string | null;
  minutes: number | string;
  labour: string;
  materials: string;
  total: string;
  unpriced: number | string;
  entries: number | string;
  lines: number | string;
}

const ZERO: CostFigures = { minutes: 0, labour: "0.00", materials: "0.00", total: "0.00", unpricedEntries: 0, entries: 0, lines: 0 };
const int = (v: unknown) => (v === null || v === undefined ? null : Number(v));

function figuresOf(row: RawRow): CostFigures {
  return {
    minutes: Number(row.minutes),
    labour: String(row.labour),
    materials: String(row.materials),
    total: String(row.total),
    unpricedEntries: Number(row.unpriced),
    entries: Number(row.entries),
    lines: Number(row.lines),
  };
}

/**
 * The time entries and material lines of the entity that `entries` and `lines` select, with their month
 * and amounts as the roll-up counts them, each figure multiplied by `sign`.
 */
function workRows(entityId: number, entries: SQL, lines: SQL, sign: 1 | -1): SQL {
  // tenant-scope: both tables filtered by the entity
  return sql`select te.incident_id, te.task_id, to_char(te.worked_on, 'YYYY-MM') as month, ${sign}::int as sign,
      te.minutes::bigint as minutes, (round(te.minutes * coalesce(te.hourly_rate, 0) / 60, 2) * 100)::bigint as labour_cents,
      0::bigint as materials_cents, (te.hourly_rate is null)::int as unpriced, 1 as entries, 0 as lines
    from time_entries te where te.entity_id = ${entityId} and ${entries}
    union all
    select ml.incident_id, ml.task_id, to_char(ml.created_at at time zone e.time_zone, 'YYYY-MM'), ${sign}::int,
      0, 0, (round(ml.quantity * ml.unit_cost, 2) * 100)::bigint, 0, 0, 1
    from material_lines ml join entities e on e.id = ml.entity_id where ml.entity_id = ${entityId} and ${lines}`;
}

/** What every read of the section needs: the period's bounds, the reach and the filters as SQL. */
interface CostScope {
  e: number;
  filters: DashboardFilters;
  period: DashboardPeriod;
  /** The first day of the period's first month and the last of its last: the roll-up's months. */
  firstDay: string;
  lastDay: string;
  reach: ReturnType<typeof incidentReachByPlace>;
  taskRooms: SQL;
  taskBuildings: SQL;
  /** The corrections from the work rows (`corrections`), as CTEs named `mine`, `work` and `placed`. */
  ctes: SQL;
  /** Whether the viewer reaches less than half the buildings (`reachOutline`). */
  narrowReach: boolean;
}

function costScope(ctx: ServiceContext, filters: DashboardFilters, period: DashboardPeriod, narrowReach: boolean): CostScope {
  const e = ctx.entityId;
  const tz = ctx.timeZone;
  const firstDay = addMonths(period.from, 0);
  const lastDay = lastDayOfMonth(period.to);
  const start = startOfDay(period.from, tz).toISOString();
  const end = endOfDay(period.to, tz).toISOString();
  const monthsStart = startOfDay(firstDay, tz).toISOString();
  const monthsEnd = endOfDay(lastDay, tz).toISOString();
  const reach = incidentReachByPlace(ctx);
  // The incidents assigned to the viewer in no room they reach (none for an actor without an assignee part).
  const mine =
    reach.assigneeId === null
      ? sql`select null::int as id where false`
      : sql`select i.id from incidents i
          where i.entity_id = ${e} and i.assignee_id = ${reach.assigneeId} and i.archived_at is null
            and (i.room_id is null or not exists (select 1 from rooms where rooms.id = i.room_id and rooms.entity_id = ${e} and ${reach.room ?? sql`true`}))`;
  // tenant-scope: the work rows are the entity's (workRows), their records read by id within the entity
  const ctes = sql`mine as (${mine}),
    work as (
      ${workRows(e, sql`te.worked_on >= ${firstDay}::date and te.worked_on < ${period.from}::date`, sql`ml.created_at >= ${monthsStart}::timestamptz and ml.created_at < ${start}::timestamptz`, -1)}
      union all
      ${workRows(e, sql`te.worked_on > ${period.to}::date and te.worked_on <= ${lastDay}::date`, sql`ml.created_at >= ${end}::timestamptz and ml.created_at < ${monthsEnd}::timestamptz`, -1)}
      union all
      ${workRows(
        e,
        sql`te.worked_on >= ${period.from}::date and te.worked_on <= ${period.to}::date and te.incident_id in (select id from mine)`,
        sql`ml.created_at >= ${start}::timestamptz and ml.created_at < ${end}::timestamptz and ml.incident_id in (select id from mine)`,
        1
      )}
    ),
    placed as (
      select w.month, coalesce(incidents.room_id, tasks.room_id) as room_id, coalesce(incidents.equipment_item_id, tasks.equipment_item_id) as equipment_id,
        case when w.task_id is not null then ${MAINTENANCE_KEY} else coalesce(incidents.incident_type_id, ${NO_TYPE_KEY}) end as type_key,
        w.sign * w.minutes as minutes, w.sign * w.labour_cents as labour_cents, w.sign * w.materials_cents as materials_cents,
        w.sign * w.unpriced as unpriced, w.sign * w.entries as entries, w.sign * w.lines as lines, w.sign > 0 as assigned
      from work w
      left join incidents on incidents.id = w.incident_id and incidents.entity_id = ${e}
      left join tasks on tasks.id = w.task_id and tasks.entity_id = ${e}
      where (incidents.id is not null and incidents.archived_at is null) or tasks.id is not null
    )`;
  return {
    e,
    filters,
    period,
    firstDay,
    lastDay,
    reach,
    taskRooms: filters.incidentTypeId ? sql`false` : (roomReach(ctx) ?? sql`true`),
    taskBuildings: filters.incidentTypeId ? sql`false` : (buildingReach(ctx) ?? sql`true`),
    ctes,
    narrowReach,
  };
}

const FIGURES = sql.raw(`minutes, labour_cents, materials_cents, unpriced, entries, lines`);
/** The sums of a group of roll-up rows, named as `RawRow`. */
const SUMS = sql.raw(`coalesce(sum(x.minutes), 0)::int as minutes,
  (coalesce(sum(x.labour_cents), 0) / 100.0)::numeric(14,2)::text as labour,
  (coalesce(sum(x.materials_cents), 0) / 100.0)::numeric(14,2)::text as materials,
  ((coalesce(sum(x.labour_cents), 0) + coalesce(sum(x.materials_cents), 0)) / 100.0)::numeric(14,2)::text as total,
  coalesce(sum(x.unpriced), 0)::int as unpriced,
  coalesce(sum(x.entries), 0)::int as entries,
  coalesce(sum(x.lines), 0)::int as lines`);

/**
 * The months, facilities, buildings, types and total, from the roll-up per building plus the
 * corrections placed in their rooms' buildings; reach and place filters are the buildings'.
 */
async function placeRows(ctx: ServiceContext, s: CostScope): Promise<RawRow[]> {
  const { e, filters } = s;
  const typeFilter = filters.incidentTypeId ? sql`and x.type_key = ${filters.incidentTypeId}` : sql``;
  const placeFilter = filters.buildingId
    ? sql`and buildings.id = ${filters.buildingId}`
    : filters.facilityId
      ? sql`and buildings.facility_id = ${filters.facilityId}`
      : sql``;
  // tenant-scope: the roll-up, rooms and buildings are filtered by the entity
  const result = await ctx.db.execute(sql`
    with ${s.ctes},
    cells as (
      select to_char(c.month, 'YYYY-MM') as month, nullif(c.building_id, 0) as building_id, c.type_key, ${FIGURES}, false as assigned
      from work_cost_building_months c
      where c.entity_id = ${e} and c.month >= ${s.firstDay}::date and c.month <= ${s.lastDay}::date
      union all
      select p.month, rooms.building_id, p.type_key, ${FIGURES}, p.assigned
      from placed p left join rooms on rooms.id = p.room_id and rooms.entity_id = ${e}
    )
    select grouping(month, facility_id, building_id, type_key) * 4 + 3 as grp, month, facility_id, building_id, type_key,
      null as room_id, null as equipment_id, ${SUMS}
    from (
      select x.*, buildings.facility_id
      from cells x
      left join buildings on buildings.id = x.building_id and buildings.entity_id = ${e}
      where (x.assigned or (case when x.type_key = ${MAINTENANCE_KEY} then ${s.taskBuildings} else ${s.reach.building ?? sql`true`} end)) ${typeFilter} ${placeFilter}
    ) x
    group by grouping sets ((month), (facility_id), (building_id), (type_key), ())
    -- a key whose work all lies outside the period (the edges took it away) has none in it
    having grouping(month, facility_id, building_id, type_key) = 15 or sum(x.entries) + sum(x.lines) > 0
  `);
  return rowsOf<RawRow>(result);
}

/** Keys whose exact figures are read first for the tops (with those tied with the last). */
const TOP_CANDIDATES = 30;

const TOP_KEYS = {
  room: { grp: groupingOf("room_id"), column: sql.raw("room_id"), bounds: sql.raw("work_cost_room_months") },
  equipment: { grp: groupingOf("equipment_id"), column: sql.raw("equipment_item_id"), bounds: sql.raw("work_cost_item_months") },
} as const;

/** A decimal string of the section ("1234.50") in cents. */
const centsOf = (amount: string) => Number(amount.replace(".", ""));

/**
 * The ten costliest rooms or equipment items. Their exact figures come from the roll-up per room (with
 * reach, filters and corrections) for a few candidates: the `TOP_CANDIDATES` keys that cost the most
 * over the period's months in `work_cost_room_months` or `work_cost_item_months` (one row per key and
 * month, whatever the type; the rooms kept by the reach and place filters). That cost bounds a key's
 * exact one (the type filter, the reach of tasks or incidents and the edges taken away only lower it),
 * so when the tenth candidate's exact cost is at least the last candidate's bound, no other key can
 * take its place; when it is not, the candidates become every key whose bound reaches the tenth (every
 * key, when fewer than ten have work).
 */
async function topRows(ctx: ServiceContext, s: CostScope, dim: keyof typeof TOP_KEYS): Promise<RawRow[]> {
  const { e, filters } = s;
  const { column, bounds } = TOP_KEYS[dim];
  const placeFilter = filters.buildingId
    ? sql`and rooms.building_id = ${filters.buildingId}`
    : filters.facilityId
      ? sql`and rooms.building_id in (select b.id from buildings b where b.entity_id = ${e} and b.facility_id = ${filters.facilityId})`
      : sql``;
  // The rooms' bounds kept by the place filters and a narrow reach (of incidents or tasks); the items'
  // cannot be (an item's work may be in several rooms). A wide reach keeps most rooms: testing it would
  // cost more than the few candidates out of reach it saves.
  const reach = s.narrowReach ? sql`and (${s.reach.room ?? sql`true`} or ${s.taskRooms})` : sql``;
  const kept = dim === "room" && (s.narrowReach || filters.buildingId || filters.facilityId) ? sql`join rooms on rooms.id = a.id and rooms.entity_id = ${e} where true ${reach} ${placeFilter}` : sql`where true`;
  // tenant-scope: the bounds are the entity's
  const costs = sql`select k.${column} as id, sum(k.cost_cents) as cost from ${bounds} k
    where k.entity_id = ${e} and k.month >= ${s.firstDay}::date and k.month <= ${s.lastDay}::date group by 1`;
  const bounded = rowsOf<{ id: number; cost: number | string }>(
    await ctx.db.execute(sql`select a.id, a.cost from (${costs}) a ${kept} order by a.cost desc fetch first ${TOP_CANDIDATES} rows with ties`)
  );
  const ids = bounded.map((c) => Number(c.id));
  const top = await exactTop(ctx, s, dim, ids.length ? sql`select v.id from (values ${sql.join(ids.map((id) => sql`(${id}::int)`), sql`, `)}) v (id)` : sql`select null::int where false`);
  if (bounded.length < TOP_CANDIDATES) return top;
  const tenth = top.length === TOP_COST_PLACES ? centsOf(top[TOP_COST_PLACES - 1].total) : null;
  if (tenth !== null && tenth >= Number(bounded[bounded.length - 1].cost)) return top;
  return exactTop(ctx, s, dim, sql`select a.id from (${costs}) a ${kept} ${tenth === null ? sql`` : sql`and a.cost >= ${tenth}`}`);
}

/** The exact figures of the rooms or equipment items the select `candidates` names (and those of the viewer's assigned work), the ten costliest. */
async function exactTop(ctx: ServiceContext, s: CostScope, dim: keyof typeof TOP_KEYS, candidates: SQL): Promise<RawRow[]> {
  const { e, filters } = s;
  const { grp, column } = TOP_KEYS[dim];
  const key = dim === "room" ? sql.raw("room_id") : sql.raw("equipment_id");
  const typeFilter = filters.incidentTypeId ? sql`and x.type_key = ${filters.incidentTypeId}` : sql``;
  const placeFilter = filters.buildingId
    ? sql`and rooms.building_id = ${filters.buildingId}`
    : filters.facilityId
      ? sql`and b.facility_id = ${filters.facilityId}`
      : sql``;
  const buildingJoin = filters.facilityId && !filters.buildingId ? sql`left join buildings b on b.id = rooms.building_id and b.entity_id = ${e}` : sql``;
  // tenant-scope: the roll-up, rooms and buildings are filtered by the entity
  const result = await ctx.db.execute(sql`
    with ${s.ctes},
    keys as (${candidates} union select p.${key} from placed p where p.assigned),
    cells as (
      select nullif(c.room_id, 0) as room_id, nullif(c.equipment_item_id, 0) as equipment_id, c.type_key, ${FIGURES}, false as assigned
      from work_cost_months c
      where c.entity_id = ${e} and c.${column} in (select id from keys k (id)) and c.month >= ${s.firstDay}::date and c.month <= ${s.lastDay}::date
      union all
      select p.room_id, p.equipment_id, p.type_key, ${FIGURES}, p.assigned from placed p where p.${key} in (select id from keys k (id))
    )
    select ${grp} as grp, null as month, null as facility_id, null as building_id, null as type_key,
      ${dim === "room" ? sql`x.room_id` : sql`null`} as room_id, ${dim === "equipment" ? sql`x.equipment_id` : sql`null`} as equipment_id, ${SUMS}
    from cells x
    left join rooms on rooms.id = x.room_id and rooms.entity_id = ${e}
    ${buildingJoin}
    where (x.assigned or (case when x.type_key = ${MAINTENANCE_KEY} then ${s.taskRooms} else ${s.reach.room ?? sql`true`} end)) ${typeFilter} ${placeFilter}
    group by x.${key}
    having sum(x.entries) + sum(x.lines) > 0
    order by sum(x.labour_cents) + sum(x.materials_cents) desc, sum(x.minutes) desc, x.${key}
    limit ${TOP_COST_PLACES}
  `);
  return rowsOf<RawRow>(result);
}

/**
 * The period's work within reach and filters, grouped by each dimension (the top ten of rooms and
 * equipment), read from the monthly roll-ups (decision 065): `work_cost_building_months` for the
 * months, facilities, buildings and types, `work_cost_months` for the rooms and equipment items. Two
 * corrections come from the work rows themselves, each read by index and usually empty or small:
 * - the work of the period's first and last months that lies outside the period (before `from`, after
 *   `to`) is taken away, so a period need not start or end on a month's bounds;
 * - the work on incidents assigned to the viewer outside the rooms they reach is added (reach follows
 *   the assignee as well as the room: `incidentReachByPlace`).
 * The roll-ups' rows and the first correction are kept by the place reach, as `incidentReach` and
 * `taskReach` keep the incidents and tasks of those rooms.
 */
async function groupedRows(ctx: ServiceContext, filters: DashboardFilters, period: DashboardPeriod): Promise<RawRow[]> {
  const outline = await reachOutline(ctx);
  const scope = costScope(ctx, filters, period, outline !== null && !outline.wide);
  const [places, rooms, items] = await Promise.all([placeRows(ctx, scope), topRows(ctx, scope, "room"), topRows(ctx, scope, "equipment")]);
  return [...places, ...rooms, ...items];
}

const byCost = <T extends CostFigures>(x: T, y: T) => Number(y.total) - Number(x.total) || y.minutes - x.minutes;

/** The time and costs of the viewer's dashboard. Facility managers and administrators only. */
export async function getDashboardCosts(ctx: ServiceContext, filters: DashboardFilters): Promise<DashboardCosts> {
  assertCan(ctx.actor, "read", "dashboard");
  await checkFilters(ctx, filters);
  const period = dashboardPeriod(filters, dayIn(now(), ctx.timeZone));
  const [rows, [entity]] = await Promise.all([
    groupedRows(ctx, filters, period),
    ctx.db.select({ currency: entities.currency }).from(entities).where(eq(entities.id, ctx.entityId)),
  ]);
  const of = (d: Dimension) => rows.filter((r) => Number(r.grp) === (d === "total" ? ALL_GROUPED : groupingOf(d)));

  const facilityIds = of("facility_id").flatMap((r) => (r.facility_id === null ? [] : [Number(r.facility_id)]));
  const buildingIds = of("building_id").flatMap((r) => (r.building_id === null ? [] : [Number(r.building_id)]));
  const typeIds = of("type_key").flatMap((r) => (Number(r.type_key) > 0 ? [Number(r.type_key)] : []));
  const roomIds = of("room_id").map((r) => Number(r.room_id));
  const itemIds = of("equipment_id").map((r) => Number(r.equipment_id));
  const e = ctx.entityId;
  const [facilityNames, buildingNames, typeNames, roomNames, itemNames] = await Promise.all([
    facilityIds.length ? ctx.db.select({ id: facilities.id, name: facilities.name }).from(facilities).where(and(eq(facilities.entityId, e), inArray(facilities.id, facilityIds))) : [],
    buildingIds.length
      ? ctx.db
          .select({ id: buildings.id, name: buildings.name, facilityName: facilities.name })
          .from(buildings)
          .innerJoin(facilities, and(eq(facilities.id, buildings.facilityId), eq(facilities.entityId, e)))
          .where(and(eq(buildings.entityId, e), inArray(buildings.id, buildingIds)))
      : [],
    typeIds.length ? ctx.db.select({ id: incidentTypes.id, name: incidentTypeName(ctx.locale) }).from(incidentTypes).where(and(eq(incidentTypes.entityId, e), inArray(incidentTypes.id, typeIds))) : [],
    roomIds.length
      ? ctx.db
          .select({ id: rooms.id, name: rooms.name, buildingName: buildings.name })
          .from(rooms)
          .innerJoin(buildings, and(eq(buildings.id, rooms.buildingId), eq(buildings.entityId, e)))
          .where(and(eq(rooms.entityId, e), inArray(rooms.id, roomIds)))
      : [],
    itemIds.length
      ? ctx.db
          .select({ id: equipmentItems.id, equipmentName: equipmentTypes.name, internalReference: equipmentItems.internalReference, roomName: rooms.name })
          .from(equipmentItems)
          .innerJoin(equipmentTypes, eq(equipmentTypes.id, equipmentItems.equipmentTypeId))
          .leftJoin(rooms, and(eq(rooms.id, equipmentItems.roomId), eq(rooms.entityId, e)))
          .where(and(eq(equipmentItems.entityId, e), inArray(equipmentItems.id, itemIds)))
      : [],
  ]);
  const facilityName = new Map(facilityNames.map((f) => [f.id, f.name]));
  const building = new Map(buildingNames.map((b) => [b.id, b]));
  const typeName = new Map(typeNames.map((t) => [t.id, t.name]));
  const room = new Map(roomNames.map((r) => [r.id, r]));
  const item = new Map(itemNames.map((i) => [i.id, i]));

  const months = new Map(of("month").map((r) => [r.month!, figuresOf(r)]));
  const totalRow = of("total")[0];
  return {
    currency: entity?.currency ?? DEFAULT_CURRENCY,
    period,
    total: totalRow ? figuresOf(totalRow) : { ...ZERO },
    months: monthsBetween(period.from, period.to).map((month) => ({ month, ...(months.get(month) ?? ZERO) })),
    facilities: of("facility_id")
      .map((r) => {
        const id = int(r.facility_id);
        return { id, name: id === null ? null : (facilityName.get(id) ?? null), ...figuresOf(r) };
      })
      .sort(byCost),
    buildings: of("building_id")
      .map((r) => {
        const id = int(r.building_id);
        const b = id === null ? undefined : building.get(id);
        return { id, name: b?.name ?? null, facilityName: b?.facilityName ?? null, ...figuresOf(r) };
      })
      .sort(byCost),
    types: of("type_key")
      .map((r) => {
        const key = Number(r.type_key);
        const kind: CostType["kind"] = key === MAINTENANCE_KEY ? "maintenance" : key === NO_TYPE_KEY ? "none" : "type";
        return { kind, id: kind === "type" ? key : null, name: kind === "type" ? (typeName.get(key) ?? null) : null, ...figuresOf(r) };
      })
      .sort(byCost),
    rooms: of("room_id")
      .map((r) => {
        const id = Number(r.room_id);
        return { id, name: room.get(id)?.name ?? "", buildingName: room.get(id)?.buildingName ?? "", ...figuresOf(r) };
      })
      .sort((x, y) => byCost(x, y) || x.id - y.id),
    equipment: of("equipment_id")
      .map((r) => {
        const id = Number(r.equipment_id);
        const i = item.get(id);
        return { id, equipmentName: i?.equipmentName ?? "", internalReference: i?.internalReference ?? null, roomName: i?.roomName ?? null, ...figuresOf(r) };
      })
      .sort((x, y) => byCost(x, y) || x.id - y.id),
  };
}
