import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { personActor } from "~/core/actor";
import { IncidentStatus, Role, UserStatus } from "~/db/enums";
import { apiTokens, auditLog, changeEvents, type Entity, type Facility, type User, users } from "~/db/schema";
import { ForbiddenError, NotFoundError, ValidationError } from "~/lib/errors";
import { listApiTokens } from "~/modules/api-tokens/queries.server";
import { createApiToken, revokeApiToken } from "~/modules/api-tokens/service.server";
import * as facilitiesRoute from "~/routes/api/facilities";
import * as facilityRoute from "~/routes/api/facilities.$id";
import * as incidentRoute from "~/routes/api/incidents.$id";
import * as incidentStatusRoute from "~/routes/api/incidents.$id.status";
import * as notificationsCountRoute from "~/routes/api/users.$id.notifications.count";
import * as userRoute from "~/routes/api/users.$id";
import * as usersRoute from "~/routes/api/users";
import { createBuilding, createEntity, createFacility, createIncident, createRoom, createUser } from "#tests/factories";
import { type ApiHarness, apiContext, callApi } from "#tests/api-helpers";
import { rejectionOf } from "#tests/service-helpers";

/**
 * API tokens (issue 50, decision 056): made by an administrator, each acts as its own actor with its own
 * role, reach and expiry through the REST API; revoked, it is refused on the very next call; audited
 * under its name; and the API's per-caller rate limits.
 */
let api: ApiHarness;
let entityA: Entity;
let entityB: Entity;
let admin: User;
let manager: User;
let technician: User;
let adminB: User;
let north: Facility;
let south: Facility;
let facilityB: Facility;

function ctxOf(user: User) {
  return { db: api.database.db, entityId: user.entityId, actor: personActor(user), locale: "en", timeZone: "Europe/Brussels" };
}

async function makeToken(by: User, input: { name?: string; role: number; facilityIds?: number[]; expiresInDays?: number }) {
  return createApiToken(ctxOf(by), { name: input.name ?? "Integration", role: input.role as 1, facilityIds: input.facilityIds ?? [], expiresInDays: input.expiresInDays ?? 30 });
}

const get = (route: Parameters<typeof callApi>[0], url: string, token: string, params?: Record<string, string>) => callApi(route, url, { token, params });

beforeAll(async () => {
  const { startApiRuntime } = await import("#tests/api-helpers");
  api = await startApiRuntime();
  const db = api.database.db;
  entityA = await createEntity(db, { name: "Entity A" });
  entityB = await createEntity(db, { name: "Entity B" });
  admin = await createUser(db, { entityId: entityA.id, role: Role.ADMINISTRATOR });
  manager = await createUser(db, { entityId: entityA.id, role: Role.FACILITY_MANAGER });
  technician = await createUser(db, { entityId: entityA.id, role: Role.TECHNICIAN });
  adminB = await createUser(db, { entityId: entityB.id, role: Role.ADMINISTRATOR });
  north = await createFacility(db, { entityId: entityA.id, name: "North" });
  south = await createFacility(db, { entityId: entityA.id, name: "South" });
  facilityB = await createFacility(db, { entityId: entityB.id, name: "Theirs" });
});
afterAll(async () => {
  await api?.close();
});

