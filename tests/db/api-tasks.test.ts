import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Role, TaskStatus } from "~/db/enums";
import { type Entity, incidents, type Room, type Task, taskCheckAnswers, tasks, type User } from "~/db/schema";
import { addDays } from "~/lib/dates";
import { todayOf } from "~/modules/maintenance/task-queries.server";
import * as statusRoute from "~/routes/api/tasks.$id.status";
import * as tasksRoute from "~/routes/api/tasks";
import { createBuilding, createEntity, createMaintenanceCheck, createMaintenanceType, createPlannedMaintenance, createRoom, createTask, createUser, linkUserTo } from "#tests/factories";
import { type ApiHarness, callApi, startApiRuntime } from "#tests/api-helpers";

/**
 * The maintenance task calls under /api/tasks: the list by period, status and "mine" within the
 * caller's reach, PUT status (done with a note, undone), another entity's and an out-of-reach task as
 * 404, a technician's task assigned to someone else as 403, bad input as 400 naming the field.
 */
let api: ApiHarness;
let entityA: Entity;
let entityB: Entity;
let room: Room;
let farRoom: Room;
let manager: User;
let technician: User;
let colleague: User;
let otherManager: User;
let managerToken: string;
let technicianToken: string;
let otherToken: string;
let today: string;
let mine: Task;
let theirs: Task;
let far: Task;
let old: Task;

const reload = async (id: number) => (await api.database.db.select().from(tasks).where(eq(tasks.id, id)))[0];
const status = (id: number | string) => ({ url: `/api/tasks/${id}/status`, params: { id: String(id) } });

beforeAll(async () => {
  api = await startApiRuntime();
  const db = api.database.db;
  entityA = await createEntity(db);
  entityB = await createEntity(db);
  today = todayOf({ timeZone: entityA.timeZone });
  const building = await createBuilding(db, { entityId: entityA.id });
  const farBuilding = await createBuilding(db, { entityId: entityA.id });
  room = await createRoom(db, { entityId: entityA.id, buildingId: building.id, name: "Boiler room" });
  farRoom = await createRoom(db, { entityId: entityA.id, buildingId: farBuilding.id });
  manager = await createUser(db, { entityId: entityA.id, role: Role.FACILITY_MANAGER });
  technician = await createUser(db, { entityId: entityA.id, role: Role.TECHNICIAN });
  colleague = await createUser(db, { entityId: entityA.id, role: Role.TECHNICIAN });
  otherManager = await createUser(db, { entityId: entityB.id, role: Role.ADMINISTRATOR });
  await linkUserTo(db, { entityId: entityA.id, userId: manager.id, facilityId: building.facilityId });
  await linkUserTo(db, { entityId: entityA.id, userId: technician.id, buildingId: building.id });
  await linkUserTo(db, { entityId: entityA.id, userId: colleague.id, buildingId: building.id });
  const plan = await createPlannedMaintenance(db, { entityId: entityA.id, name: "Boiler check", assigneeIds: [technician.id], timeOfDay: "09:30:00" });
  mine = await createTask(db, { entityId: entityA.id, plannedMaintenanceId: plan.id, roomId: room.id, dueDate: today, dueTime: "09:30:00" });
  theirs = await createTask(db, { entityId: entityA.id, plannedMaintenanceId: plan.id, roomId: room.id, dueDate: addDays(today, 2), assigneeId: colleague.id });
  old = await createTask(db, { entityId: entityA.id, plannedMaintenanceId: plan.id, roomId: room.id, dueDate: addDays(today, -40) });
  far = await createTask(db, { entityId: entityA.id, plannedMaintenanceId: plan.id, roomId: farRoom.id, dueDate: today });
  managerToken = await api.token(manager);
  technicianToken = await api.token(technician);
  otherToken = await api.token(otherManager);
});

afterAll(async () => {
  await api?.close();
});

