import { type AnyColumn, and, asc, eq, inArray, isNull, type SQL, type SQLWrapper, sql } from "drizzle-orm";
import { alias, type PgTable } from "drizzle-orm/pg-core";
import { can } from "~/core/actor";
import { readAll, type ServiceContext } from "~/core/context.server";
import { TaskStatus } from "~/db/enums";
import { buildings, equipmentItems, equipmentTypes, maintenanceTypes, plannedMaintenanceAssignees, plannedMaintenances, rooms, tasks, users } from "~/db/schema";
import { subquery } from "~/db/subquery";
import { now } from "~/lib/clock.server";
import { addDays, dayIn } from "~/lib/dates";
import { NotFoundError } from "~/lib/errors";
import { LIST_COUNT_CAP, type Page } from "~/lib/list-query";
import { countUpToCap, rowsOf } from "~/lib/list-page.server";
import { reachOutline, treeScope } from "~/modules/facilities/policy.server";
import { type CalendarEntry, calendarEntry } from "./calendar-entries";
import type { TaskFilters } from "./task-schema";

/**
 * Reads of maintenance tasks (SPEC.md sections 2 and 3), each within the viewer's reach: a task is seen
 * by whoever reaches its room (administrators their whole entity; facility managers and technicians the
 * rooms of their linked facilities and buildings, `treeScope`), like the room view; anything else is
 * "not found", as another entity's. Tasks of archived plans and rooms are left out.
 *
 * A task's assignees are its plan's (`planned_maintenance_assignees`) unless the task names its own
 * (`tasks.assignee_id`); "my tasks" are the ones assigned to me either way.
 */

export const taskNotFound = () => new NotFoundError("tasks:notFound.task", "TASK_NOT_FOUND");
export const planNotFound = () => new NotFoundError("tasks:notFound.plannedMaintenance", "PLANNED_MAINTENANCE_NOT_FOUND");

/** The most tasks one read of a date range gives (GET /api/tasks, the iCalendar feed). */
export const CALENDAR_MAX_TASKS = 2000;

/** Today in the entity's time zone. */
export function todayOf(ctx: Pick<ServiceContext, "timeZone">): string {
  return dayIn(now(), ctx.timeZone);
}

/** The tasks the actor reaches, as a condition on `tasks` (undefined: the whole entity). */
export function taskReach(ctx: ServiceContext): SQL | undefined {
  // A token granted only `task:update` still finds the tasks it may mark.
  if (!can(ctx.actor, "read", "task") && !can(ctx.actor, "update", "task")) return sql`false`;
  const scope = treeScope(ctx, "room");
  if (!scope) return undefined;
  return inArray(tasks.roomId, ctx.db.select({ id: rooms.id }).from(rooms).where(and(eq(rooms.entityId, ctx.entityId), scope)));
}

/**
 * `taskReach` as a condition on the `rooms` row every task read joins: the planner then tests the reach
 * once per room it reads (against the few buildings in scope) rather than looking each task's room up
 * again.
 */
export function roomReach(ctx: ServiceContext): SQL | undefined {
  return taskTreeScope(ctx, "room");
}

/** `taskReach` as a condition on the `buildings` row of the task's room (the dashboard's monthly costs). */
export function buildingReach(ctx: ServiceContext): SQL | undefined {
  return taskTreeScope(ctx, "building");
}

/** The places of the tree whose tasks the actor reaches, as a condition on the `rooms` or `buildings` row. */
function taskTreeScope(ctx: ServiceContext, level: "room" | "building"): SQL | undefined {
  if (!can(ctx.actor, "read", "task") && !can(ctx.actor, "update", "task")) return sql`false`;
  return treeScope(ctx, level);
}

/** The tasks assigned to `userId`: theirs by override, or their plan's when the task names nobody. */
export function assignedTo(userId: number): SQL {
  // The person's plans as a set (a few), rather than a lookup per task: the planner then reads the
  // tasks of those plans instead of testing every task in reach.
  // tenant-scope: scoped by the outer tasks (of the entity): the person's plans only narrow them
  return sql`(${tasks.assigneeId} = ${userId} or (${tasks.assigneeId} is null and ${tasks.plannedMaintenanceId} in (
    select a.planned_maintenance_id from planned_maintenance_assignees a where a.user_id = ${userId})))`;
}

/**
 * The (plan, room) pairs of the tasks that may be `userId`'s in reach, as a select of (plan_id, room_id):
 * the rooms that the tasks of their plans are in, and those of the tasks assigned to them by override.
 * It adds nothing to `assignedTo` (which it implies) but lets a read start from these few pairs and read
 * each one's tasks through the occurrence key, instead of testing every task of the rooms in reach. A
 * plan's rooms are walked one distinct room at a time on that key (a loose index scan), never reading
 * the plan's tasks themselves.
 */
