import { randomUUID } from "node:crypto";
import { and, eq, inArray, isNotNull, isNull, lt, sql } from "drizzle-orm";
import type { ServiceContext } from "~/core/context.server";
import { type Input, resolveInput } from "~/core/input";
import { type Effects, withTx } from "~/core/unit-of-work.server";
import type { NotificationType } from "~/db/enums";
import { incidents, notificationDetails, notifications } from "~/db/schema";
import { requirePerson } from "~/core/actor";
import { parseInput } from "~/lib/validation";
import { notifyJob } from "./jobs.server";
import { queueNotificationMails } from "./mail.server";
import { assertOwnNotifications, getNotification, type NotificationItem } from "./queries.server";
import { notificationRecipients } from "./recipients.server";
import { MarkReadSchema, type MarkReadInput, type NotifyPayload } from "./schema";

/**
 * Notifications (issue #14, decision 028).
 *
 * Writing: a verb that changes an incident calls `notifyAfterCommit` inside its unit of work; that writes a
 * `notify` job in the same transaction (the queue is a table of the same database), so a notification
 * exists only if the change commits, and a crash between commit and delivery loses nothing. The job runs
 * `deliverNotification`: it decides the recipients (`recipients.server.ts`), writes the details and one row
 * per recipient under the job's unique source key (a job run twice writes once), queues the emails, and
 * publishes `notification.created` on the live bus after its own commit.
 *
 * Reading is the user's own: marking as read is one-way (SPEC.md section 4) and publishes
 * `notification.read` for the reader.
 */


/** The live event published when notifications are written (the "live" stream relays it). */
export interface NotificationCreatedData {
  /** One per recipient, in the order of the event's `userIds`. */
  notificationIds: number[];
  detailsId: number;
  notificationType: number;
  incidentId: number | null;
  subject: string;
  message: Record<string, unknown>;
  createdAt: string;
}

/**
 * Called by a verb inside its unit of work: the notification of `type` about `incident` is written by a
 * job that exists only if the verb commits.
 */
export async function notifyAfterCommit(
  ctx: ServiceContext,
  effects: Effects,
  type: NotificationType,
  incident: { id: number; assigneeId: number | null },
  extra: { previousAssigneeId?: number | null; commentId?: number; status?: number } = {},
): Promise<void> {
  await effects.enqueue(notifyJob, {
    key: randomUUID(),
    entityId: ctx.entityId,
    type,
    incidentId: incident.id,
    actorId: ctx.actor?.id ?? null,
    assigneeId: incident.assigneeId,
    ...extra,
  });
}

/**
 * The `notify` job's verb (system context of the payload's entity): writes the notification once and
 * publishes it after commit. Returns the recipients' ids (empty when there were none, or when this cause
 * was written before).
 */
export async function deliverNotification(ctx: ServiceContext, payload: NotifyPayload): Promise<number[]> {
  return withTx(ctx, async (tx, effects) => {
    const [incident] = await tx.db
      .select({
        id: incidents.id,
        shortId: incidents.shortId,
        title: incidents.title,
        description: incidents.description,
        priority: incidents.priority,
        roomId: incidents.roomId,
        assigneeId: incidents.assigneeId,
        incidentTypeId: incidents.incidentTypeId,
        status: incidents.status,
      })
      .from(incidents)
      .where(and(eq(incidents.id, payload.incidentId), eq(incidents.entityId, tx.entityId)));
    if (!incident) return [];
    const type = payload.type as NotificationType;
    const recipients = await notificationRecipients(tx, {
      type,
      incident: { ...incident, assigneeId: payload.assigneeId === undefined ? incident.assigneeId : payload.assigneeId },
      previousAssigneeId: payload.previousAssigneeId ?? null,
      actorId: payload.actorId,
    });
    if (recipients.length === 0) return [];
    const message = {
      incidentPriority: incident.priority,
      incidentDescription: incident.description,
      incidentTitle: incident.title,
      incidentShortId: incident.shortId,
      ...(payload.commentId ? { commentId: payload.commentId } : {}),
      ...(payload.status !== undefined ? { status: payload.status } : {}),
    };
    const [details] = await tx.db
      .insert(notificationDetails)
      .values({ entityId: tx.entityId, type, subject: `#${incident.shortId} ${incident.title}`, message, incidentId: incident.id, sourceKey: payload.key })
      .onConflictDoNothing()
      .returning();
    if (!details) return []; // this cause was written before (a retried or repeated job)
    const rows = await tx.db
      .insert(notifications)
      .values(recipients.map((userId) => ({ entityId: tx.entityId, userId, detailsId: details.id, createdAt: details.createdAt })))
      .returning({ id: notifications.id, userId: notifications.userId });
    await queueNotificationMails(tx, effects, details, rows);
    const data: NotificationCreatedData = {
      notificationIds: rows.map((r) => r.id),
      detailsId: details.id,
      notificationType: details.type,
      incidentId: details.incidentId,
      subject: details.subject,
      message: details.message,
      createdAt: details.createdAt.toISOString(),
    };
    effects.publish({ entityId: tx.entityId, type: "notification.created", userIds: rows.map((r) => r.userId), data: data as unknown as Record<string, unknown> });
    return rows.map((r) => r.userId);
  });
}

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
    const batch = services.db
      .select({ id: notifications.id })
      .from(notifications)
      .where(and(isNotNull(notifications.readAt), lt(notifications.readAt, sql`now() - make_interval(days => ${days})`)))
      .limit(RETENTION_BATCH);
    // eslint-disable-next-line caretaker/tenant-scope -- retention runs for every entity by design
    const gone = await services.db.delete(notifications).where(inArray(notifications.id, batch)).returning({ id: notifications.id });
    removed += gone.length;
    if (gone.length < RETENTION_BATCH) break;
  }
  await services.db.delete(notificationDetails).where(
    and(
      lt(notificationDetails.createdAt, sql`now() - make_interval(days => ${days})`),
      sql`not exists (select 1 from ${notifications} n where n.details_id = ${notificationDetails.id})`,
    ),
  );
  return { removed };
}
