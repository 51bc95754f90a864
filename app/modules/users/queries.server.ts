import { and, asc, eq, isNull } from "drizzle-orm";
import type { ServiceContext } from "~/core/context.server";
import type { Db } from "~/db/client.server";
import { buildings, entities, facilities, users } from "~/db/schema";
import { treeScope } from "~/modules/facilities/policy.server";

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