function assigneePairs(ctx: ServiceContext, userId: number): SQL {
  const e = ctx.entityId;
  const scope = treeScope(ctx, "room");
  const inReach = scope ? sql`and w.room_id in (select ${rooms.id} from ${rooms} where ${rooms.entityId} = ${e} and ${scope})` : sql``;
  // tenant-scope: scoped by the person's plan assignments in ctx.entityId: the tasks of those plans
  return sql`with recursive walk (plan_id, room_id) as (
      select a.planned_maintenance_id, (select x.room_id from tasks x
          where x.planned_maintenance_id = a.planned_maintenance_id order by x.room_id limit 1)
        from planned_maintenance_assignees a where a.user_id = ${userId} and a.entity_id = ${e}
      union all
      select w.plan_id, (select x.room_id from tasks x
          where x.planned_maintenance_id = w.plan_id and x.room_id > w.room_id order by x.room_id limit 1)
        from walk w where w.room_id is not null
    )
    select w.plan_id, w.room_id from walk w where w.room_id is not null ${inReach}
    union
    select x.planned_maintenance_id, x.room_id from tasks x where x.entity_id = ${e} and x.assignee_id = ${userId}`;
}

/**
 * The conditions of a task read, apart: those on the task itself, those on its plan and room (reach,
 * live plan and room, the building), and, when the read is someone's tasks, the (plan, room) pairs
 * they can only be in (`assigneePairs`).
 */
interface TaskConditions {
  onTask: SQL | undefined;
  onPlace: SQL | undefined;
  pairs: SQL | undefined;
}

function taskConditions(ctx: ServiceContext, filters: Partial<TaskFilters>, extra: (SQL | undefined)[] = []): TaskConditions {
  const me = ctx.actor?.id ?? null;
  const assignee = filters.assignee === "me" ? me : (filters.assignee ?? null);
  return {
    onTask: and(
      eq(tasks.entityId, ctx.entityId),
      filters.status === "pending" ? eq(tasks.status, TaskStatus.PENDING) : filters.status === "done" ? eq(tasks.status, TaskStatus.DONE) : undefined,
      filters.plannedMaintenanceId ? eq(tasks.plannedMaintenanceId, filters.plannedMaintenanceId) : undefined,
      filters.day ? eq(tasks.dueDate, filters.day) : undefined,
      filters.assignee === "me" && me === null ? sql`false` : assignee !== null ? assignedTo(assignee) : undefined,
      ...extra,
    ),
    onPlace: and(
      roomReach(ctx),
      isNull(plannedMaintenances.archivedAt),
      isNull(rooms.archivedAt),
      filters.buildingId ? eq(rooms.buildingId, filters.buildingId) : undefined,
    ),
    pairs: assignee !== null ? assigneePairs(ctx, assignee) : undefined,
  };
}

/** Every condition of a task read: entity, reach, live plan and room, and the list's filters (the export's too). */
export function taskWhere(ctx: ServiceContext, filters: Partial<TaskFilters>, extra: (SQL | undefined)[] = []): SQL | undefined {
  const { onTask, onPlace, pairs } = taskConditions(ctx, filters, extra);
  return and(onTask, onPlace, pairs ? sql`(${tasks.plannedMaintenanceId}, ${tasks.roomId}) in (${pairs})` : undefined);
}

/**
 * Where the tasks of a read come from, with their plan's and room's names: the tasks joined to their
 * plan and room; or, for someone's tasks, their (plan, room) pairs joined to the plan and room first
 * (kept apart from the rest of the query, so each pair's plan and room are read once, not once per
 * task) and then to the tasks of each pair.
 */
function taskSource(ctx: ServiceContext, c: TaskConditions) {
  const e = ctx.entityId;
  if (!c.pairs) {
    return {
      joins: [
        [plannedMaintenances, and(eq(plannedMaintenances.id, tasks.plannedMaintenanceId), eq(plannedMaintenances.entityId, e))!],
        [rooms, and(eq(rooms.id, tasks.roomId), eq(rooms.entityId, e))!],
      ] as Array<[PgTable | SQL, SQL]>,
      where: and(c.onTask, c.onPlace),
      planName: sql<string>`${plannedMaintenances.name}`,
      roomName: sql<string>`${rooms.name}`,
      buildingId: sql<number>`${rooms.buildingId}`,
    };
  }
  // "offset 0" keeps the pairs' select whole: the planner reads it first, then each pair's tasks.
  return {
    joins: [
      [
        sql`(select pr.plan_id, pr.room_id, ${plannedMaintenances.name} as plan_name, ${rooms.name} as room_name,
            ${rooms.buildingId} as building_id
          from (${c.pairs}) as pr (plan_id, room_id)
          join ${plannedMaintenances} on ${plannedMaintenances.id} = pr.plan_id and ${plannedMaintenances.entityId} = ${e}
          join ${rooms} on ${rooms.id} = pr.room_id and ${rooms.entityId} = ${e}
          where ${c.onPlace ?? sql`true`} offset 0) as task_pair`,
        sql`task_pair.plan_id = ${tasks.plannedMaintenanceId} and task_pair.room_id = ${tasks.roomId}`,
      ],
    ] as Array<[PgTable | SQL, SQL]>,
    where: c.onTask,
    planName: sql<string>`task_pair.plan_name`,
    roomName: sql<string>`task_pair.room_name`,
    buildingId: sql<number>`task_pair.building_id`,
  };
}

