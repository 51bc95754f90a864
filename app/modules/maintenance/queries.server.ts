import { and, asc, count, desc, eq, exists, inArray, isNull, ne, or, type SQL, sql } from "drizzle-orm";
import { assertCan, systemActor } from "~/core/actor";
import type { ServiceContext } from "~/core/context.server";
import { TimeMeasure, UserStatus } from "~/db/enums";
import { buildings, equipmentItems, equipmentTypes, facilities, maintenanceTypeAssignees, maintenanceTypeEquipmentItems, maintenanceTypeRooms, maintenanceTypes, plannedMaintenanceAssignees, plannedMaintenanceEquipmentItems, plannedMaintenanceLocations, plannedMaintenanceRooms, plannedMaintenances, rooms, users } from "~/db/schema";
import { subquery } from "~/db/subquery";
import type { MaintenanceType } from "~/db/schema";
import { fieldColumns } from "~/core/fields.server";
import type { FieldKey } from "~/lib/fields";
import { MAINTENANCE_TYPE_FIELDS } from "./schema";
import { now } from "~/lib/clock.server";
import { addDays, dayIn } from "~/lib/dates";
import { NotFoundError } from "~/lib/errors";
import { nameLike, readPage } from "~/lib/list-page.server";
import type { ListQuery, Page } from "~/lib/list-query";
import { isEntityWide, treeScope } from "~/modules/facilities/policy.server";
import { itemsWithPlace } from "~/modules/equipment/item-queries.server";

/**
 * Reads of maintenance types and planned maintenance (SPEC.md sections 2, 3 and 8) for the screens and
 * the REST calls. Managers and administrators read every type of their entity; managers read the plans
 * with a location in their reach (`planReach`); the locations a type or plan names are shown within the
 * reader's reach only (decision 049).
 */

export const maintenanceTypeNotFound = () => new NotFoundError("maintenance:errors.typeNotFound", "MAINTENANCE_TYPE_NOT_FOUND");
export const plannedMaintenanceNotFound = () => new NotFoundError("maintenance:errors.planNotFound", "PLANNED_MAINTENANCE_NOT_FOUND");

export const MAINTENANCE_TYPE_SORTS = ["name", "occurrence"] as const;
export type MaintenanceTypeSort = (typeof MAINTENANCE_TYPE_SORTS)[number];
export const PLANNED_MAINTENANCE_SORTS = ["name", "type", "startDate", "endDate"] as const;
export type PlannedMaintenanceSort = (typeof PLANNED_MAINTENANCE_SORTS)[number];

export interface Person {
  id: number;
  name: string;
  surname: string;
}

export interface RoomRef {
  id: number;
  name: string;
  buildingName: string;
  facilityName: string;
}

export interface EquipmentItemRef {
  id: number;
  name: string;
  internalReference: string | null;
  roomId: number;
  roomName: string;
  buildingName: string;
}

export interface MaintenanceTypeRow {
  id: number;
  name: string;
  tags: string[];
  occurrenceUnit: TimeMeasure;
  occurrenceInterval: number | null;
  /** Minutes one maintenance of the type takes, or null. */
  estimatedDuration: number | null;
  /** Active planned maintenances of the type. */
  plansCount: number;
}

/** A type's declared fields (schema.ts) as its table stores them. */
export type MaintenanceTypeFields = Pick<MaintenanceType, FieldKey<typeof MAINTENANCE_TYPE_FIELDS>>;

export interface MaintenanceTypeDetail extends MaintenanceTypeRow, MaintenanceTypeFields {
  assignees: Person[];
  rooms: RoomRef[];
  equipmentItems: EquipmentItemRef[];
}

export interface PlannedMaintenanceRow {
  id: number;
  name: string;
  maintenanceTypeId: number;
  maintenanceTypeName: string;
  startDate: string;
  endDate: string;
  /** 'HH:MM', or null (any time that day). */
  timeOfDay: string | null;
  occurrenceUnit: TimeMeasure;
  occurrenceInterval: number | null;
  assignees: Person[];
}

export interface PlannedMaintenanceDetail extends PlannedMaintenanceRow {
  instructions: string;
  facilities: { id: number; name: string }[];
  buildings: { id: number; name: string; facilityName: string }[];
  rooms: RoomRef[];
  equipmentItems: EquipmentItemRef[];
  /** Locations of the plan outside the reader's reach: kept by an update, never shown. */
  hiddenLocations: number;
}

