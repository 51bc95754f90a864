import { and, eq, inArray, isNotNull, isNull, sql } from "drizzle-orm";
import { z } from "zod";
import { assertCan } from "~/core/actor";
import { AUDIT, type AuditAction } from "~/core/audit-actions";
import { insertRecords } from "~/core/bulk-insert.server";
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

const ImportRowsSchema = z.array(EquipmentItemImportSchema);

/** The record fields a line may carry (those of the item screen's form). */
const RECORD_KEYS = ["serialNumber", "manufacturer", "model", "installedOn", "warrantyEndsOn", "supplier", "notes", "parentItemId"] as const;
type RecordKey = (typeof RECORD_KEYS)[number];

const idArray = (ids: readonly number[]) => `{${ids.join(",")}}`;

/**
 * Writes the lines of an equipment items' import (decision 010), set-based in the caller's unit of
 * work: a line naming an item (`id`, else its internal reference in the room) updates that item's record
 * with the fields it carries (a field left out is kept), the item keeping its room and generic
 * equipment; any other line creates an item in its room (the room form's default reference when none is
 * given) with a report identifier. Parents are checked as `updateEquipmentItem` checks them: active items
 * in reach, and no loop once every line's parent is in place. One audit row per item written and a change
 * event per item updated. Returns the ids written, in the lines' order.
 */
