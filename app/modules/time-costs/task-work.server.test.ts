import { and, asc, eq, inArray, isNotNull } from "drizzle-orm";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { Role } from "~/db/enums";
import { auditLog, changeEvents, type Entity, materialLines, type Room, type Task, tasks, timeClocks, timeEntries, type User, users } from "~/db/schema";
import { ConflictError, ForbiddenError, NotFoundError } from "~/lib/errors";
import { createBuilding, createEntity, createIncident, createPlannedMaintenance, createRoom, createStaff, createTask, createUser, linkUserTo } from "#tests/factories";
import { rejectionOf } from "#tests/service-helpers";
import { setupTestDatabase } from "#tests/test-context";
import { addDays, dayIn } from "~/lib/dates";
import { removeFuturePendingTasks } from "~/modules/maintenance/generation.server";
import { getWork } from "./queries.server";
import { addMaterialLine, deleteMaterialLine, deleteTimeEntry, recordTime, startClock, stopClock, updateMaterialLine, updateTimeEntry } from "./service.server";

/**
 * Time and material on maintenance tasks (issue 62), and start/stop clocks on tasks and incidents: who
 * may (the rule of marking a task done), what is written (rows, audit, task.work-logged), and the
 * refusals (another entity, out of reach, not one's task) that change nothing.
 */
const database = setupTestDatabase({ services: true });
let entityA: Entity;
let entityB: Entity;
let manager: User;
let technician: User;
let colleague: User;
let farTechnician: User;
let otherManager: User;
let room: Room;
let farRoom: Room;
let otherRoom: Room;
let planId: number;
let otherPlanId: number;

const ctxOf = (user: User) => database.services.ctx(user.entityId, { id: user.id, role: user.role });
let made = 0;
/** A pending task of the technician's and colleague's plan in their room, each on its own day. */
const newTask = (overrides: Partial<Parameters<typeof createTask>[1]> = {}): Promise<Task> =>
  createTask(database.db, { entityId: entityA.id, plannedMaintenanceId: planId, roomId: room.id, dueDate: `2026-11-${String(1 + made++).padStart(2, "0")}`, ...overrides });
const entriesOf = (taskId: number) => database.db.select().from(timeEntries).where(eq(timeEntries.taskId, taskId)).orderBy(asc(timeEntries.id));
const linesOf = (taskId: number) => database.db.select().from(materialLines).where(eq(materialLines.taskId, taskId)).orderBy(asc(materialLines.id));
const workChanges = (taskId: number) =>
  database.db
    .select()
    .from(changeEvents)
    .where(eq(changeEvents.subjectId, taskId))
    .orderBy(asc(changeEvents.id))
    .then((rows) => rows.filter((r) => r.type === "task.work-logged"));

/** Everything the verbs may write, for "nothing changed" checks. */
async function snapshot(taskIds: number[]) {
  return {
    entries: await database.db.select().from(timeEntries).where(inArray(timeEntries.taskId, taskIds)).orderBy(asc(timeEntries.id)),
    lines: await database.db.select().from(materialLines).where(inArray(materialLines.taskId, taskIds)).orderBy(asc(materialLines.id)),
    clocks: await database.db.select().from(timeClocks).orderBy(asc(timeClocks.userId)),
    audit: (await database.db.select({ id: auditLog.id }).from(auditLog)).length,
    changes: (await database.db.select({ id: changeEvents.id }).from(changeEvents)).length,
  };
}

const holder = globalThis as { __caretakerClockOffsetMs?: number };
/** Moves the server's clock (lib/clock.server.ts `now()`) to `iso`. */
const setNow = (iso: string) => {
  holder.__caretakerClockOffsetMs = Date.parse(iso) - Date.now();
};

const DAY = "2026-03-02";

