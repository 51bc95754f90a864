import { and, eq, inArray, isNotNull, isNull, or } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "~/db/client.server";
import { IncidentEventType, IncidentStatus, Role } from "~/db/enums";
import { auditLog, type Building, buildings, type Entity, equipmentItems, facilities, incidentEvents, incidents, type Incident, reportIdentifiers, rooms, type User, userLinkedObjects } from "~/db/schema";
import { ForbiddenError, NotFoundError, ValidationError } from "~/lib/errors";
import { createBuilding, createEntity, createFacility, createIncident, createRoom, createUser, linkToEveryFacility, linkUserTo } from "#tests/factories";
import { createFacilityTree, type FacilityTree } from "#tests/factories/cascade";
import { createTestDatabase } from "#tests/test-db";
import { actorContext, expectFieldError, rejectionOf } from "#tests/service-helpers";
import { getBuilding, getFacility, listBuildings, listFacilities } from "./queries.server";
import type { BuildingInput } from "./schema";
import { archiveBuilding, archiveFacility, createBuilding as createBuildingVerb, createFacility as createFacilityVerb, updateBuilding, updateFacility } from "./service.server";

const NAME_REQUIRED = "facilities:validation.nameRequired";
const FACILITY_REQUIRED = "facilities:validation.facilityRequired";
const FACILITY_NOT_FOUND = "facilities:errors.facilityNotFound";
const TOO_LONG = "common:validation.tooLong";
const WRONG_NAME = "common:archive.wrongName";

let database: Database;
let entityA: Entity;
let entityB: Entity;
let manager: User;
let admin: User;
let technician: User;
let otherManager: User;

const ctxFor = (user: User) => actorContext(database.db, user);

/** Puts every facility of the user's entity made so far within their reach (managers reach linked facilities only, decision 022). */
const reach = (user: User) => linkToEveryFacility(database.db, user);

async function facilityRow(id: number) {
  const [row] = await database.db.select().from(facilities).where(eq(facilities.id, id));
  return row;
}

async function buildingRow(id: number) {
  const [row] = await database.db.select().from(buildings).where(eq(buildings.id, id));
  return row;
}

async function facilityCount(entityId: number) {
  return (await database.db.select({ id: facilities.id }).from(facilities).where(eq(facilities.entityId, entityId))).length;
}

async function buildingCount(entityId: number) {
  return (await database.db.select({ id: buildings.id }).from(buildings).where(eq(buildings.entityId, entityId))).length;
}

const longText = (n: number) => "x".repeat(n);

function buildingInput(facilityId: number, overrides: Partial<BuildingInput> = {}): BuildingInput {
  return {
    name: "Main building",
    description: "The tall one",
    facilityId,
    streetName: "Rue Haute",
    streetNumber: "12",
    suffix: "b",
    buildingFloor: "2nd floor",
    additionalInfo: "Back entrance",
    postalCode: "1000",
    city: "Brussels",
    country: "BE",
    ...overrides,
  };
}

beforeAll(async () => {
  database = await createTestDatabase();
  entityA = await createEntity(database.db, { name: "Entity A" });
  entityB = await createEntity(database.db, { name: "Entity B" });
  manager = await createUser(database.db, { entityId: entityA.id, role: Role.FACILITY_MANAGER });
  admin = await createUser(database.db, { entityId: entityA.id, role: Role.ADMINISTRATOR });
  technician = await createUser(database.db, { entityId: entityA.id, role: Role.TECHNICIAN });
  otherManager = await createUser(database.db, { entityId: entityB.id, role: Role.FACILITY_MANAGER });
});
afterAll(async () => {
  await database?.close();
});

// ---------------------------------------------------------------------------
// Facilities
// ---------------------------------------------------------------------------

describe("createFacility", () => {
  it("stores the trimmed name and description and numbers facilities per entity", async () => {
    const entity = await createEntity(database.db);
    const other = await createEntity(database.db);
    const me = await createUser(database.db, { entityId: entity.id, role: Role.FACILITY_MANAGER });
    const them = await createUser(database.db, { entityId: other.id, role: Role.ADMINISTRATOR });

    const first = await createFacilityVerb(ctxFor(me), { name: "  Head office  ", description: "  Downtown  " });
    expect(first).toMatchObject({
      shortId: 1,
      name: "Head office",
      description: "Downtown",
      entityId: entity.id,
      entityName: entity.name,
      countBuildings: 0,
      activeIncidents: 0,
      status: 1,
    });
    const second = await createFacilityVerb(ctxFor(me), { name: "Warehouse" });
    expect(second.shortId).toBe(2);
    // Another entity has its own numbering.
    expect((await createFacilityVerb(ctxFor(them), { name: "Elsewhere" })).shortId).toBe(1);
    expect((await createFacilityVerb(ctxFor(me), { name: "Depot" })).shortId).toBe(3);

    const row = await facilityRow(first.id);
    expect(row).toMatchObject({ entityId: entity.id, shortId: 1, name: "Head office", description: "Downtown", archivedAt: null });
  });

  it("stores a blank or missing description as null", async () => {
    for (const description of ["", "   ", null, undefined]) {
      const created = await createFacilityVerb(ctxFor(manager), { name: "No description", description });
      expect(created.description).toBeNull();
      expect((await facilityRow(created.id)).description).toBeNull();
    }
  });

  it("lets an administrator create too", async () => {
    const created = await createFacilityVerb(ctxFor(admin), { name: "Admin's facility" });
    expect((await facilityRow(created.id)).entityId).toBe(entityA.id);
  });

  it("refuses a technician and a missing actor, writing nothing", async () => {
    const before = await facilityCount(entityA.id);
    await expect(createFacilityVerb(ctxFor(technician), { name: "Nope" })).rejects.toBeInstanceOf(ForbiddenError);
    await expect(createFacilityVerb({ ...ctxFor(manager), actor: null }, { name: "Nope" })).rejects.toBeInstanceOf(
      ForbiddenError,
    );
    expect(await facilityCount(entityA.id)).toBe(before);
  });

  it("requires a name (missing, empty or whitespace-only), writing nothing", async () => {
    const before = await facilityCount(entityA.id);
    await expectFieldError(createFacilityVerb(ctxFor(manager), {} as never), "name", NAME_REQUIRED);
    await expectFieldError(createFacilityVerb(ctxFor(manager), { name: "" }), "name", NAME_REQUIRED);
    await expectFieldError(createFacilityVerb(ctxFor(manager), { name: "   " }), "name", NAME_REQUIRED);
    await expectFieldError(createFacilityVerb(ctxFor(manager), { name: null } as never), "name", NAME_REQUIRED);
    expect(await facilityCount(entityA.id)).toBe(before);
  });

  it("refuses too long texts, writing nothing", async () => {
    const before = await facilityCount(entityA.id);
    await expectFieldError(createFacilityVerb(ctxFor(manager), { name: longText(201) }), "name", TOO_LONG);
    await expectFieldError(
      createFacilityVerb(ctxFor(manager), { name: "Fine", description: longText(2001) }),
      "description",
      TOO_LONG,
    );
    expect(await facilityCount(entityA.id)).toBe(before);
    // The limits themselves are accepted.
    const created = await createFacilityVerb(ctxFor(manager), { name: longText(200), description: longText(2000) });
    expect(created.name).toHaveLength(200);
    expect(created.description).toHaveLength(2000);
  });

  it("does not consume a short id when refused", async () => {
    const entity = await createEntity(database.db);
    const me = await createUser(database.db, { entityId: entity.id, role: Role.FACILITY_MANAGER });
    const tech = await createUser(database.db, { entityId: entity.id, role: Role.TECHNICIAN });
    await expect(createFacilityVerb(ctxFor(tech), { name: "Nope" })).rejects.toBeInstanceOf(ForbiddenError);
    await expect(createFacilityVerb(ctxFor(me), { name: " " })).rejects.toBeInstanceOf(ValidationError);
    expect((await createFacilityVerb(ctxFor(me), { name: "First" })).shortId).toBe(1);
  });
});