/** The names of a task's assignees: its own, or its plan's, "Name Surname" joined by ", ". */
// tenant-scope: scoped by the outer task (of the entity): its assignee and its plan's assignees
const assigneeNames = sql<string>`case when ${tasks.assigneeId} is not null then
    (select trim(u.name || ' ' || u.surname) from users u where u.id = ${tasks.assigneeId})
  else (select string_agg(trim(u.name || ' ' || u.surname), ', ' order by lower(u.surname), lower(u.name))
    from planned_maintenance_assignees a join users u on u.id = a.user_id and u.archived_at is null
    where a.planned_maintenance_id = ${tasks.plannedMaintenanceId}) end`;

// tenant-scope: scoped by the outer task (of the entity): the person who did it
const doneByName = sql<string | null>`(select trim(u.name || ' ' || u.surname) from users u where u.id = ${tasks.doneById})`;

/** One task as the list, the calendar, the task view and the API show it. */
function taskColumns() {
  return {
    id: tasks.id,
    plannedMaintenanceId: tasks.plannedMaintenanceId,
    planName: plannedMaintenances.name,
    dueDate: tasks.dueDate,
    dueTime: tasks.dueTime,
    status: tasks.status,
    roomId: tasks.roomId,
    roomName: rooms.name,
    buildingId: rooms.buildingId,
    buildingName: buildings.name,
    equipmentItemId: tasks.equipmentItemId,
    equipmentName: sql<string | null>`case when ${equipmentItems.id} is null then null
      else trim(${equipmentTypes.name} || coalesce(' ' || ${equipmentItems.internalReference}, '')) end`,
    assigneeId: tasks.assigneeId,
    assignees: assigneeNames,
    doneAt: tasks.doneAt,
    doneById: tasks.doneById,
    doneByName,
    note: tasks.note,
    photoFileId: tasks.photoFileId,
    signedOffName: tasks.signedOffName,
    signedOffAt: tasks.signedOffAt,
  };
}

export type TaskRow = Awaited<ReturnType<typeof selectTasks>>[number];

/** The columns a task list is ordered by, from the tasks' own select or from a page of them. */
interface OrderColumns {
  id: AnyColumn;
  dueDate: AnyColumn;
  dueTime: AnyColumn;
  status: AnyColumn;
  planName: AnyColumn | SQLWrapper;
  roomName: AnyColumn | SQLWrapper;
}
type TaskOrder = (c: OrderColumns) => SQL[];

/** By day and time, then plan and room (the calendar's order, and the pending list's). */
const byDue: TaskOrder = (c) => [asc(c.dueDate), sql`${c.dueTime} nulls first`, asc(c.planName), asc(c.roomName), asc(c.id)];

/**
 * A window of the tasks of `where` in `order`, as full rows. The tasks are chosen and ordered first
 * with only what the order and the conditions need (plan and room); the rest of each row (building,
 * equipment, the people's names) is joined to the chosen ones only, and the plan's assignees are named
 * once per plan rather than once per task.
 */
