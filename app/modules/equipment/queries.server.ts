import { and, asc, count, desc, eq, inArray, isNull, sql } from "drizzle-orm";
import type { z } from "zod";
import { assertCan } from "~/core/actor";
import { fieldColumns } from "~/core/fields.server";
import { EquipmentTypeStatus } from "~/db/enums";
import { equipmentCategories, equipmentItems, equipmentTypeFiles, equipmentTypes, incidentTypeEquipmentTypes, incidentTypes, reportIdentifiers, rooms, storedFiles } from "~/db/schema";
import { readAll, type ServiceContext } from "~/core/context.server";
import { NotFoundError } from "~/lib/errors";
import { DEFAULT_PAGE_SIZE, type ListQuery, type Page, pageWindow } from "~/lib/list-query";
import { nameLike, readPage, rowsOf } from "~/lib/list-page.server";
import { equipmentTypeReach, treeScope } from "~/modules/facilities/policy.server";
import { incidentTypeName } from "~/modules/incident-types/queries.server";
import { type AttachedFile, toAttachedFile } from "~/modules/rooms/queries.server";
import { equipmentItemColumns, itemType, typeCategory } from "./columns.server";
import { CATEGORY_FIELDS, CategorySchema, EQUIPMENT_TYPE_FIELDS, EquipmentTypeFieldsSchema } from "./schema";

/**
 * Reads of equipment categories, generic equipment (equipment types) and specific equipment items,
 * for the list screens, the forms and the REST answers. Filtered by the entity; archived rows are
 * invisible; the counts are the counters the triggers keep (modules/facilities/counters.server.ts).
 */
export const categoryNotFound = () => new NotFoundError("equipment:errors.categoryNotFound", "CATEGORY_NOT_FOUND");
export const equipmentTypeNotFound = () => new NotFoundError("equipment:errors.equipmentTypeNotFound", "EQUIPMENT_TYPE_NOT_FOUND");

// ---------------------------------------------------------------------------
// Categories
// ---------------------------------------------------------------------------
export const CATEGORY_SORTS = ["name", "equipmentCount"] as const;
export type CategorySort = (typeof CATEGORY_SORTS)[number];

/** A category's declared fields (schema.ts), under the verb's keys (its name: `categoryName`). */
export type CategoryFields = z.output<typeof CategorySchema>;

export interface CategoryRow extends CategoryFields {
  id: number;
  entityId: number;
  /** Generic equipment in the category. */
  equipmentCount: number;
}

function categorySelection() {
  return {
    equipmentCount: equipmentCategories.equipmentTypeCount,
    fields: {
      id: equipmentCategories.id,
      ...fieldColumns(equipmentCategories, CATEGORY_FIELDS, CategorySchema.shape),
      entityId: equipmentCategories.entityId,
      equipmentCount: equipmentCategories.equipmentTypeCount,
    },
  };
}

export async function listCategories(ctx: ServiceContext, query: ListQuery<CategorySort>): Promise<Page<CategoryRow>> {
  const where = and(
    eq(equipmentCategories.entityId, ctx.entityId),
    isNull(equipmentCategories.archivedAt),
    query.q ? nameLike(equipmentCategories.name, query.q) : undefined,
  );
  const { fields, equipmentCount } = categorySelection();
  const column = { name: sql`lower(${equipmentCategories.name})`, equipmentCount }[query.sort];
  const by = query.dir === "desc" ? desc : asc;
  return readPage(
    query,
    ctx.db
      .select(fields)
      .from(equipmentCategories)
      .where(where)
      .orderBy(by(column), asc(equipmentCategories.id))
      .$dynamic(),
    ctx.db.select({ n: count() }).from(equipmentCategories).where(where),
  );
}

export async function getCategory(ctx: ServiceContext, id: number): Promise<CategoryRow> {
  const [row] = await ctx.db
    .select(categorySelection().fields)
    .from(equipmentCategories)
    .where(and(eq(equipmentCategories.id, id), eq(equipmentCategories.entityId, ctx.entityId), isNull(equipmentCategories.archivedAt)))
    .limit(1);
  if (!row) throw categoryNotFound();
  return row;
}

