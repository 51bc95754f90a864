import type { ActionFunctionArgs } from "@remix-run/node";
import { and, eq, isNull } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { IncidentStatus, Role, RoomLinkType } from "~/db/enums";
import { equipmentItems, type Entity, facilities, incidentTypeRoomTypes, rooms, type User } from "~/db/schema";
import * as buildingRoute from "~/routes/api/facilities.buildings.$id";
import * as buildingsRoute from "~/routes/api/facilities.buildings";
import * as facilityRoute from "~/routes/api/facilities.$id";
import * as facilitiesRoute from "~/routes/api/facilities";
import * as roomRoute from "~/routes/api/facilities.rooms.$id";
import * as roomsRoute from "~/routes/api/facilities.rooms";
import * as roomTypeRoute from "~/routes/api/facilities.rooms.roomtype.$id";
import * as roomTypesRoute from "~/routes/api/facilities.rooms.roomtype";
import {
  createBuilding,
  createEntity,
  createEquipmentItem,
  createEquipmentType,
  createFacility,
  createIncident,
  createIncidentType,
  createRoom,
  createRoomType,
  createUser,
  linkToEveryFacility,
  linkUserTo,
  pngBytes,
} from "#tests/factories";
import { apiContext, type ApiHarness, callApi, dataUrl, startApiRuntime } from "#tests/api-helpers";

/**
 * REST calls of SPEC.md section 7 "Facilities, buildings, rooms" (and room types), called through the
 * route modules with a bearer token: answers, statuses and JSON errors.
 */
let api: ApiHarness;
let entityA: Entity;
let entityB: Entity;
let manager: User;
let admin: User;
let technician: User;
let otherManager: User;
let managerToken: string;
let adminToken: string;
let technicianToken: string;
let otherToken: string;

const VALIDATION_MESSAGE = "Please correct the highlighted fields.";

/** Puts every facility of the user's entity made so far within their reach (managers reach linked facilities only, decision 022). */
const reach = (user: { id: number; entityId: number }) => linkToEveryFacility(api.database.db, user);

beforeAll(async () => {
  api = await startApiRuntime();
  const db = api.database.db;
  entityA = await createEntity(db, { name: "Entity A" });
  entityB = await createEntity(db, { name: "Entity B" });
  manager = await createUser(db, { entityId: entityA.id, role: Role.FACILITY_MANAGER });
  admin = await createUser(db, { entityId: entityA.id, role: Role.ADMINISTRATOR });
  technician = await createUser(db, { entityId: entityA.id, role: Role.TECHNICIAN });
  otherManager = await createUser(db, { entityId: entityB.id, role: Role.FACILITY_MANAGER });
  [managerToken, adminToken, technicianToken, otherToken] = await Promise.all([
    api.token(manager),
    api.token(admin),
    api.token(technician),
    api.token(otherManager),
  ]);
});
afterAll(async () => {
  await api?.close();
});

