import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Role, TimeMeasure } from "~/db/enums";
import { auditLog, type Entity, maintenanceTypeChecks, maintenanceTypes, plannedMaintenances, type Room, type User } from "~/db/schema";
import * as plannedRoute from "~/routes/api/maintenances.planned";
import * as planRoute from "~/routes/api/maintenances.planned.$id";
import * as typeRoute from "~/routes/api/maintenances.types.$id";
import * as checklistRoute from "~/routes/api/maintenances.types.$id.checklist";
import * as typesRoute from "~/routes/api/maintenances.types";
import { createBuilding, createEntity, createFacility, createIncidentType, createMaintenanceCheck, createMaintenanceType, createRoom, createUser, linkUserTo } from "#tests/factories";
import { type ApiHarness, callApi, startApiRuntime } from "#tests/api-helpers";

/**
 * REST calls of maintenance types and planned maintenance (designed like the facility and incident type
 * calls), through the route modules with a bearer token: answers, statuses, JSON errors, and that a
 * refused call changes nothing.
 */
let api: ApiHarness;
let entityA: Entity;
let entityB: Entity;
let admin: User;
let manager: User;
let technician: User;
let otherAdmin: User;
let room: Room;
let farRoom: Room;
let adminToken: string;
let managerToken: string;
let technicianToken: string;
let otherToken: string;

const typesUrl = "/api/maintenances/types";
const plannedUrl = "/api/maintenances/planned";
const one = (base: string, id: number | string) => ({ url: `${base}/${id}`, params: { id: String(id) } });

const typeBody = (extra: Record<string, unknown> = {}) => ({ name: "Boiler check", tags: ["heating"], occurrenceUnit: TimeMeasure.MONTH, occurrenceInterval: 1, ...extra });
const planBody = (maintenanceTypeId: number, extra: Record<string, unknown> = {}) => ({
  name: "Boilers",
  maintenanceTypeId,
  startDate: "2027-01-01",
  endDate: "2027-06-30",
  timeOfDay: "09:00",
  occurrenceUnit: TimeMeasure.WEEK,
  occurrenceInterval: 1,
  roomIds: [room.id],
  ...extra,
});

async function postType(token: string, body: unknown = typeBody()) {
  return callApi(typesRoute, typesUrl, { method: "POST", token, body });
}

beforeAll(async () => {
  api = await startApiRuntime();
  const db = api.database.db;
  entityA = await createEntity(db, { name: "Entity A" });
  entityB = await createEntity(db, { name: "Entity B" });
  const campus = await createFacility(db, { entityId: entityA.id, name: "Campus" });
  const building = await createBuilding(db, { entityId: entityA.id, facilityId: campus.id });
  const far = await createBuilding(db, { entityId: entityA.id });
  room = await createRoom(db, { entityId: entityA.id, buildingId: building.id });
  farRoom = await createRoom(db, { entityId: entityA.id, buildingId: far.id });
  admin = await createUser(db, { entityId: entityA.id, role: Role.ADMINISTRATOR });
  manager = await createUser(db, { entityId: entityA.id, role: Role.FACILITY_MANAGER });
  technician = await createUser(db, { entityId: entityA.id, role: Role.TECHNICIAN });
  otherAdmin = await createUser(db, { entityId: entityB.id, role: Role.ADMINISTRATOR });
  await linkUserTo(db, { entityId: entityA.id, userId: manager.id, facilityId: campus.id });
  [adminToken, managerToken, technicianToken, otherToken] = await Promise.all([api.token(admin), api.token(manager), api.token(technician), api.token(otherAdmin)]);
});
afterAll(async () => {
  await api?.close();
});

