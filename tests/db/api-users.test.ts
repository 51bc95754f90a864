import { and, eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { IncidentEventType, IncidentStatus, Role, TaskStatus, UserLanguage, UserStatus } from "~/db/enums";
import {
  type Building,
  type Entity,
  type Facility,
  incidentEvents,
  incidents,
  plannedMaintenanceAssignees,
  refreshTokens,
  tasks,
  type User,
  userLinkedObjects,
  users,
} from "~/db/schema";
import * as loginRoute from "~/routes/api/authentication.login";
import * as refreshRoute from "~/routes/api/authentication.refresh-token";
import * as userPasswordRoute from "~/routes/api/users.$id.password";
import * as userRoute from "~/routes/api/users.$id";
import * as invitationRoute from "~/routes/api/users.$id.invitation";
import * as statusRoute from "~/routes/api/users.$id.status";
import * as assigneesRoute from "~/routes/api/users.assignees";
import * as usersRoute from "~/routes/api/users";
import {
  createBuilding,
  createEntity,
  createFacility,
  createIncident,
  createPlannedMaintenance,
  createRoom,
  createTask,
  createUser,
  DEFAULT_PASSWORD,
  linkUserTo,
  pngBytes,
} from "#tests/factories";
import { type ApiHarness, callApi, dataUrl, startApiRuntime } from "#tests/api-helpers";

/**
 * REST calls of SPEC.md section 7 "Users" (issue #10 point 6), called through the route modules with a
 * bearer token: answers, statuses, JSON errors, and that a refused call changes nothing.
 */
let api: ApiHarness;
let entityA: Entity;
let entityB: Entity;
let facilityA: Facility;
let buildingA: Building;
/** A building of entity A in another facility (for building links). */
let buildingA2: Building;
let facilityB: Facility;
let admin: User;
let manager: User;
let technician: User;
let otherAdmin: User;
let adminToken: string;
let managerToken: string;
let technicianToken: string;
let otherToken: string;

const VALIDATION_MESSAGE = "Please correct the highlighted fields.";
const EMAIL_IN_USE = "Email Already exists...";

async function userRow(id: number) {
  const [row] = await api.database.db.select().from(users).where(eq(users.id, id));
  return row;
}

async function linksOf(id: number) {
  return api.database.db.select().from(userLinkedObjects).where(eq(userLinkedObjects.userId, id));
}

const usersUrl = "/api/users";
const one = (id: number | string) => ({ url: `/api/users/${id}`, params: { id: String(id) } });

function newUserBody(extra: Record<string, unknown> = {}) {
  return {
    name: "Tina",
    surname: "Tech",
    email: `tina-${Math.random().toString(36).slice(2, 10)}@example.test`,
    role: Role.TECHNICIAN,
    language: UserLanguage.NL,
    linkedEntityId: entityA.id,
    linkedObjects: { facilityIds: [facilityA.id], buildingIds: [] },
    ...extra,
  };
}

function updateBody(user: Pick<User, "name" | "surname" | "role" | "language">, extra: Record<string, unknown> = {}) {
  return {
    name: user.name,
    surname: user.surname,
    role: user.role,
    language: user.language,
    linkedObjects: { facilityIds: [facilityA.id], buildingIds: [] },
    ...extra,
  };
}

beforeAll(async () => {
  api = await startApiRuntime();
  const db = api.database.db;
  entityA = await createEntity(db, { name: "Entity A" });
  entityB = await createEntity(db, { name: "Entity B" });
  facilityA = await createFacility(db, { entityId: entityA.id, name: "Campus A" });
  buildingA = await createBuilding(db, { entityId: entityA.id, facilityId: facilityA.id, name: "Block A" });
  buildingA2 = await createBuilding(db, { entityId: entityA.id, name: "Block A2" });
  facilityB = await createFacility(db, { entityId: entityB.id });
  await createBuilding(db, { entityId: entityB.id, facilityId: facilityB.id });
  admin = await createUser(db, { entityId: entityA.id, role: Role.ADMINISTRATOR, name: "Ada", surname: "Admin" });
  manager = await createUser(db, { entityId: entityA.id, role: Role.FACILITY_MANAGER, name: "Max", surname: "Manager" });
  technician = await createUser(db, { entityId: entityA.id, role: Role.TECHNICIAN, name: "Ted", surname: "Tech" });
  otherAdmin = await createUser(db, { entityId: entityB.id, role: Role.ADMINISTRATOR });
  // Managers and technicians reach what they are linked to (SPEC.md section 6).
  await linkUserTo(db, { entityId: entityA.id, userId: manager.id, facilityId: facilityA.id });
  await linkUserTo(db, { entityId: entityA.id, userId: manager.id, buildingId: buildingA2.id });
  await linkUserTo(db, { entityId: entityA.id, userId: technician.id, facilityId: facilityA.id });
  [adminToken, managerToken, technicianToken, otherToken] = await Promise.all([
    api.token(admin),
    api.token(manager),
    api.token(technician),
    api.token(otherAdmin),
  ]);
});
afterAll(async () => {
  await api?.close();
});

describe("every /api/users call", () => {
  it("answers 401 without a token or with a bad one", async () => {
    const calls: [Parameters<typeof callApi>[0], string, string, Record<string, string>][] = [
      [usersRoute, usersUrl, "GET", {}],
      [usersRoute, usersUrl, "POST", {}],
      [userRoute, "/api/users/1", "GET", { id: "1" }],
      [userRoute, "/api/users/1", "PUT", { id: "1" }],
      [userRoute, "/api/users/1", "DELETE", { id: "1" }],
      [statusRoute, "/api/users/1/status", "PATCH", { id: "1" }],
      [invitationRoute, "/api/users/1/invitation", "POST", { id: "1" }],
      [assigneesRoute, "/api/users/assignees", "GET", {}],
    ];
    for (const [route, url, method, params] of calls) {
      const body = method === "GET" || method === "DELETE" ? undefined : {};
      const none = await callApi(route, url, { method, params, body });
      expect(none.status, `${method} ${url}`).toBe(401);
      expect(none.body).toMatchObject({ code: "UNAUTHORIZED", message: "User session expired" });
      expect((await callApi(route, url, { method, params, body, token: "not-a-jwt" })).status, `${method} ${url}`).toBe(401);
    }
  });

  it("answers 405 for a method the address does not take", async () => {
    const cases: [Parameters<typeof callApi>[0], string, string, Record<string, string>, string][] = [
      [usersRoute, usersUrl, "DELETE", {}, "GET, POST"],
      [userRoute, "/api/users/1", "PATCH", { id: "1" }, "GET, PUT, DELETE"],
      [userRoute, "/api/users/1", "POST", { id: "1" }, "GET, PUT, DELETE"],
      [statusRoute, "/api/users/1/status", "GET", { id: "1" }, "PATCH"],
      [statusRoute, "/api/users/1/status", "PUT", { id: "1" }, "PATCH"],
      [invitationRoute, "/api/users/1/invitation", "GET", { id: "1" }, "POST"],
      [assigneesRoute, "/api/users/assignees", "POST", {}, "GET"],
    ];
    for (const [route, url, method, params, allow] of cases) {
      const res = await callApi(route, url, { method, params, token: managerToken });
      expect(res.status, `${method} ${url}`).toBe(405);
      expect(res.body.code).toBe("METHOD_NOT_ALLOWED");
      expect(res.headers.get("Allow")).toBe(allow);
    }
  });

  it("keeps the password route under /api/users/{id}/password working beside /api/users/{id}", async () => {
    const user = await createUser(api.database.db, { entityId: entityA.id, role: Role.TECHNICIAN });
    const token = await api.token(user);
    const res = await callApi(userPasswordRoute, `/api/users/${user.id}/password`, {
      method: "PATCH",
      token,
      params: { id: String(user.id) },
      body: { oldPassword: DEFAULT_PASSWORD, newPassword: "Another-pass-2!" },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ responseCode: 0 });
  });
});

describe("POST /api/users/", () => {
  it("invites a user: 201 with the user, inactive until they set a password, and the invitation mail queued", async () => {
    const body = newUserBody({ name: "  Tina ", email: "  Tina.NEW@Example.test ", receiveNotification: true, notificationSettings: { priorities: [3, 2], buildingIds: [buildingA.id] } });
    const res = await callApi(usersRoute, `${usersUrl}/`, { method: "POST", token: managerToken, body });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      id: expect.any(Number),
      name: "Tina",
      surname: "Tech",
      email: "tina.new@example.test",
      role: Role.TECHNICIAN,
      language: UserLanguage.NL,
      status: UserStatus.INACTIVE,
      validated: false,
      entityId: entityA.id,
      receiveNotification: true,
      notificationSettings: { priorities: [2, 3], buildingIds: [buildingA.id] },
      linkedObjects: { facilityIds: [facilityA.id], buildingIds: [] },
      linkedFacilities: [{ id: facilityA.id, name: "Campus A" }],
      linkedBuildings: [],
      picture: null,
      lastLoginAt: null,
    });
    const mails = (await api.mails()).filter((m) => m.to === "tina.new@example.test");
    expect(mails).toHaveLength(1);
    expect(mails[0].text).toMatch(/\/password\/reset\?token=[^&\s]+&invitation=1/);

    // The new user is listed, and an administrator may invite an administrator (who keeps no links).
    const got = await callApi(userRoute, one(res.body.id).url, { token: adminToken, params: one(res.body.id).params });
    expect(got.body.email).toBe("tina.new@example.test");
    const byAdmin = await callApi(usersRoute, usersUrl, {
      method: "POST",
      token: adminToken,
      body: newUserBody({ role: Role.ADMINISTRATOR, linkedObjects: { facilityIds: [facilityA.id], buildingIds: [buildingA2.id] } }),
    });
    expect(byAdmin.status).toBe(201);
    expect(byAdmin.body).toMatchObject({ role: Role.ADMINISTRATOR, linkedObjects: { facilityIds: [], buildingIds: [] } });
    // linkedEntityId and linkedObjects may be left out for an administrator; the language defaults to English.
    const minimal = await callApi(usersRoute, usersUrl, {
      method: "POST",
      token: adminToken,
      body: { name: "Min", surname: "Imal", email: "minimal@example.test", role: Role.ADMINISTRATOR },
    });
    expect(minimal.status).toBe(201);
    expect(minimal.body).toMatchObject({ language: UserLanguage.EN, receiveNotification: false });
  });

  it("refuses an address already in use, in any entity and in any case: 409 with the message of section 8", async () => {
    const res = await callApi(usersRoute, usersUrl, { method: "POST", token: managerToken, body: newUserBody({ email: otherAdmin.email.toUpperCase() }) });
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ code: "EMAIL_IN_USE", message: EMAIL_IN_USE, fieldErrors: { email: [EMAIL_IN_USE] } });
    const same = await callApi(usersRoute, usersUrl, { method: "POST", token: managerToken, body: newUserBody({ email: technician.email }) });
    expect(same.status).toBe(409);
    expect(same.body.message).toBe(EMAIL_IN_USE);
    const found = await api.database.db.select({ id: users.id }).from(users).where(eq(users.email, technician.email));
    expect(found).toHaveLength(1);
  });

  it("is 403 for a technician, before the body is read", async () => {
    const before = await api.mails();
    for (const body of [newUserBody(), "{not json", { role: 4 }]) {
      const res = await callApi(usersRoute, usersUrl, { method: "POST", token: technicianToken, body });
      expect(res.status).toBe(403);
      expect(res.body).toMatchObject({ code: "FORBIDDEN", message: "Only facility managers and administrators manage users." });
    }
    expect(await api.mails()).toHaveLength(before.length);
  });

  it("is 403 when a manager gives the administrator role", async () => {
    const body = newUserBody({ role: Role.ADMINISTRATOR, email: "would-be-admin@example.test" });
    const res = await callApi(usersRoute, usersUrl, { method: "POST", token: managerToken, body });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe("ADMINISTRATOR_ONLY");
    expect(await api.database.db.select().from(users).where(eq(users.email, "would-be-admin@example.test"))).toEqual([]);
  });

  it("refuses bad bodies with 400 and field errors, never 500, and creates nobody", async () => {
    const db = api.database.db;
    const count = async () => (await db.select({ id: users.id }).from(users).where(eq(users.entityId, entityA.id))).length;
    const before = await count();
    const post = (body: unknown) => callApi(usersRoute, usersUrl, { method: "POST", token: managerToken, body });

    const invalid = await post("{not json");
    expect(invalid.status).toBe(400);
    expect(invalid.body).toMatchObject({ code: "INVALID_JSON", message: "The request body is not valid JSON." });

    const missing = await post({});
    expect(missing.status).toBe(400);
    expect(missing.body).toMatchObject({
      code: "VALIDATION",
      message: VALIDATION_MESSAGE,
      fieldErrors: { name: ["Please set a name"], surname: ["Please set a surname"], email: ["Please set an email"], role: ["Choose a role"] },
    });
    expect((await post(newUserBody({ email: "not-an-email" }))).body.fieldErrors).toEqual({ email: ["Invalid email"] });

    const huge = 2 ** 31;
    const cases: [string, unknown][] = [
      ["array body", [1, 2]],
      ["null body", null],
      ["role 4", newUserBody({ role: 4 })],
      ["role 0", newUserBody({ role: 0 })],
      ["role as a string", newUserBody({ role: "2" })],
      ["language as a string", newUserBody({ language: "en" })],
      ["language 3", newUserBody({ language: 3 })],
      ["name as a number", newUserBody({ name: 12 })],
      ["name with a NUL byte", newUserBody({ name: "Ti\u0000na" })],
      ["surname with a NUL byte", newUserBody({ surname: "\u0000" })],
      ["email with a NUL byte", newUserBody({ email: "a\u0000@example.test" })],
      ["name too long", newUserBody({ name: "x".repeat(101) })],
      ["receiveNotification as a string", newUserBody({ receiveNotification: "yes" })],
      ["linkedEntityId of another entity", newUserBody({ linkedEntityId: entityB.id })],
      ["linkedEntityId as a string", newUserBody({ linkedEntityId: String(entityA.id) })],
      ["linkedEntityId 2^53", newUserBody({ linkedEntityId: 2 ** 53 })],
      ["linkedObjects as a string", newUserBody({ linkedObjects: "all" })],
      ["facility id 2^31", newUserBody({ linkedObjects: { facilityIds: [huge], buildingIds: [] } })],
      ["facility id 2^53", newUserBody({ linkedObjects: { facilityIds: [2 ** 53], buildingIds: [] } })],
      ["building id 2^31", newUserBody({ linkedObjects: { facilityIds: [], buildingIds: [huge] } })],
      ["negative facility id", newUserBody({ linkedObjects: { facilityIds: [-1], buildingIds: [] } })],
      ["facility id as a string", newUserBody({ linkedObjects: { facilityIds: [String(facilityA.id)], buildingIds: [] } })],
      ["10,000 facility ids", newUserBody({ linkedObjects: { facilityIds: Array.from({ length: 10_000 }, (_, i) => i + 1), buildingIds: [] } })],
      ["another entity's facility", newUserBody({ linkedObjects: { facilityIds: [facilityB.id], buildingIds: [] } })],
      ["a technician without links", newUserBody({ linkedObjects: { facilityIds: [], buildingIds: [] } })],
      ["a manager without linkedObjects", newUserBody({ role: Role.FACILITY_MANAGER, linkedObjects: undefined })],
      ["notification priority 9", newUserBody({ notificationSettings: { priorities: [9], buildingIds: [] } })],
      ["notification building 2^31", newUserBody({ notificationSettings: { priorities: [], buildingIds: [huge] } })],
      ["notification building of another entity", newUserBody({ notificationSettings: { priorities: [], buildingIds: [2 ** 31 - 1] } })],
      ["10,000 notification buildings", newUserBody({ notificationSettings: { priorities: [], buildingIds: Array.from({ length: 10_000 }, (_, i) => i + 1) } })],
    ];
    for (const [label, body] of cases) {
      const res = await post(body);
      expect(res.status, label).toBe(400);
      expect(typeof res.body.code, label).toBe("string");
      expect(typeof res.body.message, label).toBe("string");
    }
    expect((await post(newUserBody({ name: "Ti\u0000na" }))).body.fieldErrors).toEqual({ name: [expect.any(String)] });
    expect((await post(newUserBody({ role: 4 }))).body.fieldErrors).toEqual({ role: ["Choose a role"] });
    expect((await post(newUserBody({ linkedObjects: { facilityIds: [], buildingIds: [] } }))).body).toMatchObject({
      code: "LINK_REQUIRED",
      fieldErrors: { linkedObjects: ["Choose at least one facility, building or room"] },
    });
    expect((await post(newUserBody({ linkedObjects: { facilityIds: [facilityB.id], buildingIds: [] } }))).body.code).toBe("LINK_NOT_FOUND");
    expect((await post(newUserBody({ linkedEntityId: entityB.id }))).body.fieldErrors).toEqual({ linkedEntityId: ["Users can only be added to your own entity"] });
    const wrongType = await callApi(usersRoute, usersUrl, { method: "POST", token: managerToken, body: undefined });
    expect(wrongType.status).toBe(415);
    expect(await count()).toBe(before);
  });
});

