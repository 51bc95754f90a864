import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "~/db/client.server";
import { EquipmentTypeStatus, IncidentTypeStatus, Role } from "~/db/enums";
import { type EquipmentCategory, type EquipmentType, equipmentTypeFiles, type Room, storedFiles, type User } from "~/db/schema";
import type { ServiceContext } from "~/core/context.server";
import { ForbiddenError, NotFoundError } from "~/lib/errors";
import type { ListQuery } from "~/lib/list-query";
import { createBuilding, createEquipmentCategory, createEquipmentItem, createEquipmentType, createIncidentType, createRoom, createUser, linkUserTo } from "#tests/factories";
import { createTestDatabase } from "#tests/test-db";
import { actorContext, entityWithManager, listQuery as query, reachAll } from "#tests/service-helpers";
import { CATEGORY_SORTS, type CategorySort, EQUIPMENT_TYPE_SORTS, type EquipmentTypeSort, getCategory, getCategoryForEdit, getEquipmentType, getEquipmentTypeForEdit, listCategories, listCategoryOptions, listEquipmentItems, listEquipmentTypeOptions, listEquipmentTypes } from "./queries.server";

let database: Database;

const ctxOf = (user: User, locale = "en") => actorContext(database.db, user, { locale });

const freshEntity = () => entityWithManager(database.db);

// One entity with a small catalogue, and a second one with the same names.
let ctx: ServiceContext;
let otherCtx: ServiceContext;
let entityId: number;
let furniture: EquipmentCategory;
let lighting: EquipmentCategory;
let empty: EquipmentCategory;
let otherFurniture: EquipmentCategory;
let chair: EquipmentType;
let desk: EquipmentType;
let lamp: EquipmentType;
let otherChair: EquipmentType;
let room1: Room;
let room2: Room;
let archivedRoom: Room;
let otherRoom: Room;
const DAY = 86_400_000;

beforeAll(async () => {
  database = await createTestDatabase();
  const db = database.db;
  const a = await freshEntity();
  ctx = a.ctx;
  entityId = a.entity.id;
  furniture = await createEquipmentCategory(db, { entityId, name: "Furniture", tags: ["inside"] });
  lighting = await createEquipmentCategory(db, { entityId, name: "lighting" });
  empty = await createEquipmentCategory(db, { entityId, name: "Empty_1" });
  await createEquipmentCategory(db, { entityId, name: "Gone", archivedAt: new Date() });
  const now = Date.now();
  chair = await createEquipmentType(db, {
    entityId,
    categoryId: furniture.id,
    name: "Chair",
    tags: ["wood", "blue"],
    notes: "Stackable",
    createdAt: new Date(now - 3 * DAY),
  });
  desk = await createEquipmentType(db, { entityId, categoryId: furniture.id, name: "desk", createdAt: new Date(now - 1 * DAY) });
  lamp = await createEquipmentType(db, { entityId, categoryId: lighting.id, name: "Lamp", createdAt: new Date(now - 2 * DAY) });
  await createEquipmentType(db, { entityId, categoryId: furniture.id, name: "Old bench", archivedAt: new Date() });

  const building = await createBuilding(db, { entityId });
  room1 = await createRoom(db, { entityId, buildingId: building.id, name: "Room one" });
  room2 = await createRoom(db, { entityId, buildingId: building.id, name: "Room two" });
  archivedRoom = await createRoom(db, { entityId, buildingId: building.id, archivedAt: new Date() });
  // Chair: 3 live items (2 in room1, 1 in room2) + 1 archived; desk: 1; lamp: none.
  await createEquipmentItem(db, { entityId, roomId: room1.id, equipmentTypeId: chair.id, internalReference: "C-1" });
  await createEquipmentItem(db, { entityId, roomId: room1.id, equipmentTypeId: chair.id, internalReference: "C-2" });
  await createEquipmentItem(db, { entityId, roomId: room2.id, equipmentTypeId: chair.id, internalReference: "C-3" });
  await createEquipmentItem(db, { entityId, roomId: room1.id, equipmentTypeId: chair.id, archivedAt: new Date() });
  await createEquipmentItem(db, { entityId, roomId: room2.id, equipmentTypeId: desk.id, internalReference: "D-1" });

  const b = await freshEntity();
  otherCtx = b.ctx;
  otherFurniture = await createEquipmentCategory(db, { entityId: b.entity.id, name: "Furniture" });
  otherChair = await createEquipmentType(db, { entityId: b.entity.id, categoryId: otherFurniture.id, name: "Chair" });
  otherRoom = await createRoom(db, { entityId: b.entity.id });
  await createEquipmentItem(db, { entityId: b.entity.id, roomId: otherRoom.id, equipmentTypeId: otherChair.id });
  // The managers reach their entity's facilities (decision 022); the catalogue needs no link.
  await reachAll(ctx);
  await reachAll(otherCtx);
});
afterAll(async () => {
  await database?.close();
});

