import { type AnyColumn, and, asc, count, desc, eq, inArray, isNull, ne, or, sql } from "drizzle-orm";
import { reachesOpenIncidentsOf } from "~/modules/incidents/queries.server";
import { alias } from "drizzle-orm/pg-core";
import { readAll, type ServiceContext } from "~/core/context.server";
import { roleMay } from "~/core/role-sql.server";
import type { Db } from "~/db/client.server";
import { type Role, UserStatus } from "~/db/enums";
import { auditLog, buildings, entities, facilities, userLinkedObjects, users } from "~/db/schema";
import { NotFoundError } from "~/lib/errors";
import { readPage, nameLike } from "~/lib/list-page.server";
import { DEFAULT_PAGE_SIZE, type ListQuery, MAX_PAGE_SIZE, type Page } from "~/lib/list-query";
import { treeScope, withinTokenFacilities } from "~/modules/facilities/policy.server";
import { assertCanManageUsers, isOwnAccount } from "./policy.server";
import { USER_HISTORY_ACTIONS, currentAuditAction, storedAuditNames } from "~/core/audit-actions";

/** The signed-in user's profile and entity branding, loaded once per page by the root loader. */
export async function getProfile(db: Db, userId: number, entityId: number) {
  const [row] = await db
    .select({
      id: users.id,
      name: users.name,
      surname: users.surname,
      email: users.email,
      role: users.role,
      language: users.language,
      pictureFileId: users.pictureFileId,
      entity: {
        id: entities.id,
        name: entities.name,
        templateColor: entities.templateColor,
        templateTextColor: entities.templateTextColor,
        logoFileId: entities.logoFileId,
      },
    })
    .from(users)
    .innerJoin(entities, eq(entities.id, users.entityId))
    .where(and(eq(users.id, userId), eq(users.entityId, entityId), isNull(users.archivedAt), isNull(entities.archivedAt)))
    .limit(1);
  return row ?? null;
}
export type Profile = NonNullable<Awaited<ReturnType<typeof getProfile>>>;

/** The signed-in user's own settings (account tab of /settings). */
export async function getAccountSettings(db: Db, userId: number, entityId: number) {
  const [row] = await db
    .select({
      id: users.id,
      name: users.name,
      surname: users.surname,
      email: users.email,
      role: users.role,
      language: users.language,
      receiveNotification: users.receiveNotification,
      notificationSettings: users.notificationSettings,
      pictureFileId: users.pictureFileId,
      updatedAt: users.updatedAt,
    })
    .from(users)
    .where(and(eq(users.id, userId), eq(users.entityId, entityId), isNull(users.archivedAt)))
    .limit(1);
  if (!row) return null;
  return {
    ...row,
    picture: row.pictureFileId ? `/files/${row.pictureFileId}` : null,
    updatedAt: row.updatedAt.toISOString(),
  };
}
export type AccountSettings = NonNullable<Awaited<ReturnType<typeof getAccountSettings>>>;

/**
 * The buildings the user may choose to be notified about (account tab of /settings), with their
 * facility: every building of the entity for managers and administrators, a technician's linked
 * facilities and buildings only (`treeScope`), as `updateAccount` accepts.
 */
export async function listNotificationBuildings(ctx: ServiceContext) {
  const { entityId } = ctx;
  return ctx.db
    .select({ id: buildings.id, name: buildings.name, facilityId: facilities.id, facilityName: facilities.name })
    .from(buildings)
    .innerJoin(facilities, and(eq(facilities.id, buildings.facilityId), eq(facilities.entityId, entityId)))
    .where(and(eq(buildings.entityId, entityId), isNull(buildings.archivedAt), isNull(facilities.archivedAt), treeScope(ctx, "building")))
    .orderBy(asc(facilities.name), asc(buildings.name));
}
export type NotificationBuilding = Awaited<ReturnType<typeof listNotificationBuildings>>[number];

