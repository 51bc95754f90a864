import { type AnyColumn, and, asc, eq, inArray, isNull, type SQL, sql } from "drizzle-orm";
import { assertCan } from "~/core/actor";
import type { ServiceContext } from "~/core/context.server";
import { QrPrintStatus } from "~/db/enums";
import { buildings, entities, equipmentItems, equipmentTypes, facilities, printSettings, reportIdentifiers, rooms } from "~/db/schema";
import { NotFoundError } from "~/lib/errors";
import { treeScope } from "~/modules/facilities/policy.server";
import type { SelectionValues } from "./schema";

/**
 * Printing's reads (issue 48), within the viewer's reach: the location tree with each place's print
 * status, the status for the REST API, what a selection prints, and the entity's sticker settings.
 *
 * An equipment item's sticker and a room's own sticker are printed when their report identifier is (a
 * missing identifier is not printed). A room, a building and a facility are places: printed when every
 * sticker in them is (a room's: its own and its equipment items'), not printed when none is, partially
 * printed otherwise (SPEC.md section 3's QR print status; decision 053). A chosen room prints its own
 * sticker and its items', as a chosen building prints its rooms' and items'.
 */

export interface PrintCounts {
  /** Rooms and equipment items. */
  total: number;
  printed: number;
  status: QrPrintStatus;
}

export function statusOf(printed: number, total: number): QrPrintStatus {
  if (total > 0 && printed >= total) return QrPrintStatus.PRINTED;
  return printed === 0 ? QrPrintStatus.NOT_PRINTED : QrPrintStatus.PARTIALLY_PRINTED;
}

const counts = (printed: number, total: number): PrintCounts => ({ printed, total, status: statusOf(printed, total) });

export interface PrintTreeBuilding extends PrintCounts {
  id: number;
  name: string;
}
export interface PrintTreeFacility extends PrintCounts {
  id: number;
  name: string;
  buildings: PrintTreeBuilding[];
}

export interface PrintTreeItem {
  id: number;
  name: string;
  internalReference: string | null;
  status: QrPrintStatus;
  lastPrintedAt: Date | null;
}
/** A room as a place: `status`, `printed` and `total` count its own sticker and its items'. */
export interface PrintTreeRoom extends PrintCounts {
  id: number;
  name: string;
  floor: string;
  /** The room's own sticker. */
  stickerStatus: QrPrintStatus;
  lastPrintedAt: Date | null;
  /** Its equipment items; only those not printed with `notPrintedOnly`. */
  items: PrintTreeItem[];
}

/** The most buildings the tree lists, and rooms of the open building. */
const MAX_BUILDINGS = 2000;
const MAX_ROOMS = 1000;

/**
 * The buildings in reach with the print counts of their rooms and items, as one statement: every
 * room and item of the entity in reach, each joined to its active identifier, counted per building.
 */
async function buildingCounts(ctx: ServiceContext): Promise<Map<number, { printed: number; total: number }>> {
  const e = ctx.entityId;
  const scope = treeScope(ctx, "building") ?? sql`true`;
  const result = await ctx.db.execute(sql`
    with b as (
      select ${buildings.id} as id from ${buildings}
      where ${buildings.entityId} = ${e} and ${buildings.archivedAt} is null and ${scope}
    ), targets as (
      select r.building_id, ri.qr_print_status as status
      from rooms r
      left join report_identifiers ri on ri.room_id = r.id and ri.archived_at is null
      where r.entity_id = ${e} and r.archived_at is null and r.building_id in (select id from b)
      union all
      select r.building_id, ri.qr_print_status
      from equipment_items ei
      join rooms r on r.id = ei.room_id and r.archived_at is null
      left join report_identifiers ri on ri.equipment_item_id = ei.id and ri.archived_at is null
      where ei.entity_id = ${e} and ei.archived_at is null and r.building_id in (select id from b)
    )
    select building_id, count(*)::int as total, (count(*) filter (where status = ${QrPrintStatus.PRINTED}))::int as printed
    from targets group by building_id`);
  const rows = (result as unknown as { rows: { building_id: number; total: number; printed: number }[] }).rows;
  return new Map(rows.map((r) => [Number(r.building_id), { printed: Number(r.printed), total: Number(r.total) }]));
}

