import { and, eq, inArray, isNull, ne, type SQL, sql } from "drizzle-orm";
import { assertCan } from "~/core/actor";
import type { ServiceContext } from "~/core/context.server";
import { roleMay } from "~/core/role-sql.server";
import { type Input, resolveInput } from "~/core/input";
import { withTx } from "~/core/unit-of-work.server";
import { insertRecords } from "~/core/bulk-insert.server";
import { fieldRow, fieldValues } from "~/core/fields.server";
import { z } from "zod";
import { ObjectType, UserStatus } from "~/db/enums";
import { buildings, equipmentItems, facilities, maintenanceTypeAssignees, maintenanceTypeEquipmentItems, maintenanceTypeRooms, maintenanceTypes, plannedMaintenanceAssignees, plannedMaintenanceEquipmentItems, plannedMaintenanceLocations, plannedMaintenanceRooms, plannedMaintenances, rooms, users } from "~/db/schema";
import { type ArchiveInput, checkConfirmName } from "~/lib/archive";
import { ValidationError } from "~/lib/errors";
import { parseInput } from "~/lib/validation";
import { treeScope } from "~/modules/facilities/policy.server";
import { regeneratePlanTasks, removeFuturePendingTasks } from "./generation.server";
import { getMaintenanceType, getPlannedMaintenance, type MaintenanceTypeDetail, maintenanceTypeNotFound, type PlannedMaintenanceDetail, plannedMaintenanceNotFound } from "./queries.server";
import { MAINTENANCE_TYPE_FIELDS, type MaintenanceTypeInput, MaintenanceTypeSchema, type MaintenanceTypeValues, type PlannedMaintenanceInput, PlannedMaintenanceSchema, type PlannedMaintenanceValues } from "./schema";
import { AUDIT } from "~/core/audit-actions";

/**
 * Every write of maintenance types and planned maintenance (SPEC.md sections 3-5): create, update and
 * archive each, shared by the form actions and the REST routes. Managers and administrators only
 * (`maintenance: manage`); every read and write is filtered by the entity. The locations they name
 * must lie within the editor's reach; those of a record outside it stay as they are on an update (the
 * editor neither sees nor changes them, decision 049). A plan's tasks follow it in the same unit of
 * work (generation.server.ts).
 */

type Refs = { assigneeIds: number[]; roomIds: number[]; equipmentItemIds: number[]; facilityIds?: number[]; buildingIds?: number[] };

/**
 * Refuses assignees and locations that are not of the entity, archived, or outside the editor's reach, and
 * assignees whose role may not carry out tasks (the permission table's `update task`), field by field.
 */
async function checkReferences(ctx: ServiceContext, input: Refs): Promise<void> {
  const e = ctx.entityId;
  const checks: [string, number[], () => Promise<{ id: number }[]>, string][] = [
    [
      "assigneeIds",
      input.assigneeIds,
      () =>
        ctx.db
          .select({ id: users.id })
          .from(users)
          .where(and(eq(users.entityId, e), isNull(users.archivedAt), ne(users.status, UserStatus.DISABLED), roleMay(users.role, "update", "task"), inArray(users.id, input.assigneeIds))),
      "maintenance:validation.assigneeNotFound",
    ],
    [
      "facilityIds",
      input.facilityIds ?? [],
      () =>
        ctx.db
          .select({ id: facilities.id })
          .from(facilities)
          // A whole facility (its future buildings included) only for an editor who reaches it whole.
          .where(and(eq(facilities.entityId, e), isNull(facilities.archivedAt), inArray(facilities.id, input.facilityIds ?? []), treeScope(ctx, "wholeFacility"))),
      "maintenance:validation.locationNotFound",
    ],
    [
      "buildingIds",
      input.buildingIds ?? [],
      () =>
        ctx.db
          .select({ id: buildings.id })
          .from(buildings)
          .where(and(eq(buildings.entityId, e), isNull(buildings.archivedAt), inArray(buildings.id, input.buildingIds ?? []), treeScope(ctx, "building"))),
      "maintenance:validation.locationNotFound",
    ],
    [
      "roomIds",
      input.roomIds,
      () => ctx.db.select({ id: rooms.id }).from(rooms).where(and(eq(rooms.entityId, e), isNull(rooms.archivedAt), inArray(rooms.id, input.roomIds), treeScope(ctx, "room"))),
      "maintenance:validation.locationNotFound",
    ],
    [
      "equipmentItemIds",
      input.equipmentItemIds,
      () =>
        ctx.db
          .select({ id: equipmentItems.id })
          .from(equipmentItems)
          .where(and(eq(equipmentItems.entityId, e), isNull(equipmentItems.archivedAt), inArray(equipmentItems.id, input.equipmentItemIds), treeScope(ctx, "equipmentItem"))),
      "maintenance:validation.locationNotFound",
    ],
  ];
  const errors: Record<string, string[]> = {};
  for (const [field, ids, find, message] of checks) {
    if (ids.length && (await find()).length !== ids.length) errors[field] = [message];
  }
  if (Object.keys(errors).length) {
    // The location tree shows one message for the whole selection.
    if (errors.facilityIds || errors.buildingIds || errors.roomIds || errors.equipmentItemIds) errors.selection = ["maintenance:validation.locationNotFound"];
    throw new ValidationError(errors, "maintenance:validation.references", "REFERENCE_NOT_FOUND");
  }
}

