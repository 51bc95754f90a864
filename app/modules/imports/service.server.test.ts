import { and, asc, eq, inArray, isNull } from "drizzle-orm";
import ExcelJS from "exceljs";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Database } from "~/db/client.server";
import { BulkUploadErrorCode, BulkUploadErrorMessageType, BulkUploadType, DataJobStatus, NotificationType, Role } from "~/db/enums";
import { apiTokens, auditLog, buildings, dataJobs, type Entity, equipmentCategories, equipmentTypes, facilities, incidentTypes, maintenanceTypes, notificationDetails, notifications, reportIdentifiers, rooms, roomTypes, type User, userLinkedObjects } from "~/db/schema";
import { getT } from "~/i18n.server";
import { ConflictError, ForbiddenError, NotFoundError } from "~/lib/errors";
import { findCounterDrift } from "~/modules/facilities/counters.server";
import { createBuilding, createEntity, createEquipmentCategory, createFacility, createRoomType, createUser, linkUserTo, pngBytes, streamedWorkbook } from "#tests/factories";
import { listAuditRows } from "~/modules/administration/queries.server";
import { authenticateApiToken } from "~/modules/api-tokens/authenticate.server";
import { createApiToken } from "~/modules/api-tokens/service.server";
import { rejectionOf } from "#tests/service-helpers";
import { createTestServices, type TestServices } from "#tests/test-context";
import { createTestDatabase } from "#tests/test-db";
import { ImportFileError, ImportRowsError } from "./check.server";
import { getImportJob, listImportJobs } from "./queries.server";
import { runImport } from "./run.server";
import { previewImport, startImport } from "./service.server";
import { csvTemplate, xlsxTemplate } from "./templates.server";
import { importTypeOf } from "./columns";
import { notificationTitle } from "~/modules/notifications/present";

let database: Database;
let services: TestServices;
let entity: Entity;
let other: Entity;
let admin: User;
let manager: User;
let technician: User;
let otherAdmin: User;

const ctxOf = (user: User) => services.ctx(user.entityId, { id: user.id, role: user.role });
const csv = (text: string, name = "file.csv") => ({ bytes: new TextEncoder().encode(text), name });
const label = getT("en") as unknown as (key: string, params?: Record<string, unknown>) => string;

/** Starts an import of `text` as `user` and runs the queue (the job, then its change's notification). */
async function importCsv(user: User, type: BulkUploadType, text: string) {
  const job = await startImport(ctxOf(user), { type, file: csv(text) });
  await services.queue.drain();
  return (await database.db.select().from(dataJobs).where(eq(dataJobs.id, job.id)))[0];
}

async function toldOf(type: NotificationType): Promise<number[]> {
  const rows = await database.db
    .select({ userId: notifications.userId })
    .from(notifications)
    .innerJoin(notificationDetails, eq(notificationDetails.id, notifications.detailsId))
    .where(eq(notificationDetails.type, type));
  return rows.map((r) => r.userId);
}

/** The titles, in English, of the notifications an import job gave. */
async function titlesOf(dataJobId: number): Promise<string[]> {
  const rows = await database.db
    .select({ type: notificationDetails.type, subject: notificationDetails.subject, message: notificationDetails.message, incidentId: notificationDetails.incidentId })
    .from(notificationDetails)
    .where(eq(notificationDetails.dataJobId, dataJobId));
  return rows.map((n) => {
    const { key, params } = notificationTitle(n);
    return label(key, params);
  });
}

beforeAll(async () => {
  database = await createTestDatabase();
  services = await createTestServices(database);
  entity = await createEntity(database.db);
  other = await createEntity(database.db);
  admin = await createUser(database.db, { entityId: entity.id, role: Role.ADMINISTRATOR });
  manager = await createUser(database.db, { entityId: entity.id, role: Role.FACILITY_MANAGER });
  technician = await createUser(database.db, { entityId: entity.id, role: Role.TECHNICIAN });
  otherAdmin = await createUser(database.db, { entityId: other.id, role: Role.ADMINISTRATOR });
});

afterAll(async () => {
  await services.close();
  await database.close();
});

beforeEach(async () => {
  // Each test starts with no import waiting (one import at a time per entity).
  await database.db.update(dataJobs).set({ status: DataJobStatus.FAILED }).where(eq(dataJobs.status, DataJobStatus.QUEUED));
});