/** The read model of the category form (/update-category/{id}): managers and administrators only. */
export async function getCategoryForEdit(ctx: ServiceContext, id: number): Promise<CategoryRow> {
  assertCan(ctx.actor, "manage", "catalogue");
  return getCategory(ctx, id);
}

export async function listCategoryOptions(ctx: ServiceContext): Promise<{ id: number; name: string }[]> {
  return ctx.db
    .select({ id: equipmentCategories.id, name: equipmentCategories.name })
    .from(equipmentCategories)
    .where(and(eq(equipmentCategories.entityId, ctx.entityId), isNull(equipmentCategories.archivedAt)))
    .orderBy(asc(sql`lower(${equipmentCategories.name})`), asc(equipmentCategories.id));
}

// ---------------------------------------------------------------------------
// Generic equipment
// ---------------------------------------------------------------------------
export const EQUIPMENT_TYPE_SORTS = ["name", "categoryName", "itemCount", "creationTimestamp"] as const;
export type EquipmentTypeSort = (typeof EQUIPMENT_TYPE_SORTS)[number];

/** A generic equipment's declared fields (schema.ts), under the verb's keys (its name: `equipmentName`). */
export type EquipmentTypeFields = z.output<typeof EquipmentTypeFieldsSchema>;

/** The row's tags carry their labels (the REST answer of SPEC.md section 7). */
export interface EquipmentTypeRow extends Omit<EquipmentTypeFields, "tags"> {
  id: number;
  categoryName: string;
  tags: { label: string }[];
  /** Specific equipment items placed in rooms. */
  itemCount: number;
  status: EquipmentTypeStatus;
  entityId: number;
  creationTimestamp: string;
}

function equipmentTypeSelection() {
  const itemCount = equipmentTypes.itemCount;
  return {
    itemCount,
    fields: {
      id: equipmentTypes.id,
      ...fieldColumns(equipmentTypes, EQUIPMENT_TYPE_FIELDS, EquipmentTypeFieldsSchema.shape),
      categoryName: equipmentCategories.name,
      itemCount,
      entityId: equipmentTypes.entityId,
      createdAt: equipmentTypes.createdAt,
    },
  };
}

type RawTypeRow = Omit<EquipmentTypeRow, "tags" | "status" | "creationTimestamp"> & { tags: string[]; createdAt: Date };
const toTypeRow = ({ createdAt, tags, ...r }: RawTypeRow): EquipmentTypeRow => ({
  ...r,
  tags: tags.map((label) => ({ label })),
  status: EquipmentTypeStatus.ACTIVE,
  creationTimestamp: createdAt.toISOString(),
});

export interface EquipmentTypeFilter {
  categoryIds?: number[] | null;
}

export async function listEquipmentTypes(
  ctx: ServiceContext,
  query: ListQuery<EquipmentTypeSort>,
  filter: EquipmentTypeFilter = {},
): Promise<Page<EquipmentTypeRow>> {
  const categoryIds = filter.categoryIds ?? null;
  const where = and(
    eq(equipmentTypes.entityId, ctx.entityId),
    isNull(equipmentTypes.archivedAt),
    categoryIds ? (categoryIds.length ? inArray(equipmentTypes.categoryId, categoryIds) : sql`false`) : undefined,
    query.q ? nameLike(equipmentTypes.name, query.q) : undefined,
  );
  const { fields, itemCount } = equipmentTypeSelection();
  const column = {
    name: sql`lower(${equipmentTypes.name})`,
    categoryName: sql`lower(${equipmentCategories.name})`,
    itemCount,
    creationTimestamp: equipmentTypes.createdAt,
  }[query.sort];
  const page = await readPage(
    query,
    ctx.db
      .select(fields)
      .from(equipmentTypes)
      .innerJoin(equipmentCategories, eq(equipmentCategories.id, equipmentTypes.categoryId))
      .where(where)
      .orderBy(query.dir === "desc" ? desc(column) : asc(column), asc(equipmentTypes.id))
      .$dynamic(),
    ctx.db.select({ n: count() }).from(equipmentTypes).where(where),
  );
  return { ...page, items: page.items.map(toTypeRow) };
}

