import fs from "node:fs";
import { and, eq, isNull } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "~/db/client.server";
import { BulkUploadType, DataJobStatus, Priority, Role, TimeMeasure, UserLanguage } from "~/db/enums";
import { buildings, dataJobs, type Entity, equipmentCategories, equipmentTypes, facilities, incidentTypes, maintenanceTypes, rooms, roomTypes, type User } from "~/db/schema";
import { getExport, getExportDownload } from "~/modules/exports/queries.server";
import type { ExportTypeSlug } from "~/modules/exports/schema";
import { startExport } from "~/modules/exports/service.server";
import { createBuilding, createEntity, createEquipmentCategory, createEquipmentType, createFacility, createIncidentType, createMaintenanceType, createRoom, createRoomType, createUser } from "#tests/factories";
import { createTestServices, type TestServices } from "#tests/test-context";
import { createTestDatabase } from "#tests/test-db";
import { startImport } from "./service.server";

/**
 * Issue 49's round trip (decisions 054 and 055): the exports of facilities, buildings, room types,
 * rooms, equipment categories and types, maintenance types and incident types, as .xlsx and as CSV,
 * written in the requester's language, import as they are, in dependency order, into an empty entity
 * and give the same data (what both sides carry: names, texts, addresses, tags, enumerations and the
 * references by name; never ids, short ids or times).
 */
let database: Database;
let services: TestServices;
let source: Entity;

const ctxOf = (user: User) => services.ctx(user.entityId, { id: user.id, role: user.role });

/** Import order: what a line names must exist before it. */
const ORDER: Array<{ exportType: ExportTypeSlug; importType: BulkUploadType }> = [
  { exportType: "facilities", importType: BulkUploadType.FACILITY },
  { exportType: "buildings", importType: BulkUploadType.BUILDING },
  { exportType: "room-types", importType: BulkUploadType.ROOM_TYPES },
  { exportType: "rooms", importType: BulkUploadType.ROOMS },
  { exportType: "equipment-categories", importType: BulkUploadType.EQUIPMENT_CATEGORIES },
  { exportType: "generic-equipments", importType: BulkUploadType.EQUIPMENT_TYPES },
  { exportType: "maintenance-types", importType: BulkUploadType.MAINTENANCE_TYPES },
  { exportType: "incident-types", importType: BulkUploadType.INCIDENT_TYPE },
];

/** Empty text and no text are the same to a spreadsheet. */
const text = (value: string | null | undefined) => (value === null || value === undefined || value === "" ? null : value);
const sortedTags = (tags: string[]) => [...tags].sort();
const byJson = <T>(rows: T[]) => rows.map((r) => JSON.stringify(r)).sort();

