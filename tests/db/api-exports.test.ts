import type { LoaderFunctionArgs } from "@remix-run/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DataJobStatus, Role } from "~/db/enums";
import type { Entity, User } from "~/db/schema";
import en from "~/locales/en/exports.json";
import { plainT } from "~/modules/exports/format";
import { runExport } from "~/modules/exports/service.server";
import * as fileRoute from "~/routes/api/exports.$id.file";
import * as exportRoute from "~/routes/api/exports.$id";
import * as exportsRoute from "~/routes/api/exports";
import { createBuilding, createEntity, createFacility, createIncident, createRoom, createUser, linkUserTo } from "#tests/factories";
import { type ApiHarness, apiContext, callApi, startApiRuntime } from "#tests/api-helpers";

/**
 * REST calls of exports (issue 49, decision 055): start, list, status and download, with a bearer
 * token; a technician is refused (403), another entity's or another person's export is not found (404).
 */
let api: ApiHarness;
let entityA: Entity;
let admin: User;
let manager: User;
let otherManager: User;
let technician: User;
let stranger: User;
const tokens: Record<string, string> = {};

const one = (id: number | string) => ({ url: `/api/exports/${id}`, params: { id: String(id) } });

/** GET /api/exports/{id}/file: the status and, when 200, the bytes. */
async function download(token: string, id: number | string) {
  const request = new Request(`http://x/api/exports/${id}/file`, { headers: { authorization: `Bearer ${token}`, "x-language": "en" } });
  const response = await (fileRoute.loader as (args: LoaderFunctionArgs) => Promise<Response>)({ request, params: { id: String(id) }, context: apiContext() } as unknown as LoaderFunctionArgs);
  return { status: response.status, headers: response.headers, bytes: Buffer.from(await response.arrayBuffer()) };
}

async function run(id: number) {
  return runExport({ db: api.database.db, files: api.files }, { entityId: entityA.id, dataJobId: id }, { texts: () => plainT(en), retentionHours: 72 });
}

beforeAll(async () => {
  api = await startApiRuntime();
  const db = api.database.db;
  entityA = await createEntity(db);
  const entityB = await createEntity(db);
  admin = await createUser(db, { entityId: entityA.id, role: Role.ADMINISTRATOR });
  manager = await createUser(db, { entityId: entityA.id, role: Role.FACILITY_MANAGER });
  otherManager = await createUser(db, { entityId: entityA.id, role: Role.FACILITY_MANAGER });
  technician = await createUser(db, { entityId: entityA.id, role: Role.TECHNICIAN });
  stranger = await createUser(db, { entityId: entityB.id, role: Role.ADMINISTRATOR });
  const facility = await createFacility(db, { entityId: entityA.id });
  const building = await createBuilding(db, { entityId: entityA.id, facilityId: facility.id });
  const room = await createRoom(db, { entityId: entityA.id, buildingId: building.id });
  await linkUserTo(db, { entityId: entityA.id, userId: manager.id, facilityId: facility.id });
  await createIncident(db, { entityId: entityA.id, roomId: room.id, title: "Flooded basement" });
  for (const [name, user] of Object.entries({ admin, manager, otherManager, technician, stranger })) tokens[name] = await api.token(user);
});

afterAll(async () => {
  await api?.close();
});

describe("/api/exports", () => {
  it("starts an export (201), reads its status, and downloads its file once ready", async () => {
    const started = await callApi(exportsRoute, "/api/exports", { method: "POST", token: tokens.manager, body: { type: "incidents", format: "csv", filters: { status: [0, 1] } } });
    expect(started.status).toBe(201);
    expect(started.body).toMatchObject({ slug: "incidents", format: "csv", status: DataJobStatus.QUEUED, fileId: null });
    const id = started.body.id as number;
    expect((await download(tokens.manager, id)).status).toBe(404); // not ready yet
    expect(await run(id)).toMatchObject({ status: DataJobStatus.SUCCEEDED, rows: 1 });
    const status = await callApi(exportRoute, one(id).url, { token: tokens.manager, params: one(id).params });
    expect(status.status).toBe(200);
    expect(status.body).toMatchObject({ id, status: DataJobStatus.SUCCEEDED, progress: 100, processedRows: 1, expired: false });
    const file = await download(tokens.manager, id);
    expect(file.status).toBe(200);
    expect(file.headers.get("content-type")).toBe("text/csv");
    expect(file.headers.get("content-disposition")).toMatch(/^attachment; filename\*=UTF-8''incidents-/);
    expect(file.bytes.toString("utf8")).toContain("Flooded basement");
    const list = await callApi(exportsRoute, "/api/exports?type=incidents", { token: tokens.manager });
    expect(list.body.map((e: { id: number }) => e.id)).toContain(id);
    // The administrator sees it too; another manager and another entity do not.
    expect((await callApi(exportRoute, one(id).url, { token: tokens.admin, params: one(id).params })).status).toBe(200);
    expect((await download(tokens.admin, id)).status).toBe(200);
    for (const who of ["otherManager", "stranger"]) {
      const answer = await callApi(exportRoute, one(id).url, { token: tokens[who], params: one(id).params });
      expect(answer.status).toBe(404);
      expect(answer.body.code).toBe("EXPORT_NOT_FOUND");
      expect((await download(tokens[who], id)).status).toBe(404);
    }
    expect((await callApi(exportsRoute, "/api/exports", { token: tokens.otherManager })).body.map((e: { id: number }) => e.id)).not.toContain(id);
  });

  it("refuses a technician (403) on every call, and a visitor (401)", async () => {
    const post = await callApi(exportsRoute, "/api/exports", { method: "POST", token: tokens.technician, body: { type: "incidents", format: "xlsx" } });
    expect(post.status).toBe(403);
    expect((await callApi(exportsRoute, "/api/exports", { token: tokens.technician })).status).toBe(403);
    expect((await callApi(exportRoute, one(1).url, { token: tokens.technician, params: one(1).params })).status).toBe(403);
    expect((await download(tokens.technician, 1)).status).toBe(403);
    expect((await callApi(exportsRoute, "/api/exports", { method: "POST", body: { type: "incidents" } })).status).toBe(401);
  });

  it("answers bad input with a translated 400, and unknown ids with 404", async () => {
    const bad = await callApi(exportsRoute, "/api/exports", { method: "POST", token: tokens.admin, body: { type: "spaceships", format: "xlsx" } });
    expect(bad.status).toBe(400);
    expect(bad.body.fieldErrors.type).toEqual(["Choose what to export"]);
    const filter = await callApi(exportsRoute, "/api/exports", { method: "POST", token: tokens.admin, body: { type: "incidents", filters: { from: "\u0000" } } });
    expect(filter.status).toBe(400);
    expect((await callApi(exportsRoute, "/api/exports?type=nope", { token: tokens.admin })).status).toBe(400);
    expect((await callApi(exportsRoute, "/api/exports", { method: "POST", token: tokens.admin, body: "{not json" })).status).toBe(400);
    expect((await callApi(exportsRoute, "/api/exports", { method: "PUT", token: tokens.admin, body: {} })).status).toBe(405);
    for (const id of ["2147483648", "-1", "abc", "\u0000"]) {
      expect((await callApi(exportRoute, `/api/exports/${encodeURIComponent(id)}`, { token: tokens.admin, params: { id } })).status).toBe(404);
      expect((await download(tokens.admin, encodeURIComponent(id))).status).toBe(404);
    }
  });
});
