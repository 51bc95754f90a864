import { and, asc, eq, inArray, isNull, ne, sql } from "drizzle-orm";
import { isUniqueViolation } from "~/db/errors.server";
import { actorUserId, can, roleIsAdministrators, roleNeedsLinks } from "~/core/actor";
import { type Input, resolveInput } from "~/core/input";
import type { ServiceContext } from "~/core/context.server";
import { roleMay } from "~/core/role-sql.server";
import type { Effects } from "~/core/unit-of-work.server";
import { withTx } from "~/core/unit-of-work.server";
import { UserStatus } from "~/db/enums";
import { buildings, entities, facilities, passwordResetTokens, refreshTokens, type User, userLinkedObjects, users } from "~/db/schema";
import { checkConfirmName } from "~/lib/archive";
import { ConflictError, NotFoundError, ValidationError } from "~/lib/errors";
import { parseInput } from "~/lib/validation";
import { sendEmailJob } from "~/mail/jobs.server";
import { mailLocale, renderMail } from "~/mail/templates.server";
import { revokeTokensOfMaker } from "~/modules/api-tokens/service.server";
import { hashToken, newOpaqueToken } from "~/modules/auth/tokens.server";
import { treeScope } from "~/modules/facilities/policy.server";
import { checkImage, type FilesContext, uploadsOf } from "~/modules/files/uploads.server";
import { reassignUser as reassignIncidentTypeAssignees } from "~/modules/incident-types/service.server";
import { openIncidentsOutOfReach, reassignUser as reassignIncidents } from "~/modules/incidents/writes.server";
import { reassignUser as reassignMaintenance } from "~/modules/maintenance/assignees.server";
import { userDeactivated } from "./changes.server";
import { assertCanManageUsers, assertMayHandleRole, isOwnAccount } from "./policy.server";
import { updateAccount } from "./service.server";
import { getUser, type UserDetail } from "./queries.server";
import { type ArchiveUserInput, ArchiveUserSchema, type CreateUserInput, CreateUserSchema, fullName, type LinkedObjects, type SetUserStatusInput, SetUserStatusSchema, type UpdateOwnProfileInput, UpdateOwnProfileSchema, type UpdateUserInput, UpdateUserSchema } from "./schema";
import { AUDIT } from "~/core/audit-actions";

/**
 * Managing the people of an entity (SPEC.md sections 3-8): invite, edit, enable or disable,
 * archive with reassignment, and send a new invitation. One verb per mutation, shared by the form
 * actions of /add-user and /update-user/{id} and by the REST routes of /api/users. Each checks the
 * role, parses its input, runs in one transaction filtered by the entity, and records an audit row
 * (shown on the user's page); the invitation mail is a job written in the same transaction.
 */

/** How long an invitation link stays valid. */
export const INVITATION_TTL_DAYS = 7;

export const userNotFound = () => new NotFoundError("users:errors.notFound", "USER_NOT_FOUND");
export const emailInUse = () => new ConflictError("users:errors.emailInUse", "EMAIL_IN_USE", { email: ["users:errors.emailInUse"] });
const selfChange = () => new ConflictError("users:errors.self", "SELF");
const lastAdministrator = () => new ConflictError("users:errors.lastAdministrator", "LAST_ADMINISTRATOR");

/** The user of the entity (not archived), locked for the change; NotFound otherwise. */
async function lockUser(ctx: ServiceContext, id: number): Promise<User> {
  const [row] = await ctx.db
    .select()
    .from(users)
    .where(and(eq(users.id, id), eq(users.entityId, ctx.entityId), isNull(users.archivedAt)))
    .for("update");
  if (!row) throw userNotFound();
  return row;
}

/**
 * Refuses a change that would leave the entity without an active administrator (a person whose role may
 * manage administrators, in the permission table). The entity's row is
 * locked first (`no key update`: inserts referencing it go on), so that two administrators demoting
 * each other at once are serialised and the second sees the first's change, instead of deadlocking
 * on each other's user rows.
 */