// ---------------------------------------------------------------------------
// Categories
// ---------------------------------------------------------------------------

describe("listCategories", () => {
  it("lists active categories with their generic equipment count", async () => {
    const page = await listCategories(ctx, query("name"));
    expect(page.total).toBe(3);
    expect(page.items).toEqual([
      { id: empty.id, categoryName: "Empty_1", entityId, tags: [], equipmentCount: 0 },
      { id: furniture.id, categoryName: "Furniture", entityId, tags: ["inside"], equipmentCount: 2 },
      { id: lighting.id, categoryName: "lighting", entityId, tags: [], equipmentCount: 1 },
    ]);
    expect(await getCategory(ctx, furniture.id)).toEqual({
      id: furniture.id,
      categoryName: "Furniture",
      entityId,
      tags: ["inside"],
      equipmentCount: 2,
    });
    expect((await getCategory(ctx, empty.id)).equipmentCount).toBe(0);
  });

  it("sorts, searches and pages", async () => {
    expect([...CATEGORY_SORTS].sort()).toEqual(["equipmentCount", "name"]);
    const ids = async (sort: CategorySort, q: Partial<ListQuery<CategorySort>> = {}) =>
      (await listCategories(ctx, query(sort, q))).items.map((r) => r.id);
    expect(await ids("name", { dir: "desc" })).toEqual([lighting.id, furniture.id, empty.id]);
    expect(await ids("equipmentCount")).toEqual([empty.id, lighting.id, furniture.id]);
    expect(await ids("equipmentCount", { dir: "desc" })).toEqual([furniture.id, lighting.id, empty.id]);
    expect(await ids("name", { q: "LIGHT" })).toEqual([lighting.id]);
    expect(await ids("name", { q: "_" })).toEqual([empty.id]);
    expect(await ids("name", { q: "gone" })).toEqual([]);
    const second = await listCategories(ctx, query("name", { size: 2, page: 2 }));
    expect(second.items.map((r) => r.id)).toEqual([lighting.id]);
    expect(second.total).toBe(3);
  });

  it("keeps entities apart", async () => {
    const theirs = await listCategories(otherCtx, query("name"));
    expect(theirs.items).toEqual([
      { id: otherFurniture.id, categoryName: "Furniture", entityId: otherFurniture.entityId, tags: [], equipmentCount: 1 },
    ]);
    await expect(getCategory(otherCtx, furniture.id)).rejects.toBeInstanceOf(NotFoundError);
    await expect(getCategory(ctx, otherFurniture.id)).rejects.toBeInstanceOf(NotFoundError);
    expect((await listCategoryOptions(ctx)).map((o) => o.name)).toEqual(["Empty_1", "Furniture", "lighting"]);
    expect((await listCategoryOptions(otherCtx)).map((o) => o.id)).toEqual([otherFurniture.id]);
  });
});

