import { and, eq, inArray, isNull, sql } from "drizzle-orm";
import { assertCan } from "~/core/actor";
import { AUDIT } from "~/core/audit-actions";
import type { ServiceContext } from "~/core/context.server";
import { type Input, resolveInput } from "~/core/input";
import { withTx } from "~/core/unit-of-work.server";
import { equipmentItemFiles, equipmentItems, rooms } from "~/db/schema";
import { ValidationError } from "~/lib/errors";
import { rowsOf } from "~/lib/list-page.server";
import { parseInput } from "~/lib/validation";
import { treeScope } from "~/modules/facilities/policy.server";
import { type FilesContext, type Upload, uploadsOf } from "~/modules/files/uploads.server";
import { equipmentItemNotFound } from "~/modules/reliability/queries.server";
import { equipmentItemChanged } from "./changes.server";
import { descendantsAndSelf, type EquipmentItemRecordView, getEquipmentItemRecord } from "./item-queries.server";
import { type EquipmentItemRecordInput, EquipmentItemRecordSchema } from "./schema";

/**
 * The writes of an equipment item's record (issue 63), shared by the item screen's forms and the REST
 * routes. Like the room form that creates items, they need `manage place` and reach the items of the
 * rooms in the actor's facilities and buildings (`treeScope`): any other item is not found.
 */

export const PARENT_LOOP = "equipment:errors.parentLoop";

/** Locks an active item in an active room the actor reaches; NotFound otherwise. */
async function lockItem(ctx: ServiceContext, id: number) {
  const [row] = await ctx.db
    .select({ id: equipmentItems.id, parentItemId: equipmentItems.parentItemId })
    .from(equipmentItems)
    .innerJoin(rooms, eq(rooms.id, equipmentItems.roomId))
    .where(and(eq(equipmentItems.id, id), eq(equipmentItems.entityId, ctx.entityId), isNull(equipmentItems.archivedAt), isNull(rooms.archivedAt), treeScope(ctx, "equipmentItem")))
    .for("update", { of: equipmentItems });
  if (!row) throw equipmentItemNotFound();
  return row;
}

/**
 * A new parent must be an active item the actor reaches and must not lie below the item (nor be the item):
 * the parent chain never loops. Parent changes of one entity are serialised by a transaction-scoped
 * advisory lock, so two items made each other's parent at once cannot both pass the check.
 */
async function checkParent(ctx: ServiceContext, id: number, parentItemId: number): Promise<void> {
  await ctx.db.execute(sql`select pg_advisory_xact_lock(hashtext(${`equipment-parent:${ctx.entityId}`}))`);
  const [parent] = await ctx.db
    .select({ id: equipmentItems.id })
    .from(equipmentItems)
    .innerJoin(rooms, eq(rooms.id, equipmentItems.roomId))
    .where(and(eq(equipmentItems.id, parentItemId), eq(equipmentItems.entityId, ctx.entityId), isNull(equipmentItems.archivedAt), isNull(rooms.archivedAt), treeScope(ctx, "equipmentItem")));
  if (!parent) throw new ValidationError({ parentItemId: ["equipment:errors.parentNotFound"] }, "equipment:errors.parentNotFound", "PARENT_NOT_FOUND");
  const [loop] = rowsOf(await ctx.db.execute(sql`select 1 as one where ${parentItemId}::int in (${descendantsAndSelf(ctx.entityId, id)})`));
  if (loop) throw new ValidationError({ parentItemId: [PARENT_LOOP] }, PARENT_LOOP, "PARENT_LOOP");
}

export type EquipmentItemWrite = EquipmentItemRecordInput & { newFiles?: Upload[] };

/**
 * Writes an item's record (PUT semantics: every field given, an empty one cleared): serial number,
 * manufacturer, model, installation and warranty end dates, supplier, notes and parent item; adds
 * `newFiles` (documents and photos, checked like every upload) and deletes `deletedFiles`. An unchanged
 * parent is kept even when archived since (an archived parent keeps its children).
 */
export async function updateEquipmentItem(ctx: FilesContext, id: number, rawInput: Input<EquipmentItemWrite>): Promise<EquipmentItemRecordView> {
  assertCan(ctx.actor, "manage", "place");
  const raw = await resolveInput(rawInput);
  const { deletedFiles, ...record } = parseInput(EquipmentItemRecordSchema, raw);
  return withTx(ctx, async (txCtx, effects) => {
    const uploads = uploadsOf(txCtx, effects);
    const db = txCtx.db;
    const current = await lockItem(txCtx, id);
    if (record.parentItemId !== null && record.parentItemId !== current.parentItemId) await checkParent(txCtx, id, record.parentItemId);
    if (deletedFiles.length) {
      const deleted = await db
        .delete(equipmentItemFiles)
        .where(and(eq(equipmentItemFiles.equipmentItemId, id), eq(equipmentItemFiles.entityId, ctx.entityId), inArray(equipmentItemFiles.fileId, deletedFiles)))
        .returning({ fileId: equipmentItemFiles.fileId });
      if (deleted.length !== deletedFiles.length) {
        throw new ValidationError({ deletedFiles: ["errors.file.deleteFailed"] }, "errors.file.deleteFailed", "FILE_DELETE_FAILED");
      }
      for (const d of deleted) uploads.retire(d.fileId);
    }
    await db
      .update(equipmentItems)
      .set({ ...record, updatedAt: new Date() })
      .where(and(eq(equipmentItems.id, id), eq(equipmentItems.entityId, ctx.entityId)));
    for (const file of raw.newFiles ?? []) {
      const fileId = await uploads.add(file, { kind: "document", field: "newFiles" });
      await db.insert(equipmentItemFiles).values({ entityId: ctx.entityId, equipmentItemId: id, fileId });
    }
    await effects.audit({ action: AUDIT.equipmentItem.update, recordType: "equipmentItem", recordId: id });
    await effects.emit(equipmentItemChanged, { equipmentItemId: id, part: "record" });
    return getEquipmentItemRecord(txCtx, id);
  });
}