async function keepAnAdministrator(ctx: ServiceContext, target: User, stillAdmin: boolean): Promise<void> {
  if (!roleIsAdministrators(target.role) || target.status !== UserStatus.ACTIVE || stillAdmin) return;
  await ctx.db.select({ id: entities.id }).from(entities).where(eq(entities.id, ctx.entityId)).for("no key update");
  const admins = await ctx.db
    .select({ id: users.id, status: users.status })
    .from(users)
    .where(and(eq(users.entityId, ctx.entityId), roleMay(users.role, "manage", "administrator"), isNull(users.archivedAt)))
    .orderBy(asc(users.id));
  if (!admins.some((a) => a.id !== target.id && a.status === UserStatus.ACTIVE)) throw lastAdministrator();
}

/**
 * Checks the facilities and buildings a user is linked to: at least one for technicians and facility
 * managers, none kept for administrators; each of the entity, not archived, within the editor's own
 * reach; a facility only when it has at least one building (SPEC.md section 6).
 */
async function checkLinks(ctx: ServiceContext, role: number, linked: LinkedObjects, kept: LinkedObjects = { facilityIds: [], buildingIds: [] }): Promise<LinkedObjects> {
  if (!roleNeedsLinks(role)) return { facilityIds: [], buildingIds: [] };
  if (!linked.facilityIds.length && !linked.buildingIds.length) {
    throw new ValidationError({ linkedObjects: ["users:validation.linkRequired"] }, "users:validation.linkRequired", "LINK_REQUIRED");
  }
  const notFound = () => new ValidationError({ linkedObjects: ["users:validation.linkNotFound"] }, "users:validation.linkNotFound", "LINK_NOT_FOUND");
  const wanted = linked;
  // Links the user already has stay, even outside the editor's own reach (another manager gave them);
  // only new ones are checked against what the editor reaches.
  linked = {
    facilityIds: linked.facilityIds.filter((id) => !kept.facilityIds.includes(id)),
    buildingIds: linked.buildingIds.filter((id) => !kept.buildingIds.includes(id)),
  };
  const result = (): LinkedObjects => ({
    facilityIds: [...linked.facilityIds, ...kept.facilityIds.filter((id) => wanted.facilityIds.includes(id))].sort((a, b) => a - b),
    buildingIds: [...linked.buildingIds, ...kept.buildingIds.filter((id) => wanted.buildingIds.includes(id))].sort((a, b) => a - b),
  });
  if (linked.facilityIds.length) {
    const found = await ctx.db
      .select({ id: facilities.id })
      .from(facilities)
      .where(
        and(
          eq(facilities.entityId, ctx.entityId),
          isNull(facilities.archivedAt),
          inArray(facilities.id, linked.facilityIds),
          sql`${facilities.buildingCount} > 0`,
          treeScope(ctx, "wholeFacility"),
        ),
      );
    if (found.length !== linked.facilityIds.length) throw notFound();
  }
  if (linked.buildingIds.length) {
    const found = await ctx.db
      .select({ id: buildings.id })
      .from(buildings)
      .where(and(eq(buildings.entityId, ctx.entityId), isNull(buildings.archivedAt), inArray(buildings.id, linked.buildingIds), treeScope(ctx, "building")));
    if (found.length !== linked.buildingIds.length) throw notFound();
  }
  return result();
}

/** Replaces the user's links (an administrator keeps none). */
async function writeLinks(ctx: ServiceContext, userId: number, linked: LinkedObjects): Promise<void> {
  await ctx.db.delete(userLinkedObjects).where(and(eq(userLinkedObjects.userId, userId), eq(userLinkedObjects.entityId, ctx.entityId)));
  const rows = [
    ...linked.facilityIds.map((facilityId) => ({ entityId: ctx.entityId, userId, facilityId })),
    ...linked.buildingIds.map((buildingId) => ({ entityId: ctx.entityId, userId, buildingId })),
  ];
  if (rows.length) await ctx.db.insert(userLinkedObjects).values(rows);
}

/**
 * Notification buildings must be active buildings of the entity within the editor's own reach, as on the
 * person's own account tab; buildings the user already had stay (another manager, or they themselves,
 * chose them). Unknown and unreachable ones get the same refusal, so it tells nothing about either.
 */