/** `column in (ids of `table` within the editor's reach)`, or nothing for an editor who reaches the whole entity. */
function inReach(ctx: ServiceContext, column: SQL | { getSQL(): SQL }, level: "wholeFacility" | "building" | "room" | "equipmentItem"): SQL | undefined {
  const reach = treeScope(ctx, level);
  if (!reach) return undefined;
  const e = ctx.entityId;
  switch (level) {
    case "wholeFacility":
      return sql`${column} in (select ${facilities.id} from ${facilities} where ${facilities.entityId} = ${e} and ${reach})`;
    case "building":
      return sql`${column} in (select ${buildings.id} from ${buildings} where ${buildings.entityId} = ${e} and ${reach})`;
    case "room":
      return sql`${column} in (select ${rooms.id} from ${rooms} where ${rooms.entityId} = ${e} and ${reach})`;
    case "equipmentItem":
      return sql`${column} in (select ${equipmentItems.id} from ${equipmentItems} where ${equipmentItems.entityId} = ${e} and ${reach})`;
  }
}

// ---------------------------------------------------------------------------
// Maintenance types
// ---------------------------------------------------------------------------

/** The type's own columns: its declared fields (schema.ts), shared by the update and the bulk insert (`fieldRow` for the single insert). */
function typeColumns(input: MaintenanceTypeValues) {
  return fieldValues(maintenanceTypes, MAINTENANCE_TYPE_FIELDS, input);
}

/** Replaces the type's default assignees, rooms and equipment items (those outside the editor's reach stay). */
async function writeTypeParts(ctx: ServiceContext, id: number, input: MaintenanceTypeValues): Promise<void> {
  const e = ctx.entityId;
  const base = { entityId: e, maintenanceTypeId: id };
  await ctx.db.delete(maintenanceTypeAssignees).where(and(eq(maintenanceTypeAssignees.entityId, e), eq(maintenanceTypeAssignees.maintenanceTypeId, id)));
  await ctx.db
    .delete(maintenanceTypeRooms)
    .where(and(eq(maintenanceTypeRooms.entityId, e), eq(maintenanceTypeRooms.maintenanceTypeId, id), inReach(ctx, maintenanceTypeRooms.roomId, "room")));
  await ctx.db
    .delete(maintenanceTypeEquipmentItems)
    .where(
      and(
        eq(maintenanceTypeEquipmentItems.entityId, e),
        eq(maintenanceTypeEquipmentItems.maintenanceTypeId, id),
        inReach(ctx, maintenanceTypeEquipmentItems.equipmentItemId, "equipmentItem"),
      ),
    );
  if (input.assigneeIds.length) await ctx.db.insert(maintenanceTypeAssignees).values(input.assigneeIds.map((userId) => ({ ...base, userId })));
  if (input.roomIds.length) await ctx.db.insert(maintenanceTypeRooms).values(input.roomIds.map((roomId) => ({ ...base, roomId }))).onConflictDoNothing();
  if (input.equipmentItemIds.length) {
    await ctx.db
      .insert(maintenanceTypeEquipmentItems)
      .values(input.equipmentItemIds.map((equipmentItemId) => ({ ...base, equipmentItemId })))
      .onConflictDoNothing();
  }
}

