import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "~/db/client.server";
import { QrPrintStatus, Role } from "~/db/enums";
import type { Entity, User } from "~/db/schema";
import { ForbiddenError } from "~/lib/errors";
import { createEntity, createEquipmentType, createFacility, createIncidentType, createReportIdentifier, createRoom, createUser } from "#tests/factories";
import { actorContext, rejectionOf } from "#tests/service-helpers";
import { createTestDatabase } from "#tests/test-db";
import { getGettingStarted } from "./getting-started.server";

/** The path of issue 60, in order, each step with the screen that adds it. */
const PATH = [
  ["facility", "/add-facility"],
  ["building", "/add-building"],
  ["roomType", "/add-room-type"],
  ["equipmentCategory", "/add-equipment-category"],
  ["genericEquipment", "/add-generic-equipment"],
  ["room", "/add-room"],
  ["incidentType", "/add-incident-type"],
  ["stickers", "/printing"],
];

let database: Database;
let complete: Entity;
let completeAdmin: User;
let empty: Entity;
let emptyAdmin: User;
let emptyTechnician: User;
let partial: Entity;
let partialManager: User;

beforeAll(async () => {
  database = await createTestDatabase();
  const db = database.db;
  // An entity with every step done: its room's sticker printed.
  complete = await createEntity(db);
  completeAdmin = await createUser(db, { entityId: complete.id, role: Role.ADMINISTRATOR });
  const room = await createRoom(db, { entityId: complete.id, reportCode: null });
  await createReportIdentifier(db, { entityId: complete.id, roomId: room.id, qrPrintStatus: QrPrintStatus.PRINTED });
  await createEquipmentType(db, { entityId: complete.id });
  await createIncidentType(db, { entityId: complete.id });
  // A new entity: nothing yet but a facility it archived.
  empty = await createEntity(db);
  emptyAdmin = await createUser(db, { entityId: empty.id, role: Role.ADMINISTRATOR });
  emptyTechnician = await createUser(db, { entityId: empty.id, role: Role.TECHNICIAN });
  await createFacility(db, { entityId: empty.id, archivedAt: new Date() });
  // A room (with its facility, building and room type) whose sticker is not printed yet.
  partial = await createEntity(db);
  partialManager = await createUser(db, { entityId: partial.id, role: Role.FACILITY_MANAGER });
  await createRoom(db, { entityId: partial.id });
});

afterAll(async () => {
  await database?.close();
});

describe("getGettingStarted", () => {
  it("shows an entity with nothing the whole path, nothing done (another entity's data and archived rows do not count)", async () => {
    const steps = await getGettingStarted(actorContext(database.db, emptyAdmin));
    expect(steps?.map((s) => [s.key, s.href])).toEqual(PATH);
    expect(steps?.every((s) => !s.done)).toBe(true);
  });

  it("shows no path to an entity that has done every step", async () => {
    expect(await getGettingStarted(actorContext(database.db, completeAdmin))).toBeNull();
  });

  it("marks what the entity has done: a room brings its facility, building and room type, an unprinted sticker is not done", async () => {
    const steps = await getGettingStarted(actorContext(database.db, partialManager));
    expect(Object.fromEntries(steps!.map((s) => [s.key, s.done]))).toEqual({
      facility: true,
      building: true,
      roomType: true,
      equipmentCategory: false,
      genericEquipment: false,
      room: true,
      incidentType: false,
      stickers: false,
    });
  });

  it("is refused to a technician (no dashboard)", async () => {
    expect(await rejectionOf(getGettingStarted(actorContext(database.db, emptyTechnician)))).toBeInstanceOf(ForbiddenError);
  });
});