async function checkNotificationBuildings(ctx: ServiceContext, buildingIds: number[], kept: readonly number[] = []): Promise<void> {
  const added = buildingIds.filter((id) => !kept.includes(id));
  if (!added.length) return;
  const found = await ctx.db
    .select({ id: buildings.id })
    .from(buildings)
    .where(and(eq(buildings.entityId, ctx.entityId), isNull(buildings.archivedAt), inArray(buildings.id, added), treeScope(ctx, "building")));
  if (found.length !== added.length) {
    throw new ValidationError({ notificationSettings: ["settings:errors.buildingNotFound"] }, "settings:errors.buildingNotFound", "BUILDING_NOT_FOUND");
  }
}

function notificationSettingsOf(input: { notificationSettings: { priorities: number[]; buildingIds: number[] } }) {
  return {
    priorities: [...new Set(input.notificationSettings.priorities)].sort() as (0 | 1 | 2 | 3)[],
    buildingIds: [...new Set(input.notificationSettings.buildingIds)].sort((a, b) => a - b),
  };
}

/** Ends every login session of the user (their refresh tokens); their access token fails on the next request. */
async function revokeSessions(ctx: ServiceContext, userId: number, at: Date): Promise<void> {
  await ctx.db
    .update(refreshTokens)
    .set({ revokedAt: at })
    .where(and(eq(refreshTokens.userId, userId), eq(refreshTokens.entityId, ctx.entityId), isNull(refreshTokens.revokedAt)));
}

/**
 * Writes a new single-use link to set a password (the invitation), spending the user's earlier ones,
 * and queues the mail in the user's language, inside the verb's transaction.
 */
async function invite(ctx: ServiceContext, effects: Effects, user: Pick<User, "id" | "email" | "name" | "language">): Promise<void> {
  const now = new Date();
  await ctx.db
    .update(passwordResetTokens)
    .set({ usedAt: now })
    .where(and(eq(passwordResetTokens.userId, user.id), eq(passwordResetTokens.entityId, ctx.entityId), isNull(passwordResetTokens.usedAt)));
  const token = newOpaqueToken();
  await ctx.db.insert(passwordResetTokens).values({
    entityId: ctx.entityId,
    userId: user.id,
    tokenHash: hashToken(token),
    createdAt: now,
    expiresAt: new Date(now.getTime() + INVITATION_TTL_DAYS * 24 * 3600_000),
  });
  const [entity] = await ctx.db.select({ name: entities.name }).from(entities).where(eq(entities.id, ctx.entityId));
  const inviterId = actorUserId(ctx.actor);
  const [inviter] = inviterId
    ? await ctx.db.select({ name: users.name, surname: users.surname }).from(users).where(and(eq(users.id, inviterId), eq(users.entityId, ctx.entityId)))
    : [];
  const base = (ctx.appUrl ?? "http://localhost:3000").replace(/\/+$/, "");
  const link = `${base}/password/reset?token=${encodeURIComponent(token)}&invitation=1`;
  const mail = renderMail(mailLocale(user.language), "users:mail.invitation", {
    name: user.name,
    entityName: entity?.name ?? "",
    inviter: inviter ? fullName(inviter) : entity?.name ?? "",
    link,
    days: INVITATION_TTL_DAYS,
  });
  await effects.enqueue(sendEmailJob, { to: user.email, ...mail });
}

// ---------------------------------------------------------------------------
// Verbs
// ---------------------------------------------------------------------------

