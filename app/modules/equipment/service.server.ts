import { and, eq, inArray, isNull, sql } from "drizzle-orm";
import { assertCan } from "~/core/actor";
import { type Input, resolveInput } from "~/core/input";
import { withTx } from "~/core/unit-of-work.server";
import { insertRecords } from "~/core/bulk-insert.server";
import { fieldRow, fieldValues } from "~/core/fields.server";
import { z } from "zod";
import { equipmentCategories, equipmentTypeFiles, equipmentTypes, incidentTypeEquipmentTypes } from "~/db/schema";
import { type ArchiveInput, checkConfirmName } from "~/lib/archive";
import type { ServiceContext } from "~/core/context.server";
import { ValidationError } from "~/lib/errors";
import { MAX_TAGS, tagField, TAG_TOO_MANY } from "~/lib/schema-helpers";
import { parseInput } from "~/lib/validation";
import { archiveEquipmentItemsWhere, type CascadeCounts } from "~/modules/facilities/cascade.server";
import { lockCounted } from "~/modules/facilities/counters.server";
import { type FilesContext, uploadsOf, type Upload } from "~/modules/files/uploads.server";
import { activeIncidentTypeIds } from "~/modules/incident-types/queries.server";
import { categoryNotFound, type CategoryRow, equipmentTypeNotFound, type EquipmentTypeDetail, getCategory, getEquipmentType } from "./queries.server";
import { CATEGORY_FIELDS, type CategoryInput, CategorySchema, EQUIPMENT_TYPE_FIELDS, EquipmentTypeFieldsSchema, type EquipmentTypeFieldsInput, type EquipmentTypeInput, EquipmentTypeSchema } from "./schema";
import { AUDIT } from "~/core/audit-actions";

/**
 * Every write of equipment categories and generic equipment (SPEC.md sections 3-5), shared by the
 * form actions and the REST routes.
 */

async function lockCategory(ctx: ServiceContext, id: number) {
  const [row] = await ctx.db
    .select()
    .from(equipmentCategories)
    .where(and(eq(equipmentCategories.id, id), eq(equipmentCategories.entityId, ctx.entityId), isNull(equipmentCategories.archivedAt)))
    .for("update");
  if (!row) throw categoryNotFound();
  return row;
}

async function lockEquipmentType(ctx: ServiceContext, id: number) {
  const [row] = await ctx.db
    .select()
    .from(equipmentTypes)
    .where(and(eq(equipmentTypes.id, id), eq(equipmentTypes.entityId, ctx.entityId), isNull(equipmentTypes.archivedAt)))
    .for("update");
  if (!row) throw equipmentTypeNotFound();
  return row;
}

// ---------------------------------------------------------------------------
// Categories
// ---------------------------------------------------------------------------

export async function createCategory(ctx: ServiceContext, rawInput: Input<CategoryInput>): Promise<CategoryRow> {
  assertCan(ctx.actor, "manage", "catalogue");
  const raw = await resolveInput(rawInput);
  const input = parseInput(CategorySchema, raw);
  return withTx(ctx, async (txCtx, effects) => {
    const tx = txCtx.db;
    const [row] = await tx
      .insert(equipmentCategories)
      .values(fieldRow(equipmentCategories, CATEGORY_FIELDS, input, { entityId: ctx.entityId }))
      .returning({ id: equipmentCategories.id });
    await effects.audit({ action: AUDIT.equipmentCategory.create, recordType: "equipmentCategory", recordId: row.id });
    return getCategory(txCtx, row.id);
  });
}

export async function updateCategory(ctx: ServiceContext, id: number, rawInput: Input<CategoryInput>): Promise<CategoryRow> {
  assertCan(ctx.actor, "manage", "catalogue");
  const raw = await resolveInput(rawInput);
  const input = parseInput(CategorySchema, raw);
  return withTx(ctx, async (txCtx, effects) => {
    const tx = txCtx.db;
    await lockCategory(txCtx, id);
    await tx
      .update(equipmentCategories)
      .set({ ...fieldValues(equipmentCategories, CATEGORY_FIELDS, input), updatedAt: new Date() })
      .where(and(eq(equipmentCategories.id, id), eq(equipmentCategories.entityId, ctx.entityId)));
    await effects.audit({ action: AUDIT.equipmentCategory.update, recordType: "equipmentCategory", recordId: id });
    return getCategory(txCtx, id);
  });
}