async function taskPage(
  ctx: ServiceContext,
  conditions: TaskConditions,
  order: TaskOrder,
  window: { offset?: number; limit: number },
): Promise<TaskRow[]> {
  const source = taskSource(ctx, conditions);
  // tenant-scope: scoped by taskSource: the inner joins on the entity's plans and rooms
  let chosen = ctx.db
    .select({
      id: tasks.id,
      plannedMaintenanceId: tasks.plannedMaintenanceId,
      planName: sql<string>`${source.planName}`.as("plan_name"),
      dueDate: tasks.dueDate,
      dueTime: tasks.dueTime,
      status: tasks.status,
      roomId: tasks.roomId,
      roomName: sql<string>`${source.roomName}`.as("room_name"),
      buildingId: sql<number>`${source.buildingId}`.as("building_id"),
      equipmentItemId: tasks.equipmentItemId,
      assigneeId: tasks.assigneeId,
      doneAt: tasks.doneAt,
      doneById: tasks.doneById,
      note: tasks.note,
      photoFileId: tasks.photoFileId,
      signedOffName: tasks.signedOffName,
      signedOffAt: tasks.signedOffAt,
    })
    .from(tasks)
    .$dynamic();
  for (const [table, on] of source.joins) chosen = chosen.innerJoin(table, on);
  chosen = chosen
    .where(source.where)
    .orderBy(...order({ id: tasks.id, dueDate: tasks.dueDate, dueTime: tasks.dueTime, status: tasks.status, planName: source.planName, roomName: source.roomName }))
    .limit(window.limit)
    .offset(window.offset ?? 0);
  const page = ctx.db.$with("task_page").as(chosen);
  const people = ctx.db.$with("task_page_people").as(
    // tenant-scope: scoped by the page's plans (of the entity): their assignees
    ctx.db
      .select({
        planId: sql<number>`${plannedMaintenanceAssignees.plannedMaintenanceId}`.as("plan_id"),
        names: sql<string>`string_agg(trim(${users.name} || ' ' || ${users.surname}), ', ' order by lower(${users.surname}), lower(${users.name}))`.as("names"),
      })
      .from(plannedMaintenanceAssignees)
      .innerJoin(users, and(eq(users.id, plannedMaintenanceAssignees.userId), isNull(users.archivedAt)))
      .where(inArray(plannedMaintenanceAssignees.plannedMaintenanceId, ctx.db.select({ id: page.plannedMaintenanceId }).from(page)))
      .groupBy(plannedMaintenanceAssignees.plannedMaintenanceId),
  );
  const assignee = alias(users, "task_assignee");
  const doer = alias(users, "task_doer");
  const query = ctx.db
    .with(page, people)
    .select({
      id: page.id,
      plannedMaintenanceId: page.plannedMaintenanceId,
      planName: page.planName,
      dueDate: page.dueDate,
      dueTime: page.dueTime,
      status: page.status,
      roomId: page.roomId,
      roomName: page.roomName,
      buildingId: page.buildingId,
      buildingName: sql<string>`${buildings.name}`.as("building_name"),
      equipmentItemId: page.equipmentItemId,
      equipmentName: sql<string | null>`case when ${equipmentItems.id} is null then null
        else trim(${equipmentTypes.name} || coalesce(' ' || ${equipmentItems.internalReference}, '')) end`.as("equipment_name"),
      assigneeId: page.assigneeId,
      assignees: sql<string>`case when ${page.assigneeId} is not null then trim(${assignee.name} || ' ' || ${assignee.surname}) else ${people.names} end`.as(
        "assignees",
      ),
      doneAt: page.doneAt,
      doneById: page.doneById,
      doneByName: sql<string | null>`trim(${doer.name} || ' ' || ${doer.surname})`.as("done_by_name"),
      note: page.note,
      photoFileId: page.photoFileId,
      signedOffName: page.signedOffName,
      signedOffAt: page.signedOffAt,
    })
    .from(page)
    .innerJoin(buildings, eq(buildings.id, page.buildingId))
    .leftJoin(equipmentItems, eq(equipmentItems.id, page.equipmentItemId))
    .leftJoin(equipmentTypes, eq(equipmentTypes.id, equipmentItems.equipmentTypeId))
    .leftJoin(people, eq(people.planId, page.plannedMaintenanceId))
    .leftJoin(assignee, eq(assignee.id, page.assigneeId))
    .leftJoin(doer, eq(doer.id, page.doneById))
    .orderBy(...order({ id: page.id, dueDate: page.dueDate, dueTime: page.dueTime, status: page.status, planName: page.planName, roomName: page.roomName }));
  // The rows are read as the driver gives them and each value decoded by its column, as drizzle's select
  // would: its generic mapping of a subquery's aliased columns is slow for the thousands of rows of a month.
  const decode = <C extends AnyColumn>(column: C, value: unknown): C["_"]["data"] | null =>
    value === null || value === undefined ? null : (column.mapFromDriverValue(value) as C["_"]["data"]);
  // tenant-scope: scoped by the query built above from taskSource (the entity's plans and rooms)
  return rowsOf<Record<string, unknown>>(await ctx.db.execute(query)).map((r) => ({
    id: decode(tasks.id, r.id)!,
    plannedMaintenanceId: decode(tasks.plannedMaintenanceId, r.planned_maintenance_id)!,
    planName: r.plan_name as string,
    dueDate: decode(tasks.dueDate, r.due_date)!,
    dueTime: decode(tasks.dueTime, r.due_time),
    status: decode(tasks.status, r.status)!,
    roomId: decode(tasks.roomId, r.room_id)!,
    roomName: r.room_name as string,
    buildingId: decode(rooms.buildingId, r.building_id)!,
    buildingName: r.building_name as string,
    equipmentItemId: decode(tasks.equipmentItemId, r.equipment_item_id),
    equipmentName: r.equipment_name as string | null,
    assigneeId: decode(tasks.assigneeId, r.assignee_id),
    assignees: r.assignees as string,
    doneAt: decode(tasks.doneAt, r.done_at),
    doneById: decode(tasks.doneById, r.done_by_id),
    doneByName: r.done_by_name as string | null,
    note: decode(tasks.note, r.note),
    photoFileId: decode(tasks.photoFileId, r.photo_file_id),
    signedOffName: decode(tasks.signedOffName, r.signed_off_name),
    signedOffAt: decode(tasks.signedOffAt, r.signed_off_at),
  }));
}