describe("GET /api/users", () => {
  let entity: Entity;
  let token: string;
  beforeAll(async () => {
    const db = api.database.db;
    entity = await createEntity(db);
    const boss = await createUser(db, { entityId: entity.id, role: Role.ADMINISTRATOR, name: "Zed", surname: "Boss", email: `zed-${entity.id}@example.test` });
    token = await api.token(boss);
    await createUser(db, { entityId: entity.id, role: Role.TECHNICIAN, name: "alice", surname: "Archer", email: `alice-${entity.id}@example.test` });
    await createUser(db, { entityId: entity.id, role: Role.TECHNICIAN, name: "Bob", surname: "Baker", status: UserStatus.DISABLED, email: `bob-${entity.id}@example.test` });
    await createUser(db, { entityId: entity.id, role: Role.FACILITY_MANAGER, name: "Carl", surname: "Cook", status: UserStatus.INACTIVE, password: null, email: `carl-${entity.id}@example.test` });
    await createUser(db, { entityId: entity.id, role: Role.TECHNICIAN, name: "Gone", surname: "Ghost", archivedAt: new Date() });
  });

  it("lists the entity's users with X-Total-Count, paging, sorting and search; archived and other entities' users left out", async () => {
    const all = await callApi(usersRoute, usersUrl, { token });
    expect(all.status).toBe(200);
    expect(all.headers.get("X-Total-Count")).toBe("4");
    expect(all.body.map((u: { name: string }) => u.name)).toEqual(["alice", "Bob", "Carl", "Zed"]);
    expect(all.body[0]).toEqual({
      id: expect.any(Number),
      name: "alice",
      surname: "Archer",
      email: `alice-${entity.id}@example.test`,
      role: Role.TECHNICIAN,
      language: expect.any(Number),
      status: UserStatus.ACTIVE,
      lastLoginAt: null,
      picture: null,
      linkedFacilities: [],
      linkedBuildings: [],
    });
    const page = await callApi(usersRoute, `${usersUrl}?size=2&page=2&sort=surname&dir=desc`, { token });
    expect(page.headers.get("X-Total-Count")).toBe("4");
    expect(page.body.map((u: { surname: string }) => u.surname)).toEqual(["Baker", "Archer"]);
    const search = await callApi(usersRoute, `${usersUrl}?q=${encodeURIComponent(`carl-${entity.id}@`)}`, { token });
    expect(search.body.map((u: { name: string }) => u.name)).toEqual(["Carl"]);
    for (const sort of ["name", "surname", "email", "role", "status", "lastLogin"]) {
      const sorted = await callApi(usersRoute, `${usersUrl}?sort=${sort}&dir=desc`, { token });
      expect(sorted.status, sort).toBe(200);
      expect(sorted.body, sort).toHaveLength(4);
    }
    // Entity A's list never shows entity B's users.
    const a = await callApi(usersRoute, `${usersUrl}?size=100`, { token: managerToken });
    expect(a.body.map((u: { id: number }) => u.id)).not.toContain(otherAdmin.id);
    expect(a.body.map((u: { id: number }) => u.id)).toContain(technician.id);
  });

  it("filters by role and status", async () => {
    const techs = await callApi(usersRoute, `${usersUrl}?role=${Role.TECHNICIAN}`, { token });
    expect(techs.body.map((u: { name: string }) => u.name)).toEqual(["alice", "Bob"]);
    expect(techs.headers.get("X-Total-Count")).toBe("2");
    const disabled = await callApi(usersRoute, `${usersUrl}?status=${UserStatus.DISABLED}`, { token });
    expect(disabled.body.map((u: { name: string }) => u.name)).toEqual(["Bob"]);
    const both = await callApi(usersRoute, `${usersUrl}?role=${Role.TECHNICIAN}&status=${UserStatus.ACTIVE}`, { token });
    expect(both.body.map((u: { name: string }) => u.name)).toEqual(["alice"]);
    const inactiveManagers = await callApi(usersRoute, `${usersUrl}?role=1&status=1`, { token });
    expect(inactiveManagers.body.map((u: { name: string }) => u.name)).toEqual(["Carl"]);
  });

  it("refuses bad list parameters and filters with 400", async () => {
    for (const [params, field] of [
      ["role=4", "role"],
      ["role=0", "role"],
      ["role=abc", "role"],
      ["role=", "role"],
      ["role=1&role=2", "role"],
      ["status=9", "status"],
      ["status=-1", "status"],
      ["status=2.0", "status"],
      ["size=101", "size"],
      ["size=abc", "size"],
      ["page=0", "page"],
      ["sort=password", "sort"],
      ["dir=sideways", "dir"],
    ] as const) {
      const res = await callApi(usersRoute, `${usersUrl}?${params}`, { token });
      expect(res.status, params).toBe(400);
      expect(res.body).toMatchObject({ code: "INVALID_LIST_QUERY", message: "The list parameters are not valid.", fieldErrors: { [field]: [expect.any(String)] } });
    }
    const nul = await callApi(usersRoute, `${usersUrl}?q=%00x`, { token });
    expect(nul.status).toBe(200);
  });

  it("is 403 for a technician", async () => {
    const res = await callApi(usersRoute, usersUrl, { token: technicianToken });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe("FORBIDDEN");
  });
});

