import type { LoaderFunctionArgs } from "@remix-run/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { personActor } from "~/core/actor";
import { DataJobStatus, Role } from "~/db/enums";
import type { Entity, User } from "~/db/schema";
import en from "~/locales/en/exports.json";
import { createApiToken } from "~/modules/api-tokens/service.server";
import { plainT } from "~/modules/exports/format";
import { runExport } from "~/modules/exports/service.server";
import * as fileRoute from "~/routes/api/exports.$id.file";
import * as exportsRoute from "~/routes/api/exports";
import * as buildingsRoute from "~/routes/api/facilities.buildings";
import * as roomsRoute from "~/routes/api/facilities.rooms";
import * as facilitiesRoute from "~/routes/api/facilities";
import * as incidentsRoute from "~/routes/api/incidents";
import { createBuilding, createEntity, createFacility, createIncident, createRoom, createUser } from "#tests/factories";
import { type ApiHarness, apiContext, callApi, startApiRuntime } from "#tests/api-helpers";

/**
 * A manager-role API token limited to one facility (issue 60 item 9): every list call and every export
 * it starts shows that facility's rows only, never another facility's (here one only the administrator who
 * made the token reaches). The exports run as the `export` job runs them.
 */
let api: ApiHarness;
let entity: Entity;
let admin: User;
let secret: string;

async function download(id: number): Promise<string> {
  const request = new Request(`http://x/api/exports/${id}/file`, { headers: { authorization: `Bearer ${secret}`, "x-language": "en" } });
  const response = await (fileRoute.loader as (args: LoaderFunctionArgs) => Promise<Response>)({ request, params: { id: String(id) }, context: apiContext() } as unknown as LoaderFunctionArgs);
  expect(response.status).toBe(200);
  return Buffer.from(await response.arrayBuffer()).toString("utf8");
}

async function exportThroughToken(type: string): Promise<string> {
  const started = await callApi(exportsRoute, "/api/exports", { method: "POST", token: secret, body: { type, format: "csv" } });
  expect(started.status).toBe(201);
  const id = started.body.id as number;
  const result = await runExport({ db: api.database.db, files: api.files }, { entityId: entity.id, dataJobId: id }, { texts: () => plainT(en), retentionHours: 72 });
  expect(result.status).toBe(DataJobStatus.SUCCEEDED);
  return download(id);
}

beforeAll(async () => {
  api = await startApiRuntime();
  const db = api.database.db;
  entity = await createEntity(db);
  admin = await createUser(db, { entityId: entity.id, role: Role.ADMINISTRATOR });
  const north = await createFacility(db, { entityId: entity.id, name: "North campus" });
  const south = await createFacility(db, { entityId: entity.id, name: "South campus" });
  const northHall = await createBuilding(db, { entityId: entity.id, facilityId: north.id, name: "North hall" });
  const southHall = await createBuilding(db, { entityId: entity.id, facilityId: south.id, name: "South hall" });
  const northRoom = await createRoom(db, { entityId: entity.id, buildingId: northHall.id, name: "North lab" });
  const southRoom = await createRoom(db, { entityId: entity.id, buildingId: southHall.id, name: "South lab" });
  await createIncident(db, { entityId: entity.id, roomId: northRoom.id, title: "North leak" });
  await createIncident(db, { entityId: entity.id, roomId: southRoom.id, title: "South leak" });
  const made = await createApiToken(
    { db, entityId: entity.id, actor: personActor(admin), locale: "en", timeZone: "Europe/Brussels" },
    { name: "North integration", role: Role.FACILITY_MANAGER as 1, facilityIds: [north.id], expiresInDays: 30 },
  );
  secret = made.secret;
});

afterAll(async () => {
  await api?.close();
});

describe("an API token limited to one facility", () => {
  it.each([
    ["facilities", facilitiesRoute, "/api/facilities", "name", ["North campus"]],
    ["buildings", buildingsRoute, "/api/facilities/buildings", "name", ["North hall"]],
    ["rooms", roomsRoute, "/api/facilities/rooms", "name", ["North lab"]],
    ["incidents", incidentsRoute, "/api/incidents", "title", ["North leak"]],
  ] as const)("lists %s of its facility only", async (_name, route, url, field, expected) => {
    const answer = await callApi(route, url, { token: secret });
    expect(answer.status).toBe(200);
    expect(answer.body.map((row: Record<string, unknown>) => row[field])).toEqual(expected);
  });

  it.each([
    ["facilities", "North campus", "South campus"],
    ["buildings", "North hall", "South hall"],
    ["rooms", "North lab", "South lab"],
    ["incidents", "North leak", "South leak"],
  ])("exports %s of its facility only", async (type, kept, left) => {
    const file = await exportThroughToken(type);
    expect(file).toContain(kept);
    expect(file).not.toContain(left);
  });

  it.each(["users", "room-types", "incident-types", "maintenance-types", "maintenance-tasks", "generic-equipments", "planned-maintenance", "equipment-categories"])(
    "exports %s without another facility's places",
    async (type) => {
      const file = await exportThroughToken(type);
      for (const name of ["South campus", "South hall", "South lab", "South leak"]) expect(file).not.toContain(name);
    },
  );
});
