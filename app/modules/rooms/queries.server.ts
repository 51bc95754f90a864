import { and, asc, count, desc, eq, inArray, isNull, type SQL, sql } from "drizzle-orm";
import type { z } from "zod";
import { assertCan } from "~/core/actor";
import { fieldColumns } from "~/core/fields.server";
import type { RoomLinkType } from "~/db/enums";
import { buildings, equipmentCategories, equipmentItems, equipmentTypes, facilities, incidentTypeRooms, incidentTypeRoomTypes, incidentTypes, reportIdentifiers, roomFiles, roomLinks, rooms, roomTypes, storedFiles } from "~/db/schema";
import { subquery } from "~/db/subquery";
import { readAll, type ServiceContext } from "~/core/context.server";
import { ForbiddenError, NotFoundError } from "~/lib/errors";
import { canViewRoom, treeScope } from "~/modules/facilities/policy.server";
import { LIST_COUNT_CAP, type ListQuery, type Page, pageWindow } from "~/lib/list-query";
import { nameLike, readPage, rowsOf } from "~/lib/list-page.server";
import { ACTIVE, type ActiveIncidentView, activeIncidentsIn } from "~/modules/facilities/queries.server";
import { fileUrl } from "~/modules/files/uploads.server";
import { incidentTypeName } from "~/modules/incident-types/queries.server";
import { equipmentItemColumns, itemType, typeCategory } from "~/modules/equipment/columns.server";
import { ROOM_FIELDS, ROOM_TYPE_FIELDS, RoomFieldsSchema, RoomTypeFieldsSchema } from "./schema";

/**
 * Reads of rooms and room types for the list screens, the forms, the room view and the REST answers.
 * Filtered by the entity; archived rows are invisible; the counts are the counters the triggers keep
 * (modules/facilities/counters.server.ts).
 */
export const roomNotFound = () => new NotFoundError("rooms:errors.roomNotFound", "ROOM_NOT_FOUND");
export const roomTypeNotFound = () => new NotFoundError("rooms:errors.roomTypeNotFound", "ROOM_TYPE_NOT_FOUND");

// ---------------------------------------------------------------------------
// Room types
// ---------------------------------------------------------------------------
export const ROOM_TYPE_SORTS = ["name", "linkedRoomsCount"] as const;
export type RoomTypeSort = (typeof ROOM_TYPE_SORTS)[number];

/** A room type's declared fields kept as they are (schema.ts); its rating messages are read beside them. */
export type RoomTypeFields = z.output<typeof RoomTypeFieldsSchema>;

export interface RoomTypeRow extends RoomTypeFields {
  id: number;
  linkedRoomsCount: number;
  roomTypeRatingMessages: { language: number; message: string }[];
}

function roomTypeSelection() {
  return {
    linkedRoomsCount: roomTypes.roomCount,
    fields: {
      id: roomTypes.id,
      ...fieldColumns(roomTypes, ROOM_TYPE_FIELDS, RoomTypeFieldsSchema.shape),
      linkedRoomsCount: roomTypes.roomCount,
      roomTypeRatingMessages: roomTypes.ratingMessages,
    },
  };
}

export async function listRoomTypes(ctx: ServiceContext, query: ListQuery<RoomTypeSort>): Promise<Page<RoomTypeRow>> {
  const where = and(
    eq(roomTypes.entityId, ctx.entityId),
    isNull(roomTypes.archivedAt),
    query.q ? nameLike(roomTypes.name, query.q) : undefined,
  );
  const { fields, linkedRoomsCount } = roomTypeSelection();
  const column = { name: sql`lower(${roomTypes.name})`, linkedRoomsCount }[query.sort];
  const by = query.dir === "desc" ? desc : asc;
  return readPage(
    query,
    ctx.db
      .select(fields)
      .from(roomTypes)
      .where(where)
      .orderBy(by(column), asc(roomTypes.id))
      .$dynamic(),
    ctx.db.select({ n: count() }).from(roomTypes).where(where),
  );
}

export async function getRoomType(ctx: ServiceContext, id: number): Promise<RoomTypeRow & { incidentTypesCount: number }> {
  const [row] = await ctx.db
    .select({
      ...roomTypeSelection().fields,
      // tenant-scope: scoped by the outer room type (of ctx.entityId): the incident types linked to it
      incidentTypesCount: sql<number>`${subquery
        .select({ n: sql`count(*)::int` })
        .from(incidentTypeRoomTypes)
        .innerJoin(incidentTypes, eq(incidentTypes.id, incidentTypeRoomTypes.incidentTypeId))
        .where(and(eq(incidentTypeRoomTypes.roomTypeId, roomTypes.id), isNull(incidentTypes.archivedAt)))}`,
    })
    .from(roomTypes)
    .where(and(eq(roomTypes.id, id), eq(roomTypes.entityId, ctx.entityId), isNull(roomTypes.archivedAt)))
    .limit(1);
  if (!row) throw roomTypeNotFound();
  return row;
}

