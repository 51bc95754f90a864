import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { personActor } from "~/core/actor";
import { Role } from "~/db/enums";
import { auditLog, entities, type Entity, type Incident, materialLines, timeEntries, type User, users } from "~/db/schema";
import { createApiToken } from "~/modules/api-tokens/service.server";
import * as ratesRoute from "~/routes/api/entities.$id.hourly-rates";
import * as entriesRoute from "~/routes/api/incidents.$id.time-entries";
import * as materialLinesRoute from "~/routes/api/incidents.$id.material-lines";
import { createBuilding, createEntity, createFacility, createIncident, createRoom, createUser, linkUserTo } from "#tests/factories";
import { type ApiHarness, callApi, startApiRuntime } from "#tests/api-helpers";

/**
 * The hourly rates through REST (issue 62, decision 065): GET and PUT /api/entities/{id}/hourly-rates for
 * administrators alone (and their whole-entity tokens), another entity's id 404, a technician, a manager,
 * a manager's token and a token limited to some facilities refused, nothing changed by a refusal; and the
 * privacy of rates in the time entries' answers: a technician sees the rate and cost of their own entries
 * only, and the record's labour total only while all its time is theirs; managers see every one.
 */
let api: ApiHarness;
let entity: Entity;
let otherEntity: Entity;
let admin: User;
let manager: User;
let tom: User;
let cleo: User;
let archived: User;
let stranger: User;
let incident: Incident;
let soloIncident: Incident;
const tokens: Record<string, string> = {};

const DAY = "2026-03-02";
const ENTITY_NOT_FOUND = { code: "ENTITY_NOT_FOUND", message: "Entity not found" };

const rates = (entityId: number | string, token: string, call: { method?: string; body?: unknown } = {}) =>
  callApi(ratesRoute, `/api/entities/${entityId}/hourly-rates`, { ...call, token, params: { id: String(entityId) } });
const timeOf = (incidentId: number, token: string) => callApi(entriesRoute, `/api/incidents/${incidentId}/time-entries`, { token, params: { id: String(incidentId) } });

/** What the rates are in the database: the entity's currency and default, and each person's own rate. */
async function stored() {
  const db = api.database.db;
  const [row] = await db.select({ currency: entities.currency, defaultRate: entities.defaultHourlyRate }).from(entities).where(eq(entities.id, entity.id));
  const people = await db.select({ id: users.id, rate: users.hourlyRate }).from(users).where(eq(users.entityId, entity.id));
  const [foreign] = await db.select({ currency: entities.currency, defaultRate: entities.defaultHourlyRate }).from(entities).where(eq(entities.id, otherEntity.id));
  const [strangerRate] = await db.select({ rate: users.hourlyRate }).from(users).where(eq(users.id, stranger.id));
  return { ...row, people: Object.fromEntries(people.map((p) => [p.id, p.rate])), foreign, stranger: strangerRate.rate };
}

beforeAll(async () => {
  api = await startApiRuntime();
  const db = api.database.db;
  entity = await createEntity(db, { name: "Entity A" });
  otherEntity = await createEntity(db, { name: "Entity B" });
  const north = await createFacility(db, { entityId: entity.id, name: "North" });
  const building = await createBuilding(db, { entityId: entity.id, facilityId: north.id });
  const room = await createRoom(db, { entityId: entity.id, buildingId: building.id });
  admin = await createUser(db, { entityId: entity.id, role: Role.ADMINISTRATOR, name: "Ada", surname: "Admin" });
  manager = await createUser(db, { entityId: entity.id, role: Role.FACILITY_MANAGER, name: "Max", surname: "Manager" });
  tom = await createUser(db, { entityId: entity.id, role: Role.TECHNICIAN, name: "Tom", surname: "Tech" });
  cleo = await createUser(db, { entityId: entity.id, role: Role.TECHNICIAN, name: "Cleo", surname: "Colleague" });
  archived = await createUser(db, { entityId: entity.id, role: Role.TECHNICIAN, name: "Arch", surname: "Ived", archivedAt: new Date("2026-01-01T00:00:00Z") });
  stranger = await createUser(db, { entityId: otherEntity.id, role: Role.ADMINISTRATOR, name: "Sam", surname: "Stranger" });
  for (const person of [manager, tom, cleo]) await linkUserTo(db, { entityId: entity.id, userId: person.id, facilityId: north.id });
  incident = await createIncident(db, { entityId: entity.id, roomId: room.id, title: "Leak" });
  soloIncident = await createIncident(db, { entityId: entity.id, roomId: room.id, title: "Lamp" });
  const adminCtx = { db, entityId: entity.id, actor: personActor(admin), locale: "en", timeZone: "Europe/Brussels" };
  const token = async (name: string, role: Role, facilityIds: number[]) => (await createApiToken(adminCtx, { name, role: role as 1, facilityIds, expiresInDays: 30 })).secret;
  Object.assign(tokens, {
    admin: await api.token(admin),
    manager: await api.token(manager),
    tom: await api.token(tom),
    cleo: await api.token(cleo),
    stranger: await api.token(stranger),
    adminToken: await token("Payroll", Role.ADMINISTRATOR, []),
    limitedAdminToken: await token("North payroll", Role.ADMINISTRATOR, [north.id]),
    managerToken: await token("North desk", Role.FACILITY_MANAGER, [north.id]),
  });
});