/** Invites a user: created "inactive (not yet validated)" with an email to set a password. */
export async function createUser(ctx: ServiceContext, rawInput: Input<CreateUserInput>): Promise<UserDetail> {
  assertCanManageUsers(ctx);
  const input = parseInput(CreateUserSchema, await resolveInput(rawInput));
  assertMayHandleRole(ctx.actor, input.role);
  if (input.linkedEntityId != null && input.linkedEntityId !== ctx.entityId) {
    throw new ValidationError({ linkedEntityId: ["users:validation.entity"] }, "users:validation.entity");
  }
  try {
    return await withTx(ctx, async (txCtx, effects) => {
      const tx = txCtx.db;
      const linked = await checkLinks(txCtx, input.role, input.linkedObjects);
      const settings = notificationSettingsOf(input);
      await checkNotificationBuildings(txCtx, settings.buildingIds);
      // tenant-scope: across entities, e-mail addresses are unique over all entities
      const [taken] = await tx
        .select({ id: users.id })
        .from(users)
        .where(and(sql`lower(${users.email}) = ${input.email}`, isNull(users.archivedAt)))
        .limit(1);
      if (taken) throw emailInUse();
      const [row] = await tx
        .insert(users)
        .values({
          entityId: ctx.entityId,
          email: input.email,
          name: input.name,
          surname: input.surname,
          role: input.role,
          language: input.language,
          status: UserStatus.INACTIVE,
          receiveNotification: input.receiveNotification,
          notificationSettings: settings,
        })
        .returning();
      await writeLinks(txCtx, row.id, linked);
      await invite(txCtx, effects, row);
      await effects.audit({ action: AUDIT.user.create, recordType: "user", recordId: row.id, details: { role: row.role } });
      return getUser(txCtx, row.id);
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw emailInUse();
    throw error;
  }
}

/**
 * Saves a user's details, role, status, links, notification settings and picture. A person who does not
 * manage users (a technician) may call it on their own id: only their own settings are saved
 * (`updateOwnProfile`).
 */
export async function updateUser(ctx: FilesContext, id: number, rawInput: Input<UpdateUserInput | UpdateOwnProfileInput>): Promise<UserDetail> {
  if (!can(ctx.actor, "manage", "user") && isOwnAccount(ctx.actor, id)) return updateOwnProfile(ctx, id, rawInput);
  assertCanManageUsers(ctx);
  const input = parseInput(UpdateUserSchema, await resolveInput(rawInput));
  const actor = ctx.actor;
  const newPicture = input.updatePicture && input.newPicture ? input.newPicture : null;
  if (newPicture) checkImage(newPicture, ctx.files.maxBytes, { kind: "image", field: "newPicture" });
  return withTx(ctx, async (txCtx, effects) => {
    const tx = txCtx.db;
    const current = await lockUser(txCtx, id);
    assertMayHandleRole(actor, current.role);
    assertMayHandleRole(actor, input.role);
    const status = nextStatus(current, input.status ?? current.status);
    if (current.id === actor.id && (input.role !== current.role || status !== current.status)) throw selfChange();
    await keepAnAdministrator(txCtx, current, roleIsAdministrators(input.role) && status === UserStatus.ACTIVE);
    const links = await tx
      .select({ facilityId: userLinkedObjects.facilityId, buildingId: userLinkedObjects.buildingId })
      .from(userLinkedObjects)
      .where(and(eq(userLinkedObjects.userId, id), eq(userLinkedObjects.entityId, ctx.entityId)));
    const kept = {
      facilityIds: links.flatMap((l) => (l.facilityId === null ? [] : [l.facilityId])),
      buildingIds: links.flatMap((l) => (l.buildingId === null ? [] : [l.buildingId])),
    };
    const linked = await checkLinks(txCtx, input.role, input.linkedObjects, kept);
    const settings = notificationSettingsOf(input);
    await checkNotificationBuildings(txCtx, settings.buildingIds, current.notificationSettings?.buildingIds ?? []);
    const pictureFileId = input.updatePicture
      ? await uploadsOf(txCtx, effects).replace(current.pictureFileId, newPicture, { kind: "image", field: "newPicture" })
      : current.pictureFileId;
    const now = new Date();
    await tx
      .update(users)
      .set({
        name: input.name,
        surname: input.surname,
        role: input.role,
        language: input.language,
        status,
        receiveNotification: input.receiveNotification,
        notificationSettings: settings,
        pictureFileId,
        updatedAt: now,
      })
      .where(and(eq(users.id, id), eq(users.entityId, ctx.entityId)));
    await writeLinks(txCtx, id, linked);
    if (status === UserStatus.DISABLED && current.status !== UserStatus.DISABLED) {
      await endAccess(txCtx, id, now);
      await effects.emit(userDeactivated, { userId: id, reason: "disabled" });
    }
    const changes: Record<string, [number, number]> = {};
    if (current.role !== input.role) changes.role = [current.role, input.role];
    if (current.status !== status) changes.status = [current.status, status];
    await effects.audit({ action: AUDIT.user.update, recordType: "user", recordId: id, details: changes });
    return getUser(txCtx, id);
  });
}

/**
 * One's own profile through the users' call (SPEC.md section 7, PUT /api/users/{id}): the settings of
 * /settings (`updateAccount`); a role, status or links that differ from the current ones are refused
 * (409 SELF), as they are for a manager changing their own.
 */
async function updateOwnProfile(ctx: FilesContext, id: number, rawInput: Input<UpdateOwnProfileInput>): Promise<UserDetail> {
  const input = parseInput(UpdateOwnProfileSchema, await resolveInput(rawInput));
  const current = await getUser(ctx, id);
  const sameIds = (a: number[], b: number[]) => a.length === b.length && [...a].sort((x, y) => x - y).every((v, i) => v === [...b].sort((x, y) => x - y)[i]);
  if (input.role != null && input.role !== current.role) throw selfChange();
  if (input.status != null && input.status !== current.status) throw selfChange();
  if (
    input.linkedObjects !== undefined &&
    (!sameIds(input.linkedObjects.facilityIds, current.linkedObjects.facilityIds) ||
      !sameIds(input.linkedObjects.buildingIds, current.linkedObjects.buildingIds))
  ) {
    throw selfChange();
  }
  await updateAccount(ctx, {
    userId: id,
    name: input.name,
    surname: input.surname,
    language: input.language,
    receiveNotification: input.receiveNotification,
    notificationSettings: input.notificationSettings,
    updatePicture: input.updatePicture,
    newPicture: input.newPicture,
  });
  return getUser(ctx, id);
}

/**
 * What a disabled person can no longer use, ended in the disabling unit of work: their sessions, the API
 * tokens they made (revoked by the api-tokens area) and their calendar feed address (removed). None of
 * it comes back when the person is enabled again.
 */
async function endAccess(txCtx: ServiceContext, id: number, now: Date): Promise<void> {
  await revokeSessions(txCtx, id, now);
  await revokeTokensOfMaker(txCtx, id, now);
  await txCtx.db.update(users).set({ calendarToken: null }).where(and(eq(users.id, id), eq(users.entityId, txCtx.entityId)));
}

/**
 * The status a toggle leads to: disabling is always possible; enabling gives "active" to a user who
 * has set a password and "inactive (not yet validated)" to one who has not. Setting "inactive" by
 * hand is not a transition (it keeps the current status).
 */
function nextStatus(user: Pick<User, "status" | "passwordHash">, requested: number): UserStatus {
  if (requested === UserStatus.DISABLED) return UserStatus.DISABLED;
  if (requested === UserStatus.ACTIVE) return user.passwordHash ? UserStatus.ACTIVE : UserStatus.INACTIVE;
  return user.status;
}

/**
 * Enables or disables a user (PATCH /users/{id}/status, the status toggle). A disabled user is refused
 * at login and loses access on their next request, web and API: their refresh tokens are revoked and
 * every request re-checks the status.
 */
export async function setUserStatus(ctx: ServiceContext, id: number, rawInput: Input<SetUserStatusInput>): Promise<UserDetail> {
  assertCanManageUsers(ctx);
  const input = parseInput(SetUserStatusSchema, await resolveInput(rawInput));
  const actor = ctx.actor;
  return withTx(ctx, async (txCtx, effects) => {
    const current = await lockUser(txCtx, id);
    assertMayHandleRole(actor, current.role);
    if (current.id === actor.id) throw selfChange();
    const status = nextStatus(current, input.newStatus);
    if (status !== current.status) {
      await keepAnAdministrator(txCtx, current, status === UserStatus.ACTIVE);
      const now = new Date();
      await txCtx.db.update(users).set({ status, updatedAt: now }).where(and(eq(users.id, id), eq(users.entityId, ctx.entityId)));
      if (status === UserStatus.DISABLED) {
        await endAccess(txCtx, id, now);
        await effects.emit(userDeactivated, { userId: id, reason: "disabled" });
      }
      await effects.audit({ action: AUDIT.user.setStatus, recordType: "user", recordId: id, details: { status: [current.status, status] } });
    }
    return getUser(txCtx, id);
  });
}

/** Sends a new invitation to a user who has not set a password yet (the earlier links stop working). */
export async function resendInvitation(ctx: ServiceContext, id: number): Promise<UserDetail> {
  assertCanManageUsers(ctx);
  const actor = ctx.actor;
  return withTx(ctx, async (txCtx, effects) => {
    const current = await lockUser(txCtx, id);
    assertMayHandleRole(actor, current.role);
    if (current.status !== UserStatus.INACTIVE) throw new ConflictError("users:errors.alreadyActive", "ALREADY_VALIDATED");
    await invite(txCtx, effects, current);
    await effects.audit({ action: AUDIT.user.resendInvitation, recordType: "user", recordId: id });
    return getUser(txCtx, id);
  });
}

export interface ArchiveUserResult {
  incidentsReassigned: number;
  tasksReassigned: number;
  plannedMaintenancesReassigned: number;
}

/** A user who takes over the archived user's work: of the entity, not archived, not disabled, not the user. */
async function checkSuccessor(ctx: ServiceContext, archivedId: number, successorId: number, field: string): Promise<{ id: number; name: string } | null> {
  if (successorId === 0) return null;
  const [row] = await ctx.db
    .select({ id: users.id, name: users.name, surname: users.surname })
    .from(users)
    .where(
      and(
        eq(users.id, successorId),
        eq(users.entityId, ctx.entityId),
        isNull(users.archivedAt),
        ne(users.status, UserStatus.DISABLED),
        ne(users.id, archivedId),
      ),
    )
    .limit(1);
  if (!row) throw new ValidationError({ [field]: ["users:validation.successor"] }, "users:validation.successor", "SUCCESSOR_NOT_FOUND");
  return { id: row.id, name: fullName(row) };
}

/**
 * Archives a user (SPEC.md section 4), in one transaction: their Pending and In Progress incidents go
 * to `incidentsUserId`, their planned-maintenance assignments and pending tasks to
 * `plannedMaintenanceUserId`, or become unassigned (0); each reassigned incident gets an "assigned"
 * event and its change (the successor is told). A successor for the incidents must reach every one of
 * them. The user can no longer log in and disappears from lists and pickers; past events and comments
 * keep their name.
 */
export async function archiveUser(ctx: ServiceContext, id: number, rawInput: Input<ArchiveUserInput>): Promise<ArchiveUserResult> {
  assertCanManageUsers(ctx);
  const input = parseInput(ArchiveUserSchema, (await resolveInput(rawInput)) ?? {});
  const actor = ctx.actor;
  return withTx(ctx, async (txCtx, effects) => {
    const tx = txCtx.db;
    const current = await lockUser(txCtx, id);
    assertMayHandleRole(actor, current.role);
    if (current.id === actor.id) throw selfChange();
    if (input.confirmName !== undefined) checkConfirmName(fullName(current), { confirmName: input.confirmName });
    await keepAnAdministrator(txCtx, current, false);
    const incidentsTo = await checkSuccessor(txCtx, id, input.incidentsUserId, "incidentsUserId");
    const maintenanceTo = await checkSuccessor(txCtx, id, input.plannedMaintenanceUserId, "plannedMaintenanceUserId");
    if (incidentsTo && (await openIncidentsOutOfReach(txCtx, id, incidentsTo.id)) > 0) {
      throw new ValidationError({ incidentsUserId: ["users:validation.successorOutOfReach"] }, "users:validation.successorOutOfReach", "SUCCESSOR_OUT_OF_REACH");
    }
    const e = ctx.entityId;
    // Each area hands over its own work: the incidents (with their events and changes, so the successor
    // is told), incident types' default assignees, tasks and maintenance assignments.
    const incidentsReassigned = await reassignIncidents(txCtx, effects, { id, name: fullName(current) }, incidentsTo);
    await reassignIncidentTypeAssignees(txCtx, id, incidentsTo?.id ?? null);
    const maintenance = await reassignMaintenance(txCtx, id, maintenanceTo?.id ?? null);

    const now = new Date();
    await tx.update(users).set({ archivedAt: now, updatedAt: now }).where(and(eq(users.id, id), eq(users.entityId, e)));
    await revokeSessions(txCtx, id, now);
    await effects.emit(userDeactivated, { userId: id, reason: "archived" });
    await tx
      .update(passwordResetTokens)
      .set({ usedAt: now })
      .where(and(eq(passwordResetTokens.userId, id), eq(passwordResetTokens.entityId, e), isNull(passwordResetTokens.usedAt)));
    const result: ArchiveUserResult = { incidentsReassigned, ...maintenance };
    await effects.audit({
      action: AUDIT.user.archive,
      recordType: "user",
      recordId: id,
      details: { ...result, incidentsUserId: input.incidentsUserId, plannedMaintenanceUserId: input.plannedMaintenanceUserId },
    });
    return result;
  });
}