describe("updateFacility", () => {
  it("saves the name and description, keeping the short id", async () => {
    const facility = await createFacility(database.db, { entityId: entityA.id, name: "Old", description: "Old text" });
    await reach(manager);
    const updated = await updateFacility(ctxFor(manager), facility.id, { name: "  New  ", description: "  New text " });
    expect(updated).toMatchObject({ id: facility.id, shortId: facility.shortId, name: "New", description: "New text" });
    expect(await facilityRow(facility.id)).toMatchObject({ shortId: facility.shortId, name: "New", description: "New text" });

    const cleared = await updateFacility(ctxFor(admin), facility.id, { name: "New", description: "   " });
    expect(cleared.description).toBeNull();
    expect((await facilityRow(facility.id)).description).toBeNull();
  });

  it("answers not found for another entity's facility, changing neither", async () => {
    const mine = await createFacility(database.db, { entityId: entityA.id, name: "Mine" });
    const theirs = await createFacility(database.db, { entityId: entityB.id, name: "Theirs" });
    await expect(updateFacility(ctxFor(manager), theirs.id, { name: "Hacked" })).rejects.toBeInstanceOf(NotFoundError);
    await expect(updateFacility(ctxFor(otherManager), mine.id, { name: "Hacked" })).rejects.toBeInstanceOf(NotFoundError);
    await expect(updateFacility(ctxFor(manager), 2_000_000_000, { name: "Hacked" })).rejects.toBeInstanceOf(NotFoundError);
    expect(await facilityRow(mine.id)).toEqual(mine);
    expect(await facilityRow(theirs.id)).toEqual(theirs);
  });

  it("refuses a technician, changing nothing", async () => {
    const facility = await createFacility(database.db, { entityId: entityA.id, name: "Stable" });
    await expect(updateFacility(ctxFor(technician), facility.id, { name: "Hacked" })).rejects.toBeInstanceOf(ForbiddenError);
    expect(await facilityRow(facility.id)).toEqual(facility);
  });

  it("validates the name and lengths, changing nothing", async () => {
    const facility = await createFacility(database.db, { entityId: entityA.id, name: "Valid", description: "Kept" });
    await expectFieldError(updateFacility(ctxFor(manager), facility.id, { name: "" }), "name", NAME_REQUIRED);
    await expectFieldError(updateFacility(ctxFor(manager), facility.id, { name: " \t " }), "name", NAME_REQUIRED);
    await expectFieldError(updateFacility(ctxFor(manager), facility.id, {} as never), "name", NAME_REQUIRED);
    await expectFieldError(updateFacility(ctxFor(manager), facility.id, { name: longText(201) }), "name", TOO_LONG);
    await expectFieldError(
      updateFacility(ctxFor(manager), facility.id, { name: "Ok", description: longText(2001) }),
      "description",
      TOO_LONG,
    );
    expect(await facilityRow(facility.id)).toEqual(facility);
  });
});

describe("archiveFacility confirmation", () => {
  it("refuses a wrong retyped name with Wrong Name on confirmName, archiving nothing", async () => {
    const tree = await createFacilityTree(database.db, { entityId: entityA.id, facilityName: "Confirm me" });
    await reach(manager);
    const before = await activeCounts(tree);
    for (const confirmName of ["wrong", "confirm me", "Confirm", ""]) {
      const error = await rejectionOf(archiveFacility(ctxFor(manager), tree.facility.id, { confirmName }));
      expect(error).toBeInstanceOf(ValidationError);
      expect((error as ValidationError).fieldErrors).toEqual({ confirmName: [WRONG_NAME] });
      expect((error as ValidationError).messageKey).toBe(WRONG_NAME);
    }
    await expectFieldError(archiveFacility(ctxFor(manager), tree.facility.id, {} as never), "confirmName", WRONG_NAME);
    expect(await activeCounts(tree)).toEqual(before);
    await expectTreeUntouched(tree);
    expect((await facilityRow(tree.facility.id)).archivedAt).toBeNull();
  });

  it("accepts the exact name, surrounding spaces ignored", async () => {
    const facility = await createFacility(database.db, { entityId: entityA.id, name: "Exact Name" });
    await reach(manager);
    await archiveFacility(ctxFor(manager), facility.id, { confirmName: "  Exact Name " });
    expect((await facilityRow(facility.id)).archivedAt).not.toBeNull();
  });

  it("records who archived what in the audit trail; a refused archive records nothing", async () => {
    const facility = await createFacility(database.db, { entityId: entityA.id, name: "Audited" });
    await reach(manager);
    const audit = () =>
      database.db
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.recordType, "facility"), eq(auditLog.recordId, String(facility.id))));
    await rejectionOf(archiveFacility(ctxFor(manager), facility.id, { confirmName: "wrong" }));
    expect(await audit()).toEqual([]);
    await archiveFacility({ ...ctxFor(manager), requestId: "req-audit" }, facility.id, { confirmName: "Audited" });
    const rows = await audit();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ entityId: entityA.id, actorId: manager.id, action: "facility.archive", requestId: "req-audit" });
    expect(rows[0].details).toMatchObject({ buildings: 0, incidentsRejected: 0 });
  });

  it("archives without a confirmation (REST)", async () => {
    const facility = await createFacility(database.db, { entityId: entityA.id, name: "Via REST" });
    const counts = await archiveFacility(ctxFor(admin), facility.id);
    expect(counts).toEqual({ buildings: 0, rooms: 0, equipmentItems: 0, reportIdentifiers: 0, incidentsRejected: 0 });
    expect((await facilityRow(facility.id)).archivedAt).not.toBeNull();
  });

  it("refuses a technician and another entity's facility, archiving nothing", async () => {
    const tree = await createFacilityTree(database.db, { entityId: entityA.id });
    const theirs = await createFacilityTree(database.db, { entityId: entityB.id });
    await expect(archiveFacility(ctxFor(technician), tree.facility.id)).rejects.toBeInstanceOf(ForbiddenError);
    await expect(
      archiveFacility(ctxFor(technician), tree.facility.id, { confirmName: tree.facility.name }),
    ).rejects.toBeInstanceOf(ForbiddenError);
    await expect(archiveFacility(ctxFor(manager), theirs.facility.id)).rejects.toBeInstanceOf(NotFoundError);
    await expect(archiveFacility(ctxFor(otherManager), tree.facility.id)).rejects.toBeInstanceOf(NotFoundError);
    await expectTreeUntouched(tree);
    await expectTreeUntouched(theirs);
    expect((await facilityRow(tree.facility.id)).archivedAt).toBeNull();
    expect((await facilityRow(theirs.facility.id)).archivedAt).toBeNull();
  });
});