describe("reading files", () => {
  it("reads CSV with a byte order mark and semicolons, quotes and line breaks inside quotes, and ignores empty lines", async () => {
    const preview = await previewImport(ctxOf(admin), {
      type: BulkUploadType.FACILITY,
      file: csv('\ufeffName *;Description\r\n"North; site";"two\r\nlines"\r\n;\r\nSouth;\r\n\r\n;;\r\n'),
    });
    expect(preview).toEqual({ type: BulkUploadType.FACILITY, total: 2, errors: [] });
  });

  it("refuses what is not a spreadsheet, an empty file, no file and a file over the limit", async () => {
    const ctx = ctxOf(admin);
    const png = await rejectionOf<ImportFileError>(previewImport(ctx, { type: BulkUploadType.FACILITY, file: { bytes: pngBytes(4, 4), name: "rooms.xlsx" } }));
    expect(png.code).toBe("NOT_A_SPREADSHEET");
    const zip = await rejectionOf<ImportFileError>(previewImport(ctx, { type: BulkUploadType.FACILITY, file: { bytes: new Uint8Array([0x50, 0x4b, 3, 4, 0, 0]), name: "a.xlsx" } }));
    expect(zip.code).toBe("NOT_A_SPREADSHEET");
    expect((await rejectionOf<ImportFileError>(previewImport(ctx, { type: BulkUploadType.FACILITY, file: csv("") }))).code).toBe("FILE_EMPTY");
    expect((await rejectionOf<ImportFileError>(previewImport(ctx, { type: BulkUploadType.FACILITY, file: null }))).code).toBe("FILE_REQUIRED");
    const big = new Uint8Array(services.files.maxBytes + 1).fill(65);
    const tooLarge = await rejectionOf<ImportFileError>(previewImport(ctx, { type: BulkUploadType.FACILITY, file: { bytes: big, name: "big.csv" } }));
    expect(tooLarge.code).toBe("FILE_TOO_LARGE");
    expect(tooLarge.messageKey).toBe("imports:errors.tooLarge");
  });

  it("refuses a workbook of 60,000 lines as too long (at most 50,000), and a CSV line whose quote is never closed", async () => {
    const bytes = await streamedWorkbook(["Name *", "Description"], 60_000, { prefix: "Site", sharedStrings: true });
    const long = await rejectionOf<ImportFileError>(previewImport(ctxOf(admin), { type: BulkUploadType.FACILITY, file: { bytes, name: "sites.xlsx" } }));
    expect(long).toMatchObject({ code: "TOO_MANY_ROWS", errorCode: BulkUploadErrorCode.INVALID_TEMPLATE_DATA, params: { max: 50_000 } });
    expect(label(long.messageKey, long.params)).toBe("The file has too many lines (at most 50000)");
    const open = await rejectionOf<ImportFileError>(previewImport(ctxOf(admin), { type: BulkUploadType.FACILITY, file: csv('Name *;Description\nNorth;\n"South;\nWest;\n') }));
    expect(open).toMatchObject({ code: "UNREADABLE_LINE", errorCode: BulkUploadErrorCode.INVALID_TEMPLATE_DATA });
    expect(label(open.messageKey, open.params)).toBe("Line 3 cannot be read: a quote opened in it is never closed");
  });

  it("answers Unknown import type (code 1) for a type that is not one of the nine (SPEC.md's eight and the equipment items)", async () => {
    for (const type of [9, -1, "rooms", null, 2 ** 31]) {
      const error = await rejectionOf<ImportFileError>(previewImport(ctxOf(admin), { type, file: csv("Name\nA\n") }));
      expect(error).toBeInstanceOf(ImportFileError);
      expect(error.errorCode).toBe(BulkUploadErrorCode.UNKNOWN_IMPORT_TYPE);
      expect(label(error.messageKey)).toBe("Unknown import type");
    }
  });

  it("answers invalid template data (code 2) for a file without a mandatory column, or without lines", async () => {
    const missing = await rejectionOf<ImportFileError>(previewImport(ctxOf(admin), { type: BulkUploadType.ROOMS, file: csv("Name *;Floor *\nA;1\n") }));
    expect(missing.errorCode).toBe(BulkUploadErrorCode.INVALID_TEMPLATE_DATA);
    expect(label(missing.messageKey)).toBe("Missing data in the file, please use the template and complete the mandatory columns");
    const empty = await rejectionOf<ImportFileError>(previewImport(ctxOf(admin), { type: BulkUploadType.FACILITY, file: csv("Name *\n\n\n") }));
    expect(empty.code).toBe("NO_ROWS");
  });
});