describe("GET /api/tasks", () => {
  it("lists the tasks the caller reaches in the period, by day", async () => {
    const answer = await callApi(tasksRoute, "/api/tasks", { token: managerToken });
    expect(answer.status).toBe(200);
    expect(answer.body.map((t: { id: number }) => t.id)).toEqual([mine.id, theirs.id]);
    expect(answer.body[0]).toMatchObject({ plannedMaintenanceName: "Boiler check", dueDate: today, dueTime: "09:30:00", status: 0, roomName: "Boiler room" });
    // From further back: the old one too. Another entity's caller sees none of them.
    const back = await callApi(tasksRoute, `/api/tasks?from=${addDays(today, -60)}&to=${today}`, { token: managerToken });
    expect(back.body.map((t: { id: number }) => t.id)).toEqual([old.id, mine.id]);
    const other = await callApi(tasksRoute, `/api/tasks?from=${addDays(today, -60)}`, { token: otherToken });
    expect(other.body).toEqual([]);
  });

  it("mine=true keeps the caller's own, status filters", async () => {
    const answer = await callApi(tasksRoute, "/api/tasks?mine=true", { token: technicianToken });
    expect(answer.body.map((t: { id: number }) => t.id)).toEqual([mine.id]);
    const done = await callApi(tasksRoute, "/api/tasks?status=done", { token: technicianToken });
    expect(done.body).toEqual([]);
  });

  it("answers 400 naming a bad parameter, and 401 without a token", async () => {
    const bad = await callApi(tasksRoute, "/api/tasks?from=2026-02-30&status=later&mine=yes", { token: managerToken });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe("INVALID_TASK_QUERY");
    expect(Object.keys(bad.body.fieldErrors).sort()).toEqual(["from", "mine", "status"]);
    for (const query of ["from=2026-13-01", "from=2026-13-01&to=x", "from=%00&to=2026-01-01", "to=9999-99-99"]) {
      const unreadable = await callApi(tasksRoute, `/api/tasks?${query}`, { token: managerToken });
      expect(unreadable.status, query).toBe(400);
    }
    const long = await callApi(tasksRoute, `/api/tasks?from=${today}&to=${addDays(today, 400)}`, { token: managerToken });
    expect(long.status).toBe(400);
    expect(long.body.fieldErrors.to).toEqual(["The period can be at most 366 days."]);
    expect((await callApi(tasksRoute, "/api/tasks")).status).toBe(401);
    expect((await callApi(tasksRoute, "/api/tasks", { method: "POST", token: managerToken })).status).toBe(405);
  });
});

describe("PUT /api/tasks/{id}/status", () => {
  it("marks done with a note, then undoes", async () => {
    const done = await callApi(statusRoute, status(mine.id).url, { method: "PUT", token: technicianToken, params: status(mine.id).params, body: { status: 1, note: "Pressure ok" } });
    expect(done.status).toBe(200);
    expect(done.body).toMatchObject({ id: mine.id, status: TaskStatus.DONE, doneById: technician.id, note: "Pressure ok" });
    expect((await reload(mine.id)).status).toBe(TaskStatus.DONE);
    const listed = await callApi(tasksRoute, "/api/tasks?status=done", { token: managerToken });
    expect(listed.body[0]).toMatchObject({ id: mine.id, doneById: technician.id, note: "Pressure ok" });
    const undone = await callApi(statusRoute, status(mine.id).url, { method: "PUT", token: technicianToken, params: status(mine.id).params, body: { status: 0 } });
    expect(undone.body).toMatchObject({ status: TaskStatus.PENDING, doneById: null, note: null });
  });

  it("answers 404 for another entity's, an out-of-reach or a malformed task, 403 for someone else's, 400 for a bad status", async () => {
    const foreign = await callApi(statusRoute, status(mine.id).url, { method: "PUT", token: otherToken, params: status(mine.id).params, body: { status: 1 } });
    expect(foreign.status).toBe(404);
    expect(foreign.body).toMatchObject({ code: "TASK_NOT_FOUND", message: "Task not found" });
    const outside = await callApi(statusRoute, status(far.id).url, { method: "PUT", token: technicianToken, params: status(far.id).params, body: { status: 1 } });
    expect(outside.status).toBe(404);
    const malformed = await callApi(statusRoute, status("x").url, { method: "PUT", token: technicianToken, params: status("x").params, body: { status: 1 } });
    expect(malformed.status).toBe(404);
    const notYours = await callApi(statusRoute, status(theirs.id).url, { method: "PUT", token: technicianToken, params: status(theirs.id).params, body: { status: 1 } });
    expect(notYours.status).toBe(403);
    expect(notYours.body).toMatchObject({ code: "TASK_NOT_YOURS", message: "This task is assigned to someone else." });
    const bad = await callApi(statusRoute, status(mine.id).url, { method: "PUT", token: technicianToken, params: status(mine.id).params, body: { status: 5 } });
    expect(bad.status).toBe(400);
    expect(bad.body.fieldErrors.status).toEqual(["Choose pending (0) or done (1)."]);
    const notJson = await callApi(statusRoute, status(mine.id).url, { method: "PUT", token: technicianToken, params: status(mine.id).params, body: "{" });
    expect(notJson.status).toBe(400);
    for (const id of [theirs.id, far.id]) expect((await reload(id)).status).toBe(TaskStatus.PENDING);
    expect((await callApi(statusRoute, status(mine.id).url, { token: technicianToken, params: status(mine.id).params })).status).toBe(405);
  });
});

