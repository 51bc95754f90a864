import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "~/db/client.server";
import { Role, TaskStatus } from "~/db/enums";
import { type Entity, plannedMaintenances, type Room, rooms, type User } from "~/db/schema";
import { NotFoundError } from "~/lib/errors";
import { eq } from "drizzle-orm";
import { createBuilding, createEntity, createEquipmentItem, createEquipmentType, createMaintenanceType, createPlannedMaintenance, createRoom, createTask, createUser, linkUserTo } from "#tests/factories";
import { actorContext, rejectionOf } from "#tests/service-helpers";
import { tokenActor } from "~/core/actor";
import { createTestDatabase } from "#tests/test-db";
import { calendarDays, getTaskDay, listTasks, monthGrid, taskFilterOptions, tasksBetween, weekDays, weekStart } from "./task-queries.server";
import { parseTaskFilters } from "./task-schema";

/**
 * The task reads: the list's sections and filters ("my tasks" through the plan or the task's own
 * assignee), the calendar's ranges (whole weeks, Monday first, both ends included), one plan's day,
 * each within the viewer's reach and entity.
 */
let database: Database;
let entity: Entity;
let other: Entity;
let admin: User;
let technician: User;
let colleague: User;
let farTechnician: User;
let otherAdmin: User;
let room: Room;
let farRoom: Room;
let planId: number;
const TODAY = "2026-11-25"; // a Wednesday

const all = { status: "all", buildingId: null, plannedMaintenanceId: null, assignee: null } as const;
const ids = (rows: { id: number }[]) => rows.map((r) => r.id);

beforeAll(async () => {
  database = await createTestDatabase();
  const db = database.db;
  entity = await createEntity(db);
  other = await createEntity(db);
  admin = await createUser(db, { entityId: entity.id, role: Role.ADMINISTRATOR });
  technician = await createUser(db, { entityId: entity.id, role: Role.TECHNICIAN });
  colleague = await createUser(db, { entityId: entity.id, role: Role.TECHNICIAN });
  farTechnician = await createUser(db, { entityId: entity.id, role: Role.TECHNICIAN });
  otherAdmin = await createUser(db, { entityId: other.id, role: Role.ADMINISTRATOR });
  const building = await createBuilding(db, { entityId: entity.id, name: "North" });
  const farBuilding = await createBuilding(db, { entityId: entity.id, name: "South" });
  room = await createRoom(db, { entityId: entity.id, buildingId: building.id, name: "A" });
  farRoom = await createRoom(db, { entityId: entity.id, buildingId: farBuilding.id, name: "B" });
  for (const user of [technician, colleague]) await linkUserTo(db, { entityId: entity.id, userId: user.id, buildingId: building.id });
  await linkUserTo(db, { entityId: entity.id, userId: farTechnician.id, buildingId: farBuilding.id });
  planId = (await createPlannedMaintenance(db, { entityId: entity.id, name: "Filters", assigneeIds: [technician.id], instructions: "Swap them." })).id;
});

afterAll(async () => {
  await database?.close();
});

