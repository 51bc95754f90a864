import type { z } from "zod";
import { type ChangeDefinition, changeOf, defineChangeHandler, type StoredChange } from "~/core/changes.server";
import type { ServiceContext } from "~/core/context.server";
import type { Effects } from "~/core/unit-of-work.server";
import type { NotificationType } from "~/db/enums";
import { type NotificationMessage, notificationDetails, notifications } from "~/db/schema";
import { queueNotificationMails } from "./mail.server";

/**
 * Notifications as a registry of kinds (decision 048): each kind says which change event it follows,
 * who is told and what it says; the area that owns the change declares it (the incidents' five kinds
 * are in modules/incidents/notifications.server.ts), and app/jobs/registry.server.ts lists them all.
 * This module knows no area: it writes what a kind composes, once per change, with its mails and its
 * live event.
 */
export interface NotificationContent {
  /** Who is told (the change's actor never is; the handler leaves them out). */
  recipients: number[];
  subject: string;
  message: NotificationMessage;
  /** The incident it is about (the link and the cascade when it goes), if any. */
  incidentId?: number | null;
  /** The import or export it is about, if any. */
  dataJobId?: number | null;
}

export interface NotificationKind<S extends z.ZodType = z.ZodType> {
  /** SPEC.md section 3's notification type. */
  type: NotificationType;
  /** The change it follows. */
  change: ChangeDefinition<S>;
  /** Who is told what, read inside the dispatch transaction; null (or no recipients): nobody. */
  compose(ctx: ServiceContext, payload: z.output<S>, change: StoredChange): Promise<NotificationContent | null>;
}

export function defineNotificationKind<S extends z.ZodType>(kind: NotificationKind<S>): NotificationKind<S> {
  return kind;
}

/** The live event published when notifications are written (the stream relays it). */
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

/** The change handler that writes the notifications of every kind in `kinds`. */
export function notificationsHandler(kinds: readonly NotificationKind[]) {
  return defineChangeHandler({
    name: "notifications",
    types: [...new Set(kinds.map((k) => k.change.type))],
    async handle(ctx, change, effects) {
      for (const kind of kinds) {
        if (kind.change.type !== change.type) continue;
        const content = await kind.compose(ctx, changeOf(kind.change, change), change);
        if (content) await writeNotification(ctx, effects, kind.type, content, { sourceKey: `change:${change.id}:${kind.type}`, actorId: change.actor.id });
      }
    },
  });
}

/**
 * Writes one notification to its recipients (but the actor), once per `sourceKey`, queues their mails
 * and publishes `notification.created` after commit. Returns the recipients (empty when there were
 * none, or when this cause was written before).
 */
export async function writeNotification(
  ctx: ServiceContext,
  effects: Effects,
  type: NotificationType,
  content: NotificationContent,
  options: { sourceKey: string; actorId?: number | null },
): Promise<number[]> {
  const recipients = [...new Set(content.recipients)].filter((id) => id !== options.actorId).sort((a, b) => a - b);
  if (recipients.length === 0) return [];
  const [details] = await ctx.db
    .insert(notificationDetails)
    .values({
      entityId: ctx.entityId,
      type,
      subject: content.subject,
      message: content.message,
      incidentId: content.incidentId ?? null,
      dataJobId: content.dataJobId ?? null,
      sourceKey: options.sourceKey,
    })
    .onConflictDoNothing()
    .returning();
  if (!details) return []; // written before
  const rows = await ctx.db
    .insert(notifications)
    .values(recipients.map((userId) => ({ entityId: ctx.entityId, userId, detailsId: details.id, createdAt: details.createdAt })))
    .returning({ id: notifications.id, userId: notifications.userId });
  await queueNotificationMails(ctx, effects, details, rows);
  const data: NotificationCreatedData = {
    notificationIds: rows.map((r) => r.id),
    detailsId: details.id,
    notificationType: details.type,
    incidentId: details.incidentId,
    subject: details.subject,
    message: details.message,
    createdAt: details.createdAt.toISOString(),
  };
  effects.publish({ entityId: ctx.entityId, type: "notification.created", userIds: rows.map((r) => r.userId), data: data as unknown as Record<string, unknown> });
  return rows.map((r) => r.userId);
}
