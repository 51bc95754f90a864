import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { z } from "zod";
import { Role } from "~/db/enums";
import type { Entity, Facility, User } from "~/db/schema";
import { ErrorAnswer } from "~/http/openapi/answers";
import { buildOpenApiDocument, openApiPath } from "~/http/openapi/document.server";
import { API_OPERATIONS, UNDOCUMENTED_ROUTES } from "~/http/openapi/operations.server";
import { apiRoutes } from "~/route-access";
import { createBuilding, createEntity, createFacility, createIncident, createRoom, createUser, linkUserTo } from "#tests/factories";
import { type ApiHarness, startApiRuntime } from "#tests/api-helpers";
import { dispatchApi, matchApiRoute } from "#tests/openapi/dispatch";
import { generatedTypes } from "#tests/openapi/generate";

/**
 * The contract between the route table and the OpenAPI document (decision 056). It fails when a route
 * under /api has no operations in the registry (every new route must be described), when the registry
 * or the document names a route that does not exist, when a route answers other methods than the
 * documented ones, when sample answers do not fit their documented shape, and when the client types
 * generated from the document (tests/openapi/api-types.ts) are out of date.
 */
let api: ApiHarness;
let entity: Entity;
let admin: User;
let technician: User;
let facility: Facility;
let incidentId: number;
let adminToken: string;
let technicianToken: string;

beforeAll(async () => {
  api = await startApiRuntime();
  const db = api.database.db;
  entity = await createEntity(db, { name: "Contract" });
  admin = await createUser(db, { entityId: entity.id, role: Role.ADMINISTRATOR });
  technician = await createUser(db, { entityId: entity.id, role: Role.TECHNICIAN });
  facility = await createFacility(db, { entityId: entity.id, name: "Main site" });
  const building = await createBuilding(db, { entityId: entity.id, facilityId: facility.id });
  const room = await createRoom(db, { entityId: entity.id, buildingId: building.id });
  incidentId = (await createIncident(db, { entityId: entity.id, roomId: room.id })).id;
  await linkUserTo(db, { entityId: entity.id, userId: technician.id, facilityId: facility.id });
  [adminToken, technicianToken] = await Promise.all([api.token(admin), api.token(technician)]);
});
afterAll(async () => {
  await api?.close();
});

const documented = apiRoutes.filter((route) => !UNDOCUMENTED_ROUTES.has(route.id));

describe("the route table and the document", () => {
  it("describes every route under /api (a route without operations fails here), and nothing else", () => {
    const missing = documented.filter((route) => !API_OPERATIONS[route.id]?.length).map((route) => route.id);
    expect(missing, "routes of apiRoutes without operations in app/http/openapi/operations.server.ts").toEqual([]);
    const unknown = Object.keys(API_OPERATIONS).filter((id) => !apiRoutes.some((route) => route.id === id));
    expect(unknown, "operations naming no route of apiRoutes").toEqual([]);
    expect(apiRoutes.at(-1)?.id, "the catch-all stays last").toBe("api-not-found");
  });

  it("has a path for every documented route, and every path is answered by its route (not the catch-all)", () => {
    const doc = buildOpenApiDocument(apiRoutes);
    expect(doc.openapi).toBe("3.1.0");
    for (const route of documented) expect(doc.paths[openApiPath(route)], route.id).toBeDefined();
    for (const path of Object.keys(doc.paths)) {
      const concrete = path.replace(/\{[A-Za-z]+\}/g, "7");
      const match = matchApiRoute(concrete);
      expect(match?.route.id, path).not.toBe("api-not-found");
      expect(openApiPath(match!.route), path).toBe(path);
    }
  });

  it("documents exactly the methods each route answers (405 Allow names the others)", async () => {
    for (const route of documented.filter((r) => API_OPERATIONS[r.id][0].audience !== "visitor")) {
      const methods = API_OPERATIONS[route.id].map((o) => o.method.toUpperCase()).sort();
      const url = `http://x${openApiPath(route).replace(/\{[A-Za-z]+\}/g, "1")}`;
      const answer = await dispatchApi(new Request(url, { method: "OPTIONS", headers: { authorization: `Bearer ${adminToken}` } }));
      // The visitor calls refuse other methods without naming theirs; the public pages take any method.
      if (answer.status !== 405 || !answer.headers.get("allow")) continue;
      const allowed = (answer.headers.get("allow") ?? "").split(",").map((m) => m.trim()).filter(Boolean).sort();
      expect(allowed, route.id).toEqual(methods);
    }
  });

  it("keeps the client types generated from the document current", async () => {
    const file = path.resolve("tests/openapi/api-types.ts");
    const fresh = await generatedTypes();
    if (process.env.UPDATE_API_TYPES === "1") fs.writeFileSync(file, fresh);
    expect(fs.readFileSync(file, "utf8"), "run UPDATE_API_TYPES=1 npx vitest run tests/db/openapi-contract.test.ts").toBe(fresh);
  });
});

