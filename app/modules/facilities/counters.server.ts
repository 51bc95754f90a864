import { type SQL, sql } from "drizzle-orm";
import type { ServiceContext } from "~/core/context.server";
import type { Db } from "~/db/client.server";
import { IncidentStatus } from "~/db/enums";

/**
 * The counts shown on every row of the lists (decision 017), kept as columns and changed in the same
 * transaction as the rows they count, so a list reads them instead of counting a million rows per view:
 *
 * | column                                    | counts                                                       |
 * |-------------------------------------------|--------------------------------------------------------------|
 * | rooms.active_incident_count               | open incidents (Pending, In Progress, not archived) of the room |
 * | buildings.active_incident_count           | the same, in the building's active rooms                     |
 * | facilities.active_incident_count          | the same, in the facility's active buildings                 |
 * | rooms.equipment_count                     | active equipment items in the room                           |
 * | buildings.room_count                      | active rooms of the building                                 |
 * | facilities.building_count                 | active buildings of the facility                             |
 * | room_types.room_count                     | active rooms of the type                                     |
 * | equipment_types.item_count                | active equipment items of the generic equipment              |
 * | equipment_categories.equipment_type_count | active generic equipment of the category                     |
 *
 * A child's count reaches its parent only while the child is active: an archived room's incidents do
 * not count for its building.
 *
 * How a verb keeps them right: a row that enters its parents' counts (created active) is adjusted with
 * `+1` after it is written; a row that leaves them (archived) with `-1` before it is archived; a row that
 * moves (another building, type, category) with `-1` before the update and `+1` after it. The row carries
 * its own counters along (a room leaving a building takes its open incidents with it). Every adjustment is
 * relative (`count = count + n`) so concurrent verbs add up; it takes the parents' row locks until commit.
 * Incidents change the counts through `adjustOpenIncidentCounts` with the deltas of
 * `openIncidentDeltas(before, after)`: the incidents service calls it in every verb that creates an
 * incident, changes its status, room or archive date.
 *
 * `recountCounters` recomputes everything of an entity from the rows (the scale seed, repairs);
 * `findCounterDrift` lists what differs (tests).
 */
type CounterContext = Pick<ServiceContext, "db" | "entityId">;
/** Ids given as a list, or as a sub-select returning one integer column. */
export type Ids = readonly number[] | SQL;
export type Sign = 1 | -1;

function idSet(ids: Ids): SQL | null {
  if (!Array.isArray(ids)) return ids as SQL;
  const list = (ids as readonly number[]).filter((id) => Number.isSafeInteger(id));
  if (list.length === 0) return null;
  // One array parameter, whatever the number of ids.
  return sql`select unnest(${`{${list.join(",")}}`}::int[])`;
}

const OPEN_STATUSES: readonly number[] = [IncidentStatus.PENDING, IncidentStatus.IN_PROGRESS];

/** Whether an incident counts as active: Pending or In Progress, and not archived. */
export function isOpenIncident(incident: { status: number; archivedAt?: Date | null }): boolean {
  return OPEN_STATUSES.includes(incident.status) && !incident.archivedAt;
}

export interface IncidentPlace {
  roomId: number | null;
  status: number;
  archivedAt?: Date | null;
}
export interface RoomDelta {
  roomId: number;
  delta: number;
}

/**
 * The changes to the open-incident counts when an incident goes from `before` to `after` (`null`
 * before: created; `null` after: deleted): -1 for the room it left the open set in, +1 for the room it
 * entered it in. Nothing when it stays open in the same room, or stays closed.
 */
export function openIncidentDeltas(before: IncidentPlace | null, after: IncidentPlace | null): RoomDelta[] {
  const from = before && isOpenIncident(before) ? before.roomId : null;
  const to = after && isOpenIncident(after) ? after.roomId : null;
  if (from === to) return [];
  return [...(from !== null ? [{ roomId: from, delta: -1 }] : []), ...(to !== null ? [{ roomId: to, delta: 1 }] : [])];
}

