import fs from "node:fs";
import { and, eq } from "drizzle-orm";
import ExcelJS from "exceljs";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { ServiceContext } from "~/core/context.server";
import type { Database } from "~/db/client.server";
import { DataJobStatus, exportSuccessNotificationType, ExportType, IncidentStatus, Role, UserLanguage, UserStatus } from "~/db/enums";
import { dataJobs, type Entity, materialLines, notificationDetails, notifications, storedFiles, timeEntries, type User, users } from "~/db/schema";
import { ForbiddenError, NotFoundError, ValidationError } from "~/lib/errors";
import { listCategories, listEquipmentTypes } from "~/modules/equipment/queries.server";
import { listBuildings, listFacilities } from "~/modules/facilities/queries.server";
import { getReadableFile } from "~/modules/files/access.server";
import { listIncidentTypes } from "~/modules/incident-types/queries.server";
import { NO_FILTERS } from "~/modules/incidents/filters";
import { listIncidents } from "~/modules/incidents/queries.server";
import { listMaintenanceTypes, listPlannedMaintenances } from "~/modules/maintenance/queries.server";
import { listTasks } from "~/modules/maintenance/task-queries.server";
import { listRooms, listRoomTypes } from "~/modules/rooms/queries.server";
import { listItemRecords } from "~/modules/equipment/item-queries.server";
import { listUsers } from "~/modules/users/queries.server";
import en from "~/locales/en/exports.json";
import nl from "~/locales/nl-BE/exports.json";
import enImports from "~/locales/en/imports.json";
import nlImports from "~/locales/nl-BE/imports.json";
import enMaintenance from "~/locales/en/maintenance.json";
import nlMaintenance from "~/locales/nl-BE/maintenance.json";
import { createBuilding, createEntity, createEquipmentCategory, createEquipmentType, createFacility, createIncident, createIncidentType, createMaintenanceType, createPlannedMaintenance, createRoom, createRoomType, createTask, createUser, linkUserTo, createEquipmentItem } from "#tests/factories";
import { rejectionOf } from "#tests/service-helpers";
import { createTestServices, type TestServices } from "#tests/test-context";
import { createTestDatabase } from "#tests/test-db";
import { EXPORTS, headerKey } from "./definitions.server";
import { exportFormatter, plainT } from "./format";
import { getExport, getExportDownload, listExports } from "./queries.server";
import { EXPORT_TYPE_NAMES, EXPORT_TYPE_SLUGS, type ExportTypeSlug } from "./schema";
import { expireExports, startExport } from "./service.server";
import { csvField } from "./writer.server";

/**
 * Exports (issue 49, decision 055) on a real database with the real queue: every type's rows are the
 * list screen's rows for the same viewer, another entity's never appear, a facility manager gets their
 * reach only, the requester is told with a download link, and the file goes when its time has come.
 */
let database: Database;
let services: TestServices;
let entityA: Entity;
let entityB: Entity;
let admin: User;
let manager: User;
let otherManager: User;
let technician: User;
let strangerB: User;
let northFacilityId: number;
let southFacilityId: number;
let northShortId: number;
let northTaskId: number;
let southTaskId: number;
let southShortId: number;
/** The exports of time and material (issue 62): no list screen to compare with, their contents written out below. */
const WORK_EXPORTS: readonly ExportTypeSlug[] = ["time-entries", "material-lines"];

const ctxOf = (user: User) => services.ctx(user.entityId, { id: user.id, role: user.role });
const SECRET = "ZZB";

/** Parses our CSV dialect: BOM, `;`, CRLF, `"` quoting. */
function parseCsv(text: string): string[][] {
  expect(text.startsWith("\uFEFF")).toBe(true);
  const rows: string[][] = [];
  let row: string[] = [];
  let field = "";
  let quoted = false;
  for (let i = 1; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ";") {
      row.push(field);
      field = "";
    } else if (c === "\r" && text[i + 1] === "\n") {
      row.push(field);
      rows.push(row);
      row = [];
      field = "";
      i++;
    } else field += c;
  }
  return rows;
}