/** Facilities and their buildings in reach, each with its print counts. */
export async function listPrintTree(ctx: ServiceContext): Promise<PrintTreeFacility[]> {
  assertCan(ctx.actor, "print", "printing");
  const e = ctx.entityId;
  const [rows, byBuilding] = [
    await ctx.db
      .select({ id: buildings.id, name: buildings.name, facilityId: facilities.id, facilityName: facilities.name })
      .from(buildings)
      .innerJoin(facilities, eq(facilities.id, buildings.facilityId))
      .where(and(eq(buildings.entityId, e), isNull(buildings.archivedAt), isNull(facilities.archivedAt), treeScope(ctx, "building")))
      .orderBy(asc(sql`lower(${facilities.name})`), asc(facilities.id), asc(sql`lower(${buildings.name})`), asc(buildings.id))
      .limit(MAX_BUILDINGS),
    await buildingCounts(ctx),
  ];
  const result = new Map<number, PrintTreeFacility>();
  for (const b of rows) {
    const facility = result.get(b.facilityId) ?? { id: b.facilityId, name: b.facilityName, buildings: [], ...counts(0, 0) };
    const c = byBuilding.get(b.id) ?? { printed: 0, total: 0 };
    facility.buildings.push({ id: b.id, name: b.name, ...counts(c.printed, c.total) });
    Object.assign(facility, counts(facility.printed + c.printed, facility.total + c.total));
    result.set(b.facilityId, facility);
  }
  return [...result.values()];
}

/** The rooms of one building in reach with their items and statuses; NotFound when out of reach. */
export async function listBuildingPrintRooms(ctx: ServiceContext, buildingId: number, options: { notPrintedOnly?: boolean } = {}): Promise<{ id: number; name: string; facilityName: string; rooms: PrintTreeRoom[] }> {
  assertCan(ctx.actor, "print", "printing");
  const e = ctx.entityId;
  const [building] = await ctx.db
    .select({ id: buildings.id, name: buildings.name, facilityName: facilities.name })
    .from(buildings)
    .innerJoin(facilities, eq(facilities.id, buildings.facilityId))
    .where(and(eq(buildings.id, buildingId), eq(buildings.entityId, e), isNull(buildings.archivedAt), isNull(facilities.archivedAt), treeScope(ctx, "building")));
  if (!building) throw new NotFoundError("printing:errors.notFound", "PLACE_NOT_FOUND");
  const roomRows = await ctx.db
    .select({ id: rooms.id, name: rooms.name, floor: rooms.floor, status: reportIdentifiers.qrPrintStatus, lastPrintedAt: reportIdentifiers.lastPrintedAt })
    .from(rooms)
    .leftJoin(reportIdentifiers, and(eq(reportIdentifiers.roomId, rooms.id), isNull(reportIdentifiers.archivedAt)))
    .where(and(eq(rooms.entityId, e), eq(rooms.buildingId, building.id), isNull(rooms.archivedAt)))
    .orderBy(asc(sql`lower(${rooms.name})`), asc(rooms.id))
    .limit(MAX_ROOMS);
  const itemRows = roomRows.length
    ? await ctx.db
        .select({
          id: equipmentItems.id,
          roomId: equipmentItems.roomId,
          name: equipmentTypes.name,
          internalReference: equipmentItems.internalReference,
          status: reportIdentifiers.qrPrintStatus,
          lastPrintedAt: reportIdentifiers.lastPrintedAt,
        })
        .from(equipmentItems)
        .innerJoin(equipmentTypes, eq(equipmentTypes.id, equipmentItems.equipmentTypeId))
        .leftJoin(reportIdentifiers, and(eq(reportIdentifiers.equipmentItemId, equipmentItems.id), isNull(reportIdentifiers.archivedAt)))
        .where(and(eq(equipmentItems.entityId, e), isNull(equipmentItems.archivedAt), inArray(equipmentItems.roomId, roomRows.map((r) => r.id))))
        .orderBy(asc(sql`lower(${equipmentTypes.name})`), asc(equipmentItems.id))
    : [];
  const status = (s: QrPrintStatus | null) => (s === QrPrintStatus.PRINTED ? QrPrintStatus.PRINTED : QrPrintStatus.NOT_PRINTED);
  const keep = (s: QrPrintStatus) => !options.notPrintedOnly || s !== QrPrintStatus.PRINTED;
  const result: PrintTreeRoom[] = [];
  for (const r of roomRows) {
    const items = itemRows
      .filter((i) => i.roomId === r.id)
      .map((i) => ({ id: i.id, name: i.name, internalReference: i.internalReference, status: status(i.status), lastPrintedAt: i.lastPrintedAt }));
    const stickerStatus = status(r.status);
    // The room as a place: its own sticker and every item's, whether the filter lists the items or not.
    const printed = [stickerStatus, ...items.map((i) => i.status)].filter((s) => s === QrPrintStatus.PRINTED).length;
    const place = counts(printed, items.length + 1);
    if (!keep(place.status)) continue;
    result.push({ id: r.id, name: r.name, floor: r.floor, ...place, stickerStatus, lastPrintedAt: r.lastPrintedAt, items: items.filter((i) => keep(i.status)) });
  }
  return { id: building.id, name: building.name, facilityName: building.facilityName, rooms: result };
}