// ---------------------------------------------------------------------------
// Cascade helpers
// ---------------------------------------------------------------------------

type TreePart = Pick<FacilityTree, "buildings" | "rooms" | "items" | "roomIncidents" | "itemIncidents">;

/** The part of a tree under one building. */
function subtree(tree: FacilityTree, building: Building): TreePart {
  const roomIds = new Set(tree.rooms.filter((r) => r.buildingId === building.id).map((r) => r.id));
  const items = tree.items.filter((i) => roomIds.has(i.roomId));
  const itemIds = new Set(items.map((i) => i.id));
  return {
    buildings: [building],
    rooms: tree.rooms.filter((r) => roomIds.has(r.id)),
    items,
    roomIncidents: tree.roomIncidents.filter((i) => i.roomId !== null && roomIds.has(i.roomId)),
    itemIncidents: tree.itemIncidents.filter((i) => i.equipmentItemId !== null && itemIds.has(i.equipmentItemId)),
  };
}

const ids = (rows: { id: number }[]) => (rows.length ? rows.map((r) => r.id) : [-1]);

async function identifiersOf(part: TreePart) {
  return database.db
    .select()
    .from(reportIdentifiers)
    .where(or(inArray(reportIdentifiers.roomId, ids(part.rooms)), inArray(reportIdentifiers.equipmentItemId, ids(part.items))));
}

async function incidentsOf(list: Incident[]) {
  return database.db.select().from(incidents).where(inArray(incidents.id, ids(list)));
}

async function statusEventsOf(list: Incident[]) {
  return database.db
    .select()
    .from(incidentEvents)
    .where(and(inArray(incidentEvents.incidentId, ids(list)), eq(incidentEvents.type, IncidentEventType.STATUS_UPDATE)));
}

/** How many rows of the part are active (not archived), and how many incidents are open. */
async function activeCounts(part: TreePart) {
  const db = database.db;
  const active = async (table: typeof buildings | typeof rooms | typeof equipmentItems, list: { id: number }[]) =>
    (await db.select({ id: table.id }).from(table).where(and(inArray(table.id, ids(list)), isNull(table.archivedAt)))).length;
  const allIncidents = [...part.roomIncidents, ...part.itemIncidents];
  return {
    buildings: await active(buildings, part.buildings),
    rooms: await active(rooms, part.rooms),
    equipmentItems: await active(equipmentItems, part.items),
    reportIdentifiers: (await identifiersOf(part)).filter((r) => r.archivedAt === null).length,
    openIncidents: (await incidentsOf(allIncidents)).filter(
      (i) => i.status === IncidentStatus.PENDING || i.status === IncidentStatus.IN_PROGRESS,
    ).length,
  };
}

/** Nothing of the part is archived, every incident keeps its status and got no status event. */
async function expectTreeUntouched(part: TreePart) {
  const db = database.db;
  const archived = async (table: typeof buildings | typeof rooms | typeof equipmentItems, list: { id: number }[]) =>
    db.select({ id: table.id }).from(table).where(and(inArray(table.id, ids(list)), isNotNull(table.archivedAt)));
  expect(await archived(buildings, part.buildings)).toEqual([]);
  expect(await archived(rooms, part.rooms)).toEqual([]);
  expect(await archived(equipmentItems, part.items)).toEqual([]);
  const identifiers = await identifiersOf(part);
  expect(identifiers).toHaveLength(part.rooms.length + part.items.length);
  expect(identifiers.filter((r) => r.archivedAt !== null)).toEqual([]);
  const all = [...part.roomIncidents, ...part.itemIncidents];
  const now = await incidentsOf(all);
  expect(new Map(now.map((i) => [i.id, i.status]))).toEqual(new Map(all.map((i) => [i.id, i.status])));
  expect(await statusEventsOf(all)).toEqual([]);
}

/**
 * Everything of the part is archived; its Pending and In Progress incidents are Rejected with exactly
 * one status event by `actor`; Done and Rejected incidents are untouched and got no event.
 */
async function expectTreeArchived(part: TreePart, actor: User) {
  const db = database.db;
  const active = async (table: typeof buildings | typeof rooms | typeof equipmentItems, list: { id: number }[]) =>
    db.select({ id: table.id }).from(table).where(and(inArray(table.id, ids(list)), isNull(table.archivedAt)));
  expect(await active(buildings, part.buildings)).toEqual([]);
  expect(await active(rooms, part.rooms)).toEqual([]);
  expect(await active(equipmentItems, part.items)).toEqual([]);
  const identifiers = await identifiersOf(part);
  expect(identifiers).toHaveLength(part.rooms.length + part.items.length);
  expect(identifiers.filter((r) => r.archivedAt === null)).toEqual([]);

  const all = [...part.roomIncidents, ...part.itemIncidents];
  const now = new Map((await incidentsOf(all)).map((i) => [i.id, i]));
  const events = await statusEventsOf(all);
  for (const incident of all) {
    const mine = events.filter((e) => e.incidentId === incident.id);
    const after = now.get(incident.id)!;
    if (incident.status === IncidentStatus.PENDING || incident.status === IncidentStatus.IN_PROGRESS) {
      expect(after.status, `incident ${incident.id} (was ${incident.status})`).toBe(IncidentStatus.REJECTED);
      expect(mine).toHaveLength(1);
      expect(mine[0]).toMatchObject({
        entityId: incident.entityId,
        type: IncidentEventType.STATUS_UPDATE,
        actorId: actor.id,
        oldValue: incident.status,
        newValue: IncidentStatus.REJECTED,
      });
    } else {
      expect(after.status, `incident ${incident.id}`).toBe(incident.status);
      expect(after.updatedAt).toEqual(incident.updatedAt);
      expect(mine).toEqual([]);
    }
  }
}

async function linksOf(userIds: number[]) {
  return database.db
    .select({ userId: userLinkedObjects.userId, facilityId: userLinkedObjects.facilityId, buildingId: userLinkedObjects.buildingId })
    .from(userLinkedObjects)
    .where(inArray(userLinkedObjects.userId, userIds));
}

const openIn = (part: TreePart) =>
  [...part.roomIncidents, ...part.itemIncidents].filter(
    (i) => i.status === IncidentStatus.PENDING || i.status === IncidentStatus.IN_PROGRESS,
  ).length;

// ---------------------------------------------------------------------------
// Archive cascades
// ---------------------------------------------------------------------------

