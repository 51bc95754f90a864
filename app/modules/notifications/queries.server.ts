import { and, desc, eq, inArray, isNull, sql } from "drizzle-orm";
import { assertCan, requirePerson } from "~/core/actor";
import type { ServiceContext } from "~/core/context.server";
import type { Db } from "~/db/client.server";
import type { NotificationType } from "~/db/enums";
import { type NotificationMessage, notificationCounts, notificationDetails, notifications, users } from "~/db/schema";
import { ForbiddenError, NotFoundError } from "~/lib/errors";
import { DEFAULT_PAGE_SIZE, MAX_PAGE, MAX_PAGE_SIZE, type Page } from "~/lib/list-query";

export interface NotificationCount {
  total: number;
  unread: number;
}

/**
 * How many notifications a user has, and how many are unread (SPEC.md section 7:
 * GET /users/{id}/notifications/count): one row of `notification_counts`, which triggers keep
 * (migration 0010, decision 028), whatever the number of notifications. Only the user's own counts in
 * their entity.
 */
export async function countNotifications(db: Db, entityId: number, userId: number): Promise<NotificationCount> {
  const [row] = await db
    .select({ total: notificationCounts.total, unread: notificationCounts.unread })
    .from(notificationCounts)
    .where(and(eq(notificationCounts.entityId, entityId), eq(notificationCounts.userId, userId)));
  return { total: Number(row?.total ?? 0), unread: Number(row?.unread ?? 0) };
}

/** The count call (SPEC.md section 7): the user's own totals; another user's refused like their list. */
export async function getNotificationCount(ctx: ServiceContext, userId: number): Promise<NotificationCount> {
  await assertOwnNotifications(ctx, userId);
  return countNotifications(ctx.db, ctx.entityId, userId);
}

export const notificationNotFound = () => new NotFoundError("notifications:notFound", "NOTIFICATION_NOT_FOUND");
const userNotFound = () => new NotFoundError("users:errors.notFound", "USER_NOT_FOUND");

/**
 * The notifications of user `userId` are for that user alone: another user of the entity is refused
 * (403), a user of another entity (or none) is not found (404), as is every call without an actor.
 */
export async function assertOwnNotifications(ctx: ServiceContext, userId: number): Promise<void> {
  assertCan(ctx.actor, "read", "notification");
  if (userId === ctx.actor.id) return;
  if (!Number.isSafeInteger(userId) || userId <= 0 || userId > 2_147_483_647) throw userNotFound();
  const [user] = await ctx.db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.id, userId), eq(users.entityId, ctx.entityId)));
  if (!user) throw userNotFound();
  throw new ForbiddenError("notifications:errors.notYours", "NOT_YOUR_NOTIFICATIONS");
}

/** One notification as the list, the page and the API show it (SPEC.md section 3). */
export interface NotificationItem {
  id: number;
  notificationDetailsId: number;
  read: boolean;
  creationDate: string;
  type: NotificationType;
  subject: string;
  message: NotificationMessage;
  incidentId: number | null;
}

const itemColumns = {
  id: notifications.id,
  notificationDetailsId: notifications.detailsId,
  readAt: notifications.readAt,
  createdAt: notifications.createdAt,
  type: notificationDetails.type,
  subject: notificationDetails.subject,
  message: notificationDetails.message,
  incidentId: notificationDetails.incidentId,
};

type ItemRow = { id: number; notificationDetailsId: number; readAt: Date | null; createdAt: Date; type: NotificationType; subject: string; message: NotificationMessage; incidentId: number | null };

const toItem = (r: ItemRow): NotificationItem => ({
  id: r.id,
  notificationDetailsId: r.notificationDetailsId,
  read: r.readAt !== null,
  creationDate: r.createdAt.toISOString(),
  type: r.type,
  subject: r.subject,
  message: r.message ?? {},
  incidentId: r.incidentId,
});

export interface NotificationListOptions {
  /** Unread ones only. */
  unreadOnly?: boolean;
  /** Only these notification details (SPEC.md section 7: notificationDetailsIds). */
  detailsIds?: number[] | null;
  page?: number;
  size?: number;
}

/**
 * The user's notifications, newest first (SPEC.md sections 3 and 7), one page (25 by default, at most
 * 100), on the (user, created) indexes; the total comes from the counters unless narrowed by detail ids.
 * Another user's list is refused (`assertOwnNotifications`).
 */
export async function listNotifications(ctx: ServiceContext, userId: number, options: NotificationListOptions = {}): Promise<Page<NotificationItem>> {
  await assertOwnNotifications(ctx, userId);
  const size = Math.min(Math.max(1, options.size ?? DEFAULT_PAGE_SIZE), MAX_PAGE_SIZE);
  const page = Math.min(Math.max(1, options.page ?? 1), MAX_PAGE);
  const detailsIds = options.detailsIds ?? null;
  if (detailsIds && detailsIds.length === 0) return { items: [], total: 0, page, size };
  const where = and(
    eq(notifications.userId, userId),
    eq(notifications.entityId, ctx.entityId),
    options.unreadOnly ? isNull(notifications.readAt) : undefined,
    detailsIds ? inArray(notifications.detailsId, detailsIds) : undefined,
  );
  const rows = await ctx.db
    .select(itemColumns)
    .from(notifications)
    .innerJoin(notificationDetails, and(eq(notificationDetails.id, notifications.detailsId), eq(notificationDetails.entityId, ctx.entityId)))
    .where(where)
    .orderBy(desc(notifications.createdAt), desc(notifications.id))
    .offset((page - 1) * size)
    .limit(size);
  let total: number;
  if (detailsIds) {
    const [row] = await ctx.db.select({ n: sql<number>`count(*)::int` }).from(notifications).where(where);
    total = Number(row?.n ?? 0);
  } else {
    const counts = await countNotifications(ctx.db, ctx.entityId, userId);
    total = options.unreadOnly ? counts.unread : counts.total;
  }
  return { items: rows.map(toItem), total, page, size };
}

/** One of the viewer's own notifications (by its id), or "not found". */
export async function getNotification(ctx: ServiceContext, id: number): Promise<NotificationItem> {
  const reader = requirePerson(ctx.actor);
  if (!Number.isSafeInteger(id) || id <= 0 || id > 2_147_483_647) throw notificationNotFound();
  const [row] = await ctx.db
    .select(itemColumns)
    .from(notifications)
    .innerJoin(notificationDetails, and(eq(notificationDetails.id, notifications.detailsId), eq(notificationDetails.entityId, ctx.entityId)))
    .where(and(eq(notifications.id, id), eq(notifications.userId, reader.id), eq(notifications.entityId, ctx.entityId)));
  if (!row) throw notificationNotFound();
  return toItem(row);
}