describe("PUT /api/tasks/{id}/status: an inspection", () => {
  it("is done with every check answered by id: the answers and sign-off come back, in the list too; another entity's caller changes nothing", async () => {
    const db = api.database.db;
    const type = await createMaintenanceType(db, { entityId: entityA.id, name: "Gas round" });
    const valve = await createMaintenanceCheck(db, { entityId: entityA.id, maintenanceTypeId: type.id, position: 0, label: "Valve closes" });
    const ppm = await createMaintenanceCheck(db, { entityId: entityA.id, maintenanceTypeId: type.id, position: 1, kind: 1, label: "Gas (ppm)", maxValue: 10 });
    const plan = await createPlannedMaintenance(db, { entityId: entityA.id, name: "Gas 2027", maintenanceTypeId: type.id, assigneeIds: [technician.id] });
    const task = await createTask(db, { entityId: entityA.id, plannedMaintenanceId: plan.id, roomId: room.id, dueDate: addDays(today, 1) });
    const put = (token: string, body: unknown) => callApi(statusRoute, status(task.id).url, { method: "PUT", token, params: status(task.id).params, body });

    const foreign = await put(otherToken, { status: 1, checks: { [valve.id]: "fail", [ppm.id]: "4" } });
    expect(foreign.status).toBe(404);
    const missing = await put(technicianToken, { status: 1, checks: { [valve.id]: "fail" } });
    expect(missing.status).toBe(400);
    expect(missing.body.code).toBe("CHECKLIST_INCOMPLETE");
    expect(await db.select().from(taskCheckAnswers).where(eq(taskCheckAnswers.taskId, task.id))).toEqual([]);
    expect((await reload(task.id)).status).toBe(TaskStatus.PENDING);

    const done = await put(technicianToken, { status: 1, checks: { [valve.id]: "fail", [ppm.id]: "4" } });
    expect(done.status).toBe(200);
    const [opened] = await db.select().from(incidents).where(eq(incidents.title, "Gas 2027: Valve closes"));
    expect(done.body).toMatchObject({
      status: TaskStatus.DONE,
      signedOffById: technician.id,
      answers: [
        { checkId: valve.id, label: "Valve closes", answer: "fail", passed: false, incident: { id: opened.id, shortId: opened.shortId } },
        { checkId: ppm.id, label: "Gas (ppm)", answer: "4", passed: true, maxValue: 10, incident: null },
      ],
    });
    const listed = await callApi(tasksRoute, `/api/tasks?from=${addDays(today, 1)}&to=${addDays(today, 1)}&plan=${plan.id}`, { token: managerToken });
    expect(listed.body[0]).toMatchObject({ id: task.id, signedOffName: expect.any(String), answers: [{ answer: "fail" }, { answer: "4" }] });
  });
});
