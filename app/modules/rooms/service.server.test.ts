import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { and, eq, inArray, isNull } from "drizzle-orm";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "~/db/client.server";
import { IncidentEventType, IncidentStatus, IncidentTypeStatus, Role, RoomLinkType } from "~/db/enums";
import { type Building, type Entity, entityCounters, type EquipmentType, equipmentItems, equipmentTypes, type Facility, type Incident, incidentEvents, incidents, type IncidentType, incidentTypeRooms, incidentTypeRoomTypes, reportIdentifiers, roomFiles, roomLinks, rooms, type RoomType, roomTypes, storedFiles, type User } from "~/db/schema";
import { ForbiddenError, NotFoundError, ValidationError } from "~/lib/errors";
import { parseInput } from "~/lib/validation";
import type { FileStore } from "~/modules/files/storage.server";
import type { FilesContext } from "~/modules/files/uploads.server";
import { createBuilding, createEntity, createEquipmentItem, createEquipmentType as createEquipmentTypeRow, createFacility, createIncident, createIncidentType, createRoom as createRoomRow, createRoomType as createRoomTypeRow, createUser, linkToEveryFacility, linkUserTo } from "#tests/factories";
import { createFacilityTree } from "#tests/factories/cascade";
import { pngBytes } from "#tests/factories/files";
import { createTestDatabase } from "#tests/test-db";
import { actorContext, expectFieldError, fieldErrorsOf, rejectionOf } from "#tests/service-helpers";
import { getRoom, getRoomType, type RoomDetail } from "./queries.server";
import { AddEquipmentSchema } from "./schema";
import { archiveRoom, createRoom, createRoomType, removeRoomType, type RoomWrite, updateRoom, updateRoomType } from "./service.server";

const NAME_REQUIRED = "rooms:validation.nameRequired";
const FLOOR_REQUIRED = "rooms:validation.floorRequired";
const ROOM_TYPE_REQUIRED = "rooms:validation.roomTypeRequired";
const BUILDING_REQUIRED = "rooms:validation.buildingRequired";
const EQUIPMENT_REQUIRED = "rooms:validation.equipmentRequired";
const NO_EQUIPMENT = "rooms:validation.noEquipment";
const LINK_TYPE = "rooms:validation.linkType";
const NOT_A_URL = "rooms:validation.url";
const TAG_EMPTY = "common:tags.empty";
const TAG_TOO_MANY = "common:tags.tooMany";
const TAG_TOO_LONG = "common:tags.tooLong";
const INVALID = "common:validation.invalid";
const WRONG_NAME = "common:archive.wrongName";
const CODE = /^[2-9A-HJ-NP-Z]{13}$/;

let database: Database;
let entityA: Entity;
let entityB: Entity;
let manager: User;
let admin: User;
let technician: User;
let otherManager: User;
let a: Place;
let b: Place;
const files: FileStore = { root: fs.mkdtempSync(path.join(os.tmpdir(), "caretaker-rooms-")), maxBytes: 64 * 1024 };

const ctxFor = (user: User) => actorContext(database.db, user, { files });
/** Puts every facility of the user's entity made so far within their reach (managers reach linked facilities only). */
const reach = (user: User) => linkToEveryFacility(database.db, user);
const anonymous = (): FilesContext => ({ ...ctxFor(manager), actor: null });

/** What one entity needs to hold rooms: a facility with two buildings, room types, generic equipment, incident types. */
interface Place {
  facility: Facility;
  building: Building;
  otherBuilding: Building;
  roomType: RoomType;
  otherRoomType: RoomType;
  chair: EquipmentType;
  desk: EquipmentType;
  incidentType: IncidentType;
  otherIncidentType: IncidentType;
}

async function makePlace(entityId: number): Promise<Place> {
  const db = database.db;
  const facility = await createFacility(db, { entityId, name: "Campus" });
  const chair = await createEquipmentTypeRow(db, { entityId, name: "Chair" });
  return {
    facility,
    building: await createBuilding(db, { entityId, facilityId: facility.id, name: "Main" }),
    otherBuilding: await createBuilding(db, { entityId, facilityId: facility.id, name: "Annex" }),
    roomType: await createRoomTypeRow(db, { entityId, name: "Office" }),
    otherRoomType: await createRoomTypeRow(db, { entityId, name: "Kitchen" }),
    chair,
    desk: await createEquipmentTypeRow(db, { entityId, name: "Desk", categoryId: chair.categoryId }),
    incidentType: await createIncidentType(db, { entityId, nameEn: "Broken" }),
    otherIncidentType: await createIncidentType(db, { entityId, nameEn: "Dirty" }),
  };
}

function roomInput(p: Place, overrides: Partial<RoomWrite> = {}): RoomWrite {
  return {
    name: "Meeting room",
    description: "Left of the lifts",
    floor: "2",
    buildingId: p.building.id,
    roomTypeId: p.roomType.id,
    incidentTypes: [p.incidentType.id],
    equipments: [{ equipmentTypeId: p.chair.id, internalReference: "CH-1" }],
    links: [
      { type: RoomLinkType.WIFI, url: "https://wifi.example.com/join" },
      { type: RoomLinkType.BOOKING, url: "http://book.example.org" },
    ],
    ...overrides,
  };
}

/** A room made through the service (so it has everything the service makes). */
async function serviceRoom(p: Place = a, overrides: Partial<RoomWrite> = {}): Promise<RoomDetail> {
  return createRoom(ctxFor(p === b ? otherManager : manager), roomInput(p, overrides));
}

const pdfBytes = () => new TextEncoder().encode("%PDF-1.4\n1 0 obj\n<<>>\nendobj\ntrailer\n<<>>\n%%EOF\n");
const svgBytes = () => new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg" width="1" height="1"></svg>');
const randomBytes = () => new Uint8Array(Array.from({ length: 64 }, (_, i) => (i * 37 + 11) % 256));

// ---------------------------------------------------------------------------
// Assertions
// ---------------------------------------------------------------------------

const TRACKED = {
  rooms,
  roomTypes,
  roomLinks,
  roomFiles,
  equipmentItems,
  equipmentTypes,
  reportIdentifiers,
  incidentTypeRooms,
  incidentTypeRoomTypes,
  incidents,
  incidentEvents,
  storedFiles,
  entityCounters,
};

/** Every row of the tables the verbs write, and the files on disk: "nothing changed" compares two of these. */
async function snapshot(): Promise<Record<string, string[]>> {
  const out: Record<string, string[]> = {};
  for (const [name, table] of Object.entries(TRACKED)) {
    const rows = await database.db.select().from(table as typeof rooms);
    out[name] = rows.map((r) => JSON.stringify(r)).sort();
  }
  out.disk = (fs.readdirSync(files.root, { recursive: true }) as string[]).sort();
  return out;
}

async function expectNothingChanged(before: Record<string, string[]>) {
  expect(await snapshot()).toEqual(before);
}

async function roomRow(id: number) {
  const [row] = await database.db.select().from(rooms).where(eq(rooms.id, id));
  return row;
}

async function roomTypeRow(id: number) {
  const [row] = await database.db.select().from(roomTypes).where(eq(roomTypes.id, id));
  return row;
}

async function itemsOf(roomId: number) {
  return database.db.select().from(equipmentItems).where(eq(equipmentItems.roomId, roomId)).orderBy(equipmentItems.id);
}

async function identifiersOf(where: { roomId?: number; itemIds?: number[] }) {
  return database.db
    .select()
    .from(reportIdentifiers)
    .where(
      where.roomId !== undefined
        ? eq(reportIdentifiers.roomId, where.roomId)
        : inArray(reportIdentifiers.equipmentItemId, where.itemIds!.length ? where.itemIds! : [-1])
    );
}

async function incidentRow(id: number) {
  const [row] = await database.db.select().from(incidents).where(eq(incidents.id, id));
  return row;
}

async function statusEventsOf(incidentId: number) {
  return database.db
    .select()
    .from(incidentEvents)
    .where(and(eq(incidentEvents.incidentId, incidentId), eq(incidentEvents.type, IncidentEventType.STATUS_UPDATE)));
}

/** A Pending/In Progress incident turned Rejected by the cascade, with exactly one status event by `actor`. */
async function expectRejectedBy(incident: Incident, actor: User) {
  expect((await incidentRow(incident.id)).status).toBe(IncidentStatus.REJECTED);
  const events = await statusEventsOf(incident.id);
  expect(events).toHaveLength(1);
  expect(events[0]).toMatchObject({
    entityId: incident.entityId,
    type: IncidentEventType.STATUS_UPDATE,
    actorId: actor.id,
    oldValue: incident.status,
    newValue: IncidentStatus.REJECTED,
  });
}