// ---------------------------------------------------------------------------
// Generic equipment
// ---------------------------------------------------------------------------

describe("listEquipmentTypes", () => {
  it("lists active generic equipment with category, tags as labels, item count, status and creation time", async () => {
    const page = await listEquipmentTypes(ctx, query("name"));
    expect(page.total).toBe(3);
    expect(page.items.map((r) => r.equipmentName)).toEqual(["Chair", "desk", "Lamp"]);
    expect(page.items[0]).toEqual({
      id: chair.id,
      equipmentName: "Chair",
      notes: "Stackable",
      categoryId: furniture.id,
      categoryName: "Furniture",
      tags: [{ label: "wood" }, { label: "blue" }],
      itemCount: 3,
      status: EquipmentTypeStatus.ACTIVE,
      entityId,
      creationTimestamp: chair.createdAt.toISOString(),
    });
    expect(page.items.map((r) => r.itemCount)).toEqual([3, 1, 0]);
  });

  it("filters by categories", async () => {
    const ids = async (categoryIds: number[] | null | undefined) => {
      const page = await listEquipmentTypes(ctx, query("name"), { categoryIds });
      expect(page.total).toBe(page.items.length);
      return page.items.map((r) => r.id);
    };
    expect(await ids(null)).toEqual([chair.id, desk.id, lamp.id]);
    expect(await ids(undefined)).toEqual([chair.id, desk.id, lamp.id]);
    expect(await ids([])).toEqual([]);
    expect(await ids([furniture.id])).toEqual([chair.id, desk.id]);
    expect(await ids([furniture.id, lighting.id])).toEqual([chair.id, desk.id, lamp.id]);
    expect(await ids([empty.id])).toEqual([]);
    expect(await ids([otherFurniture.id])).toEqual([]);
    const paged = await listEquipmentTypes(ctx, query("name", { size: 1, page: 2 }), { categoryIds: [furniture.id] });
    expect(paged.items.map((r) => r.id)).toEqual([desk.id]);
    expect(paged.total).toBe(2);
  });

  it("sorts by every column both ways, searches and pages", async () => {
    const expected: Record<EquipmentTypeSort, EquipmentType[]> = {
      name: [chair, desk, lamp],
      categoryName: [chair, desk, lamp], // Furniture ×2 (ties by id), lighting
      itemCount: [lamp, desk, chair],
      creationTimestamp: [chair, lamp, desk],
    };
    const descending: Record<EquipmentTypeSort, EquipmentType[]> = {
      name: [lamp, desk, chair],
      categoryName: [lamp, chair, desk],
      itemCount: [chair, desk, lamp],
      creationTimestamp: [desk, lamp, chair],
    };
    expect(Object.keys(expected).sort()).toEqual([...EQUIPMENT_TYPE_SORTS].sort());
    for (const sort of EQUIPMENT_TYPE_SORTS) {
      expect(
        (await listEquipmentTypes(ctx, query(sort))).items.map((r) => r.id),
        sort
      ).toEqual(expected[sort].map((t) => t.id));
      expect(
        (await listEquipmentTypes(ctx, query(sort, { dir: "desc" }))).items.map((r) => r.id),
        `${sort} desc`
      ).toEqual(descending[sort].map((t) => t.id));
    }
    expect((await listEquipmentTypes(ctx, query("name", { q: "DES" }))).items.map((r) => r.id)).toEqual([desk.id]);
    expect((await listEquipmentTypes(ctx, query("name", { q: "%" }))).total).toBe(0);
    expect((await listEquipmentTypes(ctx, query("name", { q: "bench" }))).total).toBe(0);
    const second = await listEquipmentTypes(ctx, query("name", { size: 2, page: 2 }));
    expect(second.items.map((r) => r.id)).toEqual([lamp.id]);
    expect(second.total).toBe(3);
  });

  it("keeps entities apart", async () => {
    const theirs = await listEquipmentTypes(otherCtx, query("name"));
    expect(theirs.items.map((r) => [r.id, r.itemCount])).toEqual([[otherChair.id, 1]]);
    expect((await listEquipmentTypes(otherCtx, query("name"), { categoryIds: [furniture.id] })).total).toBe(0);
    expect((await listEquipmentTypeOptions(ctx)).map((o) => [o.name, o.categoryName])).toEqual([
      ["Chair", "Furniture"],
      ["desk", "Furniture"],
      ["Lamp", "lighting"],
    ]);
    expect((await listEquipmentTypeOptions(otherCtx)).map((o) => o.id)).toEqual([otherChair.id]);
  });
});

