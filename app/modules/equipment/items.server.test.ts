import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import type { Database } from "~/db/client.server";
import { Role } from "~/db/enums";
import { auditLog, changeEvents, type Entity, type EquipmentItem, equipmentItemFiles, equipmentItems, storedFiles, type User } from "~/db/schema";
import { ForbiddenError, NotFoundError } from "~/lib/errors";
import { getReadableFile } from "~/modules/files/access.server";
import type { FileStore } from "~/modules/files/storage.server";
import { createBuilding, createEntity, createEquipmentItem, createRoom, createUser, linkUserTo } from "#tests/factories";
import { createTestDatabase } from "#tests/test-db";
import { actorContext, expectFieldError, listQuery, rejectionOf } from "#tests/service-helpers";
import { getEquipmentItemRecord, listItemRecords, listParentChoices } from "./item-queries.server";
import { type EquipmentItemWrite, importEquipmentItemsBulk, PARENT_LOOP, updateEquipmentItem } from "./items.server";

let database: Database;
let entityA: Entity;
let entityB: Entity;
let manager: User;
let unlinkedManager: User;
let technician: User;
let managerB: User;
let boiler: EquipmentItem;
let pump: EquipmentItem;
let valve: EquipmentItem;
let elsewhere: EquipmentItem;
let itemB: EquipmentItem;
const files: FileStore = { root: fs.mkdtempSync(path.join(os.tmpdir(), "caretaker-items-")), maxBytes: 64 * 1024 };
const ctxFor = (user: User) => actorContext(database.db, user, { files });
const pdfBytes = () => new TextEncoder().encode("%PDF-1.4\n1 0 obj\n<<>>\nendobj\ntrailer\n<<>>\n%%EOF\n");

const RECORD: EquipmentItemWrite = {
  serialNumber: "SN-4471-B",
  manufacturer: "Viessmann",
  model: "Vitodens 200-W",
  installedOn: "2024-03-15",
  warrantyEndsOn: "2027-03-14",
  supplier: "Chauffage Dupont",
  notes: "Serviced every autumn",
  parentItemId: null,
};

async function row(id: number) {
  const [r] = await database.db.select().from(equipmentItems).where(eq(equipmentItems.id, id));
  return r;
}

async function snapshot() {
  const items = await database.db.select().from(equipmentItems).orderBy(equipmentItems.id);
  const links = await database.db.select().from(equipmentItemFiles);
  const audit = await database.db.select().from(auditLog).where(eq(auditLog.recordType, "equipmentItem"));
  const changes = await database.db.select().from(changeEvents).where(eq(changeEvents.type, "equipmentItem.changed"));
  return JSON.stringify({ items, links, audit, changes, disk: (fs.readdirSync(files.root, { recursive: true }) as string[]).sort() });
}

beforeAll(async () => {
  database = await createTestDatabase();
  const db = database.db;
  entityA = await createEntity(db, { name: "Items A" });
  entityB = await createEntity(db, { name: "Items B" });
  manager = await createUser(db, { entityId: entityA.id, role: Role.FACILITY_MANAGER });
  unlinkedManager = await createUser(db, { entityId: entityA.id, role: Role.FACILITY_MANAGER });
  technician = await createUser(db, { entityId: entityA.id, role: Role.TECHNICIAN });
  managerB = await createUser(db, { entityId: entityB.id, role: Role.ADMINISTRATOR });
  const building = await createBuilding(db, { entityId: entityA.id });
  const otherBuilding = await createBuilding(db, { entityId: entityA.id });
  await linkUserTo(db, { entityId: entityA.id, userId: manager.id, buildingId: building.id });
  await linkUserTo(db, { entityId: entityA.id, userId: technician.id, buildingId: building.id });
  const room = await createRoom(db, { entityId: entityA.id, buildingId: building.id });
  const otherRoom = await createRoom(db, { entityId: entityA.id, buildingId: otherBuilding.id });
  boiler = await createEquipmentItem(db, { entityId: entityA.id, roomId: room.id, internalReference: "BOILER-1" });
  pump = await createEquipmentItem(db, { entityId: entityA.id, roomId: room.id, internalReference: "PUMP-1" });
  valve = await createEquipmentItem(db, { entityId: entityA.id, roomId: room.id, internalReference: "VALVE-1" });
  elsewhere = await createEquipmentItem(db, { entityId: entityA.id, roomId: otherRoom.id, internalReference: "FAR-1" });
  itemB = await createEquipmentItem(db, { entityId: entityB.id, internalReference: "B-1" });
});

afterAll(async () => {
  await database?.close();
  fs.rmSync(files.root, { recursive: true, force: true });
});

