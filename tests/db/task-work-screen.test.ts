import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { asc, eq, inArray } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { personActor } from "~/core/actor";
import { Role } from "~/db/enums";
import { type Incident, materialLines, rooms, type Task, timeClocks, timeEntries } from "~/db/schema";
import { gated } from "~/http/gate.server";
import type { AuthUser } from "~/modules/auth/service.server";
import { taskDayWork } from "~/modules/time-costs/queries.server";
import * as incidentView from "~/routes/incident";
import * as taskView from "~/routes/view-task";
import { createBuilding, createEntity, createIncident, createPlannedMaintenance, createRoom, createTask, createUser, linkUserTo } from "#tests/factories";
import { type ApiHarness, apiContext, startApiRuntime } from "#tests/api-helpers";

/**
 * The time and materials section of the task view (/view-task/{plan}/{date}?work=<task>) and the clock's
 * Start and Stop buttons on both views, as the browser posts them with JavaScript off: plain form posts,
 * a redirect to the section, the running clock in the page's data; a task not of the page or not the
 * technician's is refused and nothing is written.
 */
type Handler = (args: LoaderFunctionArgs & ActionFunctionArgs) => Promise<unknown>;

let api: ApiHarness;
let technician: AuthUser;
let incident: Incident;
let planId: number;
let first: Task;
let second: Task;
let colleaguesTask: Task;
let elsewhere: Task;

const DATE = "2026-05-04";
const authUser = (u: { id: number; entityId: number; role: number }): AuthUser => ({
  id: u.id,
  entityId: u.entityId,
  role: u.role as Role,
  sessionId: "test",
  expiresAt: Date.now() + 3_600_000,
  timeZone: "Europe/Brussels",
});