export async function importEquipmentItemsBulk(ctx: ServiceContext, rawRows: Input<EquipmentItemImportInput[]>, options: { details?: Record<string, unknown> } = {}): Promise<number[]> {
  assertCan(ctx.actor, "manage", "place");
  const raw = (await resolveInput(rawRows)) as Array<Record<string, unknown>>;
  const rows = parseInput(ImportRowsSchema, raw).map((row, i) => ({ row, keys: RECORD_KEYS.filter((k) => raw[i][k] !== undefined) }));
  return withTx(ctx, async (txCtx, effects) => {
    if (rows.length === 0) return [];
    const db = txCtx.db;
    const e = ctx.entityId;
    const roomIds = [...new Set(rows.map((r) => r.row.roomId))].sort((a, b) => a - b);
    const foundRooms = await db
      .select({ id: rooms.id })
      .from(rooms)
      .where(and(inArray(rooms.id, roomIds), eq(rooms.entityId, e), isNull(rooms.archivedAt), treeScope(txCtx, "room")))
      .orderBy(rooms.id)
      .for("no key update");
    if (foundRooms.length !== roomIds.length) throw new ValidationError({ roomId: ["rooms:errors.roomNotFound"] }, "rooms:errors.roomNotFound", "ROOM_NOT_FOUND");
    const typeIds = [...new Set(rows.map((r) => r.row.equipmentTypeId))];
    const types = await db
      .select({ id: equipmentTypes.id, name: equipmentTypes.name })
      .from(equipmentTypes)
      .where(and(inArray(equipmentTypes.id, typeIds), eq(equipmentTypes.entityId, e), isNull(equipmentTypes.archivedAt)));
    if (types.length !== typeIds.length) throw new ValidationError({ equipmentTypeId: ["equipment:errors.equipmentTypeNotFound"] }, "equipment:errors.equipmentTypeNotFound", "EQUIPMENT_TYPE_NOT_FOUND");

    // The items the lines name: by id, else by their one active item of that reference in the room.
    const named = await db
      .select({ id: equipmentItems.id, roomId: equipmentItems.roomId, reference: sql<string>`lower(${equipmentItems.internalReference})` })
      .from(equipmentItems)
      .where(and(eq(equipmentItems.entityId, e), inArray(equipmentItems.roomId, roomIds), isNull(equipmentItems.archivedAt), isNotNull(equipmentItems.internalReference)));
    const byReference = new Map<string, number[]>();
    for (const n of named) byReference.set(`${n.roomId}/${n.reference}`, [...(byReference.get(`${n.roomId}/${n.reference}`) ?? []), n.id]);
    const targets = rows.map(({ row }) => {
      if (row.id !== null) return row.id;
      const found = row.internalReference === null ? [] : (byReference.get(`${row.roomId}/${row.internalReference.toLowerCase()}`) ?? []);
      return found.length === 1 ? found[0] : null;
    });
    const targetIds = [...new Set(targets.filter((id): id is number => id !== null))].sort((a, b) => a - b);
    const locked = targetIds.length
      ? await db
          .select({ id: equipmentItems.id, roomId: equipmentItems.roomId, equipmentTypeId: equipmentItems.equipmentTypeId, parentItemId: equipmentItems.parentItemId })
          .from(equipmentItems)
          .innerJoin(rooms, eq(rooms.id, equipmentItems.roomId))
          .where(and(inArray(equipmentItems.id, targetIds), eq(equipmentItems.entityId, e), isNull(equipmentItems.archivedAt), isNull(rooms.archivedAt), treeScope(txCtx, "equipmentItem")))
          .orderBy(equipmentItems.id)
          .for("update", { of: equipmentItems })
      : [];
    if (locked.length !== targetIds.length) throw equipmentItemNotFound();
    if (targetIds.length !== targets.filter((id) => id !== null).length) throw new ValidationError({ id: ["imports:errors.duplicateInFile"] }, "imports:errors.duplicateInFile", "DUPLICATE_ITEM");
    const current = new Map(locked.map((l) => [l.id, l]));
    rows.forEach(({ row }, i) => {
      const item = targets[i] === null ? null : current.get(targets[i]!)!;
      if (item && (item.roomId !== row.roomId || item.equipmentTypeId !== row.equipmentTypeId)) throw new ValidationError({ roomId: ["imports:errors.itemMoved"] }, "imports:errors.itemMoved", "ITEM_MOVED");
    });
    await checkParents(txCtx, rows.flatMap(({ row, keys }, i) => (keys.includes("parentItemId") ? [{ id: targets[i], parentItemId: row.parentItemId }] : [])));

    // Updates, one statement per set of columns the lines carry (a file's lines carry the same ones).
    const updated: number[] = [];
    const groups = new Map<string, Array<{ id: number; values: Record<string, unknown> }>>();
    rows.forEach(({ row, keys }, i) => {
      if (targets[i] === null) return;
      const values: Record<string, unknown> = Object.fromEntries(keys.map((k) => [k, row[k]]));
      // Named by its identifier, the line may rename it; named by its reference, it keeps the stored one.
      if (row.id !== null && row.internalReference !== null) values.internalReference = row.internalReference;
      const signature = Object.keys(values).join(",");
      groups.set(signature, [...(groups.get(signature) ?? []), { id: targets[i]!, values }]);
      updated.push(targets[i]!);
    });
    for (const group of groups.values()) await updateItems(txCtx, group);
    if (updated.length) {
      await auditItems(txCtx, AUDIT.equipmentItem.update, updated, options.details);
      await effects.emitEach(
        equipmentItemChanged,
        sql`select x as subject_id, jsonb_build_object('equipmentItemId', x, 'part', 'record') as payload from unnest(${idArray(updated)}::int[]) as x order by x`,
      );
    }

    // New items: the room form's default reference "<generic equipment> <n>", numbered per generic equipment in the room.
    const fresh = rows.flatMap((r, i) => (targets[i] === null ? [{ ...r, index: i }] : []));
    if (fresh.length) {
      const names = new Map(types.map((t) => [t.id, t.name]));
      const counts = await db
        .select({ roomId: equipmentItems.roomId, equipmentTypeId: equipmentItems.equipmentTypeId, n: sql<number>`count(*)::int` })
        .from(equipmentItems)
        .where(and(eq(equipmentItems.entityId, e), inArray(equipmentItems.roomId, [...new Set(fresh.map((f) => f.row.roomId))])))
        .groupBy(equipmentItems.roomId, equipmentItems.equipmentTypeId);
      const counters = new Map(counts.map((c) => [`${c.roomId}/${c.equipmentTypeId}`, c.n]));
      const created = await insertRecords(txCtx, {
        table: equipmentItems,
        rows: fresh.map(({ row, keys }) => {
          const key = `${row.roomId}/${row.equipmentTypeId}`;
          const n = (counters.get(key) ?? 0) + 1;
          counters.set(key, n);
          const record = Object.fromEntries(keys.filter((k) => k !== "parentItemId").map((k) => [k, row[k]]));
          return { ...record, roomId: row.roomId, equipmentTypeId: row.equipmentTypeId, internalReference: row.internalReference ?? `${names.get(row.equipmentTypeId) ?? ""} ${n}`.trim() };
        }),
        audit: { action: AUDIT.equipmentItem.create, recordType: "equipmentItem", details: options.details },
      });
      fresh.forEach((f, i) => (targets[f.index] = created[i]));
      const parented = fresh.flatMap((f, i) => (f.row.parentItemId !== null && f.keys.includes("parentItemId") ? [{ id: created[i], values: { parentItemId: f.row.parentItemId } }] : []));
      if (parented.length) await updateItems(txCtx, parented);
      await issueReportIdentifiers(txCtx, created.map((equipmentItemId) => ({ equipmentItemId })));
    }
    return targets as number[];
  });
}