afterAll(async () => {
  await api?.close();
});

describe("GET and PUT /api/entities/{id}/hourly-rates", () => {
  it("reads the entity's currency, default and people's rates (EUR without rates at first)", async () => {
    const answer = await rates(entity.id, tokens.admin);
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      currency: "EUR",
      defaultRate: null,
      people: [
        { id: admin.id, name: "Ada Admin", email: admin.email, rate: null },
        { id: cleo.id, name: "Cleo Colleague", email: cleo.email, rate: null },
        { id: manager.id, name: "Max Manager", email: manager.email, rate: null },
        { id: tom.id, name: "Tom Tech", email: tom.email, rate: null },
      ],
    });
  });

  it("refuses technicians, managers, a manager's token and a token limited to some facilities (403), and another entity's id (404); nothing changes", async () => {
    const before = await stored();
    const body = { currency: "USD", defaultRate: "10", rates: [{ userId: tom.id, rate: "99" }] };
    for (const who of ["tom", "manager", "managerToken"]) {
      expect((await rates(entity.id, tokens[who])).status, who).toBe(403);
      expect((await rates(entity.id, tokens[who], { method: "PUT", body })).status, who).toBe(403);
    }
    expect(await rates(entity.id, tokens.limitedAdminToken)).toMatchObject({ status: 403, body: { code: "RATES_WHOLE_ENTITY" } });
    expect((await rates(entity.id, tokens.limitedAdminToken, { method: "PUT", body })).status).toBe(403);
    // Another entity's administrator naming this entity, and this entity's naming the other one.
    expect(await rates(entity.id, tokens.stranger)).toMatchObject({ status: 404, body: ENTITY_NOT_FOUND });
    expect(await rates(entity.id, tokens.stranger, { method: "PUT", body: { ...body, rates: [{ userId: stranger.id, rate: "99" }] } })).toMatchObject({ status: 404, body: ENTITY_NOT_FOUND });
    expect(await rates(otherEntity.id, tokens.admin)).toMatchObject({ status: 404, body: ENTITY_NOT_FOUND });
    expect(await rates(otherEntity.id, tokens.admin, { method: "PUT", body })).toMatchObject({ status: 404, body: ENTITY_NOT_FOUND });
    for (const id of ["0", "abc", "2147483648"]) expect(await rates(id, tokens.admin)).toMatchObject({ status: 404, body: ENTITY_NOT_FOUND });
    expect(await stored()).toEqual(before);
    expect(await api.database.db.select().from(auditLog).where(eq(auditLog.action, "rate.set"))).toEqual([]);
  });

  it("refuses another entity's person, an archived one, a missing default and a bad amount (400); nothing changes", async () => {
    const before = await stored();
    const refused = [
      { currency: "CHF", defaultRate: "30", rates: [{ userId: tom.id, rate: "40" }, { userId: stranger.id, rate: "50" }] },
      { currency: "CHF", defaultRate: "30", rates: [{ userId: archived.id, rate: "50" }] },
      { currency: "CHF", rates: [{ userId: tom.id, rate: "40" }] },
      { currency: "CHF", defaultRate: "-5" },
      { currency: "XYZ", defaultRate: "30" },
      { currency: "CHF", defaultRate: "30", rates: [{ userId: tom.id, rate: "40" }, { userId: tom.id, rate: "41" }] },
    ];
    for (const body of refused) expect((await rates(entity.id, tokens.admin, { method: "PUT", body })).status, JSON.stringify(body)).toBe(400);
    expect(await rates(entity.id, tokens.admin, { method: "PUT", body: refused[0] })).toMatchObject({ status: 400, body: { code: "RATE_PERSON_NOT_FOUND" } });
    expect((await rates(entity.id, tokens.admin, { method: "PUT", body: "[1]" })).status).toBe(400);
    expect(await stored()).toEqual(before);
  });

  it("sets the currency, the default and people's rates (a person left out keeps theirs), answering the rates; one audit row", async () => {
    const first = await rates(entity.id, tokens.admin, { method: "PUT", body: { currency: "GBP", defaultRate: "36,50", rates: [{ userId: tom.id, rate: 40 }, { userId: cleo.id, rate: "45.25" }] } });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ currency: "GBP", defaultRate: "36.50" });
    expect(first.body.people.map((p: { name: string; rate: string | null }) => [p.name, p.rate])).toEqual([
      ["Ada Admin", null],
      ["Cleo Colleague", "45.25"],
      ["Max Manager", null],
      ["Tom Tech", "40.00"],
    ]);
    // Through the administrator's whole-entity token: the currency back to EUR, Cleo's rate cleared; Tom keeps his.
    const second = await rates(entity.id, tokens.adminToken, { method: "PUT", body: { currency: "EUR", defaultRate: "36.50", rates: [{ userId: cleo.id, rate: null }] } });
    expect(second.status).toBe(200);
    const after = await stored();
    expect([after.currency, after.defaultRate, after.people[tom.id], after.people[cleo.id], after.people[admin.id]]).toEqual(["EUR", "36.50", "40.00", null, null]);
    expect(after.foreign).toEqual({ currency: "EUR", defaultRate: null });
    expect(after.stranger).toBeNull();
    const audit = await api.database.db.select({ actorId: auditLog.actorId, details: auditLog.details }).from(auditLog).where(eq(auditLog.action, "rate.set"));
    expect(audit).toEqual([
      {
        actorId: admin.id,
        details: {
          currency: { from: "EUR", to: "GBP" },
          defaultRate: { from: null, to: "36.50" },
          people: [
            { userId: tom.id, from: null, to: "40" },
            { userId: cleo.id, from: null, to: "45.25" },
          ],
        },
      },
      { actorId: admin.id, details: { currency: { from: "GBP", to: "EUR" }, people: [{ userId: cleo.id, from: "45.25", to: null }] } },
    ]);
    expect((await rates(entity.id, tokens.adminToken)).body.currency).toBe("EUR");
  });

  it("answers 405 to other methods", async () => {
    const answer = await rates(entity.id, tokens.admin, { method: "POST", body: {} });
    expect(answer.status).toBe(405);
    expect(answer.headers.get("allow")).toBe("GET, PUT");
  });
});

