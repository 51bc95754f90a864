import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Role } from "~/db/enums";
import { auditLog, type Incident, incidents, type User } from "~/db/schema";
import * as downtimeRoute from "~/routes/api/incidents.$id.downtime";
import * as incidentRoute from "~/routes/api/incidents.$id";
import { createBuilding, createEntity, createEquipmentItem, createIncident, createRoom, createUser, linkUserTo } from "#tests/factories";
import { type ApiHarness, callApi, startApiRuntime } from "#tests/api-helpers";

/**
 * PUT /api/incidents/{id}/downtime (decision 066): whoever handles the incident marks its equipment out
 * of service, with the downtime by hand in minutes or hours; GET /api/incidents/{id} reads both fields.
 * An incident without equipment is 400, another entity's incident and one out of the caller's reach
 * 404, and a refusal changes nothing.
 */
let api: ApiHarness;
let technician: User;
let open: Incident;
let noEquipment: Incident;
let foreign: Incident;
const tokens: Record<string, string> = {};

const put = (incidentId: number | string, token: string, body: unknown) =>
  callApi(downtimeRoute, `/api/incidents/${incidentId}/downtime`, { method: "PUT", token, body, params: { id: String(incidentId) } });
const read = (incidentId: number, token: string) => callApi(incidentRoute, `/api/incidents/${incidentId}`, { token, params: { id: String(incidentId) } });
const rowOf = async (id: number) => (await api.database.db.select({ equipmentDown: incidents.equipmentDown, downtimeMinutes: incidents.downtimeMinutes }).from(incidents).where(eq(incidents.id, id)))[0];
const INCIDENT_NOT_FOUND = { code: "INCIDENT_NOT_FOUND", message: "Incident not found" };

beforeAll(async () => {
  api = await startApiRuntime();
  const db = api.database.db;
  const entity = await createEntity(db);
  const other = await createEntity(db);
  const building = await createBuilding(db, { entityId: entity.id });
  const elsewhere = await createBuilding(db, { entityId: entity.id });
  const room = await createRoom(db, { entityId: entity.id, buildingId: building.id });
  technician = await createUser(db, { entityId: entity.id, role: Role.TECHNICIAN });
  const outsider = await createUser(db, { entityId: entity.id, role: Role.TECHNICIAN });
  const stranger = await createUser(db, { entityId: other.id, role: Role.ADMINISTRATOR });
  await linkUserTo(db, { entityId: entity.id, userId: technician.id, buildingId: building.id });
  await linkUserTo(db, { entityId: entity.id, userId: outsider.id, buildingId: elsewhere.id });
  const item = await createEquipmentItem(db, { entityId: entity.id, roomId: room.id });
  open = await createIncident(db, { entityId: entity.id, roomId: room.id, equipmentItemId: item.id });
  noEquipment = await createIncident(db, { entityId: entity.id, roomId: room.id });
  const foreignRoom = await createRoom(db, { entityId: other.id });
  foreign = await createIncident(db, { entityId: other.id, roomId: foreignRoom.id, equipmentItemId: (await createEquipmentItem(db, { entityId: other.id, roomId: foreignRoom.id })).id });
  Object.assign(tokens, { technician: await api.token(technician), outsider: await api.token(outsider), stranger: await api.token(stranger) });
});

afterAll(async () => {
  await api?.close();
});

describe("PUT /api/incidents/{id}/downtime", () => {
  it("marks the equipment out of service, sets the downtime in minutes or hours, and puts it back in service", async () => {
    expect(await put(open.id, tokens.technician, { equipmentDown: true })).toMatchObject({ status: 200, body: { id: open.id, shortId: open.shortId, equipmentDown: true, downtimeMinutes: null } });
    expect(await rowOf(open.id)).toEqual({ equipmentDown: true, downtimeMinutes: null });
    expect(await put(open.id, tokens.technician, { equipmentDown: true, downtimeMinutes: 150 })).toMatchObject({ status: 200, body: { equipmentDown: true, downtimeMinutes: 150 } });
    const detail = await read(open.id, tokens.technician);
    expect(detail.status).toBe(200);
    expect(detail.body).toMatchObject({ equipmentDown: true, downtimeMinutes: 150 });
    // 1,5 hours is 90 minutes.
    expect(await put(open.id, tokens.technician, { equipmentDown: true, downtimeHours: "1,5" })).toMatchObject({ status: 200, body: { downtimeMinutes: 90 } });
    // Back in service: the hours by hand go too.
    expect(await put(open.id, tokens.technician, { equipmentDown: false, downtimeMinutes: 30 })).toMatchObject({ status: 200, body: { equipmentDown: false, downtimeMinutes: null } });
    expect(await rowOf(open.id)).toEqual({ equipmentDown: false, downtimeMinutes: null });
    const audit = await api.database.db.select({ details: auditLog.details }).from(auditLog).where(eq(auditLog.action, "incident.set-downtime"));
    expect(audit.map((a) => a.details)).toEqual([
      { shortId: open.shortId, equipmentDown: true, downtimeMinutes: null },
      { shortId: open.shortId, equipmentDown: true, downtimeMinutes: 150 },
      { shortId: open.shortId, equipmentDown: true, downtimeMinutes: 90 },
      { shortId: open.shortId, equipmentDown: false, downtimeMinutes: null },
    ]);
  });

  it("refuses bad values and an incident without equipment (400), another entity's incident and one out of reach (404); nothing changes", async () => {
    await put(open.id, tokens.technician, { equipmentDown: true, downtimeMinutes: 60 });
    for (const body of [{ equipmentDown: true, downtimeMinutes: -1 }, { equipmentDown: true, downtimeMinutes: 527041 }, { equipmentDown: true, downtimeMinutes: 1.5 }, { equipmentDown: true, downtimeMinutes: 60, downtimeHours: "1" }, { equipmentDown: "yes" }, [1]]) {
      expect((await put(open.id, tokens.technician, body)).status, JSON.stringify(body)).toBe(400);
    }
    expect(await put(noEquipment.id, tokens.technician, { equipmentDown: true })).toMatchObject({ status: 400, body: { code: "INCIDENT_HAS_NO_EQUIPMENT" } });
    expect(await put(open.id, tokens.outsider, { equipmentDown: false })).toMatchObject({ status: 404, body: INCIDENT_NOT_FOUND });
    expect(await put(open.id, tokens.stranger, { equipmentDown: false })).toMatchObject({ status: 404, body: INCIDENT_NOT_FOUND });
    expect(await put(foreign.id, tokens.technician, { equipmentDown: true })).toMatchObject({ status: 404, body: INCIDENT_NOT_FOUND });
    expect(await put("abc", tokens.technician, { equipmentDown: true })).toMatchObject({ status: 404, body: INCIDENT_NOT_FOUND });
    expect(await rowOf(open.id)).toEqual({ equipmentDown: true, downtimeMinutes: 60 });
    expect(await rowOf(noEquipment.id)).toEqual({ equipmentDown: false, downtimeMinutes: null });
    expect(await rowOf(foreign.id)).toEqual({ equipmentDown: false, downtimeMinutes: null });
  });

  it("answers 405 to a GET", async () => {
    const answer = await callApi(downtimeRoute, `/api/incidents/${open.id}/downtime`, { token: tokens.technician, params: { id: String(open.id) } });
    expect(answer.status).toBe(405);
    expect(answer.headers.get("allow")).toBe("PUT");
  });
});