describe("getEquipmentType", () => {
  it("gives the generic equipment with its live files and active incident types", async () => {
    const db = database.db;
    const type = await createEquipmentType(db, { entityId, categoryId: lighting.id, name: "Spot" });
    const attach = async (name: string, mimeType: string, deletedAt: Date | null = null) => {
      const id = randomUUID();
      await db
        .insert(storedFiles)
        .values({ id, entityId, storageKey: `${entityId}/${id}`, originalName: name, mimeType, sizeBytes: 42, deletedAt });
      await db.insert(equipmentTypeFiles).values({ entityId, equipmentTypeId: type.id, fileId: id });
      return id;
    };
    const manual = await attach("manual.pdf", "application/pdf");
    const photo = await attach("photo.jpg", "image/jpeg");
    await attach("old.pdf", "application/pdf", new Date());
    const flicker = await createIncidentType(db, { entityId, nameEn: "Flickers", nameNl: "Flikkert", equipmentTypeIds: [type.id] });
    const dead = await createIncidentType(db, { entityId, nameEn: "Dead", nameNl: "Zdood", equipmentTypeIds: [type.id] });
    await createIncidentType(db, {
      entityId,
      nameEn: "Old",
      equipmentTypeIds: [type.id],
      archivedAt: new Date(),
      status: IncidentTypeStatus.ARCHIVED,
    });

    const detail = await getEquipmentType(ctx, type.id);
    expect(detail).toMatchObject({
      id: type.id,
      equipmentName: "Spot",
      categoryName: "lighting",
      itemCount: 0,
      status: EquipmentTypeStatus.ACTIVE,
    });
    expect(detail.files.map((f) => f.id).sort()).toEqual([manual, photo].sort());
    expect(detail.files.find((f) => f.id === photo)).toEqual({
      id: photo,
      name: "photo.jpg",
      mimeType: "image/jpeg",
      sizeBytes: 42,
      url: `/files/${photo}`,
      isImage: true,
    });
    expect(detail.incidentTypes).toEqual([
      { id: dead.id, name: "Dead" },
      { id: flicker.id, name: "Flickers" },
    ]);
    expect((await getEquipmentType({ ...ctx, locale: "nl-BE" }, type.id)).incidentTypes).toEqual([
      { id: flicker.id, name: "Flikkert" },
      { id: dead.id, name: "Zdood" },
    ]);
    expect((await getEquipmentType(ctx, chair.id)).itemCount).toBe(3);
  });

  it("answers not found for another entity's or an archived generic equipment", async () => {
    const archived = await createEquipmentType(database.db, { entityId, categoryId: furniture.id, archivedAt: new Date() });
    await expect(getEquipmentType(ctx, otherChair.id)).rejects.toBeInstanceOf(NotFoundError);
    await expect(getEquipmentType(otherCtx, chair.id)).rejects.toBeInstanceOf(NotFoundError);
    await expect(getEquipmentType(ctx, archived.id)).rejects.toBeInstanceOf(NotFoundError);
  });
});

// ---------------------------------------------------------------------------
// Specific equipment items
// ---------------------------------------------------------------------------

