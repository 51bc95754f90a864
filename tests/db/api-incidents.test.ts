import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { and, asc, eq, inArray, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { IncidentEventType, IncidentStatus, Priority, Role } from "~/db/enums";
import {
  type Entity,
  type Incident,
  incidentComments,
  incidentEvents,
  incidentFiles,
  incidents,
  type Room,
  type User,
} from "~/db/schema";
import * as assigneeRoute from "~/routes/api/incidents.$id.assignee";
import * as assigneesRoute from "~/routes/api/incidents.$id.assignees";
import * as commentRoute from "~/routes/api/incidents.$id.comments.$commentId";
import * as commentsRoute from "~/routes/api/incidents.$id.comments";
import * as duplicateRoute from "~/routes/api/incidents.$id.duplicate";
import * as eventsRoute from "~/routes/api/incidents.$id.events";
import * as fileRoute from "~/routes/api/incidents.$id.files.$fileId";
import * as filesRoute from "~/routes/api/incidents.$id.files";
import * as priorityRoute from "~/routes/api/incidents.$id.priority";
import * as statusRoute from "~/routes/api/incidents.$id.status";
import * as tagRoute from "~/routes/api/incidents.$id.tags.$tag";
import * as tagsRoute from "~/routes/api/incidents.$id.tags";
import * as incidentRoute from "~/routes/api/incidents.$id";
import * as workOrderRoute from "~/routes/api/incidents.$id.work-order";
import * as bulkRoute from "~/routes/api/incidents.bulk";
import * as incidentsRoute from "~/routes/api/incidents";
import {
  createBuilding,
  createEntity,
  createFacility,
  createIncident,
  createIncidentComment,
  createRoom,
  createUser,
  linkUserTo,
  pngBytes,
} from "#tests/factories";
import { type ApiHarness, apiContext, callApi, dataUrl, type RouteModule, startApiRuntime } from "#tests/api-helpers";

/**
 * The incident calls under /api/incidents (issue #12 part 6), through the route modules with a bearer
 * token: every call's answer, the JSON errors (code and translated message), another entity's and an
 * out-of-reach incident as 404, validation as 400 with field errors, the bulk change all or nothing, and
 * the events each change writes.
 */
let api: ApiHarness;
let entityA: Entity;
let entityB: Entity;
let roomA: Room & { reportCode: string | null };
let roomA2: Room;
let admin: User;
let manager: User;
let technician: User;
/** A technician of entity A linked to another facility: incidents in roomA are outside their reach. */
let outsider: User;
let otherAdmin: User;
let adminToken: string;
let managerToken: string;
let technicianToken: string;
let outsiderToken: string;
let otherToken: string;
/** An incident of entity B. */
let foreign: Incident;

const NOT_FOUND = { code: "INCIDENT_NOT_FOUND", message: "Incident not found" };
const VALIDATION = "Please correct the highlighted fields.";

const at = (id: number | string, tail = "") => ({ url: `/api/incidents/${id}${tail}`, params: { id: String(id) } });

async function newIncident(overrides: Partial<Parameters<typeof createIncident>[1]> = {}) {
  return createIncident(api.database.db, { entityId: entityA.id, roomId: roomA.id, title: "Leaking tap", ...overrides });
}

async function row(id: number) {
  const [r] = await api.database.db.select().from(incidents).where(eq(incidents.id, id));
  return r;
}

async function eventsOf(id: number) {
  return api.database.db.select().from(incidentEvents).where(eq(incidentEvents.incidentId, id)).orderBy(asc(incidentEvents.id));
}

/** Calls a route with a raw body (multipart, or text with a given type); answers JSON or bytes. */
async function callRaw(route: RouteModule, url: string, init: { method?: string; token: string; body?: BodyInit; headers?: Record<string, string>; params: Record<string, string> }) {
  const method = init.method ?? "GET";
  const headers = new Headers({ "x-language": "en", authorization: `Bearer ${init.token}`, ...(init.headers ?? {}) });
  const request = new Request(`http://x${url}`, { method, headers, body: init.body });
  const handler = (method === "GET" ? route.loader : route.action) as (args: LoaderFunctionArgs & ActionFunctionArgs) => Promise<Response>;
  const response = await handler({ request, params: init.params, context: apiContext() } as unknown as LoaderFunctionArgs & ActionFunctionArgs);
  const bytes = Buffer.from(await response.arrayBuffer());
  const json = (response.headers.get("content-type") ?? "").includes("json") ? JSON.parse(bytes.toString("utf8")) : null;
  return { status: response.status, headers: response.headers, bytes, body: json };
}

function pngFile(name = "photo.png"): File {
  return new File([new Uint8Array(pngBytes(4, 4))], name, { type: "image/png" });
}

beforeAll(async () => {
  api = await startApiRuntime();
  const db = api.database.db;
  entityA = await createEntity(db, { name: "Entity A" });
  entityB = await createEntity(db, { name: "Entity B" });
  const facilityA = await createFacility(db, { entityId: entityA.id, name: "Campus A" });
  const buildingA = await createBuilding(db, { entityId: entityA.id, facilityId: facilityA.id, name: "Block A" });
  roomA = await createRoom(db, { entityId: entityA.id, buildingId: buildingA.id, name: "Room A1", floor: "1" });
  const facilityA2 = await createFacility(db, { entityId: entityA.id, name: "Campus A2" });
  const buildingA2 = await createBuilding(db, { entityId: entityA.id, facilityId: facilityA2.id, name: "Block A2" });
  roomA2 = await createRoom(db, { entityId: entityA.id, buildingId: buildingA2.id, name: "Room A2" });
  const roomB = await createRoom(db, { entityId: entityB.id });

  admin = await createUser(db, { entityId: entityA.id, role: Role.ADMINISTRATOR, name: "Ada", surname: "Admin" });
  manager = await createUser(db, { entityId: entityA.id, role: Role.FACILITY_MANAGER, name: "Max", surname: "Manager" });
  technician = await createUser(db, { entityId: entityA.id, role: Role.TECHNICIAN, name: "Ted", surname: "Tech" });
  outsider = await createUser(db, { entityId: entityA.id, role: Role.TECHNICIAN, name: "Olga", surname: "Outside" });
  otherAdmin = await createUser(db, { entityId: entityB.id, role: Role.ADMINISTRATOR, name: "Otto", surname: "Other" });
  await linkUserTo(db, { entityId: entityA.id, userId: manager.id, facilityId: facilityA.id });
  await linkUserTo(db, { entityId: entityA.id, userId: technician.id, facilityId: facilityA.id });
  await linkUserTo(db, { entityId: entityA.id, userId: outsider.id, buildingId: buildingA2.id });
  foreign = await createIncident(db, { entityId: entityB.id, roomId: roomB.id, title: "Foreign" });
  [adminToken, managerToken, technicianToken, outsiderToken, otherToken] = await Promise.all(
    [admin, manager, technician, outsider, otherAdmin].map((u) => api.token(u)),
  );
});

afterAll(async () => {
  await api?.close();
});

describe("every /api/incidents call", () => {
  const calls: [RouteModule, string, string, string][] = [
    [incidentsRoute, "/api/incidents", "GET", ""],
    [bulkRoute, "/api/incidents/bulk", "POST", ""],
    [incidentRoute, "/api/incidents/1", "GET", ""],
    [incidentRoute, "/api/incidents/1", "PATCH", ""],
    [statusRoute, "/api/incidents/1/status", "PUT", ""],
    [priorityRoute, "/api/incidents/1/priority", "PUT", ""],
    [assigneeRoute, "/api/incidents/1/assignee", "PUT", ""],
    [assigneesRoute, "/api/incidents/1/assignees", "GET", ""],
    [tagsRoute, "/api/incidents/1/tags", "POST", ""],
    [tagRoute, "/api/incidents/1/tags/x", "DELETE", "x"],
    [duplicateRoute, "/api/incidents/1/duplicate", "POST", ""],
    [commentsRoute, "/api/incidents/1/comments", "GET", ""],
    [commentsRoute, "/api/incidents/1/comments", "POST", ""],
    [commentRoute, "/api/incidents/1/comments/1", "PUT", ""],
    [commentRoute, "/api/incidents/1/comments/1", "DELETE", ""],
    [eventsRoute, "/api/incidents/1/events", "GET", ""],
    [filesRoute, "/api/incidents/1/files", "POST", ""],
    [fileRoute, "/api/incidents/1/files/1", "DELETE", ""],
    [workOrderRoute, "/api/incidents/1/work-order", "GET", ""],
  ];

  it("answers 401 without a token or with a bad one", async () => {
    for (const [route, url, method, tag] of calls) {
      const params = { id: "1", commentId: "1", fileId: "1", ...(tag ? { tag } : {}) };
      const body = method === "GET" || method === "DELETE" ? undefined : {};
      const none = await callApi(route, url, { method, params, body });
      expect(none.status, `${method} ${url}`).toBe(401);
      expect(none.body).toMatchObject({ code: "UNAUTHORIZED", message: "User session expired" });
      expect((await callApi(route, url, { method, params, body, token: "not-a-jwt" })).status, `${method} ${url}`).toBe(401);
    }
  });

  it("answers 405 with Allow for a method the address does not take", async () => {
    const cases: [RouteModule, string, string, string][] = [
      [incidentsRoute, "/api/incidents", "POST", "GET"],
      [bulkRoute, "/api/incidents/bulk", "GET", "POST"],
      [bulkRoute, "/api/incidents/bulk", "PUT", "POST"],
      [incidentRoute, "/api/incidents/1", "PUT", "GET, PATCH"],
      [incidentRoute, "/api/incidents/1", "DELETE", "GET, PATCH"],
      [statusRoute, "/api/incidents/1/status", "GET", "PUT"],
      [statusRoute, "/api/incidents/1/status", "PATCH", "PUT"],
      [priorityRoute, "/api/incidents/1/priority", "POST", "PUT"],
      [assigneeRoute, "/api/incidents/1/assignee", "GET", "PUT"],
      [assigneesRoute, "/api/incidents/1/assignees", "POST", "GET"],
      [tagsRoute, "/api/incidents/1/tags", "GET", "POST"],
      [tagRoute, "/api/incidents/1/tags/x", "POST", "DELETE"],
      [duplicateRoute, "/api/incidents/1/duplicate", "PUT", "POST"],
      [commentsRoute, "/api/incidents/1/comments", "DELETE", "GET, POST"],
      [commentRoute, "/api/incidents/1/comments/1", "GET", "PUT, DELETE"],
      [commentRoute, "/api/incidents/1/comments/1", "POST", "PUT, DELETE"],
      [eventsRoute, "/api/incidents/1/events", "POST", "GET"],
      [filesRoute, "/api/incidents/1/files", "GET", "POST"],
      [fileRoute, "/api/incidents/1/files/1", "GET", "DELETE"],
      [workOrderRoute, "/api/incidents/1/work-order", "POST", "GET"],
    ];
    for (const [route, url, method, allow] of cases) {
      const res = await callApi(route, url, { method, params: { id: "1", commentId: "1", fileId: "1", tag: "x" }, token: managerToken });
      expect(res.status, `${method} ${url}`).toBe(405);
      expect(res.body.code).toBe("METHOD_NOT_ALLOWED");
      expect(res.headers.get("Allow"), `${method} ${url}`).toBe(allow);
    }
  });

  it("is 404 INCIDENT_NOT_FOUND for a malformed id, another entity's incident or one outside reach, on every call", async () => {
    const inReach = await newIncident();
    const bodies: Record<string, unknown> = {
      PATCH: { title: "x" },
      "PUT /status": { status: 1 },
      "PUT /priority": { priority: 1 },
      "PUT /assignee": { assigneeId: null },
      "POST /tags": { tag: "x" },
      "POST /duplicate": { duplicateOf: inReach.shortId },
      "POST /comments": { body: "hello" },
      "PUT /comments/1": { body: "hello" },
      "POST /files": { files: [{ name: "a.png", data: dataUrl(pngBytes(2, 2)) }] },
    };
    const perIncident = calls.filter(([route]) => route !== incidentsRoute && route !== bulkRoute);
    const cases: [string, string][] = [
      ["abc", adminToken],
      ["0", adminToken],
      ["-1", adminToken],
      ["2147483648", adminToken],
      ["99999999", adminToken],
      [String(foreign.id), adminToken],
      [String(inReach.id), outsiderToken],
      [String(inReach.id), otherToken],
    ];
    for (const [id, token] of cases) {
      for (const [route, url, method, tag] of perIncident) {
        const tail = url.replace(/^\/api\/incidents\/1/, "");
        const key = method === "PATCH" ? "PATCH" : `${method} ${tail}`;
        const res = await callApi(route, `/api/incidents/${id}${tail}`, {
          method,
          token,
          params: { id, commentId: "1", fileId: "00000000-0000-4000-8000-000000000000", ...(tag ? { tag } : {}) },
          body: bodies[key],
        });
        expect(res.status, `${method} ${id}${tail}`).toBe(404);
        expect(res.body, `${method} ${id}${tail}`).toMatchObject(NOT_FOUND);
      }
    }
    // Nothing was written on the incident the outsider and the other entity tried.
    expect((await eventsOf(inReach.id)).map((e) => e.type)).toEqual([IncidentEventType.CREATED]);
    expect(await row(inReach.id)).toMatchObject({ status: IncidentStatus.PENDING, title: "Leaking tap", tags: [] });
  });

  it("answers errors in the caller's language", async () => {
    const res = await callRaw(incidentRoute, "/api/incidents/abc", { token: adminToken, params: { id: "abc" }, headers: { "x-language": "nl-BE" } });
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ code: "INCIDENT_NOT_FOUND", messageKey: "incidents:errors.notFound" });
    expect(res.body.message).not.toBe("Incident not found");
  });
});

