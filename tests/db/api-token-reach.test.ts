import type { LoaderFunctionArgs } from "@remix-run/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { personActor } from "~/core/actor";
import { DataJobStatus, Role } from "~/db/enums";
import { type Entity, type Incident, materialLines, type Room, type Task, timeEntries, type User, type EquipmentItem } from "~/db/schema";
import { API_OPERATIONS } from "~/http/openapi/operations.server";
import en from "~/locales/en/exports.json";
import { EXPORT_TYPE_NAMES } from "~/modules/exports/constants";
import { createApiToken } from "~/modules/api-tokens/service.server";
import { plainT } from "~/modules/exports/format";
import { runExport } from "~/modules/exports/service.server";
import * as fileRoute from "~/routes/api/exports.$id.file";
import * as exportsRoute from "~/routes/api/exports";
import * as buildingsRoute from "~/routes/api/facilities.buildings";
import * as roomsRoute from "~/routes/api/facilities.rooms";
import * as facilitiesRoute from "~/routes/api/facilities";
import * as incidentsRoute from "~/routes/api/incidents";
import { apiRoutes } from "~/route-access";
import {
  createBuilding,
  createEntity,
  createEquipmentItem,
  createFacility,
  createIncident,
  createIncidentComment,
  createMaintenanceCheck,
  createPlannedMaintenance,
  createRoom,
  createTask,
  createUser,
  linkUserTo,
} from "#tests/factories";
import { type ApiHarness, apiContext, callApi, type RouteModule, startApiRuntime } from "#tests/api-helpers";

/**
 * A manager-role API token limited to one facility (issue 60 item 9): every list call and every export
 * it starts shows that facility's rows only, never another facility's (here one only the administrator who
 * made the token reaches). The exports run as the `export` job runs them. Every record of the other
 * facility (places, incidents, people linked to it alone, equipment items, plans, comments, time and material) carries
 * "South" in its name, so that a list or a file naming any of them is seen to leak it.
 */
let api: ApiHarness;
let entity: Entity;
let admin: User;
let secret: string;
let northRoom: Room;
let southRoom: Room;
let northIncident: Incident;
let southIncident: Incident;
let northTask: Task;
let southTask: Task;
let northBoiler: EquipmentItem;
let southBoiler: EquipmentItem;
let checkedTypeId: number;

const routeModules = import.meta.glob<RouteModule>("../../app/routes/api/*.ts");
const SOUTH = /South/;
/** The other facility's places (a list of people names people, and must not name these). */
const SOUTH_PLACES = /South (campus|hall|lab)/;

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
  northRoom = await createRoom(db, { entityId: entity.id, buildingId: northHall.id, name: "North lab" });
  southRoom = await createRoom(db, { entityId: entity.id, buildingId: southHall.id, name: "South lab" });
  northIncident = await createIncident(db, { entityId: entity.id, roomId: northRoom.id, title: "North leak" });
  southIncident = await createIncident(db, { entityId: entity.id, roomId: southRoom.id, title: "South leak" });
  // People linked to one facility each, equipment, plans with their tasks and comments on both sides.
  const northTech = await createUser(db, { entityId: entity.id, role: Role.TECHNICIAN, name: "Nora", surname: "Northcott" });
  const southTech = await createUser(db, { entityId: entity.id, role: Role.TECHNICIAN, name: "Sam", surname: "Southby" });
  await linkUserTo(db, { entityId: entity.id, userId: northTech.id, facilityId: north.id });
  await linkUserTo(db, { entityId: entity.id, userId: southTech.id, facilityId: south.id });
  northBoiler = await createEquipmentItem(db, { entityId: entity.id, roomId: northRoom.id, internalReference: "North boiler" });
  southBoiler = await createEquipmentItem(db, { entityId: entity.id, roomId: southRoom.id, internalReference: "South boiler" });
  // A valve of the North boiler (the North boiler's children).
  await createEquipmentItem(db, { entityId: entity.id, roomId: northRoom.id, internalReference: "North valve", parentItemId: northBoiler.id });
  const northPlan = await createPlannedMaintenance(db, { entityId: entity.id, name: "North servicing", roomIds: [northRoom.id] });
  checkedTypeId = northPlan.maintenanceTypeId;
  await createMaintenanceCheck(db, { entityId: entity.id, maintenanceTypeId: checkedTypeId, label: "Seal intact" });
  const southPlan = await createPlannedMaintenance(db, { entityId: entity.id, name: "South servicing", roomIds: [southRoom.id] });
  northTask = await createTask(db, { entityId: entity.id, plannedMaintenanceId: northPlan.id, roomId: northRoom.id });
  southTask = await createTask(db, { entityId: entity.id, plannedMaintenanceId: southPlan.id, roomId: southRoom.id });
  await createIncidentComment(db, { entityId: entity.id, incidentId: northIncident.id, authorId: northTech.id, body: "North comment" });
  await createIncidentComment(db, { entityId: entity.id, incidentId: southIncident.id, authorId: southTech.id, body: "South comment" });
  // Time and material recorded on both sides.
  await db.insert(timeEntries).values([
    { entityId: entity.id, incidentId: northIncident.id, userId: northTech.id, workedOn: "2026-03-02", minutes: 30, note: "North work", createdById: northTech.id },
    { entityId: entity.id, incidentId: southIncident.id, userId: southTech.id, workedOn: "2026-03-02", minutes: 40, note: "South work", createdById: southTech.id },
    { entityId: entity.id, taskId: northTask.id, userId: northTech.id, workedOn: "2026-03-03", minutes: 20, note: "North task work", createdById: northTech.id },
    { entityId: entity.id, taskId: southTask.id, userId: southTech.id, workedOn: "2026-03-03", minutes: 25, note: "South task work", createdById: southTech.id },
  ]);
  await db.insert(materialLines).values([
    { entityId: entity.id, incidentId: northIncident.id, description: "North pipe", quantity: "1", unitCost: "5", createdById: northTech.id },
    { entityId: entity.id, incidentId: southIncident.id, description: "South pipe", quantity: "2", unitCost: "6", createdById: southTech.id },
    { entityId: entity.id, taskId: northTask.id, description: "North filter", quantity: "1", unitCost: "4", createdById: northTech.id },
    { entityId: entity.id, taskId: southTask.id, description: "South filter", quantity: "1", unitCost: "4", createdById: southTech.id },
  ]);
  const made = await createApiToken(
    { db, entityId: entity.id, actor: personActor(admin), locale: "en", timeZone: "Europe/Brussels" },
    { name: "North integration", role: Role.FACILITY_MANAGER as 1, facilityIds: [north.id], expiresInDays: 30 },
  );
  secret = made.secret;
});