describe("every /api/maintenances call", () => {
  it("answers 401 without a token, 403 to a technician, 405 for a method the address does not take", async () => {
    const calls: [Parameters<typeof callApi>[0], string, string, Record<string, string>][] = [
      [typesRoute, typesUrl, "GET", {}],
      [typesRoute, typesUrl, "POST", {}],
      [typeRoute, `${typesUrl}/1`, "GET", { id: "1" }],
      [typeRoute, `${typesUrl}/1`, "PUT", { id: "1" }],
      [typeRoute, `${typesUrl}/1`, "DELETE", { id: "1" }],
      [checklistRoute, `${typesUrl}/1/checklist`, "GET", { id: "1" }],
      [checklistRoute, `${typesUrl}/1/checklist`, "PUT", { id: "1" }],
      [plannedRoute, plannedUrl, "GET", {}],
      [plannedRoute, plannedUrl, "POST", {}],
      [planRoute, `${plannedUrl}/1`, "GET", { id: "1" }],
      [planRoute, `${plannedUrl}/1`, "PUT", { id: "1" }],
      [planRoute, `${plannedUrl}/1`, "DELETE", { id: "1" }],
    ];
    for (const [route, url, method, params] of calls) {
      const body = method === "GET" || method === "DELETE" ? undefined : {};
      expect((await callApi(route, url, { method, params, body })).status, `${method} ${url}`).toBe(401);
      const tech = await callApi(route, url, { method, params, body, token: technicianToken });
      expect(tech.status, `${method} ${url}`).toBe(403);
    }
    const wrong: [Parameters<typeof callApi>[0], string, string, Record<string, string>, string][] = [
      [typesRoute, typesUrl, "PUT", {}, "GET, POST"],
      [typeRoute, `${typesUrl}/1`, "POST", { id: "1" }, "GET, PUT, DELETE"],
      [checklistRoute, `${typesUrl}/1/checklist`, "DELETE", { id: "1" }, "GET, PUT"],
      [plannedRoute, plannedUrl, "DELETE", {}, "GET, POST"],
      [planRoute, `${plannedUrl}/1`, "PATCH", { id: "1" }, "GET, PUT, DELETE"],
    ];
    for (const [route, url, method, params, allow] of wrong) {
      const res = await callApi(route, url, { method, params, token: managerToken });
      expect(res.status, `${method} ${url}`).toBe(405);
      expect(res.headers.get("Allow")).toBe(allow);
    }
  });
});