/** The type's active plans, counted in a subquery that keeps the type's columns its own (see `subquery`). */
const plansOfType = sql<number>`${subquery
  .select({ n: sql`count(*)::int` })
  .from(plannedMaintenances)
  .where(
    and(
      eq(plannedMaintenances.maintenanceTypeId, maintenanceTypes.id),
      eq(plannedMaintenances.entityId, maintenanceTypes.entityId),
      isNull(plannedMaintenances.archivedAt),
    ),
  )}`;

const typeFields = {
  id: maintenanceTypes.id,
  name: maintenanceTypes.name,
  estimatedDuration: maintenanceTypes.estimatedDuration,
  tags: maintenanceTypes.tags,
  occurrenceUnit: maintenanceTypes.occurrenceUnit,
  occurrenceInterval: maintenanceTypes.occurrenceInterval,
  plansCount: plansOfType,
};

/** An occurrence as one sortable number of days (once first). */
const occurrenceDays = (unit: SQL | typeof maintenanceTypes.occurrenceUnit, interval: SQL | typeof maintenanceTypes.occurrenceInterval) =>
  sql`coalesce(${interval}, 0) * (case ${unit} when 1 then 1 when 2 then 7 when 3 then 30 when 4 then 365 else 0 end)`;

/** The maintenance types of the entity (/maintenances?tab=types, GET /api/maintenances/types): search on the name or a tag, sorted and paged. */
export async function listMaintenanceTypes(ctx: ServiceContext, query: ListQuery<MaintenanceTypeSort>): Promise<Page<MaintenanceTypeRow>> {
  assertCan(ctx.actor, "read", "maintenance");
  const q = query.q;
  const where = and(
    eq(maintenanceTypes.entityId, ctx.entityId),
    isNull(maintenanceTypes.archivedAt),
    q ? sql`(${nameLike(maintenanceTypes.name, q)} or exists (select 1 from unnest(${maintenanceTypes.tags}) t where ${nameLike(sql`t`, q)}))` : undefined,
  );
  const by = query.dir === "desc" ? desc : asc;
  const order = query.sort === "occurrence" ? [by(occurrenceDays(maintenanceTypes.occurrenceUnit, maintenanceTypes.occurrenceInterval)), asc(sql`lower(${maintenanceTypes.name})`)] : [by(sql`lower(${maintenanceTypes.name})`)];
  return readPage(
    query,
    ctx.db.select(typeFields).from(maintenanceTypes).where(where).orderBy(...order, asc(maintenanceTypes.id)).$dynamic(),
    ctx.db.select({ n: count() }).from(maintenanceTypes).where(where),
  ) as Promise<Page<MaintenanceTypeRow>>;
}

/** Active maintenance types of the entity by name (the plan form's select, the list's filter). */
export async function listMaintenanceTypeOptions(ctx: ServiceContext): Promise<{ id: number; name: string }[]> {
  assertCan(ctx.actor, "read", "maintenance");
  return ctx.db
    .select({ id: maintenanceTypes.id, name: maintenanceTypes.name })
    .from(maintenanceTypes)
    .where(and(eq(maintenanceTypes.entityId, ctx.entityId), isNull(maintenanceTypes.archivedAt)))
    .orderBy(asc(sql`lower(${maintenanceTypes.name})`), asc(maintenanceTypes.id));
}

async function roomRefs(ctx: ServiceContext, ids: number[]): Promise<RoomRef[]> {
  if (!ids.length) return [];
  return ctx.db
    .select({ id: rooms.id, name: rooms.name, buildingName: buildings.name, facilityName: facilities.name })
    .from(rooms)
    .innerJoin(buildings, eq(buildings.id, rooms.buildingId))
    .innerJoin(facilities, eq(facilities.id, buildings.facilityId))
    .where(and(eq(rooms.entityId, ctx.entityId), inArray(rooms.id, ids), isNull(rooms.archivedAt), treeScope(ctx, "room")))
    .orderBy(asc(sql`lower(${facilities.name})`), asc(sql`lower(${buildings.name})`), asc(sql`lower(${rooms.name})`), asc(rooms.id));
}