// ---------------------------------------------------------------------------
// User management: the list, one user, assignees, the audit history, the link choices.
// ---------------------------------------------------------------------------

export const USER_SORTS = ["name", "surname", "email", "role", "status", "lastLogin"] as const;
export type UserSort = (typeof USER_SORTS)[number];

export interface UserFilters {
  role?: number | null;
  status?: number | null;
}

export interface UserRow {
  id: number;
  name: string;
  surname: string;
  email: string;
  role: number;
  language: number;
  status: number;
  lastLoginAt: string | null;
  picture: string | null;
  /** Linked facilities and buildings, by name (administrators: none, they reach the whole entity). */
  linkedFacilities: { id: number; name: string }[];
  linkedBuildings: { id: number; name: string; facilityName: string }[];
}

/**
 * The links of the given users, read with one statement per kind (only the page's users). `inTokenReach`:
 * a token limited to some facilities sees only the links within them (a list and its export show none of
 * another facility's places); one user's own record keeps all its links (it is what a change replaces).
 */
async function linksOf(ctx: ServiceContext, userIds: number[], inTokenReach = false) {
  const facilitiesByUser = new Map<number, { id: number; name: string }[]>();
  const buildingsByUser = new Map<number, { id: number; name: string; facilityName: string }[]>();
  if (!userIds.length) return { facilitiesByUser, buildingsByUser };
  // The users' links to places that are not archived (and within the token's facilities when asked).
  const linksOf = (archivedAt: AnyColumn, facilityId: AnyColumn) =>
    and(
      eq(userLinkedObjects.entityId, ctx.entityId),
      inArray(userLinkedObjects.userId, userIds),
      isNull(archivedAt),
      inTokenReach ? withinTokenFacilities(ctx.actor, facilityId) : undefined,
    );
  const [facilityLinks, buildingLinks] = await readAll(ctx, [
    () => ctx.db
      .select({ userId: userLinkedObjects.userId, id: facilities.id, name: facilities.name })
      .from(userLinkedObjects)
      .innerJoin(facilities, and(eq(facilities.id, userLinkedObjects.facilityId), eq(facilities.entityId, ctx.entityId)))
      .where(linksOf(facilities.archivedAt, facilities.id))
      .orderBy(asc(sql`lower(${facilities.name})`), asc(facilities.id)),
    () => ctx.db
      .select({ userId: userLinkedObjects.userId, id: buildings.id, name: buildings.name, facilityName: facilities.name })
      .from(userLinkedObjects)
      .innerJoin(buildings, and(eq(buildings.id, userLinkedObjects.buildingId), eq(buildings.entityId, ctx.entityId)))
      .innerJoin(facilities, eq(facilities.id, buildings.facilityId))
      .where(linksOf(buildings.archivedAt, buildings.facilityId))
      .orderBy(asc(sql`lower(${buildings.name})`), asc(buildings.id)),
  ]);
  for (const { userId, ...f } of facilityLinks) facilitiesByUser.set(userId, [...(facilitiesByUser.get(userId) ?? []), f]);
  for (const { userId, ...b } of buildingLinks) buildingsByUser.set(userId, [...(buildingsByUser.get(userId) ?? []), b]);
  return { facilitiesByUser, buildingsByUser };
}

const userFields = {
  id: users.id,
  name: users.name,
  surname: users.surname,
  email: users.email,
  role: users.role,
  language: users.language,
  status: users.status,
  lastLoginAt: users.lastLoginAt,
  pictureFileId: users.pictureFileId,
};

/**
 * The users of the entity (/users, GET /api/users): search over name, surname and email, role and
 * status filters, sorted and paged in SQL; archived users are left out. Managers and administrators only.
 */