describe("/api/facilities", () => {
  it("answers 401 without a token, or with a bad one, on every method", async () => {
    const none = await callApi(facilitiesRoute, "/api/facilities");
    expect(none.status).toBe(401);
    expect(none.body).toMatchObject({ code: "UNAUTHORIZED", message: "User session expired" });
    expect((await callApi(facilitiesRoute, "/api/facilities", { method: "POST", body: { name: "X" } })).status).toBe(401);
    expect((await callApi(facilitiesRoute, "/api/facilities", { token: "not-a-jwt" })).status).toBe(401);
    expect((await callApi(facilityRoute, "/api/facilities/1", { method: "DELETE", params: { id: "1" } })).status).toBe(401);
  });

  it("POST creates a facility: 201 with the facility", async () => {
    const res = await callApi(facilitiesRoute, "/api/facilities", {
      method: "POST",
      token: managerToken,
      body: { name: "  Head office ", description: "Main site" },
    });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.any(Number),
      shortId: expect.any(Number),
      name: "Head office",
      description: "Main site",
      entityId: entityA.id,
      entityName: "Entity A",
      countBuildings: 0,
      activeIncidents: 0,
      status: 1,
    });
    // An administrator may too; the description is optional.
    const byAdmin = await callApi(facilitiesRoute, "/api/facilities", { method: "POST", token: adminToken, body: { name: "Annex" } });
    expect(byAdmin.status).toBe(201);
    expect(byAdmin.body.description).toBeNull();
  });

  it("POST refuses bad bodies with 400 and translated field errors", async () => {
    const invalid = await callApi(facilitiesRoute, "/api/facilities", { method: "POST", token: managerToken, body: "{not json" });
    expect(invalid.status).toBe(400);
    expect(invalid.body).toMatchObject({ code: "INVALID_JSON", message: "The request body is not valid JSON.", fieldErrors: {} });

    const missing = await callApi(facilitiesRoute, "/api/facilities", { method: "POST", token: managerToken, body: { description: "x" } });
    expect(missing.status).toBe(400);
    expect(missing.body).toMatchObject({ code: "VALIDATION", message: VALIDATION_MESSAGE, fieldErrors: { name: ["Please set a name"] } });

    const blank = await callApi(facilitiesRoute, "/api/facilities", { method: "POST", token: managerToken, body: { name: "   " } });
    expect(blank.body.fieldErrors).toEqual({ name: ["Please set a name"] });

    const wrongTypes = await callApi(facilitiesRoute, "/api/facilities", { method: "POST", token: managerToken, body: [1, 2] });
    expect(wrongTypes.status).toBe(400);
    expect(wrongTypes.body.code).toBe("VALIDATION");

    const tooLong = await callApi(facilitiesRoute, "/api/facilities", { method: "POST", token: managerToken, body: { name: "x".repeat(201) } });
    expect(tooLong.body.fieldErrors).toEqual({ name: ["This text is too long"] });
  });

  it("answers the errors in the language of X-Language", async () => {
    const res = await facilitiesRoute.action({
      request: new Request("http://x/api/facilities", {
        method: "POST",
        headers: { authorization: `Bearer ${managerToken}`, "x-language": "fr-BE", "content-type": "application/json" },
        body: "{}",
      }),
      params: {},
      context: apiContext(),
    } as unknown as ActionFunctionArgs);
    const body = await res.json();
    expect(res.status).toBe(400);
    expect(body.fieldErrors.name[0]).not.toBe("Please set a name");
    expect(body.fieldErrors.name[0]).not.toContain("nameRequired");
  });

  it("POST, PUT and DELETE are 403 for a technician", async () => {
    const facility = await createFacility(api.database.db, { entityId: entityA.id });
    const post = await callApi(facilitiesRoute, "/api/facilities", { method: "POST", token: technicianToken, body: { name: "T" } });
    expect(post.status).toBe(403);
    expect(post.body).toMatchObject({ code: "FORBIDDEN", message: "You are not allowed to do this." });
    const params = { id: String(facility.id) };
    const url = `/api/facilities/${facility.id}`;
    expect((await callApi(facilityRoute, url, { method: "PUT", token: technicianToken, params, body: { name: "T" } })).status).toBe(403);
    expect((await callApi(facilityRoute, url, { method: "DELETE", token: technicianToken, params })).status).toBe(403);
    // A technician reads only the facilities and buildings they are linked to (SPEC.md section 6).
    expect((await callApi(facilityRoute, url, { token: technicianToken, params })).status).toBe(404);
    await linkUserTo(api.database.db, { entityId: entityA.id, userId: technician.id, facilityId: facility.id });
    expect((await callApi(facilityRoute, url, { token: technicianToken, params })).status).toBe(200);
  });

  it("a manager outside their linked facilities gets 404 and changes nothing; an administrator reaches everything", async () => {
    const db = api.database.db;
    const entity = await createEntity(db);
    const boss = await createUser(db, { entityId: entity.id, role: Role.FACILITY_MANAGER });
    const token = await api.token(boss);
    const adminOfEntity = await api.token(await createUser(db, { entityId: entity.id, role: Role.ADMINISTRATOR }));
    const mine = await createFacility(db, { entityId: entity.id, name: "Mine" });
    await createBuilding(db, { entityId: entity.id, facilityId: mine.id, name: "My building" });
    const theirs = await createFacility(db, { entityId: entity.id, name: "Theirs" });
    const theirBuilding = await createBuilding(db, { entityId: entity.id, facilityId: theirs.id, name: "Their building" });
    const theirRoom = await createRoom(db, { entityId: entity.id, buildingId: theirBuilding.id, name: "Their room" });
    await linkUserTo(db, { entityId: entity.id, userId: boss.id, facilityId: mine.id });
    const names = (body: unknown) => (body as { name: string }[]).map((r) => r.name).sort();

    expect(names((await callApi(facilitiesRoute, "/api/facilities", { token })).body)).toEqual(["Mine"]);
    expect(names((await callApi(buildingsRoute, "/api/facilities/buildings", { token })).body)).toEqual(["My building"]);
    expect(names((await callApi(roomsRoute, "/api/facilities/rooms", { token })).body)).toEqual([]);

    const f = { id: String(theirs.id) };
    const fUrl = `/api/facilities/${theirs.id}`;
    for (const res of [
      await callApi(facilityRoute, fUrl, { token, params: f }),
      await callApi(facilityRoute, fUrl, { method: "PUT", token, params: f, body: { name: "Taken" } }),
      await callApi(facilityRoute, fUrl, { method: "DELETE", token, params: f }),
    ]) {
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ code: "FACILITY_NOT_FOUND", message: "Facility not found" });
    }
    const b = { id: String(theirBuilding.id) };
    const bUrl = `/api/facilities/buildings/${theirBuilding.id}`;
    for (const res of [
      await callApi(buildingRoute, bUrl, { token, params: b }),
      await callApi(buildingRoute, bUrl, { method: "PUT", token, params: b, body: { name: "Taken", facilityId: mine.id } }),
      await callApi(buildingRoute, bUrl, { method: "DELETE", token, params: b }),
    ]) {
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ code: "BUILDING_NOT_FOUND", message: "Building not found" });
    }
    const r = { id: String(theirRoom.id) };
    const rUrl = `/api/facilities/rooms/${theirRoom.id}`;
    const deleted = await callApi(roomRoute, rUrl, { method: "DELETE", token, params: r });
    expect(deleted.status).toBe(404);
    expect(deleted.body).toMatchObject({ code: "ROOM_NOT_FOUND" });
    // The room view answers as it does to a technician outside their buildings.
    expect((await callApi(roomRoute, rUrl, { token, params: r })).status).toBe(403);
    const post = await callApi(buildingsRoute, "/api/facilities/buildings", { method: "POST", token, body: { name: "Sneaky", facilityId: theirs.id } });
    expect(post.status).toBe(400);
    expect(post.body.fieldErrors).toEqual({ facilityId: ["Facility not found"] });

    // Nothing changed; the administrator sees and reaches it all.
    const [theirsNow] = await db.select().from(facilities).where(eq(facilities.id, theirs.id));
    expect(theirsNow).toMatchObject({ name: "Theirs", archivedAt: null });
    const [roomNow] = await db.select().from(rooms).where(eq(rooms.id, theirRoom.id));
    expect(roomNow.archivedAt).toBeNull();
    expect(names((await callApi(facilitiesRoute, "/api/facilities", { token: adminOfEntity })).body)).toEqual(["Mine", "Theirs"]);
    expect((await callApi(buildingRoute, bUrl, { token: adminOfEntity, params: b })).status).toBe(200);
    expect((await callApi(roomRoute, rUrl, { token: adminOfEntity, params: r })).status).toBe(200);

    // A facility the manager creates is theirs at once.
    const created = await callApi(facilitiesRoute, "/api/facilities", { method: "POST", token, body: { name: "New site" } });
    expect(created.status).toBe(201);
    const createdId = String(created.body.id);
    expect((await callApi(facilityRoute, `/api/facilities/${createdId}`, { token, params: { id: createdId } })).status).toBe(200);
  });

  it("a technician lists only the part of the tree they are linked to", async () => {
    const db = api.database.db;
    const entity = await createEntity(db);
    const tech = await createUser(db, { entityId: entity.id, role: Role.TECHNICIAN });
    const token = await api.token(tech);
    const linkedFacility = await createFacility(db, { entityId: entity.id, name: "Linked facility" });
    const laterBuilding = await createBuilding(db, { entityId: entity.id, facilityId: linkedFacility.id, name: "In linked facility" });
    const otherFacility = await createFacility(db, { entityId: entity.id, name: "Other facility" });
    const linkedBuilding = await createBuilding(db, { entityId: entity.id, facilityId: otherFacility.id, name: "Linked building" });
    const hiddenBuilding = await createBuilding(db, { entityId: entity.id, facilityId: otherFacility.id, name: "Hidden building" });
    const visibleRooms = [
      await createRoom(db, { entityId: entity.id, buildingId: laterBuilding.id, name: "R1" }),
      await createRoom(db, { entityId: entity.id, buildingId: linkedBuilding.id, name: "R2" }),
    ];
    const hiddenRoom = await createRoom(db, { entityId: entity.id, buildingId: hiddenBuilding.id, name: "R3" });
    await linkUserTo(db, { entityId: entity.id, userId: tech.id, facilityId: linkedFacility.id });
    await linkUserTo(db, { entityId: entity.id, userId: tech.id, buildingId: linkedBuilding.id });

    const names = (body: unknown) => (body as { name: string }[]).map((r) => r.name).sort();
    const facilitiesSeen = await callApi(facilitiesRoute, "/api/facilities", { token });
    expect(names(facilitiesSeen.body)).toEqual(["Linked facility", "Other facility"]);
    const buildingsSeen = await callApi(buildingsRoute, "/api/facilities/buildings", { token });
    expect(names(buildingsSeen.body)).toEqual(["In linked facility", "Linked building"]);
    expect(buildingsSeen.headers.get("x-total-count")).toBe("2");
    const roomsSeen = await callApi(roomsRoute, "/api/facilities/rooms", { token });
    expect(names(roomsSeen.body)).toEqual(["R1", "R2"]);
    const hidden = await callApi(buildingRoute, `/api/facilities/buildings/${hiddenBuilding.id}`, {
      token,
      params: { id: String(hiddenBuilding.id) },
    });
    expect(hidden.status).toBe(404);
    const hiddenRoomGet = await callApi(roomRoute, `/api/facilities/rooms/${hiddenRoom.id}`, { token, params: { id: String(hiddenRoom.id) } });
    expect(hiddenRoomGet.status).toBe(403);
    expect(visibleRooms).toHaveLength(2);
  });

  it("GET lists the entity's facilities with X-Total-Count, paging, sorting and search", async () => {
    const db = api.database.db;
    const entity = await createEntity(db);
    const user = await createUser(db, { entityId: entity.id, role: Role.FACILITY_MANAGER });
    const token = await api.token(user);
    for (const name of ["Charlie", "alpha", "Bravo"]) await createFacility(db, { entityId: entity.id, name });
    const archived = await createFacility(db, { entityId: entity.id, name: "Archived", archivedAt: new Date() });
    await reach(user);

    const all = await callApi(facilitiesRoute, "/api/facilities", { token });
    expect(all.status).toBe(200);
    expect(all.headers.get("X-Total-Count")).toBe("3");
    expect(all.body.map((f: { name: string }) => f.name)).toEqual(["alpha", "Bravo", "Charlie"]);
    expect(all.body.map((f: { id: number }) => f.id)).not.toContain(archived.id);

    const page = await callApi(facilitiesRoute, "/api/facilities?size=2&page=2&sort=name&dir=desc", { token });
    expect(page.headers.get("X-Total-Count")).toBe("3");
    expect(page.body.map((f: { name: string }) => f.name)).toEqual(["alpha"]);

    const search = await callApi(facilitiesRoute, "/api/facilities?q=RAV", { token });
    expect(search.headers.get("X-Total-Count")).toBe("1");
    expect(search.body).toEqual([expect.objectContaining({ name: "Bravo", countBuildings: 0, entityId: entity.id })]);
  });

  it("GET lists answer 25 rows without size, at most 100, and refuse bad list parameters with 400", async () => {
    const db = api.database.db;
    const entity = await createEntity(db);
    const user = await createUser(db, { entityId: entity.id, role: Role.FACILITY_MANAGER });
    const token = await api.token(user);
    const building = await createBuilding(db, { entityId: entity.id });
    await reach(user);
    for (let i = 0; i < 30; i++) await createRoom(db, { entityId: entity.id, buildingId: building.id, reportCode: null });

    const first = await callApi(roomsRoute, "/api/facilities/rooms", { token });
    expect(first.status).toBe(200);
    expect(first.body).toHaveLength(25);
    expect(first.headers.get("X-Total-Count")).toBe("30");
    const second = await callApi(roomsRoute, "/api/facilities/rooms?page=2", { token });
    expect(second.body).toHaveLength(5);
    expect((await callApi(roomsRoute, "/api/facilities/rooms?size=100", { token })).body).toHaveLength(30);

    for (const [params, field] of [
      ["size=101", "size"],
      ["size=0", "size"],
      ["size=abc", "size"],
      ["size=", "size"],
      ["page=0", "page"],
      ["page=-1", "page"],
      ["page=2.5", "page"],
      ["sort=password", "sort"],
      ["dir=sideways", "dir"],
    ] as const) {
      for (const route of [[roomsRoute, "/api/facilities/rooms"], [facilitiesRoute, "/api/facilities"], [buildingsRoute, "/api/facilities/buildings"]] as const) {
        const res = await callApi(route[0], `${route[1]}?${params}`, { token });
        expect(res.status, `${route[1]}?${params}`).toBe(400);
        expect(res.body).toMatchObject({ code: "INVALID_LIST_QUERY", message: "The list parameters are not valid.", fieldErrors: { [field]: [expect.any(String)] } });
      }
    }
  });

  it("GET /{id} answers the facility; another entity's or a malformed id is 404", async () => {
    const facility = await createFacility(api.database.db, { entityId: entityA.id, name: "Seen" });
    await createBuilding(api.database.db, { entityId: entityA.id, facilityId: facility.id });
    await reach(manager);
    const res = await callApi(facilityRoute, `/api/facilities/${facility.id}`, { token: managerToken, params: { id: String(facility.id) } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: facility.id, name: "Seen", countBuildings: 1, entityName: "Entity A", status: 1 });

    const other = await callApi(facilityRoute, `/api/facilities/${facility.id}`, { token: otherToken, params: { id: String(facility.id) } });
    expect(other.status).toBe(404);
    expect(other.body).toMatchObject({ code: "FACILITY_NOT_FOUND", message: "Facility not found" });
    const bad = await callApi(facilityRoute, "/api/facilities/abc", { token: managerToken, params: { id: "abc" } });
    expect(bad.status).toBe(404);
    expect(bad.body.code).toBe("FACILITY_NOT_FOUND");
  });

  it("PUT updates the facility; another entity's id is 404 and nothing changes", async () => {
    const facility = await createFacility(api.database.db, { entityId: entityA.id, name: "Before" });
    await reach(manager);
    const params = { id: String(facility.id) };
    const url = `/api/facilities/${facility.id}`;
    const res = await callApi(facilityRoute, url, { method: "PUT", token: managerToken, params, body: { name: "After", description: "New" } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: facility.id, name: "After", description: "New" });

    const other = await callApi(facilityRoute, url, { method: "PUT", token: otherToken, params, body: { name: "Hacked" } });
    expect(other.status).toBe(404);
    expect(other.body.code).toBe("FACILITY_NOT_FOUND");
    const bad = await callApi(facilityRoute, url, { method: "PUT", token: managerToken, params, body: { name: "" } });
    expect(bad.status).toBe(400);
    expect(bad.body.fieldErrors).toEqual({ name: ["Please set a name"] });
    const badJson = await callApi(facilityRoute, url, { method: "PUT", token: managerToken, params, body: "nope" });
    expect(badJson.body.code).toBe("INVALID_JSON");
    const get = await callApi(facilityRoute, url, { token: managerToken, params });
    expect(get.body.name).toBe("After");
  });

  it("DELETE archives the facility with its tree and answers the counts", async () => {
    const db = api.database.db;
    const facility = await createFacility(db, { entityId: entityA.id });
    const building = await createBuilding(db, { entityId: entityA.id, facilityId: facility.id });
    const room = await createRoom(db, { entityId: entityA.id, buildingId: building.id });
    await createEquipmentItem(db, { entityId: entityA.id, roomId: room.id });
    await createIncident(db, { entityId: entityA.id, roomId: room.id, status: IncidentStatus.PENDING });
    await createIncident(db, { entityId: entityA.id, roomId: room.id, status: IncidentStatus.DONE });
    await reach(manager);
    const params = { id: String(facility.id) };
    const url = `/api/facilities/${facility.id}`;

    expect((await callApi(facilityRoute, url, { method: "DELETE", token: otherToken, params })).status).toBe(404);
    const res = await callApi(facilityRoute, url, { method: "DELETE", token: managerToken, params });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ buildings: 1, rooms: 1, equipmentItems: 1, reportIdentifiers: 2, incidentsRejected: 1 });
    expect((await callApi(facilityRoute, url, { token: managerToken, params })).status).toBe(404);
    expect((await callApi(facilityRoute, url, { method: "DELETE", token: managerToken, params })).status).toBe(404);
  });

  it("answers 405 for a method the address does not take", async () => {
    const list = await callApi(facilitiesRoute, "/api/facilities", { method: "DELETE", token: managerToken });
    expect(list.status).toBe(405);
    expect(list.body.code).toBe("METHOD_NOT_ALLOWED");
    expect(list.headers.get("Allow")).toBe("GET, POST");
    const one = await callApi(facilityRoute, "/api/facilities/1", { method: "PATCH", token: managerToken, params: { id: "1" } });
    expect(one.status).toBe(405);
    expect(one.headers.get("Allow")).toBe("GET, PUT, DELETE");
  });
});