/** Starts an export as `user`, runs the queue, and answers its finished view and its file's bytes. */
async function exportAs(user: User, type: ExportTypeSlug, options: { format?: "csv" | "xlsx"; filters?: Record<string, string | string[]> } = {}) {
  const ctx = ctxOf(user);
  const started = await startExport(ctx, { type, format: options.format ?? "csv", filters: options.filters ?? {} });
  expect(started.status).toBe(DataJobStatus.QUEUED);
  await services.queue.drain();
  const view = await getExport(ctx, started.id);
  expect(view.status).toBe(DataJobStatus.SUCCEEDED);
  const { path } = await getExportDownload(ctx, services.files, started.id);
  return { view, bytes: fs.readFileSync(path) };
}

/** The list screen's rows for `ctx` (all pages; the seeded lists are short), one per record. */
async function listed(ctx: ServiceContext, type: ExportTypeSlug): Promise<unknown[]> {
  const q = <S extends string>(sort: S) => ({ page: 1, size: 100, sort, dir: "asc" as const, q: "" });
  switch (type) {
    case "users":
      return (await listUsers(ctx, q("surname"))).items;
    case "facilities":
      return (await listFacilities(ctx, q("shortId"))).items;
    case "buildings":
      return (await listBuildings(ctx, q("shortId"))).items;
    case "rooms":
      return (await listRooms(ctx, q("shortId"))).items;
    case "room-types":
      return (await listRoomTypes(ctx, q("name"))).items;
    case "equipment-categories":
      return (await listCategories(ctx, q("name"))).items;
    case "generic-equipments":
      return (await listEquipmentTypes(ctx, q("name"))).items;
    case "incident-types":
      return (await listIncidentTypes(ctx, q("name"))).items;
    case "maintenance-types":
      return (await listMaintenanceTypes(ctx, q("name"))).items;
    case "planned-maintenance":
      return (await listPlannedMaintenances(ctx, q("name"))).items;
    case "incidents":
      return (await listIncidents(ctx, q("createdAt"), NO_FILTERS)).items;
    case "maintenance-tasks":
      return (await listTasks(ctx, { status: "all", buildingId: null, plannedMaintenanceId: null, assignee: null }, { page: 1, size: 100 })).items;
    case "equipment-items":
      return (await listItemRecords(ctx, q("equipmentName"))).items;
    case "time-entries":
    case "material-lines":
      throw new Error(`${type} has no list screen`);
  }
}

/** The CSV lines the list's rows give through the export's columns, in the user's language. */
async function expectedLines(user: User, type: ExportTypeSlug): Promise<string[]> {
  const ctx = ctxOf(user);
  const definition = EXPORTS[EXPORT_TYPE_SLUGS[type]];
  const f = exportFormatter(plainT(user.language === UserLanguage.NL ? nl : en), "Europe/Brussels");
  const rows = await listed(ctx, type);
  return rows.map((row) => definition.columns.map((c) => csvField(c.value(row, f) ?? null)).join(";")).sort();
}