/**
 * Adds open-incident deltas (per room) to the room, and through its active room and building to the
 * building and the facility. `deltas` is a list, or a sub-select returning `(room_id, delta)` rows
 * (a set-based change of many incidents). One statement.
 */
export async function adjustOpenIncidentCounts(ctx: CounterContext, deltas: readonly RoomDelta[] | SQL): Promise<void> {
  let source: SQL;
  if (Array.isArray(deltas)) {
    const list = (deltas as readonly RoomDelta[]).filter((d) => d.delta !== 0);
    if (list.length === 0) return;
    source = sql`select * from (values ${sql.join(
      list.map((d) => sql`(${Math.trunc(d.roomId)}::int, ${Math.trunc(d.delta)}::int)`),
      sql`, `,
    )}) as v(room_id, delta)`;
  } else {
    source = deltas as SQL;
  }
  const e = ctx.entityId;
  await ctx.db.execute(sql`
    with d as (
      select s.room_id, sum(s.delta)::int as delta from (${source}) as s(room_id, delta)
      where s.room_id is not null group by s.room_id having sum(s.delta) <> 0
    ), r as (
      update rooms set active_incident_count = rooms.active_incident_count + d.delta
      from d where rooms.id = d.room_id and rooms.entity_id = ${e}
      returning rooms.building_id, rooms.archived_at is null as active, d.delta
    ), b as (
      update buildings set active_incident_count = buildings.active_incident_count + x.delta
      from (select building_id, sum(delta)::int as delta from r where active group by building_id) x
      where buildings.id = x.building_id and buildings.entity_id = ${e} and x.delta <> 0
      returning buildings.facility_id, buildings.archived_at is null as active, x.delta
    )
    update facilities set active_incident_count = facilities.active_incident_count + y.delta
    from (select facility_id, sum(delta)::int as delta from b where active group by facility_id) y
    where facilities.id = y.facility_id and facilities.entity_id = ${e} and y.delta <> 0`);
}

/**
 * Active rooms entering (+1) or leaving (-1) the counts of their building (rooms, open incidents),
 * facility (open incidents) and room type (rooms). `parts` limits it to the building side or the type
 * side (a room that only changes type). Call it after creating, before archiving, and around a move.
 */
export async function adjustRoomCounts(
  ctx: CounterContext,
  rooms: Ids,
  sign: Sign,
  parts: { building?: boolean; roomType?: boolean } = { building: true, roomType: true },
): Promise<void> {
  const ids = idSet(rooms);
  if (!ids) return;
  const e = ctx.entityId;
  const building = parts.building
    ? sql`, b as (
        update buildings set room_count = buildings.room_count + ${sign}::int * x.n,
          active_incident_count = buildings.active_incident_count + ${sign}::int * x.inc
        from (select building_id, count(*)::int as n, sum(active_incident_count)::int as inc from r group by building_id) x
        where buildings.id = x.building_id and buildings.entity_id = ${e}
        returning buildings.facility_id, buildings.archived_at is null as active, x.inc
      ), f as (
        update facilities set active_incident_count = facilities.active_incident_count + ${sign}::int * y.inc
        from (select facility_id, sum(inc)::int as inc from b where active group by facility_id) y
        where facilities.id = y.facility_id and facilities.entity_id = ${e} and y.inc <> 0
        returning 1
      )`
    : sql``;
  const roomType = parts.roomType
    ? sql`, t as (
        update room_types set room_count = room_types.room_count + ${sign}::int * z.n
        from (select room_type_id, count(*)::int as n from r group by room_type_id) z
        where room_types.id = z.room_type_id and room_types.entity_id = ${e}
        returning 1
      )`
    : sql``;
  await ctx.db.execute(sql`
    with r as (
      select id, building_id, room_type_id, active_incident_count from rooms
      where entity_id = ${e} and archived_at is null and id in (${ids})
    )${building}${roomType}
    select count(*) from r`);
}

