import { asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tokenActor } from "~/core/actor";
import { Role } from "~/db/enums";
import { type Incident, type Task, timeClocks, timeEntries, type User } from "~/db/schema";
import { ForbiddenError } from "~/lib/errors";
import { getRunningClock } from "~/modules/time-costs/queries.server";
import * as incidentStartRoute from "~/routes/api/incidents.$id.clock.start";
import * as incidentStopRoute from "~/routes/api/incidents.$id.clock.stop";
import * as taskStartRoute from "~/routes/api/tasks.$id.clock.start";
import * as taskStopRoute from "~/routes/api/tasks.$id.clock.stop";
import * as clockRoute from "~/routes/api/users.$id.clock";
import { createBuilding, createEntity, createFacility, createIncident, createPlannedMaintenance, createRoom, createTask, createUser, linkUserTo } from "#tests/factories";
import { type ApiHarness, callApi, type RouteModule, startApiRuntime } from "#tests/api-helpers";

/**
 * The start and stop calls (issue 62): GET /api/users/{id}/clock, POST /api/{incidents|tasks}/{id}/clock/start
 * and /clock/stop. What each answers, the one running clock per person, the entry a stop records, and
 * every refusal (another entity's incident, task or person, a record out of the technician's reach, a
 * colleague's task, another person's clock, ids of 2^31 and text) answered 4xx with nothing written.
 */
let api: ApiHarness;
let technician: User;
let colleague: User;
let foreignAdmin: User;
let incident: Incident;
let farIncident: Incident;
let foreignIncident: Incident;
let task: Task;
let colleaguesTask: Task;
let farTask: Task;
let foreignTask: Task;
let technicianToken: string;
let colleagueToken: string;
let managerToken: string;
let foreignToken: string;

const TOO_BIG = "2147483648";
const INCIDENT_NOT_FOUND = { code: "INCIDENT_NOT_FOUND", message: "Incident not found" };
const TASK_NOT_FOUND = { code: "TASK_NOT_FOUND", message: "Task not found" };
const USER_NOT_FOUND = { code: "USER_NOT_FOUND" };

type Kind = "incidents" | "tasks";
const ROUTES: Record<Kind, Record<"start" | "stop", RouteModule>> = {
  incidents: { start: incidentStartRoute, stop: incidentStopRoute },
  tasks: { start: taskStartRoute, stop: taskStopRoute },
};
const step = (kind: Kind, which: "start" | "stop", id: number | string, token: string, method = "POST") =>
  callApi(ROUTES[kind][which], `/api/${kind}/${id}/clock/${which}`, { method, token, params: { id: String(id) } });
const clockOf = (userId: number | string, token: string) => callApi(clockRoute, `/api/users/${userId}/clock`, { token, params: { id: String(userId) } });

/** Every clock and time entry, for "nothing changed" checks. */
async function written() {
  const db = api.database.db;
  return {
    clocks: await db.select().from(timeClocks).orderBy(asc(timeClocks.userId)),
    entries: await db.select().from(timeEntries).orderBy(asc(timeEntries.id)),
  };
}

