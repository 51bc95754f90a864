import { and, eq, inArray, isNull } from "drizzle-orm";
import { z } from "zod";
import { insertRecords } from "~/core/bulk-insert.server";
import { fieldRow, fieldValues } from "~/core/fields.server";
import { assertCan } from "~/core/actor";
import { type Input, resolveInput } from "~/core/input";
import { withTx } from "~/core/unit-of-work.server";
import { buildings, facilities } from "~/db/schema";
import { reachCreatedFacility } from "~/modules/api-tokens/service.server";
import { linkToFacilities, linkToFacility } from "~/modules/users/links.server";
import { nextShortId, reserveShortIds } from "~/db/short-id.server";
import { type ArchiveInput, checkConfirmName } from "~/lib/archive";
import type { ServiceContext } from "~/core/context.server";
import { ValidationError } from "~/lib/errors";
import { parseInput } from "~/lib/validation";
import { archiveTree, type CascadeCounts } from "./cascade.server";
import { lockCounted } from "./counters.server";
import { isEntityWide, type TreeLevel, treeScope } from "./policy.server";
import { buildingNotFound, type BuildingRow, facilityNotFound, type FacilityRow, getBuilding, getFacility } from "./queries.server";
import { BUILDING_FIELDS, type BuildingInput, BuildingSchema, FACILITY_FIELDS, type FacilityInput, FacilitySchema } from "./schema";
import { AUDIT } from "~/core/audit-actions";

/**
 * Every write of facilities and buildings (SPEC.md sections 3-5): one verb per mutation, shared by the
 * form actions and the REST routes. Each checks the role, parses its input, runs in one transaction
 * and filters every read and write by the entity, then by the actor's reach (`treeScope`, decision
 * 022): a facility or building outside it is not found, as another entity's is; the list counters
 * (counters.server.ts) change in the same transaction.
 */

/** Locks a facility the actor reaches whole (a building link does not grant its facility). */
async function lockFacility(ctx: ServiceContext, id: number) {
  const [row] = await ctx.db
    .select()
    .from(facilities)
    .where(and(eq(facilities.id, id), eq(facilities.entityId, ctx.entityId), isNull(facilities.archivedAt), treeScope(ctx, "wholeFacility")))
    .for("update");
  if (!row) throw facilityNotFound();
  return row;
}

async function lockBuilding(ctx: ServiceContext, id: number) {
  const [row] = await ctx.db
    .select()
    .from(buildings)
    .where(and(eq(buildings.id, id), eq(buildings.entityId, ctx.entityId), isNull(buildings.archivedAt), treeScope(ctx, "building")))
    .for("update");
  if (!row) throw buildingNotFound();
  return row;
}

// ---------------------------------------------------------------------------
// Facilities
// ---------------------------------------------------------------------------

export async function createFacility(ctx: ServiceContext, rawInput: Input<FacilityInput>): Promise<FacilityRow> {
  assertCan(ctx.actor, "manage", "place");
  const raw = await resolveInput(rawInput);
  const input = parseInput(FacilitySchema, raw);
  return withTx(ctx, async (txCtx, effects) => {
    const tx = txCtx.db;
    const shortId = await nextShortId(tx, ctx.entityId, "facility");
    const [row] = await tx
      .insert(facilities)
      .values(fieldRow(facilities, FACILITY_FIELDS, input, { entityId: ctx.entityId, shortId }))
      .returning({ id: facilities.id });
    // A facility manager reaches only linked facilities (decision 022): the creator is linked to it. A
    // token limited to some facilities reaches the one it creates in the same way (decision 056); its
    // maker, an administrator, needs no link.
    let reader = txCtx;
    const actor = ctx.actor;
    if (actor?.kind === "token" && actor.facilityIds) {
      reader = { ...txCtx, actor: await reachCreatedFacility(txCtx, actor, row.id) };
    } else if (actor?.kind === "person" && !isEntityWide(actor)) {
      await linkToFacility(txCtx, actor.id, row.id);
    }
    await effects.audit({ action: AUDIT.facility.create, recordType: "facility", recordId: row.id });
    return getFacility(reader, row.id);
  });
}