describe("archiveFacility cascade", () => {
  it("archives the facility and everything in it, rejecting open incidents once, with the right counts", async () => {
    const db = database.db;
    const entity = await createEntity(db);
    const me = await createUser(db, { entityId: entity.id, role: Role.FACILITY_MANAGER });
    const tech = await createUser(db, { entityId: entity.id, role: Role.TECHNICIAN });
    const tech2 = await createUser(db, { entityId: entity.id, role: Role.TECHNICIAN });
    const tree = await createFacilityTree(db, { entityId: entity.id, facilityName: "Doomed" });
    const sibling = await createFacilityTree(db, { entityId: entity.id, facilityName: "Sibling" });
    const other = await createEntity(db);
    const stranger = await createUser(db, { entityId: other.id, role: Role.TECHNICIAN });
    const foreign = await createFacilityTree(db, { entityId: other.id, facilityName: "Doomed" });
    await reach(me);

    // Extra incidents: one on a room and an item at once (rejected once), an archived Pending one
    // and an Archived-status one (both untouched).
    const [room] = tree.rooms;
    const [item] = tree.items;
    const both = await createIncident(db, { entityId: entity.id, roomId: room.id, equipmentItemId: item.id });
    const archivedPending = await createIncident(db, { entityId: entity.id, roomId: room.id, archivedAt: new Date() });
    const archivedStatus = await createIncident(db, { entityId: entity.id, roomId: room.id, status: IncidentStatus.ARCHIVED });
    // A room archived earlier keeps its archive date and is not counted again.
    const earlierDate = new Date("2024-01-01T00:00:00Z");
    const oldRoom = await createRoom(db, { entityId: entity.id, buildingId: tree.buildings[0].id, reportCode: null });
    await db.update(rooms).set({ archivedAt: earlierDate }).where(eq(rooms.id, oldRoom.id));

    // Links: to the facility, to one of its buildings, to a sibling building, in another entity.
    await linkUserTo(db, { entityId: entity.id, userId: tech.id, facilityId: tree.facility.id });
    await linkUserTo(db, { entityId: entity.id, userId: tech.id, buildingId: sibling.buildings[0].id });
    await linkUserTo(db, { entityId: entity.id, userId: tech2.id, buildingId: tree.buildings[1].id });
    await linkUserTo(db, { entityId: entity.id, userId: tech2.id, facilityId: sibling.facility.id });
    await linkUserTo(db, { entityId: other.id, userId: stranger.id, facilityId: foreign.facility.id });
    await linkUserTo(db, { entityId: other.id, userId: stranger.id, buildingId: foreign.buildings[0].id });

    const before = await activeCounts(tree);
    expect(before).toEqual({
      buildings: 2,
      rooms: 3,
      equipmentItems: 3,
      reportIdentifiers: 6,
      openIncidents: openIn(tree),
    });
    expect(openIn(tree)).toBe(12);

    const counts = await archiveFacility(ctxFor(me), tree.facility.id, { confirmName: "Doomed" });
    expect(counts).toEqual({
      buildings: 2,
      rooms: 3,
      equipmentItems: 3,
      reportIdentifiers: 6,
      incidentsRejected: 13,
    });
    expect(await activeCounts(tree)).toEqual({ buildings: 0, rooms: 0, equipmentItems: 0, reportIdentifiers: 0, openIncidents: 0 });

    expect((await facilityRow(tree.facility.id)).archivedAt).not.toBeNull();
    await expectTreeArchived(tree, me);

    const extra = new Map((await incidentsOf([both, archivedPending, archivedStatus])).map((i) => [i.id, i]));
    expect(extra.get(both.id)!.status).toBe(IncidentStatus.REJECTED);
    expect(await statusEventsOf([both])).toHaveLength(1);
    expect(extra.get(archivedPending.id)!.status).toBe(IncidentStatus.PENDING);
    expect(extra.get(archivedStatus.id)!.status).toBe(IncidentStatus.ARCHIVED);
    expect(await statusEventsOf([archivedPending, archivedStatus])).toEqual([]);
    const [old] = await db.select().from(rooms).where(eq(rooms.id, oldRoom.id));
    expect(old.archivedAt).toEqual(earlierDate);

    // The sibling facility and the other entity are untouched.
    expect((await facilityRow(sibling.facility.id)).archivedAt).toBeNull();
    await expectTreeUntouched(sibling);
    expect((await facilityRow(foreign.facility.id)).archivedAt).toBeNull();
    await expectTreeUntouched(foreign);

    // Links to the facility and its buildings are gone; the others remain.
    expect(await linksOf([tech.id, tech2.id])).toEqual(
      expect.arrayContaining([
        { userId: tech.id, facilityId: null, buildingId: sibling.buildings[0].id },
        { userId: tech2.id, facilityId: sibling.facility.id, buildingId: null },
      ]),
    );
    expect(await linksOf([tech.id, tech2.id])).toHaveLength(2);
    expect(await linksOf([stranger.id])).toHaveLength(2);
  });

  it("makes the archived facility and its buildings invisible and immutable", async () => {
    const db = database.db;
    const tree = await createFacilityTree(db, { entityId: entityA.id, facilityName: "Gone", statuses: [] });
    await reach(manager);
    await archiveFacility(ctxFor(manager), tree.facility.id);
    const ctx = ctxFor(manager);
    await expect(getFacility(ctx, tree.facility.id)).rejects.toBeInstanceOf(NotFoundError);
    for (const building of tree.buildings) {
      await expect(getBuilding(ctx, building.id)).rejects.toBeInstanceOf(NotFoundError);
      await expect(updateBuilding(ctx, building.id, buildingInput(tree.facility.id))).rejects.toBeInstanceOf(NotFoundError);
      await expect(archiveBuilding(ctx, building.id)).rejects.toBeInstanceOf(NotFoundError);
    }
    const all = { page: 1, size: 100, q: "", dir: "asc" as const };
    expect((await listFacilities(ctx, { ...all, sort: "name" })).items.map((f) => f.id)).not.toContain(tree.facility.id);
    const buildingIds = (await listBuildings(ctx, { ...all, sort: "name" })).items.map((b) => b.id);
    for (const building of tree.buildings) expect(buildingIds).not.toContain(building.id);

    await expect(updateFacility(ctx, tree.facility.id, { name: "Back" })).rejects.toBeInstanceOf(NotFoundError);
    await expect(archiveFacility(ctx, tree.facility.id)).rejects.toBeInstanceOf(NotFoundError);
    await expect(archiveFacility(ctx, tree.facility.id, { confirmName: "Gone" })).rejects.toBeInstanceOf(NotFoundError);
    expect((await facilityRow(tree.facility.id)).name).toBe("Gone");
    // No building can be added to it or moved into it.
    await expectFieldError(createBuildingVerb(ctx, buildingInput(tree.facility.id)), "facilityId", FACILITY_NOT_FOUND);
    const live = await createBuilding(db, { entityId: entityA.id });
    await reach(manager);
    await expectFieldError(updateBuilding(ctx, live.id, buildingInput(tree.facility.id)), "facilityId", FACILITY_NOT_FOUND);
    expect((await buildingRow(live.id)).facilityId).toBe(live.facilityId);
  });
});

