import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "~/db/client.server";
import { IncidentStatus, IncidentTypeStatus, Priority, Role, RoomLinkType } from "~/db/enums";
import { type Building, type Entity, type Facility, type Room, roomFiles, roomLinks, type RoomType, storedFiles, type User } from "~/db/schema";
import type { ServiceContext } from "~/core/context.server";
import { ForbiddenError, NotFoundError } from "~/lib/errors";
import { LIST_COUNT_CAP, type ListQuery } from "~/lib/list-query";
import { createBuilding, createEntity, createEquipmentItem, createEquipmentType, createFacility, createIncident, createIncidentType, createReportIdentifier, createRoom, createRoomType, createUser, linkUserTo } from "#tests/factories";
import { createTestDatabase } from "#tests/test-db";
import { actorContext, entityWithManager, listQuery as query, reachAll } from "#tests/service-helpers";
import { getRoom, getRoomForEdit, getRoomPlace, getRoomType, getRoomTypeForEdit, listRoomTypeOptions, listRooms, listRoomTypes, ROOM_SORTS, ROOM_TYPE_SORTS, type RoomSort, viewRoom } from "./queries.server";

let database: Database;

const ctxOf = (user: User, locale = "en") => actorContext(database.db, user, { locale });

/** A fresh entity with a manager; managers reach linked facilities only (decision 022): tests link them (`reachAll`). */
const freshEntity = () => entityWithManager(database.db);

/** An administrator of the context's entity: the whole entity, with no reach condition. */
const adminOf = async (ctx: ServiceContext) => ctxOf(await createUser(database.db, { entityId: ctx.entityId, role: Role.ADMINISTRATOR }));

const names = (page: { items: { name: string }[] }) => page.items.map((r) => r.name);

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database?.close();
});

// ---------------------------------------------------------------------------
// listRooms
// ---------------------------------------------------------------------------