export type EquipmentArchiveCounts = Pick<CascadeCounts, "equipmentItems" | "reportIdentifiers" | "incidentsRejected"> & {
  equipmentTypes: number;
};

/**
 * Archives a category and its generic equipment: their items leave the rooms (with their report
 * identifiers) and their Pending and In Progress incidents are rejected (SPEC.md section 4).
 */
export async function archiveCategory(ctx: ServiceContext, id: number, confirm?: ArchiveInput): Promise<EquipmentArchiveCounts> {
  assertCan(ctx.actor, "manage", "catalogue");
  return withTx(ctx, async (txCtx, effects) => {
    const tx = txCtx.db;
    const category = await lockCategory(txCtx, id);
    checkConfirmName(category.name, confirm);
    const counts = await archiveEquipmentItemsWhere(
      txCtx,
      effects,
      sql`e.equipment_type_id in (select id from equipment_types where entity_id = ${ctx.entityId} and category_id = ${id})`,
    );
    const types = await tx
      .update(equipmentTypes)
      .set({ archivedAt: new Date(), updatedAt: new Date() })
      .where(and(eq(equipmentTypes.entityId, ctx.entityId), eq(equipmentTypes.categoryId, id), isNull(equipmentTypes.archivedAt)))
      .returning({ id: equipmentTypes.id });
    await tx.update(equipmentCategories).set({ archivedAt: new Date(), updatedAt: new Date() }).where(and(eq(equipmentCategories.id, id), eq(equipmentCategories.entityId, ctx.entityId)));
    await effects.audit({ action: AUDIT.equipmentCategory.archive, recordType: "equipmentCategory", recordId: id });
    return { ...counts, equipmentTypes: types.length };
  });
}

// ---------------------------------------------------------------------------
// Generic equipment
// ---------------------------------------------------------------------------

export type EquipmentTypeWrite = EquipmentTypeInput & { newFiles?: Upload[] };

async function checkEquipmentReferences(ctx: ServiceContext, categoryId: number, incidentTypeIds: number[]) {
  const errors: Record<string, string[]> = {};
  const [category] = await ctx.db
    .select({ id: equipmentCategories.id })
    .from(equipmentCategories)
    .where(and(eq(equipmentCategories.id, categoryId), eq(equipmentCategories.entityId, ctx.entityId), isNull(equipmentCategories.archivedAt)))
    // Locked for the counter update to come (see checkReferences in rooms/service.server.ts).
    .for("no key update");
  if (!category) errors.categoryId = ["equipment:errors.categoryNotFound"];
  const known = await activeIncidentTypeIds(ctx, incidentTypeIds);
  if (incidentTypeIds.some((tid) => !known.has(tid))) errors.incidentTypes = ["rooms:errors.incidentTypeNotFound"];
  if (Object.keys(errors).length) throw new ValidationError(errors);
}

async function replaceIncidentTypes(ctx: ServiceContext, equipmentTypeId: number, ids: number[]) {
  await ctx.db
    .delete(incidentTypeEquipmentTypes)
    .where(and(eq(incidentTypeEquipmentTypes.equipmentTypeId, equipmentTypeId), eq(incidentTypeEquipmentTypes.entityId, ctx.entityId)));
  if (ids.length) {
    await ctx.db
      .insert(incidentTypeEquipmentTypes)
      .values(ids.map((incidentTypeId) => ({ entityId: ctx.entityId, incidentTypeId, equipmentTypeId })));
  }
}

export async function createEquipmentType(ctx: FilesContext, rawInput: Input<EquipmentTypeWrite>): Promise<EquipmentTypeDetail> {
  assertCan(ctx.actor, "manage", "catalogue");
  const raw = await resolveInput(rawInput);
  const input = parseInput(EquipmentTypeSchema, raw);
  return withTx(ctx, async (txCtx, effects) => {
    const uploads = uploadsOf(txCtx, effects);
    await checkEquipmentReferences(txCtx, input.categoryId, input.incidentTypes);
    const [row] = await txCtx.db
      .insert(equipmentTypes)
      .values(fieldRow(equipmentTypes, EQUIPMENT_TYPE_FIELDS, input, { entityId: ctx.entityId }))
      .returning({ id: equipmentTypes.id });
    await replaceIncidentTypes(txCtx, row.id, input.incidentTypes);
    for (const file of raw.newFiles ?? []) {
      const fileId = await uploads.add(file, { kind: "document", field: "newFiles" });
      await txCtx.db.insert(equipmentTypeFiles).values({ entityId: ctx.entityId, equipmentTypeId: row.id, fileId });
    }
    await effects.audit({ action: AUDIT.equipmentType.create, recordType: "equipmentType", recordId: row.id });
    return getEquipmentType(txCtx, row.id);
  });
}