describe("updateEquipmentItem", () => {
  beforeEach(async () => {
    await database.db.update(equipmentItems).set({ parentItemId: null, archivedAt: null }).where(inArray(equipmentItems.id, [boiler.id, pump.id, valve.id]));
  });

  it("writes the record, with an audit row and a change event, and reads it back", async () => {
    const view = await updateEquipmentItem(ctxFor(manager), boiler.id, RECORD);
    expect(view).toMatchObject({ id: boiler.id, serialNumber: "SN-4471-B", warrantyEndsOn: "2027-03-14", parent: null, children: [], files: [] });
    expect(await row(boiler.id)).toMatchObject({ ...RECORD, internalReference: "BOILER-1" });
    const audit = await database.db.select().from(auditLog).where(eq(auditLog.recordId, String(boiler.id)));
    expect(audit.filter((a) => a.action === "equipmentItem.update" && a.recordType === "equipmentItem")).toHaveLength(1);
    const changes = await database.db.select().from(changeEvents).where(eq(changeEvents.type, "equipmentItem.changed"));
    expect(changes.map((c) => c.subjectId)).toContain(boiler.id);
    // Empty fields clear the record.
    await updateEquipmentItem(ctxFor(manager), boiler.id, { serialNumber: "", warrantyEndsOn: "" });
    expect(await row(boiler.id)).toMatchObject({ serialNumber: null, warrantyEndsOn: null, manufacturer: null });
  });

  it("refuses an impossible date", async () => {
    await expectFieldError(updateEquipmentItem(ctxFor(manager), boiler.id, { ...RECORD, warrantyEndsOn: "2027-02-30" }), "warrantyEndsOn", "equipment:validation.date");
  });

  it("nests items, and refuses a parent loop with nothing changed", async () => {
    await updateEquipmentItem(ctxFor(manager), pump.id, { parentItemId: boiler.id });
    await updateEquipmentItem(ctxFor(manager), valve.id, { parentItemId: pump.id });
    const boilerView = await getEquipmentItemRecord(ctxFor(manager), boiler.id);
    expect(boilerView.children.map((c) => c.internalReference)).toEqual(["PUMP-1"]);
    expect((await getEquipmentItemRecord(ctxFor(manager), valve.id)).parent).toMatchObject({ id: pump.id, internalReference: "PUMP-1", archived: false });
    // The boiler may not go under the valve (valve -> pump -> boiler), nor under itself.
    expect((await listParentChoices(ctxFor(manager), boiler.id)).map((c) => c.internalReference)).toEqual([]);
    const before = await snapshot();
    await expectFieldError(updateEquipmentItem(ctxFor(manager), boiler.id, { parentItemId: valve.id }), "parentItemId", PARENT_LOOP);
    await expectFieldError(updateEquipmentItem(ctxFor(manager), boiler.id, { parentItemId: pump.id }), "parentItemId", PARENT_LOOP);
    await expectFieldError(updateEquipmentItem(ctxFor(manager), boiler.id, { parentItemId: boiler.id }), "parentItemId", PARENT_LOOP);
    expect(await snapshot()).toBe(before);
    // The database refuses an item its own parent whatever writes it.
    await expect(database.db.update(equipmentItems).set({ parentItemId: boiler.id }).where(eq(equipmentItems.id, boiler.id))).rejects.toThrow();
  });

  it("keeps the children of an archived parent visible, and refuses an archived or unreachable new parent", async () => {
    await updateEquipmentItem(ctxFor(manager), pump.id, { parentItemId: boiler.id });
    await database.db.update(equipmentItems).set({ archivedAt: new Date() }).where(eq(equipmentItems.id, boiler.id));
    const pumpView = await getEquipmentItemRecord(ctxFor(manager), pump.id);
    expect(pumpView.parent).toMatchObject({ id: boiler.id, internalReference: "BOILER-1", archived: true });
    // Saving the record again keeps the archived parent.
    await updateEquipmentItem(ctxFor(manager), pump.id, { ...RECORD, parentItemId: boiler.id });
    expect((await row(pump.id)).parentItemId).toBe(boiler.id);
    await expectFieldError(updateEquipmentItem(ctxFor(manager), valve.id, { parentItemId: boiler.id }), "parentItemId", "equipment:errors.parentNotFound");
    await expectFieldError(updateEquipmentItem(ctxFor(manager), valve.id, { parentItemId: elsewhere.id }), "parentItemId", "equipment:errors.parentNotFound");
    await expectFieldError(updateEquipmentItem(ctxFor(manager), valve.id, { parentItemId: itemB.id }), "parentItemId", "equipment:errors.parentNotFound");
  });

  it("refuses another entity's item, an item out of reach and a technician, with nothing changed", async () => {
    const before = await snapshot();
    expect(await rejectionOf(updateEquipmentItem(ctxFor(managerB), boiler.id, RECORD))).toBeInstanceOf(NotFoundError);
    expect(await rejectionOf(updateEquipmentItem(ctxFor(manager), itemB.id, RECORD))).toBeInstanceOf(NotFoundError);
    expect(await rejectionOf(updateEquipmentItem(ctxFor(unlinkedManager), boiler.id, RECORD))).toBeInstanceOf(NotFoundError);
    expect(await rejectionOf(updateEquipmentItem(ctxFor(manager), elsewhere.id, RECORD))).toBeInstanceOf(NotFoundError);
    expect(await rejectionOf(updateEquipmentItem(ctxFor(technician), boiler.id, RECORD))).toBeInstanceOf(ForbiddenError);
    expect(await rejectionOf(updateEquipmentItem(ctxFor(managerB), boiler.id, { newFiles: [{ name: "manual.pdf", bytes: pdfBytes() }] }))).toBeInstanceOf(NotFoundError);
    expect(await rejectionOf(getEquipmentItemRecord(ctxFor(unlinkedManager), boiler.id))).toBeInstanceOf(NotFoundError);
    expect(await rejectionOf(getEquipmentItemRecord(ctxFor(managerB), boiler.id))).toBeInstanceOf(NotFoundError);
    expect(await snapshot()).toBe(before);
  });
});