describe("the preview", () => {
  it("lists every fault of every line at once, in line order, and writes nothing", async () => {
    const facility = await createFacility(database.db, { entityId: entity.id, name: "Preview site" });
    const building = await createBuilding(database.db, { entityId: entity.id, facilityId: facility.id, name: "Preview hall" });
    await createRoomType(database.db, { entityId: entity.id, name: "Preview office" });
    const before = await database.db.select().from(rooms).where(eq(rooms.entityId, entity.id));
    const file = [
      "Name *,Building *,Room type *,Floor *,Description",
      "R1,Preview hall,Preview office,1,",
      ",Nowhere,Preview office,,",
      "R3,Preview hall,Unknown type,2,",
      "R1,preview HALL,preview office,1,",
      `R5,#${building.shortId},Preview office,${"x".repeat(51)},`,
      "",
      "",
    ].join("\n");
    const preview = await previewImport(ctxOf(admin), { type: BulkUploadType.ROOMS, file: csv(file) });
    expect(preview.total).toBe(5);
    expect(preview.errors.map((e) => [e.line, e.column, e.type, e.message ?? null])).toEqual([
      [3, "name", BulkUploadErrorMessageType.MISSING_MANDATORY_COLUMN, null],
      [3, "building", BulkUploadErrorMessageType.UNKNOWN_REFERENCE, "imports:errors.unknownReference"],
      [3, "floor", BulkUploadErrorMessageType.MISSING_MANDATORY_COLUMN, null],
      [4, "roomType", BulkUploadErrorMessageType.UNKNOWN_REFERENCE, "imports:errors.unknownReference"],
      [5, "name", BulkUploadErrorMessageType.DUPLICATE_IN_FILE, "imports:errors.duplicateInFile"],
      [6, "floor", BulkUploadErrorMessageType.INVALID_VALUE, "common:validation.tooLong"],
    ]);
    expect(preview.errors[4].other).toBe(2);
    expect(await database.db.select().from(rooms).where(eq(rooms.entityId, entity.id))).toEqual(before);
  });

  it("reports a record that exists already, and a name several records share", async () => {
    await createEquipmentCategory(database.db, { entityId: entity.id, name: "Plumbing" });
    const preview = await previewImport(ctxOf(admin), { type: BulkUploadType.EQUIPMENT_CATEGORIES, file: csv("Name *,Tags\nplumbing,\nLifts,a;b;c;d\n") });
    expect(preview.errors.map((e) => [e.line, e.column, e.message])).toEqual([
      [2, "name", "imports:errors.alreadyExists"],
      [3, "tags", "common:tags.tooMany"],
    ]);
    const a = await createFacility(database.db, { entityId: entity.id, name: "Twin" });
    await createFacility(database.db, { entityId: entity.id, name: "Twin" });
    const twin = await previewImport(ctxOf(admin), { type: BulkUploadType.BUILDING, file: csv(`Name *,Facility *\nB1,Twin\nB2,${a.shortId}\n`) });
    expect(twin.errors.map((e) => [e.line, e.column, e.message])).toEqual([[2, "facility", "imports:errors.ambiguous"]]);
  });

  it("reads a field whose header is its area's own label, in any language, and names it so on a fault", async () => {
    const file = csv("Nom *,Durée estimée (minutes)\nAudit,abc\nRevue,90\n");
    const preview = await previewImport(ctxOf(admin), { type: BulkUploadType.MAINTENANCE_TYPES, file });
    expect(preview.errors.map((e) => [e.line, e.column, e.label])).toEqual([[2, "estimatedDuration", "maintenance:form.estimatedDuration"]]);
    expect(label(preview.errors[0].label!)).toBe("Estimated duration (minutes)");
    expect(getT("nl-BE")(preview.errors[0].label!)).toBe("Geschatte duur (minuten)");
  });

  it("needs a facility before buildings", async () => {
    const lone = await createEntity(database.db);
    const loneAdmin = await createUser(database.db, { entityId: lone.id, role: Role.ADMINISTRATOR });
    const error = await rejectionOf<ImportFileError>(previewImport(ctxOf(loneAdmin), { type: BulkUploadType.BUILDING, file: csv("Name *,Facility *\nB,F\n") }));
    expect(error.code).toBe("FACILITY_NEEDED");
    expect(label(error.messageKey)).toBe("A facility is needed before importing buildings");
  });

  it("lets a facility manager name only the places they reach", async () => {
    const far = await createFacility(database.db, { entityId: entity.id, name: "Far site" });
    await createBuilding(database.db, { entityId: entity.id, facilityId: far.id, name: "Far hall" });
    await createRoomType(database.db, { entityId: entity.id, name: "Far type" });
    const file = csv("Name *,Building *,Room type *,Floor *\nX,Far hall,Far type,0\n");
    expect((await previewImport(ctxOf(admin), { type: BulkUploadType.ROOMS, file })).errors).toEqual([]);
    const seen = await previewImport(ctxOf(manager), { type: BulkUploadType.ROOMS, file });
    expect(seen.errors.map((e) => e.column)).toEqual(["building"]);
  });
});

describe("every import type", () => {
  // For each type: a file with faults on two lines and in two columns or more; every one is reported, in order.
  const cases: Array<[string, BulkUploadType, string, Array<[number, string]>]> = [
    ["facility", BulkUploadType.FACILITY, `Name *,Description\n,ok\nF2,${"d".repeat(2001)}\n`, [[2, "name"], [3, "description"]]],
    ["building", BulkUploadType.BUILDING, "Name *,Facility *,Country (2 letters)\n,Nowhere,BE\nB2,Nowhere,BEL\n", [[2, "name"], [2, "facility"], [3, "facility"], [3, "country"]]],
    ["room types", BulkUploadType.ROOM_TYPES, `Name *,Tags\n,a\nT2,${"t".repeat(21)}\n`, [[2, "name"], [3, "tags"]]],
    ["equipment categories", BulkUploadType.EQUIPMENT_CATEGORIES, "Name *,Tags\n,x\nC2,a;b;c;d\n", [[2, "name"], [3, "tags"]]],
    ["equipment types", BulkUploadType.EQUIPMENT_TYPES, "Name *,Category *\n,Nothing\nE2,\n", [[2, "name"], [2, "category"], [3, "category"]]],
    ["maintenance types", BulkUploadType.MAINTENANCE_TYPES, "Name *,Repeat,Every\n,Weekly-ish,\nM2,Weeks,0\n", [[2, "name"], [2, "occurrenceUnit"], [3, "occurrenceInterval"]]],
    ["rooms", BulkUploadType.ROOMS, "Name *,Building *,Room type *,Floor *\n,Nowhere,Nothing,1\nR2,,,\n", [[2, "name"], [2, "building"], [2, "roomType"], [3, "building"], [3, "roomType"], [3, "floor"]]],
    ["incident type", BulkUploadType.INCIDENT_TYPE, "Name (English),Name (French),Default priority *\n,,Someday\nI2,,\n", [[2, "nameEn"], [2, "defaultPriority"], [3, "defaultPriority"]]],
  ];
  for (const [name, type, file, expected] of cases) {
    it(`reports every fault of a file of ${name}, and imports nothing`, async () => {
      const lone = await createEntity(database.db);
      const loneAdmin = await createUser(database.db, { entityId: lone.id, role: Role.ADMINISTRATOR });
      await createFacility(database.db, { entityId: lone.id, name: "Lone site" });
      const preview = await previewImport(ctxOf(loneAdmin), { type, file: csv(file) });
      expect(preview.errors.map((e) => [e.line, e.column])).toEqual(expected);
      const error = await rejectionOf<ImportRowsError>(startImport(ctxOf(loneAdmin), { type, file: csv(file) }));
      expect(error.preview.errors).toHaveLength(expected.length);
      expect(await listImportJobs(ctxOf(loneAdmin))).toEqual([]);
    });
  }
});

