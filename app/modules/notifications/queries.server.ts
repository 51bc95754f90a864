import { and, count, eq, isNull, sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { notifications } from "~/db/schema";

export interface NotificationCount {
  total: number;
  unread: number;
}

/**
 * How many notifications a user has, and how many are unread (SPEC.md section 7:
 * GET /users/{id}/notifications/count). Only the user's own rows in their entity count.
 */
export async function countNotifications(db: Db, entityId: number, userId: number): Promise<NotificationCount> {
  const [row] = await db
    .select({
      total: count(),
      unread: sql<number>`count(*) filter (where ${isNull(notifications.readAt)})`.mapWith(Number),
    })
    .from(notifications)
    .where(and(eq(notifications.entityId, entityId), eq(notifications.userId, userId)));
  return { total: Number(row?.total ?? 0), unread: Number(row?.unread ?? 0) };
}