/** The select of task rows with their plan, room and building (the list's, the calendar's and the export's). */
export function selectTasks(ctx: ServiceContext) {
  // tenant-scope: scoped by the inner joins on the entity's plans and rooms
  return ctx.db
    .select(taskColumns())
    .from(tasks)
    .innerJoin(plannedMaintenances, and(eq(plannedMaintenances.id, tasks.plannedMaintenanceId), eq(plannedMaintenances.entityId, ctx.entityId)))
    .innerJoin(rooms, and(eq(rooms.id, tasks.roomId), eq(rooms.entityId, ctx.entityId)))
    .innerJoin(buildings, eq(buildings.id, rooms.buildingId))
    .leftJoin(equipmentItems, eq(equipmentItems.id, tasks.equipmentItemId))
    .leftJoin(equipmentTypes, eq(equipmentTypes.id, equipmentItems.equipmentTypeId));
}

/** How many tasks match, counted up to LIST_COUNT_CAP (a list of half a million tasks is not counted whole). */
function countTasks(ctx: ServiceContext, c: TaskConditions) {
  const source = taskSource(ctx, c);
  const joins = sql.join(
    source.joins.map(([table, on]) => sql` join ${table} on ${on}`),
    sql``,
  );
  // tenant-scope: scoped by taskSource: the inner joins on the entity's plans and rooms
  return countUpToCap(ctx.db, sql`from ${tasks}${joins} where ${source.where ?? sql`true`}`);
}

// ---------------------------------------------------------------------------
// The list (/task)
// ---------------------------------------------------------------------------

/** Where a task falls on the list: late, today, in the next six days, later, or done in the past. */
export type TaskSection = "overdue" | "today" | "week" | "later" | "earlier";

export type TaskListRow = TaskRow & { section: TaskSection };

/**
 * The list of /task: the tasks of the filters in sections (Overdue: pending before today; Today; This
 * week: the six days after today; Later; Earlier: done before today, newest first), in that order, by
 * due date and time, a page at a time.
 */
export async function listTasks(
  ctx: ServiceContext,
  filters: TaskFilters,
  paging: { page: number; size: number },
  options: { today?: string } = {},
): Promise<Page<TaskListRow>> {
  const today = options.today ?? todayOf(ctx);
  const weekEnd = addDays(today, 6);
  const sections: TaskOrder = (c) => [
    sql`case
      when ${c.dueDate} < ${today}::date and ${c.status} = ${TaskStatus.PENDING} then 0
      when ${c.dueDate} = ${today}::date then 1
      when ${c.dueDate} > ${today}::date then 2
      else 3 end`,
    // Earlier (done) tasks newest first; everything else soonest first.
    sql`case when ${c.dueDate} < ${today}::date and ${c.status} = ${TaskStatus.DONE}
      then ${today}::date - ${c.dueDate} else ${c.dueDate} - ${today}::date end`,
    sql`${c.dueTime} nulls first`,
    asc(c.planName),
    asc(c.roomName),
    asc(c.id),
  ];
  const conditions = taskConditions(ctx, filters);
  // Pending tasks only (the list's default): the sections' order is the due date's, which the pending
  // tasks' index gives without sorting them all.
  const order = filters.status === "pending" ? byDue : sections;
  const offset = (paging.page - 1) * paging.size;
  // Pages end where the count stops (LIST_COUNT_CAP rows).
  const window = Math.max(0, Math.min(paging.size, LIST_COUNT_CAP - offset));
  const [rows, counted] = await readAll(ctx, [
    () => (window === 0 ? Promise.resolve([]) : taskPage(ctx, conditions, order, { offset, limit: window })),
    () => countTasks(ctx, conditions),
  ] as const);
  const sectionOf = (row: TaskRow): TaskSection => {
    if (row.dueDate === today) return "today";
    if (row.dueDate < today) return row.status === TaskStatus.PENDING ? "overdue" : "earlier";
    return row.dueDate <= weekEnd ? "week" : "later";
  };
  return { items: rows.map((row) => ({ ...row, section: sectionOf(row) })), total: counted.total, page: paging.page, size: paging.size, capped: counted.capped };
}