beforeAll(async () => {
  api = await startApiRuntime();
  const db = api.database.db;
  const entityA = await createEntity(db, { name: "Entity A" });
  const entityB = await createEntity(db, { name: "Entity B" });
  const facility = await createFacility(db, { entityId: entityA.id, name: "Campus A" });
  const building = await createBuilding(db, { entityId: entityA.id, facilityId: facility.id, name: "Block A" });
  const room = await createRoom(db, { entityId: entityA.id, buildingId: building.id, name: "Room A1" });
  const farBuilding = await createBuilding(db, { entityId: entityA.id, facilityId: (await createFacility(db, { entityId: entityA.id, name: "Campus A2" })).id });
  const farRoom = await createRoom(db, { entityId: entityA.id, buildingId: farBuilding.id });
  const manager = await createUser(db, { entityId: entityA.id, role: Role.FACILITY_MANAGER });
  technician = await createUser(db, { entityId: entityA.id, role: Role.TECHNICIAN, name: "Ted", surname: "Tech" });
  colleague = await createUser(db, { entityId: entityA.id, role: Role.TECHNICIAN, name: "Cleo", surname: "Colleague" });
  foreignAdmin = await createUser(db, { entityId: entityB.id, role: Role.ADMINISTRATOR });
  await linkUserTo(db, { entityId: entityA.id, userId: manager.id, facilityId: facility.id });
  await linkUserTo(db, { entityId: entityA.id, userId: technician.id, buildingId: building.id });
  await linkUserTo(db, { entityId: entityA.id, userId: colleague.id, buildingId: building.id });
  incident = await createIncident(db, { entityId: entityA.id, roomId: room.id, title: "Leaking tap" });
  farIncident = await createIncident(db, { entityId: entityA.id, roomId: farRoom.id, title: "Far away" });
  const plan = await createPlannedMaintenance(db, { entityId: entityA.id, name: "Boiler check", roomIds: [room.id, farRoom.id] });
  task = await createTask(db, { entityId: entityA.id, plannedMaintenanceId: plan.id, roomId: room.id, dueDate: "2026-04-01" });
  colleaguesTask = await createTask(db, { entityId: entityA.id, plannedMaintenanceId: plan.id, roomId: room.id, dueDate: "2026-04-03", assigneeId: colleague.id });
  farTask = await createTask(db, { entityId: entityA.id, plannedMaintenanceId: plan.id, roomId: farRoom.id, dueDate: "2026-04-01" });
  const foreignRoom = await createRoom(db, { entityId: entityB.id });
  foreignIncident = await createIncident(db, { entityId: entityB.id, roomId: foreignRoom.id });
  const foreignPlan = await createPlannedMaintenance(db, { entityId: entityB.id, name: "Foreign plan" });
  foreignTask = await createTask(db, { entityId: entityB.id, plannedMaintenanceId: foreignPlan.id, roomId: foreignRoom.id, dueDate: "2026-04-01" });
  [technicianToken, colleagueToken, managerToken, foreignToken] = await Promise.all([technician, colleague, manager, foreignAdmin].map((u) => api.token(u)));
});

afterAll(async () => {
  await api?.close();
});

