import { and, asc, count, desc, eq, ilike, inArray, isNull, sql } from "drizzle-orm";
import type { IncidentPriority, IncidentStatus, RoomLinkType } from "~/db/enums";
import {
  buildings,
  equipmentCategories,
  equipmentItems,
  equipmentTypes,
  facilities,
  incidents,
  incidentTypeRooms,
  incidentTypes,
  reportIdentifiers,
  roomFiles,
  roomLinks,
  rooms,
  roomTypes,
  storedFiles,
} from "~/db/schema";
import type { ServiceContext } from "~/core/context.server";
import { ForbiddenError, NotFoundError } from "~/lib/errors";
import { assertCanManageFacilities, canViewRoom, treeScope } from "~/modules/facilities/policy.server";
import { likePattern, type ListQuery, type Page } from "~/lib/list-query";
import { readPage } from "~/lib/list-page.server";
import { ACTIVE, withActiveIncidents } from "~/modules/facilities/queries.server";
import { fileUrl } from "~/modules/files/uploads.server";
import { incidentTypeName } from "~/modules/incident-types/queries.server";

/**
 * Reads of rooms and room types for the list screens, the forms, the room view and the REST answers.
 * Filtered by the entity; archived rows are invisible; counts computed in the query for the page.
 */
export const roomNotFound = () => new NotFoundError("rooms:errors.roomNotFound", "ROOM_NOT_FOUND");
export const roomTypeNotFound = () => new NotFoundError("rooms:errors.roomTypeNotFound", "ROOM_TYPE_NOT_FOUND");

// ---------------------------------------------------------------------------
// Room types
// ---------------------------------------------------------------------------
export const ROOM_TYPE_SORTS = ["name", "linkedRoomsCount"] as const;
export type RoomTypeSort = (typeof ROOM_TYPE_SORTS)[number];

export interface RoomTypeRow {
  id: number;
  roomTypeName: string;
  tags: string[];
  linkedRoomsCount: number;
  roomTypeRatingMessages: { language: number; message: string }[];
}

function roomTypeSelection() {
  const linkedRoomsCount = sql<number>`(select count(*)::int from rooms r
    where r.room_type_id = "room_types"."id" and r.archived_at is null)`;
  return {
    linkedRoomsCount,
    fields: {
      id: roomTypes.id,
      roomTypeName: roomTypes.name,
      tags: roomTypes.tags,
      linkedRoomsCount,
      roomTypeRatingMessages: roomTypes.ratingMessages,
    },
  };
}

export async function listRoomTypes(ctx: ServiceContext, query: ListQuery<RoomTypeSort>): Promise<Page<RoomTypeRow>> {
  const where = and(
    eq(roomTypes.entityId, ctx.entityId),
    isNull(roomTypes.archivedAt),
    query.q ? ilike(roomTypes.name, likePattern(query.q)) : undefined,
  );
  const { fields, linkedRoomsCount } = roomTypeSelection();
  const column = { name: sql`lower(${roomTypes.name})`, linkedRoomsCount }[query.sort];
  return readPage(
    query,
    ctx.db
      .select(fields)
      .from(roomTypes)
      .where(where)
      .orderBy(query.dir === "desc" ? desc(column) : asc(column), asc(roomTypes.id))
      .$dynamic(),
    ctx.db.select({ n: count() }).from(roomTypes).where(where),
  );
}

export async function getRoomType(ctx: ServiceContext, id: number): Promise<RoomTypeRow & { incidentTypesCount: number }> {
  const [row] = await ctx.db
    .select({
      ...roomTypeSelection().fields,
      incidentTypesCount: sql<number>`(select count(*)::int from incident_type_room_types l
        join incident_types it on it.id = l.incident_type_id
        where l.room_type_id = "room_types"."id" and it.archived_at is null)`,
    })
    .from(roomTypes)
    .where(and(eq(roomTypes.id, id), eq(roomTypes.entityId, ctx.entityId), isNull(roomTypes.archivedAt)))
    .limit(1);
  if (!row) throw roomTypeNotFound();
  return row;
}

