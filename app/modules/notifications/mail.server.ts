import { and, asc, eq, gte, inArray, isNull, sql } from "drizzle-orm";
import type { ServiceContext } from "~/core/context.server";
import type { Effects } from "~/core/unit-of-work.server";
import { UserStatus } from "~/db/enums";
import { jobQueue, type NotificationDetails, notificationDetails, notifications, users } from "~/db/schema";
import { getT } from "~/i18n.server";
import { sendEmailJob } from "~/mail/jobs.server";
import { mailLocale, renderMail } from "~/mail/templates.server";
import { notificationDigestJob } from "./jobs.server";
import { notificationLink, notificationTitle, type NotificationLike } from "./present";

/**
 * Notification emails (decision 028). A user who receives notifications (`receiveNotification`, the
 * account settings) gets one email per notification, in their language, with a link to the incident;
 * when more than DIGEST_AFTER arrive within a minute, the next ones wait for one digest a minute later.
 * Every mail is a `send-email` job (retried), written in the transaction that writes the notification;
 * `emailed_at` records what has left, so nothing is mailed twice.
 */
export const DIGEST_AFTER = 3;
const WINDOW_SECONDS = 60;
/** The most notifications one digest lists (the rest are counted). */
const DIGEST_MAX = 50;

function titleIn(locale: ReturnType<typeof mailLocale>, n: NotificationLike): string {
  const { key, params } = notificationTitle(n);
  return getT(locale, "notifications")(key, params);
}

/** Queues the emails of freshly written notification rows (in the notify job's transaction). */
export async function queueNotificationMails(
  ctx: ServiceContext,
  effects: Effects,
  details: NotificationDetails,
  rows: { id: number; userId: number }[],
): Promise<void> {
  if (rows.length === 0) return;
  const readers = await ctx.db
    .select({ id: users.id, email: users.email, language: users.language })
    .from(users)
    .where(
      and(
        eq(users.entityId, ctx.entityId),
        inArray(users.id, rows.map((r) => r.userId)),
        eq(users.receiveNotification, true),
        eq(users.status, UserStatus.ACTIVE),
        isNull(users.archivedAt),
      ),
    );
  for (const reader of readers) {
    const row = rows.find((r) => r.userId === reader.id)!;
    const [{ n }] = await ctx.db
      .select({ n: sql<number>`count(*)::int` })
      .from(notifications)
      .where(
        and(
          eq(notifications.userId, reader.id),
          eq(notifications.entityId, ctx.entityId),
          sql`${notifications.createdAt} > now() - make_interval(secs => ${WINDOW_SECONDS})`,
        ),
      );
    if (Number(n) <= DIGEST_AFTER) {
      const locale = mailLocale(reader.language);
      const link = `${ctx.appUrl ?? ""}${notificationLink(details) ?? "/notifications"}`;
      const mail = renderMail(locale, "notifications:mail.single", { title: titleIn(locale, details), link });
      await effects.enqueue(sendEmailJob, { to: reader.email, ...mail });
      await ctx.db
        .update(notifications)
        .set({ emailedAt: sql`now()` })
        .where(and(eq(notifications.id, row.id), eq(notifications.entityId, ctx.entityId)));
    } else if (!(await digestPending(ctx, reader.id))) {
      await effects.enqueue(
        notificationDigestJob,
        { entityId: ctx.entityId, userId: reader.id, since: new Date(Date.now() - WINDOW_SECONDS * 1000).toISOString() },
        { startAfterSeconds: WINDOW_SECONDS },
      );
    }
  }
}

/** Whether a digest of this user is already waiting (one digest per minute at most). */
async function digestPending(ctx: ServiceContext, userId: number): Promise<boolean> {
  const [row] = await ctx.db
    .select({ id: jobQueue.id })
    .from(jobQueue)
    .where(
      and(
        eq(jobQueue.name, notificationDigestJob.name),
        eq(jobQueue.state, "pending"),
        sql`${jobQueue.payload}->>'userId' = ${String(userId)}`,
        sql`${jobQueue.payload}->>'entityId' = ${String(ctx.entityId)}`,
      ),
    )
    .limit(1);
  return Boolean(row);
}

/**
 * The digest job's verb: the user's notifications not mailed yet since `since`, in one email (the
 * newest DIGEST_MAX listed), marked as mailed in the same transaction as the mail's job.
 */
export async function sendNotificationDigest(ctx: ServiceContext, userId: number, since: Date, effects: Effects): Promise<number> {
  const [reader] = await ctx.db
    .select({ id: users.id, email: users.email, language: users.language })
    .from(users)
    .where(
      and(
        eq(users.id, userId),
        eq(users.entityId, ctx.entityId),
        eq(users.receiveNotification, true),
        eq(users.status, UserStatus.ACTIVE),
        isNull(users.archivedAt),
      ),
    );
  if (!reader) return 0;
  const pending = await ctx.db
    .select({
      id: notifications.id,
      type: notificationDetails.type,
      subject: notificationDetails.subject,
      message: notificationDetails.message,
      incidentId: notificationDetails.incidentId,
    })
    .from(notifications)
    .innerJoin(notificationDetails, eq(notificationDetails.id, notifications.detailsId))
    .where(
      and(
        eq(notifications.userId, userId),
        eq(notifications.entityId, ctx.entityId),
        isNull(notifications.emailedAt),
        gte(notifications.createdAt, since),
      ),
    )
    .orderBy(asc(notifications.createdAt), asc(notifications.id))
    .for("update", { of: notifications });
  if (pending.length === 0) return 0;
  await ctx.db
    .update(notifications)
    .set({ emailedAt: sql`now()` })
    .where(and(eq(notifications.entityId, ctx.entityId), inArray(notifications.id, pending.map((p) => p.id))));
  const locale = mailLocale(reader.language);
  const base = ctx.appUrl ?? "";
  const listed = pending.slice(-DIGEST_MAX).reverse();
  const lines = listed.map((p) => `- ${titleIn(locale, p)}: ${base}${notificationLink(p) ?? "/notifications"}`).join("\n");
  const mail = renderMail(locale, "notifications:mail.digest", { count: pending.length, lines, link: `${base}/notifications` });
  await effects.enqueue(sendEmailJob, { to: reader.email, ...mail });
  return pending.length;
}
