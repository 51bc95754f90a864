import { and, asc, count, eq, isNotNull, isNull, lte, or, type SQL, sql } from "drizzle-orm";
import type { SelectedFields } from "drizzle-orm/pg-core";
import { assertCan } from "~/core/actor";
import { readAll, type ServiceContext } from "~/core/context.server";
import { buildings, equipmentItemFiles, equipmentItems, equipmentTypes, rooms, storedFiles } from "~/db/schema";
import { addDays, dayIn } from "~/lib/dates";
import { now } from "~/lib/clock.server";
import type { ListQuery, Page } from "~/lib/list-query";
import { nameLike, readPage } from "~/lib/list-page.server";
import { treeScope } from "~/modules/facilities/policy.server";
import { type AttachedFile, toAttachedFile } from "~/modules/rooms/queries.server";
import { equipmentItemNotFound } from "~/modules/reliability/queries.server";
import type { EquipmentItemRecord } from "./schema";

/**
 * Equipment items with their generic equipment, room and building joined, selecting `fields` and the
 * place (room id and name, building name); the caller adds its conditions, the entity's among them.
 */
export function itemsWithPlace<F extends SelectedFields>(ctx: ServiceContext, fields: F) {
  // tenant-scope: scoped by the callers' where, which compares equipmentItems.entityId
  return ctx.db
    .select({ ...fields, roomId: rooms.id, roomName: rooms.name, buildingName: buildings.name })
    .from(equipmentItems)
    .innerJoin(equipmentTypes, eq(equipmentTypes.id, equipmentItems.equipmentTypeId))
    .innerJoin(rooms, eq(rooms.id, equipmentItems.roomId))
    .innerJoin(buildings, eq(buildings.id, rooms.buildingId));
}

/**
 * An equipment item's record (issue 63): its own fields, its parent, its children and its files, read
 * within the viewer's reach (an item whose room they do not reach is not found, like another entity's).
 */

/** An item named as a parent or a child: its generic equipment and internal reference. */
export interface RelatedItem {
  id: number;
  equipmentName: string;
  internalReference: string | null;
  /** An archived parent keeps its children; it is shown, marked, without a link. */
  archived: boolean;
}

export interface EquipmentItemRecordView extends EquipmentItemRecord {
  id: number;
  roomId: number;
  parent: RelatedItem | null;
  children: RelatedItem[];
  files: AttachedFile[];
}

/** An item's own record columns (issue 63). */
const recordColumns = {
  serialNumber: equipmentItems.serialNumber,
  manufacturer: equipmentItems.manufacturer,
  model: equipmentItems.model,
  installedOn: equipmentItems.installedOn,
  warrantyEndsOn: equipmentItems.warrantyEndsOn,
  supplier: equipmentItems.supplier,
  notes: equipmentItems.notes,
};

const relatedColumns = {
  id: equipmentItems.id,
  equipmentName: equipmentTypes.name,
  internalReference: equipmentItems.internalReference,
  archived: sql<boolean>`${equipmentItems.archivedAt} is not null`,
};

/** The record of an active item in an active room the viewer reaches; NotFound otherwise. */
export async function getEquipmentItemRecord(ctx: ServiceContext, id: number): Promise<EquipmentItemRecordView> {
  assertCan(ctx.actor, "read", "place");
  const [row] = await ctx.db
    .select({
      id: equipmentItems.id,
      roomId: equipmentItems.roomId,
      ...recordColumns,
      parentItemId: equipmentItems.parentItemId,
    })
    .from(equipmentItems)
    .innerJoin(rooms, eq(rooms.id, equipmentItems.roomId))
    .where(and(eq(equipmentItems.id, id), eq(equipmentItems.entityId, ctx.entityId), isNull(equipmentItems.archivedAt), isNull(rooms.archivedAt), treeScope(ctx, "equipmentItem")))
    .limit(1);
  if (!row) throw equipmentItemNotFound();
  const [parents, children, files] = await readAll(ctx, [
    // The parent as stored, archived or not; one out of the viewer's reach is not named.
    () =>
      ctx.db
        .select(relatedColumns)
        .from(equipmentItems)
        .innerJoin(equipmentTypes, eq(equipmentTypes.id, equipmentItems.equipmentTypeId))
        .innerJoin(rooms, eq(rooms.id, equipmentItems.roomId))
        .where(and(eq(equipmentItems.id, row.parentItemId ?? -1), eq(equipmentItems.entityId, ctx.entityId), treeScope(ctx, "room"))),
    () => listEquipmentItemChildren(ctx, id),
    () =>
      ctx.db
        .select({ id: storedFiles.id, name: storedFiles.originalName, mimeType: storedFiles.mimeType, sizeBytes: storedFiles.sizeBytes })
        .from(equipmentItemFiles)
        .innerJoin(storedFiles, eq(storedFiles.id, equipmentItemFiles.fileId))
        .where(and(eq(equipmentItemFiles.equipmentItemId, id), eq(equipmentItemFiles.entityId, ctx.entityId), isNull(storedFiles.deletedAt)))
        .orderBy(asc(equipmentItemFiles.createdAt), asc(storedFiles.originalName)),
  ] as const);
  return { ...row, parent: parents[0] ?? null, children, files: files.map(toAttachedFile) };
}

/**
 * Items named as parents or children: the active items of active rooms the viewer reaches that match
 * `where`, by generic equipment and reference (at most 500).
 */