beforeAll(async () => {
  database = await createTestDatabase();
  services = await createTestServices(database);
  const db = database.db;
  entityA = await createEntity(db);
  entityB = await createEntity(db);
  admin = await createUser(db, { entityId: entityA.id, role: Role.ADMINISTRATOR, name: "Ada", surname: "Admin" });
  manager = await createUser(db, { entityId: entityA.id, role: Role.FACILITY_MANAGER, name: "Mona", surname: "Manager", language: UserLanguage.NL });
  otherManager = await createUser(db, { entityId: entityA.id, role: Role.FACILITY_MANAGER, name: "Otto", surname: "Other" });
  technician = await createUser(db, { entityId: entityA.id, role: Role.TECHNICIAN, name: "Tess", surname: "Tech" });
  strangerB = await createUser(db, { entityId: entityB.id, role: Role.ADMINISTRATOR, name: SECRET, surname: `${SECRET} person` });

  const north = await createFacility(db, { entityId: entityA.id, name: "North site" });
  const south = await createFacility(db, { entityId: entityA.id, name: "South site" });
  northFacilityId = north.id;
  southFacilityId = south.id;
  const northBuilding = await createBuilding(db, { entityId: entityA.id, facilityId: north.id, name: "North hall" });
  const southBuilding = await createBuilding(db, { entityId: entityA.id, facilityId: south.id, name: "South hall" });
  const office = await createRoomType(db, { entityId: entityA.id, name: "Office", tags: ["desk"] });
  const northRoom = await createRoom(db, { entityId: entityA.id, buildingId: northBuilding.id, roomTypeId: office.id, name: "North office" });
  const southRoom = await createRoom(db, { entityId: entityA.id, buildingId: southBuilding.id, roomTypeId: office.id, name: "South office" });
  await linkUserTo(db, { entityId: entityA.id, userId: manager.id, facilityId: north.id });
  await linkUserTo(db, { entityId: entityA.id, userId: technician.id, buildingId: northBuilding.id });
  const lighting = await createEquipmentCategory(db, { entityId: entityA.id, name: "Lighting", tags: ["light"] });
  const lamp = await createEquipmentType(db, { entityId: entityA.id, categoryId: lighting.id, name: "Lamp; ceiling", notes: 'Say "hi"\nthen =SUM(A1)' });
  // Equipment items with their records (issue 63): the North one in the manager's reach, the South one not.
  await createEquipmentItem(db, { entityId: entityA.id, roomId: northRoom.id, equipmentTypeId: lamp.id, internalReference: "LMP-N", serialNumber: "SN; 1", manufacturer: "Philips", warrantyEndsOn: "2027-06-30" });
  await createEquipmentItem(db, { entityId: entityA.id, roomId: southRoom.id, equipmentTypeId: lamp.id, internalReference: "LMP-S", installedOn: "2024-02-01", notes: "South lamp" });
  await createIncidentType(db, { entityId: entityA.id, nameEn: "Leak", nameNl: "Lek" });
  const service = await createMaintenanceType(db, { entityId: entityA.id, name: "Boiler service", tags: ["heating"] });
  const plan = await createPlannedMaintenance(db, { entityId: entityA.id, maintenanceTypeId: service.id, name: "Boiler plan", assigneeIds: [technician.id], roomIds: [northRoom.id, southRoom.id] });
  northTaskId = (await createTask(db, { entityId: entityA.id, plannedMaintenanceId: plan.id, roomId: northRoom.id, dueDate: "2026-12-01" })).id;
  southTaskId = (await createTask(db, { entityId: entityA.id, plannedMaintenanceId: plan.id, roomId: southRoom.id, dueDate: "2026-12-02", note: "South task" })).id;
  const northIncident = await createIncident(db, { entityId: entityA.id, roomId: northRoom.id, title: "Leaking tap in the North office", createdAt: new Date("2026-07-01T10:00:00Z"), tags: ["water"] });
  const southIncident = await createIncident(db, { entityId: entityA.id, roomId: southRoom.id, title: "Broken lamp in the South office", status: IncidentStatus.IN_PROGRESS, priority: 2 });
  northShortId = northIncident.shortId;
  southShortId = southIncident.shortId;
  // Time and material on both facilities' incidents (the North one in the manager's reach, the South one not).
  await db.insert(timeEntries).values([
    { entityId: entityA.id, incidentId: northIncident.id, userId: technician.id, workedOn: "2026-07-02", minutes: 90, note: "Seal replaced", createdById: technician.id },
    { entityId: entityA.id, incidentId: northIncident.id, userId: manager.id, workedOn: "2026-07-05", minutes: 20, createdById: manager.id },
    { entityId: entityA.id, incidentId: southIncident.id, userId: admin.id, workedOn: "2026-07-03", minutes: 45, note: "South visit", createdById: admin.id },
  ]);
  await db.insert(materialLines).values([
    { entityId: entityA.id, incidentId: northIncident.id, description: "Copper pipe", quantity: "2.5", unitCost: "12.40", createdById: technician.id, createdAt: new Date("2026-07-02T08:30:00Z") },
    { entityId: entityA.id, incidentId: southIncident.id, description: "South bulb", quantity: "3", unitCost: "0.33", createdById: admin.id, createdAt: new Date("2026-07-03T09:00:00Z") },
  ]);
  // Work on the tasks too: the North one's time, the South one's material.
  await db.insert(timeEntries).values({ entityId: entityA.id, taskId: northTaskId, userId: technician.id, workedOn: "2026-07-04", minutes: 30, note: "Boiler serviced", createdById: technician.id });
  await db.insert(materialLines).values({ entityId: entityA.id, taskId: southTaskId, description: "South filter", quantity: "1", unitCost: "7.50", createdById: admin.id, createdAt: new Date("2026-07-04T07:00:00Z") });
  await createIncident(db, { entityId: entityA.id, roomId: southRoom.id, title: "=HYPERLINK(evil) in the South office", status: IncidentStatus.DONE });

  // Entity B: one record of every kind, every name carrying SECRET.
  const bFacility = await createFacility(db, { entityId: entityB.id, name: `${SECRET} site` });
  const bBuilding = await createBuilding(db, { entityId: entityB.id, facilityId: bFacility.id, name: `${SECRET} hall` });
  const bType = await createRoomType(db, { entityId: entityB.id, name: `${SECRET} type` });
  const bRoom = await createRoom(db, { entityId: entityB.id, buildingId: bBuilding.id, roomTypeId: bType.id, name: `${SECRET} room` });
  const bCategory = await createEquipmentCategory(db, { entityId: entityB.id, name: `${SECRET} category` });
  const bEquipment = await createEquipmentType(db, { entityId: entityB.id, categoryId: bCategory.id, name: `${SECRET} equipment` });
  await createEquipmentItem(db, { entityId: entityB.id, roomId: bRoom.id, equipmentTypeId: bEquipment.id, internalReference: `${SECRET}-1`, serialNumber: SECRET });
  await createIncidentType(db, { entityId: entityB.id, nameEn: `${SECRET} leak` });
  const bService = await createMaintenanceType(db, { entityId: entityB.id, name: `${SECRET} service` });
  const bPlan = await createPlannedMaintenance(db, { entityId: entityB.id, maintenanceTypeId: bService.id, name: `${SECRET} plan` });
  const bTask = await createTask(db, { entityId: entityB.id, plannedMaintenanceId: bPlan.id, roomId: bRoom.id, dueDate: "2026-12-01", note: SECRET });
  await db.insert(timeEntries).values({ entityId: entityB.id, taskId: bTask.id, userId: strangerB.id, workedOn: "2026-07-02", minutes: 30, note: SECRET, createdById: strangerB.id });
  await db.insert(materialLines).values({ entityId: entityB.id, taskId: bTask.id, description: SECRET, quantity: "1", unitCost: "1", createdById: strangerB.id });
  const bIncident = await createIncident(db, { entityId: entityB.id, roomId: bRoom.id, title: `${SECRET} incident` });
  await db.insert(timeEntries).values({ entityId: entityB.id, incidentId: bIncident.id, userId: strangerB.id, workedOn: "2026-07-02", minutes: 30, note: SECRET, createdById: strangerB.id });
  await db.insert(materialLines).values({ entityId: entityB.id, incidentId: bIncident.id, description: SECRET, quantity: "1", unitCost: "1", createdById: strangerB.id });
});