/** Replaces a generic equipment (PUT semantics); adds `newFiles`, deletes `deletedFiles`. */
export async function updateEquipmentType(ctx: FilesContext, id: number, rawInput: Input<EquipmentTypeWrite>): Promise<EquipmentTypeDetail> {
  assertCan(ctx.actor, "manage", "catalogue");
  const raw = await resolveInput(rawInput);
  const input = parseInput(EquipmentTypeSchema, raw);
  return withTx(ctx, async (txCtx, effects) => {
    const uploads = uploadsOf(txCtx, effects);
    const db = txCtx.db;
    const current = await lockEquipmentType(txCtx, id);
    await lockCounted(txCtx, "equipment_categories", [current.categoryId, input.categoryId]);
    await checkEquipmentReferences(txCtx, input.categoryId, input.incidentTypes);
    if (input.deletedFiles.length) {
      const deleted = await db
        .delete(equipmentTypeFiles)
        .where(
          and(
            eq(equipmentTypeFiles.equipmentTypeId, id),
            eq(equipmentTypeFiles.entityId, ctx.entityId),
            inArray(equipmentTypeFiles.fileId, input.deletedFiles),
          ),
        )
        .returning({ fileId: equipmentTypeFiles.fileId });
      if (deleted.length !== input.deletedFiles.length) {
        throw new ValidationError({ deletedFiles: ["errors.file.deleteFailed"] }, "errors.file.deleteFailed", "FILE_DELETE_FAILED");
      }
      for (const d of deleted) uploads.retire(d.fileId);
    }
    await db
      .update(equipmentTypes)
      .set({ ...fieldValues(equipmentTypes, EQUIPMENT_TYPE_FIELDS, input), updatedAt: new Date() })
      .where(and(eq(equipmentTypes.id, id), eq(equipmentTypes.entityId, ctx.entityId)));
    await replaceIncidentTypes(txCtx, id, input.incidentTypes);
    for (const file of raw.newFiles ?? []) {
      const fileId = await uploads.add(file, { kind: "document", field: "newFiles" });
      await db.insert(equipmentTypeFiles).values({ entityId: ctx.entityId, equipmentTypeId: id, fileId });
    }
    await effects.audit({ action: AUDIT.equipmentType.update, recordType: "equipmentType", recordId: id });
    return getEquipmentType(txCtx, id);
  });
}

/** Archives a generic equipment: its items leave the rooms and their Pending/In Progress incidents are rejected. */
export async function archiveEquipmentType(ctx: ServiceContext, id: number, confirm?: ArchiveInput): Promise<EquipmentArchiveCounts> {
  assertCan(ctx.actor, "manage", "catalogue");
  return withTx(ctx, async (txCtx, effects) => {
    const tx = txCtx.db;
    const type = await lockEquipmentType(txCtx, id);
    checkConfirmName(type.name, confirm);
    const counts = await archiveEquipmentItemsWhere(txCtx, effects, sql`e.equipment_type_id = ${id}`);
    await tx.update(equipmentTypes).set({ archivedAt: new Date(), updatedAt: new Date() }).where(and(eq(equipmentTypes.id, id), eq(equipmentTypes.entityId, ctx.entityId)));
    await effects.audit({ action: AUDIT.equipmentType.archive, recordType: "equipmentType", recordId: id });
    return { ...counts, equipmentTypes: 1 };
  });
}

/** POST /equipments/type/{id}/tags: adds one tag (at most 3, at most 20 characters, not empty). */
export async function addEquipmentTypeTag(ctx: ServiceContext, id: number, labelInput: Input<unknown>): Promise<EquipmentTypeDetail> {
  assertCan(ctx.actor, "manage", "catalogue");
  const label = await resolveInput(labelInput);
  const { label: tag } = parseInput(z.object({ label: tagField() }), { label });
  return withTx(ctx, async (txCtx, effects) => {
    const tx = txCtx.db;
    const row = await lockEquipmentType(txCtx, id);
    if (!row.tags.some((t) => t.toLowerCase() === tag.toLowerCase())) {
      if (row.tags.length >= MAX_TAGS) throw new ValidationError({ label: [TAG_TOO_MANY] }, TAG_TOO_MANY, "TOO_MANY_TAGS");
      await tx
        .update(equipmentTypes)
        .set({ tags: [...row.tags, tag], updatedAt: new Date() })
        .where(and(eq(equipmentTypes.id, id), eq(equipmentTypes.entityId, ctx.entityId)));
    }
    await effects.audit({ action: AUDIT.equipmentType.addTag, recordType: "equipmentType", recordId: id });
    return getEquipmentType(txCtx, id);
  });
}