describe("listRooms", () => {
  let ctx: ServiceContext;
  let adminCtx: ServiceContext;
  let otherCtx: ServiceContext;
  let north: Facility;
  let south: Facility;
  let alpha: Building;
  let beta: Building;
  let gamma: Building;
  let office: RoomType;
  let kitchen: RoomType;
  let board: Room;
  let cafeteria: Room;
  let archive: Room;
  let zen: Room;
  let otherBuilding: Building;

  beforeAll(async () => {
    const db = database.db;
    const fresh = await freshEntity();
    ctx = fresh.ctx;
    const entityId = fresh.entity.id;
    north = await createFacility(db, { entityId, name: "North campus" });
    south = await createFacility(db, { entityId, name: "south campus" });
    alpha = await createBuilding(db, { entityId, facilityId: north.id, name: "Alpha" });
    beta = await createBuilding(db, { entityId, facilityId: north.id, name: "beta" });
    gamma = await createBuilding(db, { entityId, facilityId: south.id, name: "Gamma" });
    office = await createRoomType(db, { entityId, name: "Office" });
    kitchen = await createRoomType(db, { entityId, name: "kitchen" });
    // Created in this order: short ids 1..4.
    board = await createRoom(db, { entityId, name: "Board room", floor: "2", buildingId: alpha.id, roomTypeId: office.id });
    cafeteria = await createRoom(db, { entityId, name: "cafeteria", floor: "0", buildingId: beta.id, roomTypeId: kitchen.id });
    archive = await createRoom(db, { entityId, name: "Archive 10%", floor: "1", buildingId: gamma.id, roomTypeId: office.id });
    zen = await createRoom(db, { entityId, name: "Zen room", floor: "10", buildingId: alpha.id, roomTypeId: kitchen.id });
    await createRoom(db, { entityId, name: "Old room", buildingId: alpha.id, roomTypeId: office.id, archivedAt: new Date() });

    // Counts of the board room: 2 live items (+1 archived), 2 active incidents among 6.
    await createEquipmentItem(db, { entityId, roomId: board.id });
    await createEquipmentItem(db, { entityId, roomId: board.id });
    await createEquipmentItem(db, { entityId, roomId: board.id, archivedAt: new Date() });
    for (const status of [
      IncidentStatus.PENDING,
      IncidentStatus.IN_PROGRESS,
      IncidentStatus.DONE,
      IncidentStatus.REJECTED,
      IncidentStatus.ARCHIVED,
    ]) {
      await createIncident(db, { entityId, roomId: board.id, status });
    }
    await createIncident(db, { entityId, roomId: board.id, status: IncidentStatus.PENDING, archivedAt: new Date() });
    await createEquipmentItem(db, { entityId, roomId: zen.id });
    await createIncident(db, { entityId, roomId: zen.id, status: IncidentStatus.IN_PROGRESS });

    // Another entity with a room of the same name.
    const other = await freshEntity();
    otherCtx = other.ctx;
    otherBuilding = await createBuilding(db, { entityId: other.entity.id, name: "Alpha" });
    await createRoom(db, { entityId: other.entity.id, name: "Board room", buildingId: otherBuilding.id });
    await reachAll(ctx);
    await reachAll(otherCtx);
    adminCtx = await adminOf(ctx);
  });

  it("lists the entity's active rooms with their place and counts", async () => {
    const page = await listRooms(ctx, query("name"));
    expect(page).toMatchObject({ total: 4, page: 1, size: 100 });
    expect(names(page)).toEqual(["Archive 10%", "Board room", "cafeteria", "Zen room"]);
    const row = page.items.find((r) => r.id === board.id);
    expect(row).toEqual({
      id: board.id,
      shortId: board.shortId,
      name: "Board room",
      description: null,
      floor: "2",
      buildingId: alpha.id,
      buildingName: "Alpha",
      facilityId: north.id,
      facilityName: "North campus",
      roomTypeId: office.id,
      roomTypeName: "Office",
      activeEquipmentCount: 2,
      activeIncidents: 2,
      status: 1,
    });
    expect(page.items.find((r) => r.id === zen.id)).toMatchObject({ activeEquipmentCount: 1, activeIncidents: 1 });
    expect(page.items.find((r) => r.id === cafeteria.id)).toMatchObject({ activeEquipmentCount: 0, activeIncidents: 0 });
  });

  it("pages the rows", async () => {
    const first = await listRooms(ctx, query("name", { size: 2, page: 1 }));
    const second = await listRooms(ctx, query("name", { size: 2, page: 2 }));
    const third = await listRooms(ctx, query("name", { size: 2, page: 3 }));
    expect([names(first), names(second), names(third)]).toEqual([["Archive 10%", "Board room"], ["cafeteria", "Zen room"], []]);
    expect([first.total, second.total, third.total]).toEqual([4, 4, 4]);
    expect(second).toMatchObject({ page: 2, size: 2 });
    expect(names(await listRooms(ctx, query("name", { size: 3, page: 2 })))).toEqual(["Zen room"]);
  });

  it("sorts by every column, both ways; within a building, facility or room type by room name, in the same direction", async () => {
    const expected: Record<RoomSort, Room[]> = {
      name: [archive, board, cafeteria, zen],
      shortId: [board, cafeteria, archive, zen],
      floor: [cafeteria, archive, zen, board], // text order: "0", "1", "10", "2"
      buildingName: [board, zen, cafeteria, archive], // Alpha (Board, Zen), beta, Gamma
      facilityName: [board, zen, cafeteria, archive], // North (Alpha: Board, Zen; beta), south
      roomTypeName: [cafeteria, zen, archive, board], // kitchen (cafeteria, Zen), Office (Archive, Board)
    };
    const descending: Record<RoomSort, Room[]> = {
      name: [zen, cafeteria, board, archive],
      shortId: [zen, archive, cafeteria, board],
      floor: [board, zen, archive, cafeteria],
      buildingName: [archive, cafeteria, zen, board],
      facilityName: [archive, cafeteria, zen, board],
      roomTypeName: [board, archive, zen, cafeteria],
    };
    expect(Object.keys(expected).sort()).toEqual([...ROOM_SORTS].sort());
    // A manager linked to every facility and an administrator (no reach condition) see the same.
    for (const viewer of [ctx, adminCtx]) {
      for (const sort of ROOM_SORTS) {
        expect(
          (await listRooms(viewer, query(sort))).items.map((r) => r.id),
          sort
        ).toEqual(expected[sort].map((r) => r.id));
        expect(
          (await listRooms(viewer, query(sort, { dir: "desc" }))).items.map((r) => r.id),
          `${sort} desc`
        ).toEqual(descending[sort].map((r) => r.id));
      }
    }
  });

  it("searches names, case-insensitively, with LIKE wildcards taken literally", async () => {
    expect(names(await listRooms(ctx, query("name", { q: "ROOM" })))).toEqual(["Board room", "Zen room"]);
    const search = await listRooms(ctx, query("name", { q: "10%" }));
    expect(names(search)).toEqual(["Archive 10%"]);
    expect(search.total).toBe(1);
    expect((await listRooms(ctx, query("name", { q: "_" }))).total).toBe(0);
    expect((await listRooms(ctx, query("name", { q: "%" }))).total).toBe(1);
    expect((await listRooms(ctx, query("name", { q: "old" }))).total).toBe(0);
  });

  it("filters by buildings, facility and room type, with matching totals", async () => {
    const ids = async (filter: Parameters<typeof listRooms>[2], q = "") => {
      const page = await listRooms(ctx, query("shortId", { q }), filter);
      expect(page.total).toBe(page.items.length);
      return page.items.map((r) => r.id);
    };
    expect(await ids({ buildingIds: [alpha.id] })).toEqual([board.id, zen.id]);
    expect(await ids({ buildingIds: [alpha.id, gamma.id] })).toEqual([board.id, archive.id, zen.id]);
    expect(await ids({ buildingIds: [] })).toEqual([]);
    expect(await ids({ buildingIds: null })).toHaveLength(4);
    expect(await ids({ facilityId: north.id })).toEqual([board.id, cafeteria.id, zen.id]);
    expect(await ids({ facilityId: south.id })).toEqual([archive.id]);
    expect(await ids({ roomTypeId: kitchen.id })).toEqual([cafeteria.id, zen.id]);
    expect(await ids({ facilityId: north.id, roomTypeId: office.id })).toEqual([board.id]);
    expect(await ids({ facilityId: north.id, buildingIds: [beta.id, gamma.id] })).toEqual([cafeteria.id]);
    expect(await ids({ facilityId: north.id }, "room")).toEqual([board.id, zen.id]);
    const paged = await listRooms(ctx, query("shortId", { size: 2, page: 2 }), { facilityId: north.id });
    expect(paged.items.map((r) => r.id)).toEqual([zen.id]);
    expect(paged.total).toBe(3);
  });

  it("never shows another entity's rooms, whatever the filter", async () => {
    const mine = await listRooms(ctx, query("name"));
    expect(mine.items.every((r) => r.id !== undefined && r.buildingId !== otherBuilding.id)).toBe(true);
    expect((await listRooms(ctx, query("name"), { buildingIds: [otherBuilding.id] })).total).toBe(0);
    expect((await listRooms(ctx, query("name"), { facilityId: otherBuilding.facilityId })).total).toBe(0);
    expect((await listRooms(otherCtx, query("name"), { buildingIds: [alpha.id] })).total).toBe(0);
    expect((await listRooms(otherCtx, query("name"), { facilityId: north.id })).total).toBe(0);
    expect((await listRooms(otherCtx, query("name"), { roomTypeId: office.id })).total).toBe(0);
    const theirs = await listRooms(otherCtx, query("name"));
    expect(theirs.total).toBe(1);
    expect(theirs.items[0]).toMatchObject({ name: "Board room", activeEquipmentCount: 0, activeIncidents: 0 });
  });
});

