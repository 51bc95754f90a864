import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "~/db/client.server";
import { IncidentStatus, Role } from "~/db/enums";
import type { User } from "~/db/schema";
import { NotFoundError } from "~/lib/errors";
import { createBuilding, createEntity, createFacility, createIncident, createRoom, createUser, linkUserTo } from "#tests/factories";
import { actorContext } from "#tests/service-helpers";
import { createTestDatabase } from "#tests/test-db";
import { viewBuilding, viewFacility } from "./queries.server";

/**
 * The facility and building views (/view-facility/{id}, /view-building/{id}): their contents and active
 * incidents, within the viewer's reach. Facility "North" with buildings "Annex" and "Main" (an archived
 * "Old" too), facility "South" with building "Depot"; a technician linked to building Main only.
 */
let database: Database;
let admin: User;
let technician: User;
let otherAdmin: User;
const ids: Record<string, number> = {};

beforeAll(async () => {
  database = await createTestDatabase();
  const db = database.db;
  const entity = await createEntity(db);
  const other = await createEntity(db);
  admin = await createUser(db, { entityId: entity.id, role: Role.ADMINISTRATOR });
  technician = await createUser(db, { entityId: entity.id, role: Role.TECHNICIAN });
  otherAdmin = await createUser(db, { entityId: other.id, role: Role.ADMINISTRATOR });
  const e = entity.id;
  ids.north = (await createFacility(db, { entityId: e, name: "North" })).id;
  ids.south = (await createFacility(db, { entityId: e, name: "South" })).id;
  ids.main = (await createBuilding(db, { entityId: e, facilityId: ids.north, name: "Main" })).id;
  ids.annex = (await createBuilding(db, { entityId: e, facilityId: ids.north, name: "Annex" })).id;
  await createBuilding(db, { entityId: e, facilityId: ids.north, name: "Old", archivedAt: new Date() });
  ids.depot = (await createBuilding(db, { entityId: e, facilityId: ids.south, name: "Depot" })).id;
  ids.hall = (await createRoom(db, { entityId: e, buildingId: ids.main, name: "Hall", floor: "0" })).id;
  ids.office = (await createRoom(db, { entityId: e, buildingId: ids.main, name: "Office 1.02", floor: "1" })).id;
  ids.store = (await createRoom(db, { entityId: e, buildingId: ids.annex, name: "Store", floor: "0" })).id;
  await createIncident(db, { entityId: e, roomId: ids.hall, title: "Leak in the hall" });
  await createIncident(db, { entityId: e, roomId: ids.office, title: "Broken lamp", status: IncidentStatus.IN_PROGRESS });
  await createIncident(db, { entityId: e, roomId: ids.office, title: "Fixed door", status: IncidentStatus.DONE });
  await createIncident(db, { entityId: e, roomId: ids.store, title: "Cold store" });
  await linkUserTo(db, { entityId: e, userId: technician.id, buildingId: ids.main });
});

afterAll(async () => {
  await database?.close();
});

describe("the facility view", () => {
  it("lists the facility's active buildings and the active incidents of their rooms", async () => {
    const view = await viewFacility(actorContext(database.db, admin), ids.north);
    expect(view.name).toBe("North");
    expect(view.buildings.map((b) => b.name)).toEqual(["Annex", "Main"]);
    expect(view.activeIncidentList.map((i) => i.title).sort()).toEqual(["Broken lamp", "Cold store", "Leak in the hall"]);
    expect(view.activeIncidentList.find((i) => i.title === "Broken lamp")?.roomName).toBe("Office 1.02");
  });

  it("shows a technician only the buildings and incidents they reach", async () => {
    const view = await viewFacility(actorContext(database.db, technician), ids.north);
    expect(view.buildings.map((b) => b.name)).toEqual(["Main"]);
    expect(view.activeIncidentList.map((i) => i.title).sort()).toEqual(["Broken lamp", "Leak in the hall"]);
  });

  it("is not found for a technician outside its reach and for another entity", async () => {
    await expect(viewFacility(actorContext(database.db, technician), ids.south)).rejects.toBeInstanceOf(NotFoundError);
    await expect(viewFacility(actorContext(database.db, otherAdmin), ids.north)).rejects.toBeInstanceOf(NotFoundError);
  });
});

describe("the building view", () => {
  it("lists the building's rooms and their active incidents", async () => {
    const view = await viewBuilding(actorContext(database.db, technician), ids.main);
    expect(view.facilityName).toBe("North");
    expect(view.rooms.map((r) => [r.name, r.floor])).toEqual([["Hall", "0"], ["Office 1.02", "1"]]);
    expect(view.activeIncidentList.map((i) => i.title).sort()).toEqual(["Broken lamp", "Leak in the hall"]);
  });

  it("is not found for a technician outside its reach and for another entity", async () => {
    await expect(viewBuilding(actorContext(database.db, technician), ids.annex)).rejects.toBeInstanceOf(NotFoundError);
    await expect(viewBuilding(actorContext(database.db, technician), ids.depot)).rejects.toBeInstanceOf(NotFoundError);
    await expect(viewBuilding(actorContext(database.db, otherAdmin), ids.main)).rejects.toBeInstanceOf(NotFoundError);
  });
});
