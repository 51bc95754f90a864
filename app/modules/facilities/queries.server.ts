import { and, asc, count, desc, eq, inArray, isNull, type SQL, sql } from "drizzle-orm";
import type { z } from "zod";
import { assertCan, can } from "~/core/actor";
import { fieldColumns } from "~/core/fields.server";
import type { FieldKey } from "~/lib/fields";
import { buildings, entities, facilities, incidents, rooms } from "~/db/schema";
import { IncidentStatus, type IncidentPriority } from "~/db/enums";
import type { ServiceContext } from "~/core/context.server";
import { NotFoundError } from "~/lib/errors";
import { type TreeLevel, treeScope } from "./policy.server";
import { type ListQuery, MAX_PAGE_SIZE, type Page } from "~/lib/list-query";
import { decodeCursor, encodeCursor } from "~/lib/cursor.server";
import { nameLike, readPage } from "~/lib/list-page.server";
import { BUILDING_FIELDS, BuildingSchema, FACILITY_FIELDS } from "./schema";

/**
 * Reads of facilities and buildings, shaped for the list screens, the forms and the REST answers.
 * Every read is filtered by the entity; archived rows are invisible. The counts of SPEC.md section 3
 * (buildings per facility, rooms per building, active incidents) are the counters the triggers keep
 * (counters.server.ts, decision 017): a list never counts rows per view.
 */
export const ACTIVE = 1;
export const ARCHIVED = 0;

export const facilityNotFound = () => new NotFoundError("facilities:errors.facilityNotFound", "FACILITY_NOT_FOUND");
export const buildingNotFound = () => new NotFoundError("facilities:errors.buildingNotFound", "BUILDING_NOT_FOUND");

// ---------------------------------------------------------------------------
// Facilities
// ---------------------------------------------------------------------------
export const FACILITY_SORTS = ["name", "shortId", "countBuildings"] as const;
export type FacilitySort = (typeof FACILITY_SORTS)[number];

/** A facility's declared fields (schema.ts) as its table stores them. */
export type FacilityFields = Pick<typeof facilities.$inferSelect, FieldKey<typeof FACILITY_FIELDS>>;

export interface FacilityRow extends FacilityFields {
  id: number;
  shortId: number;
  entityId: number;
  entityName: string;
  countBuildings: number;
  activeIncidents: number;
  status: number;
}

function facilitySelection() {
  return {
    countBuildings: facilities.buildingCount,
    fields: {
      id: facilities.id,
      shortId: facilities.shortId,
      ...fieldColumns(facilities, FACILITY_FIELDS),
      entityId: facilities.entityId,
      entityName: entities.name,
      countBuildings: facilities.buildingCount,
      activeIncidents: facilities.activeIncidentCount,
      status: sql<number>`${ACTIVE}::int`,
    },
  };
}

export async function listFacilities(ctx: ServiceContext, query: ListQuery<FacilitySort>): Promise<Page<FacilityRow>> {
  const where = and(
    eq(facilities.entityId, ctx.entityId),
    isNull(facilities.archivedAt),
    treeScope(ctx, "facility"),
    query.q ? nameLike(facilities.name, query.q) : undefined,
  );
  const { fields, countBuildings } = facilitySelection();
  const column = { name: sql`lower(${facilities.name})`, shortId: facilities.shortId, countBuildings }[query.sort];
  const by = query.dir === "desc" ? desc : asc;
  return readPage(
    query,
    ctx.db.select(fields).from(facilities).innerJoin(entities, eq(entities.id, facilities.entityId)).where(where).orderBy(by(column), asc(facilities.id)).$dynamic(),
    ctx.db.select({ n: count() }).from(facilities).where(where),
  );
}