describe("making and revoking tokens (the verbs)", () => {
  it("an administrator makes a token: shown once as ct_ and 43 characters, stored as its SHA-256 only", async () => {
    const { token, secret } = await makeToken(admin, { name: "ERP", role: Role.TECHNICIAN, facilityIds: [north.id] });
    expect(secret).toMatch(/^ct_[A-Za-z0-9_-]{43}$/);
    expect(token).toMatchObject({ name: "ERP", role: Role.TECHNICIAN, state: "active", facilities: [{ id: north.id, name: "North" }], lastUsedAt: null });
    expect(token.prefix).toBe(secret.slice(0, 8));
    const [row] = await api.database.db.select().from(apiTokens).where(eq(apiTokens.id, token.id));
    expect(row.tokenHash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(row)).not.toContain(secret.slice(3));
    // Listed for administrators and facility managers, never with its secret.
    const listed = await listApiTokens(ctxOf(manager));
    expect(listed.map((t) => t.id)).toContain(token.id);
    expect(JSON.stringify(listed)).not.toContain(secret.slice(3));
  });

  it("refuses facility managers and technicians (403), bad input (400), another entity's facilities (400)", async () => {
    expect(await rejectionOf(makeToken(manager, { role: Role.TECHNICIAN, facilityIds: [north.id] }))).toBeInstanceOf(ForbiddenError);
    expect(await rejectionOf(makeToken(technician, { role: Role.TECHNICIAN, facilityIds: [north.id] }))).toBeInstanceOf(ForbiddenError);
    expect(await rejectionOf(listApiTokens(ctxOf(technician)))).toBeInstanceOf(ForbiddenError);
    const before = await api.database.db.select().from(apiTokens);
    for (const bad of [
      { role: Role.TECHNICIAN, facilityIds: [] },
      { role: Role.FACILITY_MANAGER },
      { role: 4, facilityIds: [north.id] },
      { role: Role.ADMINISTRATOR, expiresInDays: 0 },
      { role: Role.ADMINISTRATOR, expiresInDays: 36500 },
      { role: Role.ADMINISTRATOR, name: "" },
      { role: Role.ADMINISTRATOR, name: "a\u0000b" },
      { role: Role.TECHNICIAN, facilityIds: [2 ** 31] },
    ]) {
      expect(await rejectionOf(makeToken(admin, bad)), JSON.stringify(bad)).toBeInstanceOf(ValidationError);
    }
    const foreign = await rejectionOf(makeToken(admin, { role: Role.TECHNICIAN, facilityIds: [facilityB.id] }));
    expect(foreign).toBeInstanceOf(ValidationError);
    expect((foreign as ValidationError).fieldErrors).toEqual({ facilityIds: ["apiTokens:validation.facilityNotFound"] });
    expect(await api.database.db.select().from(apiTokens)).toHaveLength(before.length);
  });

  it("revokes within the entity only: another entity's token is not found, a manager may not", async () => {
    const { token } = await makeToken(admin, { role: Role.ADMINISTRATOR });
    expect(await rejectionOf(revokeApiToken(ctxOf(adminB), token.id))).toBeInstanceOf(NotFoundError);
    expect(await rejectionOf(revokeApiToken(ctxOf(manager), token.id))).toBeInstanceOf(ForbiddenError);
    expect(await rejectionOf(revokeApiToken(ctxOf(admin), 2 ** 31 - 1))).toBeInstanceOf(NotFoundError);
    expect((await revokeApiToken(ctxOf(admin), token.id)).state).toBe("revoked");
    // Again: nothing changes.
    expect((await revokeApiToken(ctxOf(admin), token.id)).state).toBe("revoked");
    const audit = await api.database.db.select().from(auditLog).where(and(eq(auditLog.recordType, "apiToken"), eq(auditLog.recordId, String(token.id))));
    expect(audit.map((a) => a.action).sort()).toEqual(["apiToken.create", "apiToken.revoke"]);
  });
});