describe("access", () => {
  it("refuses technicians everything (Forbidden), and another entity's import is not found", async () => {
    const file = csv("Name *\nT\n");
    expect(await rejectionOf(previewImport(ctxOf(technician), { type: BulkUploadType.FACILITY, file }))).toBeInstanceOf(ForbiddenError);
    expect(await rejectionOf(startImport(ctxOf(technician), { type: BulkUploadType.FACILITY, file }))).toBeInstanceOf(ForbiddenError);
    expect(await rejectionOf(listImportJobs(ctxOf(technician)))).toBeInstanceOf(ForbiddenError);
    const job = await importCsv(admin, BulkUploadType.FACILITY, "Name *\nAccess site\n");
    expect(await rejectionOf(getImportJob(ctxOf(technician), job.id))).toBeInstanceOf(ForbiddenError);
    expect(await rejectionOf(getImportJob(ctxOf(otherAdmin), job.id))).toBeInstanceOf(NotFoundError);
    expect(await rejectionOf(getImportJob(ctxOf(admin), 2 ** 31 - 1))).toBeInstanceOf(NotFoundError);
    expect((await listImportJobs(ctxOf(otherAdmin))).map((j) => j.id)).not.toContain(job.id);
    expect((await getImportJob(ctxOf(manager), job.id)).status).toBe(DataJobStatus.SUCCEEDED);
  });
});

