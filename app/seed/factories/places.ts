import type { Db } from "~/db/client.server";
import type { RoomLinkType } from "~/db/enums";
import { newReportCode } from "~/db/report-identifier";
import { type Building, buildings, type Facility, facilities, type NewBuilding, type NewFacility, type NewRoom, type NewRoomType, type ReportIdentifier, reportIdentifiers, type Room, roomLinks, rooms, type RoomType, roomTypes } from "~/db/schema";
import { nextShortId } from "~/db/short-id.server";
import { type Overrides, sequence } from "./core";

export async function createFacility(db: Db, overrides: Overrides<NewFacility>): Promise<Facility> {
  const shortId = overrides.shortId ?? (await nextShortId(db, overrides.entityId, "facility"));
  const [row] = await db
    .insert(facilities)
    .values({ name: `Facility ${shortId}`, ...overrides, shortId })
    .returning();
  return row;
}

/** A building; without `facilityId` a new facility of the same entity is created for it. */
export async function createBuilding(db: Db, overrides: Overrides<NewBuilding>): Promise<Building> {
  const facilityId = overrides.facilityId ?? (await createFacility(db, { entityId: overrides.entityId })).id;
  const shortId = overrides.shortId ?? (await nextShortId(db, overrides.entityId, "building"));
  const [row] = await db
    .insert(buildings)
    .values({
      name: `Building ${shortId}`,
      streetName: "Avenue Louise",
      streetNumber: String(shortId),
      postalCode: "1050",
      city: "Brussels",
      country: "BE",
      ...overrides,
      facilityId,
      shortId,
    })
    .returning();
  return row;
}

export async function createRoomType(db: Db, overrides: Overrides<NewRoomType>): Promise<RoomType> {
  const [row] = await db
    .insert(roomTypes)
    .values({ name: `Room type ${sequence()}`, ...overrides })
    .returning();
  return row;
}

/** A QR-code identifier for a room or an equipment item (exactly one of the two). */
export async function createReportIdentifier(
  db: Db,
  overrides: Overrides<typeof reportIdentifiers.$inferInsert>,
): Promise<ReportIdentifier> {
  const [row] = await db
    .insert(reportIdentifiers)
    .values({ code: newReportCode(), ...overrides })
    .returning();
  return row;
}

export type CreateRoomOverrides = Overrides<NewRoom> & {
  /** The room's QR code (default: a new random code); `null` creates no report identifier. */
  reportCode?: string | null;
  links?: { type: RoomLinkType; url: string }[];
};

/**
 * A room with its report identifier. Without `buildingId` / `roomTypeId` a building (and facility) /
 * room type of the same entity are created for it.
 */
export async function createRoom(
  db: Db,
  overrides: CreateRoomOverrides,
): Promise<Room & { reportCode: string | null }> {
  const { reportCode, links = [], ...columns } = overrides;
  const { entityId } = columns;
  const buildingId = columns.buildingId ?? (await createBuilding(db, { entityId })).id;
  const roomTypeId = columns.roomTypeId ?? (await createRoomType(db, { entityId })).id;
  const shortId = columns.shortId ?? (await nextShortId(db, entityId, "room"));
  const [row] = await db
    .insert(rooms)
    .values({ name: `Room ${shortId}`, floor: "0", ...columns, buildingId, roomTypeId, shortId })
    .returning();
  if (links.length > 0) {
    await db
      .insert(roomLinks)
      .values(links.map((link, position) => ({ entityId, roomId: row.id, type: link.type, url: link.url, position })));
  }
  let code: string | null = null;
  if (reportCode !== null) {
    code = (await createReportIdentifier(db, { entityId, roomId: row.id, code: reportCode ?? newReportCode() })).code;
  }
  return { ...row, reportCode: code };
}