/** The read model of the room type form (/update-room-type/{id}): managers and administrators only. */
export async function getRoomTypeForEdit(ctx: ServiceContext, id: number): Promise<RoomTypeRow & { incidentTypesCount: number }> {
  assertCan(ctx.actor, "manage", "catalogue");
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

/** A room's declared fields (schema.ts), under the verb's keys (its building and type: `buildingId`, `roomTypeId`). */
export type RoomFields = z.output<typeof RoomFieldsSchema>;

export interface RoomRow extends RoomFields {
  id: number;
  shortId: number;
  buildingName: string;
  facilityId: number;
  facilityName: string;
  roomTypeName: string;
  activeEquipmentCount: number;
  activeIncidents: number;
  status: number;
}

function roomSelection() {
  return {
    id: rooms.id,
    shortId: rooms.shortId,
    ...fieldColumns(rooms, ROOM_FIELDS, RoomFieldsSchema.shape),
    buildingName: buildings.name,
    facilityId: buildings.facilityId,
    facilityName: facilities.name,
    roomTypeName: roomTypes.name,
    activeEquipmentCount: rooms.equipmentCount,
    activeIncidents: rooms.activeIncidentCount,
    status: sql<number>`${ACTIVE}::int`,
  };
}

export interface RoomFilter {
  /** Only rooms of these buildings (`null`: every building). */
  buildingIds?: number[] | null;
  facilityId?: number | null;
  roomTypeId?: number | null;
}

/**
 * The rooms list (decision 017), in two steps: the ids of the page, then the page's rows with their
 * place (25 rows joined by primary key). Counts are the rooms' counters.
 *
 * - Sorted by a column of the room (name, short id, floor): the ids come from a covering index
 *   (`rooms_list_*_idx`, an index-only scan), so the rows an OFFSET skips are index entries, never
 *   table rows or joins.
 * - Sorted by a parent's name (building, facility, room type): the parents are walked in order
 *   (hundreds of rows) and each one's rooms are taken in name order from `rooms_list_building_idx` /
 *   `rooms_list_room_type_idx`; ties go by room name, then id, in the list's direction. Without a search
 *   or a room type filter the parents' room counters tell which ones the page starts in, so a deep page
 *   costs what the first one does.
 * - The total comes from the buildings' room counters, except when a search or a room type narrows the
 *   list: then it is counted up to LIST_COUNT_CAP, and pages stop there.
 */
export async function listRooms(ctx: ServiceContext, query: ListQuery<RoomSort>, filter: RoomFilter = {}): Promise<Page<RoomRow>> {
  const { buildingIds = null, facilityId = null, roomTypeId = null } = filter;
  const e = ctx.entityId;
  const { limit, offset } = pageWindow(query);
  const dir = sql.raw(query.dir === "desc" ? "desc" : "asc");
  const page = { page: query.page, size: limit };
  if (buildingIds && buildingIds.length === 0) return { items: [], total: 0, ...page };

  // What narrows the list at the building level (reach, building and facility filters), as conditions
  // on `buildings` and on `rooms`; and at the room level (search, room type).
  const onBuildings = and(
    eq(buildings.entityId, e),
    isNull(buildings.archivedAt),
    treeScope(ctx, "building"),
    buildingIds ? inArray(buildings.id, buildingIds) : undefined,
    facilityId ? eq(buildings.facilityId, facilityId) : undefined,
  )!;
  const buildingLevel = Boolean(treeScope(ctx, "room") || buildingIds || facilityId);
  const placeOfRoom = and(
    treeScope(ctx, "room"),
    buildingIds ? inArray(rooms.buildingId, buildingIds) : undefined,
    facilityId
      ? sql`${rooms.buildingId} in (select fb.id from buildings fb where fb.entity_id = ${e} and fb.facility_id = ${facilityId})`
      : undefined,
  );
  const roomLevel = and(
    roomTypeId ? eq(rooms.roomTypeId, roomTypeId) : undefined,
    query.q ? nameLike(rooms.name, query.q) : undefined,
  );
  const narrowed = Boolean(roomTypeId || query.q);
  const ownRoom = and(eq(rooms.entityId, e), isNull(rooms.archivedAt));

  // The total (the buildings' counters, or a capped count) and the page's ids, in one statement.
  const totalSql = narrowed
    ? sql`select count(*)::int from (select 1 from ${rooms} where ${and(ownRoom, placeOfRoom, roomLevel)} limit ${LIST_COUNT_CAP + 1}) as c`
    : sql`select coalesce(sum(${buildings.roomCount}), 0)::int from ${buildings} where ${onBuildings}`;
  // A narrowed list serves pages within its first LIST_COUNT_CAP rows only.
  const window = narrowed ? Math.min(limit, LIST_COUNT_CAP - offset) : limit;

  let idsSql: SQL | null = null;
  if (window <= 0) {
    idsSql = null;
  } else if (query.sort === "name" || query.sort === "shortId" || query.sort === "floor") {
    const key = { name: sql`lower(${rooms.name})`, shortId: sql`${rooms.shortId}`, floor: sql`lower(${rooms.floor})` }[query.sort];
    idsSql = sql`
      select ${rooms.id} from ${rooms} where ${and(ownRoom, placeOfRoom, roomLevel)}
      order by ${key} ${dir}, ${rooms.id} ${dir} offset ${offset} limit ${window}`;
  } else if (query.sort === "roomTypeName") {
    // Room types in name order, each one's rooms in name order. The types' counters skip the types
    // before the page when nothing else narrows the list.
    idsSql = walkParents({
      parents: sql`select ${roomTypes.id} as pid, ${roomTypes.roomCount} as n, lower(${roomTypes.name}) as k1, 0 as k2, '' as k3
        from ${roomTypes} where ${and(eq(roomTypes.entityId, e), isNull(roomTypes.archivedAt), roomTypeId ? eq(roomTypes.id, roomTypeId) : undefined)}`,
      children: sql`${rooms.roomTypeId} = p.pid and ${and(ownRoom, placeOfRoom, query.q ? nameLike(rooms.name, query.q) : undefined)}`,
      dir,
      offset,
      limit: window,
      skip: !narrowed && !buildingLevel,
    });
  } else {
    // Buildings in name order (by facility first for the facility sort), each one's rooms in name order.
    const byFacility = query.sort === "facilityName";
    idsSql = walkParents({
      parents: sql`select ${buildings.id} as pid, ${buildings.roomCount} as n,
          ${byFacility ? sql`lower(${facilities.name})` : sql`''`} as k1, ${byFacility ? facilities.id : sql`0`} as k2,
          lower(${buildings.name}) as k3
        from ${buildings} ${byFacility ? sql`join ${facilities} on ${facilities.id} = ${buildings.facilityId}` : sql``}
        where ${onBuildings}`,
      children: sql`${rooms.buildingId} = p.pid and ${and(ownRoom, roomLevel)}`,
      dir,
      offset,
      limit: window,
      skip: !narrowed,
    });
  }
  const [head] = rowsOf<{ total: number; ids: number[] | null }>(
    await ctx.db.execute(sql`select (${totalSql}) as total, ${idsSql ? sql`array(${idsSql})` : sql`'{}'::int[]`} as ids`),
  );
  const counted = Number(head?.total ?? 0);
  const capped = narrowed && counted > LIST_COUNT_CAP;
  const total = capped ? LIST_COUNT_CAP : counted;
  const ids = (head?.ids ?? []).map(Number);
  if (ids.length === 0) return { items: [], total, capped, ...page };

  const rows = await ctx.db
    .select(roomSelection())
    .from(rooms)
    .innerJoin(buildings, eq(buildings.id, rooms.buildingId))
    .innerJoin(facilities, eq(facilities.id, buildings.facilityId))
    .innerJoin(roomTypes, eq(roomTypes.id, rooms.roomTypeId))
    .where(and(eq(rooms.entityId, e), inArray(rooms.id, ids)));
  const byId = new Map(rows.map((r) => [r.id, r]));
  return { items: ids.flatMap((id) => byId.get(id) ?? []), total, capped, ...page };
}

/**
 * The query of the ids of one page of rooms sorted by a parent (building or room type): `parents` selects
 * `(pid, n, k1, k2, k3)` (the parent's id, its room counter and its sort keys), `children` is the
 * condition on `rooms` for the rooms of parent `p`. Each parent's rooms come in name order from an
 * index, at most as many as the page needs; with `skip`, the parents' counters (exact for the list)
 * place the page, so parents before it are not read at all.
 */
function walkParents(options: { parents: SQL; children: SQL; dir: SQL; offset: number; limit: number; skip: boolean }): SQL {
  const { parents, children, dir, offset, limit, skip } = options;
  const keys = sql`p.k1 ${dir}, p.k2 ${dir}, p.k3 ${dir}, p.pid ${dir}`;
  return skip
    // tenant-scope: scoped by `children`: the callers pass ownRoom (rooms.entityId) into it
    ? sql`
        select x.id from (
          select q.*, sum(q.n) over (order by q.k1 ${dir}, q.k2 ${dir}, q.k3 ${dir}, q.pid ${dir}
            rows between unbounded preceding and current row) - q.n as before
          from (${parents}) q
        ) p
        cross join lateral (
          select ${rooms.id} as id, lower(${rooms.name}) as rk from ${rooms} where ${children}
          order by lower(${rooms.name}) ${dir}, ${rooms.id} ${dir}
          offset greatest(${offset}::int - p.before, 0) limit ${limit}
        ) x
        where p.before + p.n > ${offset}::int and p.before < ${offset + limit}::int
        order by ${keys}, x.rk ${dir}, x.id ${dir}
        limit ${limit}`
    // tenant-scope: scoped by `children`: the callers pass ownRoom (rooms.entityId) into it
    : sql`
        select x.id from (${parents}) p
        cross join lateral (
          select ${rooms.id} as id, lower(${rooms.name}) as rk from ${rooms} where ${children}
          order by lower(${rooms.name}) ${dir}, ${rooms.id} ${dir}
          limit ${offset + limit}
        ) x
        order by ${keys}, x.rk ${dir}, x.id ${dir}
        offset ${offset} limit ${limit}`;
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
export interface RoomDetail extends RoomRow {
  links: RoomLinkView[];
  files: AttachedFile[];
  incidentTypes: { id: number; name: string }[];
  equipments: RoomEquipmentView[];
  reportIdentifier: string | null;
  activeIncidentList: ActiveIncidentView[];
}

export function toAttachedFile(f: { id: string; name: string; mimeType: string; sizeBytes: number }): AttachedFile {
  return { ...f, url: fileUrl(f.id) ?? "", isImage: f.mimeType.startsWith("image/") };
}

/**
 * One room with everything the room view and the update form show, within the actor's reach: a room
 * outside a manager's or technician's linked facilities and buildings is not found, like another entity's.
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
  const name = incidentTypeName(ctx.locale);
  const [links, files, types, equipments, identifier, active] = await readAll(ctx, [
    async () => ctx.db
      .select({ type: roomLinks.type, url: roomLinks.url })
      .from(roomLinks)
      .where(and(eq(roomLinks.roomId, id), eq(roomLinks.entityId, ctx.entityId)))
      .orderBy(asc(roomLinks.position), asc(roomLinks.id)),
    async () => ctx.db
      .select({ id: storedFiles.id, name: storedFiles.originalName, mimeType: storedFiles.mimeType, sizeBytes: storedFiles.sizeBytes })
      .from(roomFiles)
      .innerJoin(storedFiles, eq(storedFiles.id, roomFiles.fileId))
      .where(and(eq(roomFiles.roomId, id), eq(roomFiles.entityId, ctx.entityId), isNull(storedFiles.deletedAt)))
      .orderBy(asc(roomFiles.createdAt), asc(storedFiles.originalName)),
    async () => ctx.db
      .select({ id: incidentTypes.id, name })
      .from(incidentTypeRooms)
      .innerJoin(incidentTypes, eq(incidentTypes.id, incidentTypeRooms.incidentTypeId))
      .where(and(eq(incidentTypeRooms.roomId, id), eq(incidentTypeRooms.entityId, ctx.entityId), isNull(incidentTypes.archivedAt)))
      .orderBy(asc(sql`lower(${name})`)),
    async () => ctx.db
      .select({ ...equipmentItemColumns, reportIdentifier: reportIdentifiers.code })
      .from(equipmentItems)
      .innerJoin(equipmentTypes, itemType)
      .innerJoin(equipmentCategories, typeCategory)
      .leftJoin(
        reportIdentifiers,
        and(eq(reportIdentifiers.equipmentItemId, equipmentItems.id), isNull(reportIdentifiers.archivedAt)),
      )
      .where(and(eq(equipmentItems.roomId, id), eq(equipmentItems.entityId, ctx.entityId), isNull(equipmentItems.archivedAt)))
      .orderBy(asc(sql`lower(${equipmentTypes.name})`), asc(equipmentItems.id)),
    async () => ctx.db
      .select({ code: reportIdentifiers.code })
      .from(reportIdentifiers)
      .where(and(eq(reportIdentifiers.roomId, id), eq(reportIdentifiers.entityId, ctx.entityId), isNull(reportIdentifiers.archivedAt)))
      .limit(1),
    async () => activeIncidentsIn(ctx, eq(rooms.id, id)),
  ]);
  return {
    ...row,
    links,
    files: files.map(toAttachedFile),
    incidentTypes: types,
    equipments,
    reportIdentifier: identifier[0]?.code ?? null,
    activeIncidentList: active.map(({ roomId: _roomId, roomName: _roomName, ...incident }) => incident),
  };
}

/** The read model of the room form (/update-room/{id}): managers and administrators only. */
export async function getRoomForEdit(ctx: ServiceContext, id: number): Promise<RoomDetail> {
  assertCan(ctx.actor, "manage", "place");
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
 * The room view (/view-room/{id}) for any signed-in user: administrators see every room of their
 * entity, managers and technicians only rooms in the facilities or buildings they are linked to
 * (Forbidden otherwise, decision 022).
 */
export async function viewRoom(ctx: ServiceContext, id: number): Promise<RoomDetail> {
  const place = await getRoomPlace(ctx, id);
  if (!(await canViewRoom(ctx, place))) throw new ForbiddenError("rooms:errors.roomForbidden");
  return getRoom(ctx, id);
}

// ---------------------------------------------------------------------------
// A sticker's code, scanned or typed by staff (/scan)
// ---------------------------------------------------------------------------

/** A report identifier as the schema allows it (codes made by `newReportCode`, and older imported ones). */
const STICKER_CODE = /^[A-Za-z0-9_-]{4,32}$/;
const STICKER_PATH = /\/report\/([A-Za-z0-9_-]{4,32})\/?$/;

/**
 * The code in what a person typed, pasted or read from a sticker's QR code: the bare code, or an address
 * whose path ends in `/report/{code}` (whatever its host: only the code is kept, looked up in the
 * viewer's own entity, never followed). Null for anything else.
 */
export function stickerCode(text: string): string | null {
  const value = text.trim();
  if (STICKER_CODE.test(value)) return value;
  let path: string;
  try {
    path = new URL(value, "http://sticker.invalid").pathname;
  } catch {
    return null;
  }
  return STICKER_PATH.exec(path)?.[1] ?? null;
}

/** The staff page a sticker leads to: its room, or its equipment item. */
export type ScannedPlace = { kind: "room"; id: number } | { kind: "equipmentItem"; id: number };

/**
 * The room or equipment item a sticker's code names, for the staff who scan it: an active identifier of
 * the viewer's entity, of an active item in an active room, or of an active room, within the viewer's
 * reach. "notACode" when the text holds no code; "notFound" for an unknown, replaced or archived code,
 * another entity's and one out of reach alike (saying nothing of what another entity has).
 * Codes are read aloud in capitals: a code typed in lower case is also looked up in capitals.
 */
export async function findScannedPlace(ctx: ServiceContext, text: string): Promise<ScannedPlace | "notACode" | "notFound"> {
  assertCan(ctx.actor, "read", "place");
  const code = stickerCode(text);
  if (!code) return "notACode";
  const [row] = await ctx.db
    .select({ roomId: rooms.id, equipmentItemId: equipmentItems.id })
    .from(reportIdentifiers)
    .leftJoin(
      equipmentItems,
      and(eq(equipmentItems.id, reportIdentifiers.equipmentItemId), eq(equipmentItems.entityId, ctx.entityId), isNull(equipmentItems.archivedAt)),
    )
    .innerJoin(
      rooms,
      and(eq(rooms.id, sql`coalesce(${reportIdentifiers.roomId}, ${equipmentItems.roomId})`), eq(rooms.entityId, ctx.entityId), isNull(rooms.archivedAt)),
    )
    .where(
      and(
        eq(reportIdentifiers.entityId, ctx.entityId),
        inArray(reportIdentifiers.code, [...new Set([code, code.toUpperCase()])]),
        isNull(reportIdentifiers.archivedAt),
        treeScope(ctx, "room"),
      ),
    )
    .limit(1);
  if (!row) return "notFound";
  return row.equipmentItemId != null ? { kind: "equipmentItem", id: row.equipmentItemId } : { kind: "room", id: row.roomId };
}