async function call(handler: unknown, path: string, params: Record<string, string>, body?: Record<string, string>, user: AuthUser = technician) {
  const request = new Request(`http://x${path}`, {
    method: body ? "POST" : "GET",
    headers: { "x-language": "en", ...(body ? { "content-type": "application/x-www-form-urlencoded" } : {}) },
    body: body ? new URLSearchParams(body).toString() : undefined,
  });
  const context = { ...apiContext(), auth: { user, session: null } };
  try {
    return await (gated("user", handler as Handler) as Handler)({ request, params, context } as unknown as LoaderFunctionArgs & ActionFunctionArgs);
  } catch (thrown) {
    return thrown;
  }
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- loader and action answers, checked by the assertions
const dataOf = (answer: unknown) => ((answer as { data?: unknown })?.data ?? answer) as any;
const dayPath = () => `/view-task/${planId}/${DATE}`;
const dayParams = () => ({ id: String(planId), date: DATE });
const locationOf = (answer: unknown) => (answer as Response).headers.get("location");
const entriesOf = (taskIds: number[]) => api.database.db.select().from(timeEntries).where(inArray(timeEntries.taskId, taskIds)).orderBy(asc(timeEntries.id));
const clocks = () => api.database.db.select().from(timeClocks).where(eq(timeClocks.userId, technician.id));

const holder = globalThis as { __caretakerClockOffsetMs?: number };
const setNow = (iso: string) => {
  holder.__caretakerClockOffsetMs = Date.parse(iso) - Date.now();
};

beforeAll(async () => {
  api = await startApiRuntime();
  const db = api.database.db;
  const entity = await createEntity(db, { timeZone: "Europe/Brussels" });
  const tech = await createUser(db, { entityId: entity.id, role: Role.TECHNICIAN, name: "Tom", surname: "Tech" });
  const colleague = await createUser(db, { entityId: entity.id, role: Role.TECHNICIAN, name: "Cleo", surname: "Colleague" });
  const building = await createBuilding(db, { entityId: entity.id });
  const room = await createRoom(db, { entityId: entity.id, buildingId: building.id, name: "Boiler room" });
  const hall = await createRoom(db, { entityId: entity.id, buildingId: building.id, name: "Hall" });
  await linkUserTo(db, { entityId: entity.id, userId: tech.id, buildingId: building.id });
  await linkUserTo(db, { entityId: entity.id, userId: colleague.id, buildingId: building.id });
  planId = (await createPlannedMaintenance(db, { entityId: entity.id, name: "Boiler check", roomIds: [room.id, hall.id] })).id;
  first = await createTask(db, { entityId: entity.id, plannedMaintenanceId: planId, roomId: room.id, dueDate: DATE });
  second = await createTask(db, { entityId: entity.id, plannedMaintenanceId: planId, roomId: hall.id, dueDate: DATE });
  const otherPlan = await createPlannedMaintenance(db, { entityId: entity.id, name: "Filters", roomIds: [room.id] });
  colleaguesTask = await createTask(db, { entityId: entity.id, plannedMaintenanceId: otherPlan.id, roomId: room.id, dueDate: DATE, assigneeId: colleague.id });
  elsewhere = await createTask(db, { entityId: entity.id, plannedMaintenanceId: planId, roomId: room.id, dueDate: "2026-05-11" });
  incident = await createIncident(db, { entityId: entity.id, roomId: room.id });
  technician = authUser(tech);
});
afterAll(async () => {
  await api?.close();
});
afterEach(() => {
  delete holder.__caretakerClockOffsetMs;
});

describe("/view-task/{id}/{date}, time and materials", () => {
  it("shows the first location's work, or the one asked, and records time and material on it", async () => {
    const page = dataOf(await call(taskView.loader, dayPath(), dayParams()));
    expect(page.workTaskId).toBe(first.id);
    expect(page.work.canRecord).toBe(true);
    expect(page.work.totals.minutes).toBe(0);
    const asked = `${dayPath()}?work=${second.id}`;
    expect(dataOf(await call(taskView.loader, asked, dayParams())).workTaskId).toBe(second.id);

    const time = await call(taskView.action, asked, dayParams(), { intent: "recordTime", workedOn: "2026-03-02", hours: "0", minutes: "40", note: "" });
    expect(locationOf(time)).toBe(`${asked}#time-and-materials`);
    const material = await call(taskView.action, asked, dayParams(), { intent: "addMaterial", description: "Filter", quantity: "2", unitCost: "7,25" });
    expect(locationOf(material)).toBe(`${asked}#time-and-materials`);
    expect((await entriesOf([first.id, second.id])).map((e) => [e.taskId, e.minutes, e.userId])).toEqual([[second.id, 40, technician.id]]);
    const shown = dataOf(await call(taskView.loader, asked, dayParams())).work;
    expect(shown.totals).toEqual({ minutes: 40, labour: "0.00", materials: "14.50", total: "14.50", unpricedEntries: 1, entries: 1, lines: 1 });
    // An invalid entry: 400, the input kept, nothing written.
    const refused = await call(taskView.action, asked, dayParams(), { intent: "recordTime", workedOn: "2026-03-02", hours: "0", minutes: "0", note: "Nothing" });
    expect((refused as { init?: { status?: number } }).init?.status).toBe(400);
    expect(dataOf(refused).result.initialValue).toMatchObject({ note: "Nothing" });
    expect(await entriesOf([first.id, second.id])).toHaveLength(1);
  });

  it("refuses work on a task not of the page, and a start on a colleague's task, writing nothing", async () => {
    const before = { entries: await entriesOf([first.id, second.id, elsewhere.id, colleaguesTask.id]), clocks: await clocks() };
    // A task of another day of the plan named in ?work=: not this page's.
    const other = await call(taskView.action, `${dayPath()}?work=${elsewhere.id}`, dayParams(), { intent: "recordTime", workedOn: "2026-03-02", hours: "1", minutes: "0", note: "" });
    expect(other).not.toBeInstanceOf(Response);
    const started = await call(taskView.action, `${dayPath()}?work=${elsewhere.id}`, dayParams(), { intent: "startClock" });
    expect(locationOf(started)).toBe(`${dayPath()}?work=0#time-and-materials`);
    // The colleague's task, on its own page: seen, but no clock for him there.
    const theirs = `/view-task/${colleaguesTask.plannedMaintenanceId}/${DATE}`;
    const params = { id: String(colleaguesTask.plannedMaintenanceId), date: DATE };
    expect(dataOf(await call(taskView.loader, theirs, params)).work.canRecord).toBe(false);
    expect(locationOf(await call(taskView.action, theirs, params, { intent: "startClock" }))).toBe(`${theirs}?work=${colleaguesTask.id}#time-and-materials`);
    expect({ entries: await entriesOf([first.id, second.id, elsewhere.id, colleaguesTask.id]), clocks: await clocks() }).toEqual(before);
  });
});

describe("the clock's Start and Stop, without JavaScript", () => {
  it("starts on the task view, shows it running, refuses a second one, and stops into an entry rounded up", async () => {
    const at = `${dayPath()}?work=${first.id}`;
    setNow("2026-05-04T08:14:00Z");
    expect(locationOf(await call(taskView.action, at, dayParams(), { intent: "startClock" }))).toBe(`${at}#time-and-materials`);
    expect(dataOf(await call(taskView.loader, at, dayParams())).work.clock).toEqual({ startedAt: new Date("2026-05-04T08:14:00Z"), here: true });
    // On the incident: running elsewhere; a start there is refused (one clock per person).
    const incidentPage = dataOf(await call(incidentView.loader, `/incident/${incident.id}`, { id: String(incident.id) }));
    expect(incidentPage.work.clock).toEqual({ startedAt: new Date("2026-05-04T08:14:00Z"), here: false });
    await call(incidentView.action, `/incident/${incident.id}`, { id: String(incident.id) }, { intent: "startClock" });
    expect((await clocks()).map((c) => [c.taskId, c.incidentId])).toEqual([[first.id, null]]);
    // 1 h 2 min 1 s later: 63 minutes, on the day it started.
    setNow("2026-05-04T09:16:01Z");
    expect(locationOf(await call(taskView.action, at, dayParams(), { intent: "stopClock" }))).toBe(`${at}#time-and-materials`);
    expect((await entriesOf([first.id])).map((e) => [e.minutes, e.workedOn, e.startedAt?.toISOString()])).toEqual([[63, "2026-05-04", "2026-05-04T08:14:00.000Z"]]);
    expect(await clocks()).toEqual([]);
  });

  it("starts and stops on the incident view", async () => {
    const at = `/incident/${incident.id}`;
    const params = { id: String(incident.id) };
    setNow("2026-05-05T12:00:00Z");
    expect(locationOf(await call(incidentView.action, at, params, { intent: "startClock" }))).toBe(`${at}#time-and-materials`);
    setNow("2026-05-05T12:09:30Z");
    expect(locationOf(await call(incidentView.action, at, params, { intent: "stopClock" }))).toBe(`${at}#time-and-materials`);
    const rows = await api.database.db.select().from(timeEntries).where(eq(timeEntries.incidentId, incident.id));
    expect(rows.map((e) => [e.minutes, e.workedOn, e.userId])).toEqual([[10, "2026-05-05", technician.id]]);
    expect(await api.database.db.select().from(materialLines).where(eq(materialLines.incidentId, incident.id))).toEqual([]);
  });
});

describe("the day's work over its locations", () => {
  it("gives each location's time, material and cost and the day's, hiding from a technician the costs a colleague's time counts in", async () => {
    const db = api.database.db;
    const entityId = first.entityId;
    const manager = await createUser(db, { entityId, role: Role.FACILITY_MANAGER });
    await linkUserTo(db, { entityId, userId: manager.id, buildingId: (await db.select().from(rooms).where(eq(rooms.id, first.roomId)))[0].buildingId });
    const colleague = colleaguesTask.assigneeId!;
    const plan = await createPlannedMaintenance(db, { entityId, name: "Gutters", roomIds: [first.roomId, second.roomId] });
    const boilerRoom = await createTask(db, { entityId, plannedMaintenanceId: plan.id, roomId: first.roomId, dueDate: "2026-06-01" });
    const hall = await createTask(db, { entityId, plannedMaintenanceId: plan.id, roomId: second.roomId, dueDate: "2026-06-01" });
    await db.insert(timeEntries).values([
      { entityId, taskId: boilerRoom.id, userId: technician.id, workedOn: "2026-05-04", minutes: 30, hourlyRate: "40.00", createdById: technician.id },
      { entityId, taskId: hall.id, userId: colleague, workedOn: "2026-05-04", minutes: 15, hourlyRate: "60.00", createdById: colleague },
    ]);
    await db.insert(materialLines).values({ entityId, taskId: boilerRoom.id, description: "Sealant", quantity: "2", unitCost: "5.00", createdById: technician.id });
    const path = `/view-task/${plan.id}/2026-06-01`;
    const params = { id: String(plan.id), date: "2026-06-01" };

    const forManager = dataOf(await call(taskView.loader, path, params, undefined, authUser(manager))).dayWork;
    expect(forManager).toEqual({
      currency: "EUR",
      byTask: {
        [boilerRoom.id]: { minutes: 30, labour: "20.00", materials: "10.00", total: "30.00", unpricedEntries: 0, entries: 1, lines: 1 },
        [hall.id]: { minutes: 15, labour: "15.00", materials: "0.00", total: "15.00", unpricedEntries: 0, entries: 1, lines: 0 },
      },
      day: { minutes: 45, labour: "35.00", materials: "10.00", total: "45.00", unpricedEntries: 0, entries: 2, lines: 1 },
    });
    const forTechnician = dataOf(await call(taskView.loader, path, params)).dayWork;
    expect(forTechnician.byTask[boilerRoom.id]).toEqual({ minutes: 30, labour: "20.00", materials: "10.00", total: "30.00", unpricedEntries: 0, entries: 1, lines: 1 });
    expect(forTechnician.byTask[hall.id]).toEqual({ minutes: 15, labour: null, materials: "0.00", total: null, unpricedEntries: 0, entries: 1, lines: 0 });
    expect(forTechnician.day).toEqual({ minutes: 45, labour: null, materials: "10.00", total: null, unpricedEntries: 0, entries: 2, lines: 1 });
    // Another entity's administrator naming these tasks: nothing of them.
    const foreign = await createEntity(db, { name: "Foreign" });
    const foreignAdmin = await createUser(db, { entityId: foreign.id, role: Role.ADMINISTRATOR });
    const foreignCtx = { db, entityId: foreign.id, actor: personActor(foreignAdmin), locale: "en", timeZone: "Europe/Brussels" };
    expect(await taskDayWork(foreignCtx, [boilerRoom.id, hall.id])).toMatchObject({ byTask: {}, day: { minutes: 0, labour: "0.00", materials: "0.00", total: "0.00", entries: 0, lines: 0 } });
    // One location: no table (the section is that location's already).
    expect(dataOf(await call(taskView.loader, `/view-task/${colleaguesTask.plannedMaintenanceId}/${DATE}`, { id: String(colleaguesTask.plannedMaintenanceId), date: DATE })).dayWork).toBeNull();
  });
});
