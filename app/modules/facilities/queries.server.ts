import { and, asc, count, desc, eq, ilike, inArray, isNull, sql } from "drizzle-orm";
import { buildings, entities, facilities } from "~/db/schema";
import type { ServiceContext } from "~/core/context.server";
import { NotFoundError } from "~/lib/errors";
import { assertCanManageFacilities, treeScope } from "./policy.server";
import { likePattern, type ListQuery, type Page } from "~/lib/list-query";
import { readPage } from "~/lib/list-page.server";

/**
 * Reads of facilities and buildings, shaped for the list screens, the forms and the REST answers.
 * Every read is filtered by the entity; archived rows are invisible. The counts of SPEC.md section 3
 * are computed in SQL: buildings per facility and rooms per building as sub-selects (sortable), active
 * incidents by one grouped query for the rows of the page.
 */
export const ACTIVE = 1;
export const ARCHIVED = 0;

export const facilityNotFound = () => new NotFoundError("facilities:errors.facilityNotFound", "FACILITY_NOT_FOUND");
export const buildingNotFound = () => new NotFoundError("facilities:errors.buildingNotFound", "BUILDING_NOT_FOUND");

export type IncidentScope = "facility" | "building" | "room";

/**
 * Pending and In Progress incidents (not archived) of non-archived rooms, counted per facility,
 * building or room for the given ids in ONE grouped query (the rows of a page), so a list costs the same
 * whatever its page: the count is never evaluated for rows an OFFSET skips. Served by the partial
 * index `incidents_open_room_idx`.
 */
export async function countOpenIncidents(ctx: ServiceContext, by: IncidentScope, ids: number[]): Promise<Map<number, number>> {
  if (ids.length === 0) return new Map();
  const list = sql.join(
    ids.map((id) => sql`${id}`),
    sql`, `,
  );
  const key = by === "room" ? sql`r.id` : by === "building" ? sql`r.building_id` : sql`b.facility_id`;
  const result = await ctx.db.execute(sql`
    select ${key} as id, count(*)::int as n
    from incidents i
    join rooms r on r.id = i.room_id
    ${by === "facility" ? sql`join buildings b on b.id = r.building_id` : sql``}
    where i.entity_id = ${ctx.entityId} and i.status in (0, 1) and i.archived_at is null
      and r.archived_at is null and ${key} in (${list})
    group by ${key}`);
  const rows = (result as unknown as { rows: { id: number; n: number }[] }).rows;
  return new Map(rows.map((r) => [Number(r.id), Number(r.n)]));
}

/** Adds `activeIncidents` to rows (of a page) from one grouped count. */
export async function withActiveIncidents<T extends { id: number }>(
  ctx: ServiceContext,
  by: IncidentScope,
  rows: T[],
): Promise<(T & { activeIncidents: number })[]> {
  const counts = await countOpenIncidents(
    ctx,
    by,
    rows.map((r) => r.id),
  );
  return rows.map((r) => ({ ...r, activeIncidents: counts.get(r.id) ?? 0 }));
}

// ---------------------------------------------------------------------------
// Facilities
// ---------------------------------------------------------------------------
export const FACILITY_SORTS = ["name", "shortId", "countBuildings"] as const;
export type FacilitySort = (typeof FACILITY_SORTS)[number];

export interface FacilityRow {
  id: number;
  shortId: number;
  name: string;
  description: string | null;
  entityId: number;
  entityName: string;
  countBuildings: number;
  activeIncidents: number;
  status: number;
}

function facilitySelection() {
  const countBuildings = sql<number>`(select count(*)::int from buildings b
    where b.facility_id = "facilities"."id" and b.archived_at is null)`;
  return {
    countBuildings,
    fields: {
      id: facilities.id,
      shortId: facilities.shortId,
      name: facilities.name,
      description: facilities.description,
      entityId: facilities.entityId,
      entityName: entities.name,
      countBuildings,
      status: sql<number>`${ACTIVE}::int`,
    },
  };
}

export async function listFacilities(ctx: ServiceContext, query: ListQuery<FacilitySort>): Promise<Page<FacilityRow>> {
  const where = and(
    eq(facilities.entityId, ctx.entityId),
    isNull(facilities.archivedAt),
    treeScope(ctx, "facility"),
    query.q ? ilike(facilities.name, likePattern(query.q)) : undefined,
  );
  const { fields, countBuildings } = facilitySelection();
  const column = { name: sql`lower(${facilities.name})`, shortId: facilities.shortId, countBuildings }[query.sort];
  const order = query.dir === "desc" ? desc(column) : asc(column);
  const page = await readPage(
    query,
    ctx.db.select(fields).from(facilities).innerJoin(entities, eq(entities.id, facilities.entityId)).where(where).orderBy(order, asc(facilities.id)).$dynamic(),
    ctx.db.select({ n: count() }).from(facilities).where(where),
  );
  return { ...page, items: await withActiveIncidents(ctx, "facility", page.items) };
}

export async function getFacility(ctx: ServiceContext, id: number): Promise<FacilityRow> {
  const [row] = await ctx.db
    .select(facilitySelection().fields)
    .from(facilities)
    .innerJoin(entities, eq(entities.id, facilities.entityId))
    .where(and(eq(facilities.id, id), eq(facilities.entityId, ctx.entityId), isNull(facilities.archivedAt), treeScope(ctx, "facility")))
    .limit(1);
  if (!row) throw facilityNotFound();
  const [withCounts] = await withActiveIncidents(ctx, "facility", [row]);
  return withCounts;
}