/** An entity's records of the eight types, as both sides carry them (active ones, no ids). */
async function snapshot(entityId: number) {
  const db = database.db;
  const facilityRows = await db.select().from(facilities).where(and(eq(facilities.entityId, entityId), isNull(facilities.archivedAt)));
  const facilityName = new Map(facilityRows.map((f) => [f.id, f.name]));
  const buildingRows = await db.select().from(buildings).where(and(eq(buildings.entityId, entityId), isNull(buildings.archivedAt)));
  const buildingName = new Map(buildingRows.map((b) => [b.id, b.name]));
  const buildingFacility = new Map(buildingRows.map((b) => [b.id, facilityName.get(b.facilityId)]));
  const roomTypeRows = await db.select().from(roomTypes).where(and(eq(roomTypes.entityId, entityId), isNull(roomTypes.archivedAt)));
  const roomTypeName = new Map(roomTypeRows.map((t) => [t.id, t.name]));
  const roomRows = await db.select().from(rooms).where(and(eq(rooms.entityId, entityId), isNull(rooms.archivedAt)));
  const categoryRows = await db.select().from(equipmentCategories).where(and(eq(equipmentCategories.entityId, entityId), isNull(equipmentCategories.archivedAt)));
  const categoryName = new Map(categoryRows.map((c) => [c.id, c.name]));
  const equipmentRows = await db.select().from(equipmentTypes).where(and(eq(equipmentTypes.entityId, entityId), isNull(equipmentTypes.archivedAt)));
  const maintenanceRows = await db.select().from(maintenanceTypes).where(and(eq(maintenanceTypes.entityId, entityId), isNull(maintenanceTypes.archivedAt)));
  const incidentTypeRows = await db.select().from(incidentTypes).where(and(eq(incidentTypes.entityId, entityId), isNull(incidentTypes.archivedAt)));
  return {
    facilities: byJson(facilityRows.map((f) => ({ name: f.name, description: text(f.description) }))),
    buildings: byJson(
      buildingRows.map((b) => ({
        name: b.name,
        facility: facilityName.get(b.facilityId),
        description: text(b.description),
        streetName: text(b.streetName),
        streetNumber: text(b.streetNumber),
        suffix: text(b.suffix),
        buildingFloor: text(b.buildingFloor),
        additionalInfo: text(b.additionalInfo),
        postalCode: text(b.postalCode),
        city: text(b.city),
        country: text(b.country),
      })),
    ),
    roomTypes: byJson(roomTypeRows.map((t) => ({ name: t.name, tags: sortedTags(t.tags), ratingMessages: t.ratingMessages }))),
    rooms: byJson(roomRows.map((r) => ({ name: r.name, building: buildingName.get(r.buildingId), facility: buildingFacility.get(r.buildingId), roomType: roomTypeName.get(r.roomTypeId), floor: text(r.floor), description: text(r.description) }))),
    categories: byJson(categoryRows.map((c) => ({ name: c.name, tags: sortedTags(c.tags) }))),
    equipmentTypes: byJson(equipmentRows.map((e) => ({ name: e.name, category: categoryName.get(e.categoryId), notes: text(e.notes), tags: sortedTags(e.tags) }))),
    maintenanceTypes: byJson(maintenanceRows.map((m) => ({ name: m.name, tags: sortedTags(m.tags), occurrenceUnit: m.occurrenceUnit, occurrenceInterval: m.occurrenceInterval, instructions: text(m.instructions), estimatedDuration: m.estimatedDuration }))),
    incidentTypes: byJson(
      incidentTypeRows.map((t) => ({ nameEn: text(t.nameEn), nameFr: text(t.nameFr), nameNl: text(t.nameNl), defaultPriority: t.defaultPriority, appliesEverywhere: t.appliesEverywhere, reporterMayChangePriority: t.reporterMayChangePriority })),
    ),
  };
}

/** Exports one type as `user` and answers the file's bytes. */
async function exported(user: User, type: ExportTypeSlug, format: "csv" | "xlsx"): Promise<Uint8Array> {
  const ctx = ctxOf(user);
  const started = await startExport(ctx, { type, format, filters: {} });
  await services.queue.drain();
  expect((await getExport(ctx, started.id)).status).toBe(DataJobStatus.SUCCEEDED);
  const { path } = await getExportDownload(ctx, services.files, started.id);
  return new Uint8Array(fs.readFileSync(path));
}

/** Imports a file as `user`, runs the job, and expects it done without a fault (the file named if not). */
async function imported(user: User, type: BulkUploadType, bytes: Uint8Array, name: string) {
  const job = await startImport(ctxOf(user), { type, file: { bytes, name } });
  await services.queue.drain();
  const [done] = await database.db.select().from(dataJobs).where(eq(dataJobs.id, job.id));
  expect({ name, status: done.status, errors: done.errors, message: done.errorMessage }).toEqual({ name, status: DataJobStatus.SUCCEEDED, errors: [], message: null });
}