/** An incident the cascade must leave alone: same status, no status event. */
async function expectUntouched(incident: Incident) {
  const row = await incidentRow(incident.id);
  expect(row.status).toBe(incident.status);
  expect(row.updatedAt).toEqual(incident.updatedAt);
  expect(await statusEventsOf(incident.id)).toHaveLength(0);
}

function filesOnDisk(): string[] {
  return (fs.readdirSync(files.root, { recursive: true }) as string[]).filter((f) => fs.statSync(path.join(files.root, f)).isFile());
}

beforeAll(async () => {
  database = await createTestDatabase();
  entityA = await createEntity(database.db, { name: "Entity A" });
  entityB = await createEntity(database.db, { name: "Entity B" });
  manager = await createUser(database.db, { entityId: entityA.id, role: Role.FACILITY_MANAGER });
  admin = await createUser(database.db, { entityId: entityA.id, role: Role.ADMINISTRATOR });
  technician = await createUser(database.db, { entityId: entityA.id, role: Role.TECHNICIAN });
  otherManager = await createUser(database.db, { entityId: entityB.id, role: Role.FACILITY_MANAGER });
  a = await makePlace(entityA.id);
  b = await makePlace(entityB.id);
  // Facility managers reach the facilities they are linked to (decision 022).
  await reach(manager);
  await reach(otherManager);
});
afterAll(async () => {
  await database?.close();
  fs.rmSync(files.root, { recursive: true, force: true });
});

// ---------------------------------------------------------------------------
// Schemas without a verb of their own
// ---------------------------------------------------------------------------

describe("AddEquipmentSchema (the quantity dialog)", () => {
  const errorsOf = (input: unknown) => {
    try {
      parseInput(AddEquipmentSchema, input);
    } catch (error) {
      expect(error).toBeInstanceOf(ValidationError);
      return (error as ValidationError).fieldErrors!;
    }
    throw new Error("expected a validation error");
  };

  it("requires a quantity between 1 and 99", () => {
    expect(errorsOf({ equipmentTypeId: 1 }).quantity).toEqual(["rooms:validation.quantityRequired"]);
    expect(errorsOf({ equipmentTypeId: 1, quantity: null }).quantity).toEqual(["rooms:validation.quantityRequired"]);
    expect(errorsOf({ equipmentTypeId: 1, quantity: 0 }).quantity).toEqual(["rooms:validation.quantityRequired"]);
    expect(errorsOf({ equipmentTypeId: 1, quantity: 2.5 }).quantity).toContain("rooms:validation.quantityRequired");
    expect(errorsOf({ equipmentTypeId: 1, quantity: -1 }).quantity?.[0]).toBe("rooms:validation.quantityNegative");
    expect(errorsOf({ equipmentTypeId: 1, quantity: 100 }).quantity).toEqual(["rooms:validation.quantityMax"]);
    expect(parseInput(AddEquipmentSchema, { equipmentTypeId: 1, quantity: 99 })).toEqual({ equipmentTypeId: 1, quantity: 99 });
    expect(parseInput(AddEquipmentSchema, { equipmentTypeId: 1, quantity: 1 })).toEqual({ equipmentTypeId: 1, quantity: 1 });
  });

  it("shows only the 'not negative' message for a negative quantity", () => {
    // A negative number is not a missing one: showing "quantity required" beside "not negative" is noise.
    expect(errorsOf({ equipmentTypeId: 1, quantity: -1 }).quantity).toEqual(["rooms:validation.quantityNegative"]);
  });

  it("requires the generic equipment", () => {
    expect(errorsOf({ quantity: 3 }).equipmentTypeId).toEqual([EQUIPMENT_REQUIRED]);
    expect(errorsOf({ equipmentTypeId: 0, quantity: 3 }).equipmentTypeId).toEqual([EQUIPMENT_REQUIRED]);
  });
});

// ---------------------------------------------------------------------------
// Room types
// ---------------------------------------------------------------------------

describe("createRoomType", () => {
  it("stores the trimmed name and tags (duplicates ignoring case dropped) for a manager and an administrator", async () => {
    const created = await createRoomType(ctxFor(manager), {
      roomTypeName: "  Open space ",
      tags: [" quiet ", "Quiet", "x".repeat(20)],
    });
    expect(created).toEqual({
      id: expect.any(Number),
      roomTypeName: "Open space",
      tags: ["quiet", "x".repeat(20)],
      linkedRoomsCount: 0,
      roomTypeRatingMessages: [],
      incidentTypesCount: 0,
    });
    expect(await roomTypeRow(created.id)).toMatchObject({
      entityId: entityA.id,
      name: "Open space",
      tags: ["quiet", "x".repeat(20)],
      archivedAt: null,
    });

    const byAdmin = await createRoomType(ctxFor(admin), { roomTypeName: "Storage" });
    expect(byAdmin).toMatchObject({ roomTypeName: "Storage", tags: [] });
    expect((await roomTypeRow(byAdmin.id)).entityId).toBe(entityA.id);
  });

  it("refuses a technician and a missing actor, writing nothing", async () => {
    const before = await snapshot();
    await expect(createRoomType(ctxFor(technician), { roomTypeName: "Nope" })).rejects.toBeInstanceOf(ForbiddenError);
    await expect(createRoomType(anonymous(), { roomTypeName: "Nope" })).rejects.toBeInstanceOf(ForbiddenError);
    await expectNothingChanged(before);
  });

  it("names the missing name and every tag rule, writing nothing", async () => {
    const ctx = ctxFor(manager);
    const before = await snapshot();
    await expectFieldError(createRoomType(ctx, { roomTypeName: "" }), "roomTypeName", NAME_REQUIRED);
    await expectFieldError(createRoomType(ctx, { roomTypeName: "   " }), "roomTypeName", NAME_REQUIRED);
    await expectFieldError(createRoomType(ctx, {} as never), "roomTypeName", NAME_REQUIRED);
    await expectFieldError(createRoomType(ctx, { roomTypeName: "T", tags: [""] }), "tags.0", TAG_EMPTY);
    await expectFieldError(createRoomType(ctx, { roomTypeName: "T", tags: ["ok", "  "] }), "tags.1", TAG_EMPTY);
    await expectFieldError(createRoomType(ctx, { roomTypeName: "T", tags: ["a", "b", "c", "d"] }), "tags", TAG_TOO_MANY);
    await expectFieldError(createRoomType(ctx, { roomTypeName: "T", tags: ["x".repeat(21)] }), "tags.0", TAG_TOO_LONG);
    await expectNothingChanged(before);
  });
});

describe("updateRoomType", () => {
  it("replaces the name and tags", async () => {
    const type = await createRoomTypeRow(database.db, { entityId: entityA.id, name: "Lab", tags: ["old"] });
    const updated = await updateRoomType(ctxFor(manager), type.id, { roomTypeName: " Wet lab ", tags: ["chemistry", "floor 3"] });
    expect(updated).toMatchObject({ id: type.id, roomTypeName: "Wet lab", tags: ["chemistry", "floor 3"], linkedRoomsCount: 0 });
    const row = await roomTypeRow(type.id);
    expect(row).toMatchObject({ name: "Wet lab", tags: ["chemistry", "floor 3"], archivedAt: null });
    expect(row.updatedAt.getTime()).toBeGreaterThanOrEqual(type.updatedAt.getTime());
    // Missing tags clear them (PUT semantics).
    expect((await updateRoomType(ctxFor(admin), type.id, { roomTypeName: "Wet lab" })).tags).toEqual([]);
  });

  it("answers not found for another entity's or an archived room type, changing nothing", async () => {
    const archived = await createRoomTypeRow(database.db, { entityId: entityA.id, archivedAt: new Date() });
    const before = await snapshot();
    await expect(updateRoomType(ctxFor(manager), b.roomType.id, { roomTypeName: "Taken" })).rejects.toBeInstanceOf(NotFoundError);
    await expect(updateRoomType(ctxFor(otherManager), a.roomType.id, { roomTypeName: "Taken" })).rejects.toBeInstanceOf(NotFoundError);
    await expect(updateRoomType(ctxFor(manager), archived.id, { roomTypeName: "Back" })).rejects.toBeInstanceOf(NotFoundError);
    await expect(updateRoomType(ctxFor(manager), 999_999, { roomTypeName: "Ghost" })).rejects.toBeInstanceOf(NotFoundError);
    await expectNothingChanged(before);
  });

  it("refuses a technician, changing nothing", async () => {
    const before = await snapshot();
    await expect(updateRoomType(ctxFor(technician), a.roomType.id, { roomTypeName: "Hacked" })).rejects.toBeInstanceOf(ForbiddenError);
    await expectNothingChanged(before);
  });

  it("names the missing name and every tag rule, changing nothing", async () => {
    const ctx = ctxFor(manager);
    const id = a.otherRoomType.id;
    const before = await snapshot();
    await expectFieldError(updateRoomType(ctx, id, { roomTypeName: " " }), "roomTypeName", NAME_REQUIRED);
    await expectFieldError(updateRoomType(ctx, id, { roomTypeName: "K", tags: [""] }), "tags.0", TAG_EMPTY);
    await expectFieldError(updateRoomType(ctx, id, { roomTypeName: "K", tags: ["1", "2", "3", "4"] }), "tags", TAG_TOO_MANY);
    await expectFieldError(updateRoomType(ctx, id, { roomTypeName: "K", tags: ["y".repeat(21)] }), "tags.0", TAG_TOO_LONG);
    await expectNothingChanged(before);
  });
});