describe("calendar ranges", () => {
  it("month pages are whole weeks, Monday to Sunday, around the month", () => {
    const nov = monthGrid("2026-11");
    expect(nov.from).toBe("2026-10-26");
    expect(nov.to).toBe("2026-12-06");
    expect(nov.days).toHaveLength(42);
    const feb = monthGrid("2027-02"); // starts on a Monday, 28 days
    expect(feb.from).toBe("2027-02-01");
    expect(feb.to).toBe("2027-02-28");
    expect(feb.days).toHaveLength(28);
    expect(monthGrid("2026-12").to).toBe("2027-01-03");
  });

  it("week pages start on Monday, whatever day they are asked for", () => {
    expect(weekStart("2026-11-29")).toBe("2026-11-23"); // a Sunday
    expect(weekStart("2026-11-23")).toBe("2026-11-23");
    const week = weekDays(TODAY);
    expect(week.days).toEqual(["2026-11-23", "2026-11-24", "2026-11-25", "2026-11-26", "2026-11-27", "2026-11-28", "2026-11-29"]);
    // Across the change of the clock the days stay days.
    expect(weekDays("2027-03-28").days[0]).toBe("2027-03-22");
  });

  it("tasksBetween includes both ends, sorts by day and time, and stays within reach and entity", async () => {
    const db = database.db;
    const plan = await createPlannedMaintenance(db, { entityId: entity.id, name: "Range" });
    const first = await createTask(db, { entityId: entity.id, plannedMaintenanceId: plan.id, roomId: room.id, dueDate: "2027-05-03", dueTime: "10:00:00" });
    const early = await createTask(db, { entityId: entity.id, plannedMaintenanceId: plan.id, roomId: farRoom.id, dueDate: "2027-05-03" });
    const last = await createTask(db, { entityId: entity.id, plannedMaintenanceId: plan.id, roomId: room.id, dueDate: "2027-05-09" });
    await createTask(db, { entityId: entity.id, plannedMaintenanceId: plan.id, roomId: room.id, dueDate: "2027-05-10" });
    await createTask(db, { entityId: entity.id, plannedMaintenanceId: plan.id, roomId: room.id, dueDate: "2027-05-02" });
    const range = weekDays("2027-05-05");
    const filters = { plannedMaintenanceId: plan.id };
    expect(ids((await tasksBetween(actorContext(db, admin), range, filters)).items)).toEqual([early.id, first.id, last.id]);
    expect(ids((await tasksBetween(actorContext(db, technician), range, filters)).items)).toEqual([first.id, last.id]);
    expect((await tasksBetween(actorContext(db, otherAdmin), range, filters)).items).toEqual([]);
    const capped = await tasksBetween(actorContext(db, admin), range, filters, { max: 2 });
    expect(capped).toMatchObject({ capped: true });
    expect(capped.items).toHaveLength(2);
  });
});

describe("listTasks", () => {
  it("sorts into Overdue, Today, This week, Later and Earlier, and keeps my tasks by default for technicians", async () => {
    const db = database.db;
    const make = (dueDate: string, extra: Partial<Parameters<typeof createTask>[1]> = {}) =>
      createTask(db, { entityId: entity.id, plannedMaintenanceId: planId, roomId: room.id, dueDate, ...extra });
    const overdue = await make("2026-11-20");
    const doneEarlier = await make("2026-11-19", { status: TaskStatus.DONE });
    const today = await make(TODAY, { dueTime: "08:00:00" });
    const week = await make("2026-12-01");
    const later = await make("2026-12-02");
    const handedOver = await make("2026-11-26", { assigneeId: colleague.id });

    const mine = parseTaskFilters(new URLSearchParams(), { mineByDefault: true });
    expect(mine).toMatchObject({ status: "pending", assignee: "me" });
    const page = await listTasks(actorContext(db, technician), mine, { page: 1, size: 25 }, { today: TODAY });
    expect(page.items.map((t) => [t.id, t.section])).toEqual([
      [overdue.id, "overdue"],
      [today.id, "today"],
      [week.id, "week"],
      [later.id, "later"],
    ]);
    expect(page.total).toBe(4);
    expect(page.items[0]).toMatchObject({ planName: "Filters", roomName: "A", buildingName: "North", assignees: expect.stringContaining(technician.name) });

    // Everything, done included: the done one comes last, under Earlier.
    const everything = await listTasks(actorContext(db, technician), { ...all, plannedMaintenanceId: planId }, { page: 1, size: 25 }, { today: TODAY });
    expect(everything.items.at(-1)).toMatchObject({ id: doneEarlier.id, section: "earlier" });
    expect(ids(everything.items)).toContain(handedOver.id);
    // The colleague's: only the task handed to them.
    const theirs = await listTasks(actorContext(db, colleague), parseTaskFilters(new URLSearchParams(), { mineByDefault: true }), { page: 1, size: 25 }, { today: TODAY });
    expect(ids(theirs.items)).toEqual([handedOver.id]);
    // Paging.
    const second = await listTasks(actorContext(db, technician), mine, { page: 2, size: 3 }, { today: TODAY });
    expect(ids(second.items)).toEqual([later.id]);
    // Outside reach, another entity: nothing.
    expect((await listTasks(actorContext(db, farTechnician), all, { page: 1, size: 25 }, { today: TODAY })).items.filter((t) => t.plannedMaintenanceId === planId)).toEqual([]);
    expect((await listTasks(actorContext(db, otherAdmin), all, { page: 1, size: 25 }, { today: TODAY })).total).toBe(0);
    // Filters' choices.
    const options = await taskFilterOptions(actorContext(db, technician));
    expect(options.buildings.map((b) => b.name)).toEqual(["North"]);
    expect(options.plans.map((p) => p.id)).toContain(planId);
    expect(options.assignees.map((a) => a.id)).toEqual(expect.arrayContaining([technician.id, colleague.id]));
  });
});