describe("answers fit their documented shapes", () => {
  const answerOf = (routeId: string, method: string): z.ZodType => API_OPERATIONS[routeId].find((o) => o.method === method)!.answer;

  async function call(method: string, url: string, token: string | null, body?: unknown) {
    const headers: Record<string, string> = { "x-language": "en" };
    if (token) headers.authorization = `Bearer ${token}`;
    if (body !== undefined) headers["content-type"] = "application/json";
    const res = await dispatchApi(new Request(`http://x${url}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) }));
    return { status: res.status, headers: res.headers, body: res.headers.get("content-type")?.includes("json") ? await res.json() : await res.text() };
  }

  it("for a sample of calls of every area", async () => {
    const samples: [string, string, string, string, unknown?][] = [
      ["api-facilities", "get", "/api/facilities", adminToken],
      ["api-facility", "get", `/api/facilities/${facility.id}`, adminToken],
      ["api-buildings", "get", "/api/facilities/buildings", adminToken],
      ["api-rooms", "get", "/api/facilities/rooms", adminToken],
      ["api-room-types", "get", "/api/facilities/rooms/roomtype", adminToken],
      ["api-equipment-types", "get", "/api/equipments/type", adminToken],
      ["api-equipment-categories", "get", "/api/equipments/category", adminToken],
      ["api-users", "get", "/api/users", adminToken],
      ["api-user", "get", `/api/users/${technician.id}`, technicianToken],
      ["api-user-notifications-count", "get", `/api/users/${technician.id}/notifications/count`, technicianToken],
      ["api-user-notifications", "get", `/api/users/${technician.id}/notifications`, technicianToken],
      ["api-incidents", "get", "/api/incidents", technicianToken],
      ["api-tasks", "get", "/api/tasks", technicianToken],
      ["api-maintenance-types", "get", "/api/maintenances/types", adminToken],
      ["api-planned-maintenances", "get", "/api/maintenances/planned", adminToken],
      ["api-entity", "get", `/api/entities/${entity.id}`, adminToken],
      ["api-entity-hourly-rates", "get", `/api/entities/${entity.id}/hourly-rates`, adminToken],
      ["api-entity-hourly-rates", "put", `/api/entities/${entity.id}/hourly-rates`, adminToken, { currency: "EUR", defaultRate: "42.50", rates: [{ userId: technician.id, rate: "45" }] }],
      ["api-dashboard", "get", "/api/dashboard", adminToken],
      // The clock: none running, started, running, stopped.
      ["api-user-clock", "get", `/api/users/${technician.id}/clock`, technicianToken],
      ["api-incident-clock-start", "post", `/api/incidents/${incidentId}/clock/start`, technicianToken],
      ["api-user-clock", "get", `/api/users/${technician.id}/clock`, technicianToken],
      ["api-incident-clock-stop", "post", `/api/incidents/${incidentId}/clock/stop`, technicianToken],
      ["api-facilities", "post", "/api/facilities", adminToken, { name: "From the contract", description: null }],
    ];
    for (const [routeId, method, url, token, body] of samples) {
      const answer = await call(method.toUpperCase(), url, token, body);
      const operation = API_OPERATIONS[routeId].find((o) => o.method === method)!;
      expect(answer.status, `${method} ${url}`).toBe(operation.status ?? 200);
      const parsed = answerOf(routeId, method).safeParse(answer.body);
      expect(parsed.success ? null : parsed.error.issues, `${method} ${url}`).toBeNull();
      for (const header of ["ratelimit-limit", "ratelimit-remaining", "ratelimit-reset"]) expect(answer.headers.get(header), `${url} ${header}`).not.toBeNull();
      if (operation.list) expect(answer.headers.get("x-total-count") ?? "", `${url} X-Total-Count`).toMatch(/^\d+$/);
    }
    const login = await call("POST", "/api/authentication/login", null, { username: admin.email, password: "wrong" });
    expect(answerOf("api-login", "post").safeParse(login.body).success || ErrorAnswer.safeParse(login.body).success).toBe(true);
  });

  it("and errors answer the documented Error body", async () => {
    const errors = [
      await call("GET", "/api/facilities/999999", adminToken),
      await call("GET", "/api/users", technicianToken),
      await call("POST", "/api/facilities", adminToken, { name: "" }),
      await call("GET", "/api/facilities", null),
      await call("GET", "/api/nothing-here", adminToken),
    ];
    expect(errors.map((e) => e.status)).toEqual([404, 403, 400, 401, 404]);
    for (const error of errors) expect(ErrorAnswer.safeParse(error.body).success, JSON.stringify(error.body)).toBe(true);
  });

  it("serves the document and its page", async () => {
    const json = await call("GET", "/api/openapi.json", null);
    expect(json.status).toBe(200);
    expect(json.body.openapi).toBe("3.1.0");
    expect(Object.keys(json.body.paths)).toContain("/api/facilities/rooms/{id}");
    const page = await call("GET", "/api/docs", null);
    expect(page.status).toBe(200);
    expect(page.body).toContain("PUT</span> <code>/api/facilities/rooms/{id}</code>");
    // Self-contained: no script, no stylesheet or image from anywhere.
    expect(page.body).not.toMatch(/<script|<link|src=|https?:\/\/(?!x)/i);
  });
});