// ---------------------------------------------------------------------------
// The calendar (/task?view=month|week), the API and the feed
// ---------------------------------------------------------------------------

/**
 * The tasks due from `from` to `to` (days, both included) with the filters, by day and time: GET
 * /api/tasks and the iCalendar feed. At most CALENDAR_MAX_TASKS (`capped` says when there were more).
 */
export async function tasksBetween(
  ctx: ServiceContext,
  range: { from: string; to: string },
  filters: Partial<TaskFilters>,
  options: { max?: number } = {},
): Promise<{ items: TaskRow[]; capped: boolean }> {
  const max = options.max ?? CALENDAR_MAX_TASKS;
  const conditions = taskConditions(ctx, filters, [sql`${tasks.dueDate} between ${range.from}::date and ${range.to}::date`]);
  const rows = await taskPage(ctx, conditions, byDue, { limit: max + 1 });
  return { items: rows.slice(0, max), capped: rows.length > max };
}

/** How many entries a day of the calendar shows: the month's cells stay small, the week's columns longer. */
export const CALENDAR_ENTRIES_PER_DAY = { month: 4, week: 16 } as const;

/**
 * The calendar's days from `from` to `to` (both included): each day's first `perDay` entries (a plan's
 * tasks of the day at one time of day, counted, with the place of a lone task), by time of day (a task
 * without one first) then plan, and the days that have more entries than that (`more`), which the
 * calendar links to a longer view of the day (decision 051).
 *
 * Each day is read in the order of `tasks_entity_day_plan_idx` and stops after its last entry, from the
 * index alone: the conditions on the task are on the index's columns, and those on its plan and room
 * (reach, archived plan or room, building) are sets of ids tested on the index's entries
 * (`calendarRoomTest`), so a month of a large entity reads a few entries a day rather than every task of
 * the month.
 */
export async function calendarDays(
  ctx: ServiceContext,
  range: { from: string; to: string },
  filters: Partial<TaskFilters>,
  perDay: number,
): Promise<{ entries: CalendarEntry[]; more: string[] }> {
  const e = ctx.entityId;
  const { onTask } = taskConditions(ctx, filters);
  const excluded = and(
    await calendarRoomTest(ctx, filters),
    sql`${tasks.plannedMaintenanceId} not in (select p.id from planned_maintenances p where p.entity_id = ${e} and p.archived_at is not null)`,
  );
  // The days as integers: the planner then knows how many there are (a series of dates it guesses at a
  // thousand, and plans for that many).
  const days = Math.round((Date.parse(`${range.to}T00:00:00Z`) - Date.parse(`${range.from}T00:00:00Z`)) / 86_400_000) + 1;
  if (!(days > 0)) return { entries: [], more: [] };
  // tenant-scope: scoped by the plans of ctx.entityId the calendar walks: their tasks
  const result = await ctx.db.execute(sql`
    with entry as (
      select d.day as due_date, e.due_time, e.plan_id, e.tasks, e.done, e.only_task,
        row_number() over (partition by d.day order by e.due_time nulls first, e.plan_id) as k
      from (select ${range.from}::date + n as day from generate_series(0, ${days - 1}) as n) as d
      cross join lateral (
        select ${tasks.dueTime} as due_time, ${tasks.plannedMaintenanceId} as plan_id, count(*)::int as tasks,
          (count(*) filter (where ${tasks.status} = ${TaskStatus.DONE}))::int as done, min(${tasks.id}) as only_task
        from ${tasks}
        where ${tasks.dueDate} = d.day and ${and(onTask, excluded)}
        group by ${tasks.dueTime}, ${tasks.plannedMaintenanceId}
        order by ${tasks.dueTime} nulls first, ${tasks.plannedMaintenanceId}
        limit ${perDay + 1}
      ) as e
    )
    select entry.due_date::text as due_day, entry.due_time::text as due_at, entry.plan_id, p.name as plan_name, entry.tasks, entry.done, entry.k,
      b.name as building_name, r.name as room_name,
      case when i.id is null then null else trim(et.name || coalesce(' ' || i.internal_reference, '')) end as equipment_name
    from entry
    join planned_maintenances p on p.id = entry.plan_id and p.entity_id = ${e}
    left join tasks x on entry.tasks = 1 and x.id = entry.only_task
    left join rooms r on r.id = x.room_id and r.entity_id = ${e}
    left join buildings b on b.id = r.building_id
    left join equipment_items i on i.id = x.equipment_item_id
    left join equipment_types et on et.id = i.equipment_type_id
    order by entry.due_date, entry.due_time nulls first, lower(p.name), p.name, entry.plan_id`);
  const entries: CalendarEntry[] = [];
  const more = new Set<string>();
  for (const r of rowsOf<Record<string, unknown>>(result)) {
    const dueDate = r.due_day as string;
    if (Number(r.k) > perDay) {
      more.add(dueDate);
      continue;
    }
    entries.push(calendarEntry({
      plannedMaintenanceId: Number(r.plan_id),
      planName: r.plan_name as string,
      dueDate,
      dueTime: (r.due_at as string | null) ?? null,
      tasks: Number(r.tasks),
      done: Number(r.done),
      buildingName: (r.building_name as string | null) ?? null,
      roomName: (r.room_name as string | null) ?? null,
      equipmentName: (r.equipment_name as string | null) ?? null,
    }));
  }
  return { entries, more: [...more].sort() };
}

