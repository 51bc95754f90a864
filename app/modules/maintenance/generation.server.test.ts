import { and, asc, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { systemActor } from "~/core/actor";
import type { ServiceContext } from "~/core/context.server";
import { openDatabase, type Database } from "~/db/client.server";
import { ObjectType, Role, TaskStatus, TimeMeasure } from "~/db/enums";
import { buildings, type Entity, equipmentItems, jobQueue, plannedMaintenanceRooms, plannedMaintenances, rooms, tasks, type User } from "~/db/schema";
import { addDays, dayIn } from "~/lib/dates";
import { ForbiddenError } from "~/lib/errors";
import { rowsOf } from "~/lib/list-page.server";
import { jobs } from "~/jobs/registry.server";
import { startQueue } from "~/jobs/queue.server";
import { createBuilding, createEntity, createEquipmentItem, createFacility, createPlannedMaintenance, createRoom, createTask, createUser } from "#tests/factories";
import { actorContext, rejectionOf } from "#tests/service-helpers";
import { createTestDatabase } from "#tests/test-db";
import { taskGenerationSchedule } from "./generation-jobs.server";
import { extendEntityTasks, regeneratePlans, regeneratePlanTasks, removeFuturePendingTasks } from "./generation.server";
import { occurrenceDates, TASK_HORIZON_DAYS } from "./recurrence";

/**
 * Task generation (decision 050) on a real database. Most cases give "today" explicitly (a fixed day,
 * 2026-03-01); the verbs' own entry points read it from the clock in the entity's zone.
 */
let database: Database;
let entity: Entity;
let other: Entity;
let manager: User;
let technician: User;
let otherManager: User;
let ctx: ServiceContext;

const TODAY = "2026-03-01";
const HORIZON = addDays(TODAY, TASK_HORIZON_DAYS);

beforeAll(async () => {
  database = await createTestDatabase();
  entity = await createEntity(database.db);
  other = await createEntity(database.db);
  manager = await createUser(database.db, { entityId: entity.id, role: Role.FACILITY_MANAGER });
  technician = await createUser(database.db, { entityId: entity.id, role: Role.TECHNICIAN });
  otherManager = await createUser(database.db, { entityId: other.id, role: Role.FACILITY_MANAGER });
  ctx = actorContext(database.db, manager);
});

afterAll(async () => {
  await database?.close();
});

type Row = { roomId: number; equipmentItemId: number | null; dueDate: string; dueTime: string | null; status: number; assigneeId: number | null };
async function tasksOf(planId: number): Promise<Row[]> {
  return database.db
    .select({ roomId: tasks.roomId, equipmentItemId: tasks.equipmentItemId, dueDate: tasks.dueDate, dueTime: tasks.dueTime, status: tasks.status, assigneeId: tasks.assigneeId })
    .from(tasks)
    .where(eq(tasks.plannedMaintenanceId, planId))
    .orderBy(asc(tasks.roomId), asc(tasks.equipmentItemId), asc(tasks.dueDate));
}
const datesOf = (rows: Row[], roomId: number, itemId: number | null = null) =>
  rows.filter((r) => r.roomId === roomId && r.equipmentItemId === itemId).map((r) => r.dueDate);
async function generatedUntil(planId: number) {
  const [row] = await database.db.select({ until: plannedMaintenances.generatedUntil }).from(plannedMaintenances).where(eq(plannedMaintenances.id, planId));
  return row.until;
}

/** A building of the entity with `n` rooms. */
async function buildingWithRooms(n: number, entityId = entity.id) {
  const building = await createBuilding(database.db, { entityId });
  const list = [];
  for (let i = 0; i < n; i++) list.push(await createRoom(database.db, { entityId, buildingId: building.id }));
  return { building, rooms: list };
}

const weekly = { startDate: "2026-02-02", endDate: "2026-12-31", occurrenceInterval: 1, occurrenceUnit: TimeMeasure.WEEK } as const;
const weeklyFromToday = occurrenceDates({ ...weekly }, TODAY, HORIZON);

describe("generating a plan's tasks", () => {
  it("creates a room's and an equipment item's tasks from today to the horizon, at the plan's time, with no assignee", async () => {
    const { rooms: [room, itemRoom] } = await buildingWithRooms(2);
    const item = await createEquipmentItem(database.db, { entityId: entity.id, roomId: itemRoom.id });
    const plan = await createPlannedMaintenance(database.db, { entityId: entity.id, ...weekly, timeOfDay: "08:00", roomIds: [room.id], equipmentItemIds: [item.id], locations: [] });

    const result = await regeneratePlans(ctx, [plan.id], { today: TODAY });
    expect(weeklyFromToday[0]).toBe("2026-03-02");
    expect(weeklyFromToday.length).toBe(13);
    expect(result).toEqual({ plans: 1, created: 26, removed: 0 });
    const rows = await tasksOf(plan.id);
    expect(datesOf(rows, room.id)).toEqual(weeklyFromToday);
    // The item's tasks sit in its room; the room itself has no room task (it is not selected).
    expect(datesOf(rows, itemRoom.id, item.id)).toEqual(weeklyFromToday);
    expect(datesOf(rows, itemRoom.id)).toEqual([]);
    expect(new Set(rows.map((r) => `${r.dueTime}|${r.status}|${r.assigneeId}`))).toEqual(new Set([`08:00:00|${TaskStatus.PENDING}|null`]));
    expect(await generatedUntil(plan.id)).toBe(HORIZON);

    // Idempotent: a second pass changes nothing.
    expect(await regeneratePlans(ctx, [plan.id], { today: TODAY })).toEqual({ plans: 1, created: 0, removed: 0 });
    expect(await tasksOf(plan.id)).toEqual(rows);
  });

  it("after an edit removes only the future pending tasks the plan no longer yields, and keeps done and past tasks", async () => {
    const { rooms: [a, b] } = await buildingWithRooms(2);
    const plan = await createPlannedMaintenance(database.db, { entityId: entity.id, ...weekly, roomIds: [a.id, b.id], locations: [] });
    await regeneratePlans(ctx, [plan.id], { today: TODAY });
    // A past pending task (before today) and two done ones, one of them in the future.
    await createTask(database.db, { entityId: entity.id, plannedMaintenanceId: plan.id, roomId: a.id, dueDate: "2026-02-23" });
    await database.db
      .update(tasks)
      .set({ status: TaskStatus.DONE, doneAt: new Date(), doneById: manager.id })
      .where(and(eq(tasks.plannedMaintenanceId, plan.id), sql`${tasks.dueDate} in ('2026-03-09', '2026-03-16')`, eq(tasks.roomId, a.id)));

    // Every 2 weeks now, at 09:30, and room b leaves the selection.
    await database.db.update(plannedMaintenances).set({ occurrenceInterval: 2, timeOfDay: "09:30" }).where(eq(plannedMaintenances.id, plan.id));
    await database.db.delete(plannedMaintenanceRooms).where(and(eq(plannedMaintenanceRooms.plannedMaintenanceId, plan.id), eq(plannedMaintenanceRooms.roomId, b.id)));
    const result = await regeneratePlans(ctx, [plan.id], { today: TODAY });

    const fortnightly = occurrenceDates({ ...weekly, occurrenceInterval: 2 }, TODAY, HORIZON);
    expect(fortnightly[0]).toBe("2026-03-02");
    const rows = await tasksOf(plan.id);
    // Room a: the past task, the fortnightly dates, and the done task of the 9th (the 16th is a fortnightly date anyway).
    expect(datesOf(rows, a.id)).toEqual(["2026-02-23", ...new Set([...fortnightly, "2026-03-09"])].sort());
    expect(rows.filter((r) => r.status === TaskStatus.DONE).map((r) => r.dueDate)).toEqual(["2026-03-09", "2026-03-16"]);
    expect(datesOf(rows, b.id)).toEqual([]);
    // The pending tasks from today on take the new time; the past and done ones keep theirs.
    for (const r of rows) expect(r.dueTime, r.dueDate).toBe(r.status === TaskStatus.PENDING && r.dueDate >= TODAY ? "09:30:00" : null);
    // Removed: room b's 13 and room a's off-rhythm pending weeks (13 weekly - 7 fortnightly - the done 9th).
    expect(result).toEqual({ plans: 1, created: 0, removed: 13 + 5 });
  });

  it("archiving a plan removes its pending tasks from today on (the verbs' clock, the entity's zone)", async () => {
    const today = dayIn(Date.now(), ctx.timeZone);
    const { rooms: [room] } = await buildingWithRooms(1);
    const plan = await createPlannedMaintenance(database.db, {
      entityId: entity.id,
      startDate: addDays(today, -14),
      endDate: addDays(today, 400),
      occurrenceInterval: 1,
      occurrenceUnit: TimeMeasure.DAY,
      roomIds: [room.id],
      locations: [],
    });
    const made = await regeneratePlanTasks(ctx, plan.id);
    expect(made).toEqual({ created: TASK_HORIZON_DAYS + 1, removed: 0 });
    expect(await generatedUntil(plan.id)).toBe(addDays(today, TASK_HORIZON_DAYS));
    await createTask(database.db, { entityId: entity.id, plannedMaintenanceId: plan.id, roomId: room.id, dueDate: addDays(today, -1) });
    await database.db
      .update(tasks)
      .set({ status: TaskStatus.DONE, doneAt: new Date() })
      .where(and(eq(tasks.plannedMaintenanceId, plan.id), eq(tasks.dueDate, addDays(today, 3))));

    await database.db.update(plannedMaintenances).set({ archivedAt: new Date() }).where(eq(plannedMaintenances.id, plan.id));
    expect(await removeFuturePendingTasks(ctx, plan.id)).toBe(TASK_HORIZON_DAYS);
    const rows = await tasksOf(plan.id);
    expect(rows.map((r) => [r.dueDate, r.status])).toEqual([
      [addDays(today, -1), TaskStatus.PENDING],
      [addDays(today, 3), TaskStatus.DONE],
    ]);
    // An archived plan yields nothing more, and the nightly pass leaves it alone.
    expect(await regeneratePlanTasks(ctx, plan.id)).toEqual({ created: 0, removed: 0 });
    await extendEntityTasks(ctx);
    expect(await tasksOf(plan.id)).toEqual(rows);
  });

  it("covers a whole building's rooms, rooms added later included, and skips archived rooms and items", async () => {
    const { building, rooms: [a, b, gone] } = await buildingWithRooms(3);
    await database.db.update(rooms).set({ archivedAt: new Date() }).where(eq(rooms.id, gone.id));
    const kept = await createEquipmentItem(database.db, { entityId: entity.id, roomId: a.id });
    const archivedItem = await createEquipmentItem(database.db, { entityId: entity.id, roomId: b.id, archivedAt: new Date() });
    const monthly = { startDate: "2026-01-31", endDate: "2026-12-31", occurrenceInterval: 1, occurrenceUnit: TimeMeasure.MONTH } as const;
    const plan = await createPlannedMaintenance(database.db, {
      entityId: entity.id,
      ...monthly,
      equipmentItemIds: [kept.id, archivedItem.id],
      locations: [{ objectType: ObjectType.BUILDING, buildingId: building.id }],
    });
    await regeneratePlans(ctx, [plan.id], { today: TODAY });
    const dates = ["2026-03-31", "2026-04-30"]; // the horizon is May 30
    expect(occurrenceDates(monthly, TODAY, HORIZON)).toEqual(dates);
    let rows = await tasksOf(plan.id);
    expect(datesOf(rows, a.id)).toEqual(dates);
    expect(datesOf(rows, a.id, kept.id)).toEqual(dates);
    expect(datesOf(rows, b.id)).toEqual(dates);
    expect(datesOf(rows, b.id, archivedItem.id)).toEqual([]);
    expect(datesOf(rows, gone.id)).toEqual([]);

    // A room added to the building and an item archived since: the nightly pass follows both.
    const added = await createRoom(database.db, { entityId: entity.id, buildingId: building.id });
    await database.db.update(equipmentItems).set({ archivedAt: new Date() }).where(eq(equipmentItems.id, kept.id));
    await extendEntityTasks(ctx, { today: TODAY });
    rows = await tasksOf(plan.id);
    expect(datesOf(rows, added.id)).toEqual(dates);
    expect(datesOf(rows, a.id, kept.id)).toEqual([]);
    expect(datesOf(rows, a.id)).toEqual(dates);

    // The building archived: nothing left from today on.
    await database.db.update(buildings).set({ archivedAt: new Date() }).where(eq(buildings.id, building.id));
    expect((await regeneratePlans(ctx, [plan.id], { today: TODAY })).removed).toBe(3 * 2);
    expect(await tasksOf(plan.id)).toEqual([]);
  });

  it("covers a whole facility and the whole entity, without archived buildings", async () => {
    const e = await createEntity(database.db);
    const m = await createUser(database.db, { entityId: e.id, role: Role.FACILITY_MANAGER });
    const facility = await createFacility(database.db, { entityId: e.id });
    const open = await createBuilding(database.db, { entityId: e.id, facilityId: facility.id });
    const closed = await createBuilding(database.db, { entityId: e.id, facilityId: facility.id, archivedAt: new Date() });
    const r1 = await createRoom(database.db, { entityId: e.id, buildingId: open.id });
    await createRoom(database.db, { entityId: e.id, buildingId: closed.id });
    const elsewhere = await createRoom(database.db, { entityId: e.id }); // another facility
    const once = { startDate: "2026-03-10", endDate: "2026-12-31", occurrenceInterval: null, occurrenceUnit: TimeMeasure.UNSPECIFIED } as const;
    const byFacility = await createPlannedMaintenance(database.db, { entityId: e.id, ...once, locations: [{ objectType: ObjectType.FACILITY, facilityId: facility.id }] });
    const wholeEntity = await createPlannedMaintenance(database.db, { entityId: e.id, ...once }); // the factory's default: ENTITY
    const result = await extendEntityTasks(actorContext(database.db, m), { today: TODAY });
    expect(result).toEqual({ plans: 2, created: 3, removed: 0 });
    expect((await tasksOf(byFacility.id)).map((r) => [r.roomId, r.dueDate])).toEqual([[r1.id, "2026-03-10"]]);
    expect((await tasksOf(wholeEntity.id)).map((r) => r.roomId)).toEqual([r1.id, elsewhere.id]);
  });

  it("takes an entity's plans a few to a transaction, side by side, with the same tasks as one pass", async () => {
    const e = await createEntity(database.db);
    const m = await createUser(database.db, { entityId: e.id, role: Role.FACILITY_MANAGER });
    const building = await createBuilding(database.db, { entityId: e.id });
    const room = await createRoom(database.db, { entityId: e.id, buildingId: building.id });
    const rules = [
      { occurrenceInterval: 1, occurrenceUnit: TimeMeasure.DAY },
      { occurrenceInterval: 1, occurrenceUnit: TimeMeasure.WEEK },
      { occurrenceInterval: 2, occurrenceUnit: TimeMeasure.WEEK },
      { occurrenceInterval: 1, occurrenceUnit: TimeMeasure.MONTH },
      { occurrenceInterval: 3, occurrenceUnit: TimeMeasure.DAY },
    ] as const;
    const plans = [];
    for (const rule of rules) {
      plans.push(
        await createPlannedMaintenance(database.db, { entityId: e.id, ...rule, startDate: "2026-01-31", endDate: "2026-12-31", roomIds: [room.id], locations: [] }),
      );
    }
    const first = await extendEntityTasks(actorContext(database.db, m), { today: TODAY, plansPerTransaction: 2 });
    const expected = rules.map((rule) => occurrenceDates({ ...rule, startDate: "2026-01-31", endDate: "2026-12-31" }, TODAY, HORIZON));
    expect(first).toEqual({ plans: 5, created: expected.reduce((sum, dates) => sum + dates.length, 0), removed: 0 });
    for (const [i, plan] of plans.entries()) {
      expect(datesOf(await tasksOf(plan.id), room.id)).toEqual(expected[i]);
      expect(await generatedUntil(plan.id)).toBe(HORIZON);
    }
    // The next day, one batch at a time: one day more where a plan falls due on it, nothing else.
    const next = await extendEntityTasks(actorContext(database.db, m), { today: addDays(TODAY, 1), plansPerTransaction: 1 });
    const dueNext = rules.filter((rule) => occurrenceDates({ ...rule, startDate: "2026-01-31", endDate: "2026-12-31" }, addDays(HORIZON, 1), addDays(HORIZON, 1)).length);
    expect(next).toEqual({ plans: 5, created: dueNext.length, removed: 0 });
    expect(dueNext.length).toBeGreaterThan(0);
  });

  it("stops at the end date inside the horizon, starts no earlier than today, and does nothing for a plan starting past the horizon", async () => {
    const { rooms: [room] } = await buildingWithRooms(1);
    const daily = { occurrenceInterval: 1, occurrenceUnit: TimeMeasure.DAY, roomIds: [room.id], locations: [] };
    const ending = await createPlannedMaintenance(database.db, { entityId: entity.id, ...daily, startDate: "2026-01-01", endDate: "2026-03-20" });
    const full = await createPlannedMaintenance(database.db, { entityId: entity.id, ...daily, startDate: "2026-01-01", endDate: "2027-01-01" });
    const late = await createPlannedMaintenance(database.db, { entityId: entity.id, ...daily, startDate: addDays(HORIZON, 1), endDate: "2027-12-31" });
    await regeneratePlans(ctx, [ending.id, full.id, late.id], { today: TODAY });
    const endingRows = await tasksOf(ending.id);
    expect(endingRows.length).toBe(20);
    expect(endingRows[0].dueDate).toBe(TODAY);
    expect(endingRows.at(-1)!.dueDate).toBe("2026-03-20");
    expect(await generatedUntil(ending.id)).toBe("2026-03-20");
    const fullRows = await tasksOf(full.id);
    expect(fullRows.length).toBe(TASK_HORIZON_DAYS + 1);
    expect(fullRows.at(-1)!.dueDate).toBe(HORIZON);
    expect(await tasksOf(late.id)).toEqual([]);
    expect(await generatedUntil(late.id)).toBe(HORIZON);

    // The next day's pass extends by one day; yesterday's tasks stay.
    const next = await regeneratePlans(ctx, [full.id], { today: addDays(TODAY, 1) });
    expect(next).toEqual({ plans: 1, created: 1, removed: 0 });
    expect((await tasksOf(full.id)).length).toBe(TASK_HORIZON_DAYS + 2);
    // An end date moved earlier removes the pending tasks after it.
    await database.db.update(plannedMaintenances).set({ endDate: "2026-04-01" }).where(eq(plannedMaintenances.id, full.id));
    expect((await regeneratePlans(ctx, [full.id], { today: addDays(TODAY, 1) })).removed).toBe(TASK_HORIZON_DAYS + 1 - 31);
    expect((await tasksOf(full.id)).at(-1)!.dueDate).toBe("2026-04-01");
  });

  it("makes no duplicate and no error when two passes run at the same time", async () => {
    const e = await createEntity(database.db);
    const m = await createUser(database.db, { entityId: e.id, role: Role.FACILITY_MANAGER });
    const { rooms: list } = await buildingWithRooms(5, e.id);
    const plans = [];
    for (let i = 0; i < 6; i++) {
      plans.push(
        await createPlannedMaintenance(database.db, {
          entityId: e.id,
          startDate: "2026-01-01",
          endDate: "2026-12-31",
          occurrenceInterval: 1,
          occurrenceUnit: TimeMeasure.DAY,
          roomIds: list.map((r) => r.id),
          locations: [],
        }),
      );
    }
    // On PostgreSQL the second pass runs on its own pool; the embedded database takes them in turn.
    const second = database.url ? await openDatabase({ url: database.url, poolMax: 2 }) : database;
    try {
      const c1 = actorContext(database.db, m);
      const c2 = actorContext(second.db, m);
      const results = await Promise.all([
        extendEntityTasks(c1, { today: TODAY, plansPerTransaction: 1 }),
        extendEntityTasks(c2, { today: TODAY, plansPerTransaction: 2 }),
        regeneratePlans(c2, [plans[0].id], { today: TODAY }),
        extendEntityTasks({ ...c1, actor: systemActor("task-generation") }, { today: TODAY }),
      ]);
      const expected = 6 * 5 * (TASK_HORIZON_DAYS + 1);
      expect(results.reduce((sum, r) => sum + r.created, 0)).toBe(expected);
      expect(results.every((r) => r.removed === 0)).toBe(true);
    } finally {
      if (second !== database) await second.close();
    }
    const [{ n, distinct }] = rowsOf<{ n: number; distinct: number }>(
      await database.db.execute(sql`
        select count(*)::int as n, count(distinct (planned_maintenance_id, room_id, due_date))::int as distinct
        from tasks where entity_id = ${e.id}`),
    );
    expect(n).toBe(6 * 5 * (TASK_HORIZON_DAYS + 1));
    expect(distinct).toBe(n);
  });
});

describe("who may generate", () => {
  it("changes nothing for a plan of another entity", async () => {
    const { rooms: [room] } = await buildingWithRooms(1);
    const plan = await createPlannedMaintenance(database.db, { entityId: entity.id, ...weekly, roomIds: [room.id], locations: [] });
    await regeneratePlans(ctx, [plan.id], { today: TODAY });
    const before = await tasksOf(plan.id);
    const foreign = actorContext(database.db, otherManager);
    await database.db.update(plannedMaintenances).set({ occurrenceInterval: 3 }).where(eq(plannedMaintenances.id, plan.id));
    expect(await regeneratePlanTasks(foreign, plan.id)).toEqual({ created: 0, removed: 0 });
    expect(await regeneratePlans(foreign, [plan.id], { today: TODAY })).toEqual({ plans: 0, created: 0, removed: 0 });
    expect(await removeFuturePendingTasks(foreign, plan.id)).toBe(0);
    await extendEntityTasks(foreign, { today: TODAY });
    expect(await tasksOf(plan.id)).toEqual(before);
  });

  it("refuses a technician", async () => {
    const plan = await createPlannedMaintenance(database.db, { entityId: entity.id, ...weekly, locations: [] });
    const tech = actorContext(database.db, technician);
    expect(await rejectionOf(regeneratePlanTasks(tech, plan.id))).toBeInstanceOf(ForbiddenError);
    expect(await rejectionOf(removeFuturePendingTasks(tech, plan.id))).toBeInstanceOf(ForbiddenError);
    expect(await rejectionOf(extendEntityTasks(tech))).toBeInstanceOf(ForbiddenError);
  });
});

describe("the nightly schedule", () => {
  it("extends every entity's plans to the horizon as the system, each in its own time zone", async () => {
    const instant = Date.now();
    const zones = ["Pacific/Auckland", "America/Los_Angeles"];
    const made = [];
    for (const timeZone of zones) {
      const e = await createEntity(database.db, { timeZone });
      const room = await createRoom(database.db, { entityId: e.id });
      const today = dayIn(instant, timeZone);
      const plan = await createPlannedMaintenance(database.db, {
        entityId: e.id,
        startDate: addDays(today, -5),
        endDate: addDays(today, 365),
        occurrenceInterval: 1,
        occurrenceUnit: TimeMeasure.DAY,
        timeOfDay: "07:15",
        roomIds: [room.id],
        locations: [],
      });
      made.push({ plan, today });
    }
    const due = Date.parse("2027-01-05T02:40:00Z"); // 03:40 in Brussels
    let clockMs = due - 60_000;
    const services = { db: database.db, files: { root: "", maxBytes: 0 }, events: { publish() {}, subscribe: () => () => {} }, queue: null, mailer: { send: async () => undefined } };
    const queue = await startQueue({ database, jobs, schedules: [taskGenerationSchedule], clock: () => clockMs, work: false, services: services as never });
    try {
      expect(await queue.drain()).toBe(0);
      clockMs = due;
      expect(await queue.drain()).toBe(1);
    } finally {
      await queue.stop();
    }
    const [job] = await database.db.select().from(jobQueue).where(eq(jobQueue.name, "task-generation"));
    expect(job).toMatchObject({ state: "done", key: "task-generation@2027-01-05T02:40:00.000Z" });
    for (const { plan, today } of made) {
      const rows = await tasksOf(plan.id);
      // Today where the entity is (a day apart at most moments), to the horizon from there.
      expect(rows.length).toBe(TASK_HORIZON_DAYS + 1);
      expect(rows[0].dueDate).toBe(today);
      expect(rows[0].dueTime).toBe("07:15:00");
      expect(await generatedUntil(plan.id)).toBe(addDays(today, TASK_HORIZON_DAYS));
    }
  });
});