export interface EquipmentTypeDetail extends EquipmentTypeRow {
  files: AttachedFile[];
  incidentTypes: { id: number; name: string }[];
}

/**
 * One generic equipment with its documentation and incident types. The catalogue is readable by every
 * user of the entity; its documentation files only by those who may open them (`equipmentTypeReach`:
 * a technician sees the files of the equipment placed in the rooms they reach, none otherwise).
 */
export async function getEquipmentType(ctx: ServiceContext, id: number): Promise<EquipmentTypeDetail> {
  const [row] = await ctx.db
    .select(equipmentTypeSelection().fields)
    .from(equipmentTypes)
    .innerJoin(equipmentCategories, eq(equipmentCategories.id, equipmentTypes.categoryId))
    .where(and(eq(equipmentTypes.id, id), eq(equipmentTypes.entityId, ctx.entityId), isNull(equipmentTypes.archivedAt)))
    .limit(1);
  if (!row) throw equipmentTypeNotFound();
  const name = incidentTypeName(ctx.locale);
  const [files, types] = await readAll(ctx, [
    async () => ctx.db
      .select({ id: storedFiles.id, name: storedFiles.originalName, mimeType: storedFiles.mimeType, sizeBytes: storedFiles.sizeBytes })
      .from(equipmentTypeFiles)
      .innerJoin(storedFiles, eq(storedFiles.id, equipmentTypeFiles.fileId))
      .innerJoin(equipmentTypes, eq(equipmentTypes.id, equipmentTypeFiles.equipmentTypeId))
      .where(
        and(
          eq(equipmentTypeFiles.equipmentTypeId, id),
          eq(equipmentTypeFiles.entityId, ctx.entityId),
          isNull(storedFiles.deletedAt),
          equipmentTypeReach(ctx),
        ),
      )
      .orderBy(asc(equipmentTypeFiles.createdAt), asc(storedFiles.originalName)),
    async () => ctx.db
      .select({ id: incidentTypes.id, name })
      .from(incidentTypeEquipmentTypes)
      .innerJoin(incidentTypes, eq(incidentTypes.id, incidentTypeEquipmentTypes.incidentTypeId))
      .where(
        and(
          eq(incidentTypeEquipmentTypes.equipmentTypeId, id),
          eq(incidentTypeEquipmentTypes.entityId, ctx.entityId),
          isNull(incidentTypes.archivedAt),
        ),
      )
      .orderBy(asc(sql`lower(${name})`)),
  ]);
  return { ...toTypeRow(row), files: files.map(toAttachedFile), incidentTypes: types };
}

/** The read model of the generic equipment form (/update-equipment-type/{id}): managers and administrators only. */
export async function getEquipmentTypeForEdit(ctx: ServiceContext, id: number): Promise<EquipmentTypeDetail> {
  assertCan(ctx.actor, "manage", "catalogue");
  return getEquipmentType(ctx, id);
}

/** Every active generic equipment (for the quantity dialog and filters). */
export async function listEquipmentTypeOptions(
  ctx: ServiceContext,
): Promise<{ id: number; name: string; categoryId: number; categoryName: string }[]> {
  return ctx.db
    .select({
      id: equipmentTypes.id,
      name: equipmentTypes.name,
      categoryId: equipmentTypes.categoryId,
      categoryName: equipmentCategories.name,
    })
    .from(equipmentTypes)
    .innerJoin(equipmentCategories, eq(equipmentCategories.id, equipmentTypes.categoryId))
    .where(and(eq(equipmentTypes.entityId, ctx.entityId), isNull(equipmentTypes.archivedAt)))
    .orderBy(asc(sql`lower(${equipmentCategories.name})`), asc(sql`lower(${equipmentTypes.name})`), asc(equipmentTypes.id));
}

