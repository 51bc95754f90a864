import type { Db } from "~/db/client.server";
import { NotificationType } from "~/db/enums";
import { type NewNotificationDetails, type Notification, type NotificationDetails, notificationDetails, notifications } from "~/db/schema";
import type { Overrides } from "./core";

export type CreateNotificationOverrides = Overrides<NewNotificationDetails> & {
  /** Recipients: one `notifications` row each. */
  userIds: number[];
  /** Marks the recipients' rows as read at that time (default unread). */
  readAt?: Date | null;
};

/** Notification details (incident created, unless overridden) fanned out to `userIds`. */
export async function createNotification(
  db: Db,
  overrides: CreateNotificationOverrides,
): Promise<{ details: NotificationDetails; notifications: Notification[] }> {
  const { userIds, readAt = null, ...columns } = overrides;
  const [details] = await db
    .insert(notificationDetails)
    .values({ type: NotificationType.INCIDENT_CREATED, subject: "New incident", ...columns })
    .returning();
  const rows =
    userIds.length === 0
      ? []
      : await db
          .insert(notifications)
          .values(
            userIds.map((userId) => ({
              entityId: columns.entityId,
              userId,
              detailsId: details.id,
              readAt,
              createdAt: details.createdAt,
            })),
          )
          .returning();
  return { details, notifications: rows };
}