describe("GET /api/incidents", () => {
  let listed: Incident[];
  beforeAll(async () => {
    const db = api.database.db;
    const e = await createEntity(db, { name: "List entity" });
    const f = await createFacility(db, { entityId: e.id });
    const b = await createBuilding(db, { entityId: e.id, facilityId: f.id });
    const r = await createRoom(db, { entityId: e.id, buildingId: b.id });
    const r2 = await createRoom(db, { entityId: e.id });
    const listAdmin = await createUser(db, { entityId: e.id, role: Role.ADMINISTRATOR, email: "list-admin@example.test" });
    const listTech = await createUser(db, { entityId: e.id, role: Role.TECHNICIAN, email: "list-tech@example.test", name: "Lis", surname: "Tech" });
    await linkUserTo(db, { entityId: e.id, userId: listTech.id, facilityId: f.id });
    const base = new Date("2026-11-01T10:00:00Z").getTime();
    const specs: [string, IncidentStatus, Priority | null, number | null, number][] = [
      ["Broken window", IncidentStatus.PENDING, Priority.HIGH, r.id, 0],
      ["Door squeaks", IncidentStatus.PENDING, Priority.LOW, r.id, 1],
      ["No heating", IncidentStatus.IN_PROGRESS, Priority.CRITICAL, r.id, 2],
      ["Light flickers", IncidentStatus.DONE, null, r2.id, 3],
      ["Broken chair", IncidentStatus.PENDING, Priority.HIGH, r2.id, 4],
      ["Old archived", IncidentStatus.ARCHIVED, Priority.LOW, r.id, 5],
    ];
    listed = [];
    for (const [title, status, priority, roomId, i] of specs) {
      listed.push(
        await createIncident(db, {
          entityId: e.id,
          roomId,
          title,
          status,
          priority,
          createdAt: new Date(base + i * 3600_000),
          assigneeId: i === 1 ? listTech.id : null,
          tags: i === 0 ? ["glass"] : [],
        }),
      );
    }
    listTokens = { admin: await api.token(listAdmin), tech: await api.token(listTech) };
  });
  let listTokens: { admin: string; tech: string };
  const list = (query: string, token = listTokens.admin) => callApi(incidentsRoute, `/api/incidents${query}`, { token });

  it("lists the incidents newest first with X-Total-Count, Archived left out", async () => {
    const res = await list("");
    expect(res.status).toBe(200);
    expect(res.headers.get("X-Total-Count")).toBe("5");
    expect(res.headers.get("X-Total-Count-Capped")).toBeNull();
    expect(res.body.map((r: { title: string }) => r.title)).toEqual(["Broken chair", "Light flickers", "No heating", "Door squeaks", "Broken window"]);
    expect(res.body[0]).toMatchObject({ id: expect.any(Number), shortId: expect.any(Number), status: 0, priority: 2, location: { roomId: expect.any(Number) } });
  });

  it("filters like the screen: status, priority (none too), assignee, tag, search, days", async () => {
    const titles = async (q: string, token?: string) => (await list(q, token)).body.map((r: { title: string }) => r.title);
    expect(await titles("?status=0&priority=2")).toEqual(["Broken chair", "Broken window"]);
    expect(await titles("?priority=none")).toEqual(["Light flickers"]);
    expect(await titles("?status=0,1&priority=3")).toEqual(["No heating"]);
    expect(await titles("?status=4")).toEqual(["Old archived"]);
    expect(await titles("?assignee=none&status=0")).toEqual(["Broken chair", "Broken window"]);
    expect(await titles("?assignee=me", listTokens.tech)).toEqual(["Door squeaks"]);
    expect(await titles("?tag=glass")).toEqual(["Broken window"]);
    expect(await titles("?q=broken")).toEqual(["Broken chair", "Broken window"]);
    expect(await titles(`?q=%23${listed[2].shortId}`)).toEqual(["No heating"]);
    expect(await titles("?from=2026-11-01&to=2026-11-01")).toHaveLength(5);
    expect(await titles("?from=2026-11-02")).toEqual([]);
  });

  it("sorts by the seven fields, pages with size", async () => {
    const res = await list("?sort=priority&dir=desc&size=2");
    expect(res.headers.get("X-Total-Count")).toBe("5");
    // Ties go by id, in the same direction: the newer of the two High ones first.
    expect(res.body.map((r: { title: string }) => r.title)).toEqual(["No heating", "Broken chair"]);
    const page3 = await list("?sort=priority&dir=desc&size=2&page=3");
    expect(page3.body.map((r: { title: string }) => r.title)).toEqual(["Light flickers"]);
    const byTitle = await list("?sort=title");
    expect(byTitle.body[0].title).toBe("Broken chair");
    // Unassigned last when ascending by assignee, first when descending (the only assigned one: "Door squeaks").
    const byAssignee = (await list("?sort=assignee&dir=asc")).body.map((r: { title: string }) => r.title);
    expect(byAssignee[0]).toBe("Door squeaks");
    const byAssigneeDesc = (await list("?sort=assignee&dir=desc")).body.map((r: { title: string }) => r.title);
    expect(byAssigneeDesc[byAssigneeDesc.length - 1]).toBe("Door squeaks");
    expect((await list("?sort=createdAt&dir=asc")).body[0].title).toBe("Broken window");
    for (const sort of ["createdAt", "title", "priority", "status", "assignee", "occurrences", "shortId", "due"]) {
      expect((await list(`?sort=${sort}&dir=asc`)).status, sort).toBe(200);
    }
  });

  it("sorts by due time, the incidents without one last both ways (sort=due)", async () => {
    const db = api.database.db;
    const due = async (title: string, at: string | null) => {
      const incident = listed.find((i) => i.title === title)!;
      await db.update(incidents).set({ nextDueAt: at === null ? null : new Date(at) }).where(eq(incidents.id, incident.id));
    };
    await due("Door squeaks", "2026-11-03T09:00:00Z");
    await due("Broken chair", "2026-11-02T15:00:00Z");
    try {
      const titles = async (q: string) => (await list(q)).body.map((r: { title: string }) => r.title);
      expect(await titles("?sort=due")).toEqual(["Broken chair", "Door squeaks", "Broken window", "No heating", "Light flickers"]);
      expect(await titles("?sort=due&dir=desc")).toEqual(["Door squeaks", "Broken chair", "Light flickers", "No heating", "Broken window"]);
      expect(await titles("?sort=due&size=2&page=2")).toEqual(["Broken window", "No heating"]);
    } finally {
      await due("Door squeaks", null);
      await due("Broken chair", null);
    }
  });

  it("shows a technician only what they reach", async () => {
    const res = await list("", listTokens.tech);
    expect(res.body.map((r: { title: string }) => r.title)).toEqual(["No heating", "Door squeaks", "Broken window"]);
    expect(res.headers.get("X-Total-Count")).toBe("3");
  });

  it("says when a search counted up to 1,000 (X-Total-Count-Capped)", async () => {
    const db = api.database.db;
    const e = await createEntity(db, { name: "Capped entity" });
    const cappedAdmin = await createUser(db, { entityId: e.id, role: Role.ADMINISTRATOR, email: "capped-admin@example.test" });
    await db.execute(sql`
      insert into incidents (entity_id, short_id, title)
      select ${e.id}::int, n, 'Capped ' || n from generate_series(1, 1005) n`);
    const token = await api.token(cappedAdmin);
    const res = await list("?q=capped&size=5", token);
    expect(res.status).toBe(200);
    expect(res.headers.get("X-Total-Count")).toBe("1000");
    expect(res.headers.get("X-Total-Count-Capped")).toBe("true");
    expect(res.body).toHaveLength(5);
    // Without a search, the total comes from the status counters: exact, not capped.
    const all = await list("?size=1", token);
    expect(all.headers.get("X-Total-Count")).toBe("1005");
    expect(all.headers.get("X-Total-Count-Capped")).toBeNull();
  });

  it("refuses unreadable parameters with 400 INVALID_LIST_QUERY naming them", async () => {
    for (const [query, field] of [
      ["?status=9", "status"],
      ["?priority=high", "priority"],
      ["?assignee=abc", "assignee"],
      ["?type=x", "type"],
      ["?from=2026-13-01", "from"],
      ["?tag=" + "t".repeat(21), "tag"],
      ["?sort=nope", "sort"],
      ["?dir=up", "dir"],
      ["?size=101", "size"],
      ["?page=0", "page"],
    ] as const) {
      const res = await list(query);
      expect(res.status, query).toBe(400);
      expect(res.body.code).toBe("INVALID_LIST_QUERY");
      expect(res.body.message).toBe("The list parameters are not valid.");
      expect(Object.keys(res.body.fieldErrors), query).toContain(field);
    }
  });
});