describe("/api/facilities/buildings", () => {
  const address = {
    streetName: "Rue Haute",
    streetNumber: "12",
    suffix: "b",
    buildingFloor: "2",
    additionalInfo: "Back door",
    postalCode: "1000",
    city: "Brussels",
    country: "BE",
  };

  it("answers 401 without a token", async () => {
    expect((await callApi(buildingsRoute, "/api/facilities/buildings")).status).toBe(401);
    expect((await callApi(buildingRoute, "/api/facilities/buildings/1", { params: { id: "1" } })).status).toBe(401);
  });

  it("POST creates a building with its flat address fields: 201 with the building", async () => {
    const facility = await createFacility(api.database.db, { entityId: entityA.id, name: "Campus" });
    await reach(manager);
    const res = await callApi(buildingsRoute, "/api/facilities/buildings", {
      method: "POST",
      token: managerToken,
      body: { name: "Block A", description: null, facilityId: facility.id, ...address },
    });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.any(Number),
      shortId: expect.any(Number),
      name: "Block A",
      description: null,
      ...address,
      facilityId: facility.id,
      facilityName: "Campus",
      countRooms: 0,
      activeIncidents: 0,
      status: 1,
    });
  });

  it("POST refuses bad bodies, another entity's facility and technicians", async () => {
    const missing = await callApi(buildingsRoute, "/api/facilities/buildings", { method: "POST", token: managerToken, body: {} });
    expect(missing.status).toBe(400);
    expect(missing.body.fieldErrors).toEqual({ name: ["Please set a name"], facilityId: ["Please choose a facility"] });

    const foreign = await createFacility(api.database.db, { entityId: entityB.id });
    const wrong = await callApi(buildingsRoute, "/api/facilities/buildings", {
      method: "POST",
      token: managerToken,
      body: { name: "X", facilityId: foreign.id },
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body).toMatchObject({ code: "FACILITY_NOT_FOUND", message: "Facility not found", fieldErrors: { facilityId: ["Facility not found"] } });

    const facility = await createFacility(api.database.db, { entityId: entityA.id });
    const country = await callApi(buildingsRoute, "/api/facilities/buildings", {
      method: "POST",
      token: managerToken,
      body: { name: "X", facilityId: facility.id, country: "Belgium" },
    });
    expect(country.body.fieldErrors).toEqual({ country: ["This text is too long"] });
    const stringId = await callApi(buildingsRoute, "/api/facilities/buildings", {
      method: "POST",
      token: managerToken,
      body: { name: "X", facilityId: "abc" },
    });
    expect(stringId.body.fieldErrors).toEqual({ facilityId: ["Please choose a facility"] });
    expect((await callApi(buildingsRoute, "/api/facilities/buildings", { method: "POST", token: managerToken, body: "[" })).body.code).toBe(
      "INVALID_JSON",
    );
    const tech = await callApi(buildingsRoute, "/api/facilities/buildings", {
      method: "POST",
      token: technicianToken,
      body: { name: "X", facilityId: facility.id },
    });
    expect(tech.status).toBe(403);
  });

  it("GET filters by facilityIds (comma list or repeated), pages and sorts", async () => {
    const db = api.database.db;
    const entity = await createEntity(db);
    const user = await createUser(db, { entityId: entity.id, role: Role.FACILITY_MANAGER });
    const token = await api.token(user);
    const f1 = await createFacility(db, { entityId: entity.id });
    const f2 = await createFacility(db, { entityId: entity.id });
    const f3 = await createFacility(db, { entityId: entity.id });
    await reach(user);
    await createBuilding(db, { entityId: entity.id, facilityId: f1.id, name: "B1" });
    await createBuilding(db, { entityId: entity.id, facilityId: f2.id, name: "B2" });
    await createBuilding(db, { entityId: entity.id, facilityId: f3.id, name: "B3" });

    const all = await callApi(buildingsRoute, "/api/facilities/buildings", { token });
    expect(all.headers.get("X-Total-Count")).toBe("3");
    const comma = await callApi(buildingsRoute, `/api/facilities/buildings?facilityIds=${f1.id},${f2.id}`, { token });
    expect(comma.body.map((b: { name: string }) => b.name)).toEqual(["B1", "B2"]);
    expect(comma.headers.get("X-Total-Count")).toBe("2");
    const repeated = await callApi(buildingsRoute, `/api/facilities/buildings?facilityIds=${f2.id}&facilityIds=${f3.id}&sort=name&dir=desc`, {
      token,
    });
    expect(repeated.body.map((b: { name: string }) => b.name)).toEqual(["B3", "B2"]);
    const paged = await callApi(buildingsRoute, "/api/facilities/buildings?size=1&page=3", { token });
    expect(paged.body.map((b: { name: string }) => b.name)).toEqual(["B3"]);
    expect(paged.headers.get("X-Total-Count")).toBe("3");
    // Another entity's facility filters to nothing.
    const foreign = await callApi(buildingsRoute, `/api/facilities/buildings?facilityIds=${f1.id}`, { token: managerToken });
    expect(foreign.body).toEqual([]);
    expect(foreign.headers.get("X-Total-Count")).toBe("0");
  });

  it("GET, PUT and DELETE /{id}", async () => {
    const db = api.database.db;
    const facility = await createFacility(db, { entityId: entityA.id });
    const building = await createBuilding(db, { entityId: entityA.id, facilityId: facility.id, name: "Old" });
    const room = await createRoom(db, { entityId: entityA.id, buildingId: building.id });
    await createIncident(db, { entityId: entityA.id, roomId: room.id, status: IncidentStatus.IN_PROGRESS });
    await reach(manager);
    const params = { id: String(building.id) };
    const url = `/api/facilities/buildings/${building.id}`;

    await linkUserTo(db, { entityId: entityA.id, userId: technician.id, buildingId: building.id });
    const get = await callApi(buildingRoute, url, { token: technicianToken, params });
    expect(get.status).toBe(200);
    expect(get.body).toMatchObject({ id: building.id, name: "Old", facilityId: facility.id, countRooms: 1, activeIncidents: 1 });
    const other = await callApi(buildingRoute, url, { token: otherToken, params });
    expect(other.status).toBe(404);
    expect(other.body).toMatchObject({ code: "BUILDING_NOT_FOUND", message: "Building not found" });

    const put = await callApi(buildingRoute, url, {
      method: "PUT",
      token: managerToken,
      params,
      body: { name: "New", facilityId: facility.id, ...address },
    });
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({ id: building.id, name: "New", city: "Brussels", streetName: "Rue Haute" });
    expect((await callApi(buildingRoute, url, { method: "PUT", token: managerToken, params, body: { facilityId: facility.id } })).body.fieldErrors).toEqual(
      { name: ["Please set a name"] },
    );
    expect((await callApi(buildingRoute, url, { method: "PUT", token: technicianToken, params, body: { name: "T", facilityId: facility.id } })).status).toBe(
      403,
    );
    expect((await callApi(buildingRoute, url, { method: "PUT", token: otherToken, params, body: { name: "T", facilityId: facility.id } })).status).toBe(404);

    expect((await callApi(buildingRoute, url, { method: "DELETE", token: technicianToken, params })).status).toBe(403);
    expect((await callApi(buildingRoute, url, { method: "DELETE", token: otherToken, params })).status).toBe(404);
    const del = await callApi(buildingRoute, url, { method: "DELETE", token: managerToken, params });
    expect(del.status).toBe(200);
    expect(del.body).toEqual({ buildings: 1, rooms: 1, equipmentItems: 0, reportIdentifiers: 1, incidentsRejected: 1 });
    expect((await callApi(buildingRoute, url, { token: managerToken, params })).status).toBe(404);
    expect((await callApi(buildingRoute, url, { method: "PATCH", token: managerToken, params })).status).toBe(405);
    expect((await callApi(buildingsRoute, "/api/facilities/buildings", { method: "PUT", token: managerToken })).status).toBe(405);
  });
});