describe("listEquipmentItems", () => {
  const itemsOf = async (...args: Parameters<typeof listEquipmentItems>) => (await listEquipmentItems(...args)).items;

  it("lists the live items of live rooms, optionally of some rooms only", async () => {
    const all = await itemsOf(ctx, { roomIds: null });
    expect(all.map((i) => i.internalReference)).toEqual(["C-1", "C-2", "C-3", "D-1"]);
    expect(all[0]).toEqual({
      id: expect.any(Number),
      internalReference: "C-1",
      equipmentTypeId: chair.id,
      equipmentName: "Chair",
      categoryId: furniture.id,
      categoryName: "Furniture",
      roomId: room1.id,
      roomName: "Room one",
      buildingId: room1.buildingId,
      reportIdentifier: expect.stringMatching(/^[2-9A-HJ-NP-Z]{13}$/),
    });
    expect((await itemsOf(ctx, { roomIds: [room1.id] })).map((i) => i.internalReference)).toEqual(["C-1", "C-2"]);
    expect((await itemsOf(ctx, { roomIds: [room2.id] })).map((i) => i.internalReference)).toEqual(["C-3", "D-1"]);
    expect(await itemsOf(ctx, { roomIds: [] })).toEqual([]);
    expect(await itemsOf(ctx, { roomIds: [archivedRoom.id] })).toEqual([]);
  });

  it("hides the items of an archived room and items without a live identifier keep a null one", async () => {
    const db = database.db;
    const building = await createBuilding(db, { entityId });
    await reachAll(ctx);
    const room = await createRoom(db, { entityId, buildingId: building.id });
    const item = await createEquipmentItem(db, { entityId, roomId: room.id, equipmentTypeId: lamp.id, reportCode: null });
    expect(await itemsOf(ctx, { roomIds: [room.id] })).toMatchObject([{ id: item.id, reportIdentifier: null }]);
    const gone = await createRoom(db, { entityId, buildingId: building.id, archivedAt: new Date() });
    await createEquipmentItem(db, { entityId, roomId: gone.id, equipmentTypeId: lamp.id });
    expect(await itemsOf(ctx, { roomIds: [gone.id] })).toEqual([]);
  });

  it("follows the rooms' reach: a manager lists the items of the rooms they reach only, an administrator all", async () => {
    const db = database.db;
    const manager = await createUser(db, { entityId, role: Role.FACILITY_MANAGER });
    const elsewhere = await createBuilding(db, { entityId });
    const farRoom = await createRoom(db, { entityId, buildingId: elsewhere.id });
    await createEquipmentItem(db, { entityId, roomId: farRoom.id, equipmentTypeId: desk.id, internalReference: "D-far" });
    await linkUserTo(db, { entityId, userId: manager.id, buildingId: elsewhere.id });
    const refs = async (viewer: ServiceContext, roomIds: number[] | null) =>
      (await itemsOf(viewer, { roomIds })).map((i) => i.internalReference);
    expect(await refs(ctxOf(manager), null)).toEqual(["D-far"]);
    expect(await refs(ctxOf(manager), [room1.id, room2.id])).toEqual([]);
    expect((await listEquipmentItems(ctxOf(manager), { roomIds: null })).total).toBe(1);
    const admin = ctxOf(await createUser(db, { entityId, role: Role.ADMINISTRATOR }));
    expect(await refs(admin, [room1.id, room2.id, farRoom.id])).toEqual(["C-1", "C-2", "C-3", "D-1", "D-far"]);
    // The catalogue stays entity-wide for the manager.
    expect((await getEquipmentType(ctxOf(manager), chair.id)).itemCount).toBe(3);
  });

  it("keeps entities apart", async () => {
    expect(await itemsOf(ctx, { roomIds: [otherRoom.id] })).toEqual([]);
    expect(await itemsOf(otherCtx, { roomIds: [room1.id, room2.id] })).toEqual([]);
    const theirs = await itemsOf(otherCtx, { roomIds: null });
    expect(theirs.map((i) => i.roomId)).toEqual([otherRoom.id]);
    expect((await itemsOf(ctx, { roomIds: null })).every((i) => i.roomId !== otherRoom.id)).toBe(true);
  });
});