/** The read model of the room type form (/update-room-type/{id}): managers and administrators only. */
export async function getRoomTypeForEdit(ctx: ServiceContext, id: number): Promise<RoomTypeRow & { incidentTypesCount: number }> {
  assertCanManageFacilities(ctx);
  return getRoomType(ctx, id);
}

export async function listRoomTypeOptions(ctx: ServiceContext): Promise<{ id: number; name: string }[]> {
  return ctx.db
    .select({ id: roomTypes.id, name: roomTypes.name })
    .from(roomTypes)
    .where(and(eq(roomTypes.entityId, ctx.entityId), isNull(roomTypes.archivedAt)))
    .orderBy(asc(sql`lower(${roomTypes.name})`), asc(roomTypes.id));
}

// ---------------------------------------------------------------------------
// Rooms
// ---------------------------------------------------------------------------
export const ROOM_SORTS = ["name", "shortId", "floor", "buildingName", "facilityName", "roomTypeName"] as const;
export type RoomSort = (typeof ROOM_SORTS)[number];

export interface RoomRow {
  id: number;
  shortId: number;
  name: string;
  description: string | null;
  floor: string;
  buildingId: number;
  buildingName: string;
  facilityId: number;
  facilityName: string;
  roomTypeId: number;
  roomTypeName: string;
  activeEquipmentCount: number;
  activeIncidents: number;
  status: number;
}

function roomSelection() {
  return {
    id: rooms.id,
    shortId: rooms.shortId,
    name: rooms.name,
    description: rooms.description,
    floor: rooms.floor,
    buildingId: rooms.buildingId,
    buildingName: buildings.name,
    facilityId: buildings.facilityId,
    facilityName: facilities.name,
    roomTypeId: rooms.roomTypeId,
    roomTypeName: roomTypes.name,
    status: sql<number>`${ACTIVE}::int`,
  };
}

/**
 * Adds the counts of section 3 (active equipment items, active incidents) to rooms of a page, each by
 * one grouped query over the page's ids.
 */
async function withRoomCounts<T extends { id: number }>(ctx: ServiceContext, rows: T[]) {
  const ids = rows.map((r) => r.id);
  const equipment = ids.length
    ? await ctx.db
        .select({ roomId: equipmentItems.roomId, n: count() })
        .from(equipmentItems)
        .where(and(eq(equipmentItems.entityId, ctx.entityId), isNull(equipmentItems.archivedAt), inArray(equipmentItems.roomId, ids)))
        .groupBy(equipmentItems.roomId)
    : [];
  const equipmentCounts = new Map(equipment.map((e) => [e.roomId, e.n]));
  const withIncidents = await withActiveIncidents(ctx, "room", rows);
  return withIncidents.map((r) => ({ ...r, activeEquipmentCount: equipmentCounts.get(r.id) ?? 0 }));
}

export interface RoomFilter {
  /** Only rooms of these buildings (`null`: every building). */
  buildingIds?: number[] | null;
  facilityId?: number | null;
  roomTypeId?: number | null;
}

