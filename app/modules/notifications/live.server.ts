import { and, asc, eq, gt, max } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import type { NotificationType } from "~/db/enums";
import { type NotificationMessage, notificationDetails, notifications } from "~/db/schema";
import { countNotifications, type NotificationCount } from "./queries.server";

/**
 * The reads behind the live notification stream (app/http/notification-stream.server.ts): the
 * user's notifications after an id, in id order (what a reconnecting client missed, and what a
 * live event announced), and the newest id (where a first connection starts). Only the user's own
 * rows in their entity.
 */
export interface LiveNotification {
  id: number;
  notificationDetailsId: number;
  type: NotificationType;
  read: boolean;
  creationDate: string;
  subject: string;
  message: NotificationMessage;
  incidentId: number | null;
}

export const LIVE_PAGE_SIZE = 100;

export async function notificationsAfter(db: Db, entityId: number, userId: number, afterId: number, limit = LIVE_PAGE_SIZE): Promise<LiveNotification[]> {
  const rows = await db
    .select({
      id: notifications.id,
      notificationDetailsId: notifications.detailsId,
      type: notificationDetails.type,
      readAt: notifications.readAt,
      createdAt: notifications.createdAt,
      subject: notificationDetails.subject,
      message: notificationDetails.message,
      incidentId: notificationDetails.incidentId,
    })
    .from(notifications)
    .innerJoin(notificationDetails, and(eq(notificationDetails.id, notifications.detailsId), eq(notificationDetails.entityId, entityId)))
    .where(and(eq(notifications.entityId, entityId), eq(notifications.userId, userId), gt(notifications.id, afterId)))
    .orderBy(asc(notifications.id))
    .limit(limit);
  return rows.map(({ readAt, createdAt, ...row }) => ({
    ...row,
    read: readAt !== null,
    creationDate: new Date(createdAt).toISOString(),
  }));
}

/** The id of the user's newest notification (0 when they have none). */
export async function latestNotificationId(db: Db, entityId: number, userId: number): Promise<number> {
  const [row] = await db
    .select({ id: max(notifications.id) })
    .from(notifications)
    .where(and(eq(notifications.entityId, entityId), eq(notifications.userId, userId)));
  return Number(row?.id ?? 0);
}

/** What one user's stream reads. */
export interface StreamReads {
  after(cursor: number, limit: number): Promise<LiveNotification[]>;
  latestId(): Promise<number>;
  count(): Promise<NotificationCount>;
}

export function liveReads(db: Db, entityId: number, userId: number): StreamReads {
  return {
    after: (cursor, limit) => notificationsAfter(db, entityId, userId, cursor, limit),
    latestId: () => latestNotificationId(db, entityId, userId),
    count: () => countNotifications(db, entityId, userId),
  };
}