async function itemRefs(ctx: ServiceContext, ids: number[]): Promise<EquipmentItemRef[]> {
  if (!ids.length) return [];
  return itemsWithPlace(ctx, { id: equipmentItems.id, name: equipmentTypes.name, internalReference: equipmentItems.internalReference })
    .where(and(eq(equipmentItems.entityId, ctx.entityId), inArray(equipmentItems.id, ids), isNull(equipmentItems.archivedAt), isNull(rooms.archivedAt), treeScope(ctx, "equipmentItem")))
    .orderBy(asc(sql`lower(${rooms.name})`), asc(sql`lower(${equipmentTypes.name})`), asc(equipmentItems.id));
}

/** Named references to the given locations, within the reader's reach (the form's "selected" list). */
export async function locationRefs(ctx: ServiceContext, chosen: { facilityIds?: number[]; buildingIds?: number[]; roomIds?: number[]; equipmentItemIds?: number[] }) {
  const facilityIds = (chosen.facilityIds ?? []).slice(0, 1000);
  const buildingIds = (chosen.buildingIds ?? []).slice(0, 1000);
  const [facilityRows, buildingRows, roomRows, itemRows] = await Promise.all([
    facilityIds.length
      ? ctx.db
          .select({ id: facilities.id, name: facilities.name })
          .from(facilities)
          .where(and(eq(facilities.entityId, ctx.entityId), inArray(facilities.id, facilityIds), isNull(facilities.archivedAt), treeScope(ctx, "wholeFacility")))
          .orderBy(asc(sql`lower(${facilities.name})`))
      : [],
    buildingIds.length
      ? ctx.db
          .select({ id: buildings.id, name: buildings.name, facilityName: facilities.name })
          .from(buildings)
          .innerJoin(facilities, eq(facilities.id, buildings.facilityId))
          .where(and(eq(buildings.entityId, ctx.entityId), inArray(buildings.id, buildingIds), isNull(buildings.archivedAt), treeScope(ctx, "building")))
          .orderBy(asc(sql`lower(${buildings.name})`))
      : [],
    roomRefs(ctx, (chosen.roomIds ?? []).slice(0, 1000)),
    itemRefs(ctx, (chosen.equipmentItemIds ?? []).slice(0, 1000)),
  ]);
  return { facilities: facilityRows, buildings: buildingRows, rooms: roomRows, equipmentItems: itemRows };
}

/** The assignees (not archived) of the given types or plans, by owner id. */
async function peopleOf(ctx: ServiceContext, kind: "type" | "plan", ids: number[]): Promise<Map<number, Person[]>> {
  const map = new Map<number, Person[]>();
  if (!ids.length) return map;
  const link = kind === "type" ? maintenanceTypeAssignees : plannedMaintenanceAssignees;
  const owner = kind === "type" ? maintenanceTypeAssignees.maintenanceTypeId : plannedMaintenanceAssignees.plannedMaintenanceId;
  const rows = (await ctx.db
    .select({ owner, id: users.id, name: users.name, surname: users.surname })
    .from(link as typeof maintenanceTypeAssignees)
    .innerJoin(users, eq(users.id, link.userId))
    .where(and(eq(link.entityId, ctx.entityId), inArray(owner, ids), isNull(users.archivedAt)))
    .orderBy(asc(sql`lower(${users.surname})`), asc(sql`lower(${users.name})`), asc(users.id))) as { owner: number; id: number; name: string; surname: string }[];
  for (const { owner: key, ...person } of rows) map.set(key, [...(map.get(key) ?? []), person]);
  return map;
}

/** One maintenance type of the entity, not archived, with its defaults ("Maintenance type not found" otherwise). */
export async function getMaintenanceType(ctx: ServiceContext, id: number): Promise<MaintenanceTypeDetail> {
  assertCan(ctx.actor, "read", "maintenance");
  const [row] = await ctx.db
    .select({ ...typeFields, ...fieldColumns(maintenanceTypes, MAINTENANCE_TYPE_FIELDS) })
    .from(maintenanceTypes)
    .where(and(eq(maintenanceTypes.id, id), eq(maintenanceTypes.entityId, ctx.entityId), isNull(maintenanceTypes.archivedAt)))
    .limit(1);
  if (!row) throw maintenanceTypeNotFound();
  const e = ctx.entityId;
  const [people, roomIds, itemIds] = await Promise.all([
    peopleOf(ctx, "type", [id]),
    ctx.db.select({ id: maintenanceTypeRooms.roomId }).from(maintenanceTypeRooms).where(and(eq(maintenanceTypeRooms.entityId, e), eq(maintenanceTypeRooms.maintenanceTypeId, id))),
    ctx.db
      .select({ id: maintenanceTypeEquipmentItems.equipmentItemId })
      .from(maintenanceTypeEquipmentItems)
      .where(and(eq(maintenanceTypeEquipmentItems.entityId, e), eq(maintenanceTypeEquipmentItems.maintenanceTypeId, id))),
  ]);
  const [roomRows, itemRows] = await Promise.all([roomRefs(ctx, roomIds.map((r) => r.id)), itemRefs(ctx, itemIds.map((r) => r.id))]);
  return { ...row, assignees: people.get(id) ?? [], rooms: roomRows, equipmentItems: itemRows };
}