describe("removeRoomType", () => {
  async function typeInUse() {
    const type = await createRoomTypeRow(database.db, { entityId: entityA.id, name: "To remove" });
    const room = await createRoomRow(database.db, { entityId: entityA.id, buildingId: a.building.id, roomTypeId: type.id });
    return { type, room };
  }

  it("removes an unused room type without a replacement (rooms archived earlier do not count)", async () => {
    const type = await createRoomTypeRow(database.db, { entityId: entityA.id });
    await createRoomRow(database.db, { entityId: entityA.id, buildingId: a.building.id, roomTypeId: type.id, archivedAt: new Date() });
    expect(await removeRoomType(ctxFor(manager), type.id, {})).toEqual({ roomsMoved: 0, incidentTypesMoved: 0 });
    expect((await roomTypeRow(type.id)).archivedAt).not.toBeNull();
    await expect(getRoomType(ctxFor(manager), type.id)).rejects.toBeInstanceOf(NotFoundError);

    const other = await createRoomTypeRow(database.db, { entityId: entityA.id });
    expect(await removeRoomType(ctxFor(admin), other.id, { replacementRoomType: null })).toEqual({ roomsMoved: 0, incidentTypesMoved: 0 });
    expect((await roomTypeRow(other.id)).archivedAt).not.toBeNull();
  });

  it("asks for a replacement when rooms use the type, changing nothing", async () => {
    const { type } = await typeInUse();
    const before = await snapshot();
    const error = await rejectionOf(removeRoomType(ctxFor(manager), type.id, {}));
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).messageKey).toBe("rooms:errors.roomTypeInUse");
    expect((error as ValidationError).fieldErrors?.replacementRoomType).toBeDefined();
    await expectNothingChanged(before);
  });

  it("asks for a replacement when only an incident type uses the type", async () => {
    const type = await createRoomTypeRow(database.db, { entityId: entityA.id });
    await createIncidentType(database.db, { entityId: entityA.id, roomTypeIds: [type.id] });
    const before = await snapshot();
    const error = await rejectionOf(removeRoomType(ctxFor(manager), type.id, { replacementRoomType: null }));
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).messageKey).toBe("rooms:errors.roomTypeInUse");
    expect((error as ValidationError).fieldErrors?.replacementRoomType).toBeDefined();
    await expectNothingChanged(before);
  });

  it("refuses a malformed replacement id", async () => {
    const { type } = await typeInUse();
    const before = await snapshot();
    for (const replacementRoomType of [-1, 0, 1.5, "3"]) {
      await expectFieldError(
        removeRoomType(ctxFor(manager), type.id, { replacementRoomType } as never),
        "replacementRoomType",
        "rooms:validation.replacementRequired"
      );
    }
    await expectNothingChanged(before);
  });

  it("refuses the type itself as its replacement", async () => {
    const { type } = await typeInUse();
    const unused = await createRoomTypeRow(database.db, { entityId: entityA.id });
    const before = await snapshot();
    await expectFieldError(
      removeRoomType(ctxFor(manager), type.id, { replacementRoomType: type.id }),
      "replacementRoomType",
      "rooms:validation.replacementSame"
    );
    await expectFieldError(
      removeRoomType(ctxFor(manager), unused.id, { replacementRoomType: unused.id }),
      "replacementRoomType",
      "rooms:validation.replacementSame"
    );
    await expectNothingChanged(before);
  });

  it("refuses a replacement of another entity, an archived one or an unknown one", async () => {
    const { type } = await typeInUse();
    const archived = await createRoomTypeRow(database.db, { entityId: entityA.id, archivedAt: new Date() });
    const before = await snapshot();
    for (const replacementRoomType of [b.roomType.id, archived.id, 999_999]) {
      const fieldErrors = await fieldErrorsOf(removeRoomType(ctxFor(manager), type.id, { replacementRoomType }));
      expect(fieldErrors.replacementRoomType).toEqual(["rooms:errors.roomTypeNotFound"]);
    }
    await expectNothingChanged(before);
  });

  it("moves the rooms and incident types to a valid replacement, then archives the type", async () => {
    const db = database.db;
    const type = await createRoomTypeRow(db, { entityId: entityA.id, name: "Old type" });
    const replacement = await createRoomTypeRow(db, { entityId: entityA.id, name: "New type" });
    const r1 = await createRoomRow(db, { entityId: entityA.id, buildingId: a.building.id, roomTypeId: type.id });
    const r2 = await createRoomRow(db, { entityId: entityA.id, buildingId: a.otherBuilding.id, roomTypeId: type.id });
    const r3 = await createRoomRow(db, { entityId: entityA.id, buildingId: a.building.id, roomTypeId: replacement.id });
    const archivedRoom = await createRoomRow(db, {
      entityId: entityA.id,
      buildingId: a.building.id,
      roomTypeId: type.id,
      archivedAt: new Date(),
    });
    const bystander = await createRoomRow(db, { entityId: entityA.id, buildingId: a.building.id, roomTypeId: a.roomType.id });
    const onlyOld = await createIncidentType(db, { entityId: entityA.id, roomTypeIds: [type.id] });
    const both = await createIncidentType(db, { entityId: entityA.id, roomTypeIds: [type.id, replacement.id] });
    const unrelated = await createIncidentType(db, { entityId: entityA.id, roomTypeIds: [a.roomType.id] });
    const otherEntityBefore = await db.select().from(rooms).where(eq(rooms.entityId, entityB.id));
    expect(await getRoomType(ctxFor(manager), replacement.id)).toMatchObject({ linkedRoomsCount: 1, incidentTypesCount: 1 });

    const result = await removeRoomType(ctxFor(manager), type.id, { replacementRoomType: replacement.id });
    expect(result).toEqual({ roomsMoved: 2, incidentTypesMoved: 2 });

    for (const room of [r1, r2, r3, archivedRoom]) expect((await roomRow(room.id)).roomTypeId).toBe(replacement.id);
    expect((await roomRow(bystander.id)).roomTypeId).toBe(a.roomType.id);
    const links = await db
      .select()
      .from(incidentTypeRoomTypes)
      .where(inArray(incidentTypeRoomTypes.incidentTypeId, [onlyOld.id, both.id, unrelated.id]));
    expect(links.map((l) => [l.incidentTypeId, l.roomTypeId]).sort()).toEqual(
      [
        [onlyOld.id, replacement.id],
        [both.id, replacement.id],
        [unrelated.id, a.roomType.id],
      ].sort()
    );
    expect(await db.select().from(incidentTypeRoomTypes).where(eq(incidentTypeRoomTypes.roomTypeId, type.id))).toEqual([]);
    expect((await roomTypeRow(type.id)).archivedAt).not.toBeNull();
    expect((await roomTypeRow(replacement.id)).archivedAt).toBeNull();
    expect(await getRoomType(ctxFor(manager), replacement.id)).toMatchObject({ linkedRoomsCount: 3, incidentTypesCount: 2 });
    expect(await db.select().from(rooms).where(eq(rooms.entityId, entityB.id))).toEqual(otherEntityBefore);
  });

  it("answers not found for another entity's or an already removed type, and refuses a technician", async () => {
    const removed = await createRoomTypeRow(database.db, { entityId: entityA.id, archivedAt: new Date() });
    const before = await snapshot();
    await expect(removeRoomType(ctxFor(manager), b.otherRoomType.id, {})).rejects.toBeInstanceOf(NotFoundError);
    await expect(removeRoomType(ctxFor(otherManager), a.otherRoomType.id, {})).rejects.toBeInstanceOf(NotFoundError);
    await expect(removeRoomType(ctxFor(manager), removed.id, {})).rejects.toBeInstanceOf(NotFoundError);
    await expect(removeRoomType(ctxFor(technician), a.otherRoomType.id, {})).rejects.toBeInstanceOf(ForbiddenError);
    await expect(removeRoomType(anonymous(), a.otherRoomType.id, {})).rejects.toBeInstanceOf(ForbiddenError);
    await expectNothingChanged(before);
  });
});

