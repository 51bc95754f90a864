import { and, asc, eq, inArray, isNull, notInArray, sql } from "drizzle-orm";
import { z } from "zod";
import { insertRecords } from "~/core/bulk-insert.server";
import { fieldRow, fieldValues } from "~/core/fields.server";
import { assertCan } from "~/core/actor";
import { type Input, resolveInput } from "~/core/input";
import { withTx } from "~/core/unit-of-work.server";
import { buildings, equipmentItems, equipmentTypes, roomFiles, roomLinks, rooms, roomTypes } from "~/db/schema";
import { nextShortId, reserveShortIds } from "~/db/short-id.server";
import { type ArchiveInput, checkConfirmName, confirmNameErrors } from "~/lib/archive";
import type { ServiceContext } from "~/core/context.server";
import { type FieldErrors, ValidationError } from "~/lib/errors";
import { INVALID } from "~/lib/schema-helpers";
import { parseInput } from "~/lib/validation";
import { archiveEquipmentItemsWhere, archiveTree, type CascadeCounts } from "~/modules/facilities/cascade.server";
import { lockCounted } from "~/modules/facilities/counters.server";
import { treeScope } from "~/modules/facilities/policy.server";
import { type FilesContext, uploadsOf, type Upload, type Uploads } from "~/modules/files/uploads.server";
import { activeIncidentTypeIds } from "~/modules/incident-types/queries.server";
import { replaceRoomType, setRoomIncidentTypes } from "~/modules/incident-types/places.server";
import { getRoom, getRoomType, type RoomDetail, roomNotFound, type RoomTypeRow, roomTypeNotFound } from "./queries.server";
import { issueReportIdentifiers } from "./report-identifiers.server";
import { type RemoveRoomTypeInput, RemoveRoomTypeSchema, ROOM_FIELDS, ROOM_TYPE_FIELDS, RoomFieldsSchema, type RoomFieldsInput, type RoomInput, RoomSchema, type RoomTypeInput, RoomTypeSchema, type RoomValues, type UpdateRoomInput, UpdateRoomSchema } from "./schema";
import { AUDIT } from "~/core/audit-actions";

/**
 * Every write of rooms and room types (SPEC.md sections 3-5), shared by the form actions and the REST
 * routes: permission first, input parsed, one transaction, every read and write filtered by entity,
 * and rooms by the actor's reach (`treeScope`, decision 022: a room or building outside it is not found);
 * the list counters (modules/facilities/counters.server.ts) change in the same transaction.
 */

// ---------------------------------------------------------------------------
// Room types
// ---------------------------------------------------------------------------

/**
 * A room type's columns for an update and the bulk insert: its declared fields (schema.ts), and its
 * rating messages, one column made of the three languages' (the import's `compose`).
 */
function roomTypeColumns(input: z.output<typeof RoomTypeSchema>) {
  return { ...fieldValues(roomTypes, ROOM_TYPE_FIELDS, input), ratingMessages: input.roomTypeRatingMessages };
}

async function lockRoomType(ctx: ServiceContext, id: number) {
  const [row] = await ctx.db
    .select()
    .from(roomTypes)
    .where(and(eq(roomTypes.id, id), eq(roomTypes.entityId, ctx.entityId), isNull(roomTypes.archivedAt)))
    .for("update");
  if (!row) throw roomTypeNotFound();
  return row;
}

export async function createRoomType(ctx: ServiceContext, rawInput: Input<RoomTypeInput>): Promise<RoomTypeRow> {
  assertCan(ctx.actor, "manage", "catalogue");
  const raw = await resolveInput(rawInput);
  const input = parseInput(RoomTypeSchema, raw);
  return withTx(ctx, async (txCtx, effects) => {
    const tx = txCtx.db;
    const [row] = await tx
      .insert(roomTypes)
      .values(fieldRow(roomTypes, ROOM_TYPE_FIELDS, input, { entityId: ctx.entityId, ratingMessages: input.roomTypeRatingMessages }))
      .returning({ id: roomTypes.id });
    await effects.audit({ action: AUDIT.roomType.create, recordType: "roomType", recordId: row.id });
    return getRoomType(txCtx, row.id);
  });
}