describe("/api/maintenances/types", () => {
  it("creates, reads, lists, updates and archives a type", async () => {
    const created = await postType(managerToken, typeBody({ name: "Lifts", assigneeIds: [technician.id], roomIds: [room.id] }));
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ id: expect.any(Number), name: "Lifts", assignees: [{ id: technician.id }], rooms: [{ id: room.id }] });
    const id = created.body.id as number;
    const got = await callApi(typeRoute, one(typesUrl, id).url, { token: adminToken, params: one(typesUrl, id).params });
    expect(got.body).toMatchObject({ id, name: "Lifts" });
    const list = await callApi(typesRoute, `${typesUrl}?q=lift&sort=occurrence`, { token: managerToken });
    expect(list.status).toBe(200);
    expect(list.body.map((t: { id: number }) => t.id)).toContain(id);
    expect(Number(list.headers.get("X-Total-Count"))).toBeGreaterThan(0);
    const put = await callApi(typeRoute, one(typesUrl, id).url, { method: "PUT", token: managerToken, params: one(typesUrl, id).params, body: typeBody({ name: "Lifts and escalators" }) });
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({ name: "Lifts and escalators", rooms: [] });
    const del = await callApi(typeRoute, one(typesUrl, id).url, { method: "DELETE", token: managerToken, params: one(typesUrl, id).params });
    expect(del.status).toBe(200);
    expect(del.body).toEqual({ plannedMaintenancesArchived: 0 });
    const gone = await callApi(typeRoute, one(typesUrl, id).url, { token: managerToken, params: one(typesUrl, id).params });
    expect(gone.status).toBe(404);
    expect(gone.body).toMatchObject({ code: "MAINTENANCE_TYPE_NOT_FOUND", message: "Maintenance type not found" });
  });

  it("keeps a type's estimated duration in minutes: created, read, listed, updated, cleared; refuses 0 and 1.5", async () => {
    const created = await postType(managerToken, typeBody({ name: "Gutters", estimatedDuration: 45 }));
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name: "Gutters", estimatedDuration: 45 });
    const id = created.body.id as number;
    const got = await callApi(typeRoute, one(typesUrl, id).url, { token: managerToken, params: one(typesUrl, id).params });
    expect(got.body).toMatchObject({ id, estimatedDuration: 45 });
    const list = await callApi(typesRoute, `${typesUrl}?q=gutters`, { token: managerToken });
    expect(list.body).toEqual([expect.objectContaining({ id, estimatedDuration: 45 })]);
    const put = await callApi(typeRoute, one(typesUrl, id).url, { method: "PUT", token: managerToken, params: one(typesUrl, id).params, body: typeBody({ name: "Gutters", estimatedDuration: 90 }) });
    expect(put.body).toMatchObject({ estimatedDuration: 90 });
    const cleared = await callApi(typeRoute, one(typesUrl, id).url, { method: "PUT", token: managerToken, params: one(typesUrl, id).params, body: typeBody({ name: "Gutters" }) });
    expect(cleared.body).toMatchObject({ estimatedDuration: null });
    for (const bad of [0, 1.5, -3]) {
      const res = await postType(managerToken, typeBody({ name: "Bad duration", estimatedDuration: bad }));
      expect(res.status, String(bad)).toBe(400);
      expect(JSON.stringify(res.body)).toContain("Enter a whole number of minutes above 0.");
    }
    const [row] = await api.database.db.select({ d: maintenanceTypes.estimatedDuration }).from(maintenanceTypes).where(eq(maintenanceTypes.id, id));
    expect(row.d).toBeNull();
  });

  it("answers 400 with field errors for bad bodies and list queries, creating nothing", async () => {
    const before = (await api.database.db.select().from(maintenanceTypes).where(eq(maintenanceTypes.entityId, entityA.id))).length;
    const bad = await postType(managerToken, { name: "", tags: ["a", "b", "c", "d"], occurrenceInterval: -1 });
    expect(bad.status).toBe(400);
    expect(bad.body.fieldErrors).toMatchObject({ name: ["Please set a name"], tags: ["Could not add more than 3 tags"] });
    expect((await postType(managerToken, "{not json")).status).toBe(400);
    expect((await postType(managerToken, typeBody({ roomIds: [farRoom.id] }))).status).toBe(400);
    expect((await callApi(typesRoute, `${typesUrl}?sort=nope`, { token: managerToken })).status).toBe(400);
    expect((await api.database.db.select().from(maintenanceTypes).where(eq(maintenanceTypes.entityId, entityA.id))).length).toBe(before);
  });

  it("answers 404 for another entity's type and a malformed id, changing nothing", async () => {
    const mine = await postType(adminToken, typeBody({ name: "Mine" }));
    const id = mine.body.id as number;
    for (const method of ["GET", "PUT", "DELETE"]) {
      const res = await callApi(typeRoute, one(typesUrl, id).url, { method, token: otherToken, params: one(typesUrl, id).params, body: method === "PUT" ? typeBody() : undefined });
      expect(res.status, method).toBe(404);
      expect(res.body.code).toBe("MAINTENANCE_TYPE_NOT_FOUND");
    }
    expect((await callApi(typeRoute, one(typesUrl, "abc").url, { token: adminToken, params: one(typesUrl, "abc").params })).status).toBe(404);
    const [row] = await api.database.db.select().from(maintenanceTypes).where(eq(maintenanceTypes.id, id));
    expect(row).toMatchObject({ name: "Mine", archivedAt: null });
  });
});

