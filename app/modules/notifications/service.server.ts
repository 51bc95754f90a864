import { and, eq, inArray, isNotNull, isNull, lt, sql } from "drizzle-orm";
import { requirePerson } from "~/core/actor";
import type { ServiceContext } from "~/core/context.server";
import { type Input, resolveInput } from "~/core/input";
import { type Effects, withTx } from "~/core/unit-of-work.server";
import { notificationDetails, notifications } from "~/db/schema";
import { parseInput } from "~/lib/validation";
import { assertOwnNotifications, getNotification, type NotificationItem } from "./queries.server";
import { MarkReadSchema, type MarkReadInput } from "./schema";

/**
 * Notifications (decisions 028, 048).
 *
 * Writing: a verb emits a change event in its unit of work; the dispatcher hands it to the notification
 * kinds that follow it (./kinds.server.ts), which write the details and one row per recipient under a
 * key unique to the change (a change dispatched again writes nothing), queue the emails and publish
 * `notification.created` after their commit.
 *
 * Reading is the user's own: marking as read is one-way (SPEC.md section 4) and publishes
 * `notification.read` for the reader.
 */

function publishRead(ctx: ServiceContext, effects: Effects, userId: number, notificationIds: number[]) {
  effects.publish({ entityId: ctx.entityId, type: "notification.read", userIds: [userId], data: { notificationIds } });
}

/**
 * Marks the given notification details of user `userId` as read (SPEC.md section 7: PATCH
 * /users/{id}/notifications/read; the forms' "mark as read"). One-way: a read one stays read with its
 * first reading time. Ids that are not the user's change nothing. Answers `{ responseCode: 0 }`.
 */
export async function markNotificationsRead(ctx: ServiceContext, userId: number, rawInput: Input<MarkReadInput>): Promise<{ responseCode: 0; marked: number }> {
  await assertOwnNotifications(ctx, userId);
  const { notificationDetailsIds } = parseInput(MarkReadSchema, await resolveInput(rawInput));
  return withTx(ctx, async (tx, effects) => {
    const marked = await tx.db
      .update(notifications)
      .set({ readAt: new Date() })
      .where(
        and(
          eq(notifications.userId, userId),
          eq(notifications.entityId, tx.entityId),
          inArray(notifications.detailsId, notificationDetailsIds),
          isNull(notifications.readAt),
        ),
      )
      .returning({ id: notifications.id });
    if (marked.length) publishRead(tx, effects, userId, marked.map((m) => m.id));
    return { responseCode: 0 as const, marked: marked.length };
  });
}

/** Marks every unread notification of the signed-in user as read. */
export async function markAllNotificationsRead(ctx: ServiceContext): Promise<{ marked: number }> {
  const userId = requirePerson(ctx.actor).id;
  return withTx(ctx, async (tx, effects) => {
    const marked = await tx.db
      .update(notifications)
      .set({ readAt: new Date() })
      .where(and(eq(notifications.userId, userId), eq(notifications.entityId, tx.entityId), isNull(notifications.readAt)))
      .returning({ id: notifications.id });
    if (marked.length) publishRead(tx, effects, userId, marked.map((m) => m.id));
    return { marked: marked.length };
  });
}

/** Opens one of the viewer's notifications (/notification/{id}): it is marked as read, once. */
export async function openNotification(ctx: ServiceContext, id: number): Promise<NotificationItem> {
  const reader = requirePerson(ctx.actor);
  const item = await getNotification(ctx, id);
  if (item.read) return item;
  return withTx(ctx, async (tx, effects) => {
    const marked = await tx.db
      .update(notifications)
      .set({ readAt: new Date() })
      .where(and(eq(notifications.id, item.id), eq(notifications.userId, reader.id), eq(notifications.entityId, tx.entityId), isNull(notifications.readAt)))
      .returning({ id: notifications.id });
    if (marked.length) publishRead(tx, effects, reader.id, [item.id]);
    return { ...item, read: true };
  });
}

/** How many read notifications one retention statement removes at most (short transactions). */
const RETENTION_BATCH = 5000;

/**
 * Removes read notifications older than `days` (by their reading time), and the details nobody holds any
 * more, in batches, across every entity: the retention job (system work, not a user's verb).
 */
export async function purgeReadNotifications(services: Pick<ServiceContext, "db">, days: number): Promise<{ removed: number }> {
  let removed = 0;
  for (;;) {
    // tenant-scope: across entities, retention removes read notifications of every entity
    const batch = services.db
      .select({ id: notifications.id })
      .from(notifications)
      .where(and(isNotNull(notifications.readAt), lt(notifications.readAt, sql`now() - make_interval(days => ${days})`)))
      .limit(RETENTION_BATCH);
    // tenant-scope: across entities, retention runs for every entity by design
    const gone = await services.db.delete(notifications).where(inArray(notifications.id, batch)).returning({ id: notifications.id });
    removed += gone.length;
    if (gone.length < RETENTION_BATCH) break;
  }
  // tenant-scope: across entities, retention removes unreferenced notification details of every entity
  await services.db.delete(notificationDetails).where(
    and(
      lt(notificationDetails.createdAt, sql`now() - make_interval(days => ${days})`),
      // tenant-scope: scoped by the outer notification detail: the notifications that refer to it
      sql`not exists (select 1 from ${notifications} n where n.details_id = ${notificationDetails.id})`,
    ),
  );
  return { removed };
}