// ---------------------------------------------------------------------------
// getRoom, viewRoom
// ---------------------------------------------------------------------------

describe("getRoom", () => {
  it("gives links in order, files, incident types, items with identifiers and only active incidents", async () => {
    const db = database.db;
    const { entity, ctx } = await freshEntity();
    const entityId = entity.id;
    const room = await createRoom(db, { entityId, name: "Lab", description: "Wet lab", floor: "B1" });
    await reachAll(ctx);
    // Links stored out of order: the room gives them by position.
    await db.insert(roomLinks).values([
      { entityId, roomId: room.id, type: RoomLinkType.RULES, url: "https://c.example.com", position: 2 },
      { entityId, roomId: room.id, type: RoomLinkType.WIFI, url: "https://a.example.com", position: 0 },
      { entityId, roomId: room.id, type: RoomLinkType.BOOKING, url: "https://b.example.com", position: 1 },
    ]);
    const file = async (name: string, mimeType: string, deletedAt: Date | null = null) => {
      const id = randomUUID();
      await db
        .insert(storedFiles)
        .values({ id, entityId, storageKey: `${entityId}/${id}`, originalName: name, mimeType, sizeBytes: 10, deletedAt });
      await db.insert(roomFiles).values({ entityId, roomId: room.id, fileId: id });
      return id;
    };
    const photo = await file("photo.png", "image/png");
    const plan = await file("plan.pdf", "application/pdf");
    await file("gone.pdf", "application/pdf", new Date());
    const broken = await createIncidentType(db, { entityId, nameEn: "Broken", nameFr: "Cassé", roomIds: [room.id] });
    const absent = await createIncidentType(db, { entityId, nameEn: "Absent", nameFr: "Zabsent", roomIds: [room.id] });
    await createIncidentType(db, {
      entityId,
      nameEn: "Old",
      roomIds: [room.id],
      archivedAt: new Date(),
      status: IncidentTypeStatus.ARCHIVED,
    });
    const sink = await createEquipmentType(db, { entityId, name: "Sink" });
    const hood = await createEquipmentType(db, { entityId, name: "hood" });
    const sinkItem = await createEquipmentItem(db, { entityId, roomId: room.id, equipmentTypeId: sink.id, internalReference: "S-1" });
    const hoodItem = await createEquipmentItem(db, {
      entityId,
      roomId: room.id,
      equipmentTypeId: hood.id,
      internalReference: null,
      reportCode: null,
    });
    await createEquipmentItem(db, { entityId, roomId: room.id, equipmentTypeId: sink.id, archivedAt: new Date() });
    // An archived identifier of the hood does not show.
    await createReportIdentifier(db, { entityId, equipmentItemId: hoodItem.id, archivedAt: new Date() });
    const old = new Date(Date.now() - 3_600_000);
    const pending = await createIncident(db, {
      entityId,
      roomId: room.id,
      status: IncidentStatus.PENDING,
      createdAt: old,
      priority: Priority.HIGH,
    });
    const inProgress = await createIncident(db, { entityId, roomId: room.id, status: IncidentStatus.IN_PROGRESS });
    for (const status of [IncidentStatus.DONE, IncidentStatus.REJECTED, IncidentStatus.ARCHIVED])
      await createIncident(db, { entityId, roomId: room.id, status });
    await createIncident(db, { entityId, roomId: room.id, status: IncidentStatus.PENDING, archivedAt: new Date() });

    const view = await getRoom(ctx, room.id);
    expect(view).toMatchObject({
      id: room.id,
      name: "Lab",
      description: "Wet lab",
      floor: "B1",
      activeEquipmentCount: 2,
      activeIncidents: 2,
      reportIdentifier: room.reportCode,
      links: [
        { type: RoomLinkType.WIFI, url: "https://a.example.com" },
        { type: RoomLinkType.BOOKING, url: "https://b.example.com" },
        { type: RoomLinkType.RULES, url: "https://c.example.com" },
      ],
    });
    expect(view.links).toHaveLength(3);
    expect(view.files.map((f) => f.id).sort()).toEqual([photo, plan].sort());
    expect(view.files.find((f) => f.id === photo)).toEqual({
      id: photo,
      name: "photo.png",
      mimeType: "image/png",
      sizeBytes: 10,
      url: `/files/${photo}`,
      isImage: true,
    });
    expect(view.files.find((f) => f.id === plan)?.isImage).toBe(false);
    expect(view.incidentTypes).toEqual([
      { id: absent.id, name: "Absent" },
      { id: broken.id, name: "Broken" },
    ]);
    expect((await getRoom({ ...ctx, locale: "fr-BE" }, room.id)).incidentTypes).toEqual([
      { id: broken.id, name: "Cassé" },
      { id: absent.id, name: "Zabsent" },
    ]);
    expect(view.equipments).toEqual([
      {
        id: hoodItem.id,
        internalReference: null,
        equipmentTypeId: hood.id,
        equipmentName: "hood",
        categoryName: expect.any(String),
        reportIdentifier: null,
      },
      {
        id: sinkItem.id,
        internalReference: "S-1",
        equipmentTypeId: sink.id,
        equipmentName: "Sink",
        categoryName: expect.any(String),
        reportIdentifier: sinkItem.reportCode,
      },
    ]);
    expect(view.activeIncidentList.map((i) => i.id)).toEqual([inProgress.id, pending.id]);
    expect(view.activeIncidentList[1]).toEqual({
      id: pending.id,
      shortId: pending.shortId,
      title: pending.title,
      status: IncidentStatus.PENDING,
      priority: Priority.HIGH,
      createdAt: old.toISOString(),
    });
  });

  it("answers not found for another entity's room or an archived one", async () => {
    const a = await freshEntity();
    const b = await freshEntity();
    const room = await createRoom(database.db, { entityId: a.entity.id });
    const archived = await createRoom(database.db, { entityId: a.entity.id, archivedAt: new Date() });
    await reachAll(a.ctx);
    await expect(getRoom(b.ctx, room.id)).rejects.toBeInstanceOf(NotFoundError);
    await expect(getRoom(a.ctx, archived.id)).rejects.toBeInstanceOf(NotFoundError);
    await expect(getRoom(a.ctx, 999_999)).rejects.toBeInstanceOf(NotFoundError);
    await expect(getRoomPlace(b.ctx, room.id)).rejects.toBeInstanceOf(NotFoundError);
    expect((await getRoom(a.ctx, room.id)).id).toBe(room.id);
  });
});

