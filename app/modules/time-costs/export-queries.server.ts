import { type AnyColumn, and, asc, count, eq, gt, gte, inArray, isNull, lte, or, type SQL, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import type { ServiceContext } from "~/core/context.server";
import { buildings, facilities, incidents, materialLines, plannedMaintenances, rooms, tasks, timeEntries, users } from "~/db/schema";
import { incidentReach, type ReachOutline } from "~/modules/facilities/policy.server";
import { taskWhere } from "~/modules/maintenance/task-queries.server";

/**
 * The time entries and material lines of the incidents and maintenance tasks a reader reaches, for the
 * exports (issue 62): the entity's, on incidents not archived within the reader's incident reach
 * (`incidentReach`: linked facilities and buildings, a token's facilities, one's assigned incidents) and
 * on tasks within their task reach (`taskWhere`: the rooms they reach, live plans and rooms), in keyset
 * pages by id. A row names its incident (short id, title) or its task (id, and its planned maintenance's
 * name); the place is the record's room.
 */
export interface WorkExportFilters {
  /** Only incidents and tasks in a room of this facility. */
  facilityId: number | null;
  /** Time entries worked on from / until these days (YYYY-MM-DD); material lines ignore them. */
  from: string | null;
  to: string | null;
}

/** Where the work was done: the incident or the task, and its place. */
interface WorkPlace {
  incidentShortId: number | null;
  incidentTitle: string | null;
  taskId: number | null;
  /** The name of the task's planned maintenance (null on an incident's row). */
  planName: string | null;
  facilityName: string | null;
  buildingName: string | null;
  roomName: string | null;
}

export interface TimeEntryExportRow extends WorkPlace {
  id: number;
  workedOn: string;
  minutes: number;
  person: string;
  note: string | null;
}

export interface MaterialLineExportRow extends WorkPlace {
  id: number;
  description: string;
  quantity: string;
  unitCost: string;
  /** quantity × unit cost, rounded to the cent. */
  total: string;
  addedBy: string | null;
  createdAt: Date;
}

const fullName = (name: AnyColumn, surname: AnyColumn) => sql<string>`trim(coalesce(${name}, '') || ' ' || coalesce(${surname}, ''))`;

/**
 * The records whose work the reader may export, as a condition on the row's joined incident or task:
 * an incident of the entity, not archived, in reach; or a task in the reader's task reach; either in the
 * facility asked.
 */
function recordsInReach(ctx: ServiceContext, filters: WorkExportFilters, outline: ReachOutline | null, taskId: AnyColumn): SQL {
  // The tasks in reach, as the task list reads them (entity, reach, live plan and room).
  // tenant-scope: scoped by taskWhere, whose first condition is tasks.entity_id = ctx.entityId
  const reachedTasks = ctx.db
    .select({ id: tasks.id })
    .from(tasks)
    .innerJoin(plannedMaintenances, and(eq(plannedMaintenances.id, tasks.plannedMaintenanceId), eq(plannedMaintenances.entityId, ctx.entityId)))
    .innerJoin(rooms, and(eq(rooms.id, tasks.roomId), eq(rooms.entityId, ctx.entityId)))
    .where(taskWhere(ctx, {}));
  return and(
    or(and(eq(incidents.entityId, ctx.entityId), isNull(incidents.archivedAt), incidentReach(ctx, outline)), and(eq(tasks.entityId, ctx.entityId), inArray(taskId, reachedTasks))),
    filters.facilityId ? eq(buildings.facilityId, filters.facilityId) : undefined,
  )!;
}

/** The row's task's planned maintenance, of the entity (none on an incident's row). */
const taskPlan = (ctx: ServiceContext) => and(eq(plannedMaintenances.id, tasks.plannedMaintenanceId), eq(plannedMaintenances.entityId, ctx.entityId));

/** The row's room: its incident's, or its task's. */
const recordRoom = sql`coalesce(${incidents.roomId}, ${tasks.roomId})`;

const place = {
  incidentShortId: incidents.shortId,
  incidentTitle: incidents.title,
  taskId: tasks.id,
  planName: plannedMaintenances.name,
  facilityName: facilities.name,
  buildingName: buildings.name,
  roomName: rooms.name,
};

function timeEntriesWhere(ctx: ServiceContext, filters: WorkExportFilters, outline: ReachOutline | null): SQL {
  return and(
    eq(timeEntries.entityId, ctx.entityId),
    recordsInReach(ctx, filters, outline, timeEntries.taskId),
    filters.from ? gte(timeEntries.workedOn, filters.from) : undefined,
    filters.to ? lte(timeEntries.workedOn, filters.to) : undefined
  )!;
}

/** How many time entries the export holds. */
export async function countTimeEntriesForExport(ctx: ServiceContext, filters: WorkExportFilters, outline: ReachOutline | null): Promise<number> {
  // tenant-scope: scoped by timeEntriesWhere (the entity's entries on the entity's incidents and tasks in reach)
  const [row] = await ctx.db
    .select({ n: count() })
    .from(timeEntries)
    .leftJoin(incidents, eq(incidents.id, timeEntries.incidentId))
    .leftJoin(tasks, eq(tasks.id, timeEntries.taskId))
    .leftJoin(rooms, eq(rooms.id, recordRoom))
    .leftJoin(buildings, eq(buildings.id, rooms.buildingId))
    .leftJoin(facilities, eq(facilities.id, buildings.facilityId))
    .where(timeEntriesWhere(ctx, filters, outline));
  return row?.n ?? 0;
}

/** The time entries after id `after`, by id, at most `limit`. */
export async function timeEntriesForExport(ctx: ServiceContext, filters: WorkExportFilters, outline: ReachOutline | null, after: number, limit: number): Promise<TimeEntryExportRow[]> {
  const worker = alias(users, "worker");
  // tenant-scope: scoped by timeEntriesWhere (the entity's entries on the entity's incidents and tasks in reach)
  return ctx.db
    .select({
      id: timeEntries.id,
      workedOn: timeEntries.workedOn,
      minutes: timeEntries.minutes,
      note: timeEntries.note,
      person: fullName(worker.name, worker.surname),
      ...place,
    })
    .from(timeEntries)
    .leftJoin(incidents, eq(incidents.id, timeEntries.incidentId))
    .leftJoin(tasks, eq(tasks.id, timeEntries.taskId))
    .leftJoin(plannedMaintenances, taskPlan(ctx))
    .leftJoin(rooms, eq(rooms.id, recordRoom))
    .leftJoin(buildings, eq(buildings.id, rooms.buildingId))
    .leftJoin(facilities, eq(facilities.id, buildings.facilityId))
    .innerJoin(worker, eq(worker.id, timeEntries.userId))
    .where(and(timeEntriesWhere(ctx, filters, outline), gt(timeEntries.id, after)))
    .orderBy(asc(timeEntries.id))
    .limit(limit);
}

function materialLinesWhere(ctx: ServiceContext, filters: WorkExportFilters, outline: ReachOutline | null): SQL {
  return and(eq(materialLines.entityId, ctx.entityId), recordsInReach(ctx, filters, outline, materialLines.taskId))!;
}

/** How many material lines the export holds. */
export async function countMaterialLinesForExport(ctx: ServiceContext, filters: WorkExportFilters, outline: ReachOutline | null): Promise<number> {
  // tenant-scope: scoped by materialLinesWhere (the entity's lines on the entity's incidents and tasks in reach)
  const [row] = await ctx.db
    .select({ n: count() })
    .from(materialLines)
    .leftJoin(incidents, eq(incidents.id, materialLines.incidentId))
    .leftJoin(tasks, eq(tasks.id, materialLines.taskId))
    .leftJoin(rooms, eq(rooms.id, recordRoom))
    .leftJoin(buildings, eq(buildings.id, rooms.buildingId))
    .leftJoin(facilities, eq(facilities.id, buildings.facilityId))
    .where(materialLinesWhere(ctx, filters, outline));
  return row?.n ?? 0;
}

/** The material lines after id `after`, by id, at most `limit`. */
export async function materialLinesForExport(ctx: ServiceContext, filters: WorkExportFilters, outline: ReachOutline | null, after: number, limit: number): Promise<MaterialLineExportRow[]> {
  const adder = alias(users, "adder");
  // tenant-scope: scoped by materialLinesWhere (the entity's lines on the entity's incidents and tasks in reach)
  return ctx.db
    .select({
      id: materialLines.id,
      description: materialLines.description,
      quantity: materialLines.quantity,
      unitCost: materialLines.unitCost,
      total: sql<string>`round(${materialLines.quantity} * ${materialLines.unitCost}, 2)::text`,
      addedBy: sql<string | null>`case when ${adder.id} is null then null else ${fullName(adder.name, adder.surname)} end`,
      createdAt: materialLines.createdAt,
      ...place,
    })
    .from(materialLines)
    .leftJoin(incidents, eq(incidents.id, materialLines.incidentId))
    .leftJoin(tasks, eq(tasks.id, materialLines.taskId))
    .leftJoin(plannedMaintenances, taskPlan(ctx))
    .leftJoin(rooms, eq(rooms.id, recordRoom))
    .leftJoin(buildings, eq(buildings.id, rooms.buildingId))
    .leftJoin(facilities, eq(facilities.id, buildings.facilityId))
    .leftJoin(adder, eq(adder.id, materialLines.createdById))
    .where(and(materialLinesWhere(ctx, filters, outline), gt(materialLines.id, after)))
    .orderBy(asc(materialLines.id))
    .limit(limit);
}