describe("calling the API with a token", () => {
  it("acts with the token's role: a technician's token reads, but may not manage users or create facilities", async () => {
    const { secret } = await makeToken(admin, { role: Role.TECHNICIAN, facilityIds: [north.id, south.id] });
    const list = await get(facilitiesRoute, "/api/facilities", secret);
    expect(list.status).toBe(200);
    expect(list.body.map((f: { id: number }) => f.id).sort()).toEqual([north.id, south.id].sort());
    expect((await get(usersRoute, "/api/users", secret)).status).toBe(403);
    expect((await callApi(facilitiesRoute, "/api/facilities", { method: "POST", token: secret, body: { name: "Nope" } })).status).toBe(403);
  });

  it("reaches only its facilities: another facility of the entity is not found", async () => {
    const { secret } = await makeToken(admin, { role: Role.FACILITY_MANAGER, facilityIds: [north.id] });
    const list = await get(facilitiesRoute, "/api/facilities", secret);
    expect(list.body.map((f: { id: number }) => f.id)).toEqual([north.id]);
    expect((await get(facilityRoute, `/api/facilities/${south.id}`, secret, { id: String(south.id) })).status).toBe(404);
    expect((await get(facilityRoute, `/api/facilities/${north.id}`, secret, { id: String(north.id) })).status).toBe(200);
    // Its maker's assigned incidents elsewhere are not the token's.
    const room = await createRoom(api.database.db, { entityId: entityA.id, buildingId: (await createBuilding(api.database.db, { entityId: entityA.id, facilityId: south.id })).id });
    const elsewhere = await createIncident(api.database.db, { entityId: entityA.id, roomId: room.id, assigneeId: admin.id });
    expect((await get(incidentRoute, `/api/incidents/${elsewhere.id}`, secret, { id: String(elsewhere.id) })).status).toBe(404);
  });

  it("an administrator's token without facilities reaches the whole entity, and nothing of another entity", async () => {
    const { secret } = await makeToken(admin, { role: Role.ADMINISTRATOR });
    const list = await get(facilitiesRoute, "/api/facilities", secret);
    expect(list.body.map((f: { id: number }) => f.id)).toEqual(expect.arrayContaining([north.id, south.id]));
    expect(list.body.map((f: { id: number }) => f.id)).not.toContain(facilityB.id);
    // Another entity's token cannot reach this entity's data: not found.
    const theirs = await makeToken(adminB, { role: Role.ADMINISTRATOR });
    expect((await get(facilityRoute, `/api/facilities/${north.id}`, theirs.secret, { id: String(north.id) })).status).toBe(404);
    expect((await get(userRoute, `/api/users/${admin.id}`, theirs.secret, { id: String(admin.id) })).status).toBe(404);
    const their = await get(facilitiesRoute, "/api/facilities", theirs.secret);
    expect(their.body.map((f: { id: number }) => f.id)).toEqual([facilityB.id]);
  });

  it("is not a person: no notifications of its maker; it reads users as its role allows", async () => {
    const { secret } = await makeToken(admin, { role: Role.ADMINISTRATOR });
    expect((await get(notificationsCountRoute, `/api/users/${admin.id}/notifications/count`, secret, { id: String(admin.id) })).status).toBe(403);
    expect((await get(userRoute, `/api/users/${admin.id}`, secret, { id: String(admin.id) })).status).toBe(200);
    // A technician's token made by the same person is not that person: no "own profile" through it.
    const tech = await makeToken(admin, { role: Role.TECHNICIAN, facilityIds: [north.id] });
    expect((await get(userRoute, `/api/users/${admin.id}`, tech.secret, { id: String(admin.id) })).status).toBe(403);
  });

  it("is refused on the very next call once revoked, once expired, and when its maker is disabled; unknown secrets are 401", async () => {
    const made = await makeToken(admin, { role: Role.ADMINISTRATOR });
    expect((await get(facilitiesRoute, "/api/facilities", made.secret)).status).toBe(200);
    await revokeApiToken(ctxOf(admin), made.token.id);
    const refused = await get(facilitiesRoute, "/api/facilities", made.secret);
    expect(refused.status).toBe(401);
    expect(refused.body.code).toBe("UNAUTHORIZED");

    const expiring = await makeToken(admin, { role: Role.ADMINISTRATOR });
    await api.database.db.update(apiTokens).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(apiTokens.id, expiring.token.id));
    expect((await get(facilitiesRoute, "/api/facilities", expiring.secret)).status).toBe(401);

    const leaver = await createUser(api.database.db, { entityId: entityA.id, role: Role.ADMINISTRATOR });
    const left = await makeToken(leaver, { role: Role.ADMINISTRATOR });
    expect((await get(facilitiesRoute, "/api/facilities", left.secret)).status).toBe(200);
    await api.database.db.update(users).set({ status: UserStatus.DISABLED }).where(eq(users.id, leaver.id));
    expect((await get(facilitiesRoute, "/api/facilities", left.secret)).status).toBe(401);

    for (const bad of ["ct_", `ct_${"A".repeat(43)}`, `${made.secret}x`, made.secret.toUpperCase(), `ct_${"%".repeat(43)}`, `ct_${"A".repeat(4000)}`]) {
      expect((await get(facilitiesRoute, "/api/facilities", bad)).status, bad).toBe(401);
    }
  });

  it("never acts above its maker's current role: a demoted maker's administrator token reaches only the maker's links", async () => {
    const maker = await createUser(api.database.db, { entityId: entityA.id, role: Role.ADMINISTRATOR });
    const { secret } = await makeToken(maker, { role: Role.ADMINISTRATOR });
    expect((await get(facilitiesRoute, "/api/facilities", secret)).body.length).toBeGreaterThanOrEqual(2);
    await api.database.db.update(users).set({ role: Role.FACILITY_MANAGER }).where(eq(users.id, maker.id));
    expect((await get(facilitiesRoute, "/api/facilities", secret)).body).toEqual([]);
  });

  it("records its last use, and audits what it changes under its own id and name", async () => {
    const made = await makeToken(admin, { name: "Helpdesk sync", role: Role.ADMINISTRATOR });
    const created = await callApi(facilitiesRoute, "/api/facilities", { method: "POST", token: made.secret, body: { name: "Made by a token" } });
    expect(created.status).toBe(201);
    const [row] = await api.database.db.select().from(apiTokens).where(eq(apiTokens.id, made.token.id));
    expect(row.lastUsedAt).not.toBeNull();
    const [audit] = await api.database.db.select().from(auditLog).where(and(eq(auditLog.recordType, "facility"), eq(auditLog.recordId, String(created.body.id))));
    expect(audit).toMatchObject({ action: "facility.create", actorTokenId: made.token.id, actorId: admin.id });
    const room = await createRoom(api.database.db, { entityId: entityA.id, buildingId: (await createBuilding(api.database.db, { entityId: entityA.id, facilityId: north.id })).id });
    const incident = await createIncident(api.database.db, { entityId: entityA.id, roomId: room.id, status: IncidentStatus.PENDING });
    const status = await callApi(incidentStatusRoute, `/api/incidents/${incident.id}/status`, { method: "PUT", token: made.secret, params: { id: String(incident.id) }, body: { status: IncidentStatus.IN_PROGRESS } });
    expect(status.status).toBe(200);
    const [change] = await api.database.db.select().from(changeEvents).where(and(eq(changeEvents.subjectId, incident.id), eq(changeEvents.type, "incident.status-changed")));
    expect(change.actor).toEqual({ kind: "token", id: admin.id, tokenId: made.token.id, name: "Helpdesk sync" });
  });
});

