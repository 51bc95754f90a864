import { and, eq, inArray, isNull, sql } from "drizzle-orm";
import { z } from "zod";
import { assertCan } from "~/core/actor";
import { AUDIT } from "~/core/audit-actions";
import type { ServiceContext } from "~/core/context.server";
import { type Input, resolveInput } from "~/core/input";
import { withTx } from "~/core/unit-of-work.server";
import { equipmentItemFiles, equipmentItems, equipmentTypes, rooms } from "~/db/schema";
import { ValidationError } from "~/lib/errors";
import { rowsOf } from "~/lib/list-page.server";
import { parseInput } from "~/lib/validation";
import { treeScope } from "~/modules/facilities/policy.server";
import { type FilesContext, type Upload, uploadsOf } from "~/modules/files/uploads.server";
import { equipmentItemNotFound } from "~/modules/reliability/queries.server";
import { equipmentItemChanged } from "./changes.server";
import { descendantsAndSelf, type EquipmentItemRecordView, getEquipmentItemRecord } from "./item-queries.server";
import { issueReportIdentifiers } from "~/modules/rooms/report-identifiers.server";
import { type EquipmentItemImportInput, EquipmentItemImportSchema, type EquipmentItemRecordInput, EquipmentItemRecordSchema } from "./schema";

/**
 * The writes of an equipment item's record (issue 63), shared by the item screen's forms and the REST
 * routes. Like the room form that creates items, they need `manage place` and reach the items of the
 * rooms in the actor's facilities and buildings (`treeScope`): any other item is not found.
 */

export const PARENT_LOOP = "equipment:errors.parentLoop";