afterAll(async () => {
  await services?.close();
  await database?.close();
});

beforeEach(async () => {
  await services.clearJobs();
});

describe("every export type", () => {
  it("equipment-items: each item's record, only the items in the reader's reach", async () => {
    const admins = parseCsv((await exportAs(admin, "equipment-items")).bytes.toString("utf8"));
    const managers = parseCsv((await exportAs(manager, "equipment-items")).bytes.toString("utf8"));
    expect(admins[0].slice(0, 3)).toEqual(["Equipment", "Internal reference", "Serial number"]);
    expect(admins.slice(1).map((r) => r[1]).sort()).toEqual(["LMP-N", "LMP-S"]);
    expect(managers.slice(1).map((r) => r[1])).toEqual(["LMP-N"]);
    expect(managers[1].slice(0, 4)).toEqual(["Lamp; ceiling", "LMP-N", "SN; 1", "Philips"]);
  });

  for (const type of EXPORT_TYPE_NAMES.filter((t) => !WORK_EXPORTS.includes(t))) {
    it(`${type}: the list screen's rows and columns, for an administrator and a facility manager, never another entity's`, async () => {
      for (const user of [admin, manager]) {
        const { view, bytes } = await exportAs(user, type);
        const text = bytes.toString("utf8");
        expect(text).not.toContain(SECRET);
        const [header, ...rows] = parseCsv(text);
        const dutch = user.language === UserLanguage.NL;
        const texts = dutch ? nl : en;
        const other: Record<string, Record<string, unknown>> = dutch ? { imports: nlImports, maintenance: nlMaintenance } : { imports: enImports, maintenance: enMaintenance };
        const definition = EXPORTS[EXPORT_TYPE_SLUGS[type]];
        // The import's label for a column the import reads back (round trip), the export's own otherwise.
        const named = (key: string) => {
          const [ns, path] = key.split(":");
          return plainT(other[ns] ?? {})(path);
        };
        expect(header).toEqual(definition.columns.map((c) => (c.header ? named(c.header) : plainT(texts)(headerKey(c)))));
        if (type === "maintenance-types") expect(header).toContain(dutch ? "Geschatte duur (minuten)" : "Estimated duration (minutes)");
        const lines = text.slice(1).split("\r\n").slice(1, -1).sort();
        expect(lines).toEqual(await expectedLines(user, type));
        expect(rows.length).toBeGreaterThan(0);
        expect(view.processedRows).toBe(rows.length);
        expect(view.totalRows).toBe(rows.length);
      }
    });
  }
});