// ---------------------------------------------------------------------------
// Rooms
// ---------------------------------------------------------------------------

describe("createRoom", () => {
  it("stores the room with its items, report identifiers, links and incident types", async () => {
    const [counter] = await database.db
      .select()
      .from(entityCounters)
      .where(and(eq(entityCounters.entityId, entityA.id), eq(entityCounters.kind, "room")));
    const room = await createRoom(
      ctxFor(manager),
      roomInput(a, {
        name: "  Board room ",
        description: "  ",
        floor: " 3 ",
        incidentTypes: [a.otherIncidentType.id, a.incidentType.id, a.incidentType.id],
        equipments: [
          { equipmentTypeId: a.chair.id, internalReference: " Window chair " },
          { equipmentTypeId: a.chair.id, internalReference: "" },
          { equipmentTypeId: a.desk.id, internalReference: null },
          { equipmentTypeId: a.desk.id },
        ],
      })
    );
    expect(room).toMatchObject({
      shortId: (counter?.value ?? 0) + 1,
      name: "Board room",
      description: null,
      floor: "3",
      buildingId: a.building.id,
      buildingName: "Main",
      facilityId: a.facility.id,
      facilityName: "Campus",
      roomTypeId: a.roomType.id,
      roomTypeName: "Office",
      activeEquipmentCount: 4,
      activeIncidents: 0,
      links: [
        { type: RoomLinkType.WIFI, url: "https://wifi.example.com/join" },
        { type: RoomLinkType.BOOKING, url: "http://book.example.org" },
      ],
      files: [],
      activeIncidentList: [],
    });
    expect(room.incidentTypes.map((t) => t.name)).toEqual(["Broken", "Dirty"]);
    expect(await roomRow(room.id)).toMatchObject({ entityId: entityA.id, name: "Board room", floor: "3", archivedAt: null });

    const items = await itemsOf(room.id);
    expect(items).toHaveLength(4);
    expect(items.map((i) => [i.equipmentTypeId, i.internalReference])).toEqual([
      [a.chair.id, "Window chair"],
      [a.chair.id, "Chair 2"],
      [a.desk.id, "Desk 1"],
      [a.desk.id, "Desk 2"],
    ]);
    for (const item of items) expect(item).toMatchObject({ entityId: entityA.id, archivedAt: null });

    const itemIdentifiers = await identifiersOf({ itemIds: items.map((i) => i.id) });
    expect(itemIdentifiers).toHaveLength(4);
    expect(new Set(itemIdentifiers.map((r) => r.equipmentItemId))).toEqual(new Set(items.map((i) => i.id)));
    const [roomIdentifier, ...moreRoomIdentifiers] = await identifiersOf({ roomId: room.id });
    expect(moreRoomIdentifiers).toEqual([]);
    const all = [...itemIdentifiers, roomIdentifier];
    for (const identifier of all) {
      expect(identifier.code).toMatch(CODE);
      expect(identifier).toMatchObject({ entityId: entityA.id, archivedAt: null });
    }
    expect(new Set(all.map((r) => r.code)).size).toBe(5);
    expect(room.reportIdentifier).toBe(roomIdentifier.code);
    expect(room.equipments.map((e) => [e.id, e.reportIdentifier]).sort()).toEqual(
      itemIdentifiers.map((r) => [r.equipmentItemId, r.code]).sort()
    );
    expect(room.equipments.map((e) => e.equipmentName)).toEqual(["Chair", "Chair", "Desk", "Desk"]);

    const links = await database.db.select().from(roomLinks).where(eq(roomLinks.roomId, room.id)).orderBy(roomLinks.position);
    expect(links.map((l) => [l.position, l.type, l.url])).toEqual([
      [0, RoomLinkType.WIFI, "https://wifi.example.com/join"],
      [1, RoomLinkType.BOOKING, "http://book.example.org"],
    ]);
    const types = await database.db.select().from(incidentTypeRooms).where(eq(incidentTypeRooms.roomId, room.id));
    expect(types.map((t) => t.incidentTypeId).sort()).toEqual([a.incidentType.id, a.otherIncidentType.id].sort());
  });

  it("lets an administrator create a room without links or incident types", async () => {
    const room = await createRoom(ctxFor(admin), roomInput(a, { links: undefined, incidentTypes: undefined, description: undefined }));
    expect(room).toMatchObject({ links: [], incidentTypes: [], description: null, activeEquipmentCount: 1 });
    expect(room.equipments.map((e) => e.internalReference)).toEqual(["CH-1"]);
  });

  it("refuses a technician and a missing actor, writing nothing", async () => {
    const before = await snapshot();
    await expect(createRoom(ctxFor(technician), roomInput(a))).rejects.toBeInstanceOf(ForbiddenError);
    await expect(createRoom(anonymous(), roomInput(a))).rejects.toBeInstanceOf(ForbiddenError);
    await expect(
      createRoom(ctxFor(technician), roomInput(a, { newFiles: [{ bytes: pngBytes(4, 4), name: "x.png" }] }))
    ).rejects.toBeInstanceOf(ForbiddenError);
    await expectNothingChanged(before);
  });

  it("names every required field and the link rules, writing nothing", async () => {
    const ctx = ctxFor(manager);
    const before = await snapshot();
    const fieldErrors = await fieldErrorsOf(
      createRoom(ctx, {
        name: " ",
        floor: "",
        buildingId: undefined,
        roomTypeId: undefined,
        equipments: [],
        links: [{ type: 42, url: "ftp://x.y" }],
      } as unknown as RoomWrite)
    );
    expect(fieldErrors).toMatchObject({
      name: [NAME_REQUIRED],
      floor: [FLOOR_REQUIRED],
      buildingId: [BUILDING_REQUIRED],
      roomTypeId: [ROOM_TYPE_REQUIRED],
      equipments: [NO_EQUIPMENT],
      "links.0.type": [LINK_TYPE],
      "links.0.url": [NOT_A_URL],
    });
    await expectFieldError(createRoom(ctx, roomInput(a, { name: undefined as never })), "name", NAME_REQUIRED);
    await expectFieldError(createRoom(ctx, roomInput(a, { floor: undefined as never })), "floor", FLOOR_REQUIRED);
    await expectFieldError(createRoom(ctx, roomInput(a, { roomTypeId: 0 })), "roomTypeId", ROOM_TYPE_REQUIRED);
    await expectFieldError(createRoom(ctx, roomInput(a, { equipments: undefined })), "equipments", NO_EQUIPMENT);
    await expectFieldError(createRoom(ctx, roomInput(a, { equipments: null as never })), "equipments", NO_EQUIPMENT);
    await expectFieldError(
      createRoom(ctx, roomInput(a, { equipments: [{ internalReference: "x" } as never] })),
      "equipments.0.equipmentTypeId",
      EQUIPMENT_REQUIRED
    );
    for (const type of [undefined, null, -1, 10, 1.5, "wifi"]) {
      await expectFieldError(
        createRoom(ctx, roomInput(a, { links: [{ type, url: "https://ok.example.com" } as never] })),
        "links.0.type",
        LINK_TYPE
      );
    }
    await expectNothingChanged(before);
  });

  it("accepts only http(s) addresses with a domain as link URLs", async () => {
    const ctx = ctxFor(manager);
    const before = await snapshot();
    for (const url of [
      "ftp://x.y",
      "not a url",
      "http://localhost",
      "https://localhost:8080/x",
      "",
      "   ",
      "javascript:alert(1)",
      "mailto:a@b.c",
      "//example.com",
      undefined,
    ]) {
      await expectFieldError(
        createRoom(
          ctx,
          roomInput(a, {
            links: [{ type: RoomLinkType.WIFI, url: "https://fine.example.com" }, { type: RoomLinkType.RULES, url } as never],
          })
        ),
        "links.1.url",
        NOT_A_URL
      );
    }
    await expectNothingChanged(before);
    const room = await createRoom(
      ctx,
      roomInput(a, { links: [{ type: RoomLinkType.RULES, url: "  https://intranet.example.be/rules?x=1  " }] })
    );
    expect(room.links).toEqual([{ type: RoomLinkType.RULES, url: "https://intranet.example.be/rules?x=1" }]);
  });

  it("refuses references of another entity or archived ones as field errors, writing nothing", async () => {
    const db = database.db;
    const ctx = ctxFor(manager);
    const archivedBuilding = await createBuilding(db, { entityId: entityA.id, facilityId: a.facility.id, archivedAt: new Date() });
    const archivedType = await createRoomTypeRow(db, { entityId: entityA.id, archivedAt: new Date() });
    const archivedEquipment = await createEquipmentTypeRow(db, { entityId: entityA.id, archivedAt: new Date() });
    const archivedIncidentType = await createIncidentType(db, {
      entityId: entityA.id,
      archivedAt: new Date(),
      status: IncidentTypeStatus.ARCHIVED,
    });
    const before = await snapshot();

    const fieldErrors = await fieldErrorsOf(
      createRoom(
        ctx,
        roomInput(a, {
          buildingId: b.building.id,
          roomTypeId: b.roomType.id,
          equipments: [{ equipmentTypeId: a.chair.id }, { equipmentTypeId: b.chair.id }],
          incidentTypes: [a.incidentType.id, b.incidentType.id],
        })
      )
    );
    expect(fieldErrors).toEqual({
      buildingId: ["facilities:errors.buildingNotFound"],
      roomTypeId: ["rooms:errors.roomTypeNotFound"],
      "equipments.1.equipmentTypeId": ["equipment:errors.equipmentTypeNotFound"],
      incidentTypes: ["rooms:errors.incidentTypeNotFound"],
    });
    const archivedErrors = await fieldErrorsOf(
      createRoom(
        ctx,
        roomInput(a, {
          buildingId: archivedBuilding.id,
          roomTypeId: archivedType.id,
          equipments: [{ equipmentTypeId: archivedEquipment.id }],
          incidentTypes: [archivedIncidentType.id],
        })
      )
    );
    expect(Object.keys(archivedErrors).sort()).toEqual(["buildingId", "equipments.0.equipmentTypeId", "incidentTypes", "roomTypeId"]);
    // A room of another entity's manager cannot use this entity's references either.
    const reversed = await fieldErrorsOf(createRoom(ctxFor(otherManager), roomInput(a)));
    expect(Object.keys(reversed).sort()).toEqual(["buildingId", "equipments.0.equipmentTypeId", "incidentTypes", "roomTypeId"]);
    await expectNothingChanged(before);
  });

  it("refuses item ids on a new room", async () => {
    const existing = await serviceRoom();
    const before = await snapshot();
    await expectFieldError(
      createRoom(ctxFor(manager), roomInput(a, { equipments: [{ id: existing.equipments[0].id, equipmentTypeId: a.chair.id }] })),
      "equipments",
      INVALID
    );
    await expectNothingChanged(before);
  });

  it("attaches new images and documents", async () => {
    const room = await createRoom(
      ctxFor(manager),
      roomInput(a, {
        newFiles: [
          { bytes: pngBytes(8, 6), name: "photo.png" },
          { bytes: pdfBytes(), name: "evacuation plan.pdf" },
        ],
      })
    );
    expect(room.files).toHaveLength(2);
    expect(room.files.map((f) => [f.name, f.mimeType, f.isImage]).sort()).toEqual([
      ["evacuation plan.pdf", "application/pdf", false],
      ["photo.png", "image/png", true],
    ]);
    const rows = await database.db.select().from(roomFiles).where(eq(roomFiles.roomId, room.id));
    expect(rows).toHaveLength(2);
    for (const row of rows) {
      expect(row.entityId).toBe(entityA.id);
      const [stored] = await database.db.select().from(storedFiles).where(eq(storedFiles.id, row.fileId));
      expect(stored).toMatchObject({ entityId: entityA.id, deletedAt: null, createdById: manager.id });
      expect(fs.existsSync(path.join(files.root, stored.storageKey))).toBe(true);
      expect(room.files.find((f) => f.id === row.fileId)?.url).toBe(`/files/${row.fileId}`);
    }
  });

  it("refuses a file of unknown format or too large, writing nothing (earlier files of the call removed again)", async () => {
    const ctx = ctxFor(manager);
    const before = await snapshot();
    const diskBefore = filesOnDisk();
    const withFiles = (...newFiles: { bytes: Uint8Array; name: string }[]) => createRoom(ctx, roomInput(a, { newFiles }));
    await expectFieldError(withFiles({ bytes: randomBytes(), name: "data.bin" }), "newFiles", "errors.file.wrongFormat");
    await expectFieldError(withFiles({ bytes: svgBytes(), name: "drawing.svg" }), "newFiles", "errors.file.wrongFormat");
    await expectFieldError(
      withFiles({ bytes: pngBytes(4, 4), name: "ok.png" }, { bytes: svgBytes(), name: "drawing.svg" }),
      "newFiles",
      "errors.file.wrongFormat"
    );
    const oversized = new Uint8Array(files.maxBytes + 1);
    oversized.set(pngBytes(8, 8));
    await expectFieldError(withFiles({ bytes: oversized, name: "big.png" }), "newFiles", "errors.file.tooLarge");
    await expectFieldError(
      withFiles({ bytes: pdfBytes(), name: "ok.pdf" }, { bytes: oversized, name: "big.png" }),
      "newFiles",
      "errors.file.tooLarge"
    );
    await expectNothingChanged(before);
    expect(filesOnDisk()).toEqual(diskBefore);
  });

  it("answers \"upload failed\" when the storage cannot take the file, writing nothing", async () => {
    // A file store whose root is a plain file: every write fails as a full or read-only disk would.
    const blocked = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "caretaker-blocked-")), "not-a-folder");
    fs.writeFileSync(blocked, "");
    const ctx: FilesContext = { ...ctxFor(manager), files: { root: blocked, maxBytes: files.maxBytes } };
    const before = await snapshot();
    await expectFieldError(
      createRoom(ctx, roomInput(a, { newFiles: [{ bytes: pngBytes(4, 4), name: "photo.png" }] })),
      "newFiles",
      "errors.file.uploadFailed"
    );
    await expectNothingChanged(before);
  });
});

