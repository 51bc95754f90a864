import fs from "node:fs";
import { and, eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Database } from "~/db/client.server";
import { BulkUploadErrorMessageType, BulkUploadType, DataJobStatus, Role, UserLanguage } from "~/db/enums";
import { auditLog, dataJobs, type Entity, type EquipmentItem, equipmentItems, reportIdentifiers, type User } from "~/db/schema";
import { getT } from "~/i18n.server";
import { getExport, getExportDownload } from "~/modules/exports/queries.server";
import { startExport } from "~/modules/exports/service.server";
import { createBuilding, createEntity, createEquipmentItem, createEquipmentType, createRoom, createUser, linkUserTo } from "#tests/factories";
import { rejectionOf } from "#tests/service-helpers";
import { createTestServices, type TestServices } from "#tests/test-context";
import { createTestDatabase } from "#tests/test-db";
import { type DataJobLineError, ImportRowsError } from "./check.server";
import { startImport } from "./service.server";

/**
 * The equipment items' import (issue 63, decision 010): an export imports back as it is; lines naming
 * an item (identifier, else internal reference in its room) update it, others create items; a faulty
 * line writes nothing and says why in the reader's language; another entity's or an unreached item is
 * never matched; a parent loop is refused.
 */
let database: Database;
let services: TestServices;
let entityA: Entity;
let entityB: Entity;
let admin: User;
let dutchAdmin: User;
let manager: User;
let adminB: User;
let boiler: EquipmentItem & { reportCode: string | null };
let pump: EquipmentItem & { reportCode: string | null };
let far: EquipmentItem & { reportCode: string | null };
let itemB: EquipmentItem & { reportCode: string | null };

const ctxOf = (user: User) => services.ctx(user.entityId, { id: user.id, role: user.role });
const HEADER = ["Equipment", "Internal reference", "Serial number", "Manufacturer", "Model", "Installation date", "Warranty end date", "Supplier", "Notes", "Room", "Building", "Part of (identifier)", "Report identifier"];
const csv = (lines: string[][]) => ({ bytes: new TextEncoder().encode([HEADER, ...lines].map((l) => l.join(",")).join("\r\n")), name: "items.csv" });

async function items(entityId: number) {
  const rows = await database.db.select().from(equipmentItems).where(eq(equipmentItems.entityId, entityId)).orderBy(equipmentItems.id);
  return rows.map(({ updatedAt: _u, createdAt: _c, ...r }) => r);
}

async function snapshot() {
  const all = await database.db.select().from(equipmentItems).orderBy(equipmentItems.id);
  const codes = await database.db.select().from(reportIdentifiers).orderBy(reportIdentifiers.id);
  const jobs = await database.db.select().from(dataJobs).where(eq(dataJobs.kind, 0));
  const audit = await database.db.select().from(auditLog).where(eq(auditLog.recordType, "equipmentItem"));
  return JSON.stringify({ all, codes, jobs, audit });
}

async function exported(user: User, format: "csv" | "xlsx"): Promise<Uint8Array> {
  const ctx = ctxOf(user);
  const started = await startExport(ctx, { type: "equipment-items", format, filters: {} });
  await services.queue.drain();
  expect((await getExport(ctx, started.id)).status).toBe(DataJobStatus.SUCCEEDED);
  const { path } = await getExportDownload(ctx, services.files, started.id);
  return new Uint8Array(fs.readFileSync(path));
}

async function imported(user: User, file: { bytes: Uint8Array; name: string }) {
  const job = await startImport(ctxOf(user), { type: BulkUploadType.EQUIPMENT_ITEMS, file });
  await services.queue.drain();
  const [done] = await database.db.select().from(dataJobs).where(eq(dataJobs.id, job.id));
  expect({ status: done.status, errors: done.errors, message: done.errorMessage }).toEqual({ status: DataJobStatus.SUCCEEDED, errors: [], message: null });
}

async function refused(user: User, file: { bytes: Uint8Array; name: string }): Promise<DataJobLineError[]> {
  const before = await snapshot();
  const error = await rejectionOf<ImportRowsError>(startImport(ctxOf(user), { type: BulkUploadType.EQUIPMENT_ITEMS, file }));
  expect(error).toBeInstanceOf(ImportRowsError);
  await services.queue.drain();
  expect(await snapshot()).toBe(before);
  return error.preview.errors;
}