describe("viewRoom", () => {
  let entity: Entity;
  let facility: Facility;
  let building: Building;
  let sibling: Building;
  let room: Room;
  let siblingRoom: Room;

  beforeAll(async () => {
    const db = database.db;
    entity = await createEntity(db);
    facility = await createFacility(db, { entityId: entity.id });
    building = await createBuilding(db, { entityId: entity.id, facilityId: facility.id });
    sibling = await createBuilding(db, { entityId: entity.id, facilityId: facility.id });
    room = await createRoom(db, { entityId: entity.id, buildingId: building.id });
    siblingRoom = await createRoom(db, { entityId: entity.id, buildingId: sibling.id });
  });

  const user = (role: Role, entityId = entity.id) => createUser(database.db, { entityId, role });

  it("shows any room of the entity to an administrator, and a manager the rooms of a linked facility", async () => {
    const admin = ctxOf(await user(Role.ADMINISTRATOR));
    const elsewhere = await createRoom(database.db, { entityId: entity.id });
    for (const id of [room.id, siblingRoom.id, elsewhere.id]) expect((await viewRoom(admin, id)).id).toBe(id);
    const manager = await user(Role.FACILITY_MANAGER);
    await linkUserTo(database.db, { entityId: entity.id, userId: manager.id, facilityId: facility.id });
    const ctx = ctxOf(manager);
    expect((await viewRoom(ctx, room.id)).id).toBe(room.id);
    expect((await viewRoom(ctx, siblingRoom.id)).id).toBe(siblingRoom.id);
    await expect(viewRoom(ctx, elsewhere.id)).rejects.toBeInstanceOf(ForbiddenError);
    await expect(viewRoom(ctxOf(await user(Role.FACILITY_MANAGER)), room.id)).rejects.toBeInstanceOf(ForbiddenError);
  });

  it("shows a technician the rooms of a linked facility, including buildings added to it later", async () => {
    const technician = await user(Role.TECHNICIAN);
    await linkUserTo(database.db, { entityId: entity.id, userId: technician.id, facilityId: facility.id });
    const ctx = ctxOf(technician);
    expect((await viewRoom(ctx, room.id)).id).toBe(room.id);
    expect((await viewRoom(ctx, siblingRoom.id)).id).toBe(siblingRoom.id);
    const later = await createBuilding(database.db, { entityId: entity.id, facilityId: facility.id });
    const laterRoom = await createRoom(database.db, { entityId: entity.id, buildingId: later.id });
    expect((await viewRoom(ctx, laterRoom.id)).id).toBe(laterRoom.id);
    const elsewhere = await createRoom(database.db, { entityId: entity.id });
    await expect(viewRoom(ctx, elsewhere.id)).rejects.toBeInstanceOf(ForbiddenError);
  });

  it("shows a technician the rooms of a linked building only", async () => {
    const technician = await user(Role.TECHNICIAN);
    await linkUserTo(database.db, { entityId: entity.id, userId: technician.id, buildingId: building.id });
    const ctx = ctxOf(technician);
    expect((await viewRoom(ctx, room.id)).id).toBe(room.id);
    await expect(viewRoom(ctx, siblingRoom.id)).rejects.toBeInstanceOf(ForbiddenError);
  });

  it("refuses an unlinked technician and a missing actor", async () => {
    const ctx = ctxOf(await user(Role.TECHNICIAN));
    await expect(viewRoom(ctx, room.id)).rejects.toBeInstanceOf(ForbiddenError);
    await expect(viewRoom({ ...ctx, actor: null }, room.id)).rejects.toBeInstanceOf(ForbiddenError);
  });

  it("answers not found for another entity's room (even to a technician linked there in the other entity) and an archived room", async () => {
    const other = await createEntity(database.db);
    const otherManager = await user(Role.FACILITY_MANAGER, other.id);
    await expect(viewRoom(ctxOf(otherManager), room.id)).rejects.toBeInstanceOf(NotFoundError);
    const otherTechnician = await user(Role.TECHNICIAN, other.id);
    const otherFacility = await createFacility(database.db, { entityId: other.id });
    await linkUserTo(database.db, { entityId: other.id, userId: otherTechnician.id, facilityId: otherFacility.id });
    await expect(viewRoom(ctxOf(otherTechnician), room.id)).rejects.toBeInstanceOf(NotFoundError);
    const manager = await user(Role.FACILITY_MANAGER);
    const archived = await createRoom(database.db, { entityId: entity.id, buildingId: building.id, archivedAt: new Date() });
    await expect(viewRoom(ctxOf(manager), archived.id)).rejects.toBeInstanceOf(NotFoundError);
  });
});