/**
 * Whether a task's room may show in the calendar (reach, a live room, the building filter), as a test of
 * the task's own `room_id` against one set of rooms, kept whole and hashed once per read (so the walk of
 * each day stays in the index): the rooms kept when they are few (a building, a narrow reach), else the
 * rooms left out (the archived ones, and those of the buildings outside a wide reach), read by index
 * rather than by testing every room of the entity.
 */
async function calendarRoomTest(ctx: ServiceContext, filters: Partial<TaskFilters>): Promise<SQL> {
  const e = ctx.entityId;
  if (!can(ctx.actor, "read", "task") && !can(ctx.actor, "update", "task")) return sql`false`;
  const scope = treeScope(ctx, "room");
  const kept = (extra: SQL | undefined) =>
    sql`coalesce(${tasks.roomId} in (select ${rooms.id} from ${rooms} where ${and(eq(rooms.entityId, e), isNull(rooms.archivedAt), scope, extra)}), false)`;
  if (filters.buildingId) return kept(eq(rooms.buildingId, filters.buildingId));
  const outline = scope ? await reachOutline(ctx) : null;
  if (scope && !outline?.wide) return kept(undefined);
  const archived = sql`${tasks.roomId} not in (select r.id from rooms r where r.entity_id = ${e} and r.archived_at is not null)`;
  if (!outline?.outside.length) return archived;
  // tenant-scope: scoped by reachOutline: buildings of ctx.entityId
  return sql`${archived} and ${tasks.roomId} not in (select r.id from rooms r where r.building_id in (${sql.join(
    outline.outside.map((id) => sql`${id}`),
    sql`, `,
  )}))`;
}

/** The first day (Monday) of the week of `day`. */
export function weekStart(day: string): string {
  const weekday = (new Date(`${day}T00:00:00Z`).getUTCDay() + 6) % 7; // Monday 0 .. Sunday 6
  return addDays(day, -weekday);
}

/** The days a month page of the calendar shows: whole weeks, Monday to Sunday, around the month. */
export function monthGrid(month: string): { from: string; to: string; days: string[] } {
  const first = `${month}-01`;
  const [y, m] = month.split("-").map(Number);
  const next = m === 12 ? `${String(y + 1).padStart(4, "0")}-01-01` : `${String(y).padStart(4, "0")}-${String(m + 1).padStart(2, "0")}-01`;
  const last = addDays(next, -1);
  const from = weekStart(first);
  const to = addDays(weekStart(last), 6);
  const days: string[] = [];
  for (let d = from; d <= to; d = addDays(d, 1)) days.push(d);
  return { from, to, days };
}

/** The seven days of the week of `day`, Monday first. */
export function weekDays(day: string): { from: string; to: string; days: string[] } {
  const from = weekStart(day);
  const days = Array.from({ length: 7 }, (_, i) => addDays(from, i));
  return { from, to: days[6], days };
}

// ---------------------------------------------------------------------------
// One plan's day (/view-task/{id}/{date})
// ---------------------------------------------------------------------------

export interface TaskDay {
  plan: { id: number; name: string; instructions: string; timeOfDay: string | null; maintenanceTypeName: string | null };
  date: string;
  tasks: TaskRow[];
}

/**
 * A planned maintenance's tasks of one day within the viewer's reach (one per location), with the plan's
 * instructions. Not found ("Planned maintenance not found") when the plan is unknown, another entity's,
 * archived, or has no task that day the viewer reaches.
 */
