import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "~/db/client.server";
import { IncidentStatus, IncidentTypeStatus, Priority, Role, RoomLinkType } from "~/db/enums";
import {
  type Building,
  type Entity,
  type Facility,
  type Room,
  roomFiles,
  roomLinks,
  type RoomType,
  storedFiles,
  type User,
} from "~/db/schema";
import type { ServiceContext } from "~/core/context.server";
import { ForbiddenError, NotFoundError } from "~/lib/errors";
import type { ListQuery } from "~/lib/list-query";
import {
  createBuilding,
  createEntity,
  createEquipmentItem,
  createEquipmentType,
  createFacility,
  createIncident,
  createIncidentType,
  createReportIdentifier,
  createRoom,
  createRoomType,
  createUser,
  linkUserTo,
} from "#tests/factories";
import { createTestDatabase } from "#tests/test-db";
import { actorContext, entityWithManager, listQuery as query } from "#tests/service-helpers";
import {
  getRoom,
  getRoomForEdit,
  getRoomPlace,
  getRoomType,
  getRoomTypeForEdit,
  listRoomTypeOptions,
  listRooms,
  listRoomTypes,
  ROOM_SORTS,
  ROOM_TYPE_SORTS,
  type RoomSort,
  viewRoom,
} from "./queries.server";

let database: Database;

const ctxOf = (user: User, locale = "en") => actorContext(database.db, user, { locale });

const freshEntity = () => entityWithManager(database.db);

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
  });

  it("lists the entity's active rooms with their place and counts", async () => {
    const page = await listRooms(ctx, query("name"));
    expect(page).toMatchObject({ total: 4, page: 1, size: null });
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

  it("sorts by every column, both ways, ties by id", async () => {
    const expected: Record<RoomSort, Room[]> = {
      name: [archive, board, cafeteria, zen],
      shortId: [board, cafeteria, archive, zen],
      floor: [cafeteria, archive, zen, board], // text order: "0", "1", "10", "2"
      buildingName: [board, zen, cafeteria, archive], // Alpha, Alpha, beta, Gamma
      facilityName: [board, cafeteria, zen, archive], // North ×3, south
      roomTypeName: [cafeteria, zen, board, archive], // kitchen ×2, Office ×2
    };
    const descending: Record<RoomSort, Room[]> = {
      name: [zen, cafeteria, board, archive],
      shortId: [zen, archive, cafeteria, board],
      floor: [board, zen, archive, cafeteria],
      buildingName: [archive, cafeteria, board, zen],
      facilityName: [archive, board, cafeteria, zen],
      roomTypeName: [board, archive, cafeteria, zen],
    };
    expect(Object.keys(expected).sort()).toEqual([...ROOM_SORTS].sort());
    for (const sort of ROOM_SORTS) {
      expect(
        (await listRooms(ctx, query(sort))).items.map((r) => r.id),
        sort
      ).toEqual(expected[sort].map((r) => r.id));
      expect(
        (await listRooms(ctx, query(sort, { dir: "desc" }))).items.map((r) => r.id),
        `${sort} desc`
      ).toEqual(descending[sort].map((r) => r.id));
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

  it("shows any room of the entity to a manager and an administrator", async () => {
    for (const role of [Role.FACILITY_MANAGER, Role.ADMINISTRATOR]) {
      const ctx = ctxOf(await user(role));
      expect((await viewRoom(ctx, room.id)).id).toBe(room.id);
      expect((await viewRoom(ctx, siblingRoom.id)).id).toBe(siblingRoom.id);
    }
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