export async function listRooms(ctx: ServiceContext, query: ListQuery<RoomSort>, filter: RoomFilter = {}): Promise<Page<RoomRow>> {
  const { buildingIds = null, facilityId = null, roomTypeId = null } = filter;
  const where = and(
    eq(rooms.entityId, ctx.entityId),
    isNull(rooms.archivedAt),
    treeScope(ctx, "room"),
    buildingIds ? (buildingIds.length ? inArray(rooms.buildingId, buildingIds) : sql`false`) : undefined,
    facilityId ? eq(buildings.facilityId, facilityId) : undefined,
    roomTypeId ? eq(rooms.roomTypeId, roomTypeId) : undefined,
    query.q ? ilike(rooms.name, likePattern(query.q)) : undefined,
  );
  const column = {
    name: sql`lower(${rooms.name})`,
    shortId: rooms.shortId,
    floor: sql`lower(${rooms.floor})`,
    buildingName: sql`lower(${buildings.name})`,
    facilityName: sql`lower(${facilities.name})`,
    roomTypeName: sql`lower(${roomTypes.name})`,
  }[query.sort];
  const rows = ctx.db
    .select(roomSelection())
    .from(rooms)
    .innerJoin(buildings, eq(buildings.id, rooms.buildingId))
    .innerJoin(facilities, eq(facilities.id, buildings.facilityId))
    .innerJoin(roomTypes, eq(roomTypes.id, rooms.roomTypeId))
    .where(where)
    .orderBy(query.dir === "desc" ? desc(column) : asc(column), asc(rooms.id))
    .$dynamic();
  const total = facilityId
    ? ctx.db.select({ n: count() }).from(rooms).innerJoin(buildings, eq(buildings.id, rooms.buildingId)).where(where)
    : ctx.db.select({ n: count() }).from(rooms).where(where);
  const page = await readPage(query, rows, total);
  return { ...page, items: await withRoomCounts(ctx, page.items) };
}

export interface RoomLinkView {
  type: RoomLinkType;
  url: string;
}
export interface AttachedFile {
  id: string;
  name: string;
  mimeType: string;
  sizeBytes: number;
  url: string;
  isImage: boolean;
}
export interface RoomEquipmentView {
  id: number;
  internalReference: string | null;
  equipmentTypeId: number;
  equipmentName: string;
  categoryName: string;
  reportIdentifier: string | null;
}
export interface ActiveIncidentView {
  id: number;
  shortId: number;
  title: string;
  status: IncidentStatus;
  priority: IncidentPriority;
  createdAt: string;
}
export interface RoomDetail extends RoomRow {
  links: RoomLinkView[];
  files: AttachedFile[];
  incidentTypes: { id: number; name: string }[];
  equipments: RoomEquipmentView[];
  reportIdentifier: string | null;
  activeIncidentList: ActiveIncidentView[];
}

const ACTIVE_INCIDENTS_SHOWN = 50;

export function toAttachedFile(f: { id: string; name: string; mimeType: string; sizeBytes: number }): AttachedFile {
  return { ...f, url: fileUrl(f.id) ?? "", isImage: f.mimeType.startsWith("image/") };
}

/**
 * One room with everything the room view and the update form show, within the actor's reach: a room
 * outside a technician's linked facilities and buildings is not found, like another entity's.
 */