describe("GET /api/users/{id}", () => {
  it("answers the user; another entity's, a malformed or an out-of-range id is 404 USER_NOT_FOUND", async () => {
    const { url, params } = one(technician.id);
    const res = await callApi(userRoute, url, { token: managerToken, params });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: technician.id,
      name: "Ted",
      surname: "Tech",
      email: technician.email,
      role: Role.TECHNICIAN,
      status: UserStatus.ACTIVE,
      validated: true,
      entityId: entityA.id,
      linkedObjects: { facilityIds: [facilityA.id], buildingIds: [] },
      linkedFacilities: [{ id: facilityA.id, name: "Campus A" }],
      createdAt: expect.any(String),
    });
    expect(res.body).not.toHaveProperty("passwordHash");

    const other = await callApi(userRoute, url, { token: otherToken, params });
    expect(other.status).toBe(404);
    expect(other.body).toMatchObject({ code: "USER_NOT_FOUND", message: "User not found" });
    for (const id of ["abc", "0", "-1", "1.5", String(2 ** 31), String(2 ** 53), "999999999"]) {
      const bad = await callApi(userRoute, `/api/users/${id}`, { token: managerToken, params: { id } });
      expect(bad.status, id).toBe(404);
      expect(bad.body.code, id).toBe("USER_NOT_FOUND");
    }
  });

  it("answers a technician their own profile, and 403 for anyone else", async () => {
    const { url, params } = one(technician.id);
    const own = await callApi(userRoute, url, { token: technicianToken, params });
    expect(own.status).toBe(200);
    expect(own.body).toMatchObject({
      id: technician.id,
      email: technician.email,
      role: Role.TECHNICIAN,
      linkedObjects: { facilityIds: [facilityA.id], buildingIds: [] },
    });
    expect((await callApi(userRoute, one(admin.id).url, { token: technicianToken, params: one(admin.id).params })).status).toBe(403);
    expect((await callApi(userRoute, one(manager.id).url, { token: technicianToken, params: one(manager.id).params })).status).toBe(403);
    // Another entity's id: the same 403, which tells nothing about it.
    expect((await callApi(userRoute, one(otherAdmin.id).url, { token: technicianToken, params: one(otherAdmin.id).params })).status).toBe(403);
  });
});

