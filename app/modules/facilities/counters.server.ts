import { sql } from "drizzle-orm";
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
 * Who keeps them: the database, by statement-level triggers on incidents, rooms, buildings, equipment
 * items and generic equipment (migration 0016, decision 047), whatever writes the rows (a verb, a
 * set-based cascade, an import, the seed, SQL by hand). A statement adds to each parent what its rows
 * bring in and takes away what they took out: a row brings itself and its own counter only while active,
 * so a creation, an archive, a restore and a move (another building, type, category, facility; the row
 * carries its own counters along) are all the same case. Every change is relative (`count = count + n`),
 * so concurrent writers add up; it holds the parents' row locks until commit. Writers leave the counter
 * columns alone.
 *
 * Here: `lockCounted` (the verbs that move a row lock both parents first), `recountCounters` recomputes
 * everything of an entity from the rows (repairs), `findCounterDrift` lists what differs (tests).
 */
type CounterContext = Pick<ServiceContext, "db" | "entityId">;

const OPEN_STATUSES: readonly number[] = [IncidentStatus.PENDING, IncidentStatus.IN_PROGRESS];

/**
 * Locks the parent rows a move will change (old and new building, type, facility or category), in id
 * order, before the moving row is written: the trigger then updates both in one statement, and two
 * opposite moves wait for each other instead of deadlocking.
 */
export async function lockCounted(
  ctx: CounterContext,
  table: "facilities" | "buildings" | "room_types" | "equipment_categories",
  ids: readonly number[],
): Promise<void> {
  const list = [...new Set(ids)].filter((id) => Number.isSafeInteger(id));
  if (list.length === 0) return;
  await ctx.db.execute(sql`
    select id from ${sql.raw(table)} where entity_id = ${ctx.entityId} and id = any(${`{${list.join(",")}}`}::int[])
    order by id for no key update`);
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
 * Recomputes every counter of an entity from its rows (set-based; only changed rows are written): a
 * repair, should a counter ever drift (the triggers keep them otherwise). Children before parents: the
 * triggers' relative changes caused by one table's corrections are overwritten by the next table's.
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