describe("GET and PATCH /api/incidents/{id}", () => {
  it("answers the incident with its location, reporters and checklist", async () => {
    const incident = await newIncident({ title: "Window", reporterEmails: ["occupier@example.test"], priority: Priority.HIGH });
    const res = await callApi(incidentRoute, at(incident.id).url, { token: technicianToken, params: at(incident.id).params });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: incident.id,
      shortId: incident.shortId,
      title: "Window",
      priority: Priority.HIGH,
      status: IncidentStatus.PENDING,
      reporters: ["occupier@example.test"],
      location: { roomId: roomA.id, roomName: "Room A1", floor: "1", buildingName: "Block A", facilityName: "Campus A" },
      reportCode: roomA.reportCode,
      files: [],
      checklist: [],
    });
  });

  it("changes title and description in one call, with events 7 and 8", async () => {
    const incident = await newIncident({ description: "Old text" });
    const res = await callApi(incidentRoute, at(incident.id).url, {
      method: "PATCH",
      token: technicianToken,
      params: at(incident.id).params,
      body: { title: "  Tap drips ", description: "New text" },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: incident.id, title: "Tap drips", description: "New text" });
    const events = await eventsOf(incident.id);
    expect(events.slice(1).map((e) => [e.type, e.oldValue, e.newValue, e.actorId])).toEqual([
      [IncidentEventType.TITLE_UPDATE, "Leaking tap", "Tap drips", technician.id],
      [IncidentEventType.DESCRIPTION_UPDATE, "Old text", "New text", technician.id],
    ]);
    // One field alone; null empties the description.
    const only = await callApi(incidentRoute, at(incident.id).url, { method: "PATCH", token: adminToken, params: at(incident.id).params, body: { description: null } });
    expect(only.status).toBe(200);
    expect((await row(incident.id)).description).toBeNull();
    expect((await row(incident.id)).title).toBe("Tap drips");
  });

  it("refuses a bad body with 400 and field errors, changing nothing", async () => {
    const incident = await newIncident({ description: "Keep" });
    const patch = (body: unknown) => callApi(incidentRoute, at(incident.id).url, { method: "PATCH", token: adminToken, params: at(incident.id).params, body });
    const empty = await patch({});
    expect(empty.status).toBe(400);
    expect(empty.body).toMatchObject({ code: "NOTHING_TO_CHANGE", message: VALIDATION });
    const both = await patch({ title: " ", description: "x".repeat(5001) });
    expect(both.status).toBe(400);
    expect(both.body).toMatchObject({ code: "VALIDATION", fieldErrors: { title: ["Please set a title"], description: ["This text is too long"] } });
    const titleOk = await patch({ title: "Fine", description: 12 });
    expect(titleOk.status).toBe(400);
    expect(Object.keys(titleOk.body.fieldErrors)).toEqual(["description"]);
    const control = await patch({ title: "Bad\u0000title" });
    expect(control.status).toBe(400);
    expect(control.body.fieldErrors.title).toBeDefined();
    const notJson = await patch("{not json");
    expect(notJson.status).toBe(400);
    expect(notJson.body.code).toBe("INVALID_JSON");
    const text = await callRaw(incidentRoute, at(incident.id).url, { method: "PATCH", token: adminToken, params: at(incident.id).params, body: "title=x", headers: { "content-type": "text/plain" } });
    expect(text.status).toBe(415);
    expect(await row(incident.id)).toMatchObject({ title: "Leaking tap", description: "Keep" });
    expect(await eventsOf(incident.id)).toHaveLength(1);
  });
});

