import createClient from "openapi-fetch";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Role } from "~/db/enums";
import type { Entity, Facility, User } from "~/db/schema";
import { createBuilding, createEntity, createFacility, createIncident, createRoom, createUser, linkUserTo } from "#tests/factories";
import { type ApiHarness, startApiRuntime } from "#tests/api-helpers";
import type { paths } from "#tests/openapi/api-types";
import { dispatchApi } from "#tests/openapi/dispatch";

/**
 * A client generated from the OpenAPI document (openapi-typescript types, tests/openapi/api-types.ts,
 * kept current by the contract test) and openapi-fetch, calling five areas of the API through the route
 * modules (decision 056). It type-checks with the app (`npx tsc --noEmit`): a path, parameter or body
 * the document does not have fails to compile.
 */
let api: ApiHarness;
let entity: Entity;
let admin: User;
let technician: User;
let facility: Facility;
let roomId: number;

beforeAll(async () => {
  api = await startApiRuntime();
  const db = api.database.db;
  entity = await createEntity(db, { name: "Client" });
  admin = await createUser(db, { entityId: entity.id, role: Role.ADMINISTRATOR });
  technician = await createUser(db, { entityId: entity.id, role: Role.TECHNICIAN });
  facility = await createFacility(db, { entityId: entity.id, name: "Client site" });
  const building = await createBuilding(db, { entityId: entity.id, facilityId: facility.id });
  roomId = (await createRoom(db, { entityId: entity.id, buildingId: building.id })).id;
  await createIncident(db, { entityId: entity.id, roomId });
  await linkUserTo(db, { entityId: entity.id, userId: technician.id, facilityId: facility.id });
});
afterAll(async () => {
  await api?.close();
});

function clientFor(token: string) {
  return createClient<paths>({ baseUrl: "http://caretaker.test", fetch: dispatchApi, headers: { authorization: `Bearer ${token}`, "x-language": "en" } });
}

describe("a client generated from the document", () => {
  it("calls facilities, users, incidents, notifications and maintenance", async () => {
    const asAdmin = clientFor(await api.token(admin));
    const asTechnician = clientFor(await api.token(technician));

    // Facilities: create one, then read it.
    const made = await asAdmin.POST("/api/facilities", { body: { name: "Annex", description: "Made by the generated client" } });
    expect(made.response.status).toBe(201);
    const madeId = (made.data as { id: number }).id;
    const read = await asAdmin.GET("/api/facilities/{id}", { params: { path: { id: madeId } } });
    expect(read.data).toMatchObject({ id: madeId, name: "Annex" });

    // Users: a technician reads their own profile.
    const profile = await asTechnician.GET("/api/users/{id}", { params: { path: { id: technician.id } } });
    expect(profile.data).toMatchObject({ id: technician.id, role: Role.TECHNICIAN });

    // Incidents: the list in the technician's reach, with its total.
    const incidents = await asTechnician.GET("/api/incidents", { params: { query: { size: 10 } } });
    expect(incidents.response.status).toBe(200);
    expect(incidents.data?.length).toBe(1);
    expect(incidents.response.headers.get("x-total-count")).toBe("1");

    // Notifications: the technician's counts.
    const counts = await asTechnician.GET("/api/users/{id}/notifications/count", { params: { path: { id: technician.id } } });
    expect(counts.data).toEqual({ total: 0, unread: 0 });

    // Maintenance: a type created and listed.
    const type = await asAdmin.POST("/api/maintenances/types", { body: { name: "Boiler check", occurrenceUnit: 2, occurrenceInterval: 1 } });
    expect(type.response.status, JSON.stringify(type.error)).toBe(201);
    const types = await asAdmin.GET("/api/maintenances/types");
    expect(types.data?.map((t) => t.name)).toContain("Boiler check");

    // An error comes back typed as the Error body.
    const refused = await asTechnician.GET("/api/users");
    expect(refused.response.status).toBe(403);
    expect(refused.error).toMatchObject({ code: expect.any(String), message: expect.any(String) });
  });
});