describe("the time and material exports", () => {
  it("time entries: every entry in reach, with its incident or task and place, for an administrator; the North ones for its manager, in Dutch", async () => {
    const all = parseCsv((await exportAs(admin, "time-entries")).bytes.toString("utf8"));
    expect(all).toEqual([
      ["Incident", "Incident title", "Task", "Planned maintenance", "Facility", "Building", "Room", "Day worked", "Person", "Minutes", "Hours", "Note"],
      [String(northShortId), "Leaking tap in the North office", "", "", "North site", "North hall", "North office", "2026-07-02", "Tess Tech", "90", "1.5", "Seal replaced"],
      [String(northShortId), "Leaking tap in the North office", "", "", "North site", "North hall", "North office", "2026-07-05", "Mona Manager", "20", "0.33", ""],
      [String(southShortId), "Broken lamp in the South office", "", "", "South site", "South hall", "South office", "2026-07-03", "Ada Admin", "45", "0.75", "South visit"],
      ["", "", String(northTaskId), "Boiler plan", "North site", "North hall", "North office", "2026-07-04", "Tess Tech", "30", "0.5", "Boiler serviced"],
    ]);
    const { view, bytes } = await exportAs(manager, "time-entries");
    expect(parseCsv(bytes.toString("utf8"))).toEqual([
      ["Incident", "Titel van het incident", "Taak", "Gepland onderhoud", "Site", "Gebouw", "Lokaal", "Gewerkte dag", "Persoon", "Minuten", "Uren", "Notitie"],
      [String(northShortId), "Leaking tap in the North office", "", "", "North site", "North hall", "North office", "2026-07-02", "Tess Tech", "90", "1.5", "Seal replaced"],
      [String(northShortId), "Leaking tap in the North office", "", "", "North site", "North hall", "North office", "2026-07-05", "Mona Manager", "20", "0.33", ""],
      ["", "", String(northTaskId), "Boiler plan", "North site", "North hall", "North office", "2026-07-04", "Tess Tech", "30", "0.5", "Boiler serviced"],
    ]);
    expect([view.totalRows, view.processedRows]).toEqual([3, 3]);
  });

  it("time entries: filtered by facility and days worked", async () => {
    const south = parseCsv((await exportAs(admin, "time-entries", { filters: { facility: String(southFacilityId) } })).bytes.toString("utf8"));
    expect(south.slice(1).map((r) => [r[0], r[7]])).toEqual([[String(southShortId), "2026-07-03"]]);
    const days = parseCsv((await exportAs(admin, "time-entries", { filters: { from: "2026-07-03", to: "2026-07-05" } })).bytes.toString("utf8"));
    expect(days.slice(1).map((r) => r[7])).toEqual(["2026-07-05", "2026-07-03", "2026-07-04"]);
    // The manager asking for the South facility gets none of it.
    expect(parseCsv((await exportAs(manager, "time-entries", { filters: { facility: String(southFacilityId) } })).bytes.toString("utf8"))).toHaveLength(1);
    expect(await rejectionOf(startExport(ctxOf(admin), { type: "time-entries", format: "csv", filters: { from: "2026-02-30" } }))).toBeInstanceOf(ValidationError);
    expect(await rejectionOf(startExport(ctxOf(admin), { type: "material-lines", format: "csv", filters: { from: "2026-07-01" } }))).toBeInstanceOf(ValidationError);
  });

  it("material lines: every line in reach with its exact total, for an administrator; the North ones for its manager", async () => {
    const all = parseCsv((await exportAs(admin, "material-lines")).bytes.toString("utf8"));
    expect(all).toEqual([
      ["Incident", "Incident title", "Task", "Planned maintenance", "Facility", "Building", "Room", "Description", "Quantity", "Unit cost", "Line total", "Added by", "Created"],
      [String(northShortId), "Leaking tap in the North office", "", "", "North site", "North hall", "North office", "Copper pipe", "2.5", "12.4", "31", "Tess Tech", "2026-07-02 10:30"],
      [String(southShortId), "Broken lamp in the South office", "", "", "South site", "South hall", "South office", "South bulb", "3", "0.33", "0.99", "Ada Admin", "2026-07-03 11:00"],
      ["", "", String(southTaskId), "Boiler plan", "South site", "South hall", "South office", "South filter", "1", "7.5", "7.5", "Ada Admin", "2026-07-04 09:00"],
    ]);
    const north = parseCsv((await exportAs(manager, "material-lines")).bytes.toString("utf8"));
    expect(north.slice(1)).toEqual([[String(northShortId), "Leaking tap in the North office", "", "", "North site", "North hall", "North office", "Copper pipe", "2.5", "12.4", "31", "Tess Tech", "2026-07-02 10:30"]]);
    const filtered = parseCsv((await exportAs(admin, "material-lines", { filters: { facility: String(southFacilityId) } })).bytes.toString("utf8"));
    expect(filtered.slice(1).map((r) => r[7])).toEqual(["South bulb", "South filter"]);
  });

  it("tells the requester with its own notification type (30 and 31)", async () => {
    const { view } = await exportAs(admin, "material-lines");
    const [told] = await database.db.select().from(notificationDetails).where(eq(notificationDetails.dataJobId, view.id));
    expect(told.type).toBe(31);
    expect(exportSuccessNotificationType(ExportType.TIME_ENTRIES)).toBe(30);
  });
});