beforeAll(async () => {
  database = await createTestDatabase();
  services = await createTestServices(database);
  const db = database.db;
  entityA = await createEntity(db, { name: "Items import A" });
  entityB = await createEntity(db, { name: "Items import B" });
  admin = await createUser(db, { entityId: entityA.id, role: Role.ADMINISTRATOR, language: UserLanguage.EN });
  dutchAdmin = await createUser(db, { entityId: entityA.id, role: Role.ADMINISTRATOR, language: UserLanguage.NL });
  manager = await createUser(db, { entityId: entityA.id, role: Role.FACILITY_MANAGER });
  adminB = await createUser(db, { entityId: entityB.id, role: Role.ADMINISTRATOR });
  const hall = await createBuilding(db, { entityId: entityA.id, name: "Hall" });
  const annex = await createBuilding(db, { entityId: entityA.id, name: "Annex" });
  await linkUserTo(db, { entityId: entityA.id, userId: manager.id, buildingId: hall.id });
  const plant = await createRoom(db, { entityId: entityA.id, buildingId: hall.id, name: "Plant room" });
  const store = await createRoom(db, { entityId: entityA.id, buildingId: annex.id, name: "Store" });
  const boilers = await createEquipmentType(db, { entityId: entityA.id, name: "Boiler" });
  const pumps = await createEquipmentType(db, { entityId: entityA.id, name: "Pump" });
  boiler = await createEquipmentItem(db, {
    entityId: entityA.id,
    roomId: plant.id,
    equipmentTypeId: boilers.id,
    internalReference: "BOILER-1",
    serialNumber: "SN-1, rev 2",
    manufacturer: "Viessmann",
    installedOn: "2024-03-15",
    warrantyEndsOn: "2029-03-14",
    notes: 'Say "hi"\nthen check',
  });
  pump = await createEquipmentItem(db, { entityId: entityA.id, roomId: plant.id, equipmentTypeId: pumps.id, internalReference: "PUMP-1", model: "Magna3", parentItemId: boiler.id });
  far = await createEquipmentItem(db, { entityId: entityA.id, roomId: store.id, equipmentTypeId: pumps.id, internalReference: "FAR-1" });
  const roomB = await createRoom(db, { entityId: entityB.id, name: "Plant room" });
  const boilersB = await createEquipmentType(db, { entityId: entityB.id, name: "Boiler" });
  itemB = await createEquipmentItem(db, { entityId: entityB.id, roomId: roomB.id, equipmentTypeId: boilersB.id, internalReference: "BOILER-1" });
});

beforeEach(async () => {
  await services.clearJobs();
});

afterAll(async () => {
  await services?.close();
  await database?.close();
});