export async function lockMaintenanceType(ctx: ServiceContext, id: number) {
  const [row] = await ctx.db
    .select()
    .from(maintenanceTypes)
    .where(and(eq(maintenanceTypes.id, id), eq(maintenanceTypes.entityId, ctx.entityId), isNull(maintenanceTypes.archivedAt)))
    .for("update");
  if (!row) throw maintenanceTypeNotFound();
  return row;
}

export async function createMaintenanceType(ctx: ServiceContext, rawInput: Input<MaintenanceTypeInput>): Promise<MaintenanceTypeDetail> {
  assertCan(ctx.actor, "manage", "maintenance");
  const input = parseInput(MaintenanceTypeSchema, await resolveInput(rawInput));
  return withTx(ctx, async (txCtx, effects) => {
    await checkReferences(txCtx, input);
    const [row] = await txCtx.db
      .insert(maintenanceTypes)
      .values(fieldRow(maintenanceTypes, MAINTENANCE_TYPE_FIELDS, input, { entityId: ctx.entityId }))
      .returning({ id: maintenanceTypes.id });
    await writeTypeParts(txCtx, row.id, input);
    await effects.audit({ action: AUDIT.maintenanceType.create, recordType: "maintenanceType", recordId: row.id });
    return getMaintenanceType(txCtx, row.id);
  });
}

/** Updates a type: its plans keep what they were made with (a type's values are defaults only). */
export async function updateMaintenanceType(ctx: ServiceContext, id: number, rawInput: Input<MaintenanceTypeInput>): Promise<MaintenanceTypeDetail> {
  assertCan(ctx.actor, "manage", "maintenance");
  const input = parseInput(MaintenanceTypeSchema, await resolveInput(rawInput));
  return withTx(ctx, async (txCtx, effects) => {
    await lockMaintenanceType(txCtx, id);
    await checkReferences(txCtx, input);
    await txCtx.db
      .update(maintenanceTypes)
      .set({ ...typeColumns(input), updatedAt: new Date() })
      .where(and(eq(maintenanceTypes.id, id), eq(maintenanceTypes.entityId, ctx.entityId)));
    await writeTypeParts(txCtx, id, input);
    await effects.audit({ action: AUDIT.maintenanceType.update, recordType: "maintenanceType", recordId: id });
    return getMaintenanceType(txCtx, id);
  });
}

export interface ArchiveMaintenanceTypeResult {
  /** Active planned maintenances of the type, archived with it (their future pending tasks removed). */
  plannedMaintenancesArchived: number;
}

/**
 * Archives a maintenance type (the retyped name when `confirm` is given: the dialog; the REST call
 * sends none). Its active plans go with it (a plan needs a type), each losing its future pending
 * tasks; done tasks stay.
 */
export async function archiveMaintenanceType(ctx: ServiceContext, id: number, confirm?: ArchiveInput): Promise<ArchiveMaintenanceTypeResult> {
  assertCan(ctx.actor, "manage", "maintenance");
  return withTx(ctx, async (txCtx, effects) => {
    const current = await lockMaintenanceType(txCtx, id);
    checkConfirmName(current.name, confirm);
    const now = new Date();
    const plans = await txCtx.db
      .update(plannedMaintenances)
      .set({ archivedAt: now, updatedAt: now })
      .where(and(eq(plannedMaintenances.entityId, ctx.entityId), eq(plannedMaintenances.maintenanceTypeId, id), isNull(plannedMaintenances.archivedAt)))
      .returning({ id: plannedMaintenances.id });
    for (const plan of plans) await removeFuturePendingTasks(txCtx, plan.id);
    await txCtx.db
      .update(maintenanceTypes)
      .set({ archivedAt: now, updatedAt: now })
      .where(and(eq(maintenanceTypes.id, id), eq(maintenanceTypes.entityId, ctx.entityId)));
    await effects.audit({ action: AUDIT.maintenanceType.archive, recordType: "maintenanceType", recordId: id, details: { plannedMaintenancesArchived: plans.length } });
    return { plannedMaintenancesArchived: plans.length };
  });
}

// ---------------------------------------------------------------------------
// Planned maintenance
// ---------------------------------------------------------------------------

function planColumns(input: PlannedMaintenanceValues) {
  return {
    name: input.name,
    maintenanceTypeId: input.maintenanceTypeId,
    startDate: input.startDate,
    endDate: input.endDate,
    timeOfDay: input.timeOfDay,
    occurrenceUnit: input.occurrenceUnit,
    occurrenceInterval: input.occurrenceInterval,
    instructions: input.instructions ?? "",
  };
}

