import { asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { personActor } from "~/core/actor";
import { Role } from "~/db/enums";
import { type Entity, type Incident, materialLines, type Room, timeEntries, type User } from "~/db/schema";
import { createApiToken } from "~/modules/api-tokens/service.server";
import * as lineRoute from "~/routes/api/incidents.$id.material-lines.$lineId";
import * as linesRoute from "~/routes/api/incidents.$id.material-lines";
import * as entryRoute from "~/routes/api/incidents.$id.time-entries.$entryId";
import * as entriesRoute from "~/routes/api/incidents.$id.time-entries";
import { createBuilding, createEntity, createFacility, createIncident, createRoom, createUser, linkUserTo } from "#tests/factories";
import { type ApiHarness, callApi, type RouteModule, startApiRuntime } from "#tests/api-helpers";

/**
 * The time and material calls under /api/incidents/{id} (issue 62): what each answers, the verbs' rules
 * through them (a technician's own entries only, a manager's any within reach), another entity's and
 * another incident's ids as 404, an incident out of the caller's reach as 404, validation as 400 with
 * field errors, and a PATCH that keeps the fields it does not send.
 */
let api: ApiHarness;
let entityA: Entity;
let roomA: Room;
let facilityId: number;
let admin: User;
let manager: User;
let technician: User;
let colleague: User;
let incident: Incident;
let otherIncident: Incident;
let foreign: Incident;
let managerToken: string;
let technicianToken: string;
let colleagueToken: string;
let outsiderToken: string;
let foreignToken: string;

const DAY = "2026-03-02";
const INCIDENT_NOT_FOUND = {
  code: "INCIDENT_NOT_FOUND",
  message: "Incident not found",
};
const ENTRY_NOT_FOUND = {
  code: "TIME_ENTRY_NOT_FOUND",
  message: "Time entry not found",
};
const LINE_NOT_FOUND = {
  code: "MATERIAL_LINE_NOT_FOUND",
  message: "Material line not found",
};
const NOT_YOURS = {
  code: "NOT_YOUR_ENTRY",
  message: "You can only change your own entries.",
};

type Call = { method?: string; token: string; body?: unknown };
const list = (route: RouteModule, kind: string, incidentId: number, call: Call) =>
  callApi(route, `/api/incidents/${incidentId}/${kind}`, {
    ...call,
    params: { id: String(incidentId) },
  });
const one = (route: RouteModule, kind: string, param: string, incidentId: number, id: number | string, call: Call) =>
  callApi(route, `/api/incidents/${incidentId}/${kind}/${id}`, {
    ...call,
    params: { id: String(incidentId), [param]: String(id) },
  });
const entries = (incidentId: number, call: Call) => list(entriesRoute, "time-entries", incidentId, call);
const entry = (incidentId: number, id: number | string, call: Call) => one(entryRoute, "time-entries", "entryId", incidentId, id, call);
const lines = (incidentId: number, call: Call) => list(linesRoute, "material-lines", incidentId, call);
const line = (incidentId: number, id: number | string, call: Call) => one(lineRoute, "material-lines", "lineId", incidentId, id, call);

const entryRow = async (id: number) => (await api.database.db.select().from(timeEntries).where(eq(timeEntries.id, id)))[0];
const lineRow = async (id: number) => (await api.database.db.select().from(materialLines).where(eq(materialLines.id, id)))[0];

beforeAll(async () => {
  api = await startApiRuntime();
  const db = api.database.db;
  entityA = await createEntity(db, { name: "Entity A" });
  const entityB = await createEntity(db, { name: "Entity B" });
  const facility = await createFacility(db, {
    entityId: entityA.id,
    name: "Campus A",
  });
  facilityId = facility.id;
  admin = await createUser(db, {
    entityId: entityA.id,
    role: Role.ADMINISTRATOR,
  });
  const building = await createBuilding(db, {
    entityId: entityA.id,
    facilityId: facility.id,
    name: "Block A",
  });
  roomA = await createRoom(db, {
    entityId: entityA.id,
    buildingId: building.id,
    name: "Room A1",
  });
  const farFacility = await createFacility(db, {
    entityId: entityA.id,
    name: "Campus A2",
  });
  const farBuilding = await createBuilding(db, {
    entityId: entityA.id,
    facilityId: farFacility.id,
    name: "Block A2",
  });
  manager = await createUser(db, {
    entityId: entityA.id,
    role: Role.FACILITY_MANAGER,
    name: "Max",
    surname: "Manager",
  });
  technician = await createUser(db, {
    entityId: entityA.id,
    role: Role.TECHNICIAN,
    name: "Ted",
    surname: "Tech",
  });
  colleague = await createUser(db, {
    entityId: entityA.id,
    role: Role.TECHNICIAN,
    name: "Cleo",
    surname: "Colleague",
  });
  const outsider = await createUser(db, {
    entityId: entityA.id,
    role: Role.TECHNICIAN,
    name: "Olga",
    surname: "Outside",
  });
  const foreignAdmin = await createUser(db, {
    entityId: entityB.id,
    role: Role.ADMINISTRATOR,
  });
  await linkUserTo(db, {
    entityId: entityA.id,
    userId: manager.id,
    facilityId: facility.id,
  });
  await linkUserTo(db, {
    entityId: entityA.id,
    userId: technician.id,
    facilityId: facility.id,
  });
  await linkUserTo(db, {
    entityId: entityA.id,
    userId: colleague.id,
    buildingId: building.id,
  });
  await linkUserTo(db, {
    entityId: entityA.id,
    userId: outsider.id,
    buildingId: farBuilding.id,
  });
  incident = await createIncident(db, {
    entityId: entityA.id,
    roomId: roomA.id,
    title: "Leaking tap",
  });
  otherIncident = await createIncident(db, {
    entityId: entityA.id,
    roomId: roomA.id,
    title: "Broken lamp",
  });
  foreign = await createIncident(db, {
    entityId: entityB.id,
    roomId: (await createRoom(db, { entityId: entityB.id })).id,
    title: "Foreign",
  });
  [managerToken, technicianToken, colleagueToken, outsiderToken, foreignToken] = await Promise.all([manager, technician, colleague, outsider, foreignAdmin].map((u) => api.token(u)));
});

afterAll(async () => {
  await api?.close();
});

describe("time entries", () => {
  it("records a technician's own time (201), lists it with the totals, and keeps unsent fields on PATCH", async () => {
    const posted = await entries(incident.id, {
      method: "POST",
      token: technicianToken,
      body: { workedOn: DAY, hours: 1, minutes: "30", note: "Seal replaced" },
    });
    expect(posted.status).toBe(201);
    const id = posted.body.id as number;
    const second = await entries(incident.id, {
      method: "POST",
      token: technicianToken,
      body: { workedOn: DAY, minutes: 45 },
    });
    expect(second.status).toBe(201);
    const listed = await entries(incident.id, { token: colleagueToken });
    expect(listed.status).toBe(200);
    expect(listed.headers.get("x-total-count")).toBe("2");
    expect(listed.headers.get("x-total-minutes")).toBe("135");
    expect(listed.body).toEqual([
      {
        id,
        person: { id: technician.id, name: "Ted Tech" },
        workedOn: DAY,
        minutes: 90,
        note: "Seal replaced",
        hourlyRate: null,
        cost: null,
        // Read by a colleague, a technician: Ted's rate and cost are not theirs to see (decision 065).
        costHidden: true,
        editable: false,
      },
      {
        id: second.body.id,
        person: { id: technician.id, name: "Ted Tech" },
        workedOn: DAY,
        minutes: 45,
        note: null,
        hourlyRate: null,
        cost: null,
        costHidden: true,
        editable: false,
      },
    ]);
    // Only the day: the duration and the note are kept.
    const day = await entry(incident.id, id, {
      method: "PATCH",
      token: technicianToken,
      body: { workedOn: "2026-03-01" },
    });
    expect(day).toMatchObject({ status: 200, body: { id } });
    expect(await entryRow(id)).toMatchObject({
      workedOn: "2026-03-01",
      minutes: 90,
      note: "Seal replaced",
      userId: technician.id,
    });
    // Minutes alone replace the whole duration; a null note clears it.
    await entry(incident.id, id, {
      method: "PATCH",
      token: technicianToken,
      body: { minutes: 30, note: null },
    });
    expect(await entryRow(id)).toMatchObject({
      workedOn: "2026-03-01",
      minutes: 30,
      note: null,
    });
  });

  it("keeps every field of three PATCHes sent at once that change different fields", async () => {
    const [stored] = await api.database.db
      .insert(timeEntries)
      .values({ entityId: entityA.id, incidentId: otherIncident.id, userId: technician.id, workedOn: DAY, minutes: 60, note: "First look" })
      .returning();
    // One changes the note, one the duration, one the day: each completes its body on the locked entry,
    // so none writes back another's field as it was before.
    const answers = await Promise.all([
      entry(otherIncident.id, stored.id, { method: "PATCH", token: technicianToken, body: { note: "Valve replaced" } }),
      entry(otherIncident.id, stored.id, { method: "PATCH", token: managerToken, body: { hours: 2, minutes: 15 } }),
      entry(otherIncident.id, stored.id, { method: "PATCH", token: technicianToken, body: { workedOn: "2026-02-27" } }),
    ]);
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
    expect(await entryRow(stored.id)).toMatchObject({ workedOn: "2026-02-27", minutes: 135, note: "Valve replaced", userId: technician.id });
    await api.database.db.delete(timeEntries).where(eq(timeEntries.id, stored.id));
  });

  it("refuses an empty duration, a day in the future and a body that is not an object (400)", async () => {
    const empty = await entries(incident.id, {
      method: "POST",
      token: technicianToken,
      body: { workedOn: DAY, hours: 0, minutes: 0 },
    });
    expect(empty.status).toBe(400);
    expect(empty.body).toMatchObject({
      code: "VALIDATION",
      fieldErrorKeys: { minutes: ["timeCosts:validation.duration"] },
    });
    const future = await entries(incident.id, {
      method: "POST",
      token: technicianToken,
      body: { workedOn: "2999-01-01", hours: 1 },
    });
    expect(future.body).toMatchObject({
      code: "WORK_IN_FUTURE",
      fieldErrorKeys: { workedOn: ["timeCosts:validation.future"] },
    });
    expect(
      (
        await entries(incident.id, {
          method: "POST",
          token: technicianToken,
          body: [1],
        })
      ).status
    ).toBe(400);
    const [posted] = await api.database.db.select({ id: timeEntries.id }).from(timeEntries).where(eq(timeEntries.incidentId, incident.id)).orderBy(asc(timeEntries.id));
    const badPatch = await entry(incident.id, posted.id, {
      method: "PATCH",
      token: technicianToken,
      body: { hours: 25 },
    });
    expect(badPatch.status).toBe(400);
    // Hours alone replace the duration: 25 hours and no minutes.
    expect(badPatch.body.fieldErrorKeys).toEqual({
      hours: ["timeCosts:validation.hours"],
      minutes: ["timeCosts:validation.duration"],
    });
  });

  it("lets a technician change their own entries only (403), and a manager any, also record for another person", async () => {
    const mine = (
      await entries(incident.id, {
        method: "POST",
        token: technicianToken,
        body: { workedOn: DAY, hours: 2 },
      })
    ).body.id as number;
    expect(
      await entry(incident.id, mine, {
        method: "PATCH",
        token: colleagueToken,
        body: { minutes: 5 },
      })
    ).toMatchObject({ status: 403, body: NOT_YOURS });
    expect(
      await entry(incident.id, mine, {
        method: "DELETE",
        token: colleagueToken,
      })
    ).toMatchObject({ status: 403, body: NOT_YOURS });
    expect(await entryRow(mine)).toMatchObject({ minutes: 120 });
    const forOther = await entries(incident.id, {
      method: "POST",
      token: colleagueToken,
      body: { workedOn: DAY, hours: 1, userId: technician.id },
    });
    expect(forOther).toMatchObject({
      status: 403,
      body: { code: "NOT_YOUR_TIME" },
    });

    expect(
      (
        await entry(incident.id, mine, {
          method: "PATCH",
          token: managerToken,
          body: { hours: 3, minutes: 15 },
        })
      ).status
    ).toBe(200);
    expect(await entryRow(mine)).toMatchObject({
      minutes: 195,
      userId: technician.id,
    });
    const recorded = await entries(incident.id, {
      method: "POST",
      token: managerToken,
      body: { workedOn: DAY, hours: 1, userId: colleague.id },
    });
    expect(recorded.status).toBe(201);
    expect(await entryRow(recorded.body.id)).toMatchObject({
      userId: colleague.id,
      createdById: manager.id,
      minutes: 60,
    });
    expect(await entry(incident.id, mine, { method: "DELETE", token: managerToken })).toMatchObject({ status: 200, body: { responseCode: 0 } });
    expect(await entryRow(mine)).toBeUndefined();
  });

  it("deletes one's own entry", async () => {
    const mine = (
      await entries(incident.id, {
        method: "POST",
        token: colleagueToken,
        body: { workedOn: DAY, minutes: 10 },
      })
    ).body.id as number;
    expect(
      await entry(incident.id, mine, {
        method: "DELETE",
        token: colleagueToken,
      })
    ).toMatchObject({ status: 200, body: { responseCode: 0 } });
    expect(await entryRow(mine)).toBeUndefined();
  });

  it("answers 404 for another entity's incident, an entry of another incident or entity, and malformed ids", async () => {
    const mine = (
      await entries(incident.id, {
        method: "POST",
        token: technicianToken,
        body: { workedOn: DAY, minutes: 20 },
      })
    ).body.id as number;
    const theirs = (
      await entries(foreign.id, {
        method: "POST",
        token: foreignToken,
        body: { workedOn: DAY, minutes: 20 },
      })
    ).body.id as number;
    expect(await entries(foreign.id, { token: technicianToken })).toMatchObject({ status: 404, body: INCIDENT_NOT_FOUND });
    expect(
      await entries(foreign.id, {
        method: "POST",
        token: managerToken,
        body: { workedOn: DAY, minutes: 5 },
      })
    ).toMatchObject({ status: 404, body: INCIDENT_NOT_FOUND });
    expect(
      await entry(foreign.id, theirs, {
        method: "PATCH",
        token: managerToken,
        body: { minutes: 5 },
      })
    ).toMatchObject({ status: 404, body: INCIDENT_NOT_FOUND });
    expect(await entry(foreign.id, theirs, { method: "DELETE", token: managerToken })).toMatchObject({ status: 404, body: INCIDENT_NOT_FOUND });
    expect(
      await entry(incident.id, theirs, {
        method: "PATCH",
        token: managerToken,
        body: { minutes: 5 },
      })
    ).toMatchObject({ status: 404, body: ENTRY_NOT_FOUND });
    expect(
      await entry(incident.id, theirs, {
        method: "DELETE",
        token: managerToken,
      })
    ).toMatchObject({ status: 404, body: ENTRY_NOT_FOUND });
    expect(
      await entry(otherIncident.id, mine, {
        method: "PATCH",
        token: technicianToken,
        body: { minutes: 5 },
      })
    ).toMatchObject({ status: 404, body: ENTRY_NOT_FOUND });
    expect(
      await entry(otherIncident.id, mine, {
        method: "DELETE",
        token: technicianToken,
      })
    ).toMatchObject({ status: 404, body: ENTRY_NOT_FOUND });
    expect(
      await entry(incident.id, "abc", {
        method: "DELETE",
        token: technicianToken,
      })
    ).toMatchObject({ status: 404, body: ENTRY_NOT_FOUND });
    expect(await entries(Number.MAX_SAFE_INTEGER, { token: technicianToken })).toMatchObject({ status: 404, body: INCIDENT_NOT_FOUND });
    expect(await entryRow(mine)).toMatchObject({ minutes: 20 });
    expect(await entryRow(theirs)).toMatchObject({ minutes: 20 });
  });

  it("answers 404 to a technician outside the incident's reach, for every call", async () => {
    const mine = (
      await entries(incident.id, {
        method: "POST",
        token: technicianToken,
        body: { workedOn: DAY, minutes: 25 },
      })
    ).body.id as number;
    expect(await entries(incident.id, { token: outsiderToken })).toMatchObject({
      status: 404,
      body: INCIDENT_NOT_FOUND,
    });
    expect(
      await entries(incident.id, {
        method: "POST",
        token: outsiderToken,
        body: { workedOn: DAY, minutes: 5 },
      })
    ).toMatchObject({ status: 404, body: INCIDENT_NOT_FOUND });
    expect(
      await entry(incident.id, mine, {
        method: "PATCH",
        token: outsiderToken,
        body: { minutes: 5 },
      })
    ).toMatchObject({ status: 404, body: INCIDENT_NOT_FOUND });
    expect(await entry(incident.id, mine, { method: "DELETE", token: outsiderToken })).toMatchObject({ status: 404, body: INCIDENT_NOT_FOUND });
    expect(await entryRow(mine)).toMatchObject({ minutes: 25 });
  });

  it("answers 405 with the allowed methods", async () => {
    expect(
      (
        await entries(incident.id, {
          method: "PUT",
          token: technicianToken,
          body: {},
        })
      ).headers.get("allow")
    ).toBe("GET, POST");
    expect((await entry(incident.id, 1, { token: technicianToken })).headers.get("allow")).toBe("PATCH, DELETE");
  });
});

describe("material lines", () => {
  it("adds a line (201), lists it with its exact total, and keeps unsent fields on PATCH", async () => {
    const posted = await lines(incident.id, {
      method: "POST",
      token: technicianToken,
      body: { description: "Copper pipe", quantity: "2,5", unitCost: 12.4 },
    });
    expect(posted.status).toBe(201);
    const id = posted.body.id as number;
    const listed = await lines(incident.id, { token: technicianToken });
    expect(listed.status).toBe(200);
    expect(listed.headers.get("x-total-count")).toBe("1");
    expect(listed.headers.get("x-total-amount")).toBe("31.00");
    expect(listed.body).toEqual([
      {
        id,
        description: "Copper pipe",
        quantity: "2.500",
        unitCost: "12.40",
        total: "31.00",
        addedBy: { id: technician.id, name: "Ted Tech" },
        editable: true,
      },
    ]);
    expect(
      await line(incident.id, id, {
        method: "PATCH",
        token: technicianToken,
        body: { quantity: 3 },
      })
    ).toMatchObject({ status: 200, body: { id } });
    expect(await lineRow(id)).toMatchObject({
      description: "Copper pipe",
      quantity: "3.000",
      unitCost: "12.40",
    });
  });

  it("keeps both of two PATCHes sent at once that change different fields", async () => {
    const [stored] = await api.database.db
      .insert(materialLines)
      .values({ entityId: entityA.id, incidentId: otherIncident.id, description: "Fuse", quantity: "1", unitCost: "3.00", createdById: technician.id })
      .returning();
    const [described, counted] = await Promise.all([
      line(otherIncident.id, stored.id, { method: "PATCH", token: technicianToken, body: { description: "Fuse 16 A" } }),
      line(otherIncident.id, stored.id, { method: "PATCH", token: managerToken, body: { quantity: "4", unitCost: "2,75" } }),
    ]);
    expect([described.status, counted.status]).toEqual([200, 200]);
    expect(await lineRow(stored.id)).toMatchObject({ description: "Fuse 16 A", quantity: "4.000", unitCost: "2.75" });
    await api.database.db.delete(materialLines).where(eq(materialLines.id, stored.id));
  });

  it("refuses a quantity of 0 and a negative cost (400)", async () => {
    const bad = await lines(incident.id, {
      method: "POST",
      token: technicianToken,
      body: { description: "Seal", quantity: 0, unitCost: "-1" },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.fieldErrorKeys).toEqual({
      quantity: ["timeCosts:validation.quantity"],
      unitCost: ["timeCosts:validation.unitCost"],
    });
    expect(
      (
        await lines(incident.id, {
          method: "POST",
          token: technicianToken,
          body: { quantity: 1, unitCost: 1 },
        })
      ).body.fieldErrorKeys
    ).toEqual({
      description: ["timeCosts:validation.description"],
    });
  });

  it("lets a technician change the lines they added only (403), and a manager any", async () => {
    const mine = (
      await lines(incident.id, {
        method: "POST",
        token: technicianToken,
        body: { description: "Seal", quantity: 1, unitCost: "0.50" },
      })
    ).body.id as number;
    expect(
      await line(incident.id, mine, {
        method: "PATCH",
        token: colleagueToken,
        body: { quantity: 2 },
      })
    ).toMatchObject({ status: 403, body: NOT_YOURS });
    expect(await line(incident.id, mine, { method: "DELETE", token: colleagueToken })).toMatchObject({ status: 403, body: NOT_YOURS });
    expect(
      await line(incident.id, mine, {
        method: "PATCH",
        token: managerToken,
        body: { unitCost: "0,75" },
      })
    ).toMatchObject({ status: 200 });
    expect(await lineRow(mine)).toMatchObject({
      quantity: "1.000",
      unitCost: "0.75",
    });
    expect(await line(incident.id, mine, { method: "DELETE", token: managerToken })).toMatchObject({ status: 200, body: { responseCode: 0 } });
    expect(await lineRow(mine)).toBeUndefined();
  });

  it("answers 404 for another entity's incident and line, a line of another incident, and to a technician out of reach", async () => {
    const mine = (
      await lines(incident.id, {
        method: "POST",
        token: technicianToken,
        body: { description: "Tape", quantity: 1, unitCost: 1 },
      })
    ).body.id as number;
    const theirs = (
      await lines(foreign.id, {
        method: "POST",
        token: foreignToken,
        body: { description: "Foreign", quantity: 1, unitCost: 1 },
      })
    ).body.id as number;
    expect(await lines(foreign.id, { token: managerToken })).toMatchObject({
      status: 404,
      body: INCIDENT_NOT_FOUND,
    });
    expect(await line(foreign.id, theirs, { method: "DELETE", token: managerToken })).toMatchObject({ status: 404, body: INCIDENT_NOT_FOUND });
    expect(
      await line(incident.id, theirs, {
        method: "PATCH",
        token: managerToken,
        body: { quantity: 2 },
      })
    ).toMatchObject({ status: 404, body: LINE_NOT_FOUND });
    expect(await line(incident.id, theirs, { method: "DELETE", token: managerToken })).toMatchObject({ status: 404, body: LINE_NOT_FOUND });
    expect(
      await line(otherIncident.id, mine, {
        method: "PATCH",
        token: technicianToken,
        body: { quantity: 2 },
      })
    ).toMatchObject({ status: 404, body: LINE_NOT_FOUND });
    expect(await line(incident.id, "0", { method: "DELETE", token: technicianToken })).toMatchObject({ status: 404, body: LINE_NOT_FOUND });
    expect(await lines(incident.id, { token: outsiderToken })).toMatchObject({
      status: 404,
      body: INCIDENT_NOT_FOUND,
    });
    expect(
      await lines(incident.id, {
        method: "POST",
        token: outsiderToken,
        body: { description: "X", quantity: 1, unitCost: 1 },
      })
    ).toMatchObject({ status: 404, body: INCIDENT_NOT_FOUND });
    expect(
      await line(incident.id, mine, {
        method: "PATCH",
        token: outsiderToken,
        body: { quantity: 2 },
      })
    ).toMatchObject({ status: 404, body: INCIDENT_NOT_FOUND });
    expect(await line(incident.id, mine, { method: "DELETE", token: outsiderToken })).toMatchObject({ status: 404, body: INCIDENT_NOT_FOUND });
    expect(await lineRow(mine)).toMatchObject({ quantity: "1.000" });
    expect(await lineRow(theirs)).toMatchObject({ quantity: "1.000" });
  });
});

describe("an integration token", () => {
  it("records time with the time scope, for the person who made it", async () => {
    const { secret } = await createApiToken(
      {
        db: api.database.db,
        entityId: entityA.id,
        actor: personActor(admin),
        locale: "en",
        timeZone: "Europe/Brussels",
      },
      {
        name: "Time clock",
        role: Role.FACILITY_MANAGER as 1,
        facilityIds: [facilityId],
        expiresInDays: 30,
      }
    );
    const posted = await entries(incident.id, {
      method: "POST",
      token: secret,
      body: { workedOn: DAY, minutes: 40 },
    });
    expect(posted.status).toBe(201);
    expect(await entryRow(posted.body.id)).toMatchObject({
      userId: admin.id,
      createdById: admin.id,
      minutes: 40,
    });
  });
});