describe("the clock through the REST API", () => {
  it("starts on an incident, tells where it runs, refuses a second one, stops and records the entry", async () => {
    expect(await clockOf(technician.id, technicianToken)).toMatchObject({ status: 200, body: null });

    const started = await step("incidents", "start", incident.id, technicianToken);
    expect(started.status).toBe(201);
    expect(Object.keys(started.body)).toEqual(["startedAt"]);
    const startedAt = started.body.startedAt as string;
    expect(new Date(startedAt).toISOString()).toBe(startedAt);
    expect(await clockOf(technician.id, technicianToken)).toMatchObject({ status: 200, body: { startedAt, incidentId: incident.id, taskId: null, stoppable: true } });

    // One clock per person: not a second one here nor on a task; none to stop on another record.
    expect(await step("incidents", "start", incident.id, technicianToken)).toMatchObject({ status: 409, body: { code: "CLOCK_RUNNING" } });
    expect(await step("tasks", "start", task.id, technicianToken)).toMatchObject({ status: 409, body: { code: "CLOCK_RUNNING" } });
    expect(await step("tasks", "stop", task.id, technicianToken)).toMatchObject({ status: 409, body: { code: "CLOCK_NOT_RUNNING" } });
    // A colleague has no clock of his own here.
    expect(await step("incidents", "stop", incident.id, colleagueToken)).toMatchObject({ status: 409, body: { code: "CLOCK_NOT_RUNNING" } });

    const stopped = await step("incidents", "stop", incident.id, technicianToken);
    expect(stopped.status).toBe(201);
    expect(stopped.body).toEqual({ id: expect.any(Number), minutes: 1, capped: false });
    const [entry] = await api.database.db.select().from(timeEntries).where(eq(timeEntries.id, stopped.body.id));
    expect([entry.incidentId, entry.taskId, entry.userId, entry.minutes, entry.startedAt?.toISOString()]).toEqual([incident.id, null, technician.id, 1, startedAt]);
    expect(await clockOf(technician.id, technicianToken)).toMatchObject({ status: 200, body: null });
  });

  it("starts and stops on a task the technician may mark done", async () => {
    expect((await step("tasks", "start", task.id, technicianToken)).status).toBe(201);
    expect((await clockOf(technician.id, technicianToken)).body).toMatchObject({ incidentId: null, taskId: task.id, stoppable: true });
    const stopped = await step("tasks", "stop", task.id, technicianToken);
    expect(stopped.status).toBe(201);
    const [entry] = await api.database.db.select().from(timeEntries).where(eq(timeEntries.id, stopped.body.id));
    expect([entry.taskId, entry.userId]).toEqual([task.id, technician.id]);
  });

  it("refuses another entity's, an out-of-reach and a colleague's record, another person's clock and malformed ids, and writes nothing", async () => {
    // A running clock, so that a refused stop would have something to stop.
    expect((await step("incidents", "start", incident.id, colleagueToken)).status).toBe(201);
    const before = await written();

    for (const which of ["start", "stop"] as const) {
      // Out of the technician's reach, another entity's (both ways), malformed: not found.
      for (const [id, token] of [
        [farIncident.id, technicianToken],
        [foreignIncident.id, technicianToken],
        [incident.id, foreignToken],
        [TOO_BIG, technicianToken],
        ["abc", technicianToken],
        ["-1", managerToken],
      ] as const) {
        expect(await step("incidents", which, id, token), `${which} incident ${id}`).toMatchObject({ status: 404, body: INCIDENT_NOT_FOUND });
      }
      for (const [id, token] of [
        [farTask.id, technicianToken],
        [foreignTask.id, technicianToken],
        [task.id, foreignToken],
        [TOO_BIG, technicianToken],
        ["abc", technicianToken],
      ] as const) {
        expect(await step("tasks", which, id, token), `${which} task ${id}`).toMatchObject({ status: 404, body: TASK_NOT_FOUND });
      }
      // The colleague's task is seen but not the technician's to work on.
      expect(await step("tasks", which, colleaguesTask.id, technicianToken)).toMatchObject({ status: 403, body: { code: "TASK_NOT_YOURS" } });
      // Another method: 405 with the one allowed.
      const other = await step("incidents", which, incident.id, technicianToken, "GET");
      expect([other.status, other.headers.get("allow")]).toEqual([405, "POST"]);
    }

    // Another person's clock: 403 within the entity (even for a manager), 404 for another entity's person and malformed ids.
    expect(await clockOf(colleague.id, technicianToken)).toMatchObject({ status: 403, body: { code: "NOT_YOUR_CLOCK", message: "You can only see your own clock." } });
    expect(await clockOf(colleague.id, managerToken)).toMatchObject({ status: 403, body: { code: "NOT_YOUR_CLOCK" } });
    expect(await clockOf(colleague.id, foreignToken)).toMatchObject({ status: 404, body: USER_NOT_FOUND });
    expect(await clockOf(foreignAdmin.id, technicianToken)).toMatchObject({ status: 404, body: USER_NOT_FOUND });
    expect(await clockOf(TOO_BIG, technicianToken)).toMatchObject({ status: 404, body: USER_NOT_FOUND });
    expect(await clockOf("abc", technicianToken)).toMatchObject({ status: 404, body: USER_NOT_FOUND });

    expect(await written()).toEqual(before);
    expect((await step("incidents", "stop", incident.id, colleagueToken)).status).toBe(201);
  });

  it("reads the clock only with the time scope", async () => {
    const ctx = { db: api.database.db, entityId: technician.entityId, locale: "en", timeZone: "Europe/Brussels" };
    const withoutTime = tokenActor(technician, 1, ["incident:*", "task:*"]);
    await expect(getRunningClock({ ...ctx, actor: withoutTime }, technician.id)).rejects.toBeInstanceOf(ForbiddenError);
    expect(await getRunningClock({ ...ctx, actor: tokenActor(technician, 1, ["time:*"]) }, technician.id)).toBeNull();
  });
});