// ---------------------------------------------------------------------------
// Room types
// ---------------------------------------------------------------------------

describe("listRoomTypes", () => {
  let ctx: ServiceContext;
  let otherCtx: ServiceContext;
  let office: RoomType;
  let kitchen: RoomType;
  let storage: RoomType;

  beforeAll(async () => {
    const db = database.db;
    const fresh = await freshEntity();
    ctx = fresh.ctx;
    const entityId = fresh.entity.id;
    office = await createRoomType(db, { entityId, name: "Office", tags: ["work"] });
    kitchen = await createRoomType(db, { entityId, name: "kitchen" });
    storage = await createRoomType(db, { entityId, name: "Storage_1" });
    await createRoomType(db, { entityId, name: "Gone", archivedAt: new Date() });
    const building = await createBuilding(db, { entityId });
    for (let i = 0; i < 3; i++) await createRoom(db, { entityId, buildingId: building.id, roomTypeId: office.id });
    await createRoom(db, { entityId, buildingId: building.id, roomTypeId: office.id, archivedAt: new Date() });
    await createRoom(db, { entityId, buildingId: building.id, roomTypeId: kitchen.id });
    await createIncidentType(db, { entityId, roomTypeIds: [office.id, kitchen.id] });
    await createIncidentType(db, { entityId, roomTypeIds: [office.id] });
    await createIncidentType(db, { entityId, roomTypeIds: [office.id], archivedAt: new Date(), status: IncidentTypeStatus.ARCHIVED });

    const other = await freshEntity();
    otherCtx = other.ctx;
    await createRoomType(db, { entityId: other.entity.id, name: "Office" });
  });

  it("lists active room types with their linked rooms count", async () => {
    const page = await listRoomTypes(ctx, query("name"));
    expect(page.total).toBe(3);
    expect(page.items).toEqual([
      { id: kitchen.id, roomTypeName: "kitchen", tags: [], linkedRoomsCount: 1, roomTypeRatingMessages: [] },
      { id: office.id, roomTypeName: "Office", tags: ["work"], linkedRoomsCount: 3, roomTypeRatingMessages: [] },
      { id: storage.id, roomTypeName: "Storage_1", tags: [], linkedRoomsCount: 0, roomTypeRatingMessages: [] },
    ]);
  });

  it("gives one room type with its linked rooms and active incident types counts", async () => {
    expect(await getRoomType(ctx, office.id)).toMatchObject({ linkedRoomsCount: 3, incidentTypesCount: 2 });
    expect(await getRoomType(ctx, kitchen.id)).toMatchObject({ linkedRoomsCount: 1, incidentTypesCount: 1 });
    expect(await getRoomType(ctx, storage.id)).toMatchObject({ linkedRoomsCount: 0, incidentTypesCount: 0 });
  });

  it("sorts, searches and pages", async () => {
    expect(ROOM_TYPE_SORTS).toEqual(["name", "linkedRoomsCount"]);
    const ids = async (q: Partial<ListQuery<"name" | "linkedRoomsCount">>, sort: "name" | "linkedRoomsCount" = "name") =>
      (await listRoomTypes(ctx, query(sort, q))).items.map((r) => r.id);
    expect(await ids({ dir: "desc" })).toEqual([storage.id, office.id, kitchen.id]);
    expect(await ids({}, "linkedRoomsCount")).toEqual([storage.id, kitchen.id, office.id]);
    expect(await ids({ dir: "desc" }, "linkedRoomsCount")).toEqual([office.id, kitchen.id, storage.id]);
    expect(await ids({ q: "OFF" })).toEqual([office.id]);
    expect(await ids({ q: "_" })).toEqual([storage.id]);
    expect(await ids({ q: "gone" })).toEqual([]);
    const second = await listRoomTypes(ctx, query("name", { size: 2, page: 2 }));
    expect(second.items.map((r) => r.id)).toEqual([storage.id]);
    expect(second.total).toBe(3);
  });

  it("keeps entities apart", async () => {
    const theirs = await listRoomTypes(otherCtx, query("name"));
    expect(theirs.items.map((r) => r.roomTypeName)).toEqual(["Office"]);
    expect(theirs.items[0].linkedRoomsCount).toBe(0);
    await expect(getRoomType(otherCtx, office.id)).rejects.toBeInstanceOf(NotFoundError);
    expect((await listRoomTypeOptions(otherCtx)).map((o) => o.name)).toEqual(["Office"]);
    expect(await listRoomTypeOptions(ctx)).toEqual([
      { id: kitchen.id, name: "kitchen" },
      { id: office.id, name: "Office" },
      { id: storage.id, name: "Storage_1" },
    ]);
  });
});