export async function updateRoomType(ctx: ServiceContext, id: number, rawInput: Input<RoomTypeInput>): Promise<RoomTypeRow> {
  assertCan(ctx.actor, "manage", "catalogue");
  const raw = await resolveInput(rawInput);
  const input = parseInput(RoomTypeSchema, raw);
  return withTx(ctx, async (txCtx, effects) => {
    const tx = txCtx.db;
    await lockRoomType(txCtx, id);
    await tx
      .update(roomTypes)
      .set({ ...roomTypeColumns(input), updatedAt: new Date() })
      .where(and(eq(roomTypes.id, id), eq(roomTypes.entityId, ctx.entityId)));
    await effects.audit({ action: AUDIT.roomType.update, recordType: "roomType", recordId: id });
    return getRoomType(txCtx, id);
  });
}

export interface RemoveRoomTypeResult {
  roomsMoved: number;
  incidentTypesMoved: number;
}

/**
 * Removes a room type (SPEC.md sections 4 and 8). When rooms or incident types use it, a replacement
 * type (active, of the entity, not the removed one) is required: its rooms and incident types move to it.
 */
export async function removeRoomType(
  ctx: ServiceContext,
  id: number,
  rawInput: Input<RemoveRoomTypeInput>,
  confirm?: ArchiveInput,
): Promise<RemoveRoomTypeResult> {
  assertCan(ctx.actor, "manage", "catalogue");
  const raw = await resolveInput(rawInput);
  const { replacementRoomType } = parseInput(RemoveRoomTypeSchema, raw);
  return withTx(ctx, async (txCtx, effects) => {
    const tx = txCtx.db;
    const roomType = await lockRoomType(txCtx, id);
    const [usage] = await tx.execute<{ rooms: number; incident_types: number }>(sql`
      select
        (select count(*)::int from rooms where entity_id = ${ctx.entityId} and room_type_id = ${id} and archived_at is null) as rooms,
        (select count(*)::int from incident_type_room_types l join incident_types it on it.id = l.incident_type_id
          where l.entity_id = ${ctx.entityId} and l.room_type_id = ${id} and it.archived_at is null) as incident_types`).then(
      (r) => (r as unknown as { rows: { rooms: number; incident_types: number }[] }).rows,
    );
    const inUse = usage.rooms > 0 || usage.incident_types > 0;
    // A wrong retyped name and a missing replacement are reported together.
    const wrongName = confirmNameErrors(roomType.name, confirm);
    if (inUse && replacementRoomType === null) {
      throw new ValidationError(
        { ...wrongName, replacementRoomType: ["rooms:validation.replacementRequired"] },
        "rooms:errors.roomTypeInUse",
        "ROOM_TYPE_IN_USE",
      );
    }
    checkConfirmName(roomType.name, confirm);
    let roomsMoved = 0;
    let incidentTypesMoved = 0;
    if (replacementRoomType !== null) {
      if (replacementRoomType === id) {
        throw new ValidationError({ replacementRoomType: ["rooms:validation.replacementSame"] }, "rooms:validation.replacementSame", "REPLACEMENT_SAME");
      }
      const [replacement] = await tx
        .select({ id: roomTypes.id })
        .from(roomTypes)
        .where(and(eq(roomTypes.id, replacementRoomType), eq(roomTypes.entityId, ctx.entityId), isNull(roomTypes.archivedAt)))
        .for("no key update");
      if (!replacement) {
        throw new ValidationError({ replacementRoomType: ["rooms:errors.roomTypeNotFound"] }, "rooms:errors.roomTypeNotFound", "ROOM_TYPE_NOT_FOUND");
      }
      // The rooms leave the removed type's count and enter the replacement's (by trigger).
      const moved = await tx
        .update(rooms)
        .set({ roomTypeId: replacementRoomType, updatedAt: new Date() })
        .where(and(eq(rooms.entityId, ctx.entityId), eq(rooms.roomTypeId, id)))
        .returning({ id: rooms.id, archivedAt: rooms.archivedAt });
      roomsMoved = moved.filter((r) => r.archivedAt === null).length;
      incidentTypesMoved = await replaceRoomType(txCtx, id, replacementRoomType);
    }
    await tx.update(roomTypes).set({ archivedAt: new Date(), updatedAt: new Date() }).where(and(eq(roomTypes.id, id), eq(roomTypes.entityId, ctx.entityId)));
    await effects.audit({ action: AUDIT.roomType.remove, recordType: "roomType", recordId: id });
    return { roomsMoved, incidentTypesMoved };
  });
}