export async function listUsers(ctx: ServiceContext, query: ListQuery<UserSort>, filters: UserFilters = {}): Promise<Page<UserRow>> {
  assertCanManageUsers(ctx);
  const q = query.q;
  const where = and(
    eq(users.entityId, ctx.entityId),
    isNull(users.archivedAt),
    filters.role ? eq(users.role, filters.role as Role) : undefined,
    filters.status ? eq(users.status, filters.status as UserStatus) : undefined,
    q ? or(nameLike(users.name, q), nameLike(users.surname, q), nameLike(users.email, q)) : undefined,
  );
  const by = query.dir === "desc" ? desc : asc;
  const order = {
    name: [by(sql`lower(${users.name})`), by(sql`lower(${users.surname})`)],
    surname: [by(sql`lower(${users.surname})`), by(sql`lower(${users.name})`)],
    email: [by(sql`lower(${users.email})`)],
    role: [by(users.role), asc(sql`lower(${users.surname})`)],
    status: [by(users.status), asc(sql`lower(${users.surname})`)],
    lastLogin: [query.dir === "desc" ? sql`${users.lastLoginAt} desc nulls last` : sql`${users.lastLoginAt} asc nulls first`],
  }[query.sort];
  const page = await readPage(
    query,
    ctx.db.select(userFields).from(users).where(where).orderBy(...order, asc(users.id)).$dynamic(),
    ctx.db.select({ n: count() }).from(users).where(where),
  );
  const { facilitiesByUser, buildingsByUser } = await linksOf(ctx, page.items.map((u) => u.id), true);
  return {
    ...page,
    items: page.items.map(({ pictureFileId, lastLoginAt, ...u }) => ({
      ...u,
      lastLoginAt: lastLoginAt?.toISOString() ?? null,
      picture: pictureFileId ? `/files/${pictureFileId}` : null,
      linkedFacilities: facilitiesByUser.get(u.id) ?? [],
      linkedBuildings: buildingsByUser.get(u.id) ?? [],
    })),
  };
}

export interface UserDetail extends UserRow {
  receiveNotification: boolean;
  notificationSettings: { priorities: number[]; buildingIds: number[] };
  linkedObjects: { facilityIds: number[]; buildingIds: number[] };
  entityId: number;
  createdAt: string;
  /** A password has been set (the invitation was followed). */
  validated: boolean;
}

/**
 * One user of the entity (/update-user/{id}, GET /api/users/{id}); "User not found" otherwise. Those who
 * manage users read anyone of their entity; every person reads their own profile.
 */
export async function getUser(ctx: ServiceContext, id: number): Promise<UserDetail> {
  if (!isOwnAccount(ctx.actor, id)) assertCanManageUsers(ctx);
  const [row] = await ctx.db
    .select({
      ...userFields,
      entityId: users.entityId,
      receiveNotification: users.receiveNotification,
      notificationSettings: users.notificationSettings,
      createdAt: users.createdAt,
      validated: sql<boolean>`${users.passwordHash} is not null`,
    })
    .from(users)
    .where(and(eq(users.id, id), eq(users.entityId, ctx.entityId), isNull(users.archivedAt)))
    .limit(1);
  if (!row) throw new NotFoundError("users:errors.notFound", "USER_NOT_FOUND");
  const { facilitiesByUser, buildingsByUser } = await linksOf(ctx, [row.id]);
  const linkedFacilities = facilitiesByUser.get(row.id) ?? [];
  const linkedBuildings = buildingsByUser.get(row.id) ?? [];
  const { pictureFileId, lastLoginAt, createdAt, ...rest } = row;
  return {
    ...rest,
    validated: Boolean(rest.validated),
    lastLoginAt: lastLoginAt?.toISOString() ?? null,
    createdAt: createdAt.toISOString(),
    picture: pictureFileId ? `/files/${pictureFileId}` : null,
    linkedFacilities,
    linkedBuildings,
    linkedObjects: { facilityIds: linkedFacilities.map((f) => f.id), buildingIds: linkedBuildings.map((b) => b.id) },
  };
}

export interface Assignee {
  id: number;
  name: string;
  surname: string;
  role: number;
}