// ---------------------------------------------------------------------------
// Reach of the read models: getRoom within the technician's tree, the forms for managers
// ---------------------------------------------------------------------------

describe("reach of getRoom and the room and room type form read models", () => {
  it("gives a technician the rooms of their linked facilities and buildings only; others are not found", async () => {
    const { entity } = await freshEntity();
    const db = database.db;
    const building = await createBuilding(db, { entityId: entity.id });
    const mine = await createRoom(db, { entityId: entity.id, buildingId: building.id });
    const sibling = await createRoom(db, { entityId: entity.id, buildingId: (await createBuilding(db, { entityId: entity.id, facilityId: building.facilityId })).id });
    const elsewhere = await createRoom(db, { entityId: entity.id });
    const technician = await createUser(db, { entityId: entity.id, role: Role.TECHNICIAN });
    await linkUserTo(db, { entityId: entity.id, userId: technician.id, buildingId: building.id });
    const ctx = ctxOf(technician);
    expect((await getRoom(ctx, mine.id)).id).toBe(mine.id);
    for (const id of [sibling.id, elsewhere.id]) {
      const error = await getRoom(ctx, id).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(NotFoundError);
      expect(error).toMatchObject({ code: "ROOM_NOT_FOUND" });
    }
    await expect(getRoom({ ...ctx, actor: null }, mine.id)).rejects.toBeInstanceOf(NotFoundError);
  });

  it("gives the form read models to managers and administrators only (Forbidden to a technician, even linked)", async () => {
    const { entity, ctx } = await freshEntity();
    const db = database.db;
    const room = await createRoom(db, { entityId: entity.id });
    const admin = ctxOf(await createUser(db, { entityId: entity.id, role: Role.ADMINISTRATOR }));
    await reachAll(ctx);
    for (const manager of [ctx, admin]) {
      expect((await getRoomForEdit(manager, room.id)).id).toBe(room.id);
      expect((await getRoomTypeForEdit(manager, room.roomTypeId)).id).toBe(room.roomTypeId);
    }
    const technician = await createUser(db, { entityId: entity.id, role: Role.TECHNICIAN });
    await linkUserTo(db, { entityId: entity.id, userId: technician.id, buildingId: room.buildingId });
    await expect(getRoomForEdit(ctxOf(technician), room.id)).rejects.toBeInstanceOf(ForbiddenError);
    await expect(getRoomTypeForEdit(ctxOf(technician), room.roomTypeId)).rejects.toBeInstanceOf(ForbiddenError);
  });

  it("answers not found to another entity's manager", async () => {
    const { entity } = await freshEntity();
    const room = await createRoom(database.db, { entityId: entity.id });
    const { ctx: stranger } = await freshEntity();
    await expect(getRoomForEdit(stranger, room.id)).rejects.toBeInstanceOf(NotFoundError);
    await expect(getRoomTypeForEdit(stranger, room.roomTypeId)).rejects.toBeInstanceOf(NotFoundError);
  });
});

