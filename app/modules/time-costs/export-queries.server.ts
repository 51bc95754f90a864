import { type AnyColumn, and, asc, count, eq, gt, gte, isNull, lte, type SQL, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import type { ServiceContext } from "~/core/context.server";
import { buildings, facilities, incidents, materialLines, rooms, timeEntries, users } from "~/db/schema";
import { incidentReach, type ReachOutline } from "~/modules/facilities/policy.server";

/**
 * The time entries and material lines of the incidents a reader reaches, for the exports (issue 62):
 * the entity's, on incidents not archived within the reader's incident reach (`incidentReach`: linked
 * facilities and buildings, a token's facilities, one's assigned incidents), in keyset pages by id.
 * Tasks' entries join when tasks record work.
 */
export interface WorkExportFilters {
  /** Only incidents in a room of this facility. */
  facilityId: number | null;
  /** Time entries worked on from / until these days (YYYY-MM-DD); material lines ignore them. */
  from: string | null;
  to: string | null;
}

/** Where the work was done: the incident and its place. */
interface WorkPlace {
  incidentShortId: number;
  incidentTitle: string | null;
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

/** The incidents whose work the reader may export: the entity's, not archived, in reach, in the facility asked. */
function incidentsInReach(ctx: ServiceContext, filters: WorkExportFilters, outline: ReachOutline | null): SQL {
  return and(eq(incidents.entityId, ctx.entityId), isNull(incidents.archivedAt), incidentReach(ctx, outline), filters.facilityId ? eq(buildings.facilityId, filters.facilityId) : undefined)!;
}

const place = {
  incidentShortId: incidents.shortId,
  incidentTitle: incidents.title,
  facilityName: facilities.name,
  buildingName: buildings.name,
  roomName: rooms.name,
};

function timeEntriesWhere(ctx: ServiceContext, filters: WorkExportFilters, outline: ReachOutline | null): SQL {
  return and(
    eq(timeEntries.entityId, ctx.entityId),
    incidentsInReach(ctx, filters, outline),
    filters.from ? gte(timeEntries.workedOn, filters.from) : undefined,
    filters.to ? lte(timeEntries.workedOn, filters.to) : undefined
  )!;
}

/** How many time entries the export holds. */
export async function countTimeEntriesForExport(ctx: ServiceContext, filters: WorkExportFilters, outline: ReachOutline | null): Promise<number> {
  // tenant-scope: scoped by timeEntriesWhere (the entity's entries on the entity's incidents in reach)
  const [row] = await ctx.db
    .select({ n: count() })
    .from(timeEntries)
    .innerJoin(incidents, eq(incidents.id, timeEntries.incidentId))
    .leftJoin(rooms, eq(rooms.id, incidents.roomId))
    .leftJoin(buildings, eq(buildings.id, rooms.buildingId))
    .leftJoin(facilities, eq(facilities.id, buildings.facilityId))
    .where(timeEntriesWhere(ctx, filters, outline));
  return row?.n ?? 0;
}

/** The time entries after id `after`, by id, at most `limit`. */
export async function timeEntriesForExport(ctx: ServiceContext, filters: WorkExportFilters, outline: ReachOutline | null, after: number, limit: number): Promise<TimeEntryExportRow[]> {
  const worker = alias(users, "worker");
  // tenant-scope: scoped by timeEntriesWhere (the entity's entries on the entity's incidents in reach)
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
    .innerJoin(incidents, eq(incidents.id, timeEntries.incidentId))
    .leftJoin(rooms, eq(rooms.id, incidents.roomId))
    .leftJoin(buildings, eq(buildings.id, rooms.buildingId))
    .leftJoin(facilities, eq(facilities.id, buildings.facilityId))
    .innerJoin(worker, eq(worker.id, timeEntries.userId))
    .where(and(timeEntriesWhere(ctx, filters, outline), gt(timeEntries.id, after)))
    .orderBy(asc(timeEntries.id))
    .limit(limit);
}

function materialLinesWhere(ctx: ServiceContext, filters: WorkExportFilters, outline: ReachOutline | null): SQL {
  return and(eq(materialLines.entityId, ctx.entityId), incidentsInReach(ctx, filters, outline))!;
}

/** How many material lines the export holds. */
export async function countMaterialLinesForExport(ctx: ServiceContext, filters: WorkExportFilters, outline: ReachOutline | null): Promise<number> {
  // tenant-scope: scoped by materialLinesWhere (the entity's lines on the entity's incidents in reach)
  const [row] = await ctx.db
    .select({ n: count() })
    .from(materialLines)
    .innerJoin(incidents, eq(incidents.id, materialLines.incidentId))
    .leftJoin(rooms, eq(rooms.id, incidents.roomId))
    .leftJoin(buildings, eq(buildings.id, rooms.buildingId))
    .leftJoin(facilities, eq(facilities.id, buildings.facilityId))
    .where(materialLinesWhere(ctx, filters, outline));
  return row?.n ?? 0;
}

/** The material lines after id `after`, by id, at most `limit`. */
export async function materialLinesForExport(ctx: ServiceContext, filters: WorkExportFilters, outline: ReachOutline | null, after: number, limit: number): Promise<MaterialLineExportRow[]> {
  const adder = alias(users, "adder");
  // tenant-scope: scoped by materialLinesWhere (the entity's lines on the entity's incidents in reach)
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
    .innerJoin(incidents, eq(incidents.id, materialLines.incidentId))
    .leftJoin(rooms, eq(rooms.id, incidents.roomId))
    .leftJoin(buildings, eq(buildings.id, rooms.buildingId))
    .leftJoin(facilities, eq(facilities.id, buildings.facilityId))
    .leftJoin(adder, eq(adder.id, materialLines.createdById))
    .where(and(materialLinesWhere(ctx, filters, outline), gt(materialLines.id, after)))
    .orderBy(asc(materialLines.id))
    .limit(limit);
}