// ---------------------------------------------------------------------------
// Rooms
// ---------------------------------------------------------------------------

export type RoomWrite = RoomInput & {
  /** New files and images (documentation of the room). */
  newFiles?: Upload[];
};

/** A room's replacement: `RoomWrite` whose building may be left out (it then stays in its building). */
export type RoomUpdate = UpdateRoomInput & { newFiles?: Upload[] };

async function lockRoom(ctx: ServiceContext, id: number) {
  const [row] = await ctx.db
    .select()
    .from(rooms)
    .where(and(eq(rooms.id, id), eq(rooms.entityId, ctx.entityId), isNull(rooms.archivedAt), treeScope(ctx, "room")))
    .for("update");
  if (!row) throw roomNotFound();
  return row;
}

/**
 * Checks the references of a room input against the entity (building, within the actor's reach; room
 * type, generic equipment, incident types, existing items): each wrong one is a field error. Returns the names of
 * the generic equipment used (for default internal references).
 */
async function checkReferences(ctx: ServiceContext, input: RoomValues, roomId: number | null): Promise<Map<number, string>> {
  const errors: FieldErrors = {};
  // The rows whose counters this verb updates are locked `for no key update` from the start: two rooms
  // created at once in one building wait for each other here, instead of deadlocking later between a
  // share lock and the counter update.
  const [building] = await ctx.db
    .select({ id: buildings.id })
    .from(buildings)
    .where(and(eq(buildings.id, input.buildingId), eq(buildings.entityId, ctx.entityId), isNull(buildings.archivedAt), treeScope(ctx, "building")))
    .for("no key update");
  if (!building) errors.buildingId = ["facilities:errors.buildingNotFound"];
  const [roomType] = await ctx.db
    .select({ id: roomTypes.id })
    .from(roomTypes)
    .where(and(eq(roomTypes.id, input.roomTypeId), eq(roomTypes.entityId, ctx.entityId), isNull(roomTypes.archivedAt)))
    .for("no key update");
  if (!roomType) errors.roomTypeId = ["rooms:errors.roomTypeNotFound"];

  const typeIds = [...new Set(input.equipments.map((e) => e.equipmentTypeId))];
  const types = typeIds.length
    ? await ctx.db
        .select({ id: equipmentTypes.id, name: equipmentTypes.name })
        .from(equipmentTypes)
        .where(and(eq(equipmentTypes.entityId, ctx.entityId), isNull(equipmentTypes.archivedAt), inArray(equipmentTypes.id, typeIds)))
        .orderBy(asc(equipmentTypes.id))
        // Archiving a generic equipment meanwhile waits for this room to commit (and then removes its new items).
        .for("no key update")
    : [];
  const names = new Map(types.map((t) => [t.id, t.name]));
  const itemIds = input.equipments.flatMap((e) => (e.id ? [e.id] : []));
  const items =
    itemIds.length && roomId !== null
      ? await ctx.db
          .select({ id: equipmentItems.id, equipmentTypeId: equipmentItems.equipmentTypeId })
          .from(equipmentItems)
          .where(
            and(
              eq(equipmentItems.entityId, ctx.entityId),
              eq(equipmentItems.roomId, roomId),
              isNull(equipmentItems.archivedAt),
              inArray(equipmentItems.id, itemIds),
            ),
          )
      : [];
  const itemTypes = new Map(items.map((i) => [i.id, i.equipmentTypeId]));
  const seen = new Set<number>();
  input.equipments.forEach((e, i) => {
    if (e.id) {
      if (!itemTypes.has(e.id) || seen.has(e.id)) errors[`equipments.${i}.id`] = [INVALID];
      seen.add(e.id);
      // An existing item keeps its generic equipment.
      const current = itemTypes.get(e.id);
      if (current !== undefined && current !== e.equipmentTypeId) errors[`equipments.${i}.equipmentTypeId`] = [INVALID];
    } else if (!names.has(e.equipmentTypeId)) {
      errors[`equipments.${i}.equipmentTypeId`] = ["equipment:errors.equipmentTypeNotFound"];
    }
  });
  const known = await activeIncidentTypeIds(ctx, input.incidentTypes);
  if (input.incidentTypes.some((tid) => !known.has(tid))) errors.incidentTypes = ["rooms:errors.incidentTypeNotFound"];
  if (Object.keys(errors).length > 0) throw new ValidationError(errors);
  return names;
}

