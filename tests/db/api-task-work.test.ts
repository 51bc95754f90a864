import { asc, eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Role } from "~/db/enums";
import { materialLines, type Task, timeEntries, type User } from "~/db/schema";
import * as lineRoute from "~/routes/api/tasks.$id.material-lines.$lineId";
import * as linesRoute from "~/routes/api/tasks.$id.material-lines";
import * as entryRoute from "~/routes/api/tasks.$id.time-entries.$entryId";
import * as entriesRoute from "~/routes/api/tasks.$id.time-entries";
import { createBuilding, createEntity, createFacility, createPlannedMaintenance, createRoom, createTask, createUser, linkUserTo } from "#tests/factories";
import { type ApiHarness, callApi, type RouteModule, startApiRuntime } from "#tests/api-helpers";

/**
 * The time and material calls under /api/tasks/{id} (issue 62), the incident calls' handlers on a task:
 * what each answers, the rule of marking the task done (a technician on their task or nobody's, 403
 * TASK_NOT_YOURS on a colleague's), a technician's own entries only, another entity's and another task's
 * ids and a task out of reach as 404, and nothing written by a refused call.
 */
let api: ApiHarness;
let technician: User;
let task: Task;
let otherTask: Task;
let colleaguesTask: Task;
let farTask: Task;
let foreignTask: Task;
let managerToken: string;
let technicianToken: string;
let colleagueToken: string;
let outsiderToken: string;
let foreignToken: string;

const DAY = "2026-03-02";
const TASK_NOT_FOUND = { code: "TASK_NOT_FOUND", message: "Task not found" };

type Call = { method?: string; token: string; body?: unknown };
const list = (route: RouteModule, kind: string, taskId: number | string, call: Call) => callApi(route, `/api/tasks/${taskId}/${kind}`, { ...call, params: { id: String(taskId) } });
const one = (route: RouteModule, kind: string, param: string, taskId: number, id: number | string, call: Call) =>
  callApi(route, `/api/tasks/${taskId}/${kind}/${id}`, { ...call, params: { id: String(taskId), [param]: String(id) } });
const entries = (taskId: number | string, call: Call) => list(entriesRoute, "time-entries", taskId, call);
const entry = (taskId: number, id: number | string, call: Call) => one(entryRoute, "time-entries", "entryId", taskId, id, call);
const lines = (taskId: number | string, call: Call) => list(linesRoute, "material-lines", taskId, call);
const line = (taskId: number, id: number | string, call: Call) => one(lineRoute, "material-lines", "lineId", taskId, id, call);