export async function updateFacility(ctx: ServiceContext, id: number, rawInput: Input<FacilityInput>): Promise<FacilityRow> {
  assertCan(ctx.actor, "manage", "place");
  const raw = await resolveInput(rawInput);
  const input = parseInput(FacilitySchema, raw);
  return withTx(ctx, async (txCtx, effects) => {
    const tx = txCtx.db;
    await lockFacility(txCtx, id);
    await tx
      .update(facilities)
      .set({ ...fieldValues(facilities, FACILITY_FIELDS, input), updatedAt: new Date() })
      .where(and(eq(facilities.id, id), eq(facilities.entityId, ctx.entityId)));
    await effects.audit({ action: AUDIT.facility.update, recordType: "facility", recordId: id });
    return getFacility(txCtx, id);
  });
}

/**
 * Archives a facility with its buildings, rooms, equipment items and report identifiers, and rejects
 * their open incidents (SPEC.md section 4). `confirm` is the retyped name of the archive dialog.
 */
export async function archiveFacility(ctx: ServiceContext, id: number, confirm?: ArchiveInput): Promise<CascadeCounts> {
  assertCan(ctx.actor, "manage", "place");
  return withTx(ctx, async (txCtx, effects) => {
    const tx = txCtx.db;
    const facility = await lockFacility(txCtx, id);
    checkConfirmName(facility.name, confirm);
    const counts = await archiveTree(txCtx, effects, { facilityId: id });
    await tx.update(facilities).set({ archivedAt: new Date(), updatedAt: new Date() }).where(and(eq(facilities.id, id), eq(facilities.entityId, ctx.entityId)));
    await effects.audit({ action: AUDIT.facility.archive, recordType: "facility", recordId: id, details: { ...counts } });
    return counts;
  });
}

// ---------------------------------------------------------------------------
// Buildings
// ---------------------------------------------------------------------------

/**
 * The facility a building goes in: active, of the entity and within the actor's reach, else a field
 * error. A building is added to (or moved into) a facility the actor reaches whole (`wholeFacility`);
 * a building staying where it is needs its facility visible only (`facility`).
 */
async function checkFacility(ctx: ServiceContext, facilityId: number, level: TreeLevel = "wholeFacility"): Promise<void> {
  const [row] = await ctx.db
    .select({ id: facilities.id })
    .from(facilities)
    .where(and(eq(facilities.id, facilityId), eq(facilities.entityId, ctx.entityId), isNull(facilities.archivedAt), treeScope(ctx, level)))
    // Locked for the counter update to come (see checkReferences in rooms/service.server.ts).
    .for("no key update");
  if (!row) {
    throw new ValidationError(
      { facilityId: ["facilities:errors.facilityNotFound"] },
      "facilities:errors.facilityNotFound",
      "FACILITY_NOT_FOUND",
    );
  }
}

export async function createBuilding(ctx: ServiceContext, rawInput: Input<BuildingInput>): Promise<BuildingRow> {
  assertCan(ctx.actor, "manage", "place");
  const raw = await resolveInput(rawInput);
  const input = parseInput(BuildingSchema, raw);
  return withTx(ctx, async (txCtx, effects) => {
    const tx = txCtx.db;
    await checkFacility(txCtx, input.facilityId);
    const shortId = await nextShortId(tx, ctx.entityId, "building");
    const [row] = await tx
      .insert(buildings)
      .values(fieldRow(buildings, BUILDING_FIELDS, input, { entityId: ctx.entityId, shortId }))
      .returning({ id: buildings.id });
    await effects.audit({ action: AUDIT.building.create, recordType: "building", recordId: row.id });
    return getBuilding(txCtx, row.id);
  });
}

export async function updateBuilding(ctx: ServiceContext, id: number, rawInput: Input<BuildingInput>): Promise<BuildingRow> {
  assertCan(ctx.actor, "manage", "place");
  const raw = await resolveInput(rawInput);
  const input = parseInput(BuildingSchema, raw);
  return withTx(ctx, async (txCtx, effects) => {
    const tx = txCtx.db;
    const current = await lockBuilding(txCtx, id);
    await lockCounted(txCtx, "facilities", [current.facilityId, input.facilityId]);
    // A building moving to another facility takes its counts along (by trigger).
    const moves = current.facilityId !== input.facilityId;
    await checkFacility(txCtx, input.facilityId, moves ? "wholeFacility" : "facility");
    await tx
      .update(buildings)
      .set({ ...fieldValues(buildings, BUILDING_FIELDS, input), updatedAt: new Date() })
      .where(and(eq(buildings.id, id), eq(buildings.entityId, ctx.entityId)));
    await effects.audit({ action: AUDIT.building.update, recordType: "building", recordId: id });
    return getBuilding(txCtx, id);
  });
}