/** DELETE /equipments/type/{id}/tags/{tag}: removes a tag (ignoring case); an absent tag is not found. */
export async function removeEquipmentTypeTag(ctx: ServiceContext, id: number, tag: string): Promise<EquipmentTypeDetail> {
  assertCan(ctx.actor, "manage", "catalogue");
  return withTx(ctx, async (txCtx, effects) => {
    const tx = txCtx.db;
    const row = await lockEquipmentType(txCtx, id);
    const kept = row.tags.filter((t) => t.toLowerCase() !== tag.trim().toLowerCase());
    if (kept.length === row.tags.length) {
      throw new ValidationError({ tag: ["equipment:errors.tagNotFound"] }, "equipment:errors.tagNotFound", "TAG_NOT_FOUND");
    }
    await tx.update(equipmentTypes).set({ tags: kept, updatedAt: new Date() }).where(and(eq(equipmentTypes.id, id), eq(equipmentTypes.entityId, ctx.entityId)));
    await effects.audit({ action: AUDIT.equipmentType.removeTag, recordType: "equipmentType", recordId: id });
    return getEquipmentType(txCtx, id);
  });
}

// ---------------------------------------------------------------------------
// Bulk creation (imports, decision 054)
// ---------------------------------------------------------------------------

const BulkCategorySchema = z.array(CategorySchema).max(100_000);
const BulkEquipmentTypeSchema = z.array(EquipmentTypeFieldsSchema).max(100_000);

/** Creates many categories in one statement (an import), with their audit rows. Returns the new ids. */
export async function createCategoriesBulk(ctx: ServiceContext, rawRows: Input<CategoryInput[]>, options: { details?: Record<string, unknown> } = {}): Promise<number[]> {
  assertCan(ctx.actor, "manage", "catalogue");
  const rows = parseInput(BulkCategorySchema, await resolveInput(rawRows));
  return withTx(ctx, (txCtx) =>
    insertRecords(txCtx, {
      table: equipmentCategories,
      rows: rows.map((r) => fieldValues(equipmentCategories, CATEGORY_FIELDS, r)),
      audit: { action: AUDIT.equipmentCategory.create, recordType: "equipmentCategory", details: options.details },
    }),
  );
}

/** Creates many generic equipment in one statement (an import); every category must be active and of the entity. */
export async function createEquipmentTypesBulk(
  ctx: ServiceContext,
  rawRows: Input<EquipmentTypeFieldsInput[]>,
  options: { details?: Record<string, unknown> } = {},
): Promise<number[]> {
  assertCan(ctx.actor, "manage", "catalogue");
  const rows = parseInput(BulkEquipmentTypeSchema, await resolveInput(rawRows));
  return withTx(ctx, async (txCtx) => {
    if (rows.length === 0) return [];
    const parents = [...new Set(rows.map((r) => r.categoryId))].sort((a, b) => a - b);
    // Locked for the counter updates to come; archiving a category meanwhile waits for this commit.
    const found = await txCtx.db
      .select({ id: equipmentCategories.id })
      .from(equipmentCategories)
      .where(and(inArray(equipmentCategories.id, parents), eq(equipmentCategories.entityId, ctx.entityId), isNull(equipmentCategories.archivedAt)))
      .orderBy(equipmentCategories.id)
      .for("no key update");
    if (found.length !== parents.length) throw new ValidationError({ categoryId: ["equipment:errors.categoryNotFound"] }, "equipment:errors.categoryNotFound", "CATEGORY_NOT_FOUND");
    return insertRecords(txCtx, {
      table: equipmentTypes,
      rows: rows.map((r) => fieldValues(equipmentTypes, EQUIPMENT_TYPE_FIELDS, r)),
      audit: { action: AUDIT.equipmentType.create, recordType: "equipmentType", details: options.details },
    });
  });
}