describe("archiveBuilding cascade", () => {
  it("archives the building and everything in it, leaving its siblings, facility and other entities alone", async () => {
    const db = database.db;
    const entity = await createEntity(db);
    const me = await createUser(db, { entityId: entity.id, role: Role.ADMINISTRATOR });
    const tech = await createUser(db, { entityId: entity.id, role: Role.TECHNICIAN });
    const tree = await createFacilityTree(db, { entityId: entity.id, roomsPerBuilding: [2, 1, 1] });
    const otherFacility = await createFacilityTree(db, { entityId: entity.id, roomsPerBuilding: [1] });
    const other = await createEntity(db);
    const stranger = await createUser(db, { entityId: other.id, role: Role.TECHNICIAN });
    const foreign = await createFacilityTree(db, { entityId: other.id });

    const [doomed, ...siblings] = tree.buildings;
    await db.update(buildings).set({ name: "Block A" }).where(eq(buildings.id, doomed.id));
    const part = subtree(tree, doomed);
    const [item] = part.items;
    const both = await createIncident(db, { entityId: entity.id, roomId: item.roomId, equipmentItemId: item.id });

    await linkUserTo(db, { entityId: entity.id, userId: tech.id, buildingId: doomed.id });
    await linkUserTo(db, { entityId: entity.id, userId: tech.id, buildingId: siblings[0].id });
    await linkUserTo(db, { entityId: entity.id, userId: tech.id, facilityId: tree.facility.id });
    await linkUserTo(db, { entityId: other.id, userId: stranger.id, buildingId: foreign.buildings[0].id });

    expect(await activeCounts(part)).toEqual({ buildings: 1, rooms: 2, equipmentItems: 2, reportIdentifiers: 4, openIncidents: 8 });

    const counts = await archiveBuilding(ctxFor(me), doomed.id, { confirmName: " Block A  " });
    expect(counts).toEqual({ buildings: 1, rooms: 2, equipmentItems: 2, reportIdentifiers: 4, incidentsRejected: 9 });
    expect(await activeCounts(part)).toEqual({ buildings: 0, rooms: 0, equipmentItems: 0, reportIdentifiers: 0, openIncidents: 0 });
    expect((await buildingRow(doomed.id)).archivedAt).not.toBeNull();
    await expectTreeArchived(part, me);
    expect((await incidentsOf([both]))[0].status).toBe(IncidentStatus.REJECTED);
    expect(await statusEventsOf([both])).toHaveLength(1);

    // The facility, the sibling buildings, another facility and another entity are untouched.
    expect((await facilityRow(tree.facility.id)).archivedAt).toBeNull();
    for (const sibling of siblings) await expectTreeUntouched(subtree(tree, sibling));
    await expectTreeUntouched(otherFacility);
    await expectTreeUntouched(foreign);

    // Only the link to the archived building is gone.
    const links = await linksOf([tech.id]);
    expect(links).toHaveLength(2);
    expect(links).toEqual(
      expect.arrayContaining([
        { userId: tech.id, facilityId: null, buildingId: siblings[0].id },
        { userId: tech.id, facilityId: tree.facility.id, buildingId: null },
      ]),
    );
    expect(await linksOf([stranger.id])).toHaveLength(1);

    // The facility now counts the remaining buildings only.
    expect((await getFacility(ctxFor(me), tree.facility.id)).countBuildings).toBe(2);
  });

  it("makes the archived building invisible and immutable", async () => {
    const facility = await createFacility(database.db, { entityId: entityA.id });
    const building = await createBuilding(database.db, { entityId: entityA.id, facilityId: facility.id, name: "Shed" });
    await reach(manager);
    const ctx = ctxFor(manager);
    await archiveBuilding(ctx, building.id);
    await expect(getBuilding(ctx, building.id)).rejects.toBeInstanceOf(NotFoundError);
    const list = await listBuildings(ctx, { page: 1, size: 100, q: "", dir: "asc", sort: "name" }, { facilityIds: [facility.id] });
    expect(list).toMatchObject({ items: [], total: 0 });
    await expect(updateBuilding(ctx, building.id, buildingInput(facility.id))).rejects.toBeInstanceOf(NotFoundError);
    await expect(archiveBuilding(ctx, building.id)).rejects.toBeInstanceOf(NotFoundError);
    await expect(archiveBuilding(ctx, building.id, { confirmName: "Shed" })).rejects.toBeInstanceOf(NotFoundError);
    expect((await buildingRow(building.id)).name).toBe("Shed");
    expect((await getFacility(ctx, facility.id)).countBuildings).toBe(0);
  });

  it("checks the confirmation: Wrong Name archives nothing, the exact name or no confirmation archives", async () => {
    const db = database.db;
    const tree = await createFacilityTree(db, { entityId: entityA.id, roomsPerBuilding: [1, 1] });
    await reach(manager);
    const [first, second] = tree.buildings;
    for (const confirmName of ["wrong", first.name.toUpperCase(), ""]) {
      const error = await rejectionOf(archiveBuilding(ctxFor(manager), first.id, { confirmName }));
      expect(error).toBeInstanceOf(ValidationError);
      expect((error as ValidationError).fieldErrors).toEqual({ confirmName: [WRONG_NAME] });
    }
    await expectFieldError(archiveBuilding(ctxFor(manager), first.id, { confirmName: 42 } as never), "confirmName", WRONG_NAME);
    await expectTreeUntouched(tree);

    await archiveBuilding(ctxFor(manager), first.id, { confirmName: `\t${first.name} ` });
    await expectTreeArchived(subtree(tree, first), manager);
    await expectTreeUntouched(subtree(tree, second));
    await archiveBuilding(ctxFor(manager), second.id);
    await expectTreeArchived(subtree(tree, second), manager);
  });

  it("refuses a technician and another entity's building, archiving nothing", async () => {
    const tree = await createFacilityTree(database.db, { entityId: entityA.id, roomsPerBuilding: [1] });
    const theirs = await createFacilityTree(database.db, { entityId: entityB.id, roomsPerBuilding: [1] });
    const [mine] = tree.buildings;
    await expect(archiveBuilding(ctxFor(technician), mine.id)).rejects.toBeInstanceOf(ForbiddenError);
    await expect(archiveBuilding(ctxFor(technician), mine.id, { confirmName: mine.name })).rejects.toBeInstanceOf(ForbiddenError);
    await expect(archiveBuilding(ctxFor(manager), theirs.buildings[0].id)).rejects.toBeInstanceOf(NotFoundError);
    await expect(archiveBuilding(ctxFor(otherManager), mine.id)).rejects.toBeInstanceOf(NotFoundError);
    await expectTreeUntouched(tree);
    await expectTreeUntouched(theirs);
  });
});

// ---------------------------------------------------------------------------
// Buildings
// ---------------------------------------------------------------------------