describe("/api/maintenances/planned", () => {
  it("creates, reads, lists with filters, updates and archives a plan", async () => {
    const type = (await postType(adminToken, typeBody({ name: "Heating" }))).body.id as number;
    const created = await callApi(plannedRoute, plannedUrl, { method: "POST", token: managerToken, body: planBody(type, { assigneeIds: [technician.id] }) });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name: "Boilers", maintenanceTypeId: type, maintenanceTypeName: "Heating", timeOfDay: "09:00", rooms: [{ id: room.id }] });
    const id = created.body.id as number;
    const list = await callApi(plannedRoute, `${plannedUrl}?maintenanceTypeId=${type}&assigneeId=${technician.id}&sort=startDate&dir=desc`, { token: managerToken });
    expect(list.status).toBe(200);
    expect(list.body.map((p: { id: number }) => p.id)).toEqual([id]);
    expect((await callApi(plannedRoute, `${plannedUrl}?facilityId=x`, { token: managerToken })).status).toBe(400);
    const put = await callApi(planRoute, one(plannedUrl, id).url, { method: "PUT", token: managerToken, params: one(plannedUrl, id).params, body: planBody(type, { name: "Boilers H1", occurrenceUnit: 0 }) });
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({ name: "Boilers H1", occurrenceUnit: 0, occurrenceInterval: null });
    const del = await callApi(planRoute, one(plannedUrl, id).url, { method: "DELETE", token: managerToken, params: one(plannedUrl, id).params });
    expect(del.status).toBe(200);
    expect(del.body).toEqual({ tasksRemoved: expect.any(Number) });
    const gone = await callApi(planRoute, one(plannedUrl, id).url, { token: managerToken, params: one(plannedUrl, id).params });
    expect(gone.body).toMatchObject({ code: "PLANNED_MAINTENANCE_NOT_FOUND", message: "Planned maintenance not found" });
  });

  it("answers 400 for a body without selection, dates or type, and for a location outside the manager's reach", async () => {
    const type = (await postType(adminToken)).body.id as number;
    const empty = await callApi(plannedRoute, plannedUrl, { method: "POST", token: managerToken, body: { name: "x" } });
    expect(empty.status).toBe(400);
    expect(empty.body.fieldErrors).toMatchObject({ selection: ["Choose at least one facility, building or room"] });
    expect(Object.keys(empty.body.fieldErrors)).toEqual(expect.arrayContaining(["startDate", "endDate", "maintenanceTypeId"]));
    const backwards = await callApi(plannedRoute, plannedUrl, { method: "POST", token: managerToken, body: planBody(type, { endDate: "2026-01-01" }) });
    expect(backwards.status).toBe(400);
    const far = await callApi(plannedRoute, plannedUrl, { method: "POST", token: managerToken, body: planBody(type, { roomIds: [farRoom.id] }) });
    expect(far.status).toBe(400);
    expect(far.body.code).toBe("REFERENCE_NOT_FOUND");
    const wrongTypes = await callApi(plannedRoute, plannedUrl, { method: "POST", token: managerToken, body: planBody(type, { roomIds: "all", occurrenceUnit: "weekly" }) });
    expect(wrongTypes.status).toBe(400);
    expect((await api.database.db.select().from(plannedMaintenances).where(eq(plannedMaintenances.maintenanceTypeId, type))).length).toBe(0);
  });

  it("answers 404 for another entity's plan, changing nothing", async () => {
    const type = (await postType(adminToken)).body.id as number;
    const id = (await callApi(plannedRoute, plannedUrl, { method: "POST", token: adminToken, body: planBody(type, { name: "Ours" }) })).body.id as number;
    for (const method of ["GET", "PUT", "DELETE"]) {
      const res = await callApi(planRoute, one(plannedUrl, id).url, { method, token: otherToken, params: one(plannedUrl, id).params, body: method === "PUT" ? planBody(type) : undefined });
      expect(res.status, method).toBe(404);
      expect(res.body.code).toBe("PLANNED_MAINTENANCE_NOT_FOUND");
    }
    const [row] = await api.database.db.select().from(plannedMaintenances).where(eq(plannedMaintenances.id, id));
    expect(row).toMatchObject({ name: "Ours", archivedAt: null });
  });
});