beforeAll(async () => {
  database = await createTestDatabase();
  services = await createTestServices(database);
  const db = database.db;
  source = await createEntity(db);
  const entityId = source.id;

  const north = await createFacility(db, { entityId, name: "North site", description: 'Main; "quoted"\nsecond line' });
  const south = await createFacility(db, { entityId, name: "-5 cold storage", description: null });
  const northHall = await createBuilding(db, { entityId, facilityId: north.id, name: "North hall", suffix: "b", buildingFloor: "2", additionalInfo: "Back door", description: "Red brick" });
  const southHall = await createBuilding(db, { entityId, facilityId: south.id, name: "South hall", country: "FR", postalCode: "59000", city: "Lille", streetNumber: "12" });
  const office = await createRoomType(db, {
    entityId,
    name: "Office",
    tags: ["desk", "quiet"],
    ratingMessages: [
      { language: 0, message: "How quiet is this office?" },
      { language: 2, message: "Hoe rustig is dit kantoor?" },
    ],
  });
  const store = await createRoomType(db, { entityId, name: "Storage" });
  await createRoom(db, { entityId, buildingId: northHall.id, roomTypeId: office.id, name: "North office", floor: "1", description: "Corner, by the stairs" });
  await createRoom(db, { entityId, buildingId: southHall.id, roomTypeId: store.id, name: "Freezer", floor: "-1" });
  await createRoom(db, { entityId, buildingId: southHall.id, roomTypeId: office.id, name: "=Desk 2", floor: "0" });
  // Building names repeat across facilities: a room's line names its facility too.
  const northAnnex = await createBuilding(db, { entityId, facilityId: north.id, name: "Annex" });
  const southAnnex = await createBuilding(db, { entityId, facilityId: south.id, name: "Annex" });
  await createRoom(db, { entityId, buildingId: northAnnex.id, roomTypeId: store.id, name: "Lobby", floor: "0" });
  await createRoom(db, { entityId, buildingId: southAnnex.id, roomTypeId: office.id, name: "Lobby", floor: "+1" });
  const lighting = await createEquipmentCategory(db, { entityId, name: "Lighting", tags: ["light"] });
  const heating = await createEquipmentCategory(db, { entityId, name: "Heating" });
  await createEquipmentType(db, { entityId, categoryId: lighting.id, name: "Lamp; ceiling", notes: 'Say "hi"\nthen =SUM(A1)', tags: ["led", "ceiling"] });
  await createEquipmentType(db, { entityId, categoryId: heating.id, name: "Radiator" });
  await createMaintenanceType(db, { entityId, name: "Boiler service", tags: ["heating"], instructions: "Check the pressure;\nthen bleed the radiators", occurrenceUnit: TimeMeasure.WEEK, occurrenceInterval: 2, estimatedDuration: 45 });
  await createMaintenanceType(db, { entityId, name: "Yearly check", occurrenceUnit: TimeMeasure.YEAR, occurrenceInterval: 1 });
  await createMaintenanceType(db, { entityId, name: "Commissioning", occurrenceUnit: TimeMeasure.UNSPECIFIED, occurrenceInterval: null });
  await createIncidentType(db, { entityId, nameEn: "Leak", nameNl: "Lek", defaultPriority: Priority.HIGH, appliesEverywhere: true, reporterMayChangePriority: true });
  await createIncidentType(db, { entityId, nameFr: "Fenêtre cassée", defaultPriority: Priority.LOW, appliesEverywhere: false });
  await createIncidentType(db, { entityId, nameEn: "Smell", nameFr: "Odeur", nameNl: "Geur", defaultPriority: Priority.CRITICAL });
});

afterAll(async () => {
  await services?.close();
  await database?.close();
});

describe("export, then import into an empty entity", () => {
  for (const language of [UserLanguage.EN, UserLanguage.NL]) {
    for (const format of ["xlsx", "csv"] as const) {
      it(`gives the same data (${format}, headers and words in ${language === UserLanguage.EN ? "English" : "Dutch"})`, async () => {
        const db = database.db;
        const exporter = await createUser(db, { entityId: source.id, role: Role.ADMINISTRATOR, language });
        const target = await createEntity(db);
        const importer = await createUser(db, { entityId: target.id, role: Role.ADMINISTRATOR, language });
        const before = await snapshot(target.id);
        expect(Object.values(before).every((rows) => rows.length === 0)).toBe(true);

        for (const { exportType, importType } of ORDER) {
          const bytes = await exported(exporter, exportType, format);
          if (format === "csv" && exportType === "maintenance-types") {
            // The requester's language: the import's labels as headers, the export's words as values.
            const [header, ...lines] = new TextDecoder().decode(bytes).split("\r\n");
            expect(header).toContain(language === UserLanguage.EN ? "Name;Tags;Repeat;Every" : "Naam;Labels;Herhaling;Elke");
            expect(lines.join("\n")).toContain(language === UserLanguage.EN ? "Weeks" : "Weken");
            expect(header).toContain(language === UserLanguage.EN ? ";Estimated duration (minutes)" : ";Geschatte duur (minuten)");
            const boiler = lines.find((line) => line.startsWith("Boiler service;"));
            // After the instructions (quoted: they hold a semicolon), the estimated duration.
            expect(boiler).toContain('radiators";45;');
          }
          await imported(importer, importType, bytes, `${exportType}.${format}`);
        }

        const expected = await snapshot(source.id);
        expect(expected.rooms).toHaveLength(5);
        expect(expected.maintenanceTypes.map((m) => (JSON.parse(m) as { estimatedDuration: number | null }).estimatedDuration).sort()).toEqual([45, null, null]);
        expect(await snapshot(target.id)).toEqual(expected);
      });
    }
  }
});