describe("the privacy of rates in the time entries' answers", () => {
  beforeAll(async () => {
    // Tom at 40.00 an hour, Cleo at 60.00; entries keep the rate they were recorded with.
    await api.database.db.update(users).set({ hourlyRate: "40.00" }).where(eq(users.id, tom.id));
    await api.database.db.update(users).set({ hourlyRate: "60.00" }).where(eq(users.id, cleo.id));
    await api.database.db.insert(timeEntries).values([
      { entityId: entity.id, incidentId: incident.id, userId: tom.id, workedOn: DAY, minutes: 90, hourlyRate: "40.00", createdById: tom.id },
      { entityId: entity.id, incidentId: incident.id, userId: cleo.id, workedOn: DAY, minutes: 30, hourlyRate: "60.00", createdById: cleo.id },
      { entityId: entity.id, incidentId: soloIncident.id, userId: tom.id, workedOn: DAY, minutes: 45, hourlyRate: "40.00", createdById: tom.id },
    ]);
    await api.database.db.insert(materialLines).values({ entityId: entity.id, incidentId: incident.id, description: "Seal", quantity: "2", unitCost: "2.50", createdById: cleo.id });
  });

  const costs = (body: { person: { name: string }; hourlyRate: string | null; cost: string | null; costHidden: boolean }[]) =>
    body.map((e) => [e.person.name, e.hourlyRate, e.cost, e.costHidden]);

  it("shows a technician the rate and cost of their own entries only, and a manager and an administrator every one", async () => {
    // Tom: 90 min at 40.00 = 60.00; Cleo: 30 min at 60.00 = 30.00.
    expect(costs((await timeOf(incident.id, tokens.tom)).body)).toEqual([
      ["Tom Tech", "40.00", "60.00", false],
      ["Cleo Colleague", null, null, true],
    ]);
    expect(costs((await timeOf(incident.id, tokens.cleo)).body)).toEqual([
      ["Tom Tech", null, null, true],
      ["Cleo Colleague", "60.00", "30.00", false],
    ]);
    for (const who of ["manager", "admin", "managerToken"]) {
      expect(costs((await timeOf(incident.id, tokens[who])).body), who).toEqual([
        ["Tom Tech", "40.00", "60.00", false],
        ["Cleo Colleague", "60.00", "30.00", false],
      ]);
    }
  });

  it("keeps the record's labour and total from a technician while a colleague's time counts in them; the time and material stay", async () => {
    const { getWork } = await import("~/modules/time-costs/queries.server");
    const ctxOf = (user: User) => ({ db: api.database.db, entityId: entity.id, actor: personActor(user), locale: "en", timeZone: "Europe/Brussels" });
    // Labour 60.00 + 30.00 = 90.00, material 2 × 2.50 = 5.00, total 95.00.
    expect((await getWork(ctxOf(manager), { incidentId: incident.id })).totals).toEqual({ minutes: 120, labour: "90.00", materials: "5.00", total: "95.00", unpricedEntries: 0, entries: 2, lines: 1 });
    expect((await getWork(ctxOf(tom), { incidentId: incident.id })).totals).toEqual({ minutes: 120, labour: null, materials: "5.00", total: null, unpricedEntries: 0, entries: 2, lines: 1 });
    // All of the lamp's time is Tom's: 45 min at 40.00 = 30.00.
    expect((await getWork(ctxOf(tom), { incidentId: soloIncident.id })).totals).toEqual({ minutes: 45, labour: "30.00", materials: "0.00", total: "30.00", unpricedEntries: 0, entries: 1, lines: 0 });
    const lines = await callApi(materialLinesRoute, `/api/incidents/${incident.id}/material-lines`, { token: tokens.tom, params: { id: String(incident.id) } });
    expect(lines.headers.get("x-total-amount")).toBe("5.00");
  });
});