// ---------------------------------------------------------------------------
// Specific equipment items (GET /api/equipments?roomIds=)
// ---------------------------------------------------------------------------
export interface EquipmentItemRow {
  id: number;
  internalReference: string | null;
  equipmentTypeId: number;
  equipmentName: string;
  categoryId: number;
  categoryName: string;
  roomId: number;
  roomName: string;
  buildingId: number;
  reportIdentifier: string | null;
}

/**
 * The specific items of the entity (GET /api/equipments), optionally of some rooms only, by room then
 * id, one page at a time (decision 017): the page's ids from `equipment_items_list_room_idx`, then
 * their rows; the total from the rooms' (or the generic equipment's) item counters.
 */
export async function listEquipmentItems(
  ctx: ServiceContext,
  filter: { roomIds: number[] | null },
  query: Pick<ListQuery, "page" | "size"> = { page: 1, size: DEFAULT_PAGE_SIZE },
): Promise<Page<EquipmentItemRow>> {
  const { roomIds } = filter;
  const e = ctx.entityId;
  const { limit, offset } = pageWindow(query);
  const page = { page: query.page, size: limit };
  if (roomIds && roomIds.length === 0) return { items: [], total: 0, ...page };
  // The rooms whose items are listed: active, of the entity, within the actor's reach.
  const liveRooms = and(
    eq(rooms.entityId, e),
    isNull(rooms.archivedAt),
    treeScope(ctx, "room"),
    roomIds ? inArray(rooms.id, roomIds) : undefined,
  );
  const everything = !roomIds && !treeScope(ctx, "room");
  // The total (counters) and the page's ids, in one statement.
  const totalSql = everything
    ? sql`select coalesce(sum(${equipmentTypes.itemCount}), 0)::int from ${equipmentTypes}
        where ${and(eq(equipmentTypes.entityId, e), isNull(equipmentTypes.archivedAt))}`
    : sql`select coalesce(sum(${rooms.equipmentCount}), 0)::int from ${rooms} where ${liveRooms}`;
  const [head] = rowsOf<{ total: number; ids: number[] | null }>(
    await ctx.db.execute(sql`
      select (${totalSql}) as total, array(
        select ${equipmentItems.id} from ${equipmentItems}
        where ${equipmentItems.entityId} = ${e} and ${equipmentItems.archivedAt} is null
          and ${equipmentItems.roomId} in (select ${rooms.id} from ${rooms} where ${liveRooms})
        order by ${equipmentItems.roomId}, ${equipmentItems.id}
        offset ${offset} limit ${limit}) as ids`),
  );
  const total = Number(head?.total ?? 0);
  const ids = (head?.ids ?? []).map(Number);
  if (ids.length === 0) return { items: [], total, ...page };
  const rows = await ctx.db
    .select({
      ...equipmentItemColumns,
      categoryId: equipmentTypes.categoryId,
      roomId: equipmentItems.roomId,
      roomName: rooms.name,
      buildingId: rooms.buildingId,
      reportIdentifier: reportIdentifiers.code,
    })
    .from(equipmentItems)
    .innerJoin(equipmentTypes, itemType)
    .innerJoin(equipmentCategories, typeCategory)
    .innerJoin(rooms, eq(rooms.id, equipmentItems.roomId))
    .leftJoin(reportIdentifiers, and(eq(reportIdentifiers.equipmentItemId, equipmentItems.id), isNull(reportIdentifiers.archivedAt)))
    .where(and(eq(equipmentItems.entityId, e), inArray(equipmentItems.id, ids)));
  const byId = new Map(rows.map((r) => [r.id, r]));
  return { items: ids.flatMap((id) => byId.get(id) ?? []), total, ...page };
}
