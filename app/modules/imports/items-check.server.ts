import { and, eq, isNull, sql } from "drizzle-orm";
import type { ServiceContext } from "~/core/context.server";
import { BulkUploadErrorMessageType } from "~/db/enums";
import { type DataJobLineError, equipmentItems, rooms } from "~/db/schema";
import { liesAboveItself, PARENT_LOOP } from "~/modules/equipment/items.server";
import type { CheckedRow } from "./check.server";
import { normalise } from "./headers.server";

/**
 * The equipment items' import lines checked together (decision 010): which existing item each line
 * names (its identifier, else its internal reference in its room), that an item keeps its room and
 * generic equipment (the import does not move items), that no item is named twice, and that the parents
 * the file gives close no loop with the parents already stored.
 */
export async function checkItemLines(ctx: ServiceContext, rows: CheckedRow[]): Promise<DataJobLineError[]> {
  // tenant-scope: every item of the entity, whose stored parents a loop may pass through
  const items = await ctx.db
    .select({
      id: equipmentItems.id,
      roomId: equipmentItems.roomId,
      equipmentTypeId: equipmentItems.equipmentTypeId,
      parentItemId: equipmentItems.parentItemId,
      reference: equipmentItems.internalReference,
      active: sql<boolean>`${equipmentItems.archivedAt} is null`,
    })
    .from(equipmentItems)
    .where(eq(equipmentItems.entityId, ctx.entityId));
  const activeRooms = new Set(
    (await ctx.db.select({ id: rooms.id }).from(rooms).where(and(eq(rooms.entityId, ctx.entityId), isNull(rooms.archivedAt)))).map((r) => r.id),
  );
  const byId = new Map(items.map((i) => [i.id, i]));
  const byReference = new Map<string, number[]>();
  for (const item of items) {
    if (!item.active || !item.reference || !activeRooms.has(item.roomId)) continue;
    const key = `${item.roomId}/${normalise(item.reference)}`;
    byReference.set(key, [...(byReference.get(key) ?? []), item.id]);
  }

  const errors: DataJobLineError[] = [];
  const fail = (line: number, column: string, type: number, message: string, other?: number) =>
    errors.push({ line, column, type: type as DataJobLineError["type"], message, ...(other === undefined ? {} : { other }) });
  const parents = new Map(items.map((i) => [i.id, i.parentItemId]));
  const firstLine = new Map<string, number>();
  const targets: Array<{ row: CheckedRow; id: number }> = [];
  for (const row of rows) {
    const v = row.values;
    const reference = typeof v.internalReference === "string" ? normalise(v.internalReference) : null;
    let id = typeof v.identifier === "number" ? v.identifier : null;
    if (id === null && reference !== null && typeof v.room === "number") {
      const named = byReference.get(`${v.room}/${reference}`) ?? [];
      if (named.length > 1) fail(row.line, "internalReference", BulkUploadErrorMessageType.UNKNOWN_REFERENCE, "imports:errors.ambiguousItem");
      if (named.length === 1) id = named[0];
    }
    const key = id !== null ? `item/${id}` : reference !== null ? `new/${String(v.room)}/${reference}` : null;
    const column = typeof v.identifier === "number" ? "identifier" : "internalReference";
    if (key !== null) {
      const earlier = firstLine.get(key);
      if (earlier !== undefined) fail(row.line, column, BulkUploadErrorMessageType.DUPLICATE_IN_FILE, "imports:errors.duplicateInFile", earlier);
      else firstLine.set(key, row.line);
    }
    if (id === null) continue;
    const item = byId.get(id)!;
    if ((typeof v.room === "number" && v.room !== item.roomId) || (typeof v.equipment === "number" && v.equipment !== item.equipmentTypeId)) {
      fail(row.line, column, BulkUploadErrorMessageType.INVALID_VALUE, "imports:errors.itemMoved");
    }
    if ("parent" in v) parents.set(id, typeof v.parent === "number" ? v.parent : null);
    targets.push({ row, id });
  }

  // With every line's parent in place, no item may lie above itself.
  for (const { row, id } of targets) if (liesAboveItself(parents, id)) fail(row.line, "parent", BulkUploadErrorMessageType.INVALID_VALUE, PARENT_LOOP);
  return errors;
}