describe("/api/facilities/rooms", () => {
  async function place(entityId = entityA.id) {
    const db = api.database.db;
    const building = await createBuilding(db, { entityId, name: `Building ${Math.random().toString(36).slice(2, 6)}` });
    const roomType = await createRoomType(db, { entityId, name: "Office" });
    const chair = await createEquipmentType(db, { entityId, name: "Chair" });
    const desk = await createEquipmentType(db, { entityId, name: "Desk" });
    const incidentType = await createIncidentType(db, { entityId, nameEn: "Broken" });
    await reach(entityId === entityA.id ? manager : otherManager);
    return { building, roomType, chair, desk, incidentType };
  }

  function roomBody(p: Awaited<ReturnType<typeof place>>, extra: Record<string, unknown> = {}) {
    return {
      name: "Meeting room",
      description: "With a view",
      floor: "2",
      buildingId: p.building.id,
      roomTypeId: p.roomType.id,
      roomEquipments: [
        { equipmentTypeId: p.chair.id, internalReferences: ["CH-1", "CH-2"] },
        { equipmentTypeId: p.desk.id, internalReferences: [""] },
      ],
      links: [{ type: RoomLinkType.WIFI, url: "https://wifi.example.com/join" }],
      incidentTypes: [{ id: p.incidentType.id }],
      ...extra,
    };
  }

  it("answers 401 without a token", async () => {
    expect((await callApi(roomsRoute, "/api/facilities/rooms")).status).toBe(401);
    expect((await callApi(roomsRoute, "/api/facilities/rooms", { method: "POST", body: {} })).status).toBe(401);
    expect((await callApi(roomRoute, "/api/facilities/rooms/1", { params: { id: "1" } })).status).toBe(401);
  });

  it("POST creates a room: roomEquipments become one item per internal reference; 201 with the room", async () => {
    const p = await place();
    const png = pngBytes(2, 2);
    const res = await callApi(roomsRoute, "/api/facilities/rooms", {
      method: "POST",
      token: managerToken,
      body: roomBody(p, { newFiles: [{ name: "plan.png", data: dataUrl(png) }] }),
    });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.any(Number),
      shortId: expect.any(Number),
      name: "Meeting room",
      description: "With a view",
      floor: "2",
      buildingId: p.building.id,
      buildingName: p.building.name,
      facilityId: p.building.facilityId,
      facilityName: expect.any(String),
      roomTypeId: p.roomType.id,
      roomTypeName: "Office",
      activeEquipmentCount: 3,
      activeIncidents: 0,
      status: 1,
      links: [{ type: RoomLinkType.WIFI, url: "https://wifi.example.com/join" }],
      files: [
        {
          id: expect.any(String),
          name: "plan.png",
          mimeType: "image/png",
          sizeBytes: png.byteLength,
          url: expect.stringMatching(/^\/files\//),
          isImage: true,
        },
      ],
      incidentTypes: [{ id: p.incidentType.id, name: "Broken" }],
      equipments: [
        { id: expect.any(Number), internalReference: "CH-1", equipmentTypeId: p.chair.id, equipmentName: "Chair", categoryName: expect.any(String), reportIdentifier: expect.any(String) },
        { id: expect.any(Number), internalReference: "CH-2", equipmentTypeId: p.chair.id, equipmentName: "Chair", categoryName: expect.any(String), reportIdentifier: expect.any(String) },
        { id: expect.any(Number), internalReference: "Desk 1", equipmentTypeId: p.desk.id, equipmentName: "Desk", categoryName: expect.any(String), reportIdentifier: expect.any(String) },
      ],
      reportIdentifier: expect.any(String),
      activeIncidentList: [],
    });
    // incidentTypes may also be plain ids.
    const plain = await callApi(roomsRoute, "/api/facilities/rooms", {
      method: "POST",
      token: adminToken,
      body: roomBody(p, { incidentTypes: [p.incidentType.id], links: undefined }),
    });
    expect(plain.status).toBe(201);
    expect(plain.body.incidentTypes).toEqual([{ id: p.incidentType.id, name: "Broken" }]);
    expect(plain.body.links).toEqual([]);
  });

  it("POST refuses bad bodies with 400 and the messages of section 5", async () => {
    const p = await place();
    const post = (body: unknown) => callApi(roomsRoute, "/api/facilities/rooms", { method: "POST", token: managerToken, body });

    expect((await post("{oops")).body).toMatchObject({ code: "INVALID_JSON" });

    const empty = await post({});
    expect(empty.status).toBe(400);
    expect(empty.body).toEqual({
      code: "VALIDATION",
      message: VALIDATION_MESSAGE,
      fieldErrors: {
        name: ["Please set a name"],
        floor: ["Please set a floor"],
        buildingId: ["Please choose a building"],
        roomTypeId: ["Please choose a room type"],
        roomEquipments: ["You should have at least one equipment"],
      },
      messageKey: "errors.validation",
      fieldErrorKeys: {
        name: ["rooms:validation.nameRequired"],
        floor: ["rooms:validation.floorRequired"],
        buildingId: ["rooms:validation.buildingRequired"],
        roomTypeId: ["rooms:validation.roomTypeRequired"],
        roomEquipments: ["rooms:validation.noEquipment"],
      },
    });

    const noItems = await post(roomBody(p, { roomEquipments: [{ equipmentTypeId: p.chair.id, internalReferences: [] }] }));
    expect(noItems.body.fieldErrors).toEqual({ roomEquipments: ["You should have at least one equipment"] });

    const badUrl = await post(roomBody(p, { links: [{ type: RoomLinkType.WIFI, url: "not a url" }] }));
    expect(badUrl.status).toBe(400);
    expect(badUrl.body.fieldErrors).toEqual({ "links.0.url": ["This is not a valid URL"] });

    const badType = await post(roomBody(p, { links: [{ type: 42, url: "https://example.com" }] }));
    expect(badType.body.fieldErrors).toEqual({ "links.0.type": ["Please choose a link type"] });
    const noType = await post(roomBody(p, { links: [{ url: "https://example.com" }] }));
    expect(noType.body.fieldErrors).toEqual({ "links.0.type": ["Please choose a link type"] });

    const badFile = await post(roomBody(p, { newFiles: [{ name: "x.png", data: "not base64" }] }));
    expect(badFile.status).toBe(400);
    expect(badFile.body.fieldErrors).toEqual({ newFiles: ["The file could not be read"] });

    const wrongFormat = await post(roomBody(p, { newFiles: [{ name: "x.exe", data: dataUrl(new Uint8Array([0x4d, 0x5a, 1, 2, 3]), "application/octet-stream") }] }));
    expect(wrongFormat.status).toBe(400);
    expect(wrongFormat.body.code).toBe("FILE_FORMAT");
    expect(wrongFormat.body.fieldErrors.newFiles).toHaveLength(1);

    const badGroup = await post(roomBody(p, { roomEquipments: [{ internalReferences: ["A"] }] }));
    expect(badGroup.body.fieldErrors).toEqual({ "roomEquipments.0.equipmentTypeId": ["Please choose an equipment"] });

    // References of another entity are field errors, nothing is created.
    const foreign = await place(entityB.id);
    const before = await api.database.db.select({ id: rooms.id }).from(rooms).where(eq(rooms.entityId, entityA.id));
    const wrong = await post(
      roomBody(p, {
        buildingId: foreign.building.id,
        roomTypeId: foreign.roomType.id,
        incidentTypes: [foreign.incidentType.id],
        roomEquipments: [{ equipmentTypeId: foreign.chair.id, internalReferences: ["X"] }],
      }),
    );
    expect(wrong.status).toBe(400);
    expect(wrong.body.fieldErrors).toEqual({
      buildingId: ["Building not found"],
      roomTypeId: ["Room type not found"],
      "equipments.0.equipmentTypeId": ["Generic equipment not found"],
      incidentTypes: ["Incident type not found"],
    });
    const after = await api.database.db.select({ id: rooms.id }).from(rooms).where(eq(rooms.entityId, entityA.id));
    expect(after.length).toBe(before.length);

    expect((await callApi(roomsRoute, "/api/facilities/rooms", { method: "POST", token: technicianToken, body: roomBody(p) })).status).toBe(403);
  });

  it("GET filters by buildingIds and pages; another entity's rooms are never listed", async () => {
    const db = api.database.db;
    const entity = await createEntity(db);
    const token = await api.token(await createUser(db, { entityId: entity.id, role: Role.ADMINISTRATOR }));
    const b1 = await createBuilding(db, { entityId: entity.id });
    const b2 = await createBuilding(db, { entityId: entity.id });
    await createRoom(db, { entityId: entity.id, buildingId: b1.id, name: "R1" });
    await createRoom(db, { entityId: entity.id, buildingId: b1.id, name: "R2" });
    await createRoom(db, { entityId: entity.id, buildingId: b2.id, name: "R3" });
    await createRoom(db, { entityId: entity.id, buildingId: b2.id, name: "R4", archivedAt: new Date() });

    const all = await callApi(roomsRoute, "/api/facilities/rooms", { token });
    expect(all.headers.get("X-Total-Count")).toBe("3");
    expect(all.body[0]).toEqual({
      id: expect.any(Number),
      shortId: expect.any(Number),
      name: "R1",
      description: null,
      floor: "0",
      buildingId: b1.id,
      buildingName: b1.name,
      facilityId: b1.facilityId,
      facilityName: expect.any(String),
      roomTypeId: expect.any(Number),
      roomTypeName: expect.any(String),
      activeEquipmentCount: 0,
      activeIncidents: 0,
      status: 1,
    });
    const filtered = await callApi(roomsRoute, `/api/facilities/rooms?buildingIds=${b2.id}`, { token });
    expect(filtered.body.map((r: { name: string }) => r.name)).toEqual(["R3"]);
    const both = await callApi(roomsRoute, `/api/facilities/rooms?buildingIds=${b1.id},${b2.id}&size=2&sort=name&dir=desc`, { token });
    expect(both.body.map((r: { name: string }) => r.name)).toEqual(["R3", "R2"]);
    expect(both.headers.get("X-Total-Count")).toBe("3");
    const foreign = await callApi(roomsRoute, `/api/facilities/rooms?buildingIds=${b1.id}`, { token: managerToken });
    expect(foreign.body).toEqual([]);
  });

  it("GET /{id}: managers and technicians see linked rooms only, administrators every room, another entity gets 404", async () => {
    const db = api.database.db;
    const building = await createBuilding(db, { entityId: entityA.id });
    const room = await createRoom(db, { entityId: entityA.id, buildingId: building.id, name: "Lab" });
    const params = { id: String(room.id) };
    const url = `/api/facilities/rooms/${room.id}`;
    expect((await callApi(roomRoute, url, { token: adminToken, params })).status).toBe(200);
    const unlinked = await callApi(roomRoute, url, { token: managerToken, params });
    expect(unlinked.status).toBe(403);
    expect(unlinked.body).toMatchObject({ code: "FORBIDDEN", message: "You do not have access to this room." });
    await reach(manager);
    const res = await callApi(roomRoute, url, { token: managerToken, params });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: room.id, name: "Lab", reportIdentifier: room.reportCode, equipments: [], files: [], links: [] });

    const tech = await callApi(roomRoute, url, { token: technicianToken, params });
    expect(tech.status).toBe(403);
    expect(tech.body).toMatchObject({ code: "FORBIDDEN", message: "You do not have access to this room." });
    await linkUserTo(db, { entityId: entityA.id, userId: technician.id, buildingId: building.id });
    expect((await callApi(roomRoute, url, { token: technicianToken, params })).status).toBe(200);

    const other = await callApi(roomRoute, url, { token: otherToken, params });
    expect(other.status).toBe(404);
    expect(other.body).toMatchObject({ code: "ROOM_NOT_FOUND", message: "Room not found" });
    expect((await callApi(roomRoute, "/api/facilities/rooms/0x1", { token: managerToken, params: { id: "0x1" } })).status).toBe(404);
  });

  it("PUT replaces the room: items kept by id, new ones added, missing ones deleted; files added and deleted", async () => {
    const p = await place();
    const created = await callApi(roomsRoute, "/api/facilities/rooms", {
      method: "POST",
      token: managerToken,
      body: roomBody(p, { newFiles: [{ name: "a.png", data: dataUrl(pngBytes(1, 1)) }] }),
    });
    const room = created.body;
    const [ch1, ch2, desk] = room.equipments;
    await createIncident(api.database.db, { entityId: entityA.id, equipmentItemId: ch2.id, status: IncidentStatus.PENDING });
    const params = { id: String(room.id) };
    const url = `/api/facilities/rooms/${room.id}`;
    const body = {
      id: room.id,
      name: "Board room",
      description: null,
      roomTypeId: p.roomType.id,
      buildingId: p.building.id,
      incidentTypes: [],
      floor: "3",
      equipments: [
        { id: ch1.id, equipmentTypeId: p.chair.id, internalReference: "CH-1b" },
        { id: desk.id, equipmentTypeId: p.desk.id, internalReference: desk.internalReference },
        { equipmentTypeId: p.desk.id, internalReference: "DESK-2" },
      ],
      links: [
        { type: RoomLinkType.BOOKING, url: "https://book.example.com" },
        { type: RoomLinkType.RULES, url: "http://rules.example.org/a?b=c" },
      ],
      newFiles: [{ name: "b.png", data: dataUrl(pngBytes(3, 3)) }],
      deletedFiles: [room.files[0].id],
    };
    const res = await callApi(roomRoute, url, { method: "PUT", token: managerToken, params, body });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: room.id, name: "Board room", description: null, floor: "3", incidentTypes: [], activeEquipmentCount: 3 });
    expect(res.body.links).toEqual(body.links);
    expect(res.body.files.map((f: { name: string }) => f.name)).toEqual(["b.png"]);
    expect(res.body.equipments.map((e: { id: number; internalReference: string }) => [e.id, e.internalReference])).toEqual([
      [ch1.id, "CH-1b"],
      [desk.id, "Desk 1"],
      [expect.any(Number), "DESK-2"],
    ]);
    const [removed] = await api.database.db.select().from(equipmentItems).where(eq(equipmentItems.id, ch2.id));
    expect(removed.archivedAt).not.toBeNull();

    // Bad bodies: 400, nothing changes.
    const put = (b: unknown, token = managerToken) => callApi(roomRoute, url, { method: "PUT", token, params, body: b });
    expect((await put({ ...body, deletedFiles: [], newFiles: [], equipments: [] })).body.fieldErrors).toEqual({
      equipments: ["You should have at least one equipment"],
    });
    expect((await put({ ...body, links: [{ type: 1, url: "ftp://x.example.com" }] })).body.fieldErrors).toEqual({ "links.0.url": ["This is not a valid URL"] });
    expect((await put({ ...body, links: [{ type: "wifi", url: "https://x.example.com" }] })).body.fieldErrors).toEqual({
      "links.0.type": ["Please choose a link type"],
    });
    expect((await put({ ...body, newFiles: [{ name: "x", data: "data:image/png;base64,@@@" }] })).body.fieldErrors).toEqual({
      newFiles: ["The file could not be read"],
    });
    expect((await put({ ...body, deletedFiles: [], newFiles: [], id: room.id + 1 })).body.fieldErrors).toEqual({ id: ["This value is not valid"] });
    expect((await put({ ...body, name: "", floor: "" })).body.fieldErrors).toEqual({ name: ["Please set a name"], floor: ["Please set a floor"] });
    expect((await put("[")).body.code).toBe("INVALID_JSON");
    expect((await put({ ...body, deletedFiles: [], newFiles: [] }, technicianToken)).status).toBe(403);
    expect((await put({ ...body, deletedFiles: [], newFiles: [] }, otherToken)).status).toBe(404);
    const get = await callApi(roomRoute, url, { token: managerToken, params });
    expect(get.body.name).toBe("Board room");
  });

  it("PUT takes the body of SPEC.md section 7 without buildingId: the room stays in its building; a given one moves it", async () => {
    const p = await place();
    const created = await callApi(roomsRoute, "/api/facilities/rooms", { method: "POST", token: managerToken, body: roomBody(p) });
    expect(created.status).toBe(201);
    const room = created.body;
    const params = { id: String(room.id) };
    const url = `/api/facilities/rooms/${room.id}`;
    // Exactly the fields section 7 lists: id, name, description, roomTypeId, incidentTypes, floor,
    // equipments, links, newFiles, deletedFiles.
    const body = {
      id: room.id,
      name: "Renamed",
      description: "Quiet",
      roomTypeId: p.roomType.id,
      incidentTypes: [p.incidentType.id],
      floor: "4",
      equipments: room.equipments.map((e: { id: number; equipmentTypeId: number; internalReference: string }) => ({
        internalReference: e.internalReference,
        id: e.id,
        equipmentTypeId: e.equipmentTypeId,
      })),
      links: [],
      newFiles: [],
      deletedFiles: [],
    };
    const res = await callApi(roomRoute, url, { method: "PUT", token: managerToken, params, body });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: room.id, name: "Renamed", floor: "4", buildingId: p.building.id, activeEquipmentCount: 3 });
    const nullBuilding = await callApi(roomRoute, url, { method: "PUT", token: managerToken, params, body: { ...body, buildingId: null } });
    expect(nullBuilding.status).toBe(200);
    expect(nullBuilding.body.buildingId).toBe(p.building.id);
    // A given building still moves the room, within the caller's reach and entity.
    const other = await createBuilding(api.database.db, { entityId: entityA.id, facilityId: p.building.facilityId, name: "Annex" });
    const moved = await callApi(roomRoute, url, { method: "PUT", token: managerToken, params, body: { ...body, buildingId: other.id } });
    expect(moved.status).toBe(200);
    expect(moved.body.buildingId).toBe(other.id);
    const foreign = await place(entityB.id);
    for (const buildingId of [foreign.building.id, 2 ** 31, "1", 0]) {
      const bad = await callApi(roomRoute, url, { method: "PUT", token: managerToken, params, body: { ...body, buildingId } });
      expect(bad.status, String(buildingId)).toBe(400);
      expect(bad.body.fieldErrors).toHaveProperty("buildingId");
    }
    expect((await callApi(roomRoute, url, { token: managerToken, params })).body.buildingId).toBe(other.id);
    // Another entity's manager and a technician: refused without the building too.
    expect((await callApi(roomRoute, url, { method: "PUT", token: otherToken, params, body })).status).toBe(404);
    expect((await callApi(roomRoute, url, { method: "PUT", token: technicianToken, params, body })).status).toBe(403);
  });

  it("DELETE archives the room with its items and report identifiers; open incidents rejected", async () => {
    const db = api.database.db;
    const room = await createRoom(db, { entityId: entityA.id });
    const item = await createEquipmentItem(db, { entityId: entityA.id, roomId: room.id });
    await createIncident(db, { entityId: entityA.id, roomId: room.id, status: IncidentStatus.PENDING });
    await createIncident(db, { entityId: entityA.id, equipmentItemId: item.id, status: IncidentStatus.IN_PROGRESS });
    await reach(manager);
    const params = { id: String(room.id) };
    const url = `/api/facilities/rooms/${room.id}`;
    expect((await callApi(roomRoute, url, { method: "DELETE", token: technicianToken, params })).status).toBe(403);
    expect((await callApi(roomRoute, url, { method: "DELETE", token: otherToken, params })).status).toBe(404);
    const res = await callApi(roomRoute, url, { method: "DELETE", token: managerToken, params });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ buildings: 0, rooms: 1, equipmentItems: 1, reportIdentifiers: 2, incidentsRejected: 2 });
    expect((await callApi(roomRoute, url, { token: managerToken, params })).status).toBe(404);
    expect((await callApi(roomRoute, url, { method: "POST", token: managerToken, params })).status).toBe(405);
    expect((await callApi(roomsRoute, "/api/facilities/rooms", { method: "PATCH", token: managerToken })).status).toBe(405);
  });
});