/**
 * Active buildings entering (+1) or leaving (-1) the counts of their facility (buildings, open
 * incidents). Call it after creating, before archiving, and around a move to another facility.
 */
export async function adjustBuildingCounts(ctx: CounterContext, buildings: Ids, sign: Sign): Promise<void> {
  const ids = idSet(buildings);
  if (!ids) return;
  const e = ctx.entityId;
  await ctx.db.execute(sql`
    update facilities set building_count = facilities.building_count + ${sign}::int * x.n,
      active_incident_count = facilities.active_incident_count + ${sign}::int * x.inc
    from (
      select facility_id, count(*)::int as n, sum(active_incident_count)::int as inc from buildings
      where entity_id = ${e} and archived_at is null and id in (${ids}) group by facility_id
    ) x
    where facilities.id = x.facility_id and facilities.entity_id = ${e}`);
}

/**
 * Active equipment items entering (+1) or leaving (-1) the counts of their room and their generic
 * equipment. Call it after creating, before archiving.
 */
export async function adjustEquipmentItemCounts(ctx: CounterContext, items: Ids, sign: Sign): Promise<void> {
  const ids = idSet(items);
  if (!ids) return;
  const e = ctx.entityId;
  await ctx.db.execute(sql`
    with i as (
      select room_id, equipment_type_id from equipment_items
      where entity_id = ${e} and archived_at is null and id in (${ids})
    ), r as (
      update rooms set equipment_count = rooms.equipment_count + ${sign}::int * x.n
      from (select room_id, count(*)::int as n from i group by room_id) x
      where rooms.id = x.room_id and rooms.entity_id = ${e}
      returning 1
    )
    update equipment_types set item_count = equipment_types.item_count + ${sign}::int * y.n
    from (select equipment_type_id, count(*)::int as n from i group by equipment_type_id) y
    where equipment_types.id = y.equipment_type_id and equipment_types.entity_id = ${e}`);
}

/**
 * Locks the parent rows a move will adjust (old and new building, type, facility or category), in id
 * order, before anything else: two opposite moves then wait for each other instead of deadlocking.
 */
export async function lockCounted(
  ctx: CounterContext,
  table: "facilities" | "buildings" | "room_types" | "equipment_categories",
  ids: readonly number[],
): Promise<void> {
  const set = idSet([...new Set(ids)]);
  if (!set) return;
  await ctx.db.execute(sql`
    select id from ${sql.raw(table)} where entity_id = ${ctx.entityId} and id in (${set}) order by id for no key update`);
}

/**
 * Active generic equipment entering (+1) or leaving (-1) the count of its category. Call it after
 * creating, before archiving, and around a move to another category.
 */
export async function adjustEquipmentTypeCounts(ctx: CounterContext, types: Ids, sign: Sign): Promise<void> {
  const ids = idSet(types);
  if (!ids) return;
  const e = ctx.entityId;
  await ctx.db.execute(sql`
    update equipment_categories set equipment_type_count = equipment_categories.equipment_type_count + ${sign}::int * x.n
    from (
      select category_id, count(*)::int as n from equipment_types
      where entity_id = ${e} and archived_at is null and id in (${ids}) group by category_id
    ) x
    where equipment_categories.id = x.category_id and equipment_categories.entity_id = ${e}`);
}