/**
 * What a new planned maintenance starts from (SPEC.md section 3: a type's values are its plans'
 * defaults): the type's name, occurrence, instructions, assignees, rooms and equipment items when
 * `typeId` names one of the entity's types (an unknown or archived one starts empty), from today to the
 * day before the same day a year later in the entity's time zone, monthly otherwise.
 */
export async function newPlannedMaintenanceValues(ctx: ServiceContext, typeId: number | null) {
  let type: MaintenanceTypeDetail | null = null;
  if (typeId) {
    try {
      type = await getMaintenanceType(ctx, typeId);
    } catch (error) {
      if (!(error instanceof NotFoundError)) throw error;
    }
  }
  const today = dayIn(now(), ctx.timeZone);
  const [year, month, day] = today.split("-").map(Number);
  const sameDayNextYear = new Date(Date.UTC(year + 1, month - 1, day)).toISOString().slice(0, 10);
  return {
    name: type?.name ?? "",
    maintenanceTypeId: type?.id ?? null,
    startDate: today,
    endDate: addDays(sameDayNextYear, -1),
    timeOfDay: null,
    occurrenceUnit: type?.occurrenceUnit ?? TimeMeasure.MONTH,
    occurrenceInterval: type ? type.occurrenceInterval : 1,
    instructions: type?.instructions ?? "",
    assigneeIds: type?.assignees.map((p) => p.id) ?? [],
    facilityIds: [] as number[],
    buildingIds: [] as number[],
    roomIds: type?.rooms.map((r) => r.id) ?? [],
    equipmentItemIds: type?.equipmentItems.map((i) => i.id) ?? [],
  };
}

const planFields = {
  id: plannedMaintenances.id,
  name: plannedMaintenances.name,
  maintenanceTypeId: plannedMaintenances.maintenanceTypeId,
  maintenanceTypeName: maintenanceTypes.name,
  startDate: plannedMaintenances.startDate,
  endDate: plannedMaintenances.endDate,
  timeOfDay: sql<string | null>`to_char(${plannedMaintenances.timeOfDay}, 'HH24:MI')`,
  occurrenceUnit: plannedMaintenances.occurrenceUnit,
  occurrenceInterval: plannedMaintenances.occurrenceInterval,
};

export interface PlannedMaintenanceFilters {
  maintenanceTypeId?: number | null;
  /** Plans with a location in this facility (the facility, a building, room or equipment item of it). */
  facilityId?: number | null;
  assigneeId?: number | null;
}

/** Plans whose selection touches facility `facilityId`. */
function inFacility(facilityId: number): SQL {
  // tenant-scope: scoped by the outer plan (of ctx.entityId): its own locations
  return sql`(exists (select 1 from planned_maintenance_locations l
      left join rooms lr on lr.id = l.room_id
      left join buildings b on b.id = coalesce(l.building_id, lr.building_id)
      where l.planned_maintenance_id = ${plannedMaintenances.id} and (l.facility_id = ${facilityId} or b.facility_id = ${facilityId}))
    or exists (select 1 from planned_maintenance_rooms pr join rooms r on r.id = pr.room_id join buildings b on b.id = r.building_id
      where pr.planned_maintenance_id = ${plannedMaintenances.id} and b.facility_id = ${facilityId})
    or exists (select 1 from planned_maintenance_equipment_items pe join equipment_items i on i.id = pe.equipment_item_id
      join rooms r on r.id = i.room_id join buildings b on b.id = r.building_id
      where pe.planned_maintenance_id = ${plannedMaintenances.id} and b.facility_id = ${facilityId}))`;
}

