import { and, asc, count, eq, inArray, isNull, sql } from "drizzle-orm";
import { assertCan } from "~/core/actor";
import type { ServiceContext } from "~/core/context.server";
import { buildings, equipmentItems, equipmentTypes, facilities, rooms } from "~/db/schema";
import { nameLike } from "~/lib/list-page.server";
import { treeScope } from "~/modules/facilities/policy.server";
import { type EquipmentItemRef, locationRefs, type RoomRef } from "./queries.server";

/**
 * The location tree picker's reads (facility > building > room > equipment item), within the editor's
 * reach: every facility and building (a few hundred at most), and one page of rooms with their
 * equipment items, either of one building or matching a search. What is chosen is named apart, so
 * that it stays listed (and posted) whatever page is shown.
 */

/** The most buildings the tree lists. */
const MAX_BUILDINGS = 2000;

export interface TreeFacility {
  id: number;
  name: string;
  /** The editor reaches the whole facility (may choose it whole, future buildings included). */
  whole: boolean;
  buildings: { id: number; name: string; rooms: number }[];
}

export interface TreeRoom extends RoomRef {
  floor: string | null;
  items: { id: number; name: string; internalReference: string | null }[];
}

export interface LocationTree {
  q: string;
  /** The building whose rooms are shown, when no search. */
  open: { id: number; name: string; facilityName: string } | null;
  facilities: TreeFacility[];
  /** Rooms of the open building or matching the search; null when neither. */
  rooms: { page: number; pages: number; total: number; items: TreeRoom[] } | null;
  chosen: {
    facilities: { id: number; name: string }[];
    buildings: { id: number; name: string; facilityName: string }[];
    rooms: RoomRef[];
    equipmentItems: EquipmentItemRef[];
  };
}

export interface LocationTreeQuery {
  q: string;
  openBuildingId: number | null;
  page: number;
  pageSize: number;
  chosen: { facilityIds: number[]; buildingIds: number[]; roomIds: number[]; equipmentItemIds: number[] };
}

export async function readLocationTree(ctx: ServiceContext, query: LocationTreeQuery): Promise<LocationTree> {
  assertCan(ctx.actor, "manage", "maintenance");
  const e = ctx.entityId;
  const wholeScope = treeScope(ctx, "wholeFacility");
  const buildingRows = await ctx.db
    .select({
      id: buildings.id,
      name: buildings.name,
      facilityId: facilities.id,
      facilityName: facilities.name,
      whole: wholeScope ? sql<boolean>`(${wholeScope})` : sql<boolean>`true`,
      // tenant-scope: scoped by the outer building (of ctx.entityId): the rooms of that building
      rooms: sql<number>`(select count(*)::int from rooms r where r.building_id = ${buildings.id} and r.archived_at is null)`,
    })
    .from(buildings)
    .innerJoin(facilities, eq(facilities.id, buildings.facilityId))
    .where(and(eq(buildings.entityId, e), isNull(buildings.archivedAt), isNull(facilities.archivedAt), treeScope(ctx, "building")))
    .orderBy(asc(sql`lower(${facilities.name})`), asc(facilities.id), asc(sql`lower(${buildings.name})`), asc(buildings.id))
    .limit(MAX_BUILDINGS);
  const byFacility = new Map<number, TreeFacility>();
  for (const b of buildingRows) {
    const facility = byFacility.get(b.facilityId) ?? { id: b.facilityId, name: b.facilityName, whole: Boolean(b.whole), buildings: [] };
    facility.buildings.push({ id: b.id, name: b.name, rooms: Number(b.rooms) });
    byFacility.set(b.facilityId, facility);
  }
  const openRow = query.q ? null : (buildingRows.find((b) => b.id === query.openBuildingId) ?? null);
  const open = openRow ? { id: openRow.id, name: openRow.name, facilityName: openRow.facilityName } : null;

  let roomPage: LocationTree["rooms"] = null;
  if (query.q || open) {
    const where = and(
      eq(rooms.entityId, e),
      isNull(rooms.archivedAt),
      isNull(buildings.archivedAt),
      treeScope(ctx, "room"),
      open ? eq(rooms.buildingId, open.id) : nameLike(rooms.name, query.q),
    );
    const [{ n }] = await ctx.db.select({ n: count() }).from(rooms).innerJoin(buildings, eq(buildings.id, rooms.buildingId)).where(where);
    const pages = Math.max(1, Math.ceil(Number(n) / query.pageSize));
    const page = Math.min(Math.max(1, query.page), pages);
    const roomRows = await ctx.db
      .select({ id: rooms.id, name: rooms.name, floor: rooms.floor, buildingName: buildings.name, facilityName: facilities.name })
      .from(rooms)
      .innerJoin(buildings, eq(buildings.id, rooms.buildingId))
      .innerJoin(facilities, eq(facilities.id, buildings.facilityId))
      .where(where)
      .orderBy(asc(sql`lower(${rooms.name})`), asc(rooms.id))
      .offset((page - 1) * query.pageSize)
      .limit(query.pageSize);
    const itemRows = roomRows.length
      ? await ctx.db
          .select({ id: equipmentItems.id, roomId: equipmentItems.roomId, name: equipmentTypes.name, internalReference: equipmentItems.internalReference })
          .from(equipmentItems)
          .innerJoin(equipmentTypes, eq(equipmentTypes.id, equipmentItems.equipmentTypeId))
          .where(and(eq(equipmentItems.entityId, e), isNull(equipmentItems.archivedAt), inArray(equipmentItems.roomId, roomRows.map((r) => r.id))))
          .orderBy(asc(sql`lower(${equipmentTypes.name})`), asc(equipmentItems.id))
      : [];
    roomPage = {
      page,
      pages,
      total: Number(n),
      items: roomRows.map((r) => ({
        ...r,
        floor: r.floor == null ? null : String(r.floor),
        items: itemRows.filter((i) => i.roomId === r.id).map(({ id, name, internalReference }) => ({ id, name, internalReference })),
      })),
    };
  }
  return { q: query.q, open, facilities: [...byFacility.values()], rooms: roomPage, chosen: await locationRefs(ctx, query.chosen) };
}