/** Every time entry and material line of the tasks, for "nothing changed" checks. */
async function written(taskIds: number[]) {
  const db = api.database.db;
  return {
    entries: await db.select().from(timeEntries).where(inArray(timeEntries.taskId, taskIds)).orderBy(asc(timeEntries.id)),
    lines: await db.select().from(materialLines).where(inArray(materialLines.taskId, taskIds)).orderBy(asc(materialLines.id)),
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
  const manager = await createUser(db, { entityId: entityA.id, role: Role.FACILITY_MANAGER, name: "Max", surname: "Manager" });
  technician = await createUser(db, { entityId: entityA.id, role: Role.TECHNICIAN, name: "Ted", surname: "Tech" });
  const colleague = await createUser(db, { entityId: entityA.id, role: Role.TECHNICIAN, name: "Cleo", surname: "Colleague" });
  const outsider = await createUser(db, { entityId: entityA.id, role: Role.TECHNICIAN, name: "Olga", surname: "Outside" });
  const foreignAdmin = await createUser(db, { entityId: entityB.id, role: Role.ADMINISTRATOR });
  await linkUserTo(db, { entityId: entityA.id, userId: manager.id, facilityId: facility.id });
  await linkUserTo(db, { entityId: entityA.id, userId: technician.id, buildingId: building.id });
  await linkUserTo(db, { entityId: entityA.id, userId: colleague.id, buildingId: building.id });
  await linkUserTo(db, { entityId: entityA.id, userId: outsider.id, buildingId: farBuilding.id });
  // A plan nobody is assigned to: any technician who reaches the room may work on its tasks.
  const plan = await createPlannedMaintenance(db, { entityId: entityA.id, name: "Boiler check", roomIds: [room.id, farRoom.id] });
  task = await createTask(db, { entityId: entityA.id, plannedMaintenanceId: plan.id, roomId: room.id, dueDate: "2026-04-01" });
  otherTask = await createTask(db, { entityId: entityA.id, plannedMaintenanceId: plan.id, roomId: room.id, dueDate: "2026-04-02" });
  colleaguesTask = await createTask(db, { entityId: entityA.id, plannedMaintenanceId: plan.id, roomId: room.id, dueDate: "2026-04-03", assigneeId: colleague.id });
  farTask = await createTask(db, { entityId: entityA.id, plannedMaintenanceId: plan.id, roomId: farRoom.id, dueDate: "2026-04-01" });
  const foreignPlan = await createPlannedMaintenance(db, { entityId: entityB.id, name: "Foreign plan" });
  foreignTask = await createTask(db, { entityId: entityB.id, plannedMaintenanceId: foreignPlan.id, roomId: (await createRoom(db, { entityId: entityB.id })).id, dueDate: "2026-04-01" });
  [managerToken, technicianToken, colleagueToken, outsiderToken, foreignToken] = await Promise.all([manager, technician, colleague, outsider, foreignAdmin].map((u) => api.token(u)));
});

afterAll(async () => {
  await api?.close();
});

