import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { IncidentStatus, Role } from "~/db/enums";
import { type Entity, materialLines, timeEntries, type User } from "~/db/schema";
import { Dashboard } from "~/http/openapi/answers";
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
  const open = await createIncident(db, { entityId: entity.id, roomId: room.id, createdAt: new Date("2026-03-10T10:00Z") });
  // Time and material (issue 62): 90 min at 40.00 = 60.00 and 30 min without a rate in March, 2 × 4.25 = 8.50.
  await db.insert(timeEntries).values([
    { entityId: entity.id, incidentId: open.id, userId: technician.id, workedOn: "2026-03-11", minutes: 90, hourlyRate: "40.00" },
    { entityId: entity.id, incidentId: open.id, userId: technician.id, workedOn: "2026-03-12", minutes: 30, hourlyRate: null },
  ]);
  await db.insert(materialLines).values({ entityId: entity.id, incidentId: open.id, description: "Tap", quantity: "2", unitCost: "4.25", createdAt: new Date("2026-03-11T10:00Z") });
  const otherBuilding = await createBuilding(db, { entityId: other.id });
  otherFacilityId = otherBuilding.facilityId;
  otherTypeId = (await createIncidentType(db, { entityId: other.id, nameEn: "Other" })).id;
  const otherRoom = await createRoom(db, { entityId: other.id, buildingId: otherBuilding.id });
  const theirs = await createIncident(db, { entityId: other.id, roomId: otherRoom.id, createdAt: new Date("2026-02-11T10:00Z") });
  await db.insert(timeEntries).values({ entityId: other.id, incidentId: theirs.id, userId: otherAdmin.id, workedOn: "2026-02-11", minutes: 60, hourlyRate: "99.00" });
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

  it("carries the service levels and the time and costs of the same filters, in the documented shape", async () => {
    const res = await callApi(route, url, { token: await api.token(admin) });
    expect(Dashboard.safeParse(res.body).success).toBe(true);
    expect(res.body.serviceLevels).toEqual({ hasTargets: false, canSetTargets: true, rows: expect.any(Array) });
    const { costs } = res.body;
    expect(costs.currency).toBe("EUR");
    expect(costs.total).toEqual({ minutes: 120, labour: "60.00", materials: "8.50", total: "68.50", unpricedEntries: 1, entries: 2, lines: 1 });
    expect(costs.months.map((m: { month: string; total: string }) => [m.month, m.total])).toEqual([
      ["2026-01", "0.00"],
      ["2026-02", "0.00"],
      ["2026-03", "68.50"],
      ["2026-04", "0.00"],
      ["2026-05", "0.00"],
      ["2026-06", "0.00"],
    ]);
    expect(costs.facilities.map((f: { id: number; total: string }) => [f.id, f.total])).toEqual([[facilityId, "68.50"]]);
    // The other entity's administrator sees only its own hour.
    const theirs = await callApi(route, url, { token: await api.token(otherAdmin) });
    expect(theirs.body.costs.total).toEqual({ minutes: 60, labour: "99.00", materials: "0.00", total: "99.00", unpricedEntries: 0, entries: 1, lines: 0 });
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