/**
 * The plans the reader reaches, as a condition on `planned_maintenances` (undefined: the whole entity):
 * facility managers see a plan when at least one of its locations (a facility, building, room or
 * equipment item it names) lies within their reach; a plan wholly outside it is not found, as another
 * entity's is (decision 049).
 */
export function planReach(ctx: ServiceContext): SQL | undefined {
  const facilityScope = treeScope(ctx, "facility");
  if (!facilityScope) return undefined;
  const e = ctx.entityId;
  const facilityIds = ctx.db.select({ id: facilities.id }).from(facilities).where(and(eq(facilities.entityId, e), facilityScope));
  const buildingIds = ctx.db.select({ id: buildings.id }).from(buildings).where(and(eq(buildings.entityId, e), treeScope(ctx, "building")));
  const roomIds = ctx.db.select({ id: rooms.id }).from(rooms).where(and(eq(rooms.entityId, e), treeScope(ctx, "room")));
  const itemIds = ctx.db.select({ id: equipmentItems.id }).from(equipmentItems).where(and(eq(equipmentItems.entityId, e), treeScope(ctx, "equipmentItem")));
  const l = plannedMaintenanceLocations;
  return or(
    exists(
      ctx.db
        .select({ one: sql`1` })
        .from(l)
        .where(and(eq(l.entityId, e), eq(l.plannedMaintenanceId, plannedMaintenances.id), or(inArray(l.facilityId, facilityIds), inArray(l.buildingId, buildingIds), inArray(l.roomId, roomIds)))),
    ),
    exists(
      ctx.db
        .select({ one: sql`1` })
        .from(plannedMaintenanceRooms)
        .where(and(eq(plannedMaintenanceRooms.entityId, e), eq(plannedMaintenanceRooms.plannedMaintenanceId, plannedMaintenances.id), inArray(plannedMaintenanceRooms.roomId, roomIds))),
    ),
    exists(
      ctx.db
        .select({ one: sql`1` })
        .from(plannedMaintenanceEquipmentItems)
        .where(
          and(
            eq(plannedMaintenanceEquipmentItems.entityId, e),
            eq(plannedMaintenanceEquipmentItems.plannedMaintenanceId, plannedMaintenances.id),
            inArray(plannedMaintenanceEquipmentItems.equipmentItemId, itemIds),
          ),
        ),
    ),
  );
}

/**
 * The planned maintenances of the entity (/maintenances, GET /api/maintenances/planned): search on the
 * name or the type's name; filters by type, facility and assignee; sorted and paged in SQL, the
 * assignees read for the page's rows only.
 */
export async function listPlannedMaintenances(
  ctx: ServiceContext,
  query: ListQuery<PlannedMaintenanceSort>,
  filters: PlannedMaintenanceFilters = {},
): Promise<Page<PlannedMaintenanceRow>> {
  assertCan(ctx.actor, "read", "maintenance");
  const q = query.q;
  const where = and(
    eq(plannedMaintenances.entityId, ctx.entityId),
    isNull(plannedMaintenances.archivedAt),
    planReach(ctx),
    filters.maintenanceTypeId ? eq(plannedMaintenances.maintenanceTypeId, filters.maintenanceTypeId) : undefined,
    filters.facilityId ? inFacility(filters.facilityId) : undefined,
    filters.assigneeId
      // tenant-scope: scoped by the outer plan (of ctx.entityId): its own assignees
      ? sql`exists (select 1 from planned_maintenance_assignees a where a.planned_maintenance_id = ${plannedMaintenances.id} and a.user_id = ${filters.assigneeId})`
      : undefined,
    q ? sql`(${nameLike(plannedMaintenances.name, q)} or ${nameLike(maintenanceTypes.name, q)})` : undefined,
  );
  const by = query.dir === "desc" ? desc : asc;
  const name = asc(sql`lower(${plannedMaintenances.name})`);
  const order = {
    name: [by(sql`lower(${plannedMaintenances.name})`)],
    type: [by(sql`lower(${maintenanceTypes.name})`), name],
    startDate: [by(plannedMaintenances.startDate), name],
    endDate: [by(plannedMaintenances.endDate), name],
  }[query.sort];
  const page = await readPage(
    query,
    ctx.db
      .select(planFields)
      .from(plannedMaintenances)
      .innerJoin(maintenanceTypes, eq(maintenanceTypes.id, plannedMaintenances.maintenanceTypeId))
      .where(where)
      .orderBy(...order, asc(plannedMaintenances.id))
      .$dynamic(),
    ctx.db
      .select({ n: count() })
      .from(plannedMaintenances)
      .innerJoin(maintenanceTypes, eq(maintenanceTypes.id, plannedMaintenances.maintenanceTypeId))
      .where(where),
  );
  const people = await peopleOf(ctx, "plan", page.items.map((p) => p.id));
  return { ...page, items: page.items.map((p) => ({ ...p, assignees: people.get(p.id) ?? [] })) };
}