describe("reach and filters", () => {
  it("gives a facility manager only the incidents, rooms, buildings, facilities and tasks they reach", async () => {
    const incidents = (await exportAs(manager, "incidents")).bytes.toString("utf8");
    expect(incidents).toContain("Leaking tap in the North office");
    expect(incidents).not.toContain("South office");
    const rooms = (await exportAs(manager, "rooms")).bytes.toString("utf8");
    expect(rooms).toContain("North office");
    expect(rooms).not.toContain("South office");
    const facilities = (await exportAs(manager, "facilities")).bytes.toString("utf8");
    expect(facilities).not.toContain("South site");
    const tasks = (await exportAs(manager, "maintenance-tasks")).bytes.toString("utf8");
    expect(tasks).not.toContain("South task");
    // The administrator reaches everything.
    const all = (await exportAs(admin, "incidents")).bytes.toString("utf8");
    expect(all).toContain("Broken lamp in the South office");
  });

  it("writes words for enumerations, dates in the entity's time zone, and defuses formulas", async () => {
    const rows = parseCsv((await exportAs(admin, "incidents")).bytes.toString("utf8"));
    const north = rows.find((r) => r[1] === "Leaking tap in the North office")!;
    expect(north).toContain("Pending");
    expect(north).toContain("2026-07-01 12:00"); // 10:00 UTC is noon in Brussels in July
    expect(rows.find((r) => r[1].startsWith("Broken"))).toContain("High");
    expect(rows.some((r) => r[1] === "'=HYPERLINK(evil) in the South office")).toBe(true);
    const dutch = parseCsv((await exportAs(manager, "incidents")).bytes.toString("utf8"));
    expect(dutch[0]).toContain("Titel");
    expect(dutch[1]).toContain("In afwachting");
  });

  it("applies the list's filters", async () => {
    const south = (await exportAs(admin, "incidents", { filters: { facility: String(southFacilityId), status: [String(IncidentStatus.IN_PROGRESS)] } })).bytes.toString("utf8");
    expect(south).toContain("Broken lamp");
    expect(south).not.toContain("Leaking tap");
    expect(south).not.toContain("HYPERLINK");
    const rooms = (await exportAs(admin, "rooms", { filters: { facilityId: String(northFacilityId) } })).bytes.toString("utf8");
    expect(rooms).toContain("North office");
    expect(rooms).not.toContain("South office");
    // The facility manager filtering on a facility out of reach gets nothing of it.
    const none = parseCsv((await exportAs(manager, "incidents", { filters: { facility: String(southFacilityId) } })).bytes.toString("utf8"));
    expect(none).toHaveLength(1);
  });

  it("refuses unreadable filters, an unknown type or format, and a filter the type does not take (400), writing nothing", async () => {
    const ctx = ctxOf(admin);
    for (const input of [
      { type: "incidents", format: "csv", filters: { status: ["9"] } },
      { type: "incidents", format: "csv", filters: { from: "2026-02-30" } },
      { type: "rooms", format: "csv", filters: { facilityId: "x" } },
      { type: "rooms", format: "csv", filters: { status: "1" } },
      { type: "bogus", format: "csv", filters: {} },
      { type: "rooms", format: "pdf", filters: {} },
      { type: "rooms", format: "csv", filters: { facilityId: "1\u0000" } },
    ]) {
      expect(await rejectionOf(startExport(ctx, input as never))).toBeInstanceOf(ValidationError);
    }
    expect(await services.queued({ name: "export" } as never)).toHaveLength(0);
  });
});

