import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Role } from "~/db/enums";
import type { Entity, User } from "~/db/schema";
import * as dashboardRoute from "~/routes/api/dashboard";
import * as entityRoute from "~/routes/api/entities.$id";
import * as incidentsRoute from "~/routes/api/incidents";
import { createBuilding, createEntity, createIncident, createRoom, createUser } from "#tests/factories";
import { type ApiHarness, callApi, startApiRuntime } from "#tests/api-helpers";

/**
 * The entity's time zone end to end through the API: PUT /api/entities/{id} sets it (an unknown zone is
 * a 400 on the field); the next request's context carries it, read with the token's session check, and
 * the incidents' date filters and the dashboard's months follow it.
 */
let api: ApiHarness;
let entity: Entity;
let admin: User;
let technician: User;

// 04:30 UTC on 1 March 2026: 28 February, 23:30 in New York; 1 March, 05:30 in Brussels.
const AT = "2026-03-01T04:30:00Z";

const body = (timeZone?: unknown) => ({
  name: "Springfield",
  vatNumber: "BE0123456789",
  address: { streetName: "Main Street", streetNumber: "1", postalCode: "1000", city: "Brussels", country: "BE" },
  greetingsMessages: [
    { language: 0, message: "Hello" },
    { language: 1, message: "Bonjour" },
    { language: 2, message: "Hallo" },
  ],
  templateColor: "#1e3a8a",
  templateTextColor: "#ffffff",
  ...(timeZone === undefined ? {} : { timeZone }),
});

beforeAll(async () => {
  api = await startApiRuntime();
  const db = api.database.db;
  entity = await createEntity(db);
  admin = await createUser(db, { entityId: entity.id, role: Role.ADMINISTRATOR });
  technician = await createUser(db, { entityId: entity.id, role: Role.TECHNICIAN });
  const room = await createRoom(db, { entityId: entity.id, buildingId: (await createBuilding(db, { entityId: entity.id })).id });
  await createIncident(db, { entityId: entity.id, roomId: room.id, title: "Late in February in New York", createdAt: new Date(AT) });
});

afterAll(async () => {
  await api?.close();
});

describe(`the entity's time zone through the API (${process.env.DATABASE_URL ? "PostgreSQL" : "PGlite"})`, () => {
  const put = async (user: User, timeZone?: unknown) =>
    callApi(entityRoute, `/api/entities/${entity.id}`, { method: "PUT", token: await api.token(user), params: { id: String(entity.id) }, body: body(timeZone) });
  const months = async () => {
    const res = await callApi(dashboardRoute, "/api/dashboard?from=2026-02-01&to=2026-03-31", { token: await api.token(admin) });
    expect(res.status).toBe(200);
    return [res.body.timeZone, res.body.months.map((m: { month: string; created: number }) => [m.month, m.created])];
  };
  const onDay = async (day: string) => {
    const res = await callApi(incidentsRoute, `/api/incidents?from=${day}&to=${day}`, { token: await api.token(admin) });
    expect(res.status).toBe(200);
    return res.body.length;
  };

  it("is Brussels by default: the incident falls on 1 March", async () => {
    expect((await callApi(entityRoute, `/api/entities/${entity.id}`, { token: await api.token(admin), params: { id: String(entity.id) } })).body.timeZone).toBe("Europe/Brussels");
    expect(await months()).toEqual(["Europe/Brussels", [["2026-02", 0], ["2026-03", 1]]]);
    expect(await onDay("2026-03-01")).toBe(1);
    expect(await onDay("2026-02-28")).toBe(0);
  });

  it("refuses an unknown zone with a translated field error, and a technician", async () => {
    const res = await put(admin, "Mars/Olympus_Mons");
    expect(res.status).toBe(400);
    expect(res.body.fieldErrors?.timeZone).toEqual(["Choose a time zone from the list"]);
    expect(res.body.fieldErrorKeys?.timeZone).toEqual(["settings:validation.timeZone"]);
    expect((await put(technician, "America/New_York")).status).toBe(403);
  });

  it("sets New York: the next requests' filters and months follow it; a PUT without the field keeps it", async () => {
    const res = await put(admin, "America/New_York");
    expect(res.status).toBe(200);
    expect(res.body.timeZone).toBe("America/New_York");
    expect(await months()).toEqual(["America/New_York", [["2026-02", 1], ["2026-03", 0]]]);
    expect(await onDay("2026-02-28")).toBe(1);
    expect(await onDay("2026-03-01")).toBe(0);
    expect((await put(admin)).body.timeZone).toBe("America/New_York");
  });
});