describe("updateRoom", () => {
  it("replaces the fields, links and incident types", async () => {
    const room = await serviceRoom();
    const updated = await updateRoom(
      ctxFor(manager),
      room.id,
      roomInput(a, {
        name: "Quiet room",
        description: "Now with sofas",
        floor: "-1",
        buildingId: a.otherBuilding.id,
        roomTypeId: a.otherRoomType.id,
        incidentTypes: [a.otherIncidentType.id],
        equipments: room.equipments.map((e) => ({ id: e.id, equipmentTypeId: e.equipmentTypeId, internalReference: e.internalReference })),
        links: [
          { type: RoomLinkType.CLEANING, url: "https://clean.example.com" },
          { type: RoomLinkType.ASSISTANCE, url: "https://help.example.com" },
          { type: RoomLinkType.CLEANING, url: "https://clean2.example.com" },
        ],
      })
    );
    expect(updated).toMatchObject({
      id: room.id,
      shortId: room.shortId,
      name: "Quiet room",
      description: "Now with sofas",
      floor: "-1",
      buildingId: a.otherBuilding.id,
      buildingName: "Annex",
      roomTypeId: a.otherRoomType.id,
      roomTypeName: "Kitchen",
      incidentTypes: [{ id: a.otherIncidentType.id, name: "Dirty" }],
      links: [
        { type: RoomLinkType.CLEANING, url: "https://clean.example.com" },
        { type: RoomLinkType.ASSISTANCE, url: "https://help.example.com" },
        { type: RoomLinkType.CLEANING, url: "https://clean2.example.com" },
      ],
      reportIdentifier: room.reportIdentifier,
    });
    expect(updated.equipments).toEqual(room.equipments);
    expect(await roomRow(room.id)).toMatchObject({
      name: "Quiet room",
      floor: "-1",
      buildingId: a.otherBuilding.id,
      roomTypeId: a.otherRoomType.id,
    });
    expect(await database.db.select().from(roomLinks).where(eq(roomLinks.roomId, room.id))).toHaveLength(3);
    const types = await database.db.select().from(incidentTypeRooms).where(eq(incidentTypeRooms.roomId, room.id));
    expect(types.map((t) => t.incidentTypeId)).toEqual([a.otherIncidentType.id]);

    const cleared = await updateRoom(
      ctxFor(admin),
      room.id,
      roomInput(a, {
        equipments: updated.equipments.map((e) => ({
          id: e.id,
          equipmentTypeId: e.equipmentTypeId,
          internalReference: e.internalReference,
        })),
        links: [],
        incidentTypes: [],
      })
    );
    expect(cleared).toMatchObject({ links: [], incidentTypes: [] });
  });

  it("keeps items by id, creates new ones and deletes missing ones, rejecting their open incidents", async () => {
    const room = await serviceRoom(a, {
      equipments: [
        { equipmentTypeId: a.chair.id, internalReference: "C1" },
        { equipmentTypeId: a.chair.id, internalReference: "C2" },
        { equipmentTypeId: a.desk.id, internalReference: "D1" },
      ],
    });
    const [kept, deleted, deletedDesk] = await itemsOf(room.id);
    const [keptIdentifier] = await identifiersOf({ itemIds: [kept.id] });
    const inc = (equipmentItemId: number, status: IncidentStatus) =>
      createIncident(database.db, { entityId: entityA.id, equipmentItemId, roomId: null, status });
    const keptPending = await inc(kept.id, IncidentStatus.PENDING);
    const pending = await inc(deleted.id, IncidentStatus.PENDING);
    const inProgress = await inc(deleted.id, IncidentStatus.IN_PROGRESS);
    const done = await inc(deleted.id, IncidentStatus.DONE);
    const rejected = await inc(deleted.id, IncidentStatus.REJECTED);
    const deskInProgress = await inc(deletedDesk.id, IncidentStatus.IN_PROGRESS);
    const roomPending = await createIncident(database.db, { entityId: entityA.id, roomId: room.id, status: IncidentStatus.PENDING });

    const updated = await updateRoom(
      ctxFor(manager),
      room.id,
      roomInput(a, {
        equipments: [
          { id: kept.id, equipmentTypeId: a.chair.id, internalReference: "C1 by the window" },
          { equipmentTypeId: a.desk.id, internalReference: "" },
          { equipmentTypeId: a.chair.id, internalReference: "New chair" },
        ],
      })
    );

    const items = await itemsOf(room.id);
    expect(items).toHaveLength(5);
    const live = items.filter((i) => i.archivedAt === null);
    expect(live.map((i) => [i.equipmentTypeId, i.internalReference])).toEqual([
      [a.chair.id, "C1 by the window"],
      [a.desk.id, "Desk 2"],
      [a.chair.id, "New chair"],
    ]);
    expect(live[0].id).toBe(kept.id);
    expect(items.find((i) => i.id === deleted.id)?.archivedAt).not.toBeNull();
    expect(items.find((i) => i.id === deletedDesk.id)?.archivedAt).not.toBeNull();

    // The kept item keeps its identifier; new ones get fresh ones; deleted ones lose theirs.
    expect(await identifiersOf({ itemIds: [kept.id] })).toEqual([keptIdentifier]);
    for (const identifier of await identifiersOf({ itemIds: [deleted.id, deletedDesk.id] })) expect(identifier.archivedAt).not.toBeNull();
    const fresh = await identifiersOf({ itemIds: live.slice(1).map((i) => i.id) });
    expect(fresh).toHaveLength(2);
    for (const identifier of fresh) {
      expect(identifier.code).toMatch(CODE);
      expect(identifier.archivedAt).toBeNull();
    }
    expect(updated.equipments.map((e) => e.id).sort()).toEqual(live.map((i) => i.id).sort());
    expect(updated.activeEquipmentCount).toBe(3);
    expect(updated.reportIdentifier).toBe(room.reportIdentifier);

    await expectRejectedBy(pending, manager);
    await expectRejectedBy(inProgress, manager);
    await expectRejectedBy(deskInProgress, manager);
    await expectUntouched(done);
    await expectUntouched(rejected);
    await expectUntouched(keptPending);
    await expectUntouched(roomPending);
  });

  it("never leaves a kept item without an internal reference", async () => {
    // SPEC.md section 3: "specific equipments each with an internal reference". A blank reference on
    // creation becomes "<generic equipment> <n>"; a blank one on update should not erase it.
    const room = await serviceRoom(a, { equipments: [{ equipmentTypeId: a.chair.id, internalReference: "" }] });
    expect(room.equipments[0].internalReference).toBe("Chair 1");
    const updated = await updateRoom(
      ctxFor(manager),
      room.id,
      roomInput(a, { equipments: [{ id: room.equipments[0].id, equipmentTypeId: a.chair.id, internalReference: "" }] })
    );
    expect(updated.equipments[0].internalReference).toBeTruthy();
  });

  it("refuses an item of another room, of another entity, a deleted one, a repeated one or a changed generic equipment", async () => {
    const room = await serviceRoom();
    const other = await serviceRoom();
    const [item] = await itemsOf(room.id);
    const [otherItem] = await itemsOf(other.id);
    const foreign = await createEquipmentItem(database.db, { entityId: entityB.id, equipmentTypeId: b.chair.id });
    const gone = await createEquipmentItem(database.db, {
      entityId: entityA.id,
      roomId: room.id,
      equipmentTypeId: a.chair.id,
      archivedAt: new Date(),
    });
    const ctx = ctxFor(manager);
    const before = await snapshot();
    const withItems = (equipments: RoomWrite["equipments"]) => updateRoom(ctx, room.id, roomInput(a, { equipments }));
    const mine = { id: item.id, equipmentTypeId: a.chair.id };

    await expectFieldError(withItems([{ id: otherItem.id, equipmentTypeId: a.chair.id }]), "equipments.0.id", INVALID);
    await expectFieldError(withItems([mine, { id: foreign.id, equipmentTypeId: b.chair.id }]), "equipments.1.id", INVALID);
    await expectFieldError(withItems([mine, { id: gone.id, equipmentTypeId: a.chair.id }]), "equipments.1.id", INVALID);
    await expectFieldError(withItems([mine, mine]), "equipments.1.id", INVALID);
    await expectFieldError(withItems([{ id: item.id, equipmentTypeId: a.desk.id }]), "equipments.0.equipmentTypeId", INVALID);
    await expectFieldError(
      withItems([mine, { equipmentTypeId: b.desk.id }]),
      "equipments.1.equipmentTypeId",
      "equipment:errors.equipmentTypeNotFound"
    );
    await expectNothingChanged(before);
  });

  it("answers not found for another entity's or an archived room, refuses a technician, changing nothing", async () => {
    const room = await serviceRoom();
    const archived = await createRoomRow(database.db, {
      entityId: entityA.id,
      buildingId: a.building.id,
      roomTypeId: a.roomType.id,
      archivedAt: new Date(),
    });
    const bRoom = await serviceRoom(b);
    const before = await snapshot();
    await expect(updateRoom(ctxFor(manager), bRoom.id, roomInput(a))).rejects.toBeInstanceOf(NotFoundError);
    await expect(updateRoom(ctxFor(manager), bRoom.id, roomInput(b))).rejects.toBeInstanceOf(NotFoundError);
    await expect(updateRoom(ctxFor(otherManager), room.id, roomInput(b))).rejects.toBeInstanceOf(NotFoundError);
    await expect(updateRoom(ctxFor(manager), archived.id, roomInput(a))).rejects.toBeInstanceOf(NotFoundError);
    await expect(updateRoom(ctxFor(technician), room.id, roomInput(a, { name: "Hacked" }))).rejects.toBeInstanceOf(ForbiddenError);
    await expect(updateRoom(anonymous(), room.id, roomInput(a, { name: "Hacked" }))).rejects.toBeInstanceOf(ForbiddenError);
    await expectNothingChanged(before);
  });

  it("applies the same validation as creation, changing nothing", async () => {
    const room = await serviceRoom();
    const ctx = ctxFor(manager);
    const keep = room.equipments.map((e) => ({ id: e.id, equipmentTypeId: e.equipmentTypeId }));
    const before = await snapshot();
    await expectFieldError(updateRoom(ctx, room.id, roomInput(a, { name: "", equipments: keep })), "name", NAME_REQUIRED);
    await expectFieldError(updateRoom(ctx, room.id, roomInput(a, { floor: " ", equipments: keep })), "floor", FLOOR_REQUIRED);
    await expectFieldError(
      updateRoom(ctx, room.id, roomInput(a, { roomTypeId: undefined as never, equipments: keep })),
      "roomTypeId",
      ROOM_TYPE_REQUIRED
    );
    // A building left out keeps the room where it is (the REST body of SPEC.md section 7); a wrong one is refused.
    await expectFieldError(
      updateRoom(ctx, room.id, roomInput(a, { buildingId: "x" as never, equipments: keep })),
      "buildingId",
      BUILDING_REQUIRED
    );
    // Removing every item is not allowed: a room keeps at least one equipment.
    await expectFieldError(updateRoom(ctx, room.id, roomInput(a, { equipments: [] })), "equipments", NO_EQUIPMENT);
    await expectFieldError(
      updateRoom(ctx, room.id, roomInput(a, { equipments: keep, links: [{ type: RoomLinkType.WIFI, url: "http://localhost" }] })),
      "links.0.url",
      NOT_A_URL
    );
    await expectFieldError(
      updateRoom(ctx, room.id, roomInput(a, { equipments: keep, buildingId: b.building.id })),
      "buildingId",
      "facilities:errors.buildingNotFound"
    );
    await expectFieldError(
      updateRoom(ctx, room.id, roomInput(a, { equipments: keep, roomTypeId: b.roomType.id })),
      "roomTypeId",
      "rooms:errors.roomTypeNotFound"
    );
    await expectFieldError(
      updateRoom(ctx, room.id, roomInput(a, { equipments: keep, incidentTypes: [b.incidentType.id] })),
      "incidentTypes",
      "rooms:errors.incidentTypeNotFound"
    );
    await expectNothingChanged(before);
  });

  it("adds new files and deletes attached ones (row removed, stored file marked deleted)", async () => {
    const ctx = ctxFor(manager);
    const room = await serviceRoom(a, {
      newFiles: [
        { bytes: pngBytes(4, 4), name: "before.png" },
        { bytes: pdfBytes(), name: "keep.pdf" },
      ],
    });
    const keep = room.equipments.map((e) => ({ id: e.id, equipmentTypeId: e.equipmentTypeId, internalReference: e.internalReference }));
    const old = room.files.find((f) => f.name === "before.png")!;
    const [oldStored] = await database.db.select().from(storedFiles).where(eq(storedFiles.id, old.id));

    const updated = await updateRoom(
      ctx,
      room.id,
      roomInput(a, { equipments: keep, deletedFiles: [old.id], newFiles: [{ bytes: pngBytes(6, 6), name: "after.png" }] })
    );
    expect(updated.files.map((f) => f.name).sort()).toEqual(["after.png", "keep.pdf"]);
    const rows = await database.db.select().from(roomFiles).where(eq(roomFiles.roomId, room.id));
    expect(rows.map((r) => r.fileId)).not.toContain(old.id);
    expect(rows).toHaveLength(2);
    const [stored] = await database.db.select().from(storedFiles).where(eq(storedFiles.id, old.id));
    expect(stored.deletedAt).not.toBeNull();
    expect(fs.existsSync(path.join(files.root, oldStored.storageKey))).toBe(false);

    // Without deletedFiles or newFiles the files stay.
    const again = await updateRoom(ctx, room.id, roomInput(a, { equipments: keep }));
    expect(again.files.map((f) => f.name).sort()).toEqual(["after.png", "keep.pdf"]);
  });

  it("refuses to delete a file that is not attached to the room, changing nothing", async () => {
    const ctx = ctxFor(manager);
    const room = await serviceRoom(a, { newFiles: [{ bytes: pngBytes(4, 4), name: "mine.png" }] });
    const other = await serviceRoom(a, { newFiles: [{ bytes: pngBytes(4, 4), name: "theirs.png" }] });
    const keep = room.equipments.map((e) => ({ id: e.id, equipmentTypeId: e.equipmentTypeId }));
    const before = await snapshot();
    const deleting = (deletedFiles: string[]) => updateRoom(ctx, room.id, roomInput(a, { equipments: keep, deletedFiles }));
    await expectFieldError(deleting(["00000000-0000-4000-8000-000000000000"]), "deletedFiles", "errors.file.deleteFailed");
    await expectFieldError(deleting([other.files[0].id]), "deletedFiles", "errors.file.deleteFailed");
    await expectFieldError(deleting([room.files[0].id, other.files[0].id]), "deletedFiles", "errors.file.deleteFailed");
    await expectFieldError(deleting(["not-a-uuid"]), "deletedFiles.0", INVALID);
    await expectNothingChanged(before);
  });

  it("refuses new files of unknown format or too large, changing nothing", async () => {
    const ctx = ctxFor(manager);
    const room = await serviceRoom();
    const keep = room.equipments.map((e) => ({ id: e.id, equipmentTypeId: e.equipmentTypeId }));
    const before = await snapshot();
    const oversized = new Uint8Array(files.maxBytes + 1);
    oversized.set(pdfBytes());
    await expectFieldError(
      updateRoom(ctx, room.id, roomInput(a, { name: "Changed", equipments: keep, newFiles: [{ bytes: randomBytes(), name: "x.png" }] })),
      "newFiles",
      "errors.file.wrongFormat"
    );
    await expectFieldError(
      updateRoom(
        ctx,
        room.id,
        roomInput(a, { name: "Changed", equipments: [{ equipmentTypeId: a.desk.id }], newFiles: [{ bytes: oversized, name: "x.pdf" }] })
      ),
      "newFiles",
      "errors.file.tooLarge"
    );
    await expectNothingChanged(before);
  });
});