/** One facility of the entity within the actor's reach (`level`: shown, or reached whole); NotFound otherwise. */
export async function getFacility(ctx: ServiceContext, id: number, level: Extract<TreeLevel, "facility" | "wholeFacility"> = "facility"): Promise<FacilityRow> {
  const [row] = await ctx.db
    .select(facilitySelection().fields)
    .from(facilities)
    .innerJoin(entities, eq(entities.id, facilities.entityId))
    .where(and(eq(facilities.id, id), eq(facilities.entityId, ctx.entityId), isNull(facilities.archivedAt), treeScope(ctx, level)))
    .limit(1);
  if (!row) throw facilityNotFound();
  return row;
}

/**
 * The read model of the facility form (/update-facility/{id}): facility managers and administrators
 * only (Forbidden otherwise, whatever the id), then a facility of the entity the actor reaches whole,
 * as updating and archiving it require (NotFound otherwise).
 */
export async function getFacilityForEdit(ctx: ServiceContext, id: number): Promise<FacilityRow> {
  assertCan(ctx.actor, "manage", "place");
  return getFacility(ctx, id, "wholeFacility");
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

/** A building's declared fields (schema.ts), under the verb's keys (its facility: `facilityId`). */
export type BuildingFields = z.output<typeof BuildingSchema>;

export interface BuildingRow extends BuildingFields {
  id: number;
  shortId: number;
  facilityName: string;
  countRooms: number;
  activeIncidents: number;
  status: number;
}

function buildingSelection() {
  return {
    countRooms: buildings.roomCount,
    fields: {
      id: buildings.id,
      shortId: buildings.shortId,
      ...fieldColumns(buildings, BUILDING_FIELDS, BuildingSchema.shape),
      facilityName: facilities.name,
      countRooms: buildings.roomCount,
      activeIncidents: buildings.activeIncidentCount,
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
    query.q ? nameLike(buildings.name, query.q) : undefined,
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
  return readPage(
    query,
    ctx.db
      .select(fields)
      .from(buildings)
      .innerJoin(facilities, eq(facilities.id, buildings.facilityId))
      .where(where)
      .orderBy(order, asc(buildings.id))
      .$dynamic(),
    ctx.db.select({ n: count() }).from(buildings).where(where),
  );
}

export async function getBuilding(ctx: ServiceContext, id: number): Promise<BuildingRow> {
  const [row] = await ctx.db
    .select(buildingSelection().fields)
    .from(buildings)
    .innerJoin(facilities, eq(facilities.id, buildings.facilityId))
    .where(and(eq(buildings.id, id), eq(buildings.entityId, ctx.entityId), isNull(buildings.archivedAt), treeScope(ctx, "building")))
    .limit(1);
  if (!row) throw buildingNotFound();
  return row;
}

/** The read model of the building form (/update-building/{id}): managers and administrators only. */
export async function getBuildingForEdit(ctx: ServiceContext, id: number): Promise<BuildingRow> {
  assertCan(ctx.actor, "manage", "place");
  return getBuilding(ctx, id);
}

export interface BuildingOption {
  id: number;
  name: string;
  facilityId: number;
  facilityName: string;
}

export interface OptionsPage<T> {
  options: T[];
  /** The cursor of the next page (`after`), null on the last one. */
  next: string | null;
}

/** Buildings per page of the building picker. */
export const BUILDING_OPTIONS_PAGE = 20;

/**
 * One page of the building picker (decision 017): the active buildings within the actor's reach
 * (optionally of one facility) whose name holds `q`, in name order, after the cursor `after` (keyset on
 * `buildings_list_name_idx`: a page costs the same at any depth). `next` is the cursor of the following
 * page. An unreadable cursor starts from the first page.
 */
export async function searchBuildingOptions(
  ctx: ServiceContext,
  options: { q?: string; after?: string | null; facilityId?: number | null; limit?: number } = {},
): Promise<OptionsPage<BuildingOption>> {
  const { q = "", facilityId = null } = options;
  const limit = Math.min(Math.max(1, options.limit ?? BUILDING_OPTIONS_PAGE), MAX_PAGE_SIZE);
  const after = decodeCursor(options.after);
  return readBuildingOptions(ctx, { q, after, facilityId, limit });
}

async function readBuildingOptions(
  ctx: ServiceContext,
  { q, after, facilityId, limit }: { q: string; after: ReturnType<typeof decodeCursor>; facilityId: number | null; limit: number },
): Promise<OptionsPage<BuildingOption>> {
  const rows = await ctx.db
    .select({
      id: buildings.id,
      name: buildings.name,
      facilityId: buildings.facilityId,
      facilityName: facilities.name,
      key: sql<string>`lower(${buildings.name})`,
    })
    .from(buildings)
    .innerJoin(facilities, eq(facilities.id, buildings.facilityId))
    .where(
      and(
        eq(buildings.entityId, ctx.entityId),
        isNull(buildings.archivedAt),
        treeScope(ctx, "building"),
        facilityId ? eq(buildings.facilityId, facilityId) : undefined,
        q ? nameLike(buildings.name, q) : undefined,
        after ? sql`(lower(${buildings.name}), ${buildings.id}) > (${after[0]}, ${after[1]}::int)` : undefined,
      ),
    )
    .orderBy(sql`lower(${buildings.name})`, asc(buildings.id))
    .limit(limit + 1);
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  return {
    options: page.map(({ key: _key, ...option }) => option),
    next: rows.length > limit && last ? encodeCursor([last.key, last.id]) : null,
  };
}

/** The building a picker shows as chosen: active, of the entity, within reach; null otherwise. */
export async function getBuildingOption(ctx: ServiceContext, id: number | null): Promise<BuildingOption | null> {
  if (!id) return null;
  const [row] = await ctx.db
    .select({ id: buildings.id, name: buildings.name, facilityId: buildings.facilityId, facilityName: facilities.name })
    .from(buildings)
    .innerJoin(facilities, eq(facilities.id, buildings.facilityId))
    .where(and(eq(buildings.id, id), eq(buildings.entityId, ctx.entityId), isNull(buildings.archivedAt), treeScope(ctx, "building")))
    .limit(1);
  return row ?? null;
}

/** The named buildings of `ids` a picker shows as chosen (active, of the entity, within reach), by name. */
export async function getBuildingOptions(ctx: ServiceContext, ids: number[]): Promise<BuildingOption[]> {
  const wanted = [...new Set(ids.filter((id) => Number.isSafeInteger(id) && id > 0))].slice(0, 1000);
  if (wanted.length === 0) return [];
  return ctx.db
    .select({ id: buildings.id, name: buildings.name, facilityId: buildings.facilityId, facilityName: facilities.name })
    .from(buildings)
    .innerJoin(facilities, eq(facilities.id, buildings.facilityId))
    .where(and(inArray(buildings.id, wanted), eq(buildings.entityId, ctx.entityId), isNull(buildings.archivedAt), treeScope(ctx, "building")))
    .orderBy(sql`lower(${buildings.name})`, asc(buildings.id));
}

// ---------------------------------------------------------------------------
// The facility and building views (/view-facility/{id}, /view-building/{id})
// ---------------------------------------------------------------------------
/** Up to this many buildings, rooms and active incidents are listed on a view (the counts are shown whole). */
export const VIEW_LIST_LIMIT = 200;
export const VIEW_INCIDENTS_SHOWN = 50;

/** An active incident as a view lists it. */
export interface ActiveIncidentView {
  id: number;
  shortId: number;
  title: string;
  status: IncidentStatus;
  priority: IncidentPriority;
  createdAt: string;
}

/** An active incident of a facility or building view: with its room. */
export interface PlaceIncidentView extends ActiveIncidentView {
  roomId: number;
  roomName: string;
}

export interface FacilityView extends FacilityRow {
  buildings: { id: number; shortId: number; name: string; city: string | null; countRooms: number; activeIncidents: number }[];
  activeIncidentList: PlaceIncidentView[];
}

export interface BuildingView extends BuildingRow {
  rooms: { id: number; shortId: number; name: string; floor: string; activeIncidents: number }[];
  activeIncidentList: PlaceIncidentView[];
}

/**
 * The active (pending or in progress) incidents in the rooms the actor reaches that `inRooms` selects (a
 * condition on `rooms` or `buildings`: one room, a building's rooms, a facility's), newest first: the
 * lists of the room, building and facility views.
 */
export async function activeIncidentsIn(ctx: ServiceContext, inRooms: SQL | undefined): Promise<PlaceIncidentView[]> {
  const rows = await ctx.db
    .select({
      id: incidents.id,
      shortId: incidents.shortId,
      title: incidents.title,
      status: incidents.status,
      priority: incidents.priority,
      roomId: rooms.id,
      roomName: rooms.name,
      createdAt: incidents.createdAt,
    })
    .from(incidents)
    .innerJoin(rooms, eq(rooms.id, incidents.roomId))
    .innerJoin(buildings, eq(buildings.id, rooms.buildingId))
    .where(
      and(
        eq(incidents.entityId, ctx.entityId),
        isNull(incidents.archivedAt),
        inArray(incidents.status, [IncidentStatus.PENDING, IncidentStatus.IN_PROGRESS]),
        isNull(rooms.archivedAt),
        treeScope(ctx, "room"),
        inRooms,
      ),
    )
    .orderBy(desc(incidents.createdAt), desc(incidents.id))
    .limit(VIEW_INCIDENTS_SHOWN);
  return rows.map((r) => ({ ...r, createdAt: r.createdAt.toISOString() }));
}

/**
 * The facility view (/view-facility/{id}) for any signed-in user who reads places: the facility, its
 * buildings and its active incidents, as far as the actor reaches (a facility shown to them because they
 * reach one of its buildings lists only that building). Another entity's facility, an archived one or one
 * outside the actor's reach: NotFound.
 */
export async function viewFacility(ctx: ServiceContext, id: number): Promise<FacilityView> {
  if (!can(ctx.actor, "read", "place")) throw facilityNotFound();
  const facility = await getFacility(ctx, id);
  const [list, active] = await Promise.all([
    ctx.db
      .select({ id: buildings.id, shortId: buildings.shortId, name: buildings.name, city: buildings.city, countRooms: buildings.roomCount, activeIncidents: buildings.activeIncidentCount })
      .from(buildings)
      .where(and(eq(buildings.entityId, ctx.entityId), eq(buildings.facilityId, id), isNull(buildings.archivedAt), treeScope(ctx, "building")))
      .orderBy(asc(sql`lower(${buildings.name})`), asc(buildings.id))
      .limit(VIEW_LIST_LIMIT),
    activeIncidentsIn(ctx, and(eq(buildings.facilityId, id), isNull(buildings.archivedAt))),
  ]);
  return { ...facility, buildings: list, activeIncidentList: active };
}

/**
 * The building view (/view-building/{id}) for any signed-in user who reads places: the building, its
 * rooms and its active incidents. Another entity's building, an archived one or one outside the actor's
 * reach: NotFound.
 */
export async function viewBuilding(ctx: ServiceContext, id: number): Promise<BuildingView> {
  if (!can(ctx.actor, "read", "place")) throw buildingNotFound();
  const building = await getBuilding(ctx, id);
  const [list, active] = await Promise.all([
    ctx.db
      .select({ id: rooms.id, shortId: rooms.shortId, name: rooms.name, floor: rooms.floor, activeIncidents: rooms.activeIncidentCount })
      .from(rooms)
      .where(and(eq(rooms.entityId, ctx.entityId), eq(rooms.buildingId, id), isNull(rooms.archivedAt)))
      .orderBy(asc(sql`lower(${rooms.name})`), asc(rooms.id))
      .limit(VIEW_LIST_LIMIT),
    activeIncidentsIn(ctx, eq(rooms.buildingId, id)),
  ]);
  return { ...building, rooms: list, activeIncidentList: active };
}