describe("PUT /api/users/{id}", () => {
  it("saves name, role, language, links, notification settings and status; answers the user", async () => {
    const db = api.database.db;
    const user = await createUser(db, { entityId: entityA.id, role: Role.TECHNICIAN, name: "Paul", surname: "Put" });
    await linkUserTo(db, { entityId: entityA.id, userId: user.id, facilityId: facilityA.id });
    const { url, params } = one(user.id);
    const res = await callApi(userRoute, url, {
      method: "PUT",
      token: managerToken,
      params,
      body: {
        name: " Paula ",
        surname: "Putter",
        role: Role.FACILITY_MANAGER,
        language: UserLanguage.FR,
        status: UserStatus.ACTIVE,
        receiveNotification: true,
        linkedObjects: { facilityIds: [], buildingIds: [buildingA2.id, buildingA.id] },
        notificationSettings: { priorities: [1], buildingIds: [buildingA.id] },
        email: "ignored@example.test",
      },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: user.id,
      name: "Paula",
      surname: "Putter",
      role: Role.FACILITY_MANAGER,
      language: UserLanguage.FR,
      status: UserStatus.ACTIVE,
      email: user.email,
      receiveNotification: true,
      notificationSettings: { priorities: [1], buildingIds: [buildingA.id] },
      linkedObjects: { facilityIds: [], buildingIds: [buildingA.id, buildingA2.id].sort((a, b) => a - b) },
    });
    // The status can be toggled here too: disabled.
    const disabled = await callApi(userRoute, url, { method: "PUT", token: managerToken, params, body: updateBody(res.body, { status: UserStatus.DISABLED, linkedObjects: res.body.linkedObjects }) });
    expect(disabled.body.status).toBe(UserStatus.DISABLED);
  });

  it("replaces the picture from a base64 data URL and removes it with updatePicture and a null newPicture", async () => {
    const user = await createUser(api.database.db, { entityId: entityA.id, role: Role.TECHNICIAN });
    const { url, params } = one(user.id);
    const put = (extra: Record<string, unknown>) => callApi(userRoute, url, { method: "PUT", token: managerToken, params, body: updateBody(user, extra) });
    const withPicture = await put({ updatePicture: true, newPicture: dataUrl(pngBytes(4, 4)), oldPicture: null });
    expect(withPicture.status).toBe(200);
    expect(withPicture.body.picture).toMatch(/^\/files\/[0-9a-f-]+$/);
    // Without updatePicture, newPicture is ignored and the picture kept.
    const kept = await put({ newPicture: "garbage" });
    expect(kept.status).toBe(200);
    expect(kept.body.picture).toBe(withPicture.body.picture);
    const badData = await put({ updatePicture: true, newPicture: "data:image/png;base64,@@@" });
    expect(badData.status).toBe(400);
    expect(badData.body.fieldErrors).toEqual({ newPicture: [expect.any(String)] });
    const notImage = await put({ updatePicture: true, newPicture: dataUrl(new TextEncoder().encode("hello"), "text/plain") });
    expect(notImage.status).toBe(400);
    expect(notImage.body.fieldErrors).toHaveProperty("newPicture");
    expect((await put({ updatePicture: true, newPicture: 12 })).status).toBe(400);
    expect((await userRow(user.id)).pictureFileId).not.toBeNull();
    const removed = await put({ updatePicture: true, newPicture: null, oldPicture: withPicture.body.picture });
    expect(removed.status).toBe(200);
    expect(removed.body.picture).toBeNull();
  });

  it("another entity's id is 404 and nothing changes; a technician is 403 before the body is read", async () => {
    const user = await createUser(api.database.db, { entityId: entityA.id, role: Role.TECHNICIAN, name: "Stable" });
    await linkUserTo(api.database.db, { entityId: entityA.id, userId: user.id, facilityId: facilityA.id });
    const { url, params } = one(user.id);
    const before = await userRow(user.id);
    const other = await callApi(userRoute, url, { method: "PUT", token: otherToken, params, body: updateBody(user, { name: "Hacked", linkedObjects: { facilityIds: [facilityB.id] } }) });
    expect(other.status).toBe(404);
    expect(other.body.code).toBe("USER_NOT_FOUND");
    for (const body of [updateBody(user, { name: "Hacked" }), "{not json", { role: 4 }]) {
      const tech = await callApi(userRoute, url, { method: "PUT", token: technicianToken, params, body });
      expect(tech.status).toBe(403);
    }
    expect(await userRow(user.id)).toEqual(before);
    expect(await linksOf(user.id)).toHaveLength(1);
  });

  it("lets a technician update their own settings and picture, not their role, status or links, nor anyone else", async () => {
    const db = api.database.db;
    const self = await createUser(db, { entityId: entityA.id, role: Role.TECHNICIAN, name: "Selma", surname: "Self" });
    await linkUserTo(db, { entityId: entityA.id, userId: self.id, facilityId: facilityA.id });
    const token = await api.token(self);
    const { url, params } = one(self.id);
    const loaded = await callApi(userRoute, url, { token, params });
    expect(loaded.status).toBe(200);
    // The profile as loaded, sent back with new settings (what a client does).
    const put = (body: unknown) => callApi(userRoute, url, { method: "PUT", token, params, body });
    const saved = await put({
      ...updateBody(loaded.body, { linkedObjects: loaded.body.linkedObjects, status: loaded.body.status }),
      name: "Selma2",
      language: UserLanguage.NL,
      receiveNotification: true,
      notificationSettings: { priorities: [2, 3], buildingIds: [buildingA.id] },
      updatePicture: true,
      newPicture: dataUrl(pngBytes(4, 4)),
    });
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({
      id: self.id,
      name: "Selma2",
      language: UserLanguage.NL,
      role: Role.TECHNICIAN,
      receiveNotification: true,
      notificationSettings: { priorities: [2, 3], buildingIds: [buildingA.id] },
      linkedObjects: { facilityIds: [facilityA.id], buildingIds: [] },
    });
    expect(saved.body.picture).toMatch(/^\/files\//);
    // Role, status and links may be left out (they are kept) ...
    const short = await put({ name: "Selma", surname: "Self", role: Role.TECHNICIAN, language: UserLanguage.EN });
    expect(short.status).toBe(200);
    expect(short.body).toMatchObject({ name: "Selma", role: Role.TECHNICIAN, linkedObjects: { facilityIds: [facilityA.id], buildingIds: [] } });
    // ... but not changed: 409 SELF, nothing saved.
    const before = await userRow(self.id);
    for (const change of [
      { role: Role.ADMINISTRATOR },
      { role: Role.FACILITY_MANAGER },
      { status: UserStatus.DISABLED },
      { linkedObjects: { facilityIds: [facilityA.id], buildingIds: [buildingA2.id] } },
      { linkedObjects: { facilityIds: [], buildingIds: [] } },
    ]) {
      const refused = await put(updateBody(short.body, { name: "Changed", ...change }));
      expect(refused.status, JSON.stringify(change)).toBe(409);
      expect(refused.body.code).toBe("SELF");
    }
    // A building out of their reach in the notification settings: 404, nothing saved.
    const outOfReach = await put(updateBody(short.body, { name: "Changed", notificationSettings: { priorities: [], buildingIds: [buildingA2.id] } }));
    expect(outOfReach.status).toBe(404);
    // Bad input: 400.
    expect((await put(updateBody(short.body, { name: "" }))).status).toBe(400);
    expect((await put("{nope")).status).toBe(400);
    expect(await userRow(self.id)).toEqual(before);
    expect(await linksOf(self.id)).toHaveLength(1);
    // Someone else, of this entity or another: 403, whatever the body.
    for (const other of [technician, manager, admin, otherAdmin]) {
      const res = await callApi(userRoute, one(other.id).url, { method: "PUT", token, params: one(other.id).params, body: updateBody(other, { name: "Hacked" }) });
      expect(res.status).toBe(403);
    }
  });

  it("refuses bad bodies with 400 and changes nothing", async () => {
    const user = await createUser(api.database.db, { entityId: entityA.id, role: Role.TECHNICIAN, name: "Firm" });
    const { url, params } = one(user.id);
    const before = await userRow(user.id);
    const put = (body: unknown) => callApi(userRoute, url, { method: "PUT", token: managerToken, params, body });
    const missing = await put({});
    expect(missing.status).toBe(400);
    expect(missing.body.fieldErrors).toMatchObject({ name: ["Please set a name"], surname: ["Please set a surname"], role: ["Choose a role"] });
    const cases: [string, unknown][] = [
      ["not JSON", "nope"],
      ["array", []],
      ["role 4", updateBody(user, { role: 4 })],
      ["role as a string", updateBody(user, { role: "1" })],
      ["status 7", updateBody(user, { status: 7 })],
      ["status as a string", updateBody(user, { status: "3" })],
      ["name with a NUL byte", updateBody(user, { name: "Fi\u0000rm" })],
      ["updatePicture as a string", updateBody(user, { updatePicture: "true" })],
      ["building id 2^31", updateBody(user, { linkedObjects: { facilityIds: [], buildingIds: [2 ** 31] } })],
      ["building id 2^53", updateBody(user, { linkedObjects: { facilityIds: [], buildingIds: [2 ** 53] } })],
      ["10,000 building ids", updateBody(user, { linkedObjects: { facilityIds: [], buildingIds: Array.from({ length: 10_000 }, (_, i) => i + 1) } })],
      ["no links for a technician", updateBody(user, { linkedObjects: { facilityIds: [], buildingIds: [] } })],
      ["another entity's facility", updateBody(user, { linkedObjects: { facilityIds: [facilityB.id], buildingIds: [] } })],
      ["notification building 2^31", updateBody(user, { notificationSettings: { priorities: [], buildingIds: [2 ** 31] } })],
    ];
    for (const [label, body] of cases) {
      const res = await put(body);
      expect(res.status, label).toBe(400);
    }
    expect(await userRow(user.id)).toEqual(before);
  });

  it("is 403 when a manager gives the administrator role or changes an administrator", async () => {
    const user = await createUser(api.database.db, { entityId: entityA.id, role: Role.TECHNICIAN });
    const promote = await callApi(userRoute, one(user.id).url, { method: "PUT", token: managerToken, params: one(user.id).params, body: updateBody(user, { role: Role.ADMINISTRATOR }) });
    expect(promote.status).toBe(403);
    expect(promote.body.code).toBe("ADMINISTRATOR_ONLY");
    expect((await userRow(user.id)).role).toBe(Role.TECHNICIAN);
    const changeAdmin = await callApi(userRoute, one(admin.id).url, { method: "PUT", token: managerToken, params: one(admin.id).params, body: updateBody(admin, { name: "X", linkedObjects: null }) });
    expect(changeAdmin.status).toBe(403);
    expect((await userRow(admin.id)).name).toBe("Ada");
    // An administrator may.
    const byAdmin = await callApi(userRoute, one(user.id).url, { method: "PUT", token: adminToken, params: one(user.id).params, body: updateBody(user, { role: Role.ADMINISTRATOR }) });
    expect(byAdmin.status).toBe(200);
    expect(byAdmin.body).toMatchObject({ role: Role.ADMINISTRATOR, linkedObjects: { facilityIds: [], buildingIds: [] } });
  });

  it("is 409 when a user changes their own role or status", async () => {
    const { url, params } = one(manager.id);
    const self = await callApi(userRoute, url, { method: "PUT", token: managerToken, params, body: updateBody(manager, { role: Role.TECHNICIAN }) });
    expect(self.status).toBe(409);
    expect(self.body).toMatchObject({ code: "SELF", message: "You cannot disable, demote or archive your own account." });
    const selfDisable = await callApi(userRoute, url, { method: "PUT", token: managerToken, params, body: updateBody(manager, { status: UserStatus.DISABLED }) });
    expect(selfDisable.status).toBe(409);
    expect((await userRow(manager.id))).toMatchObject({ role: Role.FACILITY_MANAGER, status: UserStatus.ACTIVE });
    // Their own name is fine.
    const rename = await callApi(userRoute, url, { method: "PUT", token: managerToken, params, body: updateBody(manager, { linkedObjects: { facilityIds: [facilityA.id], buildingIds: [buildingA2.id] } }) });
    expect(rename.status).toBe(200);
  });
});

describe("PATCH /api/users/{id}/status", () => {
  it("disables a user: their bearer token fails on the next request and their refresh token is unusable; enabling restores login", async () => {
    const db = api.database.db;
    const user = await createUser(db, { entityId: entityA.id, role: Role.TECHNICIAN });
    const login = await callApi(loginRoute, "/api/authentication/login", { method: "POST", body: { username: user.email, password: DEFAULT_PASSWORD } });
    expect(login.status).toBe(200);
    const { jwtToken, refreshToken } = login.body;
    expect((await callApi(assigneesRoute, "/api/users/assignees", { token: jwtToken })).status).toBe(200);

    const { url, params } = one(user.id);
    const res = await callApi(statusRoute, `${url}/status`, { method: "PATCH", token: managerToken, params, body: { newStatus: UserStatus.DISABLED } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: user.id, status: UserStatus.DISABLED });

    const next = await callApi(assigneesRoute, "/api/users/assignees", { token: jwtToken });
    expect(next.status).toBe(401);
    expect(next.body.code).toBe("UNAUTHORIZED");
    const refreshed = await callApi(refreshRoute, "/api/authentication/refresh-token", { method: "POST", body: { jwtToken, refreshToken } });
    expect(refreshed.status).toBe(401);
    const revoked = await db.select().from(refreshTokens).where(eq(refreshTokens.userId, user.id));
    expect(revoked.length).toBeGreaterThan(0);
    expect(revoked.every((t) => t.revokedAt !== null)).toBe(true);
    const refused = await callApi(loginRoute, "/api/authentication/login", { method: "POST", body: { username: user.email, password: DEFAULT_PASSWORD } });
    expect(refused.body.message).toBe("Your account has been deactivated. Contact a facility manager at your entity to reactivate it.");

    const enabled = await callApi(statusRoute, `${url}/status`, { method: "PATCH", token: adminToken, params, body: { newStatus: UserStatus.ACTIVE } });
    expect(enabled.body.status).toBe(UserStatus.ACTIVE);
    expect((await callApi(loginRoute, "/api/authentication/login", { method: "POST", body: { username: user.email, password: DEFAULT_PASSWORD } })).status).toBe(200);
  });

  it("enabling a user who never set a password keeps them not yet validated", async () => {
    const user = await createUser(api.database.db, { entityId: entityA.id, role: Role.TECHNICIAN, status: UserStatus.DISABLED, password: null });
    const { url, params } = one(user.id);
    const res = await callApi(statusRoute, `${url}/status`, { method: "PATCH", token: managerToken, params, body: { newStatus: UserStatus.ACTIVE } });
    expect(res.status).toBe(200);
    expect(res.body.status).toBe(UserStatus.INACTIVE);
  });

  it("refuses bad bodies, another entity's id, technicians, a manager on an administrator, and the self guard", async () => {
    const user = await createUser(api.database.db, { entityId: entityA.id, role: Role.TECHNICIAN });
    const { url, params } = one(user.id);
    const patch = (token: string, body: unknown, p = params, u = url) => callApi(statusRoute, `${u}/status`, { method: "PATCH", token, params: p, body });
    for (const body of [{}, { newStatus: 1 }, { newStatus: 4 }, { newStatus: "3" }, { newStatus: null }, { newStatus: 2 ** 53 }, "x", [3]]) {
      const res = await patch(managerToken, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
    expect((await patch(managerToken, {})).body.fieldErrors).toEqual({ newStatus: ["Choose a status"] });
    for (const body of [{ newStatus: 3 }, "x", { newStatus: 9 }]) expect((await patch(technicianToken, body)).status).toBe(403);
    const other = await patch(otherToken, { newStatus: 3 });
    expect(other.status).toBe(404);
    expect(other.body.code).toBe("USER_NOT_FOUND");
    expect((await userRow(user.id)).status).toBe(UserStatus.ACTIVE);
    expect((await patch(managerToken, { newStatus: 3 }, one(admin.id).params, one(admin.id).url)).status).toBe(403);
    const self = await patch(adminToken, { newStatus: 3 }, one(admin.id).params, one(admin.id).url);
    expect(self.status).toBe(409);
    expect(self.body.code).toBe("SELF");
    expect((await userRow(admin.id)).status).toBe(UserStatus.ACTIVE);
    expect((await patch(managerToken, { newStatus: 3 }, { id: "abc" }, "/api/users/abc")).status).toBe(404);
  });

  // On PostgreSQL the two requests run at once: keepAnAdministrator locks the entity row, so the second
  // waits for the first and sees its change (no deadlock); PGlite runs the transactions one after the other.
  it("keeps the entity's last active administrator: two administrators disabling each other at once, one is refused", async () => {
    const db = api.database.db;
    const entity = await createEntity(db);
    const first = await createUser(db, { entityId: entity.id, role: Role.ADMINISTRATOR });
    const second = await createUser(db, { entityId: entity.id, role: Role.ADMINISTRATOR });
    const [firstToken, secondToken] = await Promise.all([api.token(first), api.token(second)]);
    const answers = await Promise.all([
      callApi(statusRoute, `/api/users/${second.id}/status`, { method: "PATCH", token: firstToken, params: { id: String(second.id) }, body: { newStatus: 3 } }),
      callApi(statusRoute, `/api/users/${first.id}/status`, { method: "PATCH", token: secondToken, params: { id: String(first.id) }, body: { newStatus: 3 } }),
    ]);
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses[0]).toBe(200);
    // The loser is refused: 409 LAST_ADMINISTRATOR when both passed authentication first, 401 otherwise.
    expect([401, 409]).toContain(statuses[1]);
    const refused = answers.find((a) => a.status !== 200)!;
    if (refused.status === 409) expect(refused.body).toMatchObject({ code: "LAST_ADMINISTRATOR", message: "The entity must keep at least one active administrator." });
    const active = await db
      .select({ id: users.id })
      .from(users)
      .where(and(eq(users.entityId, entity.id), eq(users.role, Role.ADMINISTRATOR), eq(users.status, UserStatus.ACTIVE)));
    expect(active).toHaveLength(1);
  });
});

describe("DELETE /api/users/{id}", () => {
  async function workOf(entityId: number, user: User) {
    const db = api.database.db;
    const building = await createBuilding(db, { entityId });
    const room = await createRoom(db, { entityId, buildingId: building.id });
    const open = [
      await createIncident(db, { entityId, roomId: room.id, assigneeId: user.id, status: IncidentStatus.PENDING }),
      await createIncident(db, { entityId, roomId: room.id, assigneeId: user.id, status: IncidentStatus.IN_PROGRESS }),
    ];
    const done = await createIncident(db, { entityId, roomId: room.id, assigneeId: user.id, status: IncidentStatus.DONE });
    const planned = await createPlannedMaintenance(db, { entityId, assigneeIds: [user.id] });
    const pendingTask = await createTask(db, { entityId, plannedMaintenanceId: planned.id, roomId: room.id, assigneeId: user.id });
    const doneTask = await createTask(db, { entityId, plannedMaintenanceId: planned.id, roomId: room.id, assigneeId: user.id, status: TaskStatus.DONE, dueDate: "2020-01-01" });
    return { building, open, done, planned, pendingTask, doneTask };
  }

  it("archives the user, reassigning their open incidents and their planned maintenance and pending tasks; answers the counts", async () => {
    const db = api.database.db;
    const leaving = await createUser(db, { entityId: entityA.id, role: Role.TECHNICIAN, name: "Leo", surname: "Leaving" });
    const leavingToken = await api.token(leaving);
    const incidentsTo = await createUser(db, { entityId: entityA.id, role: Role.TECHNICIAN, name: "Ines" });
    const maintenanceTo = await createUser(db, { entityId: entityA.id, role: Role.TECHNICIAN, name: "Mario" });
    const work = await workOf(entityA.id, leaving);
    // The successor of the incidents reaches them (a successor who does not is refused).
    await linkUserTo(db, { entityId: entityA.id, userId: incidentsTo.id, buildingId: work.building.id });
    const { url, params } = one(leaving.id);

    const res = await callApi(userRoute, `${url}?incidentsUserId=${incidentsTo.id}&plannedMaintenanceUserId=${maintenanceTo.id}`, { method: "DELETE", token: managerToken, params });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ incidentsReassigned: 2, tasksReassigned: 1, plannedMaintenancesReassigned: 1 });

    const openIds = work.open.map((i) => i.id);
    const moved = await db.select({ id: incidents.id, assigneeId: incidents.assigneeId }).from(incidents).where(inArray(incidents.id, [...openIds, work.done.id]));
    expect(Object.fromEntries(moved.map((i) => [i.id, i.assigneeId]))).toEqual({ [openIds[0]]: incidentsTo.id, [openIds[1]]: incidentsTo.id, [work.done.id]: leaving.id });
    const events = await db.select().from(incidentEvents).where(and(inArray(incidentEvents.incidentId, openIds), eq(incidentEvents.type, IncidentEventType.ASSIGNED)));
    expect(events).toHaveLength(2);
    expect(events[0]).toMatchObject({ actorId: manager.id, oldValue: { id: leaving.id, name: "Leo Leaving" }, newValue: { id: incidentsTo.id } });
    const taskRows = await db.select({ id: tasks.id, assigneeId: tasks.assigneeId }).from(tasks).where(inArray(tasks.id, [work.pendingTask.id, work.doneTask.id]));
    expect(Object.fromEntries(taskRows.map((t) => [t.id, t.assigneeId]))).toEqual({ [work.pendingTask.id]: maintenanceTo.id, [work.doneTask.id]: leaving.id });
    const assignees = await db.select({ userId: plannedMaintenanceAssignees.userId }).from(plannedMaintenanceAssignees).where(eq(plannedMaintenanceAssignees.plannedMaintenanceId, work.planned.id));
    expect(assignees).toEqual([{ userId: maintenanceTo.id }]);

    // Gone: not found, not listed, not an assignee, and their token no longer works.
    expect((await callApi(userRoute, url, { token: managerToken, params })).status).toBe(404);
    expect((await callApi(userRoute, url, { method: "DELETE", token: managerToken, params })).status).toBe(404);
    const list = await callApi(usersRoute, `${usersUrl}?size=100`, { token: managerToken });
    expect(list.body.map((u: { id: number }) => u.id)).not.toContain(leaving.id);
    const pickers = await callApi(assigneesRoute, "/api/users/assignees?size=100", { token: managerToken });
    expect(pickers.body.map((u: { id: number }) => u.id)).not.toContain(leaving.id);
    expect((await callApi(assigneesRoute, "/api/users/assignees", { token: leavingToken })).status).toBe(401);
  });

  it("leaves the work unassigned by default (0)", async () => {
    const db = api.database.db;
    const leaving = await createUser(db, { entityId: entityA.id, role: Role.TECHNICIAN });
    const work = await workOf(entityA.id, leaving);
    const { url, params } = one(leaving.id);
    const res = await callApi(userRoute, url, { method: "DELETE", token: adminToken, params });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ incidentsReassigned: 2, tasksReassigned: 1, plannedMaintenancesReassigned: 1 });
    const moved = await db.select({ assigneeId: incidents.assigneeId }).from(incidents).where(inArray(incidents.id, work.open.map((i) => i.id)));
    expect(moved).toEqual([{ assigneeId: null }, { assigneeId: null }]);
    const explicit = await createUser(db, { entityId: entityA.id, role: Role.TECHNICIAN });
    const zero = await callApi(userRoute, `/api/users/${explicit.id}?incidentsUserId=0&plannedMaintenanceUserId=`, { method: "DELETE", token: adminToken, params: { id: String(explicit.id) } });
    expect(zero.body).toEqual({ incidentsReassigned: 0, tasksReassigned: 0, plannedMaintenancesReassigned: 0 });
  });

  it("refuses bad query values, another entity's successor or user, technicians, and the self guard; nothing changes", async () => {
    const db = api.database.db;
    const leaving = await createUser(db, { entityId: entityA.id, role: Role.TECHNICIAN });
    const work = await workOf(entityA.id, leaving);
    const disabledUser = await createUser(db, { entityId: entityA.id, role: Role.TECHNICIAN, status: UserStatus.DISABLED });
    const { url, params } = one(leaving.id);
    const del = (query: string, token = managerToken) => callApi(userRoute, `${url}?${query}`, { method: "DELETE", token, params });
    for (const query of [
      "incidentsUserId=abc",
      "incidentsUserId=-1",
      "incidentsUserId=1.5",
      "incidentsUserId=1e3",
      `incidentsUserId=${2 ** 31}`,
      `incidentsUserId=${2 ** 53}`,
      "incidentsUserId=1&incidentsUserId=2",
      "plannedMaintenanceUserId=x",
      "plannedMaintenanceUserId=%00",
      `plannedMaintenanceUserId=${otherAdmin.id}`,
      `incidentsUserId=${otherAdmin.id}`,
      `incidentsUserId=${leaving.id}`,
      `incidentsUserId=${disabledUser.id}`,
    ]) {
      const res = await del(query);
      expect(res.status, query).toBe(400);
    }
    expect((await del("incidentsUserId=abc")).body).toMatchObject({ code: "VALIDATION", fieldErrors: { incidentsUserId: ["This value is not valid"] } });
    expect((await del(`incidentsUserId=${otherAdmin.id}`)).body).toMatchObject({
      code: "SUCCESSOR_NOT_FOUND",
      fieldErrors: { incidentsUserId: ["Choose an active user of your entity, or nobody"] },
    });
    // A technician: 403 before the query is read.
    expect((await del("incidentsUserId=abc", technicianToken)).status).toBe(403);
    expect((await del("", technicianToken)).status).toBe(403);
    // Another entity's administrator: 404.
    const other = await del("", otherToken);
    expect(other.status).toBe(404);
    expect(other.body.code).toBe("USER_NOT_FOUND");
    // A manager may not archive an administrator; nobody archives themselves.
    expect((await callApi(userRoute, one(admin.id).url, { method: "DELETE", token: managerToken, params: one(admin.id).params })).status).toBe(403);
    const self = await callApi(userRoute, one(admin.id).url, { method: "DELETE", token: adminToken, params: one(admin.id).params });
    expect(self.status).toBe(409);
    expect(self.body.code).toBe("SELF");
    expect((await userRow(admin.id)).archivedAt).toBeNull();

    expect((await userRow(leaving.id)).archivedAt).toBeNull();
    const still = await db.select({ assigneeId: incidents.assigneeId }).from(incidents).where(inArray(incidents.id, work.open.map((i) => i.id)));
    expect(still).toEqual([{ assigneeId: leaving.id }, { assigneeId: leaving.id }]);
  });
});

