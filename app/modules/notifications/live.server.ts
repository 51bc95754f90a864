import { and, asc, count, eq, gt, inArray, isNull, max, type SQL, sql } from "drizzle-orm";
import type { LiveEvent } from "~/core/events.server";
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
  const rows = await notificationsWhere(db, entityId, and(eq(notifications.userId, userId), gt(notifications.id, afterId)), limit);
  return rows.map(({ userId: _userId, ...row }) => row);
}

async function notificationsWhere(db: Db, entityId: number, where: SQL | undefined, limit?: number): Promise<Array<LiveNotification & { userId: number }>> {
  const query = db
    .select({
      id: notifications.id,
      userId: notifications.userId,
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
    .where(and(eq(notifications.entityId, entityId), where))
    .orderBy(asc(notifications.id));
  const rows = limit === undefined ? await query : await query.limit(limit);
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
  /** The shared read of an event addressed to listed users. */
  snapshot(event: LiveEvent & { userIds: number[] }): Promise<EventSnapshot>;
  latestId(): Promise<number>;
  count(): Promise<NotificationCount>;
}

export function liveReads(db: Db, entityId: number, userId: number): StreamReads {
  return {
    after: (cursor, limit) => notificationsAfter(db, entityId, userId, cursor, limit),
    snapshot: (event) => eventSnapshot(db, entityId, event),
    latestId: () => latestNotificationId(db, entityId, userId),
    count: () => countNotifications(db, entityId, userId),
  };
}

/** What one live event announced, read once per process and shared by every stream it wakes. */
export interface EventSnapshot {
  /** The announced notifications (`data.notificationIds`), with their recipients. */
  rows: Array<LiveNotification & { userId: number }>;
  /** The recipients' counts after it. */
  counts: Map<number, NotificationCount>;
}

const snapshots = new WeakMap<object, Promise<EventSnapshot>>();

/** The ids a `notification.created` event announces (`data.notificationIds`), or null. */
export function announcedIds(event: LiveEvent): number[] | null {
  const ids = event.data?.notificationIds;
  return Array.isArray(ids) && ids.length > 0 && ids.every((id) => Number.isSafeInteger(id) && id > 0) ? (ids as number[]) : null;
}

/**
 * One read for an event with recipients (a notification to a hundred users wakes a stream or more
 * each): the announced rows and every recipient's count, in two statements, shared through the event
 * object (every local subscriber gets the same one). Read after the event arrived, so after the commit.
 */
export function eventSnapshot(db: Db, entityId: number, event: LiveEvent & { userIds: number[] }): Promise<EventSnapshot> {
  let pending = snapshots.get(event);
  if (!pending) {
    pending = (async () => {
      const ids = announcedIds(event) ?? [];
      const rows = ids.length ? await notificationsWhere(db, entityId, inArray(notifications.id, ids.slice(0, 10_000))) : [];
      const counted = await db
        .select({
          userId: notifications.userId,
          total: count(),
          unread: sql<number>`count(*) filter (where ${isNull(notifications.readAt)})`.mapWith(Number),
        })
        .from(notifications)
        .where(and(eq(notifications.entityId, entityId), inArray(notifications.userId, event.userIds)))
        .groupBy(notifications.userId);
      const counts = new Map(event.userIds.map((id) => [id, { total: 0, unread: 0 }]));
      for (const c of counted) counts.set(c.userId, { total: Number(c.total), unread: Number(c.unread) });
      return { rows, counts };
    })();
    snapshots.set(event, pending);
  }
  return pending;
}