export async function getTaskDay(ctx: ServiceContext, plannedMaintenanceId: number, date: string): Promise<TaskDay> {
  const [plan] = await ctx.db
    .select({
      id: plannedMaintenances.id,
      name: plannedMaintenances.name,
      instructions: plannedMaintenances.instructions,
      timeOfDay: plannedMaintenances.timeOfDay,
      maintenanceTypeName: sql<string | null>`${subquery
        .select({ name: maintenanceTypes.name })
        .from(maintenanceTypes)
        .where(and(eq(maintenanceTypes.id, plannedMaintenances.maintenanceTypeId), eq(maintenanceTypes.entityId, plannedMaintenances.entityId)))}`,
    })
    .from(plannedMaintenances)
    .where(and(eq(plannedMaintenances.id, plannedMaintenanceId), eq(plannedMaintenances.entityId, ctx.entityId), isNull(plannedMaintenances.archivedAt)));
  if (!plan) throw planNotFound();
  const rows = await selectTasks(ctx)
    .where(taskWhere(ctx, {}, [eq(tasks.plannedMaintenanceId, plannedMaintenanceId), eq(tasks.dueDate, date)]))
    .orderBy(asc(buildings.name), asc(rooms.name), sql`${tasks.equipmentItemId} nulls first`, asc(tasks.id));
  if (rows.length === 0) throw planNotFound();
  return { plan, date, tasks: rows };
}

// ---------------------------------------------------------------------------
// One task (the verbs), and the filters' choices
// ---------------------------------------------------------------------------

/** A task of the entity within the actor's reach (its plan and room not archived); NotFound otherwise. */
export async function findTaskInReach(ctx: ServiceContext, id: number, options: { lock?: boolean } = {}) {
  if (!Number.isInteger(id) || id <= 0 || id > 2_147_483_647) throw taskNotFound();
  const query = ctx.db
    .select({ task: tasks })
    .from(tasks)
    .innerJoin(plannedMaintenances, and(eq(plannedMaintenances.id, tasks.plannedMaintenanceId), eq(plannedMaintenances.entityId, ctx.entityId)))
    .innerJoin(rooms, and(eq(rooms.id, tasks.roomId), eq(rooms.entityId, ctx.entityId)))
    .where(and(eq(tasks.id, id), eq(tasks.entityId, ctx.entityId), taskWhere(ctx, {})));
  const [row] = options.lock ? await query.for("update", { of: tasks }) : await query;
  if (!row) throw taskNotFound();
  return row.task;
}

export interface TaskFilterOptions {
  buildings: { id: number; name: string }[];
  plans: { id: number; name: string }[];
  assignees: { id: number; name: string }[];
}

/** The most choices of one filter (the buildings, plans and people that have tasks the viewer reaches). */
const OPTIONS_MAX = 200;

/** The choices of the list's and calendar's filters: what the viewer's tasks are spread over. */
export async function taskFilterOptions(ctx: ServiceContext): Promise<TaskFilterOptions> {
  const reach = taskReach(ctx);
  const visible = and(eq(tasks.entityId, ctx.entityId), reach);
  const [buildingRows, planRows, assigneeRows] = await readAll(ctx, [
    () =>
      ctx.db
        .select({ id: buildings.id, name: buildings.name })
        .from(buildings)
        .where(
          and(
            eq(buildings.entityId, ctx.entityId),
            isNull(buildings.archivedAt),
            // tenant-scope: scoped by the outer building (of ctx.entityId): tasks of its rooms
            sql`exists (select 1 from tasks join rooms on rooms.id = tasks.room_id where rooms.building_id = ${buildings.id} and ${visible})`,
          ),
        )
        .orderBy(asc(sql`lower(${buildings.name})`), asc(buildings.id))
        .limit(OPTIONS_MAX),
    () =>
      ctx.db
        .select({ id: plannedMaintenances.id, name: plannedMaintenances.name })
        .from(plannedMaintenances)
        .where(
          and(
            eq(plannedMaintenances.entityId, ctx.entityId),
            isNull(plannedMaintenances.archivedAt),
            // tenant-scope: scoped by the outer plan (of ctx.entityId): its tasks
            sql`exists (select 1 from tasks where tasks.planned_maintenance_id = ${plannedMaintenances.id} and ${visible})`,
          ),
        )
        .orderBy(asc(sql`lower(${plannedMaintenances.name})`), asc(plannedMaintenances.id))
        .limit(OPTIONS_MAX),
    () =>
      ctx.db
        .select({ id: users.id, name: sql<string>`trim(${users.name} || ' ' || ${users.surname})` })
        .from(users)
        .where(
          and(
            eq(users.entityId, ctx.entityId),
            isNull(users.archivedAt),
            // tenant-scope: scoped by the outer user (of ctx.entityId): their tasks
            sql`(exists (select 1 from planned_maintenance_assignees a join planned_maintenances p on p.id = a.planned_maintenance_id
                  where a.user_id = ${users.id} and a.entity_id = ${ctx.entityId} and p.archived_at is null)
              or exists (select 1 from tasks where tasks.assignee_id = ${users.id} and ${visible}))`,
          ),
        )
        .orderBy(asc(sql`lower(${users.surname})`), asc(sql`lower(${users.name})`), asc(users.id))
        .limit(OPTIONS_MAX),
  ] as const);
  return { buildings: buildingRows, plans: planRows, assignees: assigneeRows };
}