export async function getRoom(ctx: ServiceContext, id: number): Promise<RoomDetail> {
  const [row] = await ctx.db
    .select(roomSelection())
    .from(rooms)
    .innerJoin(buildings, eq(buildings.id, rooms.buildingId))
    .innerJoin(facilities, eq(facilities.id, buildings.facilityId))
    .innerJoin(roomTypes, eq(roomTypes.id, rooms.roomTypeId))
    .where(and(eq(rooms.id, id), eq(rooms.entityId, ctx.entityId), isNull(rooms.archivedAt), treeScope(ctx, "room")))
    .limit(1);
  if (!row) throw roomNotFound();
  const [counted] = await withRoomCounts(ctx, [row]);
  const name = incidentTypeName(ctx.locale);
  const [links, files, types, equipments, identifier, active] = await Promise.all([
    ctx.db
      .select({ type: roomLinks.type, url: roomLinks.url })
      .from(roomLinks)
      .where(and(eq(roomLinks.roomId, id), eq(roomLinks.entityId, ctx.entityId)))
      .orderBy(asc(roomLinks.position), asc(roomLinks.id)),
    ctx.db
      .select({ id: storedFiles.id, name: storedFiles.originalName, mimeType: storedFiles.mimeType, sizeBytes: storedFiles.sizeBytes })
      .from(roomFiles)
      .innerJoin(storedFiles, eq(storedFiles.id, roomFiles.fileId))
      .where(and(eq(roomFiles.roomId, id), eq(roomFiles.entityId, ctx.entityId), isNull(storedFiles.deletedAt)))
      .orderBy(asc(roomFiles.createdAt), asc(storedFiles.originalName)),
    ctx.db
      .select({ id: incidentTypes.id, name })
      .from(incidentTypeRooms)
      .innerJoin(incidentTypes, eq(incidentTypes.id, incidentTypeRooms.incidentTypeId))
      .where(and(eq(incidentTypeRooms.roomId, id), eq(incidentTypeRooms.entityId, ctx.entityId), isNull(incidentTypes.archivedAt)))
      .orderBy(asc(sql`lower(${name})`)),
    ctx.db
      .select({
        id: equipmentItems.id,
        internalReference: equipmentItems.internalReference,
        equipmentTypeId: equipmentItems.equipmentTypeId,
        equipmentName: equipmentTypes.name,
        categoryName: equipmentCategories.name,
        reportIdentifier: reportIdentifiers.code,
      })
      .from(equipmentItems)
      .innerJoin(equipmentTypes, eq(equipmentTypes.id, equipmentItems.equipmentTypeId))
      .innerJoin(equipmentCategories, eq(equipmentCategories.id, equipmentTypes.categoryId))
      .leftJoin(
        reportIdentifiers,
        and(eq(reportIdentifiers.equipmentItemId, equipmentItems.id), isNull(reportIdentifiers.archivedAt)),
      )
      .where(and(eq(equipmentItems.roomId, id), eq(equipmentItems.entityId, ctx.entityId), isNull(equipmentItems.archivedAt)))
      .orderBy(asc(sql`lower(${equipmentTypes.name})`), asc(equipmentItems.id)),
    ctx.db
      .select({ code: reportIdentifiers.code })
      .from(reportIdentifiers)
      .where(and(eq(reportIdentifiers.roomId, id), eq(reportIdentifiers.entityId, ctx.entityId), isNull(reportIdentifiers.archivedAt)))
      .limit(1),
    ctx.db
      .select({
        id: incidents.id,
        shortId: incidents.shortId,
        title: incidents.title,
        status: incidents.status,
        priority: incidents.priority,
        createdAt: incidents.createdAt,
      })
      .from(incidents)
      .where(
        and(
          eq(incidents.entityId, ctx.entityId),
          eq(incidents.roomId, id),
          isNull(incidents.archivedAt),
          inArray(incidents.status, [0, 1]),
        ),
      )
      .orderBy(desc(incidents.createdAt))
      .limit(ACTIVE_INCIDENTS_SHOWN),
  ]);
  return {
    ...counted,
    links,
    files: files.map(toAttachedFile),
    incidentTypes: types,
    equipments,
    reportIdentifier: identifier[0]?.code ?? null,
    activeIncidentList: active.map((i) => ({ ...i, createdAt: i.createdAt.toISOString() })),
  };
}

/** The read model of the room form (/update-room/{id}): managers and administrators only. */
export async function getRoomForEdit(ctx: ServiceContext, id: number): Promise<RoomDetail> {
  assertCanManageFacilities(ctx);
  return getRoom(ctx, id);
}

/** Where a room sits, for the view permission check (NotFound for another entity or an archived room). */
export async function getRoomPlace(ctx: ServiceContext, id: number): Promise<{ facilityId: number; buildingId: number }> {
  const [row] = await ctx.db
    .select({ facilityId: buildings.facilityId, buildingId: rooms.buildingId })
    .from(rooms)
    .innerJoin(buildings, eq(buildings.id, rooms.buildingId))
    .where(and(eq(rooms.id, id), eq(rooms.entityId, ctx.entityId), isNull(rooms.archivedAt)))
    .limit(1);
  if (!row) throw roomNotFound();
  return row;
}

/**
 * The room view (/view-room/{id}) for any signed-in user: managers and administrators see every room
 * of their entity, technicians only rooms in the facilities or buildings they are linked to.
 */
export async function viewRoom(ctx: ServiceContext, id: number): Promise<RoomDetail> {
  const place = await getRoomPlace(ctx, id);
  if (!(await canViewRoom(ctx, place))) throw new ForbiddenError("rooms:errors.roomForbidden");
  return getRoom(ctx, id);
}