describe("archiveRoom", () => {
  it("archives the room, its items and identifiers and rejects their open incidents; other rooms untouched", async () => {
    const db = database.db;
    const tree = await createFacilityTree(db, { entityId: entityA.id, roomsPerBuilding: [2], itemsPerRoom: 2 });
    await reach(manager);
    const [target, neighbour] = tree.rooms;
    const roomIncidents = tree.roomIncidents.filter((i) => i.roomId === target.id);
    const targetItems = tree.items.filter((i) => i.roomId === target.id);
    const itemIncidents = tree.itemIncidents.filter((i) => targetItems.some((item) => item.id === i.equipmentItemId));
    const open = (i: Incident) => i.status === IncidentStatus.PENDING || i.status === IncidentStatus.IN_PROGRESS;
    const neighbourIds = {
      items: tree.items.filter((i) => i.roomId === neighbour.id).map((i) => i.id),
      incidents: [
        ...tree.roomIncidents.filter((i) => i.roomId === neighbour.id),
        ...tree.itemIncidents.filter((i) => tree.items.some((item) => item.roomId === neighbour.id && item.id === i.equipmentItemId)),
      ],
    };
    const neighbourBefore = {
      room: await roomRow(neighbour.id),
      items: await itemsOf(neighbour.id),
      identifiers: [...(await identifiersOf({ roomId: neighbour.id })), ...(await identifiersOf({ itemIds: neighbourIds.items }))],
    };
    const liveItems = async () => (await itemsOf(target.id)).filter((i) => i.archivedAt === null).length;
    const liveIdentifiers = async () =>
      [...(await identifiersOf({ roomId: target.id })), ...(await identifiersOf({ itemIds: targetItems.map((i) => i.id) }))].filter(
        (r) => r.archivedAt === null
      ).length;
    expect(await liveItems()).toBe(2);
    expect(await liveIdentifiers()).toBe(3);
    expect([...roomIncidents, ...itemIncidents].filter(open)).toHaveLength(6);

    const counts = await archiveRoom(ctxFor(manager), target.id, { confirmName: ` ${target.name} ` });
    expect(counts).toEqual({ buildings: 0, rooms: 1, equipmentItems: 2, reportIdentifiers: 3, incidentsRejected: 6 });

    expect((await roomRow(target.id)).archivedAt).not.toBeNull();
    expect(await liveItems()).toBe(0);
    expect(await liveIdentifiers()).toBe(0);
    for (const incident of [...roomIncidents, ...itemIncidents]) {
      if (open(incident)) await expectRejectedBy(incident, manager);
      else await expectUntouched(incident);
    }
    await expect(getRoom(ctxFor(manager), target.id)).rejects.toBeInstanceOf(NotFoundError);

    expect(await roomRow(neighbour.id)).toEqual(neighbourBefore.room);
    expect(await itemsOf(neighbour.id)).toEqual(neighbourBefore.items);
    expect([...(await identifiersOf({ roomId: neighbour.id })), ...(await identifiersOf({ itemIds: neighbourIds.items }))]).toEqual(
      neighbourBefore.identifiers
    );
    for (const incident of neighbourIds.incidents) await expectUntouched(incident);
  });

  it("archives without a confirmation (API) and by an administrator", async () => {
    const room = await serviceRoom();
    expect(await archiveRoom(ctxFor(admin), room.id)).toMatchObject({
      rooms: 1,
      equipmentItems: 1,
      reportIdentifiers: 2,
      incidentsRejected: 0,
    });
    expect((await roomRow(room.id)).archivedAt).not.toBeNull();
  });

  it("refuses a wrong confirmation name, archiving nothing", async () => {
    const room = await serviceRoom(a, { name: "Library" });
    await createIncident(database.db, { entityId: entityA.id, roomId: room.id });
    const before = await snapshot();
    for (const confirmName of ["library", "Librar", "", "Meeting room"]) {
      await expectFieldError(archiveRoom(ctxFor(manager), room.id, { confirmName }), "confirmName", WRONG_NAME);
    }
    await expectNothingChanged(before);
  });

  it("answers not found for another entity's or an archived room, refuses a technician, changing nothing", async () => {
    const room = await serviceRoom();
    const bId = (await serviceRoom(b)).id;
    const archived = await createRoomRow(database.db, {
      entityId: entityA.id,
      buildingId: a.building.id,
      roomTypeId: a.roomType.id,
      archivedAt: new Date(),
    });
    const before = await snapshot();
    await expect(archiveRoom(ctxFor(manager), bId)).rejects.toBeInstanceOf(NotFoundError);
    await expect(archiveRoom(ctxFor(otherManager), room.id)).rejects.toBeInstanceOf(NotFoundError);
    await expect(archiveRoom(ctxFor(manager), archived.id)).rejects.toBeInstanceOf(NotFoundError);
    await expect(archiveRoom(ctxFor(technician), room.id, { confirmName: room.name })).rejects.toBeInstanceOf(ForbiddenError);
    await expect(archiveRoom(anonymous(), room.id)).rejects.toBeInstanceOf(ForbiddenError);
    await expectNothingChanged(before);
  });
});