describe("GET /api/users/assignees", () => {
  let entity: Entity;
  let tech: User;
  let techToken: string;
  beforeAll(async () => {
    const db = api.database.db;
    entity = await createEntity(db);
    tech = await createUser(db, { entityId: entity.id, role: Role.TECHNICIAN, name: "Tom", surname: "Zulu" });
    techToken = await api.token(tech);
    await createUser(db, { entityId: entity.id, role: Role.FACILITY_MANAGER, name: "Mia", surname: "Alpha" });
    await createUser(db, { entityId: entity.id, role: Role.ADMINISTRATOR, name: "Ann", surname: "Bravo" });
    await createUser(db, { entityId: entity.id, role: Role.TECHNICIAN, name: "New", surname: "Charlie", status: UserStatus.INACTIVE, password: null });
    await createUser(db, { entityId: entity.id, role: Role.TECHNICIAN, name: "Off", surname: "Delta", status: UserStatus.DISABLED });
    await createUser(db, { entityId: entity.id, role: Role.TECHNICIAN, name: "Old", surname: "Echo", archivedAt: new Date() });
  });
  const surnames = (body: { surname: string }[]) => body.map((u) => u.surname);

  it("answers any signed-in user the people work can be assigned to, with X-Total-Count", async () => {
    const res = await callApi(assigneesRoute, `/api/users/assignees?entityIds=${entity.id}`, { token: techToken });
    expect(res.status).toBe(200);
    expect(surnames(res.body)).toEqual(["Alpha", "Bravo", "Charlie", "Zulu"]);
    expect(res.headers.get("X-Total-Count")).toBe("4");
    expect(res.body[0]).toEqual({ id: expect.any(Number), name: "Mia", surname: "Alpha", role: Role.FACILITY_MANAGER });
    expect(surnames((await callApi(assigneesRoute, "/api/users/assignees", { token: techToken })).body)).toHaveLength(4);
    const comma = await callApi(assigneesRoute, `/api/users/assignees?entityIds=${entity.id},${entityA.id}`, { token: techToken });
    expect(surnames(comma.body)).toHaveLength(4);
    const repeated = await callApi(assigneesRoute, `/api/users/assignees?entityIds=${entityA.id}&entityIds=${entity.id}`, { token: techToken });
    expect(surnames(repeated.body)).toHaveLength(4);
    const paged = await callApi(assigneesRoute, `/api/users/assignees?size=2&page=2`, { token: techToken });
    expect(surnames(paged.body)).toEqual(["Charlie", "Zulu"]);
    expect(paged.headers.get("X-Total-Count")).toBe("4");
    const search = await callApi(assigneesRoute, `/api/users/assignees?q=ann`, { token: techToken });
    expect(surnames(search.body)).toEqual(["Bravo"]);
  });

  it("another entity in entityIds adds nothing", async () => {
    const res = await callApi(assigneesRoute, `/api/users/assignees?entityIds=${entityB.id}`, { token: techToken });
    expect(res.status).toBe(200);
    expect(res.body).toEqual([]);
    expect(res.headers.get("X-Total-Count")).toBe("0");
    const fromB = await callApi(assigneesRoute, `/api/users/assignees?entityIds=${entity.id}&size=100`, { token: otherToken });
    expect(fromB.body).toEqual([]);
  });

  it("refuses bad parameters with 400", async () => {
    for (const params of [
      "entityIds=abc",
      "entityIds=1,x",
      "entityIds=-1",
      `entityIds=${"9".repeat(20)}`,
      `entityIds=${Array.from({ length: 10_000 }, (_, i) => i + 1).join(",")}`,
      "size=101",
      "size=0",
      "page=abc",
      "sort=email",
      "dir=up",
    ]) {
      const res = await callApi(assigneesRoute, `/api/users/assignees?${params}`, { token: techToken });
      expect(res.status, params.slice(0, 40)).toBe(400);
      expect(res.body.code).toBe("INVALID_LIST_QUERY");
    }
  });
});