// ---------------------------------------------------------------------------
// listRooms: every page of every sort against a reference order (decision 017)
// ---------------------------------------------------------------------------

describe("listRooms pages", () => {
  interface Ref {
    id: number;
    shortId: number;
    name: string;
    floor: string;
    building: { id: number; name: string; facilityId: number };
    facility: { id: number; name: string };
    type: { id: number; name: string };
  }
  let ctx: ServiceContext;
  let adminCtx: ServiceContext;
  let technician: ServiceContext;
  let refs: Ref[];
  let linkedBuildings: number[];
  let someFacility: number;

  beforeAll(async () => {
    const db = database.db;
    const fresh = await freshEntity();
    ctx = fresh.ctx;
    const entityId = fresh.entity.id;
    const facilityRows = [
      await createFacility(db, { entityId, name: "beta site" }),
      await createFacility(db, { entityId, name: "Alpha site" }),
      await createFacility(db, { entityId, name: "alpha site" }),
    ];
    const types = [
      await createRoomType(db, { entityId, name: "Office" }),
      await createRoomType(db, { entityId, name: "lab" }),
      await createRoomType(db, { entityId, name: "office" }),
    ];
    const names = ["Hall", "hall", "Annex", "annex", "Zed", "Hall", "mid"];
    const roomNames = ["b", "A", "a", "C", "b", "d", "B", "e", "a"];
    refs = [];
    const buildingRows: Building[] = [];
    for (let i = 0; i < names.length; i++) {
      const facility = facilityRows[i % 3];
      const building = await createBuilding(db, { entityId, facilityId: facility.id, name: names[i] });
      buildingRows.push(building);
      // 0 to 8 rooms per building, and an archived one.
      for (let j = 0; j < (i * 3) % 9; j++) {
        const type = types[(i + j) % 3];
        const room = await createRoom(db, { entityId, buildingId: building.id, roomTypeId: type.id, name: roomNames[(i + j) % 9], floor: String((i * j) % 4) });
        refs.push({
          id: room.id,
          shortId: room.shortId,
          name: room.name,
          floor: room.floor,
          building: { id: building.id, name: building.name, facilityId: facility.id },
          facility: { id: facility.id, name: facility.name },
          type: { id: type.id, name: type.name },
        });
      }
      await createRoom(db, { entityId, buildingId: building.id, roomTypeId: types[0].id, name: "gone", archivedAt: new Date() });
    }
    someFacility = facilityRows[1].id;
    const tech = await createUser(db, { entityId, role: Role.TECHNICIAN });
    await linkUserTo(db, { entityId, userId: tech.id, facilityId: facilityRows[0].id });
    await linkUserTo(db, { entityId, userId: tech.id, buildingId: buildingRows[1].id });
    linkedBuildings = buildingRows.filter((b) => b.facilityId === facilityRows[0].id || b.id === buildingRows[1].id).map((b) => b.id);
    technician = ctxOf(tech);
    await reachAll(ctx);
    adminCtx = await adminOf(ctx);
  });

  const key = (r: Ref, sort: RoomSort): (string | number)[] => {
    const room = [r.name.toLowerCase(), r.id];
    switch (sort) {
      case "name":
        return room;
      case "shortId":
        return [r.shortId, r.id];
      case "floor":
        return [r.floor.toLowerCase(), r.id];
      case "buildingName":
        return [r.building.name.toLowerCase(), r.building.id, ...room];
      case "facilityName":
        return [r.facility.name.toLowerCase(), r.facility.id, r.building.name.toLowerCase(), r.building.id, ...room];
      case "roomTypeName":
        return [r.type.name.toLowerCase(), r.type.id, ...room];
    }
  };
  const compare = (a: (string | number)[], b: (string | number)[]) => {
    for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i] < b[i] ? -1 : 1;
    return 0;
  };
  const reference = (rows: Ref[], sort: RoomSort, dir: "asc" | "desc") =>
    [...rows].sort((a, b) => (dir === "asc" ? 1 : -1) * compare(key(a, sort), key(b, sort))).map((r) => r.id);

  async function allPages(context: ServiceContext, sort: RoomSort, dir: "asc" | "desc", size: number, filter: Parameters<typeof listRooms>[2] = {}, q = "") {
    const seen: number[] = [];
    let total = -1;
    for (let page = 1; page <= 40; page++) {
      const result = await listRooms(context, query(sort, { dir, size, page, q }), filter);
      total = result.total;
      if (result.items.length === 0) break;
      seen.push(...result.items.map((r) => r.id));
    }
    return { seen, total };
  }

  it("gives every room once, in the reference order, whatever the sort, direction and page size", async () => {
    // A manager linked to every facility (a reach condition) and an administrator (none).
    for (const viewer of [ctx, adminCtx]) {
      for (const sort of ROOM_SORTS) {
        for (const dir of ["asc", "desc"] as const) {
          for (const size of [4, 7]) {
            const { seen, total } = await allPages(viewer, sort, dir, size);
            expect(seen, `${sort} ${dir} ${size}`).toEqual(reference(refs, sort, dir));
            expect(total).toBe(refs.length);
          }
        }
      }
    }
  });

  it("pages a search, a facility, a room type and a technician's reach the same way", async () => {
    for (const sort of ROOM_SORTS) {
      for (const dir of ["asc", "desc"] as const) {
        const searched = await allPages(ctx, sort, dir, 3, {}, "A");
        const matching = refs.filter((r) => r.name.toLowerCase().includes("a"));
        expect(searched.seen, `${sort} ${dir} q`).toEqual(reference(matching, sort, dir));
        expect(searched.total).toBe(matching.length);

        const inFacility = await allPages(ctx, sort, dir, 5, { facilityId: someFacility });
        expect(inFacility.seen, `${sort} ${dir} facility`).toEqual(reference(refs.filter((r) => r.facility.id === someFacility), sort, dir));

        const typeId = refs[0].type.id;
        const ofType = await allPages(ctx, sort, dir, 5, { roomTypeId: typeId });
        expect(ofType.seen, `${sort} ${dir} type`).toEqual(reference(refs.filter((r) => r.type.id === typeId), sort, dir));

        const reach = await allPages(technician, sort, dir, 4);
        const reachable = refs.filter((r) => linkedBuildings.includes(r.building.id));
        expect(reach.seen, `${sort} ${dir} technician`).toEqual(reference(reachable, sort, dir));
        expect(reach.total).toBe(reachable.length);
      }
    }
  });
});