/** One planned maintenance of the entity, not archived, with its selection within the reader's reach ("Planned maintenance not found" otherwise). */
export async function getPlannedMaintenance(ctx: ServiceContext, id: number): Promise<PlannedMaintenanceDetail> {
  assertCan(ctx.actor, "read", "maintenance");
  const [row] = await ctx.db
    .select({ ...planFields, instructions: plannedMaintenances.instructions })
    .from(plannedMaintenances)
    .innerJoin(maintenanceTypes, eq(maintenanceTypes.id, plannedMaintenances.maintenanceTypeId))
    .where(and(eq(plannedMaintenances.id, id), eq(plannedMaintenances.entityId, ctx.entityId), isNull(plannedMaintenances.archivedAt), planReach(ctx)))
    .limit(1);
  if (!row) throw plannedMaintenanceNotFound();
  const e = ctx.entityId;
  const [people, locations, roomIds, itemIds] = await Promise.all([
    peopleOf(ctx, "plan", [id]),
    ctx.db
      .select({ facilityId: plannedMaintenanceLocations.facilityId, buildingId: plannedMaintenanceLocations.buildingId, roomId: plannedMaintenanceLocations.roomId })
      .from(plannedMaintenanceLocations)
      .where(and(eq(plannedMaintenanceLocations.entityId, e), eq(plannedMaintenanceLocations.plannedMaintenanceId, id))),
    ctx.db.select({ id: plannedMaintenanceRooms.roomId }).from(plannedMaintenanceRooms).where(and(eq(plannedMaintenanceRooms.entityId, e), eq(plannedMaintenanceRooms.plannedMaintenanceId, id))),
    ctx.db
      .select({ id: plannedMaintenanceEquipmentItems.equipmentItemId })
      .from(plannedMaintenanceEquipmentItems)
      .where(and(eq(plannedMaintenanceEquipmentItems.entityId, e), eq(plannedMaintenanceEquipmentItems.plannedMaintenanceId, id))),
  ]);
  const chosen = {
    facilityIds: locations.flatMap((l) => (l.facilityId ? [l.facilityId] : [])),
    buildingIds: locations.flatMap((l) => (l.buildingId ? [l.buildingId] : [])),
    // A ROOM row of the location tree names a single room too (an update stores it in planned_maintenance_rooms).
    roomIds: [...new Set([...roomIds.map((r) => r.id), ...locations.flatMap((l) => (l.roomId ? [l.roomId] : []))])],
    equipmentItemIds: itemIds.map((r) => r.id),
  };
  const refs = await locationRefs(ctx, chosen);
  // What lies outside the reader's reach (archived places aside): read as the whole entity, then compared.
  const all = isEntityWide(ctx.actor) ? refs : await locationRefs({ ...ctx, actor: systemActor("maintenance-reach") }, chosen);
  const size = (r: typeof refs) => r.facilities.length + r.buildings.length + r.rooms.length + r.equipmentItems.length;
  return { ...row, assignees: people.get(id) ?? [], ...refs, hiddenLocations: size(all) - size(refs) };
}

/** The users who may do the work (of the entity, not archived nor disabled), by surname: the forms' assignee choices. */
export async function listAssigneeChoices(ctx: ServiceContext, limit = 500): Promise<Person[]> {
  assertCan(ctx.actor, "read", "maintenance");
  return ctx.db
    .select({ id: users.id, name: users.name, surname: users.surname })
    .from(users)
    .where(and(eq(users.entityId, ctx.entityId), isNull(users.archivedAt), ne(users.status, UserStatus.DISABLED)))
    .orderBy(asc(sql`lower(${users.surname})`), asc(sql`lower(${users.name})`), asc(users.id))
    .limit(limit);
}