/** Creates the new items of `equipments` (those without id) in the room, each with a report identifier. */
async function addItems(ctx: ServiceContext, roomId: number, input: RoomValues, names: Map<number, string>): Promise<void> {
  const fresh = input.equipments.filter((e) => !e.id);
  if (fresh.length === 0) return;
  // Default internal reference: "<generic equipment> <n>", numbered per generic equipment in the room.
  const existing = await ctx.db
    .select({ equipmentTypeId: equipmentItems.equipmentTypeId, n: sql<number>`count(*)::int` })
    .from(equipmentItems)
    .where(and(eq(equipmentItems.roomId, roomId), eq(equipmentItems.entityId, ctx.entityId)))
    .groupBy(equipmentItems.equipmentTypeId);
  const counters = new Map(existing.map((r) => [r.equipmentTypeId, r.n]));
  const rows = fresh.map((e) => {
    const n = (counters.get(e.equipmentTypeId) ?? 0) + 1;
    counters.set(e.equipmentTypeId, n);
    return {
      entityId: ctx.entityId,
      roomId,
      equipmentTypeId: e.equipmentTypeId,
      internalReference: e.internalReference ?? `${names.get(e.equipmentTypeId) ?? ""} ${n}`.trim(),
    };
  });
  const inserted = await ctx.db.insert(equipmentItems).values(rows).returning({ id: equipmentItems.id });
  await issueReportIdentifiers(
    ctx,
    inserted.map((i) => ({ equipmentItemId: i.id })),
  );
}

async function replaceLinksAndTypes(ctx: ServiceContext, roomId: number, input: RoomValues): Promise<void> {
  await ctx.db.delete(roomLinks).where(and(eq(roomLinks.roomId, roomId), eq(roomLinks.entityId, ctx.entityId)));
  if (input.links.length) {
    await ctx.db
      .insert(roomLinks)
      .values(input.links.map((l, position) => ({ entityId: ctx.entityId, roomId, type: l.type, url: l.url, position })));
  }
  await setRoomIncidentTypes(ctx, roomId, input.incidentTypes);
}

async function addFiles(ctx: ServiceContext, uploads: Uploads, roomId: number, files: Upload[]): Promise<void> {
  for (const file of files) {
    const fileId = await uploads.add(file, { kind: "document", field: "newFiles" });
    await ctx.db.insert(roomFiles).values({ entityId: ctx.entityId, roomId, fileId });
  }
}

/** Creates a room with its equipment items (each with an internal reference and a report identifier), links, incident types and files. */
export async function createRoom(ctx: FilesContext, rawInput: Input<RoomWrite>): Promise<RoomDetail> {
  assertCan(ctx.actor, "manage", "place");
  const raw = await resolveInput(rawInput);
  const input = parseInput(RoomSchema, raw);
  if (input.equipments.some((e) => e.id)) throw new ValidationError({ equipments: [INVALID] });
  return withTx(ctx, async (txCtx, effects) => {
    const uploads = uploadsOf(txCtx, effects);
    const names = await checkReferences(txCtx, input, null);
    const shortId = await nextShortId(txCtx.db, ctx.entityId, "room");
    const [room] = await txCtx.db
      .insert(rooms)
      .values(fieldRow(rooms, ROOM_FIELDS, input, { entityId: ctx.entityId, shortId }))
      .returning({ id: rooms.id });
    await issueReportIdentifiers(txCtx, [{ roomId: room.id }]);
    await addItems(txCtx, room.id, input, names);
    await replaceLinksAndTypes(txCtx, room.id, input);
    await addFiles(txCtx, uploads, room.id, raw.newFiles ?? []);
    await effects.audit({ action: AUDIT.room.create, recordType: "room", recordId: room.id });
    return getRoom(txCtx, room.id);
  });
}