/** One place to print: a room or an equipment item, with its identifier when it has one. */
export interface PrintTarget {
  roomId: number;
  equipmentItemId: number | null;
  identifierId: number | null;
  code: string | null;
  printed: boolean;
  roomName: string;
  floor: string;
  buildingName: string;
  facilityName: string;
  itemName: string | null;
  internalReference: string | null;
}

/** Refuses ids of `table` the viewer cannot see (another entity's, archived, out of reach): 404. */
async function assertAllFound(ctx: ServiceContext, ids: number[], found: (ids: number[]) => Promise<{ id: number }[]>) {
  if (ids.length === 0) return;
  const rows = await found(ids);
  if (rows.length !== new Set(ids).size) throw new NotFoundError("printing:errors.notFound", "PLACE_NOT_FOUND");
}

/** A sticker's row as the print queries select it (snake_case SQL columns). */
export interface PrintTargetRow {
  room_id: number;
  item_id: number | null;
  identifier_id: number | null;
  code: string | null;
  status: number | null;
  room_name: string;
  floor: string;
  building_name: string;
  facility_name: string;
  item_name: string | null;
  internal_reference: string | null;
}

/** What one sticker shows and which identifier it records, from its row. */
export function printTargetOf(r: PrintTargetRow): PrintTarget {
  return {
    roomId: Number(r.room_id),
    equipmentItemId: r.item_id == null ? null : Number(r.item_id),
    identifierId: r.identifier_id == null ? null : Number(r.identifier_id),
    code: r.code,
    printed: r.status === QrPrintStatus.PRINTED,
    roomName: r.room_name,
    floor: String(r.floor),
    buildingName: r.building_name,
    facilityName: r.facility_name,
    itemName: r.item_name,
    internalReference: r.internal_reference,
  };
}

/**
 * What a selection prints, in print order (facility, building, room name, each room before its items):
 * the rooms and items of the chosen facilities and buildings, the chosen rooms with their items, and the
 * chosen items, within the viewer's reach; only those not printed yet with `notPrintedOnly` (a room
 * listed under "Not printed only" for an item's missing sticker prints that sticker). A chosen id the
 * viewer cannot see is NotFound (nothing is printed).
 */