describe("who may export and download", () => {
  it("refuses a technician (Forbidden) on every verb and read", async () => {
    const ctx = ctxOf(technician);
    expect(await rejectionOf(startExport(ctx, { type: "incidents", format: "xlsx", filters: {} }))).toBeInstanceOf(ForbiddenError);
    expect(await rejectionOf(listExports(ctx))).toBeInstanceOf(ForbiddenError);
  });

  it("shows an export to its requester and the administrators only; another entity's and another manager's are not found", async () => {
    const { view } = await exportAs(manager, "rooms");
    expect((await getExport(ctxOf(admin), view.id)).id).toBe(view.id);
    expect((await listExports(ctxOf(manager))).map((e) => e.id)).toContain(view.id);
    expect((await listExports(ctxOf(otherManager))).map((e) => e.id)).not.toContain(view.id);
    for (const user of [otherManager, strangerB]) {
      expect(await rejectionOf(getExport(ctxOf(user), view.id))).toBeInstanceOf(NotFoundError);
      expect(await rejectionOf(getExportDownload(ctxOf(user), services.files, view.id))).toBeInstanceOf(NotFoundError);
      expect(await rejectionOf(getReadableFile(ctxOf(user), view.fileId!))).toBeInstanceOf(NotFoundError);
    }
    expect(await rejectionOf(getReadableFile(ctxOf(technician), view.fileId!))).toBeInstanceOf(NotFoundError);
    expect((await getReadableFile(ctxOf(admin), view.fileId!)).id).toBe(view.fileId);
    expect(await rejectionOf(getExport(ctxOf(admin), 2 ** 31))).toBeInstanceOf(NotFoundError);
  });

  it("writes nothing for a requester who was disabled before the job ran", async () => {
    const ctx = ctxOf(otherManager);
    const started = await startExport(ctx, { type: "users", format: "xlsx", filters: {} });
    await database.db.update(users).set({ status: UserStatus.DISABLED }).where(eq(users.id, otherManager.id));
    await services.queue.drain();
    await database.db.update(users).set({ status: UserStatus.ACTIVE }).where(eq(users.id, otherManager.id));
    const view = await getExport(ctx, started.id);
    expect(view.status).toBe(DataJobStatus.FAILED);
    expect(view.fileId).toBeNull();
  });
});