/** The plan's type: active and of the entity, else a field error (locked against archiving meanwhile). */
async function checkType(ctx: ServiceContext, typeId: number): Promise<void> {
  const [row] = await ctx.db
    .select({ id: maintenanceTypes.id })
    .from(maintenanceTypes)
    .where(and(eq(maintenanceTypes.id, typeId), eq(maintenanceTypes.entityId, ctx.entityId), isNull(maintenanceTypes.archivedAt)))
    .for("share");
  if (!row) throw new ValidationError({ maintenanceTypeId: ["maintenance:errors.typeNotFound"] }, "maintenance:errors.typeNotFound", "MAINTENANCE_TYPE_NOT_FOUND");
}

/**
 * Replaces the plan's assignees and location selection: whole facilities and buildings as location
 * rows, single rooms and equipment items in their own tables. What lies outside the editor's reach stays.
 */
async function writePlanParts(ctx: ServiceContext, id: number, input: PlannedMaintenanceValues): Promise<void> {
  const e = ctx.entityId;
  const base = { entityId: e, plannedMaintenanceId: id };
  const L = plannedMaintenanceLocations;
  await ctx.db.delete(plannedMaintenanceAssignees).where(and(eq(plannedMaintenanceAssignees.entityId, e), eq(plannedMaintenanceAssignees.plannedMaintenanceId, id)));
  const facilityReach = inReach(ctx, L.facilityId, "wholeFacility");
  const buildingReach = inReach(ctx, L.buildingId, "building");
  await ctx.db
    .delete(L)
    .where(
      and(
        eq(L.entityId, e),
        eq(L.plannedMaintenanceId, id),
        facilityReach || buildingReach
          ? sql`((${L.objectType} = ${ObjectType.FACILITY} and ${facilityReach ?? sql`true`})
              or (${L.objectType} = ${ObjectType.BUILDING} and ${buildingReach ?? sql`true`})
              or (${L.objectType} = ${ObjectType.ROOM} and ${inReach(ctx, L.roomId, "room") ?? sql`true`}))`
          : undefined,
      ),
    );
  await ctx.db
    .delete(plannedMaintenanceRooms)
    .where(and(eq(plannedMaintenanceRooms.entityId, e), eq(plannedMaintenanceRooms.plannedMaintenanceId, id), inReach(ctx, plannedMaintenanceRooms.roomId, "room")));
  await ctx.db
    .delete(plannedMaintenanceEquipmentItems)
    .where(
      and(
        eq(plannedMaintenanceEquipmentItems.entityId, e),
        eq(plannedMaintenanceEquipmentItems.plannedMaintenanceId, id),
        inReach(ctx, plannedMaintenanceEquipmentItems.equipmentItemId, "equipmentItem"),
      ),
    );
  if (input.assigneeIds.length) await ctx.db.insert(plannedMaintenanceAssignees).values(input.assigneeIds.map((userId) => ({ ...base, userId })));
  const locations = [
    ...input.facilityIds.map((facilityId) => ({ ...base, objectType: ObjectType.FACILITY, facilityId })),
    ...input.buildingIds.map((buildingId) => ({ ...base, objectType: ObjectType.BUILDING, buildingId })),
  ];
  if (locations.length) await ctx.db.insert(L).values(locations).onConflictDoNothing();
  if (input.roomIds.length) await ctx.db.insert(plannedMaintenanceRooms).values(input.roomIds.map((roomId) => ({ ...base, roomId }))).onConflictDoNothing();
  if (input.equipmentItemIds.length) {
    await ctx.db
      .insert(plannedMaintenanceEquipmentItems)
      .values(input.equipmentItemIds.map((equipmentItemId) => ({ ...base, equipmentItemId })))
      .onConflictDoNothing();
  }
}

async function lockPlannedMaintenance(ctx: ServiceContext, id: number) {
  const [row] = await ctx.db
    .select()
    .from(plannedMaintenances)
    .where(and(eq(plannedMaintenances.id, id), eq(plannedMaintenances.entityId, ctx.entityId), isNull(plannedMaintenances.archivedAt)))
    .for("update");
  if (!row) throw plannedMaintenanceNotFound();
  return row;
}