describe("createBuilding", () => {
  it("stores every field, trimmed, and numbers buildings per entity", async () => {
    const entity = await createEntity(database.db);
    const other = await createEntity(database.db);
    const me = await createUser(database.db, { entityId: entity.id, role: Role.FACILITY_MANAGER });
    const them = await createUser(database.db, { entityId: other.id, role: Role.FACILITY_MANAGER });
    const facility = await createFacility(database.db, { entityId: entity.id, name: "Campus" });
    const theirFacility = await createFacility(database.db, { entityId: other.id });
    await reach(me);
    await reach(them);

    const first = await createBuildingVerb(
      ctxFor(me),
      buildingInput(facility.id, { name: "  Main building ", city: " Brussels " }),
    );
    expect(first).toEqual({
      id: first.id,
      shortId: 1,
      name: "Main building",
      description: "The tall one",
      streetName: "Rue Haute",
      streetNumber: "12",
      suffix: "b",
      buildingFloor: "2nd floor",
      additionalInfo: "Back entrance",
      postalCode: "1000",
      city: "Brussels",
      country: "BE",
      facilityId: facility.id,
      facilityName: "Campus",
      countRooms: 0,
      activeIncidents: 0,
      status: 1,
    });
    expect(await buildingRow(first.id)).toMatchObject({ entityId: entity.id, shortId: 1, name: "Main building", archivedAt: null });
    expect((await createBuildingVerb(ctxFor(me), buildingInput(facility.id))).shortId).toBe(2);
    expect((await createBuildingVerb(ctxFor(them), buildingInput(theirFacility.id))).shortId).toBe(1);
    expect((await createBuildingVerb(ctxFor(me), buildingInput(facility.id))).shortId).toBe(3);
    expect((await getFacility(ctxFor(me), facility.id)).countBuildings).toBe(3);
  });

  it("stores blank description and address fields as null", async () => {
    const facility = await createFacility(database.db, { entityId: entityA.id });
    const created = await createBuildingVerb(ctxFor(admin), {
      name: "Bare",
      facilityId: facility.id,
      description: "  ",
      streetName: "",
      streetNumber: " ",
      suffix: null,
      postalCode: "",
      city: "   ",
      country: "",
    });
    expect(created).toMatchObject({
      description: null,
      streetName: null,
      streetNumber: null,
      suffix: null,
      buildingFloor: null,
      additionalInfo: null,
      postalCode: null,
      city: null,
      country: null,
    });
    expect(await buildingRow(created.id)).toMatchObject({ description: null, streetName: null, city: null, country: null });
  });

  it("refuses a technician, writing nothing", async () => {
    const facility = await createFacility(database.db, { entityId: entityA.id });
    const before = await buildingCount(entityA.id);
    await expect(createBuildingVerb(ctxFor(technician), buildingInput(facility.id))).rejects.toBeInstanceOf(ForbiddenError);
    await expect(createBuildingVerb({ ...ctxFor(manager), actor: null }, buildingInput(facility.id))).rejects.toBeInstanceOf(
      ForbiddenError,
    );
    expect(await buildingCount(entityA.id)).toBe(before);
  });

  it("requires a name and a facility", async () => {
    const facility = await createFacility(database.db, { entityId: entityA.id });
    const before = await buildingCount(entityA.id);
    const ctx = ctxFor(manager);
    for (const name of ["", "   ", undefined]) {
      await expectFieldError(createBuildingVerb(ctx, buildingInput(facility.id, { name: name as string })), "name", NAME_REQUIRED);
    }
    for (const facilityId of [undefined, null, 0, -1, 1.5, "3", Number.NaN]) {
      await expectFieldError(
        createBuildingVerb(ctx, buildingInput(facility.id, { facilityId: facilityId as number })),
        "facilityId",
        FACILITY_REQUIRED,
      );
    }
    // Both at once: both reported.
    const error = (await rejectionOf(createBuildingVerb(ctx, { name: " " } as BuildingInput))) as ValidationError;
    expect(error.fieldErrors).toMatchObject({ name: [NAME_REQUIRED], facilityId: [FACILITY_REQUIRED] });
    expect(await buildingCount(entityA.id)).toBe(before);
  });

  it("refuses a facility of another entity, an archived one or an unknown one, on facilityId", async () => {
    const theirs = await createFacility(database.db, { entityId: entityB.id });
    const archived = await createFacility(database.db, { entityId: entityA.id, archivedAt: new Date() });
    await reach(manager);
    const beforeA = await buildingCount(entityA.id);
    const beforeB = await buildingCount(entityB.id);
    for (const facilityId of [theirs.id, archived.id, 2_000_000_000]) {
      const error = (await rejectionOf(createBuildingVerb(ctxFor(manager), buildingInput(facilityId)))) as ValidationError;
      expect(error).toBeInstanceOf(ValidationError);
      expect(error.fieldErrors).toEqual({ facilityId: [FACILITY_NOT_FOUND] });
    }
    expect(await buildingCount(entityA.id)).toBe(beforeA);
    expect(await buildingCount(entityB.id)).toBe(beforeB);
  });

  it("refuses too long texts on their field", async () => {
    const facility = await createFacility(database.db, { entityId: entityA.id });
    await reach(manager);
    const before = await buildingCount(entityA.id);
    const limits: [keyof BuildingInput, number][] = [
      ["name", 200],
      ["description", 2000],
      ["streetName", 200],
      ["streetNumber", 20],
      ["suffix", 20],
      ["buildingFloor", 100],
      ["additionalInfo", 200],
      ["postalCode", 20],
      ["city", 100],
      ["country", 2],
    ];
    for (const [field, max] of limits) {
      await expectFieldError(
        createBuildingVerb(ctxFor(manager), buildingInput(facility.id, { [field]: longText(max + 1) })),
        field,
        TOO_LONG,
      );
    }
    expect(await buildingCount(entityA.id)).toBe(before);
    const atLimits = Object.fromEntries(limits.map(([field, max]) => [field, longText(max)]));
    const created = await createBuildingVerb(ctxFor(manager), buildingInput(facility.id, atLimits));
    expect(created.country).toBe("xx");
    expect(created.description).toHaveLength(2000);
  });
});