describe("the file, the notification and the expiry", () => {
  it("writes an xlsx workbook with the translated header and the rows", async () => {
    const { view, bytes } = await exportAs(admin, "incidents", { format: "xlsx" });
    expect(view.fileName).toMatch(/^incidents-\d{4}-\d{2}-\d{2}\.xlsx$/);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(bytes as unknown as ArrayBuffer);
    const sheet = workbook.worksheets[0];
    expect(sheet.name).toBe("Incidents");
    expect(sheet.getRow(1).getCell(2).value).toBe("Title");
    const titles = [];
    for (let r = 2; r <= sheet.rowCount; r++) titles.push(sheet.getRow(r).getCell(2).value);
    expect(titles).toContain("Leaking tap in the North office");
    expect(sheet.rowCount).toBe(4);
  });

  it("tells the requester, as the export success notification of its type, with the download link", async () => {
    const { view } = await exportAs(manager, "buildings");
    const told = await database.db
      .select({ userId: notifications.userId, type: notificationDetails.type, message: notificationDetails.message, dataJobId: notificationDetails.dataJobId })
      .from(notifications)
      .innerJoin(notificationDetails, eq(notificationDetails.id, notifications.detailsId))
      .where(and(eq(notificationDetails.entityId, entityA.id), eq(notificationDetails.dataJobId, view.id)));
    expect(told).toEqual([{ userId: manager.id, type: exportSuccessNotificationType(ExportType.BUILDINGS), message: expect.objectContaining({ downloadFileId: view.fileId }), dataJobId: view.id }]);
  });

  it("deletes the file once its time has come, and the export shows as expired", async () => {
    const { view } = await exportAs(admin, "facilities");
    const { path } = await getExportDownload(ctxOf(admin), services.files, view.id);
    expect(new Date(view.expiresAt!).getTime() - new Date(view.finishedAt!).getTime()).toBe(72 * 3_600_000);
    // Not yet.
    const expiry = { db: database.db, files: services.files };
    await expireExports(expiry, new Date(new Date(view.expiresAt!).getTime() - 1000));
    expect(fs.existsSync(path)).toBe(true);
    await expireExports(expiry, new Date(new Date(view.expiresAt!).getTime() + 1000));
    expect(fs.existsSync(path)).toBe(false);
    const [file] = await database.db.select().from(storedFiles).where(eq(storedFiles.id, view.fileId!));
    expect(file.deletedAt).not.toBeNull();
    const after = await getExport(ctxOf(admin), view.id);
    expect(after).toMatchObject({ expired: true, fileId: null });
    expect(await rejectionOf(getExportDownload(ctxOf(admin), services.files, view.id))).toBeInstanceOf(NotFoundError);
    expect(await rejectionOf(getReadableFile(ctxOf(admin), view.fileId!))).toBeInstanceOf(NotFoundError);
    // The export itself stays, as an expired one.
    const [row] = await database.db.select().from(dataJobs).where(eq(dataJobs.id, view.id));
    expect(row.status).toBe(DataJobStatus.SUCCEEDED);
  });

  it("serves an export no more once its expiry passed, even before its file is deleted", async () => {
    const { view } = await exportAs(manager, "room-types");
    expect((await getReadableFile(ctxOf(manager), view.fileId!)).id).toBe(view.fileId);
    await database.db.update(dataJobs).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(dataJobs.id, view.id));
    expect(await rejectionOf(getReadableFile(ctxOf(manager), view.fileId!))).toBeInstanceOf(NotFoundError);
    expect(await rejectionOf(getExportDownload(ctxOf(manager), services.files, view.id))).toBeInstanceOf(NotFoundError);
    expect(await getExport(ctxOf(manager), view.id)).toMatchObject({ expired: true, fileId: null });
  });

  it("keeps at most three exports of one person in progress (409)", async () => {
    const ctx = ctxOf(admin);
    for (let i = 0; i < 3; i++) await startExport(ctx, { type: "users", format: "csv", filters: {} });
    expect(await rejectionOf(startExport(ctx, { type: "users", format: "csv", filters: {} }))).toMatchObject({ status: 409, code: "TOO_MANY_EXPORTS" });
    await services.queue.drain();
  });
});