beforeAll(async () => {
  entityA = await createEntity(database.db, { timeZone: "Europe/Brussels" });
  entityB = await createEntity(database.db);
  ({ manager, technician } = await createStaff(database.db, entityA.id, {
    admin: { name: "Ada", surname: "Admin" },
    manager: { name: "Mia", surname: "Manager" },
    technician: { name: "Tom", surname: "Tech" },
  }));
  colleague = await createUser(database.db, { entityId: entityA.id, role: Role.TECHNICIAN, name: "Cleo", surname: "Colleague" });
  farTechnician = await createUser(database.db, { entityId: entityA.id, role: Role.TECHNICIAN, name: "Fay", surname: "Far" });
  otherManager = await createUser(database.db, { entityId: entityB.id, role: Role.FACILITY_MANAGER });
  const building = await createBuilding(database.db, { entityId: entityA.id });
  const farBuilding = await createBuilding(database.db, { entityId: entityA.id });
  room = await createRoom(database.db, { entityId: entityA.id, buildingId: building.id });
  farRoom = await createRoom(database.db, { entityId: entityA.id, buildingId: farBuilding.id });
  otherRoom = await createRoom(database.db, { entityId: entityB.id, buildingId: (await createBuilding(database.db, { entityId: entityB.id })).id });
  await linkUserTo(database.db, { entityId: entityA.id, userId: manager.id, facilityId: building.facilityId });
  await linkUserTo(database.db, { entityId: entityA.id, userId: technician.id, buildingId: building.id });
  await linkUserTo(database.db, { entityId: entityA.id, userId: colleague.id, buildingId: building.id });
  await linkUserTo(database.db, { entityId: entityA.id, userId: farTechnician.id, buildingId: farBuilding.id });
  planId = (await createPlannedMaintenance(database.db, { entityId: entityA.id, name: "Boiler check", assigneeIds: [technician.id, colleague.id, farTechnician.id] })).id;
  otherPlanId = (await createPlannedMaintenance(database.db, { entityId: entityB.id, name: "Their check" })).id;
  // Tom's own rate; Cleo has none (and the entity no default).
  await database.db.update(users).set({ hourlyRate: "40.00" }).where(eq(users.id, technician.id));
});

afterEach(() => {
  delete holder.__caretakerClockOffsetMs;
});

