import { and, eq, inArray, type SQL, sql } from "drizzle-orm";
import { assertCan } from "~/core/actor";
import type { ServiceContext } from "~/core/context.server";
import { buildings, entities, equipmentItems, equipmentTypes, facilities, incidentTypes, rooms } from "~/db/schema";
import { now } from "~/lib/clock.server";
import { dayIn, endOfDay, startOfDay } from "~/lib/dates";
import { rowsOf } from "~/lib/list-page.server";
import { incidentReach } from "~/modules/facilities/policy.server";
import { incidentTypeName } from "~/modules/incident-types/queries.server";
import { taskReach } from "~/modules/maintenance/task-queries.server";
import { DEFAULT_CURRENCY } from "~/modules/time-costs/constants";
import { type DashboardFilters, type DashboardPeriod, dashboardPeriod, monthsBetween, TOP_COST_PLACES } from "./filters";
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
 * - Amounts are exact (`numeric`): each entry's cost is minutes / 60 × the rate it captured and each
 *   line's quantity × unit cost, rounded to the cent as the incident view rounds them, then summed.
 *   Entries without a rate count in the hours and as `unpricedEntries`, not in the labour cost.
 * One statement groups the rows by every dimension at once (grouping sets) and keeps the ten costliest
 * rooms and equipment items; a second reads the names of what it lists.
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

/** The period's work rows within reach and filters, grouped by each dimension (the top ten of rooms and equipment). */
async function groupedRows(ctx: ServiceContext, filters: DashboardFilters, period: DashboardPeriod): Promise<RawRow[]> {
  const e = ctx.entityId;
  const tz = ctx.timeZone;
  const start = startOfDay(period.from, tz).toISOString();
  const end = endOfDay(period.to, tz).toISOString();
  const incidentInReach = incidentReach(ctx) ?? sql`true`;
  const taskInReach: SQL = filters.incidentTypeId ? sql`false` : (taskReach(ctx) ?? sql`true`);
  const typeFilter = filters.incidentTypeId ? sql`and incidents.incident_type_id = ${filters.incidentTypeId}` : sql``;
  const placeFilter = filters.buildingId
    ? sql`and r.building_id = ${filters.buildingId}`
    : filters.facilityId
      ? sql`and b.facility_id = ${filters.facilityId}`
      : sql``;
  const sets = DIMENSIONS.map((d) => sql.raw(`(${d})`));
  // tenant-scope: every table read is filtered by the entity (work rows, their records, rooms, buildings)
  const result = await ctx.db.execute(sql`
    with work as (
      select te.incident_id, te.task_id, to_char(te.worked_on, 'YYYY-MM') as month, te.minutes,
        round(te.minutes * te.hourly_rate / 60, 2) as labour, 0::numeric as materials,
        (te.hourly_rate is null) as unpriced, 1 as entries, 0 as lines
      from time_entries te
      where te.entity_id = ${e} and te.worked_on >= ${period.from}::date and te.worked_on <= ${period.to}::date
      union all
      select ml.incident_id, ml.task_id, to_char(ml.created_at at time zone ${tz}, 'YYYY-MM'), 0,
        0::numeric, round(ml.quantity * ml.unit_cost, 2), false, 0, 1
      from material_lines ml
      where ml.entity_id = ${e} and ml.created_at >= ${start}::timestamptz and ml.created_at < ${end}::timestamptz
    ),
    placed as (
      select w.*, coalesce(incidents.room_id, tasks.room_id) as room_id,
        coalesce(incidents.equipment_item_id, tasks.equipment_item_id) as equipment_id,
        case when w.task_id is not null then ${MAINTENANCE_KEY} else coalesce(incidents.incident_type_id, ${NO_TYPE_KEY}) end as type_key
      from work w
      left join incidents on incidents.id = w.incident_id and incidents.entity_id = ${e}
      left join tasks on tasks.id = w.task_id and tasks.entity_id = ${e}
      where (incidents.id is not null and incidents.archived_at is null and ${incidentInReach} ${typeFilter})
        or (tasks.id is not null and ${taskInReach})
    ),
    grouped as (
      select grouping(month, facility_id, building_id, type_key, room_id, equipment_id) as grp,
        month, facility_id, building_id, type_key, room_id, equipment_id,
        coalesce(sum(x.minutes), 0)::int as minutes,
        coalesce(sum(x.labour), 0)::numeric(14,2)::text as labour,
        coalesce(sum(x.materials), 0)::numeric(14,2)::text as materials,
        (coalesce(sum(x.labour), 0) + coalesce(sum(x.materials), 0))::numeric(14,2) as total,
        (count(*) filter (where x.unpriced))::int as unpriced,
        coalesce(sum(x.entries), 0)::int as entries,
        coalesce(sum(x.lines), 0)::int as lines
      from (
        select p.*, b.facility_id, r.building_id
        from placed p
        left join rooms r on r.id = p.room_id and r.entity_id = ${e}
        left join buildings b on b.id = r.building_id and b.entity_id = ${e}
        where true ${placeFilter}
      ) x
      group by grouping sets (${sql.join(sets, sql`, `)}, ())
    )
    select grp, month, facility_id, building_id, type_key, room_id, equipment_id, minutes, labour, materials, total::text as total, unpriced, entries, lines
    from (
      select g.*, row_number() over (partition by g.grp order by g.total desc, g.minutes desc, g.room_id, g.equipment_id) as rank
      from grouped g
      where not (g.grp = ${groupingOf("room_id")} and g.room_id is null)
        and not (g.grp = ${groupingOf("equipment_id")} and g.equipment_id is null)
    ) ranked
    where ranked.grp not in (${groupingOf("room_id")}, ${groupingOf("equipment_id")}) or ranked.rank <= ${TOP_COST_PLACES}
  `);
  return rowsOf<RawRow>(result);
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