// ---------------------------------------------------------------------------
// Reach: the catalogue for every user, its documentation within reach, the forms for managers
// ---------------------------------------------------------------------------

describe("reach of the generic equipment documentation and the form read models", () => {
  async function documented(entityId: number) {
    const type = await createEquipmentType(database.db, { entityId });
    const id = randomUUID();
    await database.db
      .insert(storedFiles)
      .values({ id, entityId, storageKey: `${entityId}/${id}`, originalName: "manual.pdf", mimeType: "application/pdf", sizeBytes: 42 });
    await database.db.insert(equipmentTypeFiles).values({ entityId, equipmentTypeId: type.id, fileId: id });
    return { type, fileId: id };
  }

  it("lists the documentation to a technician only for equipment placed in a room they reach", async () => {
    const { entity, ctx: manager } = await freshEntity();
    const db = database.db;
    const { type, fileId } = await documented(entity.id);
    const technician = await createUser(db, { entityId: entity.id, role: Role.TECHNICIAN });
    const tech = ctxOf(technician);
    const building = await createBuilding(db, { entityId: entity.id });
    await linkUserTo(db, { entityId: entity.id, userId: technician.id, buildingId: building.id });

    expect((await getEquipmentType(manager, type.id)).files.map((f) => f.id)).toEqual([fileId]);
    // The catalogue entry itself is readable; its documentation is not, while no item sits in their rooms.
    const before = await getEquipmentType(tech, type.id);
    expect(before.id).toBe(type.id);
    expect(before.files).toEqual([]);
    await createEquipmentItem(db, { entityId: entity.id, equipmentTypeId: type.id }); // a room elsewhere
    expect((await getEquipmentType(tech, type.id)).files).toEqual([]);
    const archivedItem = await createEquipmentItem(db, {
      entityId: entity.id,
      equipmentTypeId: type.id,
      roomId: (await createRoom(db, { entityId: entity.id, buildingId: building.id })).id,
      archivedAt: new Date(),
    });
    expect(archivedItem.archivedAt).not.toBeNull();
    expect((await getEquipmentType(tech, type.id)).files).toEqual([]);
    const room = await createRoom(db, { entityId: entity.id, buildingId: building.id });
    await createEquipmentItem(db, { entityId: entity.id, equipmentTypeId: type.id, roomId: room.id });
    expect((await getEquipmentType(tech, type.id)).files.map((f) => f.id)).toEqual([fileId]);
  });

  it("gives the form read models to managers and administrators only (Forbidden to a technician)", async () => {
    const { entity, ctx } = await freshEntity();
    const db = database.db;
    const { type } = await documented(entity.id);
    const admin = ctxOf(await createUser(db, { entityId: entity.id, role: Role.ADMINISTRATOR }));
    for (const manager of [ctx, admin]) {
      expect((await getEquipmentTypeForEdit(manager, type.id)).id).toBe(type.id);
      expect((await getCategoryForEdit(manager, type.categoryId)).id).toBe(type.categoryId);
    }
    const technician = ctxOf(await createUser(db, { entityId: entity.id, role: Role.TECHNICIAN }));
    await expect(getEquipmentTypeForEdit(technician, type.id)).rejects.toBeInstanceOf(ForbiddenError);
    await expect(getCategoryForEdit(technician, type.categoryId)).rejects.toBeInstanceOf(ForbiddenError);
  });

  it("answers not found to another entity's manager", async () => {
    const { entity } = await freshEntity();
    const { type } = await documented(entity.id);
    const { ctx: stranger } = await freshEntity();
    await expect(getEquipmentTypeForEdit(stranger, type.id)).rejects.toBeInstanceOf(NotFoundError);
    await expect(getCategoryForEdit(stranger, type.categoryId)).rejects.toBeInstanceOf(NotFoundError);
  });
});