afterAll(async () => {
  await api?.close();
});

/**
 * How each list GET of the contract is read through the token: "facility", rows of places (or of people
 * and things in them): the token's facility's, none of the other's; "catalogue", the entity's lists that
 * belong to no facility (types, categories, jobs): none of the other facility's names in them; "incident",
 * a list of one incident (or "task", one task): the token's facility's answers, the other's is not found; "item", a
 * list of one equipment item, alike; "checklist", a maintenance type's checks (the entity's catalogue); "people",
 * the entity's people (users are the entity's, not a facility's: a manager linked to one facility lists
 * them all too): none of the other facility's places in them; "own", a person's own, which no token reads
 * (decision 056).
 */
type ListKind = "facility" | "catalogue" | "checklist" | "incident" | "task" | "item" | "people" | "own";
const LIST_CHECKS: Record<string, { kind: ListKind; query?: () => string }> = {
  "api-users": { kind: "people" },
  "api-users-assignees": { kind: "people", query: () => `?entityIds=${entity.id}` },
  "api-user-notifications": { kind: "own" },
  "api-facilities": { kind: "facility" },
  "api-buildings": { kind: "facility" },
  "api-rooms": { kind: "facility" },
  "api-room-types": { kind: "catalogue" },
  "api-equipment-items": { kind: "facility", query: () => `?roomIds=${northRoom.id},${southRoom.id}` },
  "api-equipment-item-children": { kind: "item" },
  "api-equipment-types": { kind: "catalogue" },
  "api-equipment-categories": { kind: "catalogue" },
  "api-incident-types": { kind: "catalogue" },
  "api-incident-types-reportable": { kind: "catalogue", query: () => `?roomId=${northRoom.id}` },
  "api-incidents": { kind: "facility" },
  "api-incident-assignees": { kind: "incident" },
  "api-incident-comments": { kind: "incident" },
  "api-incident-events": { kind: "incident" },
  "api-incident-time-entries": { kind: "incident" },
  "api-incident-material-lines": { kind: "incident" },
  "api-tasks": { kind: "facility" },
  "api-task-time-entries": { kind: "task" },
  "api-task-material-lines": { kind: "task" },
  "api-maintenance-types": { kind: "catalogue" },
  "api-maintenance-type-checklist": { kind: "checklist" },
  "api-planned-maintenances": { kind: "facility" },
  "api-exports": { kind: "catalogue" },
  "api-imports": { kind: "catalogue" },
};

/** The list GETs of the contract: the operations whose answer is an array. */
const contractLists = Object.entries(API_OPERATIONS)
  .filter(([, operations]) => operations.some((o) => o.method === "get" && o.answer instanceof z.ZodArray))
  .map(([id]) => id)
  .sort();