/**
 * The parents an import gives (`id` null: an item it creates) are active items the actor reaches, and,
 * with all of them in place over the stored ones, no item lies above itself. Parent changes of the
 * entity are serialised as in `checkParent`.
 */
async function checkParents(ctx: ServiceContext, links: Array<{ id: number | null; parentItemId: number | null }>): Promise<void> {
  const parentIds = [...new Set(links.flatMap((l) => (l.parentItemId === null ? [] : [l.parentItemId])))];
  if (parentIds.length === 0) return;
  await ctx.db.execute(sql`select pg_advisory_xact_lock(hashtext(${`equipment-parent:${ctx.entityId}`}))`);
  const found = await ctx.db
    .select({ id: equipmentItems.id })
    .from(equipmentItems)
    .innerJoin(rooms, eq(rooms.id, equipmentItems.roomId))
    .where(and(inArray(equipmentItems.id, parentIds), eq(equipmentItems.entityId, ctx.entityId), isNull(equipmentItems.archivedAt), isNull(rooms.archivedAt), treeScope(ctx, "equipmentItem")));
  if (found.length !== parentIds.length) throw new ValidationError({ parentItemId: ["equipment:errors.parentNotFound"] }, "equipment:errors.parentNotFound", "PARENT_NOT_FOUND");
  // tenant-scope: every stored parent link of the entity, which a loop may pass through
  const stored = await ctx.db.select({ id: equipmentItems.id, parentItemId: equipmentItems.parentItemId }).from(equipmentItems).where(and(eq(equipmentItems.entityId, ctx.entityId), isNotNull(equipmentItems.parentItemId)));
  const parents = new Map(stored.map((s) => [s.id, s.parentItemId]));
  for (const l of links) if (l.id !== null) parents.set(l.id, l.parentItemId);
  const ids = links.flatMap((l) => (l.id === null ? [] : [l.id]));
  if (ids.some((id) => liesAboveItself(parents, id))) throw new ValidationError({ parentItemId: [PARENT_LOOP] }, PARENT_LOOP, "PARENT_LOOP");
}

/** Whether item `id` is found above itself following `parents` (item to parent, null for none): a loop. */
export function liesAboveItself(parents: ReadonlyMap<number, number | null>, id: number): boolean {
  let at = parents.get(id) ?? null;
  for (let steps = 0; at !== null && steps <= parents.size; steps++) {
    if (at === id) return true;
    at = parents.get(at) ?? null;
  }
  return false;
}

/** Sets the given columns (Drizzle keys of `equipment_items`, the same for every row) of the entity's items, in one statement. */
async function updateItems(ctx: ServiceContext, rows: Array<{ id: number; values: Record<string, unknown> }>): Promise<void> {
  const keys = Object.keys(rows[0].values) as Array<RecordKey | "internalReference">;
  const columns = keys.map((k) => ({ key: k, name: equipmentItems[k].name, type: equipmentItems[k].getSQLType() }));
  const payload = JSON.stringify(rows.map((r) => ({ id: r.id, ...Object.fromEntries(columns.map((c) => [c.name, r.values[c.key] ?? null])) })));
  const set = sql.join([...columns.map((c) => sql`${sql.identifier(c.name)} = r.${sql.identifier(c.name)}`), sql`updated_at = now()`], sql`, `);
  const definitions = sql.raw(["id int", ...columns.map((c) => `"${c.name}" ${c.type}`)].join(", "));
  await ctx.db.execute(sql`update equipment_items e set ${set}
    from jsonb_to_recordset(${payload}::jsonb) as r(${definitions})
    where e.id = r.id and e.entity_id = ${ctx.entityId}`);
}

/** One audit row per item, in one statement. */
async function auditItems(ctx: ServiceContext, action: AuditAction, ids: number[], details?: Record<string, unknown>): Promise<void> {
  await ctx.db.execute(sql`
    insert into audit_log (entity_id, actor_id, actor_token_id, action, record_type, record_id, request_id, details)
    select ${ctx.entityId}, ${ctx.actor?.id ?? null}::int, ${ctx.actor?.kind === "token" ? ctx.actor.tokenId : null}::int, ${action}, 'equipmentItem', x::text, ${ctx.requestId ?? null}::text,
      ${details ? JSON.stringify(details) : null}::jsonb
    from unnest(${idArray(ids)}::int[]) as x`);
}