describe("updateBuilding", () => {
  it("saves every field and can move the building to another facility of the entity", async () => {
    const from = await createFacility(database.db, { entityId: entityA.id, name: "From" });
    const to = await createFacility(database.db, { entityId: entityA.id, name: "To" });
    const building = await createBuilding(database.db, { entityId: entityA.id, facilityId: from.id, name: "Old" });
    await reach(manager);
    const updated = await updateBuilding(
      ctxFor(manager),
      building.id,
      buildingInput(to.id, { name: " Renamed ", city: "Ghent", suffix: "  ", description: "" }),
    );
    expect(updated).toMatchObject({
      id: building.id,
      shortId: building.shortId,
      name: "Renamed",
      city: "Ghent",
      suffix: null,
      description: null,
      streetName: "Rue Haute",
      country: "BE",
      facilityId: to.id,
      facilityName: "To",
    });
    expect(await buildingRow(building.id)).toMatchObject({ facilityId: to.id, name: "Renamed", shortId: building.shortId });
    expect((await getFacility(ctxFor(manager), from.id)).countBuildings).toBe(0);
    expect((await getFacility(ctxFor(manager), to.id)).countBuildings).toBe(1);
  });

  it("answers not found for another entity's building, changing neither", async () => {
    const mine = await createBuilding(database.db, { entityId: entityA.id });
    const theirs = await createBuilding(database.db, { entityId: entityB.id });
    await expect(updateBuilding(ctxFor(manager), theirs.id, buildingInput(mine.facilityId))).rejects.toBeInstanceOf(NotFoundError);
    await expect(updateBuilding(ctxFor(otherManager), mine.id, buildingInput(theirs.facilityId))).rejects.toBeInstanceOf(
      NotFoundError,
    );
    await expect(updateBuilding(ctxFor(manager), 2_000_000_000, buildingInput(mine.facilityId))).rejects.toBeInstanceOf(
      NotFoundError,
    );
    expect(await buildingRow(mine.id)).toEqual(mine);
    expect(await buildingRow(theirs.id)).toEqual(theirs);
  });

  it("refuses to move a building into another entity's or an archived facility", async () => {
    const mine = await createBuilding(database.db, { entityId: entityA.id });
    const theirs = await createFacility(database.db, { entityId: entityB.id });
    const archived = await createFacility(database.db, { entityId: entityA.id, archivedAt: new Date() });
    await reach(manager);
    for (const facilityId of [theirs.id, archived.id]) {
      const error = (await rejectionOf(updateBuilding(ctxFor(manager), mine.id, buildingInput(facilityId)))) as ValidationError;
      expect(error).toBeInstanceOf(ValidationError);
      expect(error.fieldErrors).toEqual({ facilityId: [FACILITY_NOT_FOUND] });
    }
    expect(await buildingRow(mine.id)).toEqual(mine);
  });

  it("refuses a technician, changing nothing", async () => {
    const mine = await createBuilding(database.db, { entityId: entityA.id });
    await expect(updateBuilding(ctxFor(technician), mine.id, buildingInput(mine.facilityId))).rejects.toBeInstanceOf(
      ForbiddenError,
    );
    expect(await buildingRow(mine.id)).toEqual(mine);
  });

  it("validates name, facility and lengths, changing nothing", async () => {
    const mine = await createBuilding(database.db, { entityId: entityA.id });
    const ctx = ctxFor(manager);
    await expectFieldError(updateBuilding(ctx, mine.id, buildingInput(mine.facilityId, { name: "" })), "name", NAME_REQUIRED);
    await expectFieldError(updateBuilding(ctx, mine.id, buildingInput(mine.facilityId, { name: "  " })), "name", NAME_REQUIRED);
    await expectFieldError(
      updateBuilding(ctx, mine.id, buildingInput(mine.facilityId, { facilityId: undefined as never })),
      "facilityId",
      FACILITY_REQUIRED,
    );
    await expectFieldError(
      updateBuilding(ctx, mine.id, buildingInput(mine.facilityId, { name: longText(201) })),
      "name",
      TOO_LONG,
    );
    await expectFieldError(
      updateBuilding(ctx, mine.id, buildingInput(mine.facilityId, { postalCode: longText(21) })),
      "postalCode",
      TOO_LONG,
    );
    expect(await buildingRow(mine.id)).toEqual(mine);
  });
});

describe("archive verbs keep the entity's counters honest", () => {
  it("the facility's activeIncidents drop to zero after archiving its only building", async () => {
    const tree = await createFacilityTree(database.db, { entityId: entityA.id, roomsPerBuilding: [1] });
    await reach(manager);
    // Room incidents count (items' incidents carry no room here).
    expect((await getFacility(ctxFor(manager), tree.facility.id)).activeIncidents).toBe(2);
    await archiveBuilding(ctxFor(manager), tree.buildings[0].id);
    expect(await getFacility(ctxFor(manager), tree.facility.id)).toMatchObject({ countBuildings: 0, activeIncidents: 0 });
  });
});