describe("concurrent writes", () => {
  it("gives parallel room creations distinct short ids and report identifiers", async () => {
    const created = await Promise.all(Array.from({ length: 5 }, (_, i) => serviceRoom(a, { name: `Parallel ${i}` })));
    const shortIds = created.map((r) => r.shortId).sort((x, y) => x - y);
    expect(new Set(shortIds).size).toBe(5);
    expect(shortIds[4] - shortIds[0]).toBe(4);
    const codes = created.flatMap((r) => [r.reportIdentifier, ...r.equipments.map((e) => e.reportIdentifier)]);
    expect(new Set(codes).size).toBe(10);
  });

  // Only PostgreSQL has concurrent transactions (PGlite runs one at a time).
  it.skipIf(!process.env.DATABASE_URL)("never places a new item of a generic equipment whose archiving commits meanwhile", async () => {
    const db = database.db;
    const type = await createEquipmentTypeRow(db, { entityId: entityA.id, categoryId: a.chair.categoryId, name: "Racing" });
    // Another transaction archives the generic equipment (as archiveEquipmentType does: row locked, archived_at set)...
    const other = new pg.Client({ connectionString: database.url });
    await other.connect();
    try {
      await other.query("begin");
      await other.query("select id from equipment_types where id = $1 for update", [type.id]);
      await other.query("update equipment_types set archived_at = now() where id = $1", [type.id]);
      // ...while a room is created with it. The room must wait for that transaction and then refuse the
      // archived generic equipment (as it does for a building or room type being archived).
      const creating = createRoom(ctxFor(manager), roomInput(a, { equipments: [{ equipmentTypeId: type.id }] })).then(
        (room) => ({ room, error: null }),
        (error: unknown) => ({ room: null, error })
      );
      await Promise.race([creating, new Promise((resolve) => setTimeout(resolve, 500))]);
      await other.query("commit");
      const outcome = await creating;
      const live = await db
        .select()
        .from(equipmentItems)
        .where(and(eq(equipmentItems.equipmentTypeId, type.id), isNull(equipmentItems.archivedAt)));
      expect(live, "an active item of an archived generic equipment").toEqual([]);
      expect(outcome.error).toBeInstanceOf(ValidationError);
    } finally {
      await other.end();
    }
  });
});