describe("importing", () => {
  it("imports facilities as one job, links them to the facility manager who imported them, and tells them", async () => {
    const job = await importCsv(manager, BulkUploadType.FACILITY, "Name *,Description\nImported north,Up\nImported south,\n");
    expect(job).toMatchObject({ status: DataJobStatus.SUCCEEDED, progress: 100, totalRows: 2, processedRows: 2, errorCode: 0 });
    const made = await database.db.select().from(facilities).where(and(eq(facilities.entityId, entity.id), eq(facilities.description, "Up")));
    expect(made.map((f) => f.name)).toEqual(["Imported north"]);
    const links = await database.db.select().from(userLinkedObjects).where(eq(userLinkedObjects.facilityId, made[0].id));
    expect(links.map((l) => l.userId)).toEqual([manager.id]);
    const audit = await database.db.select().from(auditLog).where(and(eq(auditLog.recordType, "facility"), eq(auditLog.recordId, String(made[0].id))));
    expect(audit).toMatchObject([{ action: "facility.create", actorId: manager.id, details: { dataJobId: job.id } }]);
    expect(await toldOf(NotificationType.IMPORT_FACILITIES_SUCCESS)).toContain(manager.id);
    expect(await titlesOf(job.id)).toEqual(["Facilities import succeeded"]);
  });

  it("writes the audit rows of what it created in the name of the manager who started it, not the system's", async () => {
    const site = await createFacility(database.db, { entityId: entity.id, name: "Audited campus" });
    await linkUserTo(database.db, { entityId: entity.id, userId: manager.id, facilityId: site.id });
    await createRoomType(database.db, { entityId: entity.id, name: "Audited type" });
    const built = await importCsv(manager, BulkUploadType.BUILDING, "Name *,Facility *\nAudited hall,Audited campus\n");
    expect(built.status).toBe(DataJobStatus.SUCCEEDED);
    const [hall] = await database.db.select().from(buildings).where(and(eq(buildings.facilityId, site.id), eq(buildings.name, "Audited hall")));
    const roomed = await importCsv(manager, BulkUploadType.ROOMS, "Name *,Building *,Room type *,Floor *\nAudited 1,Audited hall,Audited type,0\nAudited 2,Audited hall,Audited type,1\n");
    expect(roomed.status).toBe(DataJobStatus.SUCCEEDED);
    const made = await database.db.select({ id: rooms.id }).from(rooms).where(eq(rooms.buildingId, hall.id)).orderBy(asc(rooms.id));
    const recordIds = [String(hall.id), ...made.map((r) => String(r.id))];
    const rows = await database.db
      .select({ action: auditLog.action, recordId: auditLog.recordId, actorId: auditLog.actorId })
      .from(auditLog)
      .where(and(eq(auditLog.entityId, entity.id), inArray(auditLog.recordType, ["building", "room"]), inArray(auditLog.recordId, recordIds)))
      .orderBy(asc(auditLog.id));
    expect(rows).toEqual([
      { action: "building.create", recordId: String(hall.id), actorId: manager.id },
      { action: "room.create", recordId: String(made[0].id), actorId: manager.id },
      { action: "room.create", recordId: String(made[1].id), actorId: manager.id },
    ]);
    // The audit history names the manager on them.
    const page = await listAuditRows(ctxOf(admin), { actorId: manager.id });
    const named = page.rows.filter((r) => recordIds.includes(r.recordId) && (r.recordType === "building" || r.recordType === "room"));
    expect(named.map((r) => r.actorName)).toEqual([`${manager.name} ${manager.surname}`, `${manager.name} ${manager.surname}`, `${manager.name} ${manager.surname}`]);
  });

  it("imports buildings, room types and rooms (with report identifiers and right counters)", async () => {
    const site = await createFacility(database.db, { entityId: entity.id, name: "Campus" });
    await importCsv(admin, BulkUploadType.BUILDING, `Name *,Facility *,City,Country (2 letters)\nHall A,Campus,Gent,BE\nHall B,#${site.shortId},,\n`);
    const halls = await database.db.select().from(buildings).where(eq(buildings.facilityId, site.id)).orderBy(asc(buildings.name));
    expect(halls.map((b) => [b.name, b.city, b.country])).toEqual([
      ["Hall A", "Gent", "BE"],
      ["Hall B", null, null],
    ]);
    await importCsv(admin, BulkUploadType.ROOM_TYPES, "Name *,Tags\nClassroom,\"teaching, big\"\nStorage,\n");
    const types = await database.db.select().from(roomTypes).where(and(eq(roomTypes.entityId, entity.id), eq(roomTypes.name, "Classroom")));
    expect(types[0].tags).toEqual(["teaching", "big"]);
    const job = await importCsv(admin, BulkUploadType.ROOMS, "Name *,Building *,Room type *,Floor *\nA.1,Hall A,Classroom,1\nA.2,Hall A,storage,1\nB.1,Hall B,Classroom,0\n");
    expect(job.status).toBe(DataJobStatus.SUCCEEDED);
    const made = await database.db.select().from(rooms).where(eq(rooms.buildingId, halls[0].id));
    expect(made.map((r) => r.name).sort()).toEqual(["A.1", "A.2"]);
    const codes = await database.db.select().from(reportIdentifiers).where(eq(reportIdentifiers.roomId, made[0].id));
    expect(codes).toHaveLength(1);
    const [hall] = await database.db.select().from(buildings).where(eq(buildings.id, halls[0].id));
    expect(hall.roomCount).toBe(2);
    expect(await findCounterDrift(database.db, entity.id)).toEqual([]);
    expect(await toldOf(NotificationType.IMPORT_FACILITIES_SUCCESS)).toContain(admin.id);
    // Rooms are in the facilities area of SPEC.md's notification types, but the title says rooms.
    expect(await titlesOf(job.id)).toEqual(["Rooms import succeeded"]);
  });

  it("finds a room's building within the facility a line names, and leaves columns it does not know aside", async () => {
    const east = await createFacility(database.db, { entityId: entity.id, name: "East site" });
    const west = await createFacility(database.db, { entityId: entity.id, name: "West site" });
    const eastAnnex = await createBuilding(database.db, { entityId: entity.id, facilityId: east.id, name: "Annex" });
    const westAnnex = await createBuilding(database.db, { entityId: entity.id, facilityId: west.id, name: "Annex" });
    await createRoomType(database.db, { entityId: entity.id, name: "Annex room" });
    const header = "Short id,Name *,Building *,Room type *,Floor *,Facility,Equipment,Active incidents\n";
    // Without the facility the name is two buildings'; a facility that has no such building is no help.
    const ambiguous = await previewImport(ctxOf(admin), { type: BulkUploadType.ROOMS, file: csv(`${header}7,Lobby,Annex,Annex room,0,,3,1\n8,Lobby,Annex,Annex room,0,Campus,,\n`) });
    expect(ambiguous.errors).toEqual([
      { line: 2, column: "building", type: BulkUploadErrorMessageType.UNKNOWN_REFERENCE, message: "imports:errors.ambiguous" },
      { line: 3, column: "building", type: BulkUploadErrorMessageType.UNKNOWN_REFERENCE, message: "imports:errors.unknownReference" },
    ]);
    const job = await importCsv(admin, BulkUploadType.ROOMS, `${header}7,Lobby,Annex,Annex room,0,east SITE,3,1\n8,Lobby,annex,Annex room,0,#${west.shortId},,\n`);
    expect(job.status).toBe(DataJobStatus.SUCCEEDED);
    const made = await database.db.select({ buildingId: rooms.buildingId }).from(rooms).where(and(eq(rooms.entityId, entity.id), eq(rooms.name, "Lobby")));
    expect(made.map((r) => r.buildingId).sort()).toEqual([eastAnnex.id, westAnnex.id].sort());
  });

  it("gives each of many imported rooms its own report identifier", async () => {
    const site = await createFacility(database.db, { entityId: entity.id, name: "Many site" });
    const hall = await createBuilding(database.db, { entityId: entity.id, facilityId: site.id, name: "Many hall" });
    await createRoomType(database.db, { entityId: entity.id, name: "Many type" });
    const lines = Array.from({ length: 120 }, (_, i) => `Many ${i},${hall.shortId},Many type,${i % 4}`).join("\n");
    expect((await importCsv(admin, BulkUploadType.ROOMS, `Name *,Building *,Room type *,Floor *\n${lines}\n`)).status).toBe(DataJobStatus.SUCCEEDED);
    const made = await database.db.select({ id: rooms.id, shortId: rooms.shortId }).from(rooms).where(eq(rooms.buildingId, hall.id));
    expect(made).toHaveLength(120);
    expect(new Set(made.map((r) => r.shortId)).size).toBe(120);
    const codes = await database.db.select({ roomId: reportIdentifiers.roomId }).from(reportIdentifiers).where(eq(reportIdentifiers.entityId, entity.id));
    const withCode = new Set(codes.map((c) => c.roomId));
    expect(made.every((r) => withCode.has(r.id))).toBe(true);
  });

  it("imports equipment categories and generic equipment", async () => {
    await importCsv(admin, BulkUploadType.EQUIPMENT_CATEGORIES, "Name *,Tags\nElectricity,power\n");
    const job = await importCsv(admin, BulkUploadType.EQUIPMENT_TYPES, "Name *,Category *,Notes,Tags\nSocket,electricity,230 V,\nSwitch,Electricity,,\n");
    expect(job.status).toBe(DataJobStatus.SUCCEEDED);
    const [category] = await database.db.select().from(equipmentCategories).where(and(eq(equipmentCategories.entityId, entity.id), eq(equipmentCategories.name, "Electricity")));
    const types = await database.db.select().from(equipmentTypes).where(eq(equipmentTypes.categoryId, category.id)).orderBy(asc(equipmentTypes.name));
    expect(types.map((t) => [t.name, t.notes])).toEqual([
      ["Socket", "230 V"],
      ["Switch", null],
    ]);
    expect(category.equipmentTypeCount).toBe(2);
    expect(await toldOf(NotificationType.IMPORT_EQUIPMENTS_SUCCESS)).toContain(admin.id);
  });

  it("imports maintenance types, with their repeat in any language", async () => {
    const preview = await previewImport(ctxOf(admin), { type: BulkUploadType.MAINTENANCE_TYPES, file: csv("Name *;Repeat;Every;Instructions\nBoiler;Months;3;Check it\nFilters;Semaines;;\nOnce only;;;\n") });
    expect(preview.errors).toEqual([]);
    const job = await importCsv(admin, BulkUploadType.MAINTENANCE_TYPES, "Name *;Repeat;Every;Instructions\nBoiler;Months;3;Check it\nFilters;Semaines;;\nOnce only;;;\n");
    expect(job.status).toBe(DataJobStatus.SUCCEEDED);
    const made = await database.db.select().from(maintenanceTypes).where(eq(maintenanceTypes.entityId, entity.id)).orderBy(asc(maintenanceTypes.name));
    expect(made.map((m) => [m.name, m.occurrenceUnit, m.occurrenceInterval, m.instructions])).toEqual([
      ["Boiler", 3, 3, "Check it"],
      ["Filters", 2, 1, ""],
      ["Once only", 0, null, ""],
    ]);
    expect(await toldOf(NotificationType.IMPORT_MAINTENANCE_SUCCESS)).toContain(admin.id);
  });

  it("imports incident types (a name in at least one language, a priority of the list)", async () => {
    const bad = await previewImport(ctxOf(admin), { type: BulkUploadType.INCIDENT_TYPE, file: csv("Name (English),Name (French),Default priority *\n,,High\nLeak,,Urgent-ish\n") });
    expect(bad.errors.map((e) => [e.line, e.column, e.message])).toEqual([
      [2, "nameEn", "imports:errors.oneName"],
      [3, "defaultPriority", "imports:errors.choice"],
    ]);
    const job = await importCsv(admin, BulkUploadType.INCIDENT_TYPE, "Naam (Engels),Naam (Frans),Standaardprioriteit *,Meldbaar in elk lokaal\nLeak,Fuite,Hoog,ja\n,Bruit,0,\n");
    expect(job.status).toBe(DataJobStatus.SUCCEEDED);
    const made = await database.db.select().from(incidentTypes).where(and(eq(incidentTypes.entityId, entity.id), isNull(incidentTypes.archivedAt))).orderBy(asc(incidentTypes.id));
    expect(made.map((t) => [t.nameEn, t.nameFr, t.defaultPriority, t.appliesEverywhere, t.status])).toEqual([
      ["Leak", "Fuite", 2, true, 1],
      [null, "Bruit", 0, false, 1],
    ]);
    expect(await toldOf(NotificationType.IMPORT_INCIDENTS_SUCCESS)).toContain(admin.id);
  });

  it("refuses a second import while one waits (import in progress)", async () => {
    const first = await startImport(ctxOf(admin), { type: BulkUploadType.FACILITY, file: csv("Name *\nWaiting site\n") });
    const second = await rejectionOf<ConflictError>(startImport(ctxOf(manager), { type: BulkUploadType.FACILITY, file: csv("Name *\nOther site\n") }));
    expect(second).toBeInstanceOf(ConflictError);
    expect(second.messageKey).toBe("imports:errors.inProgress");
    await services.queue.drain();
    expect((await getImportJob(ctxOf(admin), first.id)).status).toBe(DataJobStatus.SUCCEEDED);
  });

  it("starts nothing for a file with faults", async () => {
    const error = await rejectionOf<ImportRowsError>(startImport(ctxOf(admin), { type: BulkUploadType.FACILITY, file: csv("Name *,Description\n,x\n") }));
    expect(error).toBeInstanceOf(ImportRowsError);
    expect(error.preview.errors).toEqual([{ line: 2, column: "name", type: BulkUploadErrorMessageType.MISSING_MANDATORY_COLUMN }]);
  });

  it("fails the job with the faults when the data changed after the preview, and tells the requester", async () => {
    const job = await startImport(ctxOf(admin), { type: BulkUploadType.EQUIPMENT_CATEGORIES, file: csv("Name *\nLate category\n") });
    await createEquipmentCategory(database.db, { entityId: entity.id, name: "Late category" });
    await services.queue.drain();
    const view = await getImportJob(ctxOf(admin), job.id);
    expect(view).toMatchObject({ status: DataJobStatus.FAILED, errorCode: BulkUploadErrorCode.INVALID_TEMPLATE_DATA, failedRows: 1 });
    expect(view.errors).toEqual([{ line: 2, column: "name", type: BulkUploadErrorMessageType.ALREADY_EXISTS, message: "imports:errors.alreadyExists" }]);
    expect(await toldOf(NotificationType.IMPORT_EQUIPMENTS_FAILURE)).toContain(admin.id);
  });

  it("writes none of the lines when only some of them became invalid after the preview, and reports failure", async () => {
    const lone = await createEntity(database.db);
    const loneAdmin = await createUser(database.db, { entityId: lone.id, role: Role.ADMINISTRATOR });
    await createFacility(database.db, { entityId: lone.id, name: "Kept site" });
    const closing = await createFacility(database.db, { entityId: lone.id, name: "Closing site" });
    const file = "Name *,Facility *\nHall one,Kept site\nHall two,Kept site\nHall three,Closing site\nHall four,Kept site\n";
    const job = await startImport(ctxOf(loneAdmin), { type: BulkUploadType.BUILDING, file: csv(file) });
    // The third line's facility is archived between the preview and the run; the other three stay valid.
    await database.db.update(facilities).set({ archivedAt: new Date() }).where(eq(facilities.id, closing.id));
    await services.queue.drain();
    const view = await getImportJob(ctxOf(loneAdmin), job.id);
    expect(view).toMatchObject({ status: DataJobStatus.FAILED, errorCode: BulkUploadErrorCode.INVALID_TEMPLATE_DATA, failedRows: 1 });
    expect(view.errors.map((e) => [e.line, e.column])).toEqual([[4, "facility"]]);
    expect(await database.db.select().from(buildings).where(eq(buildings.entityId, lone.id))).toEqual([]);
  });

  it("leaves no row behind after a crash in the middle, retries, and marks the job failed at the last attempt", async () => {
    const lines = Array.from({ length: 7000 }, (_, i) => `Crash room ${i}`).join("\n");
    const job = await startImport(ctxOf(admin), { type: BulkUploadType.ROOM_TYPES, file: csv(`Name *\n${lines}\n`) });
    const crash = { afterChunk: (written: number) => {
      if (written >= 5000 && written < 7000) throw new Error("injected crash");
    } };
    const payload = { dataJobId: job.id, entityId: entity.id };
    const count = async () => (await database.db.select().from(roomTypes).where(eq(roomTypes.entityId, entity.id))).filter((t) => t.name.startsWith("Crash room")).length;
    const jobServices = { db: database.db, files: services.files, queue: services.queue, events: services.events };
    await expect(runImport(jobServices, payload, { attempt: 1, maxAttempts: 3 }, crash)).rejects.toThrow("injected crash");
    expect(await count()).toBe(0);
    expect((await getImportJob(ctxOf(admin), job.id)).status).toBe(DataJobStatus.QUEUED);
    await expect(runImport(jobServices, payload, { attempt: 3, maxAttempts: 3 }, crash)).rejects.toThrow("injected crash");
    expect(await count()).toBe(0);
    const failed = await getImportJob(ctxOf(admin), job.id);
    expect(failed).toMatchObject({ status: DataJobStatus.FAILED, errorMessage: "imports:errors.tryAgain" });
    const audit = await database.db.select().from(auditLog).where(eq(auditLog.recordType, "roomType"));
    expect(audit.filter((a) => (a.details as { dataJobId?: number } | null)?.dataJobId === job.id)).toEqual([]);
    await services.queue.drain();
    expect(await toldOf(NotificationType.IMPORT_FACILITIES_FAILURE)).toContain(admin.id);
    // A run after the end changes nothing.
    await runImport(jobServices, payload, { attempt: 1, maxAttempts: 3 });
    expect(await count()).toBe(0);
  });
});