describe("time and material on a task", () => {
  it("lets a technician record their own time and material on their task, with audit rows, task.work-logged and totals", async () => {
    const task = await newTask();
    const at = { taskId: task.id };
    const { id: entryId } = await recordTime(ctxOf(technician), at, { workedOn: DAY, hours: "1", minutes: "30", note: "Cleaned the burner" });
    const { id: lineId } = await addMaterialLine(ctxOf(technician), at, { description: "Filter", quantity: "2,5", unitCost: "12.40" });
    expect((await entriesOf(task.id)).map((r) => [r.userId, r.workedOn, r.minutes, r.hourlyRate, r.note, r.incidentId, r.startedAt])).toEqual([
      [technician.id, "2026-03-02", 90, "40.00", "Cleaned the burner", null, null],
    ]);
    expect((await linesOf(task.id)).map((l) => [l.description, l.quantity, l.unitCost, l.createdById, l.incidentId])).toEqual([["Filter", "2.500", "12.40", technician.id, null]]);
    const audit = await database.db.select().from(auditLog).where(inArray(auditLog.recordId, [String(entryId), String(lineId)]));
    expect(audit.filter((a) => a.details && (a.details as { taskId?: number }).taskId === task.id).map((a) => [a.action, a.actorId]).sort()).toEqual([
      ["materialLine.add", technician.id],
      ["timeEntry.record", technician.id],
    ]);
    expect((await workChanges(task.id)).map((c) => c.payload)).toEqual([
      { taskId: task.id, plannedMaintenanceId: planId, roomId: room.id, dueDate: task.dueDate, kind: "time", id: entryId, action: "added" },
      { taskId: task.id, plannedMaintenanceId: planId, roomId: room.id, dueDate: task.dueDate, kind: "material", id: lineId, action: "added" },
    ]);
    const work = await getWork(ctxOf(technician), at);
    // 90 min at 40.00 = 60.00; 2.5 × 12.40 = 31.00; together 91.00.
    expect(work.totals).toEqual({ minutes: 90, labour: "60.00", materials: "31.00", total: "91.00", unpricedEntries: 0, entries: 1, lines: 1 });
    expect(work.canRecord).toBe(true);
    expect(work.entries.map((e) => [e.person.name, e.cost, e.editable])).toEqual([["Tom Tech", "60.00", true]]);
    // Corrections and deletions of one's own rows.
    await updateTimeEntry(ctxOf(technician), at, entryId, { workedOn: DAY, hours: 0, minutes: 45 });
    await updateMaterialLine(ctxOf(technician), at, lineId, { description: "Filter", quantity: "1", unitCost: "12.40" });
    expect((await getWork(ctxOf(technician), at)).totals).toEqual({ minutes: 45, labour: "30.00", materials: "12.40", total: "42.40", unpricedEntries: 0, entries: 1, lines: 1 });
    await deleteTimeEntry(ctxOf(technician), at, entryId);
    await deleteMaterialLine(ctxOf(technician), at, lineId);
    expect(await entriesOf(task.id)).toEqual([]);
    expect(await linesOf(task.id)).toEqual([]);
    expect((await workChanges(task.id)).map((c) => (c.payload as { action: string }).action)).toEqual(["added", "added", "updated", "updated", "deleted", "deleted"]);
  });

  it("lets a manager record time for a person who reaches the room and correct anyone's entry, and refuses anyone else", async () => {
    const task = await newTask();
    const at = { taskId: task.id };
    const { id } = await recordTime(ctxOf(technician), at, { workedOn: DAY, hours: 1, minutes: 0 });
    await updateTimeEntry(ctxOf(manager), at, id, { workedOn: DAY, hours: 2, minutes: 0 });
    await recordTime(ctxOf(manager), at, { workedOn: DAY, hours: 0, minutes: 30, userId: colleague.id });
    expect((await entriesOf(task.id)).map((r) => [r.userId, r.minutes, r.createdById, r.hourlyRate])).toEqual([
      [technician.id, 120, technician.id, "40.00"],
      [colleague.id, 30, manager.id, null],
    ]);
    const before = await snapshot([task.id]);
    // Fay does not reach the room; another entity's manager is no one of this entity.
    for (const person of [farTechnician, otherManager]) {
      expect(await rejectionOf(recordTime(ctxOf(manager), at, { workedOn: DAY, hours: 1, minutes: 0, userId: person.id }))).toMatchObject({ code: "PERSON_NOT_ALLOWED" });
    }
    expect(await snapshot([task.id])).toEqual(before);
    const work = await getWork(ctxOf(manager), at);
    expect(work.people.map((p) => p.name)).toEqual(["Ada Admin", "Cleo Colleague", "Mia Manager", "Tom Tech"]);
    expect(work.entries.map((e) => e.editable)).toEqual([true, true]);
    expect(work.totals).toEqual({ minutes: 150, labour: "80.00", materials: "0.00", total: "80.00", unpricedEntries: 1, entries: 2, lines: 0 });
  });

  it("refuses a technician on a task given to someone else, out of reach or of another entity, and changes nothing", async () => {
    const colleagues = await newTask({ assigneeId: colleague.id });
    const far = await newTask({ roomId: farRoom.id });
    const theirs = await createTask(database.db, { entityId: entityB.id, plannedMaintenanceId: otherPlanId, roomId: otherRoom.id, dueDate: "2026-11-20" });
    const mine = await newTask();
    const { id: entryId } = await recordTime(ctxOf(technician), { taskId: mine.id }, { workedOn: DAY, hours: 1, minutes: 0 });
    const { id: lineId } = await addMaterialLine(ctxOf(technician), { taskId: mine.id }, { description: "Seal", quantity: "1", unitCost: "3" });
    const ids = [colleagues.id, far.id, theirs.id, mine.id];
    const before = await snapshot(ids);
    const time = { workedOn: DAY, hours: 1, minutes: 0 };
    const line = { description: "Seal", quantity: "1", unitCost: "3" };
    // Not his task (the same rule as marking it done): Forbidden; he still sees it, but may not record.
    expect(await rejectionOf(recordTime(ctxOf(technician), { taskId: colleagues.id }, time))).toMatchObject({ code: "TASK_NOT_YOURS" });
    expect(await rejectionOf(addMaterialLine(ctxOf(technician), { taskId: colleagues.id }, line))).toBeInstanceOf(ForbiddenError);
    expect(await rejectionOf(startClock(ctxOf(technician), { taskId: colleagues.id }))).toBeInstanceOf(ForbiddenError);
    expect((await getWork(ctxOf(technician), { taskId: colleagues.id })).canRecord).toBe(false);
    // Out of reach, another entity's: Task not found, for reads too.
    for (const [ctx, task] of [
      [ctxOf(technician), far],
      [ctxOf(manager), theirs],
      [ctxOf(otherManager), mine],
    ] as const) {
      expect(await rejectionOf(recordTime(ctx, { taskId: task.id }, time))).toMatchObject({ code: "TASK_NOT_FOUND" });
      expect(await rejectionOf(addMaterialLine(ctx, { taskId: task.id }, line))).toBeInstanceOf(NotFoundError);
      expect(await rejectionOf(startClock(ctx, { taskId: task.id }))).toBeInstanceOf(NotFoundError);
      expect(await rejectionOf(getWork(ctx, { taskId: task.id }))).toBeInstanceOf(NotFoundError);
    }
    expect(await rejectionOf(deleteTimeEntry(ctxOf(otherManager), { taskId: mine.id }, entryId))).toBeInstanceOf(NotFoundError);
    // His entry and line named through another task: not found; the colleague's changes of them: not hers.
    expect(await rejectionOf(deleteTimeEntry(ctxOf(manager), { taskId: colleagues.id }, entryId))).toMatchObject({ code: "TIME_ENTRY_NOT_FOUND" });
    expect(await rejectionOf(deleteMaterialLine(ctxOf(manager), { taskId: colleagues.id }, lineId))).toMatchObject({ code: "MATERIAL_LINE_NOT_FOUND" });
    expect(await rejectionOf(deleteTimeEntry(ctxOf(colleague), { taskId: mine.id }, entryId))).toMatchObject({ code: "NOT_YOUR_ENTRY" });
    expect(await rejectionOf(updateMaterialLine(ctxOf(colleague), { taskId: mine.id }, lineId, line))).toMatchObject({ code: "NOT_YOUR_ENTRY" });
    expect(await snapshot(ids)).toEqual(before);
  });
});