describe("concurrent writes", () => {
  it("gives parallel creations distinct, consecutive short ids", async () => {
    const entity = await createEntity(database.db);
    const me = await createUser(database.db, { entityId: entity.id, role: Role.FACILITY_MANAGER });
    const created = await Promise.all(
      Array.from({ length: 8 }, (_, i) => createFacilityVerb(ctxFor(me), { name: `Parallel ${i}` })),
    );
    expect(created.map((row) => row.shortId).sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    const facility = created[0];
    const buildingsMade = await Promise.all(
      Array.from({ length: 6 }, () => createBuildingVerb(ctxFor(me), buildingInput(facility.id))),
    );
    expect(buildingsMade.map((row) => row.shortId).sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it("never leaves an active building in an archived facility when adding and archiving race", async () => {
    const ctx = ctxFor(manager);
    for (let round = 0; round < 5; round++) {
      const facility = await createFacility(database.db, { entityId: entityA.id });
      const elsewhere = await createBuilding(database.db, { entityId: entityA.id });
      await reach(manager);
      const results = await Promise.allSettled([
        createBuildingVerb(ctx, buildingInput(facility.id)),
        updateBuilding(ctx, elsewhere.id, buildingInput(facility.id)),
        archiveFacility(ctx, facility.id),
      ]);
      expect(results[2].status).toBe("fulfilled");
      for (const result of results.slice(0, 2)) {
        if (result.status === "rejected") expect(result.reason).toBeInstanceOf(ValidationError);
      }
      const active = await database.db
        .select({ id: buildings.id })
        .from(buildings)
        .where(and(eq(buildings.facilityId, facility.id), isNull(buildings.archivedAt)));
      expect(active).toEqual([]);
    }
  });
});

// ---------------------------------------------------------------------------
// Reach of a facility manager (decision 022): their linked facilities and buildings only
// ---------------------------------------------------------------------------

describe("a facility manager's reach", () => {
  const all = { page: 1, size: 100, q: "", dir: "asc" as const };
  const idsOf = (rows: { id: number }[]) => rows.map((r) => r.id).sort((x, y) => x - y);

  /** An entity with two facilities of two buildings each, a manager linked to the first, an administrator. */
  async function twoFacilities() {
    const db = database.db;
    const entity = await createEntity(db);
    const mine = await createFacilityTree(db, { entityId: entity.id, facilityName: "Mine", roomsPerBuilding: [1, 1], statuses: [] });
    const theirs = await createFacilityTree(db, { entityId: entity.id, facilityName: "Theirs", roomsPerBuilding: [1, 1], statuses: [] });
    const me = await createUser(db, { entityId: entity.id, role: Role.FACILITY_MANAGER });
    await linkUserTo(db, { entityId: entity.id, userId: me.id, facilityId: mine.facility.id });
    const administrator = await createUser(db, { entityId: entity.id, role: Role.ADMINISTRATOR });
    return { entity, mine, theirs, me, administrator };
  }

  it("lists only the linked facility and its buildings; an administrator lists all", async () => {
    const { mine, theirs, me, administrator } = await twoFacilities();
    expect(idsOf((await listFacilities(ctxFor(me), { ...all, sort: "name" })).items)).toEqual([mine.facility.id]);
    expect(idsOf((await listBuildings(ctxFor(me), { ...all, sort: "name" })).items)).toEqual(idsOf(mine.buildings));
    expect((await listBuildings(ctxFor(me), { ...all, sort: "name" }, { facilityIds: [theirs.facility.id] })).total).toBe(0);
    expect(idsOf((await listFacilities(ctxFor(administrator), { ...all, sort: "name" })).items)).toEqual(
      idsOf([mine.facility, theirs.facility]),
    );
    expect(idsOf((await listBuildings(ctxFor(administrator), { ...all, sort: "name" })).items)).toEqual(
      idsOf([...mine.buildings, ...theirs.buildings]),
    );
  });

  it("answers not found for another facility or building of the same entity (get, update, archive), changing nothing", async () => {
    const { theirs, me } = await twoFacilities();
    const ctx = ctxFor(me);
    const facilityBefore = await facilityRow(theirs.facility.id);
    const buildingBefore = await buildingRow(theirs.buildings[0].id);
    await expect(getFacility(ctx, theirs.facility.id)).rejects.toMatchObject({ code: "FACILITY_NOT_FOUND" });
    await expect(updateFacility(ctx, theirs.facility.id, { name: "Taken" })).rejects.toBeInstanceOf(NotFoundError);
    await expect(archiveFacility(ctx, theirs.facility.id)).rejects.toBeInstanceOf(NotFoundError);
    await expect(archiveFacility(ctx, theirs.facility.id, { confirmName: "Theirs" })).rejects.toBeInstanceOf(NotFoundError);
    await expect(getBuilding(ctx, theirs.buildings[0].id)).rejects.toMatchObject({ code: "BUILDING_NOT_FOUND" });
    await expect(updateBuilding(ctx, theirs.buildings[0].id, buildingInput(theirs.facility.id))).rejects.toBeInstanceOf(NotFoundError);
    await expect(archiveBuilding(ctx, theirs.buildings[0].id)).rejects.toBeInstanceOf(NotFoundError);
    expect(await facilityRow(theirs.facility.id)).toEqual(facilityBefore);
    expect(await buildingRow(theirs.buildings[0].id)).toEqual(buildingBefore);
    await expectTreeUntouched(theirs);
  });

  it("refuses to add a building to, or move one into, a facility outside reach (facility not found), writing nothing", async () => {
    const { entity, mine, theirs, me } = await twoFacilities();
    const ctx = ctxFor(me);
    const before = await buildingCount(entity.id);
    await expectFieldError(createBuildingVerb(ctx, buildingInput(theirs.facility.id)), "facilityId", FACILITY_NOT_FOUND);
    expect(await buildingCount(entity.id)).toBe(before);
    const [own] = mine.buildings;
    const ownBefore = await buildingRow(own.id);
    await expectFieldError(updateBuilding(ctx, own.id, buildingInput(theirs.facility.id)), "facilityId", FACILITY_NOT_FOUND);
    expect(await buildingRow(own.id)).toEqual(ownBefore);
    // Within reach, both work; a building added to a linked facility is reached at once.
    const added = await createBuildingVerb(ctx, buildingInput(mine.facility.id, { name: "Later" }));
    expect((await getBuilding(ctx, added.id)).name).toBe("Later");
    expect((await updateBuilding(ctx, own.id, buildingInput(mine.facility.id, { name: "Renamed" }))).name).toBe("Renamed");
  });

  it("reaches a linked building but not its facility as a whole: the facility is shown, not changed, archived or added to", async () => {
    const { entity, theirs } = await twoFacilities();
    const db = database.db;
    const narrow = await createUser(db, { entityId: entity.id, role: Role.FACILITY_MANAGER });
    const [linked, sibling] = theirs.buildings;
    await linkUserTo(db, { entityId: entity.id, userId: narrow.id, buildingId: linked.id });
    const ctx = ctxFor(narrow);
    expect(idsOf((await listFacilities(ctx, { ...all, sort: "name" })).items)).toEqual([theirs.facility.id]);
    expect(idsOf((await listBuildings(ctx, { ...all, sort: "name" })).items)).toEqual([linked.id]);
    expect((await getFacility(ctx, theirs.facility.id)).id).toBe(theirs.facility.id);
    await expect(updateFacility(ctx, theirs.facility.id, { name: "Taken" })).rejects.toBeInstanceOf(NotFoundError);
    await expect(archiveFacility(ctx, theirs.facility.id)).rejects.toBeInstanceOf(NotFoundError);
    await expectFieldError(createBuildingVerb(ctx, buildingInput(theirs.facility.id)), "facilityId", FACILITY_NOT_FOUND);
    await expect(getBuilding(ctx, sibling.id)).rejects.toBeInstanceOf(NotFoundError);
    await expect(archiveBuilding(ctx, sibling.id)).rejects.toBeInstanceOf(NotFoundError);
    expect((await facilityRow(theirs.facility.id)).name).toBe("Theirs");
    await expectTreeUntouched(theirs);
    // Its own building it may change where it stands.
    const updated = await updateBuilding(ctx, linked.id, buildingInput(theirs.facility.id, { name: "Kept in place" }));
    expect(updated).toMatchObject({ name: "Kept in place", facilityId: theirs.facility.id });
  });

  it("lets an administrator change and archive any facility and building of the entity", async () => {
    const { theirs, administrator } = await twoFacilities();
    const ctx = ctxFor(administrator);
    expect((await updateFacility(ctx, theirs.facility.id, { name: "Theirs" })).id).toBe(theirs.facility.id);
    expect((await createBuildingVerb(ctx, buildingInput(theirs.facility.id))).facilityId).toBe(theirs.facility.id);
    await archiveBuilding(ctx, theirs.buildings[0].id);
    await archiveFacility(ctx, theirs.facility.id, { confirmName: "Theirs" });
    expect((await facilityRow(theirs.facility.id)).archivedAt).not.toBeNull();
  });

  it("links a manager to the facility they create, in the same transaction; an administrator is not linked", async () => {
    const { me, administrator } = await twoFacilities();
    const created = await createFacilityVerb(ctxFor(me), { name: "Made by me" });
    expect(await linksOf([me.id])).toEqual(expect.arrayContaining([{ userId: me.id, facilityId: created.id, buildingId: null }]));
    expect((await getFacility(ctxFor(me), created.id)).name).toBe("Made by me");
    expect((await listFacilities(ctxFor(me), { ...all, sort: "name" })).items.map((f) => f.name)).toContain("Made by me");
    // And so may add buildings to it, which they reach too.
    const building = await createBuildingVerb(ctxFor(me), buildingInput(created.id));
    expect((await getBuilding(ctxFor(me), building.id)).facilityId).toBe(created.id);

    const byAdmin = await createFacilityVerb(ctxFor(administrator), { name: "Made by the administrator" });
    expect(await linksOf([administrator.id])).toEqual([]);
    await expect(getFacility(ctxFor(me), byAdmin.id)).rejects.toBeInstanceOf(NotFoundError);

    // A refused creation links nothing.
    const links = (await linksOf([me.id])).length;
    await expect(createFacilityVerb(ctxFor(me), { name: " " })).rejects.toBeInstanceOf(ValidationError);
    expect(await linksOf([me.id])).toHaveLength(links);
  });
});