function relatedItems(ctx: ServiceContext, where: SQL | undefined): Promise<RelatedItem[]> {
  assertCan(ctx.actor, "read", "place");
  return ctx.db
    .select(relatedColumns)
    .from(equipmentItems)
    .innerJoin(equipmentTypes, eq(equipmentTypes.id, equipmentItems.equipmentTypeId))
    .innerJoin(rooms, eq(rooms.id, equipmentItems.roomId))
    .where(and(eq(equipmentItems.entityId, ctx.entityId), isNull(equipmentItems.archivedAt), isNull(rooms.archivedAt), treeScope(ctx, "equipmentItem"), where))
    .orderBy(asc(equipmentTypes.name), asc(equipmentItems.internalReference), asc(equipmentItems.id))
    .limit(500);
}

/** The active items whose parent is `id`, within the viewer's reach. */
export function listEquipmentItemChildren(ctx: ServiceContext, id: number): Promise<RelatedItem[]> {
  return relatedItems(ctx, eq(equipmentItems.parentItemId, id));
}

/**
 * The items the viewer may choose as `id`'s parent: the active items of the rooms they reach, but
 * never the item itself nor one of its descendants (which would close a loop).
 */
export function listParentChoices(ctx: ServiceContext, id: number): Promise<RelatedItem[]> {
  return relatedItems(ctx, sql`${equipmentItems.id} not in (${descendantsAndSelf(ctx.entityId, id)})`);
}

/** The ids of item `id` and of every item below it (children, their children, ...), of the entity. */
export function descendantsAndSelf(entityId: number, id: number) {
  return sql`with recursive below(id) as (
      select ${id}::int
      union
      select c.id from equipment_items c join below on c.parent_item_id = below.id where c.entity_id = ${entityId}
    ) select id from below`;
}

/** The active report identifier of the item `id` (of the listed item's entity). */
const identifierOf = (id: typeof equipmentItems.id | typeof equipmentItems.parentItemId) =>
  sql<string | null>`(select ri.code from report_identifiers ri where ri.equipment_item_id = ${id} and ri.entity_id = ${equipmentItems.entityId} and ri.archived_at is null limit 1)`;

export const ITEM_SORTS = ["equipmentName", "roomName", "warrantyEndsOn"] as const;
export type ItemSort = (typeof ITEM_SORTS)[number];
/** The longest "warranty ending within N days" the list takes. */
export const MAX_WARRANTY_DAYS = 3650;

export interface ItemListRow {
  id: number;
  equipmentName: string;
  internalReference: string | null;
  serialNumber: string | null;
  manufacturer: string | null;
  model: string | null;
  installedOn: string | null;
  warrantyEndsOn: string | null;
  supplier: string | null;
  notes: string | null;
  roomId: number;
  roomName: string;
  buildingName: string;
  /** Its sticker's report identifier, and its parent's (the export's, so an import names them back). */
  identifier: string | null;
  parentIdentifier: string | null;
}

export interface ItemListFilter {
  /** Only the items whose warranty ends from today (the entity's day) to today + N days. */
  warrantyWithinDays?: number | null;
}

/**
 * The active items of the rooms the viewer reaches (the "Items" tab of /equipments), one page at a
 * time: the search matches the generic equipment, internal reference, serial number, manufacturer or
 * model; the filter keeps the warranties ending within N days (not those already ended).
 */
export async function listItemRecords(ctx: ServiceContext, query: ListQuery<ItemSort>, filter: ItemListFilter = {}): Promise<Page<ItemListRow>> {
  assertCan(ctx.actor, "read", "place");
  const today = dayIn(now(), ctx.timeZone);
  const days = filter.warrantyWithinDays ?? null;
  const where = and(
    eq(equipmentItems.entityId, ctx.entityId),
    isNull(equipmentItems.archivedAt),
    isNull(rooms.archivedAt),
    treeScope(ctx, "equipmentItem"),
    days !== null
      ? and(isNotNull(equipmentItems.warrantyEndsOn), sql`${equipmentItems.warrantyEndsOn} >= ${today}::date`, lte(equipmentItems.warrantyEndsOn, addDays(today, days)))
      : undefined,
    query.q
      ? or(
          nameLike(equipmentTypes.name, query.q),
          nameLike(sql`coalesce(${equipmentItems.internalReference}, '')`, query.q),
          nameLike(sql`coalesce(${equipmentItems.serialNumber}, '')`, query.q),
          nameLike(sql`coalesce(${equipmentItems.manufacturer}, '')`, query.q),
          nameLike(sql`coalesce(${equipmentItems.model}, '')`, query.q),
        )
      : undefined,
  );
  const column = {
    equipmentName: sql`lower(${equipmentTypes.name})`,
    roomName: sql`lower(${rooms.name})`,
    warrantyEndsOn: equipmentItems.warrantyEndsOn,
  }[query.sort];
  return readPage(
    query,
    itemsWithPlace(ctx, {
      id: equipmentItems.id,
      equipmentName: equipmentTypes.name,
      internalReference: equipmentItems.internalReference,
      ...recordColumns,
      identifier: identifierOf(equipmentItems.id),
      parentIdentifier: identifierOf(equipmentItems.parentItemId),
    })
      .where(where)
      .orderBy(query.dir === "desc" ? sql`${column} desc nulls last` : sql`${column} asc nulls last`, asc(equipmentItems.internalReference), asc(equipmentItems.id))
      .$dynamic(),
    ctx.db
      .select({ n: count() })
      .from(equipmentItems)
      .innerJoin(equipmentTypes, eq(equipmentTypes.id, equipmentItems.equipmentTypeId))
      .innerJoin(rooms, eq(rooms.id, equipmentItems.roomId))
      .where(where),
  );
}