describe("POST /api/users/{id}/invitation", () => {
  it("sends a new invitation to a user not yet validated; the earlier link stops working", async () => {
    const created = await callApi(usersRoute, usersUrl, { method: "POST", token: managerToken, body: newUserBody({ email: "again@example.test" }) });
    expect(created.status).toBe(201);
    const { url, params } = one(created.body.id);
    const res = await callApi(invitationRoute, `${url}/invitation`, { method: "POST", token: managerToken, params });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: created.body.id, status: UserStatus.INACTIVE });
    const mails = (await api.mails()).filter((m) => m.to === "again@example.test");
    expect(mails).toHaveLength(2);
    const link = (text: string) => /token=([^&\s]+)/.exec(text)![1];
    expect(link(mails[1].text)).not.toBe(link(mails[0].text));
  });

  it("is 409 for a user who already set a password, 403 for a technician, 404 for another entity", async () => {
    const { url, params } = one(technician.id);
    const before = (await api.mails()).length;
    const validated = await callApi(invitationRoute, `${url}/invitation`, { method: "POST", token: managerToken, params });
    expect(validated.status).toBe(409);
    expect(validated.body).toMatchObject({ code: "ALREADY_VALIDATED", message: "This user has already set a password." });
    expect((await callApi(invitationRoute, `${url}/invitation`, { method: "POST", token: technicianToken, params })).status).toBe(403);
    const other = await callApi(invitationRoute, `${url}/invitation`, { method: "POST", token: otherToken, params });
    expect(other.status).toBe(404);
    expect(other.body.code).toBe("USER_NOT_FOUND");
    expect((await callApi(invitationRoute, "/api/users/x/invitation", { method: "POST", token: managerToken, params: { id: "x" } })).status).toBe(404);
    expect(await api.mails()).toHaveLength(before);
  });
});