describe("an item's documents and photos", () => {
  it("are added and removed by the record's verb, and served only within reach", async () => {
    const view = await updateEquipmentItem(ctxFor(manager), valve.id, { newFiles: [{ name: "manual.pdf", bytes: pdfBytes() }] });
    expect(view.files.map((f) => [f.name, f.mimeType])).toEqual([["manual.pdf", "application/pdf"]]);
    const fileId = view.files[0].id;
    expect((await getReadableFile(ctxFor(manager), fileId)).originalName).toBe("manual.pdf");
    expect((await getReadableFile(ctxFor(technician), fileId)).originalName).toBe("manual.pdf");
    expect(await rejectionOf(getReadableFile(ctxFor(unlinkedManager), fileId))).toBeInstanceOf(NotFoundError);
    expect(await rejectionOf(getReadableFile(ctxFor(managerB), fileId))).toBeInstanceOf(NotFoundError);
    // Another entity's manager cannot delete it through their own item.
    const before = await snapshot();
    await expectFieldError(updateEquipmentItem(ctxFor(managerB), itemB.id, { deletedFiles: [fileId] }), "deletedFiles", "errors.file.deleteFailed");
    expect(await snapshot()).toBe(before);

    await updateEquipmentItem(ctxFor(manager), valve.id, { deletedFiles: [fileId] });
    expect(await database.db.select().from(equipmentItemFiles).where(eq(equipmentItemFiles.equipmentItemId, valve.id))).toEqual([]);
    const [stored] = await database.db.select().from(storedFiles).where(eq(storedFiles.id, fileId));
    expect(stored.deletedAt).not.toBeNull();
    expect(await rejectionOf(getReadableFile(ctxFor(manager), fileId))).toBeInstanceOf(NotFoundError);
  });
});