export async function createPlannedMaintenance(ctx: ServiceContext, rawInput: Input<PlannedMaintenanceInput>): Promise<PlannedMaintenanceDetail> {
  assertCan(ctx.actor, "manage", "maintenance");
  const input = parseInput(PlannedMaintenanceSchema, await resolveInput(rawInput));
  return withTx(ctx, async (txCtx, effects) => {
    await checkType(txCtx, input.maintenanceTypeId);
    await checkReferences(txCtx, input);
    const [row] = await txCtx.db
      .insert(plannedMaintenances)
      .values({ entityId: ctx.entityId, ...planColumns(input) })
      .returning({ id: plannedMaintenances.id });
    await writePlanParts(txCtx, row.id, input);
    const tasks = await regeneratePlanTasks(txCtx, row.id);
    await effects.audit({ action: AUDIT.plannedMaintenance.create, recordType: "plannedMaintenance", recordId: row.id, details: { ...tasks } });
    return getPlannedMaintenance(txCtx, row.id);
  });
}

/** Updates a plan; its future pending tasks follow (done tasks stay as they were). */
export async function updatePlannedMaintenance(ctx: ServiceContext, id: number, rawInput: Input<PlannedMaintenanceInput>): Promise<PlannedMaintenanceDetail> {
  assertCan(ctx.actor, "manage", "maintenance");
  const input = parseInput(PlannedMaintenanceSchema, await resolveInput(rawInput));
  return withTx(ctx, async (txCtx, effects) => {
    await lockPlannedMaintenance(txCtx, id);
    await checkType(txCtx, input.maintenanceTypeId);
    await checkReferences(txCtx, input);
    await txCtx.db
      .update(plannedMaintenances)
      .set({ ...planColumns(input), updatedAt: new Date() })
      .where(and(eq(plannedMaintenances.id, id), eq(plannedMaintenances.entityId, ctx.entityId)));
    await writePlanParts(txCtx, id, input);
    const tasks = await regeneratePlanTasks(txCtx, id);
    await effects.audit({ action: AUDIT.plannedMaintenance.update, recordType: "plannedMaintenance", recordId: id, details: { ...tasks } });
    return getPlannedMaintenance(txCtx, id);
  });
}

/** Archives a plan (the retyped name when `confirm` is given): it leaves the lists; its pending tasks from today on go, done tasks stay. */
export async function archivePlannedMaintenance(ctx: ServiceContext, id: number, confirm?: ArchiveInput): Promise<{ tasksRemoved: number }> {
  assertCan(ctx.actor, "manage", "maintenance");
  return withTx(ctx, async (txCtx, effects) => {
    const current = await lockPlannedMaintenance(txCtx, id);
    checkConfirmName(current.name, confirm);
    const now = new Date();
    await txCtx.db
      .update(plannedMaintenances)
      .set({ archivedAt: now, updatedAt: now })
      .where(and(eq(plannedMaintenances.id, id), eq(plannedMaintenances.entityId, ctx.entityId)));
    const tasksRemoved = await removeFuturePendingTasks(txCtx, id);
    await effects.audit({ action: AUDIT.plannedMaintenance.archive, recordType: "plannedMaintenance", recordId: id, details: { tasksRemoved } });
    return { tasksRemoved };
  });
}

// ---------------------------------------------------------------------------
// Bulk creation (imports, decision 054)
// ---------------------------------------------------------------------------

const BulkMaintenanceTypeSchema = z.array(MaintenanceTypeSchema).max(100_000);

/**
 * Creates many maintenance types in one statement (an import), with their audit rows; an import gives
 * them no default assignees, rooms or equipment. Returns the new ids.
 */
export async function createMaintenanceTypesBulk(
  ctx: ServiceContext,
  rawRows: Input<MaintenanceTypeInput[]>,
  options: { details?: Record<string, unknown> } = {},
): Promise<number[]> {
  assertCan(ctx.actor, "manage", "maintenance");
  const rows = parseInput(BulkMaintenanceTypeSchema, await resolveInput(rawRows));
  if (rows.some((r) => r.assigneeIds.length || r.roomIds.length || r.equipmentItemIds.length)) throw new ValidationError({ roomIds: ["common:validation.invalid"] });
  return withTx(ctx, (txCtx) =>
    insertRecords(txCtx, {
      table: maintenanceTypes,
      rows: rows.map((r) => typeColumns(r)),
      audit: { action: AUDIT.maintenanceType.create, recordType: "maintenanceType", details: options.details },
    }),
  );
}
