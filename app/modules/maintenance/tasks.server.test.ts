import fs from "node:fs";
import path from "node:path";
import { asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { systemActor, tokenActor } from "~/core/actor";
import type { Database } from "~/db/client.server";
import { NotificationType, Role, TaskStatus } from "~/db/enums";
import { type Building, changeEvents, type Entity, notificationDetails, notifications, type Room, storedFiles, type Task, tasks, type User } from "~/db/schema";
import { addDays } from "~/lib/dates";
import { ForbiddenError, NotFoundError } from "~/lib/errors";
import { createBuilding, createEntity, createPlannedMaintenance, createRoom, createTask, createUser, linkUserTo, pngBytes } from "#tests/factories";
import { expectFieldError, rejectionOf } from "#tests/service-helpers";
import { createTestServices, type TestServices } from "#tests/test-context";
import { createTestDatabase } from "#tests/test-db";
import { completeTask, reopenTask, setTaskStatus } from "./tasks.server";

let database: Database;
let services: TestServices;
let entityA: Entity;
let entityB: Entity;
let admin: User;
let manager: User;
let quietManager: User;
let technician: User;
let colleague: User;
let farTechnician: User;
let otherManager: User;
let otherAdmin: User;
let otherTechnician: User;
let building: Building;
let room: Room;
let farRoom: Room;
let planId: number;
let farPlanId: number;

const ctxOf = (user: User) => services.ctx(user.entityId, { id: user.id, role: user.role });
const reload = async (id: number): Promise<Task> => (await database.db.select().from(tasks).where(eq(tasks.id, id)))[0];
const changesOf = async (taskId: number) =>
  (await database.db.select().from(changeEvents).where(eq(changeEvents.subjectId, taskId)).orderBy(asc(changeEvents.id))).filter((c) => c.type.startsWith("task."));
let made = 0;
/** A pending task of the technician's plan in their room, each on its own day. */
const newTask = (overrides: Partial<Parameters<typeof createTask>[1]> = {}) =>
  createTask(database.db, { entityId: entityA.id, plannedMaintenanceId: planId, roomId: room.id, dueDate: addDays("2026-12-01", made++), ...overrides });

/** Who was told of `taskId` being done (notification type 25), by user id. */
async function toldOfDone(taskId: number): Promise<number[]> {
  const rows = await database.db
    .select({ userId: notifications.userId, message: notificationDetails.message })
    .from(notifications)
    .innerJoin(notificationDetails, eq(notificationDetails.id, notifications.detailsId))
    .where(eq(notificationDetails.type, NotificationType.TASK_DONE))
    .orderBy(asc(notifications.userId));
  return rows.filter((r) => r.message.taskId === taskId).map((r) => r.userId);
}

beforeAll(async () => {
  database = await createTestDatabase();
  services = await createTestServices(database);
  entityA = await createEntity(database.db);
  entityB = await createEntity(database.db);
  admin = await createUser(database.db, { entityId: entityA.id, role: Role.ADMINISTRATOR, receiveNotification: true });
  manager = await createUser(database.db, { entityId: entityA.id, role: Role.FACILITY_MANAGER, receiveNotification: true });
  quietManager = await createUser(database.db, { entityId: entityA.id, role: Role.FACILITY_MANAGER, receiveNotification: false });
  technician = await createUser(database.db, { entityId: entityA.id, role: Role.TECHNICIAN, name: "Tom", surname: "Tech" });
  colleague = await createUser(database.db, { entityId: entityA.id, role: Role.TECHNICIAN, name: "Cleo", surname: "Colleague" });
  farTechnician = await createUser(database.db, { entityId: entityA.id, role: Role.TECHNICIAN });
  otherManager = await createUser(database.db, { entityId: entityB.id, role: Role.FACILITY_MANAGER });
  // Another entity's people who would hear of entity A's tasks if its entity were not checked: an administrator
  // taking notifications (reaches every room of an entity), and a technician of the same name as A's.
  otherAdmin = await createUser(database.db, { entityId: entityB.id, role: Role.ADMINISTRATOR, receiveNotification: true });
  otherTechnician = await createUser(database.db, { entityId: entityB.id, role: Role.TECHNICIAN, name: "Tom", surname: "Tech" });
  building = await createBuilding(database.db, { entityId: entityA.id });
  const farBuilding = await createBuilding(database.db, { entityId: entityA.id });
  room = await createRoom(database.db, { entityId: entityA.id, buildingId: building.id });
  farRoom = await createRoom(database.db, { entityId: entityA.id, buildingId: farBuilding.id });
  await linkUserTo(database.db, { entityId: entityA.id, userId: manager.id, facilityId: building.facilityId });
  await linkUserTo(database.db, { entityId: entityA.id, userId: quietManager.id, facilityId: building.facilityId });
  await linkUserTo(database.db, { entityId: entityA.id, userId: technician.id, buildingId: building.id });
  await linkUserTo(database.db, { entityId: entityA.id, userId: colleague.id, buildingId: building.id });
  await linkUserTo(database.db, { entityId: entityA.id, userId: farTechnician.id, buildingId: farBuilding.id });
  planId = (await createPlannedMaintenance(database.db, { entityId: entityA.id, name: "Boiler check", assigneeIds: [technician.id, colleague.id] })).id;
  farPlanId = (await createPlannedMaintenance(database.db, { entityId: entityA.id, name: "Far plan", assigneeIds: [farTechnician.id] })).id;
});

afterAll(async () => {
  await services?.close();
  await database?.close();
});

beforeEach(async () => {
  await services.queue.drain();
});

describe("completeTask", () => {
  it("marks the task done with who, when and the note, and emits task.done once", async () => {
    const task = await newTask();
    const before = Date.now();
    const result = await completeTask(ctxOf(technician), task.id, { note: "  Filter replaced  " });
    expect(result).toMatchObject({ id: task.id, status: TaskStatus.DONE, doneById: technician.id, note: "Filter replaced" });
    const row = await reload(task.id);
    expect(row.status).toBe(TaskStatus.DONE);
    expect(row.doneAt!.getTime()).toBeGreaterThanOrEqual(before - 1000);
    expect(row.doneById).toBe(technician.id);
    expect(row.note).toBe("Filter replaced");
    const changes = await changesOf(task.id);
    expect(changes.map((c) => c.type)).toEqual(["task.done"]);
    expect(changes[0].payload).toMatchObject({ taskId: task.id, plannedMaintenanceId: planId, roomId: room.id, hasNote: true, hasPhoto: false });
    expect(changes[0].actor).toMatchObject({ kind: "person", id: technician.id });

    // Done again: nothing changes, nothing is emitted.
    await completeTask(ctxOf(manager), task.id, { note: "other" });
    expect((await reload(task.id)).doneById).toBe(technician.id);
    expect(await changesOf(task.id)).toHaveLength(1);
  });

  it("tells the plan's other assignees and the notified managers who reach the building, never the doer", async () => {
    const task = await newTask();
    await completeTask(ctxOf(technician), task.id, {});
    await services.queue.drain();
    // colleague: a fellow assignee; manager and admin: they receive notifications and reach the room.
    // Not the technician (the doer), not the manager who turned notifications off, not the far technician.
    expect(await toldOfDone(task.id)).toEqual([admin.id, manager.id, colleague.id].sort((a, b) => a - b));
    const [details] = await database.db.select().from(notificationDetails).where(eq(notificationDetails.type, NotificationType.TASK_DONE)).orderBy(asc(notificationDetails.id)).limit(1);
    expect(details.subject).toContain("Boiler check");
    expect(details.message).toMatchObject({ plannedMaintenanceId: planId });
  });

  it("never tells another entity's people, whatever their role and settings", async () => {
    const task = await newTask();
    await completeTask(ctxOf(colleague), task.id, {});
    await services.queue.drain();
    const told = await toldOfDone(task.id);
    expect(told).toEqual([admin.id, manager.id, technician.id].sort((a, b) => a - b));
    for (const stranger of [otherAdmin, otherManager, otherTechnician]) expect(told).not.toContain(stranger.id);
  });

  it("leaves out managers whose notification buildings do not hold the task's building", async () => {
    const picky = await createUser(database.db, { entityId: entityA.id, role: Role.FACILITY_MANAGER, receiveNotification: true, notificationSettings: { priorities: [], buildingIds: [farRoom.buildingId] } as never });
    await linkUserTo(database.db, { entityId: entityA.id, userId: picky.id, facilityId: building.facilityId });
    const task = await newTask();
    await completeTask(ctxOf(technician), task.id, {});
    await services.queue.drain();
    expect(await toldOfDone(task.id)).not.toContain(picky.id);
  });

  it("a task's own assignee replaces its plan's: only they (and the managers) hear of it", async () => {
    const task = await newTask({ assigneeId: colleague.id });
    await completeTask(ctxOf(manager), task.id, {});
    await services.queue.drain();
    expect(await toldOfDone(task.id)).toEqual([admin.id, colleague.id].sort((a, b) => a - b));
  });

  it("stores a photo through the file store and clears it again on undo", async () => {
    const task = await newTask();
    const done = await completeTask(ctxOf(technician), task.id, { photo: { name: "work.png", bytes: pngBytes(8, 8) } });
    expect(done.photoFileId).toMatch(/^[0-9a-f-]{36}$/);
    const [file] = await database.db.select().from(storedFiles).where(eq(storedFiles.id, done.photoFileId!));
    expect(file.mimeType).toBe("image/png");
    expect(fs.existsSync(path.join(services.files.root, file.storageKey))).toBe(true);
    expect((await changesOf(task.id))[0].payload).toMatchObject({ hasPhoto: true });

    await reopenTask(ctxOf(technician), task.id);
    expect((await reload(task.id)).photoFileId).toBeNull();
  });

  it("refuses a photo that is not an image, and a note too long, writing nothing", async () => {
    const task = await newTask();
    await expectFieldError(completeTask(ctxOf(technician), task.id, { photo: { name: "x.png", bytes: new TextEncoder().encode("not an image") } }), "photo", "errors.file.wrongFormat");
    await expectFieldError(completeTask(ctxOf(technician), task.id, { note: "x".repeat(2001) }), "note", "common:validation.tooLong");
    expect((await reload(task.id)).status).toBe(TaskStatus.PENDING);
    expect(await changesOf(task.id)).toHaveLength(0);
  });

  it("answers not found for another entity's task, one outside reach, and impossible ids", async () => {
    const task = await newTask();
    expect(await rejectionOf(completeTask(ctxOf(otherManager), task.id, {}))).toBeInstanceOf(NotFoundError);
    const far = await createTask(database.db, { entityId: entityA.id, plannedMaintenanceId: farPlanId, roomId: farRoom.id });
    expect(await rejectionOf(completeTask(ctxOf(technician), far.id, {}))).toBeInstanceOf(NotFoundError);
    expect(await rejectionOf(completeTask(ctxOf(manager), far.id, {}))).toBeInstanceOf(NotFoundError);
    expect(await rejectionOf(completeTask(ctxOf(technician), 0, {}))).toBeInstanceOf(NotFoundError);
    expect(await rejectionOf(completeTask(ctxOf(technician), 2 ** 40, {}))).toBeInstanceOf(NotFoundError);
    expect((await reload(task.id)).status).toBe(TaskStatus.PENDING);
    expect((await reload(far.id)).status).toBe(TaskStatus.PENDING);
    // The far technician and an administrator do reach it.
    await completeTask(ctxOf(farTechnician), far.id, {});
    expect((await reload(far.id)).doneById).toBe(farTechnician.id);
  });

  it("refuses the wrong role: nobody, a token without the task scope, a technician on someone else's task", async () => {
    const task = await newTask();
    expect(await rejectionOf(completeTask(services.ctx(entityA.id, null), task.id, {}))).toBeInstanceOf(ForbiddenError);
    const token = tokenActor(technician, 1, ["incident:read"]);
    expect(await rejectionOf(completeTask(services.ctx(entityA.id, token), task.id, {}))).toBeInstanceOf(ForbiddenError);
    const theirs = await newTask({ assigneeId: colleague.id });
    const refused = await rejectionOf<ForbiddenError>(completeTask(ctxOf(technician), theirs.id, {}));
    expect(refused).toBeInstanceOf(ForbiddenError);
    expect(refused.code).toBe("TASK_NOT_YOURS");
    const otherPlan = await createPlannedMaintenance(database.db, { entityId: entityA.id, assigneeIds: [colleague.id] });
    const planTask = await createTask(database.db, { entityId: entityA.id, plannedMaintenanceId: otherPlan.id, roomId: room.id });
    expect(await rejectionOf(completeTask(ctxOf(technician), planTask.id, {}))).toBeInstanceOf(ForbiddenError);
    expect((await reload(theirs.id)).status).toBe(TaskStatus.PENDING);
    expect((await reload(planTask.id)).status).toBe(TaskStatus.PENDING);
    // A token with the scope acts for its person; the system may too.
    await completeTask(services.ctx(entityA.id, tokenActor(technician, 1, ["task:update"])), task.id, {});
    await reopenTask(services.ctx(entityA.id, systemActor("test")), task.id);
    expect((await reload(task.id)).status).toBe(TaskStatus.PENDING);
    // A task of a plan with nobody assigned is anyone's in reach.
    const open = await createPlannedMaintenance(database.db, { entityId: entityA.id });
    const openTask = await createTask(database.db, { entityId: entityA.id, plannedMaintenanceId: open.id, roomId: room.id });
    await completeTask(ctxOf(technician), openTask.id, {});
    expect((await reload(openTask.id)).status).toBe(TaskStatus.DONE);
  });
});

describe("reopenTask and setTaskStatus", () => {
  it("undo makes the task pending again, clears who, when and the note, emits task.reopened and tells nobody", async () => {
    const task = await newTask();
    await completeTask(ctxOf(technician), task.id, { note: "done" });
    await services.queue.drain();
    const told = await database.db.select({ id: notifications.id }).from(notifications);
    const reopened = await reopenTask(ctxOf(manager), task.id);
    expect(reopened).toMatchObject({ status: TaskStatus.PENDING, doneAt: null, doneById: null, note: null });
    expect((await changesOf(task.id)).map((c) => c.type)).toEqual(["task.done", "task.reopened"]);
    await services.queue.drain();
    expect(await database.db.select({ id: notifications.id }).from(notifications)).toHaveLength(told.length);
    // Undoing a pending task does nothing.
    await reopenTask(ctxOf(manager), task.id);
    expect(await changesOf(task.id)).toHaveLength(2);
  });

  it("setTaskStatus reads 0 and 1 from JSON or a form, and refuses anything else with a field error", async () => {
    const task = await newTask();
    await setTaskStatus(ctxOf(technician), task.id, { status: "1", note: "ok" });
    expect(await reload(task.id)).toMatchObject({ status: TaskStatus.DONE, note: "ok" });
    await setTaskStatus(ctxOf(technician), task.id, { status: 0 });
    expect((await reload(task.id)).status).toBe(TaskStatus.PENDING);
    await expectFieldError(setTaskStatus(ctxOf(technician), task.id, { status: 2 }), "status", "tasks:validation.status");
    await expectFieldError(setTaskStatus(ctxOf(technician), task.id, { status: "x" as never }), "status", "tasks:validation.status");
    expect(await rejectionOf(setTaskStatus(ctxOf(otherManager), task.id, { status: 1 }))).toBeInstanceOf(NotFoundError);
  });
});