/**
 * Replaces a room (PUT semantics): fields, equipment items (kept by id with their internal reference
 * updated, new ones created, missing ones deleted: their open incidents are rejected), links, incident
 * types; adds `newFiles` and deletes `deletedFiles`.
 */
export async function updateRoom(ctx: FilesContext, id: number, rawInput: Input<RoomUpdate>): Promise<RoomDetail> {
  assertCan(ctx.actor, "manage", "place");
  const raw = await resolveInput(rawInput);
  const parsed = parseInput(UpdateRoomSchema, raw);
  return withTx(ctx, async (txCtx, effects) => {
    const uploads = uploadsOf(txCtx, effects);
    const db = txCtx.db;
    const current = await lockRoom(txCtx, id);
    // No building given (the REST body of SPEC.md section 7): the room stays where it is.
    const input = { ...parsed, buildingId: parsed.buildingId ?? current.buildingId };
    await lockCounted(txCtx, "buildings", [current.buildingId, input.buildingId]);
    await lockCounted(txCtx, "room_types", [current.roomTypeId, input.roomTypeId]);
    const names = await checkReferences(txCtx, input, id);

    if (input.deletedFiles.length) {
      const deleted = await db
        .delete(roomFiles)
        .where(and(eq(roomFiles.roomId, id), eq(roomFiles.entityId, ctx.entityId), inArray(roomFiles.fileId, input.deletedFiles)))
        .returning({ fileId: roomFiles.fileId });
      if (deleted.length !== input.deletedFiles.length) {
        throw new ValidationError({ deletedFiles: ["errors.file.deleteFailed"] }, "errors.file.deleteFailed", "FILE_DELETE_FAILED");
      }
      for (const d of deleted) uploads.retire(d.fileId);
    }

    await db
      .update(rooms)
      .set({ ...fieldValues(rooms, ROOM_FIELDS, input), updatedAt: new Date() })
      .where(and(eq(rooms.id, id), eq(rooms.entityId, ctx.entityId)));

    const keep = input.equipments.flatMap((e) => (e.id ? [e.id] : []));
    await archiveEquipmentItemsWhere(
      txCtx,
      effects,
      keep.length ? and(sql`e.room_id = ${id}`, notInArray(sql`e.id`, keep))! : sql`e.room_id = ${id}`,
    );
    // Kept items: their new internal references, in one statement (a blank one keeps the stored
    // reference: every item has one, SPEC.md section 3).
    const renamed = input.equipments.flatMap((e) => (e.id && e.internalReference !== null ? [sql`(${e.id}::int, ${e.internalReference}::text)`] : []));
    if (renamed.length) {
      await db.execute(sql`
        update equipment_items e set internal_reference = v.reference, updated_at = now()
        from (values ${sql.join(renamed, sql`, `)}) as v(id, reference)
        where e.id = v.id and e.entity_id = ${ctx.entityId} and e.internal_reference is distinct from v.reference`);
    }
    await addItems(txCtx, id, input, names);
    await replaceLinksAndTypes(txCtx, id, input);
    await addFiles(txCtx, uploads, id, raw.newFiles ?? []);
    await effects.audit({ action: AUDIT.room.update, recordType: "room", recordId: id });
    return getRoom(txCtx, id);
  });
}