describe("rate limits", () => {
  it("counts per token and per person, with RateLimit headers on every answer and 429 with a JSON body over the limit", async () => {
    const config = (apiContext().runtime as unknown as { config: Record<string, number> }).config;
    const kept = { ...config };
    config.API_RATE_LIMIT_PER_TOKEN = 3;
    config.API_RATE_LIMIT_PER_PERSON = 4;
    try {
      const one = await makeToken(admin, { role: Role.ADMINISTRATOR });
      const two = await makeToken(admin, { role: Role.ADMINISTRATOR });
      const answers = [];
      for (let i = 0; i < 4; i++) answers.push(await get(facilitiesRoute, "/api/facilities", one.secret));
      expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 429]);
      expect(answers[0].headers.get("ratelimit-limit")).toBe("3");
      expect(answers.map((a) => a.headers.get("ratelimit-remaining"))).toEqual(["2", "1", "0", "0"]);
      expect(Number(answers[0].headers.get("ratelimit-reset"))).toBeGreaterThan(0);
      expect(answers[0].headers.get("ratelimit-policy")).toMatch(/^3;w=60/);
      const over = answers[3];
      expect(over.body).toMatchObject({ code: "TOO_MANY_REQUESTS", message: expect.any(String) });
      expect(Number(over.headers.get("retry-after"))).toBeGreaterThan(0);
      // Another token has its own count.
      expect((await get(facilitiesRoute, "/api/facilities", two.secret)).status).toBe(200);
      // A person's session counts per person, whatever the token shows.
      const person = await api.token(manager);
      const again = await api.token(manager);
      const statuses = [];
      for (const jwt of [person, again, person, again, person]) statuses.push((await get(facilitiesRoute, "/api/facilities", jwt)).status);
      expect(statuses).toEqual([200, 200, 200, 200, 429]);
      // An unauthenticated call is 401 (counted by the server's address limits, not here).
      expect((await callApi(facilitiesRoute, "/api/facilities")).status).toBe(401);
    } finally {
      Object.assign(config, kept);
    }
  });
});