/** Every counter as it should be, computed from the rows (one row per counted table row). */
function expected(entityId: number) {
  const e = entityId;
  const open = sql.raw(OPEN_STATUSES.join(", "));
  return {
    rooms: sql`
      select r.id,
        (select count(*)::int from incidents i where i.entity_id = ${e} and i.room_id = r.id
          and i.status in (${open}) and i.archived_at is null) as active_incident_count,
        (select count(*)::int from equipment_items ei where ei.entity_id = ${e} and ei.room_id = r.id
          and ei.archived_at is null) as equipment_count
      from rooms r where r.entity_id = ${e}`,
    buildings: sql`
      select b.id,
        (select count(*)::int from rooms r where r.entity_id = ${e} and r.building_id = b.id and r.archived_at is null) as room_count,
        (select count(*)::int from incidents i join rooms r on r.id = i.room_id
          where i.entity_id = ${e} and r.building_id = b.id and r.archived_at is null
          and i.status in (${open}) and i.archived_at is null) as active_incident_count
      from buildings b where b.entity_id = ${e}`,
    facilities: sql`
      select f.id,
        (select count(*)::int from buildings b where b.entity_id = ${e} and b.facility_id = f.id and b.archived_at is null) as building_count,
        (select count(*)::int from incidents i join rooms r on r.id = i.room_id join buildings b on b.id = r.building_id
          where i.entity_id = ${e} and b.facility_id = f.id and b.archived_at is null and r.archived_at is null
          and i.status in (${open}) and i.archived_at is null) as active_incident_count
      from facilities f where f.entity_id = ${e}`,
    roomTypes: sql`
      select t.id,
        (select count(*)::int from rooms r where r.entity_id = ${e} and r.room_type_id = t.id and r.archived_at is null) as room_count
      from room_types t where t.entity_id = ${e}`,
    equipmentTypes: sql`
      select t.id,
        (select count(*)::int from equipment_items ei where ei.entity_id = ${e} and ei.equipment_type_id = t.id
          and ei.archived_at is null) as item_count
      from equipment_types t where t.entity_id = ${e}`,
    categories: sql`
      select c.id,
        (select count(*)::int from equipment_types t where t.entity_id = ${e} and t.category_id = c.id
          and t.archived_at is null) as equipment_type_count
      from equipment_categories c where c.entity_id = ${e}`,
  };
}

const COUNTED = [
  { table: "rooms", key: "rooms", columns: ["active_incident_count", "equipment_count"] },
  { table: "buildings", key: "buildings", columns: ["room_count", "active_incident_count"] },
  { table: "facilities", key: "facilities", columns: ["building_count", "active_incident_count"] },
  { table: "room_types", key: "roomTypes", columns: ["room_count"] },
  { table: "equipment_types", key: "equipmentTypes", columns: ["item_count"] },
  { table: "equipment_categories", key: "categories", columns: ["equipment_type_count"] },
] as const;

/**
 * Recomputes every counter of an entity from its rows (set-based; only changed rows are written). For
 * data written around the verbs (the scale seed's set-based inserts) and repairs; verbs adjust instead.
 */
export async function recountCounters(db: Db, entityId: number): Promise<void> {
  const sources = expected(entityId);
  for (const { table, key, columns } of COUNTED) {
    const t = sql.raw(table);
    const set = sql.raw(columns.map((c) => `${c} = x.${c}`).join(", "));
    const differs = sql.raw(columns.map((c) => `${table}.${c} is distinct from x.${c}`).join(" or "));
    await db.execute(sql`
      update ${t} set ${set} from (${sources[key]}) x
      where ${t}.id = x.id and ${t}.entity_id = ${entityId} and (${differs})`);
  }
}

export interface CounterDrift {
  table: string;
  id: number;
  column: string;
  stored: number;
  expected: number;
}

/** The counters of an entity that differ from their rows (empty when all are right). */
export async function findCounterDrift(db: Db, entityId: number): Promise<CounterDrift[]> {
  const sources = expected(entityId);
  const drift: CounterDrift[] = [];
  for (const { table, key, columns } of COUNTED) {
    const t = sql.raw(table);
    for (const column of columns) {
      const c = sql.raw(column);
      const result = await db.execute(sql`
        select ${t}.id, ${t}.${c} as stored, x.${c} as expected from ${t} join (${sources[key]}) x on x.id = ${t}.id
        where ${t}.${c} is distinct from x.${c}`);
      for (const row of (result as unknown as { rows: { id: number; stored: number; expected: number }[] }).rows) {
        drift.push({ table, id: Number(row.id), column, stored: Number(row.stored), expected: Number(row.expected) });
      }
    }
  }
  return drift;
}