/** Archives a room with its equipment items and report identifiers; rejects their open incidents. */
export async function archiveRoom(ctx: ServiceContext, id: number, confirm?: ArchiveInput): Promise<CascadeCounts> {
  assertCan(ctx.actor, "manage", "place");
  return withTx(ctx, async (txCtx, effects) => {
    const tx = txCtx.db;
    const room = await lockRoom(txCtx, id);
    checkConfirmName(room.name, confirm);
    const counts = await archiveTree(txCtx, effects, { roomId: id });
    await tx.update(rooms).set({ archivedAt: new Date(), updatedAt: new Date() }).where(and(eq(rooms.id, id), eq(rooms.entityId, ctx.entityId)));
    await effects.audit({ action: AUDIT.room.archive, recordType: "room", recordId: id });
    return { ...counts, rooms: 1 };
  });
}

// ---------------------------------------------------------------------------
// Bulk creation (imports, decision 054)
// ---------------------------------------------------------------------------

const BulkRoomTypeSchema = z.array(RoomTypeSchema).max(100_000);
/** A room as an import creates it: no equipment, links or files (those are the room form's). */
const BulkRoomSchema = z.array(RoomFieldsSchema).max(100_000);

/** Creates many room types in one statement (an import), with their audit rows. Returns the new ids. */
export async function createRoomTypesBulk(ctx: ServiceContext, rawRows: Input<RoomTypeInput[]>, options: { details?: Record<string, unknown> } = {}): Promise<number[]> {
  assertCan(ctx.actor, "manage", "catalogue");
  const rows = parseInput(BulkRoomTypeSchema, await resolveInput(rawRows));
  return withTx(ctx, (txCtx) =>
    insertRecords(txCtx, {
      table: roomTypes,
      rows: rows.map((r) => roomTypeColumns(r)),
      audit: { action: AUDIT.roomType.create, recordType: "roomType", details: options.details },
    }),
  );
}

/**
 * Creates many rooms in one statement (an import), each with its short id, report identifier and audit
 * row; every building (within the actor's reach) and room type must be active and of the entity.
 * Returns the new ids.
 */
export async function createRoomsBulk(
  ctx: ServiceContext,
  rawRows: Input<RoomFieldsInput[]>,
  options: { details?: Record<string, unknown> } = {},
): Promise<number[]> {
  assertCan(ctx.actor, "manage", "place");
  const rows = parseInput(BulkRoomSchema, await resolveInput(rawRows));
  return withTx(ctx, async (txCtx) => {
    if (rows.length === 0) return [];
    const errors: FieldErrors = {};
    // The parents whose counters the insert changes, locked first (as checkReferences does for one room).
    const buildingIds = [...new Set(rows.map((r) => r.buildingId))].sort((a, b) => a - b);
    const typeIds = [...new Set(rows.map((r) => r.roomTypeId))].sort((a, b) => a - b);
    const foundBuildings = await txCtx.db
      .select({ id: buildings.id })
      .from(buildings)
      .where(and(inArray(buildings.id, buildingIds), eq(buildings.entityId, ctx.entityId), isNull(buildings.archivedAt), treeScope(txCtx, "building")))
      .orderBy(buildings.id)
      .for("no key update");
    if (foundBuildings.length !== buildingIds.length) errors.buildingId = ["facilities:errors.buildingNotFound"];
    const foundTypes = await txCtx.db
      .select({ id: roomTypes.id })
      .from(roomTypes)
      .where(and(inArray(roomTypes.id, typeIds), eq(roomTypes.entityId, ctx.entityId), isNull(roomTypes.archivedAt)))
      .orderBy(roomTypes.id)
      .for("no key update");
    if (foundTypes.length !== typeIds.length) errors.roomTypeId = ["rooms:errors.roomTypeNotFound"];
    if (Object.keys(errors).length > 0) throw new ValidationError(errors);
    const last = await reserveShortIds(txCtx.db, ctx.entityId, "room", rows.length);
    const ids = await insertRecords(txCtx, {
      table: rooms,
      rows: rows.map((r, i) => ({ shortId: last - rows.length + 1 + i, ...fieldValues(rooms, ROOM_FIELDS, r) })),
      audit: { action: AUDIT.room.create, recordType: "room", details: options.details },
    });
    for (let start = 0; start < ids.length; start += 5000) {
      await issueReportIdentifiers(
        txCtx,
        ids.slice(start, start + 5000).map((roomId) => ({ roomId })),
      );
    }
    return ids;
  });
}