describe("PUT status, priority, assignee", () => {
  it("sets the status (event 2), and Done stamps doneAt", async () => {
    const incident = await newIncident();
    const res = await callApi(statusRoute, at(incident.id, "/status").url, { method: "PUT", token: technicianToken, params: at(incident.id).params, body: { status: 2 } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: incident.id, status: IncidentStatus.DONE });
    expect((await row(incident.id)).doneAt).not.toBeNull();
    const events = await eventsOf(incident.id);
    expect(events[1]).toMatchObject({ type: IncidentEventType.STATUS_UPDATE, oldValue: 0, newValue: 2, actorId: technician.id });
    // The same value again writes nothing.
    await callApi(statusRoute, at(incident.id, "/status").url, { method: "PUT", token: technicianToken, params: at(incident.id).params, body: { status: "2" } });
    expect(await eventsOf(incident.id)).toHaveLength(2);
    for (const body of [{ status: 9 }, { status: "done" }, {}, { status: null }]) {
      const bad = await callApi(statusRoute, at(incident.id, "/status").url, { method: "PUT", token: technicianToken, params: at(incident.id).params, body });
      expect(bad.status).toBe(400);
      expect(bad.body).toMatchObject({ code: "VALIDATION", fieldErrors: { status: ["Choose a status"] } });
    }
  });

  it("sets the priority or Not Selected (event 3)", async () => {
    const incident = await newIncident({ priority: Priority.LOW });
    const put = (body: unknown) => callApi(priorityRoute, at(incident.id, "/priority").url, { method: "PUT", token: managerToken, params: at(incident.id).params, body });
    expect((await put({ priority: 3 })).body).toMatchObject({ priority: 3 });
    expect((await put({ priority: null })).body).toMatchObject({ priority: null });
    const events = await eventsOf(incident.id);
    expect(events.slice(1).map((e) => [e.type, e.oldValue, e.newValue])).toEqual([
      [IncidentEventType.PRIORITY_UPDATE, 0, 3],
      [IncidentEventType.PRIORITY_UPDATE, 3, null],
    ]);
    // A body without the field is refused, not read as Not Selected (the contract writes it as required).
    for (const body of [{ priority: 4 }, { priority: "high" }, { priority: -1 }, {}]) {
      const bad = await put(body);
      expect(bad.status).toBe(400);
      expect(bad.body.fieldErrors).toEqual({ priority: ["Choose a priority"] });
    }
  });

  it("assigns to someone who reaches the location (event 1) and unassigns", async () => {
    const incident = await newIncident();
    const put = (body: unknown, token = managerToken) => callApi(assigneeRoute, at(incident.id, "/assignee").url, { method: "PUT", token, params: at(incident.id).params, body });
    const res = await put({ assigneeId: technician.id });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ assigneeId: technician.id });
    for (const assigneeId of [outsider.id, otherAdmin.id, 99999999]) {
      const refused = await put({ assigneeId });
      expect(refused.status).toBe(400);
      expect(refused.body).toMatchObject({ code: "ASSIGNEE_NOT_ALLOWED", message: "This user cannot reach the incident's location" });
    }
    const bad = await put({ assigneeId: "someone" });
    expect(bad.body.fieldErrors).toEqual({ assigneeId: ["Choose a user"] });
    // Without the field: refused, not read as "unassign" (the contract writes it as required).
    const missing = await put({});
    expect(missing.status).toBe(400);
    expect(missing.body.fieldErrors).toEqual({ assigneeId: ["Choose a user"] });
    expect((await put({ assigneeId: null })).body).toMatchObject({ assigneeId: null });
    const events = await eventsOf(incident.id);
    expect(events.slice(1).map((e) => [e.type, e.oldValue, e.newValue])).toEqual([
      [IncidentEventType.ASSIGNED, null, { id: technician.id, name: "Ted Tech" }],
      [IncidentEventType.ASSIGNED, { id: technician.id, name: "Ted Tech" }, null],
    ]);
  });

  it("lists who the incident may be assigned to, searchable and paged", async () => {
    const incident = await newIncident();
    const get = (query: string) => callApi(assigneesRoute, `${at(incident.id, "/assignees").url}${query}`, { token: technicianToken, params: at(incident.id).params });
    const res = await get("");
    expect(res.status).toBe(200);
    const names = res.body.map((u: { name: string }) => u.name);
    expect(names).toEqual(expect.arrayContaining(["Ada Admin", "Max Manager", "Ted Tech"]));
    expect(names).not.toContain("Olga Outside");
    expect(names).not.toContain("Otto Other");
    expect(res.headers.get("X-Total-Count")).toBe(String(names.length));
    const searched = await get("?q=man");
    expect(searched.body).toEqual([{ id: manager.id, name: "Max Manager", role: Role.FACILITY_MANAGER }]);
    const paged = await get("?size=1&page=2");
    expect(paged.body).toHaveLength(1);
    expect((await get("?size=0")).status).toBe(400);
  });
});

