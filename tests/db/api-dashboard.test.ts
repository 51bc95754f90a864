import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { IncidentStatus, Role } from "~/db/enums";
import type { Entity, User } from "~/db/schema";
import * as route from "~/routes/api/dashboard";
import { createBuilding, createEntity, createIncident, createIncidentType, createRoom, createUser } from "#tests/factories";
import { type ApiHarness, callApi, startApiRuntime } from "#tests/api-helpers";

/**
 * GET /api/dashboard (issue #15): the dashboard's figures as JSON with the screen's filters; 401 without
 * a token, 403 for a technician, 400 for an unreadable filter, 404 for another entity's facility or type.
 */
let api: ApiHarness;
let entity: Entity;
let other: Entity;
let admin: User;
let technician: User;
let otherAdmin: User;
let facilityId: number;
let otherFacilityId: number;
let otherTypeId: number;

beforeAll(async () => {
  api = await startApiRuntime();
  const db = api.database.db;
  entity = await createEntity(db);
  other = await createEntity(db);
  admin = await createUser(db, { entityId: entity.id, role: Role.ADMINISTRATOR });
  technician = await createUser(db, { entityId: entity.id, role: Role.TECHNICIAN });
  otherAdmin = await createUser(db, { entityId: other.id, role: Role.ADMINISTRATOR });
  const building = await createBuilding(db, { entityId: entity.id });
  facilityId = building.facilityId;
  const room = await createRoom(db, { entityId: entity.id, buildingId: building.id });
  const type = await createIncidentType(db, { entityId: entity.id, nameEn: "Leak" });
  await createIncident(db, { entityId: entity.id, roomId: room.id, incidentTypeId: type.id, createdAt: new Date("2026-02-10T10:00Z"), status: IncidentStatus.DONE, doneAt: new Date("2026-02-10T22:00Z") });
  await createIncident(db, { entityId: entity.id, roomId: room.id, createdAt: new Date("2026-03-10T10:00Z") });
  const otherBuilding = await createBuilding(db, { entityId: other.id });
  otherFacilityId = otherBuilding.facilityId;
  otherTypeId = (await createIncidentType(db, { entityId: other.id, nameEn: "Other" })).id;
  const otherRoom = await createRoom(db, { entityId: other.id, buildingId: otherBuilding.id });
  await createIncident(db, { entityId: other.id, roomId: otherRoom.id, createdAt: new Date("2026-02-11T10:00Z") });
});

afterAll(async () => {
  await api?.close();
});

describe(`GET /api/dashboard (${process.env.DATABASE_URL ? "PostgreSQL" : "PGlite"})`, () => {
  const url = "/api/dashboard?from=2026-01-01&to=2026-06-30";

  it("answers the figures of the caller's entity, with the filters", async () => {
    const res = await callApi(route, url, { token: await api.token(admin) });
    expect(res.status).toBe(200);
    expect(res.body.period).toEqual({ from: "2026-01-01", to: "2026-06-30", custom: true });
    expect(res.body.months.map((m: { created: number }) => m.created)).toEqual([0, 1, 1, 0, 0, 0]);
    expect(res.body.types).toEqual([
      { id: expect.any(Number), name: "Leak", count: 1, share: 0.5 },
      { id: null, name: null, count: 1, share: 0.5 },
    ]);
    expect(res.body.handling).toEqual({ done: 1, averageHours: 12 });
    const filtered = await callApi(route, `${url}&facility=${facilityId}`, { token: await api.token(admin) });
    expect(filtered.body.total).toBe(2);
    // The other entity sees only its own incident.
    const theirs = await callApi(route, url, { token: await api.token(otherAdmin) });
    expect(theirs.body.total).toBe(1);
  });

  it("refuses a missing token, a technician, a bad filter and another entity's ids", async () => {
    expect((await callApi(route, url)).status).toBe(401);
    const tech = await callApi(route, url, { token: await api.token(technician) });
    expect(tech.status).toBe(403);
    expect(tech.body.code).toBe("FORBIDDEN");
    const bad = await callApi(route, "/api/dashboard?from=2026-13-01", { token: await api.token(admin) });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.fieldErrors)).toEqual(["from"]);
    const order = await callApi(route, "/api/dashboard?from=2026-05-01&to=2026-01-01", { token: await api.token(admin) });
    expect(order.status).toBe(400);
    for (const query of [`facility=${otherFacilityId}`, `type=${otherTypeId}`]) {
      const res = await callApi(route, `${url}&${query}`, { token: await api.token(admin) });
      expect(res.status, query).toBe(404);
      expect(res.body.code).toBe("DASHBOARD_FILTER_NOT_FOUND");
    }
    expect((await callApi(route, url, { method: "POST", token: await api.token(admin) })).status).toBe(405);
  });
});