describe("listRooms of a search matching more than LIST_COUNT_CAP rooms", () => {
  it("counts up to the cap, says so, and serves pages within it only", async () => {
    const db = database.db;
    const { entity, ctx } = await freshEntity();
    const building = await createBuilding(db, { entityId: entity.id });
    const type = await createRoomType(db, { entityId: entity.id });
    await db.execute(sql`
      insert into rooms (entity_id, building_id, room_type_id, short_id, name, floor)
      select ${entity.id}, ${building.id}, ${type.id}, g, 'Room ' || lpad(g::text, 4, '0'), '0'
      from generate_series(1, ${LIST_COUNT_CAP + 5}) as g`);
    await reachAll(ctx);
    // An administrator (the counters' total) and a manager linked to the facility (the reach's buildings).
    for (const viewer of [await adminOf(ctx), ctx]) {
      expect(await listRooms(viewer, query("name", { size: 100 }))).toMatchObject({ total: LIST_COUNT_CAP + 5, capped: false });
    }
    const searched = await listRooms(ctx, query("name", { q: "room", size: 100 }));
    expect(searched).toMatchObject({ total: LIST_COUNT_CAP, capped: true });
    expect(searched.items).toHaveLength(100);
    const last = await listRooms(ctx, query("name", { q: "room", size: 100, page: LIST_COUNT_CAP / 100 }));
    expect(last.items.at(-1)?.name).toBe(`Room ${String(LIST_COUNT_CAP).padStart(4, "0")}`);
    expect((await listRooms(ctx, query("name", { q: "room", size: 100, page: LIST_COUNT_CAP / 100 + 1 }))).items).toEqual([]);
    const few = await listRooms(ctx, query("name", { q: "room 100" }));
    expect(few).toMatchObject({ total: 6, capped: false });
  });
});