/** Locks an active item in an active room the actor reaches; NotFound otherwise. */
async function lockItem(ctx: ServiceContext, id: number) {
  const [row] = await ctx.db
    .select({ id: equipmentItems.id, parentItemId: equipmentItems.parentItemId, roomId: equipmentItems.roomId, equipmentTypeId: equipmentItems.equipmentTypeId })
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

const ImportRowsSchema = z.array(EquipmentItemImportSchema);

/**
 * Writes the lines of an equipment items' import (decision 010), in the caller's unit of work: a line
 * naming an item (`id`, else its internal reference in the room) updates that item's record with the
 * fields it carries (a field left out is kept), the item keeping its room and generic equipment; any
 * other line creates an item in its room (the room form's default reference when none is given) with
 * a report identifier. Parents are checked as `updateEquipmentItem` checks them (no loop). Returns the
 * ids written, in the lines' order.
 */
export async function importEquipmentItemsBulk(ctx: ServiceContext, rawRows: Input<EquipmentItemImportInput[]>, options: { details?: Record<string, unknown> } = {}): Promise<number[]> {
  assertCan(ctx.actor, "manage", "place");
  const raw = (await resolveInput(rawRows)) as Array<Record<string, unknown>>;
  const rows = parseInput(ImportRowsSchema, raw);
  return withTx(ctx, async (txCtx, effects) => {
    if (rows.length === 0) return [];
    const db = txCtx.db;
    const roomIds = [...new Set(rows.map((r) => r.roomId))].sort((a, b) => a - b);
    const foundRooms = await db
      .select({ id: rooms.id })
      .from(rooms)
      .where(and(inArray(rooms.id, roomIds), eq(rooms.entityId, ctx.entityId), isNull(rooms.archivedAt), treeScope(txCtx, "room")))
      .orderBy(rooms.id)
      .for("no key update");
    if (foundRooms.length !== roomIds.length) throw new ValidationError({ roomId: ["rooms:errors.roomNotFound"] }, "rooms:errors.roomNotFound", "ROOM_NOT_FOUND");
    const typeIds = [...new Set(rows.map((r) => r.equipmentTypeId))];
    const types = await db
      .select({ id: equipmentTypes.id, name: equipmentTypes.name })
      .from(equipmentTypes)
      .where(and(inArray(equipmentTypes.id, typeIds), eq(equipmentTypes.entityId, ctx.entityId), isNull(equipmentTypes.archivedAt)));
    if (types.length !== typeIds.length) throw new ValidationError({ equipmentTypeId: ["equipment:errors.equipmentTypeNotFound"] }, "equipment:errors.equipmentTypeNotFound", "EQUIPMENT_TYPE_NOT_FOUND");
    const names = new Map(types.map((t) => [t.id, t.name]));
    const counters = new Map<string, number>();
    const ids: number[] = [];
    for (const [i, row] of rows.entries()) {
      const given = raw[i];
      const record = Object.fromEntries(RECORD_KEYS.filter((k) => given[k] !== undefined).map((k) => [k, row[k]]));
      const id = row.id ?? (row.internalReference === null ? null : await itemByReference(txCtx, row.roomId, row.internalReference));
      if (id !== null) {
        const current = await lockItem(txCtx, id);
        if (current.roomId !== row.roomId || current.equipmentTypeId !== row.equipmentTypeId) throw new ValidationError({ roomId: ["imports:errors.itemMoved"] }, "imports:errors.itemMoved", "ITEM_MOVED");
        if (record.parentItemId != null && record.parentItemId !== current.parentItemId) await checkParent(txCtx, id, record.parentItemId as number);
        await db
          .update(equipmentItems)
          // Named by its identifier, the line may rename it; named by its reference, it keeps the stored one.
          .set({ ...record, ...(row.id !== null && row.internalReference !== null ? { internalReference: row.internalReference } : {}), updatedAt: new Date() })
          .where(and(eq(equipmentItems.id, id), eq(equipmentItems.entityId, ctx.entityId)));
        await effects.audit({ action: AUDIT.equipmentItem.update, recordType: "equipmentItem", recordId: id, details: options.details });
        await effects.emit(equipmentItemChanged, { equipmentItemId: id, part: "record" });
        ids.push(id);
        continue;
      }
      const internalReference = row.internalReference ?? `${names.get(row.equipmentTypeId) ?? ""} ${await nextItemNumber(txCtx, counters, row.roomId, row.equipmentTypeId)}`.trim();
      const { parentItemId, ...fields } = record;
      const [created] = await db
        .insert(equipmentItems)
        .values({ ...fields, entityId: ctx.entityId, roomId: row.roomId, equipmentTypeId: row.equipmentTypeId, internalReference })
        .returning({ id: equipmentItems.id });
      if (parentItemId != null) {
        await checkParent(txCtx, created.id, parentItemId as number);
        await db.update(equipmentItems).set({ parentItemId: parentItemId as number }).where(and(eq(equipmentItems.id, created.id), eq(equipmentItems.entityId, ctx.entityId)));
      }
      await issueReportIdentifiers(txCtx, [{ equipmentItemId: created.id }]);
      await effects.audit({ action: AUDIT.equipmentItem.create, recordType: "equipmentItem", recordId: created.id, details: options.details });
      ids.push(created.id);
    }
    return ids;
  });
}

/** The record fields a line may carry (those of the item screen's form). */
const RECORD_KEYS = ["serialNumber", "manufacturer", "model", "installedOn", "warrantyEndsOn", "supplier", "notes", "parentItemId"] as const;

/** The one active item of the room with this internal reference (ignoring case), or null. */
async function itemByReference(ctx: ServiceContext, roomId: number, reference: string): Promise<number | null> {
  const found = await ctx.db
    .select({ id: equipmentItems.id })
    .from(equipmentItems)
    .where(and(eq(equipmentItems.roomId, roomId), eq(equipmentItems.entityId, ctx.entityId), isNull(equipmentItems.archivedAt), sql`lower(${equipmentItems.internalReference}) = lower(${reference})`))
    .limit(2);
  return found.length === 1 ? found[0].id : null;
}

/** The next number of the room form's default reference "<generic equipment> <n>", per generic equipment in the room. */
async function nextItemNumber(ctx: ServiceContext, counters: Map<string, number>, roomId: number, equipmentTypeId: number): Promise<number> {
  const key = `${roomId}/${equipmentTypeId}`;
  let n = counters.get(key);
  if (n === undefined) {
    const [row] = await ctx.db
      .select({ n: sql<number>`count(*)::int` })
      .from(equipmentItems)
      .where(and(eq(equipmentItems.roomId, roomId), eq(equipmentItems.entityId, ctx.entityId), eq(equipmentItems.equipmentTypeId, equipmentTypeId)));
    n = row?.n ?? 0;
  }
  counters.set(key, n + 1);
  return n + 1;
}