describe("listItemRecords", () => {
  it("lists the items within reach, searched by serial number, internal reference or model, filtered by warranty ending within N days", async () => {
    const db = database.db;
    await db.update(equipmentItems).set({ archivedAt: null, parentItemId: null }).where(inArray(equipmentItems.id, [boiler.id, pump.id, valve.id]));
    await db.update(equipmentItems).set({ warrantyEndsOn: "2026-12-20", serialNumber: "SN-BOIL" }).where(eq(equipmentItems.id, boiler.id));
    await db.update(equipmentItems).set({ warrantyEndsOn: "2027-02-01", serialNumber: "SN-PUMP", model: "Magna3" }).where(eq(equipmentItems.id, pump.id));
    await db.update(equipmentItems).set({ warrantyEndsOn: "2026-12-01", serialNumber: "SN-VALVE" }).where(eq(equipmentItems.id, valve.id));
    await db.update(equipmentItems).set({ warrantyEndsOn: "2026-12-10" }).where(eq(equipmentItems.id, elsewhere.id));
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(new Date("2026-12-07T10:00:00Z"));
    try {
      const refs = async (user: User, q: string, days: number | null) =>
        (await listItemRecords(ctxFor(user), listQuery("warrantyEndsOn", { q }), { warrantyWithinDays: days })).items.map((i) => i.internalReference);
      // The manager reaches one building: the far item is never listed; the valve's warranty has ended.
      expect(await refs(manager, "", null)).toEqual(["VALVE-1", "BOILER-1", "PUMP-1"]);
      expect(await refs(manager, "", 30)).toEqual(["BOILER-1"]);
      expect(await refs(manager, "", 60)).toEqual(["BOILER-1", "PUMP-1"]);
      expect(await refs(manager, "sn-pu", null)).toEqual(["PUMP-1"]);
      // Found by internal reference and by model too, never another entity's or an unreached item.
      expect(await refs(manager, "valve-1", null)).toEqual(["VALVE-1"]);
      expect(await refs(manager, "magna", null)).toEqual(["PUMP-1"]);
      expect(await refs(manager, "B-1", null)).toEqual([]);
      expect(await refs(manager, "FAR-1", null)).toEqual([]);
      expect(await refs(managerB, "magna", null)).toEqual([]);
      expect(await refs(unlinkedManager, "", null)).toEqual([]);
      expect(await refs(managerB, "", null)).toEqual(["B-1"]);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe("importEquipmentItemsBulk (the import's writer, called as the import job calls it)", () => {
  beforeEach(async () => {
    await database.db.update(equipmentItems).set({ parentItemId: null, archivedAt: null }).where(inArray(equipmentItems.id, [boiler.id, pump.id, valve.id]));
  });
  const line = (item: EquipmentItem, extra: Record<string, unknown> = {}) => ({ id: item.id, roomId: item.roomId, equipmentTypeId: item.equipmentTypeId, internalReference: null, ...extra });

  it("refuses a technician, another entity's or an unreached item or room, a moved item and a parent loop, changing nothing", async () => {
    await updateEquipmentItem(ctxFor(manager), pump.id, { parentItemId: boiler.id });
    const before = await snapshot();
    expect(await rejectionOf(importEquipmentItemsBulk(ctxFor(technician), [line(boiler, { serialNumber: "X" })]))).toBeInstanceOf(ForbiddenError);
    expect(await rejectionOf(importEquipmentItemsBulk(ctxFor(manager), [line(itemB, { serialNumber: "X" })]))).toMatchObject({ code: "ROOM_NOT_FOUND" });
    expect(await rejectionOf(importEquipmentItemsBulk(ctxFor(manager), [line(boiler, { id: itemB.id })]))).toBeInstanceOf(NotFoundError);
    expect(await rejectionOf(importEquipmentItemsBulk(ctxFor(manager), [line(elsewhere)]))).toMatchObject({ code: "ROOM_NOT_FOUND" });
    expect(await rejectionOf(importEquipmentItemsBulk(ctxFor(manager), [line(boiler, { equipmentTypeId: pump.equipmentTypeId })]))).toMatchObject({ code: "ITEM_MOVED" });
    await expectFieldError(importEquipmentItemsBulk(ctxFor(manager), [line(boiler, { parentItemId: pump.id })]), "parentItemId", PARENT_LOOP);
    await expectFieldError(importEquipmentItemsBulk(ctxFor(manager), [line(valve, { parentItemId: itemB.id })]), "parentItemId", "equipment:errors.parentNotFound");
    expect(await snapshot()).toBe(before);
  });

  it("updates the fields a line carries, keeps the others, and creates the others' items numbered after the room's", async () => {
    const ids = await importEquipmentItemsBulk(ctxFor(manager), [
      line(valve, { model: "V2", parentItemId: boiler.id }),
      { id: null, roomId: valve.roomId, equipmentTypeId: valve.equipmentTypeId, internalReference: "NEW-1", serialNumber: "SN-NEW" },
      { id: null, roomId: valve.roomId, equipmentTypeId: valve.equipmentTypeId, internalReference: null },
    ]);
    expect(ids[0]).toBe(valve.id);
    expect(await row(valve.id)).toMatchObject({ model: "V2", parentItemId: boiler.id, internalReference: "VALVE-1" });
    expect(await row(ids[1])).toMatchObject({ internalReference: "NEW-1", serialNumber: "SN-NEW", roomId: valve.roomId, parentItemId: null });
    // The room has the valve and the new item of that generic equipment already: the default reference is its third.
    expect((await row(ids[2])).internalReference).toMatch(/ 3$/);
    // Named by its reference in its room (any case): the valve, which keeps its reference and parent.
    expect(await importEquipmentItemsBulk(ctxFor(manager), [{ id: null, roomId: valve.roomId, equipmentTypeId: valve.equipmentTypeId, internalReference: "valve-1", serialNumber: "SN-V" }])).toEqual([valve.id]);
    expect(await row(valve.id)).toMatchObject({ serialNumber: "SN-V", internalReference: "VALVE-1", parentItemId: boiler.id, model: "V2" });
    expect(await rejectionOf(importEquipmentItemsBulk(ctxFor(manager), [line(valve), { ...line(valve), id: null, internalReference: "VALVE-1" }]))).toMatchObject({ code: "DUPLICATE_ITEM" });
  });
});