/** Archives a building with its rooms, equipment items and report identifiers; rejects their open incidents. */
export async function archiveBuilding(ctx: ServiceContext, id: number, confirm?: ArchiveInput): Promise<CascadeCounts> {
  assertCan(ctx.actor, "manage", "place");
  return withTx(ctx, async (txCtx, effects) => {
    const tx = txCtx.db;
    const building = await lockBuilding(txCtx, id);
    checkConfirmName(building.name, confirm);
    const counts = await archiveTree(txCtx, effects, { buildingId: id });
    await tx.update(buildings).set({ archivedAt: new Date(), updatedAt: new Date() }).where(and(eq(buildings.id, id), eq(buildings.entityId, ctx.entityId)));
    await effects.audit({ action: AUDIT.building.archive, recordType: "building", recordId: id });
    return { ...counts, buildings: 1 };
  });
}

// ---------------------------------------------------------------------------
// Bulk creation (imports, decision 054)
// ---------------------------------------------------------------------------

const BulkFacilitySchema = z.array(FacilitySchema).max(100_000);
const BulkBuildingSchema = z.array(BuildingSchema).max(100_000);

export interface BulkOptions {
  /** Recorded on every audit row (the import it came from). */
  details?: Record<string, unknown>;
}

/**
 * Creates many facilities in one set-based statement (an import), with their short ids and audit rows.
 * The acting person reaches what they create as `createFacility` makes it: linked to each when they
 * reach only linked facilities; a token limited to some facilities has them added to its list. Returns
 * the new ids.
 */
export async function createFacilitiesBulk(ctx: ServiceContext, rawRows: Input<FacilityInput[]>, options: BulkOptions = {}): Promise<number[]> {
  assertCan(ctx.actor, "manage", "place");
  const rows = parseInput(BulkFacilitySchema, await resolveInput(rawRows));
  return withTx(ctx, async (txCtx) => {
    if (rows.length === 0) return [];
    const last = await reserveShortIds(txCtx.db, ctx.entityId, "facility", rows.length);
    const ids = await insertRecords(txCtx, {
      table: facilities,
      rows: rows.map((r, i) => ({ shortId: last - rows.length + 1 + i, ...fieldValues(facilities, FACILITY_FIELDS, r) })),
      audit: { action: AUDIT.facility.create, recordType: "facility", details: options.details },
    });
    const actor = ctx.actor;
    if (actor?.kind === "token" && actor.facilityIds) {
      await reachCreatedFacility(txCtx, actor, ids);
    } else if (actor && actor.kind !== "system" && !isEntityWide(actor)) {
      await linkToFacilities(txCtx, actor.id, ids);
    }
    return ids;
  });
}

/** Creates many buildings in one statement (an import); every facility must be active and of the entity. */
export async function createBuildingsBulk(ctx: ServiceContext, rawRows: Input<BuildingInput[]>, options: BulkOptions = {}): Promise<number[]> {
  assertCan(ctx.actor, "manage", "place");
  const rows = parseInput(BulkBuildingSchema, await resolveInput(rawRows));
  return withTx(ctx, async (txCtx) => {
    if (rows.length === 0) return [];
    const parents = [...new Set(rows.map((r) => r.facilityId))].sort((a, b) => a - b);
    // Locked for the counter updates to come, as checkFacility does for one building.
    const found = await txCtx.db
      .select({ id: facilities.id })
      .from(facilities)
      .where(and(inArray(facilities.id, parents), eq(facilities.entityId, ctx.entityId), isNull(facilities.archivedAt), treeScope(txCtx, "wholeFacility")))
      .orderBy(facilities.id)
      .for("no key update");
    if (found.length !== parents.length) {
      throw new ValidationError({ facilityId: ["facilities:errors.facilityNotFound"] }, "facilities:errors.facilityNotFound", "FACILITY_NOT_FOUND");
    }
    const last = await reserveShortIds(txCtx.db, ctx.entityId, "building", rows.length);
    return insertRecords(txCtx, {
      table: buildings,
      rows: rows.map((r, i) => ({ shortId: last - rows.length + 1 + i, ...fieldValues(buildings, BUILDING_FIELDS, r) })),
      audit: { action: AUDIT.building.create, recordType: "building", details: options.details },
    });
  });
}