export async function resolveSelection(ctx: ServiceContext, selection: SelectionValues): Promise<PrintTarget[]> {
  assertCan(ctx.actor, "print", "printing");
  const e = ctx.entityId;
  const { facilityIds, buildingIds, roomIds, equipmentItemIds } = selection;
  await assertAllFound(ctx, facilityIds, (ids) =>
    ctx.db.select({ id: facilities.id }).from(facilities).where(and(inArray(facilities.id, ids), eq(facilities.entityId, e), isNull(facilities.archivedAt), treeScope(ctx, "facility"))),
  );
  await assertAllFound(ctx, buildingIds, (ids) =>
    ctx.db.select({ id: buildings.id }).from(buildings).where(and(inArray(buildings.id, ids), eq(buildings.entityId, e), isNull(buildings.archivedAt), treeScope(ctx, "building"))),
  );
  await assertAllFound(ctx, roomIds, (ids) =>
    ctx.db.select({ id: rooms.id }).from(rooms).where(and(inArray(rooms.id, ids), eq(rooms.entityId, e), isNull(rooms.archivedAt), treeScope(ctx, "room"))),
  );
  await assertAllFound(ctx, equipmentItemIds, (ids) =>
    ctx.db
      .select({ id: equipmentItems.id })
      .from(equipmentItems)
      .innerJoin(rooms, eq(rooms.id, equipmentItems.roomId))
      .where(and(inArray(equipmentItems.id, ids), eq(equipmentItems.entityId, e), isNull(equipmentItems.archivedAt), isNull(rooms.archivedAt), treeScope(ctx, "equipmentItem"))),
  );
  const inList = (column: SQL | AnyColumn, ids: number[]) => (ids.length ? sql`${column} in (${sql.join(ids.map((id) => sql`${id}`), sql`, `)})` : sql`false`);
  const wholeRoom = sql`(${inList(sql`b.id`, buildingIds)} or ${inList(sql`b.facility_id`, facilityIds)})`;
  const scope = treeScope(ctx, "room") ?? sql`true`;
  const result = await ctx.db.execute(sql`
    select rooms.id as room_id, null::int as item_id, ri.id as identifier_id, ri.code, ri.qr_print_status as status,
      rooms.name as room_name, rooms.floor, b.name as building_name, f.name as facility_name, null::text as item_name, null::text as internal_reference,
      lower(f.name) as f_key, f.id as f_id, lower(b.name) as b_key, b.id as b_id, lower(rooms.name) as r_key, 0 as kind, '' as i_key
    from ${rooms}
    join buildings b on b.id = ${rooms.buildingId} and b.archived_at is null
    join facilities f on f.id = b.facility_id and f.archived_at is null
    left join report_identifiers ri on ri.room_id = ${rooms.id} and ri.archived_at is null
    where ${rooms.entityId} = ${e} and ${rooms.archivedAt} is null and ${scope}
      and (${inList(rooms.id, roomIds)} or ${wholeRoom})
    union all
    select rooms.id, ei.id, ri.id, ri.code, ri.qr_print_status,
      rooms.name, rooms.floor, b.name, f.name, et.name, ei.internal_reference,
      lower(f.name), f.id, lower(b.name), b.id, lower(rooms.name), 1, lower(et.name)
    from equipment_items ei
    join equipment_types et on et.id = ei.equipment_type_id
    join ${rooms} on ${rooms.id} = ei.room_id and ${rooms.archivedAt} is null
    join buildings b on b.id = ${rooms.buildingId} and b.archived_at is null
    join facilities f on f.id = b.facility_id and f.archived_at is null
    left join report_identifiers ri on ri.equipment_item_id = ei.id and ri.archived_at is null
    where ei.entity_id = ${e} and ei.archived_at is null and ${scope}
      and (${inList(sql`ei.id`, equipmentItemIds)} or ${inList(sql`ei.room_id`, roomIds)} or ${wholeRoom})
    order by f_key, f_id, b_key, b_id, r_key, room_id, kind, i_key, item_id`);
  const targets = (result as unknown as { rows: PrintTargetRow[] }).rows.map(printTargetOf);
  return selection.notPrintedOnly ? targets.filter((t) => !t.printed) : targets;
}

/** The entity's sticker look: template colours, logo and explanatory sticker files, calibration offset. */
export async function readStickerSettings(ctx: ServiceContext) {
  const [row] = await ctx.db
    .select({
      name: entities.name,
      templateColor: entities.templateColor,
      templateTextColor: entities.templateTextColor,
      logoFileId: entities.logoFileId,
      explanatoryStickerFileId: entities.explanatoryStickerFileId,
      offsetX: printSettings.offsetXMm,
      offsetY: printSettings.offsetYMm,
    })
    .from(entities)
    .leftJoin(printSettings, eq(printSettings.entityId, entities.id))
    .where(and(eq(entities.id, ctx.entityId), isNull(entities.archivedAt)));
  if (!row) throw new NotFoundError();
  return { ...row, offset: { x: row.offsetX ?? 0, y: row.offsetY ?? 0 } };
}