describe("/api/facilities/rooms/roomtype", () => {
  it("answers 401 without a token", async () => {
    expect((await callApi(roomTypesRoute, "/api/facilities/rooms/roomtype")).status).toBe(401);
    expect((await callApi(roomTypeRoute, "/api/facilities/rooms/roomtype/1", { method: "DELETE", params: { id: "1" } })).status).toBe(401);
  });

  it("POST creates a room type with tags given as strings or labels: 201", async () => {
    const res = await callApi(roomTypesRoute, "/api/facilities/rooms/roomtype", {
      method: "POST",
      token: managerToken,
      body: { roomTypeName: "Kitchen", tags: ["food", { label: "water" }] },
    });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.any(Number),
      roomTypeName: "Kitchen",
      tags: ["food", "water"],
      linkedRoomsCount: expect.any(Number), // checked in "counts the linked rooms ..." below
      roomTypeRatingMessages: [],
      incidentTypesCount: expect.any(Number),
    });
  });

  it("POST and PUT refuse bad bodies: name, empty tag, tag over 20 characters, 4 tags", async () => {
    const post = (body: unknown, token = managerToken) =>
      callApi(roomTypesRoute, "/api/facilities/rooms/roomtype", { method: "POST", token, body });
    expect((await post({ tags: [] })).body).toMatchObject({ code: "VALIDATION", message: VALIDATION_MESSAGE, fieldErrors: { roomTypeName: ["Please set a name"] } });
    expect((await post({ roomTypeName: "X", tags: ["x".repeat(21)] })).body.fieldErrors).toEqual({
      "tags.0": ["Tag cannot be longer than 20 characters"],
    });
    expect((await post({ roomTypeName: "X", tags: ["a", "b", "c", "d"] })).body.fieldErrors).toEqual({ tags: ["Could not add more than 3 tags"] });
    expect((await post({ roomTypeName: "X", tags: [{ label: " " }] })).body.fieldErrors).toEqual({ "tags.0": ["Tag cannot be empty"] });
    expect((await post("nope")).body.code).toBe("INVALID_JSON");
    expect((await post({ roomTypeName: "X" }, technicianToken)).status).toBe(403);

    const type = await createRoomType(api.database.db, { entityId: entityA.id });
    const params = { id: String(type.id) };
    const url = `/api/facilities/rooms/roomtype/${type.id}`;
    const put = await callApi(roomTypeRoute, url, { method: "PUT", token: managerToken, params, body: { roomTypeName: "X", tags: ["1", "2", "3", "4"] } });
    expect(put.status).toBe(400);
    expect(put.body.fieldErrors).toEqual({ tags: ["Could not add more than 3 tags"] });
  });

  it("GET lists with X-Total-Count; GET and PUT /{id}; another entity's id is 404", async () => {
    const db = api.database.db;
    const entity = await createEntity(db);
    const token = await api.token(await createUser(db, { entityId: entity.id, role: Role.FACILITY_MANAGER }));
    const office = await createRoomType(db, { entityId: entity.id, name: "Office", tags: ["desk"] });
    await createRoomType(db, { entityId: entity.id, name: "Attic" });
    await createRoom(db, { entityId: entity.id, roomTypeId: office.id });

    const list = await callApi(roomTypesRoute, "/api/facilities/rooms/roomtype", { token });
    expect(list.headers.get("X-Total-Count")).toBe("2");
    expect(list.body).toEqual([
      { id: expect.any(Number), roomTypeName: "Attic", tags: [], linkedRoomsCount: expect.any(Number), roomTypeRatingMessages: [] },
      { id: office.id, roomTypeName: "Office", tags: ["desk"], linkedRoomsCount: expect.any(Number), roomTypeRatingMessages: [] },
    ]);
    const paged = await callApi(roomTypesRoute, "/api/facilities/rooms/roomtype?sort=name&dir=desc&size=1&page=2", { token });
    expect(paged.body.map((t: { roomTypeName: string }) => t.roomTypeName)).toEqual(["Attic"]);
    expect(paged.headers.get("X-Total-Count")).toBe("2");
    const search = await callApi(roomTypesRoute, "/api/facilities/rooms/roomtype?q=off", { token });
    expect(search.body.map((t: { roomTypeName: string }) => t.roomTypeName)).toEqual(["Office"]);

    const params = { id: String(office.id) };
    const url = `/api/facilities/rooms/roomtype/${office.id}`;
    const get = await callApi(roomTypeRoute, url, { token, params });
    expect(get.body).toEqual({
      id: office.id,
      roomTypeName: "Office",
      tags: ["desk"],
      linkedRoomsCount: expect.any(Number),
      roomTypeRatingMessages: [],
      incidentTypesCount: expect.any(Number),
    });
    const other = await callApi(roomTypeRoute, url, { token: managerToken, params });
    expect(other.status).toBe(404);
    expect(other.body).toMatchObject({ code: "ROOM_TYPE_NOT_FOUND", message: "Room type not found" });

    const put = await callApi(roomTypeRoute, url, { method: "PUT", token, params, body: { roomTypeName: "Open space", tags: [{ label: "desk" }, "quiet"] } });
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({ id: office.id, roomTypeName: "Open space", tags: ["desk", "quiet"] });
    expect((await callApi(roomTypeRoute, url, { method: "PUT", token: managerToken, params, body: { roomTypeName: "X" } })).status).toBe(404);
    expect((await callApi(roomTypeRoute, url, { method: "POST", token, params })).status).toBe(405);
  });

  it("DELETE of a type in use needs a replacement: 400 with the warning, then its rooms and incident types move", async () => {
    const db = api.database.db;
    const used = await createRoomType(db, { entityId: entityA.id, name: "Used" });
    const replacement = await createRoomType(db, { entityId: entityA.id, name: "Replacement" });
    const room = await createRoom(db, { entityId: entityA.id, roomTypeId: used.id });
    const incidentType = await createIncidentType(db, { entityId: entityA.id, roomTypeIds: [used.id] });
    const foreign = await createRoomType(db, { entityId: entityB.id });
    const params = { id: String(used.id) };
    const url = `/api/facilities/rooms/roomtype/${used.id}`;
    const del = (body?: unknown, token = managerToken) => callApi(roomTypeRoute, url, { method: "DELETE", token, params, body });

    const noBody = await del();
    expect(noBody.status).toBe(400);
    expect(noBody.body).toMatchObject({
      code: "ROOM_TYPE_IN_USE",
      message: "This room type is assigned to rooms or incident types; choose another type to reassign them.",
      fieldErrors: { replacementRoomType: ["Please choose a room type to reassign its rooms and incident types to"] },
    });
    expect((await del({ replacementRoomType: null })).body.code).toBe("ROOM_TYPE_IN_USE");
    expect((await del({ replacementRoomType: used.id })).body.code).toBe("REPLACEMENT_SAME");
    const wrong = await del({ replacementRoomType: foreign.id });
    expect(wrong.status).toBe(400);
    expect(wrong.body.fieldErrors).toEqual({ replacementRoomType: ["Room type not found"] });
    expect((await del({ replacementRoomType: "two" })).body.fieldErrors).toEqual({
      replacementRoomType: ["Please choose a room type to reassign its rooms and incident types to"],
    });
    expect((await del("{")).body.code).toBe("INVALID_JSON");
    expect((await del({ replacementRoomType: replacement.id }, technicianToken)).status).toBe(403);
    expect((await del({ replacementRoomType: replacement.id }, otherToken)).status).toBe(404);

    const ok = await del({ replacementRoomType: replacement.id });
    expect(ok.status).toBe(200);
    expect(ok.body).toEqual({ roomsMoved: 1, incidentTypesMoved: 1 });
    const [moved] = await db.select({ roomTypeId: rooms.roomTypeId }).from(rooms).where(and(eq(rooms.id, room.id), isNull(rooms.archivedAt)));
    expect(moved.roomTypeId).toBe(replacement.id);
    const links = await db.select().from(incidentTypeRoomTypes).where(eq(incidentTypeRoomTypes.incidentTypeId, incidentType.id));
    expect(links.map((l) => l.roomTypeId)).toEqual([replacement.id]);
    expect((await callApi(roomTypeRoute, url, { token: managerToken, params })).status).toBe(404);
  });

  it("counts the linked rooms and incident types of each room type, in the list and the detail", async () => {
    const db = api.database.db;
    const entity = await createEntity(db);
    const token = await api.token(await createUser(db, { entityId: entity.id, role: Role.FACILITY_MANAGER }));
    const busy = await createRoomType(db, { entityId: entity.id, name: "Busy" });
    const idle = await createRoomType(db, { entityId: entity.id, name: "Idle" });
    await createRoom(db, { entityId: entity.id, roomTypeId: busy.id });
    await createRoom(db, { entityId: entity.id, roomTypeId: busy.id });
    await createRoom(db, { entityId: entity.id, roomTypeId: busy.id, archivedAt: new Date() });
    await createIncidentType(db, { entityId: entity.id, roomTypeIds: [busy.id] });
    const list = await callApi(roomTypesRoute, "/api/facilities/rooms/roomtype?sort=linkedRoomsCount&dir=desc", { token });
    expect(list.body.map((t: { id: number; linkedRoomsCount: number }) => [t.id, t.linkedRoomsCount])).toEqual([
      [busy.id, 2],
      [idle.id, 0],
    ]);
    const get = await callApi(roomTypeRoute, `/api/facilities/rooms/roomtype/${busy.id}`, { token, params: { id: String(busy.id) } });
    expect(get.body).toMatchObject({ linkedRoomsCount: 2, incidentTypesCount: 1 });
  });

  it("DELETE of an unused type needs no body", async () => {
    const type = await createRoomType(api.database.db, { entityId: entityA.id });
    const res = await callApi(roomTypeRoute, `/api/facilities/rooms/roomtype/${type.id}`, {
      method: "DELETE",
      token: adminToken,
      params: { id: String(type.id) },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ roomsMoved: 0, incidentTypesMoved: 0 });
  });
});