/**
 * The read model of the facility form (/update-facility/{id}): facility managers and administrators
 * only (Forbidden otherwise, whatever the id), then the facility of the entity (NotFound otherwise).
 */
export async function getFacilityForEdit(ctx: ServiceContext, id: number): Promise<FacilityRow> {
  assertCanManageFacilities(ctx);
  return getFacility(ctx, id);
}

/** Every active facility (id, name), for filters and selects. */
export async function listFacilityOptions(ctx: ServiceContext): Promise<{ id: number; name: string }[]> {
  return ctx.db
    .select({ id: facilities.id, name: facilities.name })
    .from(facilities)
    .where(and(eq(facilities.entityId, ctx.entityId), isNull(facilities.archivedAt), treeScope(ctx, "facility")))
    .orderBy(asc(sql`lower(${facilities.name})`), asc(facilities.id));
}

// ---------------------------------------------------------------------------
// Buildings
// ---------------------------------------------------------------------------
export const BUILDING_SORTS = ["name", "shortId", "facilityName", "city", "countRooms"] as const;
export type BuildingSort = (typeof BUILDING_SORTS)[number];

export interface BuildingRow {
  id: number;
  shortId: number;
  name: string;
  description: string | null;
  streetName: string | null;
  streetNumber: string | null;
  suffix: string | null;
  buildingFloor: string | null;
  additionalInfo: string | null;
  postalCode: string | null;
  city: string | null;
  country: string | null;
  facilityId: number;
  facilityName: string;
  countRooms: number;
  activeIncidents: number;
  status: number;
}

function buildingSelection() {
  const countRooms = sql<number>`(select count(*)::int from rooms r2
    where r2.building_id = "buildings"."id" and r2.archived_at is null)`;
  return {
    countRooms,
    fields: {
      id: buildings.id,
      shortId: buildings.shortId,
      name: buildings.name,
      description: buildings.description,
      streetName: buildings.streetName,
      streetNumber: buildings.streetNumber,
      suffix: buildings.suffix,
      buildingFloor: buildings.buildingFloor,
      additionalInfo: buildings.additionalInfo,
      postalCode: buildings.postalCode,
      city: buildings.city,
      country: buildings.country,
      facilityId: buildings.facilityId,
      facilityName: facilities.name,
      countRooms,
      status: sql<number>`${ACTIVE}::int`,
    },
  };
}

export interface BuildingFilter {
  /** Only buildings of these facilities (`null`: every facility). */
  facilityIds: number[] | null;
}

export async function listBuildings(
  ctx: ServiceContext,
  query: ListQuery<BuildingSort>,
  filter: BuildingFilter = { facilityIds: null },
): Promise<Page<BuildingRow>> {
  const where = and(
    eq(buildings.entityId, ctx.entityId),
    isNull(buildings.archivedAt),
    treeScope(ctx, "building"),
    filter.facilityIds ? (filter.facilityIds.length ? inArray(buildings.facilityId, filter.facilityIds) : sql`false`) : undefined,
    query.q ? ilike(buildings.name, likePattern(query.q)) : undefined,
  );
  const { fields, countRooms } = buildingSelection();
  const column = {
    name: sql`lower(${buildings.name})`,
    shortId: buildings.shortId,
    facilityName: sql`lower(${facilities.name})`,
    city: sql`lower(${buildings.city})`,
    countRooms,
  }[query.sort];
  const order = query.dir === "desc" ? sql`${column} desc nulls last` : sql`${column} asc nulls last`;
  const page = await readPage(
    query,
    ctx.db.select(fields).from(buildings).innerJoin(facilities, eq(facilities.id, buildings.facilityId)).where(where).orderBy(order, asc(buildings.id)).$dynamic(),
    ctx.db.select({ n: count() }).from(buildings).where(where),
  );
  return { ...page, items: await withActiveIncidents(ctx, "building", page.items) };
}

export async function getBuilding(ctx: ServiceContext, id: number): Promise<BuildingRow> {
  const [row] = await ctx.db
    .select(buildingSelection().fields)
    .from(buildings)
    .innerJoin(facilities, eq(facilities.id, buildings.facilityId))
    .where(and(eq(buildings.id, id), eq(buildings.entityId, ctx.entityId), isNull(buildings.archivedAt), treeScope(ctx, "building")))
    .limit(1);
  if (!row) throw buildingNotFound();
  const [withCounts] = await withActiveIncidents(ctx, "building", [row]);
  return withCounts;
}

/** The read model of the building form (/update-building/{id}): managers and administrators only. */
export async function getBuildingForEdit(ctx: ServiceContext, id: number): Promise<BuildingRow> {
  assertCanManageFacilities(ctx);
  return getBuilding(ctx, id);
}

/** Every active building (id, name, facility), for filters and selects. */
export async function listBuildingOptions(
  ctx: ServiceContext,
): Promise<{ id: number; name: string; facilityId: number; facilityName: string }[]> {
  return ctx.db
    .select({ id: buildings.id, name: buildings.name, facilityId: buildings.facilityId, facilityName: facilities.name })
    .from(buildings)
    .innerJoin(facilities, eq(facilities.id, buildings.facilityId))
    .where(and(eq(buildings.entityId, ctx.entityId), isNull(buildings.archivedAt), treeScope(ctx, "building")))
    .orderBy(asc(sql`lower(${facilities.name})`), asc(sql`lower(${buildings.name})`), asc(buildings.id));
}