describe("an import started with an API token limited to one facility", () => {
  async function limitedToken(maker: User, facilityIds: number[]) {
    const made = await createApiToken(ctxOf(maker), { name: `Import integration ${facilityIds.join("-")}`, role: Role.FACILITY_MANAGER as 1, facilityIds, expiresInDays: 30 });
    const principal = await authenticateApiToken(database.db, made.secret);
    return { id: made.token.id, ctx: services.ctx(entity.id, principal!.actor) };
  }

  it("never writes into another facility: a line that finds its place only there fails the job", async () => {
    const east = await createFacility(database.db, { entityId: entity.id, name: "Token east" });
    const west = await createFacility(database.db, { entityId: entity.id, name: "Token west" });
    const eastDepot = await createBuilding(database.db, { entityId: entity.id, facilityId: east.id, name: "Depot" });
    const westDepot = await createBuilding(database.db, { entityId: entity.id, facilityId: west.id, name: "Depot" });
    await createRoomType(database.db, { entityId: entity.id, name: "Depot type" });
    const token = await limitedToken(admin, [east.id]);
    // Checked at the start with the token's reach: "Depot" is the east one, the only one it reaches.
    const job = await startImport(token.ctx, { type: BulkUploadType.ROOMS, file: csv("Name *,Building *,Room type *,Floor *\nDepot store,Depot,Depot type,0\n") });
    // Meanwhile the east depot is archived: the name now finds the west one only, out of the token's reach.
    await database.db.update(buildings).set({ archivedAt: new Date() }).where(eq(buildings.id, eastDepot.id));
    await services.queue.drain();
    const view = await getImportJob(ctxOf(admin), job.id);
    expect(view).toMatchObject({ status: DataJobStatus.FAILED, errorCode: BulkUploadErrorCode.INVALID_TEMPLATE_DATA, failedRows: 1 });
    expect(view.errors.map((e) => [e.line, e.column, e.message])).toEqual([[2, "building", "imports:errors.unknownReference"]]);
    expect(await database.db.select().from(rooms).where(eq(rooms.buildingId, westDepot.id))).toEqual([]);
  });

  it("imports facilities the token then reaches, its audit rows naming its maker and the token", async () => {
    const home = await createFacility(database.db, { entityId: entity.id, name: "Token home" });
    const token = await limitedToken(admin, [home.id]);
    const job = await startImport(token.ctx, { type: BulkUploadType.FACILITY, file: csv("Name *\nToken made site\n") });
    await services.queue.drain();
    expect((await getImportJob(ctxOf(admin), job.id)).status).toBe(DataJobStatus.SUCCEEDED);
    const [site] = await database.db.select().from(facilities).where(and(eq(facilities.entityId, entity.id), eq(facilities.name, "Token made site")));
    const [stored] = await database.db.select({ facilityIds: apiTokens.facilityIds }).from(apiTokens).where(eq(apiTokens.id, token.id));
    expect(stored.facilityIds).toEqual([home.id, site.id]);
    const audit = await database.db.select().from(auditLog).where(and(eq(auditLog.recordType, "facility"), eq(auditLog.recordId, String(site.id))));
    expect(audit).toMatchObject([{ action: "facility.create", actorId: admin.id, actorTokenId: token.id }]);
  });
});