describe("hard input edges", () => {
  const facilityCount = async () => (await api.database.db.select({ id: facilities.id }).from(facilities)).length;

  it("answers a technician 403 before looking at the body, whatever the body", async () => {
    for (const body of ["not json", "{}", JSON.stringify({ name: "x".repeat(10_000) })]) {
      const res = await callApi(facilitiesRoute, "/api/facilities", { method: "POST", token: technicianToken, body });
      expect(res.status).toBe(403);
    }
    const room = await callApi(roomsRoute, "/api/facilities/rooms", { method: "POST", token: technicianToken, body: "{" });
    expect(room.status).toBe(403);
  });

  it("refuses control characters (a NUL byte) in any text with a translated field error, and changes nothing", async () => {
    const before = await facilityCount();
    const res = await callApi(facilitiesRoute, "/api/facilities", { method: "POST", token: managerToken, body: { name: "Bad\u0000name", description: "ok\nfine" } });
    expect(res.status).toBe(400);
    expect(res.body.fieldErrors).toEqual({ name: ["This text contains characters that are not allowed"] });
    expect(res.body.fieldErrorKeys).toEqual({ name: ["common:validation.controlCharacters"] });
    const nested = await callApi(roomsRoute, "/api/facilities/rooms", {
      method: "POST",
      token: managerToken,
      body: { name: "Room", floor: "1", links: [{ type: 1, url: "https://x.test/\u0007" }] },
    });
    expect(nested.status).toBe(400);
    expect(Object.keys(nested.body.fieldErrors)).toContain("links.0.url");
    expect(await facilityCount()).toBe(before);
  });

  it("refuses ids beyond 2^31-1 in a body and in the path with 4xx, never 500", async () => {
    const body = await callApi(buildingsRoute, "/api/facilities/buildings", {
      method: "POST",
      token: managerToken,
      body: { name: "B", facilityId: 2 ** 31 },
    });
    expect(body.status).toBe(400);
    const path = await callApi(facilityRoute, `/api/facilities/${2 ** 31}`, { token: managerToken, params: { id: String(2 ** 31) } });
    expect(path.status).toBe(404);
  });

  it("answers 415 for a body that is not sent as JSON", async () => {
    const res = await facilitiesRoute.action({
      request: new Request("http://x/api/facilities", {
        method: "POST",
        headers: { authorization: `Bearer ${managerToken}`, "content-type": "text/plain" },
        body: JSON.stringify({ name: "Plain" }),
      }),
      params: {},
      context: apiContext(),
    } as unknown as ActionFunctionArgs);
    expect(res.status).toBe(415);
    expect((await res.json()).code).toBe("UNSUPPORTED_MEDIA_TYPE");
  });

  it("answers 400, not 500, when the database refuses a value the schemas let through", async () => {
    // A search with a NUL byte is cleaned; a list still answers.
    const res = await callApi(facilitiesRoute, "/api/facilities?q=a%00b", { token: managerToken });
    expect(res.status).toBe(200);
  });
});