describe("a task with recorded work", () => {
  it("stays when its plan's pending tasks are removed, with its work; a task without work goes", async () => {
    const plan = await createPlannedMaintenance(database.db, { entityId: entityA.id, name: "Gutters", assigneeIds: [technician.id], roomIds: [room.id] });
    const soon = addDays(dayIn(new Date(), "Europe/Brussels"), 10);
    const worked = await createTask(database.db, { entityId: entityA.id, plannedMaintenanceId: plan.id, roomId: room.id, dueDate: soon });
    const idle = await createTask(database.db, { entityId: entityA.id, plannedMaintenanceId: plan.id, roomId: room.id, dueDate: addDays(soon, 7) });
    await addMaterialLine(ctxOf(technician), { taskId: worked.id }, { description: "Ladder hire", quantity: "1", unitCost: "30" });
    expect(await removeFuturePendingTasks(ctxOf(manager), plan.id)).toBe(1);
    expect((await database.db.select({ id: tasks.id }).from(tasks).where(inArray(tasks.id, [worked.id, idle.id]))).map((t) => t.id)).toEqual([worked.id]);
    expect((await linesOf(worked.id)).map((l) => l.description)).toEqual(["Ladder hire"]);
  });
});

describe("startClock and stopClock", () => {
  it("records the elapsed minutes rounded up, started then, on the day it started, and shows the running clock", async () => {
    const task = await newTask();
    const at = { taskId: task.id };
    // 10:14 in Brussels.
    setNow("2026-03-02T09:14:00Z");
    const { startedAt } = await startClock(ctxOf(technician), at);
    expect(startedAt.toISOString()).toBe("2026-03-02T09:14:00.000Z");
    const clocks = await database.db.select().from(timeClocks).where(eq(timeClocks.userId, technician.id));
    expect(clocks.map((c) => [c.entityId, c.taskId, c.incidentId, c.startedAt.toISOString()])).toEqual([[entityA.id, task.id, null, "2026-03-02T09:14:00.000Z"]]);
    expect((await getWork(ctxOf(technician), at)).clock).toEqual({ startedAt: new Date("2026-03-02T09:14:00Z"), here: true });
    // Elsewhere, the same person's clock shows as running elsewhere; others see none.
    const incident = await createIncident(database.db, { entityId: entityA.id, roomId: room.id });
    expect((await getWork(ctxOf(technician), { incidentId: incident.id })).clock).toEqual({ startedAt: new Date("2026-03-02T09:14:00Z"), here: false });
    expect((await getWork(ctxOf(colleague), at)).clock).toBeNull();
    const audit = await database.db.select().from(auditLog).where(and(eq(auditLog.action, "timeEntry.start-clock"), eq(auditLog.recordId, String(technician.id))));
    expect(audit.map((a) => a.details)).toEqual([{ taskId: task.id, startedAt: "2026-03-02T09:14:00.000Z" }]);

    // One clock per person: a second one, here or on the incident, is refused and changes nothing.
    const before = await snapshot([task.id]);
    expect(await rejectionOf(startClock(ctxOf(technician), at))).toMatchObject({ code: "CLOCK_RUNNING" });
    expect(await rejectionOf(startClock(ctxOf(technician), { incidentId: incident.id }))).toBeInstanceOf(ConflictError);
    // No clock of his on the incident, none of hers on the task.
    expect(await rejectionOf(stopClock(ctxOf(technician), { incidentId: incident.id }))).toMatchObject({ code: "CLOCK_NOT_RUNNING" });
    expect(await rejectionOf(stopClock(ctxOf(colleague), at))).toMatchObject({ code: "CLOCK_NOT_RUNNING" });
    expect(await snapshot([task.id])).toEqual(before);

    // 44 min 10 s later: 45 minutes.
    setNow("2026-03-02T09:58:10Z");
    const stopped = await stopClock(ctxOf(technician), at);
    expect(stopped).toMatchObject({ minutes: 45, capped: false });
    expect((await entriesOf(task.id)).map((r) => [r.id, r.userId, r.workedOn, r.minutes, r.startedAt?.toISOString(), r.hourlyRate, r.createdById])).toEqual([
      [stopped.id, technician.id, "2026-03-02", 45, "2026-03-02T09:14:00.000Z", "40.00", technician.id],
    ]);
    expect(await database.db.select().from(timeClocks).where(eq(timeClocks.userId, technician.id))).toEqual([]);
    expect((await workChanges(task.id)).map((c) => c.payload)).toEqual([
      { taskId: task.id, plannedMaintenanceId: planId, roomId: room.id, dueDate: task.dueDate, kind: "time", id: stopped.id, action: "added" },
    ]);
    expect((await getWork(ctxOf(technician), at)).clock).toBeNull();
    expect(await rejectionOf(stopClock(ctxOf(technician), at))).toMatchObject({ code: "CLOCK_NOT_RUNNING" });
  });

  it("records a whole day for a clock left running over a day, on the day it started, and a minute for a few seconds", async () => {
    const incident = await createIncident(database.db, { entityId: entityA.id, roomId: room.id });
    const at = { incidentId: incident.id };
    // 23:50 in Brussels on 2 March, stopped 26 hours later.
    setNow("2026-03-02T22:50:00Z");
    await startClock(ctxOf(colleague), at);
    setNow("2026-03-04T00:50:00Z");
    expect(await stopClock(ctxOf(colleague), at)).toMatchObject({ minutes: 1440, capped: true });
    setNow("2026-03-04T08:00:00Z");
    await startClock(ctxOf(colleague), at);
    setNow("2026-03-04T08:00:05Z");
    expect(await stopClock(ctxOf(colleague), at)).toMatchObject({ minutes: 1, capped: false });
    const rows = await database.db.select().from(timeEntries).where(and(eq(timeEntries.incidentId, incident.id), isNotNull(timeEntries.startedAt))).orderBy(asc(timeEntries.id));
    expect(rows.map((r) => [r.userId, r.workedOn, r.minutes, r.startedAt?.toISOString(), r.taskId])).toEqual([
      [colleague.id, "2026-03-02", 1440, "2026-03-02T22:50:00.000Z", null],
      [colleague.id, "2026-03-04", 1, "2026-03-04T08:00:00.000Z", null],
    ]);
  });

  it("lets a start replace a clock the person can no longer stop (its task given to someone else)", async () => {
    const task = await newTask();
    const incident = await createIncident(database.db, { entityId: entityA.id, roomId: room.id });
    setNow("2026-03-03T08:00:00Z");
    await startClock(ctxOf(colleague), { taskId: task.id });
    await database.db.update(tasks).set({ assigneeId: technician.id }).where(eq(tasks.id, task.id));
    expect(await rejectionOf(stopClock(ctxOf(colleague), { taskId: task.id }))).toMatchObject({ code: "TASK_NOT_YOURS" });
    setNow("2026-03-03T09:30:00Z");
    await startClock(ctxOf(colleague), { incidentId: incident.id });
    const rows = await database.db.select().from(timeClocks).where(eq(timeClocks.userId, colleague.id));
    expect(rows.map((c) => [c.incidentId, c.taskId, c.startedAt.toISOString()])).toEqual([[incident.id, null, "2026-03-03T09:30:00.000Z"]]);
    expect(await entriesOf(task.id)).toEqual([]);
    setNow("2026-03-03T09:39:30Z");
    expect(await stopClock(ctxOf(colleague), { incidentId: incident.id })).toMatchObject({ minutes: 10 });
  });

  it("refuses a clock on a task or incident out of reach and the system, and changes nothing", async () => {
    const far = await newTask({ roomId: farRoom.id });
    const farIncident = await createIncident(database.db, { entityId: entityA.id, roomId: farRoom.id });
    const theirs = await createIncident(database.db, { entityId: entityB.id, roomId: otherRoom.id });
    const before = await snapshot([far.id]);
    expect(await rejectionOf(startClock(ctxOf(technician), { taskId: far.id }))).toMatchObject({ code: "TASK_NOT_FOUND" });
    expect(await rejectionOf(startClock(ctxOf(technician), { incidentId: farIncident.id }))).toBeInstanceOf(NotFoundError);
    expect(await rejectionOf(startClock(ctxOf(manager), { incidentId: theirs.id }))).toBeInstanceOf(NotFoundError);
    const system = database.services.ctx(entityA.id, { kind: "system", id: null, role: null, name: "test" });
    expect(await rejectionOf(startClock(system, { taskId: far.id }))).toBeInstanceOf(ForbiddenError);
    expect(await snapshot([far.id])).toEqual(before);
    expect(await database.db.select().from(tasks).where(eq(tasks.id, far.id))).toHaveLength(1);
  });
});