describe("the equipment items' import", () => {
  it("imports an export back as it is (CSV in English, .xlsx in Dutch): nothing changes, nothing is added", async () => {
    const before = await items(entityA.id);
    for (const [user, format] of [[admin, "csv"], [dutchAdmin, "xlsx"]] as const) {
      const bytes = await exported(user, format);
      if (format === "csv") {
        const [header, ...lines] = new TextDecoder().decode(bytes).replace(/^\ufeff/, "").split("\r\n");
        expect(header).toBe(HEADER.join(";"));
        expect(lines.find((l) => l.startsWith("Pump;PUMP-1;"))).toBe(`Pump;PUMP-1;;;Magna3;;;;;Plant room;Hall;${boiler.reportCode};${pump.reportCode}`);
      }
      await imported(user, { bytes, name: `items.${format}` });
      expect(await items(entityA.id)).toEqual(before);
    }
  });

  it("updates the items the lines name and creates the others, with a report identifier and a parent", async () => {
    await imported(
      admin,
      csv([
        ["Boiler", "", "SN-NEW", "Vaillant", "", "2025-01-31", "31/01/2030", "", "", "Plant room", "Hall", "", boiler.reportCode!],
        ["pump", "far-1", "SN-FAR", "", "", "", "", "", "", "Store", "", "", ""],
        ["Pump", "", "SN-3", "", "", "", "", "", "", "Plant room", "Hall", "BOILER-1", ""],
      ]),
    );
    const [b, f] = await Promise.all([boiler.id, far.id].map(async (id) => (await database.db.select().from(equipmentItems).where(eq(equipmentItems.id, id)))[0]));
    // Blank internal reference keeps the item's; empty record fields are cleared (as the form does).
    expect(b).toMatchObject({ internalReference: "BOILER-1", serialNumber: "SN-NEW", manufacturer: "Vaillant", model: null, installedOn: "2025-01-31", warrantyEndsOn: "2030-01-31", notes: null, parentItemId: null });
    expect(f).toMatchObject({ internalReference: "FAR-1", serialNumber: "SN-FAR", roomId: far.roomId });
    const created = (await items(entityA.id)).filter((i) => ![boiler.id, pump.id, far.id].includes(i.id));
    expect(created).toEqual([expect.objectContaining({ internalReference: "Pump 2", serialNumber: "SN-3", parentItemId: boiler.id, roomId: pump.roomId, equipmentTypeId: pump.equipmentTypeId })]);
    const codes = await database.db.select().from(reportIdentifiers).where(eq(reportIdentifiers.equipmentItemId, created[0].id));
    expect(codes).toHaveLength(1);
    const audit = await database.db.select().from(auditLog).where(and(eq(auditLog.recordType, "equipmentItem"), inArray(auditLog.recordId, [String(boiler.id), String(created[0].id)])));
    expect(audit.filter((a) => a.recordId === String(created[0].id)).map((a) => a.action)).toEqual(["equipmentItem.create"]);
    expect(audit.filter((a) => a.recordId === String(boiler.id)).map((a) => a.action)).toContain("equipmentItem.update");
  });

  it("leaves a field whose column the file leaves out as it is", async () => {
    const [before] = await database.db.select().from(equipmentItems).where(eq(equipmentItems.id, pump.id));
    const bytes = new TextEncoder().encode(`Equipment,Room,Report identifier,Serial number\r\nPump,Plant room,${pump.reportCode},SN-P\r\n`);
    await imported(admin, { bytes, name: "serials.csv" });
    const [after] = await database.db.select().from(equipmentItems).where(eq(equipmentItems.id, pump.id));
    expect(after).toMatchObject({ serialNumber: "SN-P", model: before.model, parentItemId: before.parentItemId, internalReference: "PUMP-1" });
  });

  it("refuses a faulty line with its fault in the reader's language, and writes nothing of the file", async () => {
    const errors = await refused(
      admin,
      csv([
        ["Boiler", "BOILER-1", "SN-OK", "", "", "", "", "", "", "Plant room", "", "", ""],
        ["Pump", "PUMP-9", "", "", "", "2025-02-30", "", "", "", "Plant room", "", "", ""],
      ]),
    );
    expect(errors).toEqual([{ line: 3, column: "installedOn", type: BulkUploadErrorMessageType.INVALID_VALUE, message: "imports:errors.date" }]);
    expect(getT("en")("imports:errors.date")).toBe("Please write a date as YYYY-MM-DD or DD/MM/YYYY");
    expect(getT("nl-BE")("imports:errors.date")).toBe("Schrijf een datum als JJJJ-MM-DD of DD/MM/JJJJ");
  });

  it("never matches another entity's item, room or generic equipment, nor an item out of the importer's reach", async () => {
    const errors = await refused(admin, csv([["Boiler", "", "SN-X", "", "", "", "", "", "", "Plant room", "", "", itemB.reportCode!]]));
    expect(errors).toEqual([{ line: 2, column: "identifier", type: BulkUploadErrorMessageType.UNKNOWN_REFERENCE, message: "imports:errors.unknownReference" }]);
    const fromB = await refused(adminB, csv([["Boiler", "", "SN-X", "", "", "", "", "", "", "Plant room", "", "", boiler.reportCode!]]));
    expect(fromB).toEqual([{ line: 2, column: "identifier", type: BulkUploadErrorMessageType.UNKNOWN_REFERENCE, message: "imports:errors.unknownReference" }]);
    // The manager reaches the hall only: the annex's store and its item are not theirs to name.
    const unreached = await refused(manager, csv([["Pump", "", "SN-X", "", "", "", "", "", "", "Store", "", "", far.reportCode!]]));
    expect(unreached.map((e) => [e.column, e.type])).toEqual([
      ["room", BulkUploadErrorMessageType.UNKNOWN_REFERENCE],
      ["identifier", BulkUploadErrorMessageType.UNKNOWN_REFERENCE],
    ]);
    const [stillB] = await database.db.select().from(equipmentItems).where(eq(equipmentItems.id, itemB.id));
    expect(stillB.serialNumber).toBeNull();
  });

  it("refuses a parent loop, with the stored parents or within the file, and an item moved to another room", async () => {
    // The pump belongs to the boiler: the boiler cannot belong to the pump.
    const loop = await refused(admin, csv([["Boiler", "", "", "", "", "", "", "", "", "Plant room", "", pump.reportCode!, boiler.reportCode!]]));
    expect(loop).toEqual([{ line: 2, column: "parent", type: BulkUploadErrorMessageType.INVALID_VALUE, message: "equipment:errors.parentLoop" }]);
    const self = await refused(admin, csv([["Pump", "", "", "", "", "", "", "", "", "Store", "", "FAR-1", far.reportCode!]]));
    expect(self.map((e) => e.message)).toEqual(["equipment:errors.parentLoop"]);
    const both = await refused(
      admin,
      csv([
        ["Pump", "PUMP-1", "", "", "", "", "", "", "", "Plant room", "", "BOILER-1", ""],
        ["Boiler", "BOILER-1", "", "", "", "", "", "", "", "Plant room", "", "PUMP-1", ""],
      ]),
    );
    expect(both.map((e) => [e.line, e.column, e.message])).toEqual([
      [2, "parent", "equipment:errors.parentLoop"],
      [3, "parent", "equipment:errors.parentLoop"],
    ]);
    const moved = await refused(admin, csv([["Pump", "", "", "", "", "", "", "", "", "Store", "", "", pump.reportCode!]]));
    expect(moved).toEqual([{ line: 2, column: "identifier", type: BulkUploadErrorMessageType.INVALID_VALUE, message: "imports:errors.itemMoved" }]);
  });
});