// ---------------------------------------------------------------------------
// Reach of a facility manager (decision 022): rooms of their linked facilities and buildings only
// ---------------------------------------------------------------------------

describe("a facility manager's reach over rooms", () => {
  const BUILDING_NOT_FOUND = "facilities:errors.buildingNotFound";

  /** A manager linked to place `a`'s facility only, and a room of entity A in a building elsewhere. */
  async function outside() {
    const db = database.db;
    const me = await createUser(db, { entityId: entityA.id, role: Role.FACILITY_MANAGER });
    await linkUserTo(db, { entityId: entityA.id, userId: me.id, facilityId: a.facility.id });
    const far = await createBuilding(db, { entityId: entityA.id, name: "Far away" });
    const farRoom = await createRoom(ctxFor(admin), roomInput(a, { name: "Far room", buildingId: far.id }));
    return { me, far, farRoom };
  }

  it("answers not found for a room outside reach (get, update, archive), changing nothing", async () => {
    const { me, farRoom } = await outside();
    const ctx = ctxFor(me);
    const before = { room: await roomRow(farRoom.id), items: await itemsOf(farRoom.id) };
    await expect(getRoom(ctx, farRoom.id)).rejects.toMatchObject({ code: "ROOM_NOT_FOUND" });
    await expect(updateRoom(ctx, farRoom.id, roomInput(a, { name: "Taken", buildingId: farRoom.buildingId }))).rejects.toBeInstanceOf(
      NotFoundError,
    );
    await expect(archiveRoom(ctx, farRoom.id)).rejects.toBeInstanceOf(NotFoundError);
    await expect(archiveRoom(ctx, farRoom.id, { confirmName: "Far room" })).rejects.toBeInstanceOf(NotFoundError);
    expect(await roomRow(farRoom.id)).toEqual(before.room);
    expect(await itemsOf(farRoom.id)).toEqual(before.items);
    // An administrator reaches it.
    expect((await getRoom(ctxFor(admin), farRoom.id)).name).toBe("Far room");
  });

  it("refuses to create a room in, or move one into, a building outside reach (building not found), writing nothing", async () => {
    const { me, far } = await outside();
    const ctx = ctxFor(me);
    const count = async () => (await database.db.select({ id: rooms.id }).from(rooms).where(eq(rooms.entityId, entityA.id))).length;
    const before = await count();
    await expectFieldError(createRoom(ctx, roomInput(a, { buildingId: far.id })), "buildingId", BUILDING_NOT_FOUND);
    expect(await count()).toBe(before);
    const own = await createRoom(ctx, roomInput(a, { name: "Own room" }));
    expect(await count()).toBe(before + 1);
    const ownBefore = await roomRow(own.id);
    await expectFieldError(
      updateRoom(ctx, own.id, roomInput(a, { name: "Moved", buildingId: far.id, equipments: own.equipments.map((e) => ({ ...e })) })),
      "buildingId",
      BUILDING_NOT_FOUND,
    );
    expect(await roomRow(own.id)).toEqual(ownBefore);
    // Within reach, the room is changed and archived as usual.
    const moved = await updateRoom(
      ctx,
      own.id,
      roomInput(a, { name: "Moved", buildingId: a.otherBuilding.id, equipments: own.equipments.map((e) => ({ ...e })) }),
    );
    expect(moved).toMatchObject({ name: "Moved", buildingId: a.otherBuilding.id });
    await archiveRoom(ctx, own.id);
    expect((await roomRow(own.id)).archivedAt).not.toBeNull();
  });
});