/**
 * People work can be assigned to (GET /api/users/assignees?entityIds=, the assign and reassign
 * pickers): users of the caller's entity who are not archived nor disabled and whose role may handle
 * incidents (the permission table), searchable by name and paged. Another entity in `entityIds` adds nothing. Any signed-in user of the entity may read it.
 */
export async function listAssignees(
  ctx: ServiceContext,
  options: { entityIds?: number[]; q?: string; page?: number; size?: number; excludeId?: number | null; successorsOf?: number } = {},
): Promise<Page<Assignee>> {
  const size = Math.min(Math.max(1, options.size ?? DEFAULT_PAGE_SIZE), MAX_PAGE_SIZE);
  const page = Math.max(1, options.page ?? 1);
  if (!ctx.actor || (options.entityIds?.length && !options.entityIds.includes(ctx.entityId))) return { items: [], total: 0, page, size };
  const q = options.q ?? "";
  const where = and(
    eq(users.entityId, ctx.entityId),
    isNull(users.archivedAt),
    ne(users.status, UserStatus.DISABLED),
    roleMay(users.role, "handle", "incident"),
    options.excludeId ? ne(users.id, options.excludeId) : undefined,
    // Who may take over a leaver's open incidents: only those who reach every one (archiveUser checks it too).
    options.successorsOf ? reachesOpenIncidentsOf(ctx, options.successorsOf) : undefined,
    q ? or(nameLike(users.name, q), nameLike(users.surname, q)) : undefined,
  );
  return readPage(
    { page, size, sort: "surname", dir: "asc", q },
    ctx.db
      .select({ id: users.id, name: users.name, surname: users.surname, role: users.role })
      .from(users)
      .where(where)
      .orderBy(asc(sql`lower(${users.surname})`), asc(sql`lower(${users.name})`), asc(users.id))
      .$dynamic(),
    ctx.db.select({ n: count() }).from(users).where(where),
  );
}

export interface UserHistoryEntry {
  action: string;
  at: string;
  actorName: string | null;
  details: Record<string, unknown> | null;
}

/** Who created, changed the role or status of, or archived a user, and when (newest first). */
export async function listUserHistory(ctx: ServiceContext, userId: number, limit = 50): Promise<UserHistoryEntry[]> {
  assertCanManageUsers(ctx);
  const actor = alias(users, "actor");
  const rows = await ctx.db
    .select({ action: auditLog.action, at: auditLog.createdAt, details: auditLog.details, actorName: actor.name, actorSurname: actor.surname })
    .from(auditLog)
    .leftJoin(actor, and(eq(actor.id, auditLog.actorId), eq(actor.entityId, ctx.entityId)))
    .where(
      and(
        eq(auditLog.entityId, ctx.entityId),
        eq(auditLog.recordType, "user"),
        eq(auditLog.recordId, String(userId)),
        inArray(auditLog.action, storedAuditNames(USER_HISTORY_ACTIONS)),
      ),
    )
    .orderBy(desc(auditLog.createdAt), desc(auditLog.id))
    .limit(limit);
  return rows.map((r) => ({
    action: currentAuditAction(r.action),
    at: r.at.toISOString(),
    details: r.details ?? null,
    actorName: r.actorName ? `${r.actorName} ${r.actorSurname ?? ""}`.trim() : null,
  }));
}

/**
 * The facilities a user may be linked to by the editor (SPEC.md section 6): those with at least one
 * building, within the editor's own reach, with their building count.
 */
export async function listLinkableFacilities(ctx: ServiceContext): Promise<{ id: number; name: string; buildingCount: number }[]> {
  assertCanManageUsers(ctx);
  return ctx.db
    .select({ id: facilities.id, name: facilities.name, buildingCount: facilities.buildingCount })
    .from(facilities)
    .where(and(eq(facilities.entityId, ctx.entityId), isNull(facilities.archivedAt), sql`${facilities.buildingCount} > 0`, treeScope(ctx, "wholeFacility")))
    .orderBy(asc(sql`lower(${facilities.name})`), asc(facilities.id))
    .limit(1000);
}