describe("time and material on a task", () => {
  it("records a technician's own time and material (201), lists them with their totals, keeps unsent fields on PATCH, deletes", async () => {
    const posted = await entries(task.id, { method: "POST", token: technicianToken, body: { workedOn: DAY, hours: 1, minutes: "30", note: "Burner cleaned" } });
    expect(posted.status).toBe(201);
    const id = posted.body.id as number;
    const listed = await entries(task.id, { token: colleagueToken });
    expect(listed.status).toBe(200);
    expect(listed.headers.get("x-total-count")).toBe("1");
    expect(listed.headers.get("x-total-minutes")).toBe("90");
    expect(listed.body).toEqual([
      // A colleague sees the minutes, not the cost (decision 065).
      { id, person: { id: technician.id, name: "Ted Tech" }, workedOn: DAY, minutes: 90, note: "Burner cleaned", hourlyRate: null, cost: null, costHidden: true, editable: false },
    ]);
    expect(await entry(task.id, id, { method: "PATCH", token: technicianToken, body: { minutes: 45 } })).toMatchObject({ status: 200, body: { id } });
    const [row] = (await written([task.id])).entries;
    expect([row.workedOn, row.minutes, row.note, row.userId, row.incidentId, row.taskId]).toEqual([DAY, 45, "Burner cleaned", technician.id, null, task.id]);

    const added = await lines(task.id, { method: "POST", token: technicianToken, body: { description: "Filter", quantity: "2,5", unitCost: 12.4 } });
    expect(added.status).toBe(201);
    const lineId = added.body.id as number;
    const shown = await lines(task.id, { token: managerToken });
    expect(shown.headers.get("x-total-amount")).toBe("31.00");
    expect(shown.body).toEqual([{ id: lineId, description: "Filter", quantity: "2.500", unitCost: "12.40", total: "31.00", addedBy: { id: technician.id, name: "Ted Tech" }, editable: true }]);
    expect((await line(task.id, lineId, { method: "PATCH", token: technicianToken, body: { quantity: "1" } })).status).toBe(200);
    expect((await lines(task.id, { token: technicianToken })).headers.get("x-total-amount")).toBe("12.40");

    expect((await entry(task.id, id, { method: "DELETE", token: technicianToken })).status).toBe(200);
    expect((await line(task.id, lineId, { method: "DELETE", token: managerToken })).status).toBe(200);
    expect(await written([task.id])).toEqual({ entries: [], lines: [] });
  });

  it("refuses a colleague's task (403), another's entry (403), another entity's or task's ids and a task out of reach (404), and writes nothing", async () => {
    const { body } = await entries(otherTask.id, { method: "POST", token: technicianToken, body: { workedOn: DAY, minutes: 20 } });
    const entryId = body.id as number;
    const { body: lineBody } = await lines(otherTask.id, { method: "POST", token: technicianToken, body: { description: "Seal", quantity: 1, unitCost: 2 } });
    const lineId = lineBody.id as number;
    const ids = [task.id, otherTask.id, colleaguesTask.id, farTask.id, foreignTask.id];
    const before = await written(ids);
    const time = { workedOn: DAY, minutes: 30 };
    const material = { description: "Seal", quantity: 1, unitCost: 2 };

    // The colleague's task: seen, but not his to record on (the rule of marking it done).
    expect((await entries(colleaguesTask.id, { token: technicianToken })).status).toBe(200);
    expect(await entries(colleaguesTask.id, { method: "POST", token: technicianToken, body: time })).toMatchObject({ status: 403, body: { code: "TASK_NOT_YOURS" } });
    expect((await lines(colleaguesTask.id, { method: "POST", token: technicianToken, body: material })).status).toBe(403);
    // Another's entry and line on a task both reach.
    expect(await entry(otherTask.id, entryId, { method: "PATCH", token: colleagueToken, body: { minutes: 5 } })).toMatchObject({ status: 403, body: { code: "NOT_YOUR_ENTRY" } });
    expect((await line(otherTask.id, lineId, { method: "DELETE", token: colleagueToken })).status).toBe(403);
    // Out of reach, another entity's, malformed: Task not found, for reads and writes.
    for (const [taskId, token] of [
      [farTask.id, technicianToken],
      [foreignTask.id, managerToken],
      [task.id, foreignToken],
      [otherTask.id, outsiderToken],
    ] as const) {
      expect(await entries(taskId, { token })).toMatchObject({ status: 404, body: TASK_NOT_FOUND });
      expect(await entries(taskId, { method: "POST", token, body: time })).toMatchObject({ status: 404, body: TASK_NOT_FOUND });
      expect(await lines(taskId, { method: "POST", token, body: material })).toMatchObject({ status: 404, body: TASK_NOT_FOUND });
    }
    expect(await entry(otherTask.id, entryId, { method: "DELETE", token: outsiderToken })).toMatchObject({ status: 404, body: TASK_NOT_FOUND });
    expect(await entries("abc", { token: managerToken })).toMatchObject({ status: 404, body: TASK_NOT_FOUND });
    // His entry and line named through another task.
    expect(await entry(task.id, entryId, { method: "DELETE", token: managerToken })).toMatchObject({ status: 404, body: { code: "TIME_ENTRY_NOT_FOUND" } });
    expect(await line(task.id, lineId, { method: "PATCH", token: managerToken, body: { quantity: 3 } })).toMatchObject({ status: 404, body: { code: "MATERIAL_LINE_NOT_FOUND" } });
    expect(await written(ids)).toEqual(before);
    expect((await api.database.db.select().from(timeEntries).where(eq(timeEntries.id, entryId)))[0].minutes).toBe(20);
  });

  it("answers 405 with the allowed methods", async () => {
    expect((await entries(task.id, { method: "PUT", token: technicianToken, body: {} })).headers.get("allow")).toBe("GET, POST");
    expect((await lines(task.id, { method: "PUT", token: technicianToken, body: {} })).headers.get("allow")).toBe("GET, POST");
    expect((await entry(task.id, 1, { token: technicianToken })).headers.get("allow")).toBe("PATCH, DELETE");
    expect((await line(task.id, 1, { token: technicianToken })).headers.get("allow")).toBe("PATCH, DELETE");
  });
});