describe("my tasks", () => {
  it("are the tasks of my plans in every room I reach and the ones handed to me, nobody else's, in the calendar's order", async () => {
    const db = database.db;
    const near = await createRoom(db, { entityId: entity.id, buildingId: room.buildingId, name: "C" });
    const nearer = await createRoom(db, { entityId: entity.id, buildingId: room.buildingId, name: "B" });
    const mine = await createPlannedMaintenance(db, { entityId: entity.id, name: "Lamps", assigneeIds: [technician.id] });
    const theirs = await createPlannedMaintenance(db, { entityId: entity.id, name: "Doors", assigneeIds: [colleague.id] });
    const make = (plan: { id: number }, where: Room, dueDate: string, extra: Partial<Parameters<typeof createTask>[1]> = {}) =>
      createTask(db, { entityId: entity.id, plannedMaintenanceId: plan.id, roomId: where.id, dueDate, ...extra });
    const inA = await make(mine, room, "2030-01-02");
    const inC = await make(mine, near, "2030-01-01");
    const inB = await make(mine, nearer, "2030-01-02");
    const doneInB = await make(mine, nearer, "2030-01-03", { status: TaskStatus.DONE });
    await make(mine, farRoom, "2030-01-01"); // out of my reach
    await make(mine, near, "2030-01-04", { assigneeId: colleague.id }); // handed to a colleague
    await make(theirs, room, "2030-01-01"); // a colleague's plan
    const handedToMe = await make(theirs, nearer, "2030-01-02", { assigneeId: technician.id });

    const range = { from: "2030-01-01", to: "2030-01-31" };
    const calendar = await tasksBetween(actorContext(db, technician), range, { assignee: "me" });
    // By day, then plan name (Doors before Lamps), then room name (A before B).
    expect(ids(calendar.items)).toEqual([inC.id, handedToMe.id, inA.id, inB.id, doneInB.id]);
    expect(calendar.items[1]).toMatchObject({ planName: "Doors", roomName: "B", assignees: expect.stringContaining(technician.name) });
    // The administrator asking for the technician's tasks sees the one out of the technician's reach too.
    const asked = await tasksBetween(actorContext(db, admin), range, { assignee: technician.id });
    expect(ids(asked.items)).toHaveLength(6);
    const list = await listTasks(actorContext(db, technician), { ...all, status: "pending", assignee: "me" }, { page: 1, size: 25 }, { today: "2030-01-01" });
    const here = list.items.filter((t) => t.dueDate >= "2030-01-01");
    expect(ids(here)).toEqual([inC.id, handedToMe.id, inA.id, inB.id]);
    expect(ids((await tasksBetween(actorContext(db, colleague), range, { assignee: "me" })).items)).not.toContain(inA.id);
  });
});

describe("getTaskDay", () => {
  it("shows the plan's tasks of the day within reach, and is not found otherwise", async () => {
    const db = database.db;
    const type = await createMaintenanceType(db, { entityId: entity.id, name: "Chillers" });
    const plan = await createPlannedMaintenance(db, { entityId: entity.id, name: "Day", instructions: "Do it.", maintenanceTypeId: type.id });
    const near = await createTask(db, { entityId: entity.id, plannedMaintenanceId: plan.id, roomId: room.id, dueDate: "2027-01-04" });
    const far = await createTask(db, { entityId: entity.id, plannedMaintenanceId: plan.id, roomId: farRoom.id, dueDate: "2027-01-04" });
    const day = await getTaskDay(actorContext(db, admin), plan.id, "2027-01-04");
    expect(day.plan).toMatchObject({ id: plan.id, name: "Day", instructions: "Do it.", maintenanceTypeName: "Chillers" });
    expect(ids(day.tasks)).toEqual([near.id, far.id]);
    expect(ids((await getTaskDay(actorContext(db, technician), plan.id, "2027-01-04")).tasks)).toEqual([near.id]);
    // One at a time: a refusal started before its turn would be a rejection nobody handles yet.
    for (const attempt of [
      () => getTaskDay(actorContext(db, otherAdmin), plan.id, "2027-01-04"),
      () => getTaskDay(actorContext(db, admin), plan.id, "2027-01-05"),
      () => getTaskDay(actorContext(db, admin), 999_999, "2027-01-04"),
    ]) {
      const error = await rejectionOf<NotFoundError>(attempt());
      expect(error).toBeInstanceOf(NotFoundError);
      expect(error.messageKey).toBe("tasks:notFound.plannedMaintenance");
    }
    await db.update(plannedMaintenances).set({ archivedAt: new Date() }).where(eq(plannedMaintenances.id, plan.id));
    expect(await rejectionOf(getTaskDay(actorContext(db, admin), plan.id, "2027-01-04"))).toBeInstanceOf(NotFoundError);
  });
});