describe("templates", () => {
  it("gives an .xlsx template whose data sheet, filled in, imports; mandatory columns marked, lists for choices and references", async () => {
    const lone = await createEntity(database.db);
    const loneAdmin = await createUser(database.db, { entityId: lone.id, role: Role.ADMINISTRATOR });
    const site = await createFacility(database.db, { entityId: lone.id, name: "Template site" });
    const hall = await createBuilding(database.db, { entityId: lone.id, facilityId: site.id, name: "Template hall" });
    await createRoomType(database.db, { entityId: lone.id, name: "Lab" });
    const nl = getT("nl-BE") as unknown as (key: string) => string;
    const bytes = await xlsxTemplate(ctxOf(loneAdmin), importTypeOf(BulkUploadType.ROOMS)!, nl);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(bytes as unknown as ExcelJS.Buffer);
    const [data, example, lists] = workbook.worksheets;
    expect(data.getRow(1).values).toEqual([undefined, "Naam *", "Gebouw *", "Lokaaltype *", "Verdieping *", "Beschrijving", "Site"]);
    expect(example.getRow(2).getCell(1).value).toBe("Room 1.01");
    expect(lists.state).toBe("hidden");
    expect(lists.getCell("A1").value).toBe("Template hall");
    data.addRow(["Lab 1", "Template hall", "Lab", "2", "Fume hood"]);
    data.addRow(["Lab 2", String(hall.shortId), "lab", 3]);
    const filled = new Uint8Array(await workbook.xlsx.writeBuffer());
    const job = await startImport(ctxOf(loneAdmin), { type: BulkUploadType.ROOMS, file: { bytes: filled, name: "rooms.xlsx" } });
    await services.queue.drain();
    expect((await getImportJob(ctxOf(loneAdmin), job.id)).status).toBe(DataJobStatus.SUCCEEDED);
    const made = await database.db.select().from(rooms).where(eq(rooms.buildingId, hall.id)).orderBy(asc(rooms.name));
    expect(made.map((r) => [r.name, r.floor, r.description])).toEqual([
      ["Lab 1", "2", "Fume hood"],
      ["Lab 2", "3", null],
    ]);
  });

  it("gives a CSV template: the header line with a byte order mark", () => {
    expect(csvTemplate(importTypeOf(BulkUploadType.BUILDING)!, label, ",")).toBe("\ufeffName *,Facility *,Description,Street,Number,Box,Floor,Additional information,Postal code,City,Country (2 letters)\r\n");
  });

  it("refuses technicians the templates", async () => {
    expect(await rejectionOf(xlsxTemplate(ctxOf(technician), importTypeOf(BulkUploadType.ROOMS)!, label))).toBeInstanceOf(ForbiddenError);
  });
});

