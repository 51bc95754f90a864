import { type SQL, sql } from "drizzle-orm";
import type { ServiceContext } from "~/core/context.server";
import type { Effects } from "~/core/unit-of-work.server";
import { rejectOpenIncidents } from "~/modules/incidents/writes.server";
import { unlinkArchivedPlace } from "~/modules/users/links.server";

/**
 * The archive cascades of SPEC.md section 4, set-based (one statement per table, whatever the size
 * of the tree). Call them inside the verb's transaction: archiving a facility, building or room
 * archives what it contains (buildings, rooms, equipment items, their report identifiers) and rejects
 * their open incidents; archiving equipment items (deleted from a room, or their generic equipment or
 * category archived) does the same for the items. The incidents are rejected by the incidents module
 * (`rejectOpenIncidents`: their events and change events, as if rejected one by one). The list
 * counters (counters.server.ts) follow by trigger, in the same transaction.
 */
export interface CascadeCounts {
  buildings: number;
  rooms: number;
  equipmentItems: number;
  reportIdentifiers: number;
  incidentsRejected: number;
}

type Scope = { facilityId: number } | { buildingId: number } | { roomId: number };

const count = (result: unknown) => (result as { rows?: unknown[] }).rows?.length ?? 0;

/** Ids of every room of the scope (archived or not): a sub-select. */
function roomsOf(ctx: ServiceContext, scope: Scope): SQL {
  if ("roomId" in scope) return sql`select ${scope.roomId}::int`;
  if ("buildingId" in scope) return sql`select id from rooms where entity_id = ${ctx.entityId} and building_id = ${scope.buildingId}`;
  return sql`select r.id from rooms r join buildings b on b.id = r.building_id
    where r.entity_id = ${ctx.entityId} and b.entity_id = ${ctx.entityId} and b.facility_id = ${scope.facilityId}`;
}

/** Archives equipment items matching `where` (a condition on `equipment_items` aliased `e`) and everything hanging on them. */
export async function archiveEquipmentItemsWhere(
  ctx: ServiceContext,
  effects: Effects,
  where: SQL,
): Promise<Pick<CascadeCounts, "equipmentItems" | "reportIdentifiers" | "incidentsRejected">> {
  const items = sql`select e.id from equipment_items e where e.entity_id = ${ctx.entityId} and e.archived_at is null and (${where})`;
  const incidentsRejected = await rejectOpenIncidents(ctx, effects, sql`i.equipment_item_id in (${items})`);
  const identifiers = await ctx.db.execute(sql`
    update report_identifiers set archived_at = now()
    where entity_id = ${ctx.entityId} and archived_at is null and equipment_item_id in (${items})
    returning id`);
  const archived = await ctx.db.execute(sql`
    update equipment_items e set archived_at = now(), updated_at = now()
    where e.entity_id = ${ctx.entityId} and e.archived_at is null and (${where})
    returning e.id`);
  return { equipmentItems: count(archived), reportIdentifiers: count(identifiers), incidentsRejected };
}

/**
 * Archives a facility, building or room and everything it contains (the row itself is archived by the
 * caller).
 */
export async function archiveTree(ctx: ServiceContext, effects: Effects, scope: Scope): Promise<CascadeCounts> {
  const roomIds = roomsOf(ctx, scope);
  const roomIncidents = await rejectOpenIncidents(ctx, effects, sql`i.room_id in (${roomIds})`);
  const items = await archiveEquipmentItemsWhere(ctx, effects, sql`e.room_id in (${roomIds})`);
  const roomIdentifiers = await ctx.db.execute(sql`
    update report_identifiers set archived_at = now()
    where entity_id = ${ctx.entityId} and archived_at is null and room_id in (${roomIds})
    returning id`);
  let archivedRooms: unknown = { rows: [] };
  if (!("roomId" in scope)) {
    archivedRooms = await ctx.db.execute(sql`
      update rooms set archived_at = now(), updated_at = now()
      where entity_id = ${ctx.entityId} and archived_at is null and id in (${roomIds})
      returning id`);
  }
  let buildings = 0;
  if ("facilityId" in scope) {
    const archivedBuildings = await ctx.db.execute(sql`
      update buildings set archived_at = now(), updated_at = now()
      where entity_id = ${ctx.entityId} and archived_at is null and facility_id = ${scope.facilityId}
      returning id`);
    buildings = count(archivedBuildings);
    // Users keep no access to what no longer exists.
    await unlinkArchivedPlace(ctx, { facilityId: scope.facilityId });
  } else if ("buildingId" in scope) {
    await unlinkArchivedPlace(ctx, { buildingId: scope.buildingId });
  }
  return {
    buildings,
    rooms: count(archivedRooms),
    equipmentItems: items.equipmentItems,
    reportIdentifiers: count(roomIdentifiers) + items.reportIdentifiers,
    incidentsRejected: roomIncidents + items.incidentsRejected,
  };
}