describe("calendar addresses", () => {
  it("read only months and days of the years the app deals with (a month of year 0 never ended)", async () => {
    const { isDay, isMonth } = await import("./task-schema");
    for (const month of ["0000-01", "9999-12", "2026-13", "1969-12"]) expect(isMonth(month), month).toBe(false);
    for (const day of ["0001-01-01", "9999-12-31", "2026-02-30"]) expect(isDay(day), day).toBe(false);
    expect(isMonth("2026-11")).toBe(true);
    expect(monthGrid("1970-01").days).toHaveLength(35);
    expect(monthGrid("2999-12").days.at(-1)).toBe("3000-01-05");
  });
});

// Last: its tasks (of a plan assigned to the technician) would join the lists above.
describe("calendarDays", () => {
  it("makes a plan's tasks of a day and time one entry, counting the done ones, naming a lone task's place, within reach, entity and live plans and rooms", async () => {
    const db = database.db;
    const plan = await createPlannedMaintenance(db, { entityId: entity.id, name: "Calendar", assigneeIds: [technician.id] });
    const other = await createPlannedMaintenance(db, { entityId: entity.id, name: "Boilers" });
    const gone = await createPlannedMaintenance(db, { entityId: entity.id, name: "Gone" });
    const closedRoom = await createRoom(db, { entityId: entity.id, buildingId: room.buildingId, name: "Closed" });
    const hall = await createRoom(db, { entityId: entity.id, buildingId: room.buildingId, name: "Hall" });
    const boiler = await createEquipmentItem(db, { entityId: entity.id, roomId: room.id, internalReference: "B-1", equipmentTypeId: (await createEquipmentType(db, { entityId: entity.id, name: "Boiler" })).id });
    const day = "2031-03-04";
    const make = (planned: { id: number }, where: Room, extra: Partial<Parameters<typeof createTask>[1]> = {}) =>
      createTask(db, { entityId: entity.id, plannedMaintenanceId: planned.id, roomId: where.id, dueDate: day, dueTime: "08:00:00", ...extra });
    await make(plan, room, { status: TaskStatus.DONE });
    await make(plan, farRoom);
    await make(plan, hall, { dueTime: "14:00:00" });
    await make(other, room, { dueTime: null, equipmentItemId: boiler.id });
    await make(other, closedRoom, { dueDate: "2031-03-05" });
    await make(gone, room);
    await db.update(rooms).set({ archivedAt: new Date() }).where(eq(rooms.id, closedRoom.id));
    await db.update(plannedMaintenances).set({ archivedAt: new Date() }).where(eq(plannedMaintenances.id, gone.id));
    const range = weekDays(day);

    const seen = await calendarDays(actorContext(db, admin), range, {}, 10);
    expect(seen.more).toEqual([]);
    // A task without a time first, then by time; the archived plan's and the archived room's tasks are left out.
    expect(seen.entries).toEqual([
      { plannedMaintenanceId: other.id, planName: "Boilers", dueDate: day, dueTime: null, tasks: 1, done: 0, place: "North · A · Boiler B-1" },
      { plannedMaintenanceId: plan.id, planName: "Calendar", dueDate: day, dueTime: "08:00:00", tasks: 2, done: 1, place: null },
      { plannedMaintenanceId: plan.id, planName: "Calendar", dueDate: day, dueTime: "14:00:00", tasks: 1, done: 0, place: "North · Hall" },
    ]);
    // The technician reaches room A only; the far technician the far room only.
    const near = await calendarDays(actorContext(db, technician), range, {}, 10);
    expect(near.entries.find((e) => e.dueTime === "08:00:00")).toMatchObject({ tasks: 1, done: 1, place: "North · A" });
    expect((await calendarDays(actorContext(db, farTechnician), range, {}, 10)).entries).toEqual([
      { plannedMaintenanceId: plan.id, planName: "Calendar", dueDate: day, dueTime: "08:00:00", tasks: 1, done: 0, place: "South · B" },
    ]);
    // Filters: a building, someone's tasks; another entity sees nothing.
    expect((await calendarDays(actorContext(db, admin), range, { buildingId: farRoom.buildingId }, 10)).entries.map((e) => e.place)).toEqual(["South · B"]);
    expect((await calendarDays(actorContext(db, admin), range, { assignee: technician.id }, 10)).entries.map((e) => e.planName)).toEqual(["Calendar", "Calendar"]);
    expect((await calendarDays(actorContext(db, technician), range, { assignee: "me" }, 10)).entries).toHaveLength(2);
    expect((await calendarDays(actorContext(db, colleague), range, { assignee: "me" }, 10)).entries).toEqual([]);
    expect(await calendarDays(actorContext(db, otherAdmin), range, {}, 10)).toEqual({ entries: [], more: [] });
    // A token without a task scope sees nothing, whatever its maker's reach; one with it sees as they do.
    const token = (scopes: Parameters<typeof tokenActor>[2]) => ({ ...actorContext(db, technician), actor: tokenActor(technician, 1, scopes) });
    expect((await calendarDays(token(["incident:read"]), range, {}, 10)).entries).toEqual([]);
    expect((await calendarDays(token(["task:read"]), range, {}, 10)).entries).toEqual(near.entries);
    // A reach of half the buildings or more is read as the rooms it leaves out; a narrower one as the
    // rooms it keeps: the same tasks either way.
    const reachNow = (await calendarDays(actorContext(db, technician), range, {}, 10)).entries;
    await createBuilding(db, { entityId: entity.id, name: "East" });
    await createBuilding(db, { entityId: entity.id, name: "West" });
    expect((await calendarDays(actorContext(db, technician), range, {}, 10)).entries).toEqual(reachNow);
    expect((await calendarDays(actorContext(db, farTechnician), range, {}, 10)).entries.map((e) => e.place)).toEqual(["South · B"]);
  });

  it("shows a day's first entries, by time then plan, and names the days that have more", async () => {
    const db = database.db;
    const made: number[] = [];
    for (const name of ["Zinc", "Alpha", "Mid"]) {
      const plan = await createPlannedMaintenance(db, { entityId: entity.id, name });
      made.push(plan.id);
      await createTask(db, { entityId: entity.id, plannedMaintenanceId: plan.id, roomId: room.id, dueDate: "2031-06-02", dueTime: "09:00:00" });
    }
    await createTask(db, { entityId: entity.id, plannedMaintenanceId: made[2], roomId: room.id, dueDate: "2031-06-03", dueTime: "09:00:00" });
    const range = { from: "2031-06-01", to: "2031-06-07" };
    const page = await calendarDays(actorContext(db, admin), range, {}, 2);
    // The first two plans made (Zinc, Alpha), shown by name; the third waits behind the day's link.
    expect(page.entries.map((e) => `${e.dueDate} ${e.planName}`)).toEqual(["2031-06-02 Alpha", "2031-06-02 Zinc", "2031-06-03 Mid"]);
    expect(page.more).toEqual(["2031-06-02"]);
    expect((await calendarDays(actorContext(db, admin), range, {}, 3)).more).toEqual([]);
    // The day's list shows all of them.
    const list = await listTasks(actorContext(db, admin), { ...all, day: "2031-06-02" }, { page: 1, size: 25 }, { today: TODAY });
    expect(list.items.map((t) => t.planName)).toEqual(["Alpha", "Mid", "Zinc"]);
    expect(parseTaskFilters(new URLSearchParams("day=2031-06-02"), { mineByDefault: false }).day).toBe("2031-06-02");
    expect(parseTaskFilters(new URLSearchParams("day=2031-02-30"), { mineByDefault: false }).day).toBeNull();
  });
});