async function listThroughToken(routeId: string, url: string, params: Record<string, string> = {}) {
  const route = apiRoutes.find((r) => r.id === routeId)!;
  const module = await routeModules[`../../app/${route.file}`]();
  return callApi(module, url, { token: secret, params });
}

const urlOf = (routeId: string, id?: number) => `/api/${apiRoutes.find((r) => r.id === routeId)!.path.replace(":id", String(id ?? ""))}`;

/** The exports of places (and incidents): the token's facility's row kept, the other's left out. */
const FACILITY_EXPORTS: [string, string, string][] = [
  ["facilities", "North campus", "South campus"],
  ["buildings", "North hall", "South hall"],
  ["rooms", "North lab", "South lab"],
  ["incidents", "North leak", "South leak"],
  ["time-entries", "North work", "South"],
  ["material-lines", "North pipe", "South"],
  ["equipment-items", "North boiler", "South boiler"],
];
/** The entity's people (see "people" above): none of the other facility's places in them. */
const PEOPLE_EXPORTS = ["users"];
/** The other exports: nothing of the other facility in them. */
const CATALOGUE_EXPORTS = ["room-types", "incident-types", "maintenance-types", "maintenance-tasks", "generic-equipments", "planned-maintenance", "equipment-categories"];

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

  it("checks every list of the contract (a new list fails here until it is added to LIST_CHECKS)", () => {
    expect(contractLists.length).toBeGreaterThan(15);
    expect(Object.keys(LIST_CHECKS).sort()).toEqual(contractLists);
  });

  it.each(Object.entries(LIST_CHECKS))("%s: only its facility's", async (routeId, { kind, query }) => {
    if (kind === "own") {
      expect((await listThroughToken(routeId, urlOf(routeId, admin.id), { id: String(admin.id) })).status).toBe(403);
      return;
    }
    if (kind === "incident" || kind === "item") {
      const [mine, theirs] = kind === "incident" ? [northIncident.id, southIncident.id] : [northBoiler.id, southBoiler.id];
      const north = await listThroughToken(routeId, urlOf(routeId, mine), { id: String(mine) });
      expect(north.status).toBe(200);
      expect(JSON.stringify(north.body)).not.toMatch(SOUTH);
      if (kind === "item") expect(JSON.stringify(north.body)).toMatch(/North valve/);
      expect((await listThroughToken(routeId, urlOf(routeId, theirs), { id: String(theirs) })).status).toBe(404);
      return;
    }
    if (kind === "checklist") {
      const checks = await listThroughToken(routeId, urlOf(routeId, checkedTypeId), { id: String(checkedTypeId) });
      expect(checks.status).toBe(200);
      expect(checks.body.map((c: { label: string }) => c.label)).toEqual(["Seal intact"]);
      return;
    }
    if (kind === "task") {
      const north = await listThroughToken(routeId, urlOf(routeId, northTask.id), { id: String(northTask.id) });
      expect(north.status).toBe(200);
      expect(JSON.stringify(north.body)).toMatch(/North/);
      expect(JSON.stringify(north.body)).not.toMatch(SOUTH);
      expect((await listThroughToken(routeId, urlOf(routeId, southTask.id), { id: String(southTask.id) })).status).toBe(404);
      return;
    }
    const answer = await listThroughToken(routeId, urlOf(routeId) + (query?.() ?? ""));
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(Array.isArray(answer.body)).toBe(true);
    expect(JSON.stringify(answer.body)).not.toMatch(kind === "people" ? SOUTH_PLACES : SOUTH);
    if (kind === "facility") expect(JSON.stringify(answer.body)).toMatch(/North/);
  });

  it("checks every export type", () => {
    expect([...FACILITY_EXPORTS.map(([type]) => type), ...CATALOGUE_EXPORTS, ...PEOPLE_EXPORTS].sort()).toEqual([...EXPORT_TYPE_NAMES].sort());
  });

  it.each(FACILITY_EXPORTS)("exports %s of its facility only", async (type, kept, left) => {
    const file = await exportThroughToken(type);
    expect(file).toContain(kept);
    expect(file).not.toContain(left);
  });

  it.each(CATALOGUE_EXPORTS)("exports %s without another facility's places, people and things", async (type) => {
    const file = await exportThroughToken(type);
    expect(file).not.toMatch(SOUTH);
  });

  it.each(PEOPLE_EXPORTS)("exports %s without another facility's places", async (type) => {
    const file = await exportThroughToken(type);
    expect(file).toMatch(/Northcott/);
    expect(file).not.toMatch(SOUTH_PLACES);
  });
});