describe("tags and duplicates", () => {
  it("adds tags (event 5), at most 3, and removes them (event 6)", async () => {
    const incident = await newIncident();
    const add = (tag: unknown) => callApi(tagsRoute, at(incident.id, "/tags").url, { method: "POST", token: technicianToken, params: at(incident.id).params, body: { tag } });
    const first = await add(" water ");
    expect(first.status).toBe(201);
    expect(first.body.tags).toEqual(["water"]);
    expect((await add("WATER")).body.tags).toEqual(["water"]);
    await add("urgent");
    await add("floor 2");
    const fourth = await add("more");
    expect(fourth.status).toBe(400);
    expect(fourth.body).toMatchObject({ code: "TOO_MANY_TAGS", message: "Could not add more than 3 tags" });
    expect((await add("")).body.fieldErrors).toEqual({ tag: ["Tag cannot be empty"] });
    expect((await add("x".repeat(21))).body.fieldErrors).toEqual({ tag: ["Tag cannot be longer than 20 characters"] });

    const removed = await callApi(tagRoute, at(incident.id, "/tags/floor%202").url, {
      method: "DELETE",
      token: technicianToken,
      params: { id: String(incident.id), tag: "Floor 2" },
    });
    expect(removed.status).toBe(200);
    expect(removed.body.tags).toEqual(["water", "urgent"]);
    const events = await eventsOf(incident.id);
    expect(events.slice(1).map((e) => [e.type, e.oldValue, e.newValue])).toEqual([
      [IncidentEventType.ADD_TAG, null, "water"],
      [IncidentEventType.ADD_TAG, null, "urgent"],
      [IncidentEventType.ADD_TAG, null, "floor 2"],
      [IncidentEventType.DELETE_TAG, "floor 2", null],
    ]);
  });

  it("marks a duplicate: occurrences and reporters fold into the kept one, event 4 on both", async () => {
    const kept = await newIncident({ title: "Kept", occurrences: 2, reporterEmails: ["a@example.test"] });
    const dupe = await newIncident({ title: "Dupe", occurrences: 3, reporterEmails: ["b@example.test"] });
    const post = (id: number, duplicateOf: unknown, token = managerToken) =>
      callApi(duplicateRoute, at(id, "/duplicate").url, { method: "POST", token, params: at(id).params, body: { duplicateOf } });
    const res = await post(dupe.id, `#${kept.shortId}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ duplicate: { id: dupe.id, status: IncidentStatus.REJECTED }, kept: { id: kept.id } });
    expect((await row(kept.id)).occurrences).toBe(5);
    const detail = await callApi(incidentRoute, at(kept.id).url, { token: adminToken, params: at(kept.id).params });
    expect(detail.body.reporters).toEqual(["a@example.test", "b@example.test"]);
    expect(detail.body.duplicates).toEqual([{ id: dupe.id, shortId: dupe.shortId, title: "Dupe" }]);
    expect((await eventsOf(dupe.id)).map((e) => e.type)).toEqual([IncidentEventType.CREATED, IncidentEventType.DUPLICATE, IncidentEventType.STATUS_UPDATE]);
    expect((await eventsOf(kept.id)).map((e) => e.type)).toEqual([IncidentEventType.CREATED, IncidentEventType.DUPLICATE]);

    const other = await newIncident();
    const cases: [unknown, string, string][] = [
      [other.shortId, "DUPLICATE_SELF", "An incident cannot be a duplicate of itself"],
      [99999999, "DUPLICATE_NOT_FOUND", "No incident with this number"],
      [foreign.shortId === other.shortId ? 99999998 : foreign.shortId + 100000, "DUPLICATE_NOT_FOUND", "No incident with this number"],
      [dupe.shortId, "DUPLICATE_OF_DUPLICATE", "That incident is itself a duplicate; choose the one it was folded into"],
    ];
    for (const [duplicateOf, code, message] of cases) {
      const refused = await post(other.id, duplicateOf);
      expect(refused.status, code).toBe(400);
      expect(refused.body).toMatchObject({ code, message });
    }
    const again = await post(dupe.id, other.shortId);
    expect(again.body.code).toBe("ALREADY_DUPLICATE");
    const missing = await post(other.id, "");
    expect(missing.body.fieldErrors).toEqual({ duplicateOf: ["Give the number of the incident to keep"] });
    expect((await eventsOf(other.id)).map((e) => e.type)).toEqual([IncidentEventType.CREATED]);
  });

  it("does not find an incident of another entity by its number", async () => {
    const mine = await newIncident();
    const sameNumber = await createIncident(api.database.db, { entityId: entityB.id, title: "B's" });
    const res = await callApi(duplicateRoute, at(mine.id, "/duplicate").url, {
      method: "POST",
      token: adminToken,
      params: at(mine.id).params,
      body: { duplicateOf: sameNumber.shortId + 1000 },
    });
    expect(res.body.code).toBe("DUPLICATE_NOT_FOUND");
  });
});

describe("comments", () => {
  it("posts a comment as JSON with a base64 attachment, and as multipart; lists them", async () => {
    const incident = await newIncident();
    const json = await callApi(commentsRoute, at(incident.id, "/comments").url, {
      method: "POST",
      token: technicianToken,
      params: at(incident.id).params,
      body: { body: " Checked the tap ", files: [{ name: "tap.png", data: dataUrl(pngBytes(4, 4)) }] },
    });
    expect(json.status).toBe(201);
    expect(json.body).toEqual({ id: expect.any(Number) });
    const form = new FormData();
    form.set("body", "Second look");
    form.append("files", pngFile("second.png"));
    const multipart = await callRaw(commentsRoute, at(incident.id, "/comments").url, { method: "POST", token: managerToken, params: at(incident.id).params, body: form });
    expect(multipart.status).toBe(201);

    const list = await callApi(commentsRoute, at(incident.id, "/comments").url, { token: technicianToken, params: at(incident.id).params });
    expect(list.status).toBe(200);
    expect(list.headers.get("X-Total-Count")).toBe("2");
    expect(list.body).toMatchObject([
      { id: json.body.id, body: "Checked the tap", author: { id: technician.id, name: "Ted Tech" }, own: true, files: [{ name: "tap.png", isImage: true }] },
      { id: multipart.body.id, body: "Second look", author: { id: manager.id, name: "Max Manager" }, own: false, files: [{ name: "second.png" }] },
    ]);
    const newest = await callApi(commentsRoute, `${at(incident.id, "/comments").url}?dir=desc&size=1`, { token: technicianToken, params: at(incident.id).params });
    expect(newest.body.map((c: { id: number }) => c.id)).toEqual([multipart.body.id]);
    expect((await callApi(commentsRoute, `${at(incident.id, "/comments").url}?size=abc`, { token: technicianToken, params: at(incident.id).params })).status).toBe(400);
    expect((await callApi(commentsRoute, `${at(incident.id, "/comments").url}?dir=up`, { token: technicianToken, params: at(incident.id).params })).status).toBe(400);
  });

  it("requires the text, refuses bad attachments, and writes nothing then", async () => {
    const incident = await newIncident();
    const post = (body: unknown) => callApi(commentsRoute, at(incident.id, "/comments").url, { method: "POST", token: technicianToken, params: at(incident.id).params, body });
    for (const body of [{ body: "" }, { body: "   " }, {}, { body: null }]) {
      const res = await post(body);
      expect(res.status).toBe(400);
      expect(res.body.fieldErrors).toEqual({ body: ["Please write a comment"] });
    }
    const badData = await post({ body: "x", files: [{ name: "a.png", data: "not a data url" }] });
    expect(badData.status).toBe(400);
    expect(badData.body.fieldErrors).toEqual({ files: ["The file could not be read"] });
    const tooMany = await post({ body: "x", files: Array.from({ length: 11 }, (_, i) => ({ name: `${i}.png`, data: dataUrl(pngBytes(2, 2)) })) });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.code).toBe("TOO_MANY_FILES");
    const exe = await post({ body: "x", files: [{ name: "run.exe", data: dataUrl(new Uint8Array([0x4d, 0x5a, 0x90, 0, 3, 0, 0, 0]), "application/octet-stream") }] });
    expect(exe.status).toBe(400);
    const form = new FormData();
    form.set("body", "");
    const emptyForm = await callRaw(commentsRoute, at(incident.id, "/comments").url, { method: "POST", token: technicianToken, params: at(incident.id).params, body: form });
    expect(emptyForm.status).toBe(400);
    expect(emptyForm.body.fieldErrors).toEqual({ body: ["Please write a comment"] });
    expect(await api.database.db.select().from(incidentComments).where(eq(incidentComments.incidentId, incident.id))).toEqual([]);
  });

  it("edits and deletes one's own comment only", async () => {
    const incident = await newIncident();
    const comment = await createIncidentComment(api.database.db, { entityId: entityA.id, incidentId: incident.id, authorId: technician.id, body: "First" });
    const url = at(incident.id, `/comments/${comment.id}`).url;
    const params = { id: String(incident.id), commentId: String(comment.id) };
    const byOther = await callApi(commentRoute, url, { method: "PUT", token: managerToken, params, body: { body: "Hijack" } });
    expect(byOther.status).toBe(403);
    expect(byOther.body).toMatchObject({ code: "NOT_YOUR_COMMENT", message: "You can only change your own comments" });
    expect((await callApi(commentRoute, url, { method: "DELETE", token: adminToken, params })).status).toBe(403);
    const empty = await callApi(commentRoute, url, { method: "PUT", token: technicianToken, params, body: { body: "" } });
    expect(empty.body.fieldErrors).toEqual({ body: ["Please write a comment"] });

    const edited = await callApi(commentRoute, url, { method: "PUT", token: technicianToken, params, body: { body: "First, edited" } });
    expect(edited.status).toBe(200);
    expect(edited.body).toEqual({ id: comment.id });
    const list = await callApi(commentsRoute, at(incident.id, "/comments").url, { token: technicianToken, params: at(incident.id).params });
    expect(list.body[0]).toMatchObject({ body: "First, edited", editedBy: "Ted Tech", editedAt: expect.any(String) });

    const deleted = await callApi(commentRoute, url, { method: "DELETE", token: technicianToken, params });
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual({ responseCode: 0 });
    const after = await callApi(commentsRoute, at(incident.id, "/comments").url, { token: technicianToken, params: at(incident.id).params });
    expect(after.body).toEqual([]);
    expect(after.headers.get("X-Total-Count")).toBe("0");
    const gone = await callApi(commentRoute, url, { method: "PUT", token: technicianToken, params, body: { body: "Again" } });
    expect(gone.status).toBe(404);
    expect(gone.body).toMatchObject({ code: "COMMENT_NOT_FOUND", message: "Comment not found" });
  });

  it("is 404 COMMENT_NOT_FOUND for a malformed comment id or another incident's comment", async () => {
    const incident = await newIncident();
    const elsewhere = await newIncident();
    const comment = await createIncidentComment(api.database.db, { entityId: entityA.id, incidentId: elsewhere.id, authorId: technician.id });
    for (const commentId of ["abc", "0", "2147483648", String(comment.id)]) {
      const res = await callApi(commentRoute, at(incident.id, `/comments/${commentId}`).url, {
        method: "PUT",
        token: technicianToken,
        params: { id: String(incident.id), commentId },
        body: { body: "x" },
      });
      expect(res.status, commentId).toBe(404);
      expect(res.body.code).toBe("COMMENT_NOT_FOUND");
    }
  });
});

describe("events and files", () => {
  it("lists the events newest first with actor and values", async () => {
    const incident = await newIncident();
    await callApi(statusRoute, at(incident.id, "/status").url, { method: "PUT", token: technicianToken, params: at(incident.id).params, body: { status: 1 } });
    await callApi(priorityRoute, at(incident.id, "/priority").url, { method: "PUT", token: technicianToken, params: at(incident.id).params, body: { priority: 3 } });
    const res = await callApi(eventsRoute, at(incident.id, "/events").url, { token: technicianToken, params: at(incident.id).params });
    expect(res.status).toBe(200);
    expect(res.headers.get("X-Total-Count")).toBe("3");
    expect(res.body).toMatchObject([
      { type: IncidentEventType.PRIORITY_UPDATE, actor: "Ted Tech", oldValue: 1, newValue: 3 },
      { type: IncidentEventType.STATUS_UPDATE, actor: "Ted Tech", oldValue: 0, newValue: 1 },
      { type: IncidentEventType.CREATED, actor: null },
    ]);
    const one = await callApi(eventsRoute, `${at(incident.id, "/events").url}?size=1`, { token: technicianToken, params: at(incident.id).params });
    expect(one.body).toHaveLength(1);
    expect((await callApi(eventsRoute, `${at(incident.id, "/events").url}?size=0`, { token: technicianToken, params: at(incident.id).params })).status).toBe(400);
  });

  it("adds files as JSON or multipart, and removes them", async () => {
    const incident = await newIncident();
    const json = await callApi(filesRoute, at(incident.id, "/files").url, {
      method: "POST",
      token: technicianToken,
      params: at(incident.id).params,
      body: { files: [{ name: "leak.png", data: dataUrl(pngBytes(3, 3)) }] },
    });
    expect(json.status).toBe(201);
    expect(json.body).toEqual({ ids: [expect.any(String)] });
    const form = new FormData();
    form.append("files", pngFile("a.png"));
    form.append("files", pngFile("b.png"));
    const multipart = await callRaw(filesRoute, at(incident.id, "/files").url, { method: "POST", token: technicianToken, params: at(incident.id).params, body: form });
    expect(multipart.status).toBe(201);
    expect(multipart.body.ids).toHaveLength(2);
    const detail = await callApi(incidentRoute, at(incident.id).url, { token: technicianToken, params: at(incident.id).params });
    // Files added by one call share their time: their order among themselves is not kept.
    expect(detail.body.files.map((f: { name: string }) => f.name)[0]).toBe("leak.png");
    expect(detail.body.files.map((f: { name: string }) => f.name).sort()).toEqual(["a.png", "b.png", "leak.png"]);

    const fileId = json.body.ids[0];
    const removed = await callApi(fileRoute, at(incident.id, `/files/${fileId}`).url, { method: "DELETE", token: technicianToken, params: { id: String(incident.id), fileId } });
    expect(removed.status).toBe(200);
    expect(removed.body).toEqual({ responseCode: 0 });
    const links = await api.database.db.select().from(incidentFiles).where(eq(incidentFiles.incidentId, incident.id));
    expect(links).toHaveLength(2);
    for (const bad of [fileId, "nope"]) {
      const again = await callApi(fileRoute, at(incident.id, `/files/${bad}`).url, { method: "DELETE", token: technicianToken, params: { id: String(incident.id), fileId: bad } });
      expect(again.status).toBe(400);
      expect(again.body).toMatchObject({ code: "FILE_NOT_FOUND", message: "The file could not be deleted" });
    }
  });

  it("refuses an empty or unreadable upload", async () => {
    const incident = await newIncident();
    const post = (body: unknown) => callApi(filesRoute, at(incident.id, "/files").url, { method: "POST", token: technicianToken, params: at(incident.id).params, body });
    const none = await post({ files: [] });
    expect(none.status).toBe(400);
    expect(none.body).toMatchObject({ code: "FILE_REQUIRED", fieldErrors: { files: ["Choose a file"] } });
    expect((await post({})).body.code).toBe("FILE_REQUIRED");
    const bad = await post({ files: [{ name: "x.png", data: "zzz" }] });
    expect(bad.status).toBe(400);
    const emptyForm = await callRaw(filesRoute, at(incident.id, "/files").url, { method: "POST", token: technicianToken, params: at(incident.id).params, body: new FormData() });
    expect(emptyForm.status).toBe(400);
    expect(emptyForm.body.code).toBe("FILE_REQUIRED");
    expect(await api.database.db.select().from(incidentFiles).where(eq(incidentFiles.incidentId, incident.id))).toEqual([]);
  });
});

describe("POST /api/incidents/bulk", () => {
  const bulk = (body: unknown, token = managerToken) => callApi(bulkRoute, "/api/incidents/bulk", { method: "POST", token, body });

  it("changes the status, priority or assignee of several incidents, one event each", async () => {
    const [a, b, c] = [await newIncident(), await newIncident(), await newIncident({ status: IncidentStatus.IN_PROGRESS })];
    const res = await bulk({ ids: [a.id, b.id, c.id], change: "status", status: 1 });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ changed: 2 });
    for (const i of [a, b, c]) expect((await row(i.id)).status).toBe(IncidentStatus.IN_PROGRESS);
    expect((await eventsOf(a.id)).map((e) => e.type)).toEqual([IncidentEventType.CREATED, IncidentEventType.STATUS_UPDATE]);
    expect((await eventsOf(c.id)).map((e) => e.type)).toEqual([IncidentEventType.CREATED]);

    expect((await bulk({ ids: [a.id, b.id], change: "priority", priority: null })).body).toEqual({ changed: 2 });
    expect((await row(a.id)).priority).toBeNull();
    expect((await bulk({ ids: [a.id, b.id], change: "assignee", assigneeId: technician.id }, technicianToken)).body).toEqual({ changed: 2 });
    expect((await row(b.id)).assigneeId).toBe(technician.id);
  });

  it("is all or nothing: one foreign, archived or out-of-reach id, or one refused assignee, changes nothing", async () => {
    const [a, b] = [await newIncident(), await newIncident()];
    const outside = await createIncident(api.database.db, { entityId: entityA.id, roomId: roomA2.id });
    const snapshot = async () => {
      const rows = await api.database.db.select().from(incidents).where(inArray(incidents.id, [a.id, b.id, outside.id]));
      const events = await api.database.db.select().from(incidentEvents).where(inArray(incidentEvents.incidentId, [a.id, b.id, outside.id]));
      return { rows: rows.map((r) => [r.id, r.status, r.priority, r.assigneeId]).sort(), events: events.length };
    };
    const before = await snapshot();
    const foreignRes = await bulk({ ids: [a.id, b.id, foreign.id], change: "status", status: 2 });
    expect(foreignRes.status).toBe(404);
    expect(foreignRes.body).toMatchObject(NOT_FOUND);
    const reach = await bulk({ ids: [a.id, outside.id, b.id], change: "status", status: 2 }, technicianToken);
    expect(reach.status).toBe(404);
    expect(reach.body).toMatchObject(NOT_FOUND);
    const assignee = await bulk({ ids: [a.id, outside.id], change: "assignee", assigneeId: outsider.id }, adminToken);
    expect(assignee.status).toBe(400);
    expect(assignee.body.code).toBe("ASSIGNEE_NOT_ALLOWED");
    expect(await snapshot()).toEqual(before);
    // The same changes, each incident in reach and valid, go through.
    expect((await bulk({ ids: [a.id, outside.id], change: "status", status: 2 }, adminToken)).body).toEqual({ changed: 2 });
  });

  it("refuses a bad body with 400 and field errors", async () => {
    const a = await newIncident();
    const cases: [unknown, Record<string, string[]>][] = [
      [{ ids: [], change: "status", status: 1 }, { ids: ["Select at least one incident"] }],
      // The contract's required fields: the selection, and the field the change names.
      [{ change: "status", status: 1 }, { ids: ["Select at least one incident"] }],
      [{ ids: [a.id], change: "status" }, { status: ["Choose a status"] }],
      [{ ids: [a.id], change: "priority" }, { priority: ["Choose a priority"] }],
      [{ ids: [a.id], change: "assignee" }, { assigneeId: ["Choose a user"] }],
      [{ ids: [a.id], status: 1 }, { change: ["This value is not valid"] }],
      [{ ids: [a.id], change: "title", status: 1 }, { change: ["This value is not valid"] }],
      [{ ids: [a.id], change: "status", status: 7 }, { status: ["Choose a status"] }],
      [{ ids: [a.id], change: "priority", priority: "x" }, { priority: ["Choose a priority"] }],
      [{ ids: [a.id], change: "assignee", assigneeId: "x" }, { assigneeId: ["Choose a user"] }],
      [{ ids: ["x"], change: "status", status: 1 }, { "ids.0": ["This value is not valid"] }],
      [{ ids: Array.from({ length: 101 }, (_, i) => i + 1), change: "status", status: 1 }, { ids: ["This value is not valid"] }],
    ];
    for (const [body, fieldErrors] of cases) {
      const res = await bulk(body);
      expect(res.status, JSON.stringify(body).slice(0, 60)).toBe(400);
      expect(res.body).toMatchObject({ message: VALIDATION, fieldErrors });
    }
    expect((await bulk("nope")).body.code).toBe("INVALID_JSON");
    expect(await eventsOf(a.id)).toHaveLength(1);
  });
});

describe("GET /api/incidents/{id}/work-order", () => {
  it("answers the PDF inline, named after the short id, in the caller's language", async () => {
    const incident = await newIncident({ title: "Broken radiator", assigneeId: technician.id });
    const res = await callRaw(workOrderRoute, at(incident.id, "/work-order").url, { token: technicianToken, params: at(incident.id).params, headers: { "x-language": "nl-BE" } });
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toBe("application/pdf");
    expect(res.headers.get("Content-Disposition")).toBe(`inline; filename="work-order-${incident.shortId}.pdf"`);
    expect(res.bytes.subarray(0, 5).toString("latin1")).toBe("%PDF-");
    let hasPdftotext = true;
    try {
      execFileSync("pdftotext", ["-v"], { stdio: "ignore" });
    } catch {
      hasPdftotext = false;
    }
    if (!hasPdftotext) return;
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "api-wo-"));
    try {
      fs.writeFileSync(path.join(dir, "w.pdf"), res.bytes);
      const text = execFileSync("pdftotext", [path.join(dir, "w.pdf"), "-"]).toString("utf8").replace(/\s+/g, " ");
      expect(text).toContain("Werkbon");
      expect(text).toContain("Broken radiator");
      expect(text).toContain(`#${incident.shortId}`);
      expect(text).toContain(roomA.reportCode!);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("a technician", () => {
  it("acts on incidents in reach, and those assigned to them outside their facilities", async () => {
    const outside = await createIncident(api.database.db, { entityId: entityA.id, roomId: roomA2.id, assigneeId: technician.id });
    const res = await callApi(statusRoute, at(outside.id, "/status").url, { method: "PUT", token: technicianToken, params: at(outside.id).params, body: { status: 1 } });
    expect(res.status).toBe(200);
    const notMine = await createIncident(api.database.db, { entityId: entityA.id, roomId: roomA2.id });
    const refused = await callApi(statusRoute, at(notMine.id, "/status").url, { method: "PUT", token: technicianToken, params: at(notMine.id).params, body: { status: 1 } });
    expect(refused.status).toBe(404);
    expect(refused.body).toMatchObject(NOT_FOUND);
    const events = await api.database.db
      .select()
      .from(incidentEvents)
      .where(and(eq(incidentEvents.incidentId, notMine.id), eq(incidentEvents.type, IncidentEventType.STATUS_UPDATE)));
    expect(events).toEqual([]);
  });
});