describe("/api/maintenances/types/{id}/checklist", () => {
  const checklistOf = (id: number) => ({ url: `${typesUrl}/${id}/checklist`, params: { id: String(id) } });

  it("reads and replaces a type's checklist: changed, added, removed and reordered in one call", async () => {
    const db = api.database.db;
    const type = await createMaintenanceType(db, { entityId: entityA.id, name: "Fire round" });
    const leak = await createIncidentType(db, { entityId: entityA.id, nameEn: "Leak" });
    const seal = await createMaintenanceCheck(db, { entityId: entityA.id, maintenanceTypeId: type.id, position: 0, label: "Seal intact", priority: 2 });
    const gone = await createMaintenanceCheck(db, { entityId: entityA.id, maintenanceTypeId: type.id, position: 1, label: "Old check", priority: 1 });
    const { url, params } = checklistOf(type.id);
    const got = await callApi(checklistRoute, url, { token: managerToken, params });
    expect(got.status).toBe(200);
    expect(got.body.map((c: { id: number; label: string }) => [c.id, c.label])).toEqual([
      [seal.id, "Seal intact"],
      [gone.id, "Old check"],
    ]);
    const put = await callApi(checklistRoute, url, {
      method: "PUT",
      token: managerToken,
      params,
      body: {
        checks: [
          { kind: 1, label: "Pressure (bar)", minValue: 1.5, maxValue: "2,5", priority: 3, incidentTypeId: leak.id },
          { id: seal.id, kind: 0, label: "Seal intact", labelNl: "Zegel intact", photoRequired: true, priority: 2 },
        ],
      },
    });
    expect(put.status).toBe(200);
    expect(put.body).toEqual([
      expect.objectContaining({ position: 0, kind: 1, label: "Pressure (bar)", minValue: 1.5, maxValue: 2.5, priority: 3, incidentTypeId: leak.id, photoRequired: false }),
      expect.objectContaining({ id: seal.id, position: 1, kind: 0, labelNl: "Zegel intact", photoRequired: true, minValue: null }),
    ]);
    const stored = await db.select().from(maintenanceTypeChecks).where(eq(maintenanceTypeChecks.maintenanceTypeId, type.id));
    expect(stored.map((c) => c.id).sort()).toEqual([seal.id, put.body[0].id].sort());
    const audit = await db.select().from(auditLog).where(eq(auditLog.recordId, String(type.id)));
    expect(audit.filter((a) => a.recordType === "maintenanceType").map((a) => a.action).sort()).toEqual(["maintenanceType.add-check", "maintenanceType.remove-check", "maintenanceType.update-check"]);
  });

  it("refuses another entity's type and checks, an unknown incident type, and a bad check, changing nothing", async () => {
    const db = api.database.db;
    const type = await createMaintenanceType(db, { entityId: entityA.id, name: "Lift round" });
    const check = await createMaintenanceCheck(db, { entityId: entityA.id, maintenanceTypeId: type.id, position: 0, label: "Doors close", priority: 1 });
    const typeB = await createMaintenanceType(db, { entityId: entityB.id, name: "Elsewhere" });
    const checkB = await createMaintenanceCheck(db, { entityId: entityB.id, maintenanceTypeId: typeB.id, position: 0, label: "Theirs", priority: 1 });
    const otherLeak = await createIncidentType(db, { entityId: entityB.id, nameEn: "Their leak" });
    const snapshot = async () => JSON.stringify(await db.select().from(maintenanceTypeChecks).orderBy(maintenanceTypeChecks.id));
    const before = await snapshot();
    const put = (token: string, id: number, checks: unknown[]) => callApi(checklistRoute, checklistOf(id).url, { method: "PUT", token, params: checklistOf(id).params, body: { checks } });

    const fromB = await callApi(checklistRoute, checklistOf(type.id).url, { token: otherToken, params: checklistOf(type.id).params });
    expect(fromB.status).toBe(404);
    expect(fromB.body).toMatchObject({ code: "MAINTENANCE_TYPE_NOT_FOUND" });
    expect((await put(otherToken, type.id, [])).status).toBe(404);
    expect((await callApi(checklistRoute, checklistOf(typeB.id).url, { token: adminToken, params: checklistOf(typeB.id).params })).status).toBe(404);
    // Another type's check (here another entity's) is not one of this type's.
    const foreign = await put(managerToken, type.id, [{ id: checkB.id, kind: 0, label: "Mine now", priority: 1 }]);
    expect(foreign.status).toBe(404);
    expect(foreign.body).toMatchObject({ code: "CHECK_NOT_FOUND" });
    const theirType = await put(managerToken, type.id, [{ id: check.id, kind: 0, label: "Doors close", priority: 1, incidentTypeId: otherLeak.id }]);
    expect(theirType.status).toBe(400);
    expect(theirType.body.fieldErrorKeys).toEqual({ incidentTypeId: ["maintenance:checks.validation.incidentType"] });
    const bad = await put(managerToken, type.id, [{ kind: 1, label: "", minValue: 3, maxValue: 2, priority: 1 }]);
    expect(bad.status).toBe(400);
    expect(bad.body.fieldErrorKeys).toMatchObject({ "checks.0.label": ["maintenance:checks.validation.labelRequired"], "checks.0.maxValue": ["maintenance:checks.validation.range"] });
    expect((await put(technicianToken, type.id, [])).status).toBe(403);
    expect(await snapshot()).toBe(before);
  });
});
