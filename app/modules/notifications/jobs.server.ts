import { and, eq, inArray, sql } from "drizzle-orm";
import { z } from "zod";
import { entitySystemContext } from "~/core/context.server";
import { defineJob, type JobQueue } from "~/core/jobs.server";
import { withTx } from "~/core/unit-of-work.server";
import type { Db } from "~/db/client.server";
import { jobQueue } from "~/db/schema";
import { sendNotificationDigest } from "./mail.server";
import { NotifyPayload } from "./schema";
import { deliverNotification, purgeReadNotifications } from "./service.server";

/**
 * The notifications' background jobs (decision 028): writing a notification after the change commits
 * (`notify`), the digest email (`notification-digest`), and the daily retention pass
 * (`notification-retention`, recurring: each run schedules the next in its own transaction).
 */
export const notifyJob = defineJob({
  name: "notify",
  payload: NotifyPayload,
  retryLimit: 5,
  async handler(payload, job) {
    await deliverNotification(await entitySystemContext(job.services, payload.entityId), payload);
  },
});

export const notificationDigestJob = defineJob({
  name: "notification-digest",
  payload: z.object({ entityId: z.number().int().positive(), userId: z.number().int().positive(), since: z.iso.datetime() }),
  retryLimit: 5,
  async handler(payload, job) {
    const ctx = await entitySystemContext(job.services, payload.entityId);
    await withTx(ctx, (tx, effects) => sendNotificationDigest(tx, payload.userId, new Date(payload.since), effects));
  },
});

/** How often the retention pass runs. */
export const RETENTION_EVERY_SECONDS = 24 * 60 * 60;

export const notificationRetentionJob = defineJob({
  name: "notification-retention",
  payload: z.object({ days: z.number().int().min(1).max(36_500) }),
  retryLimit: 3,
  async handler(payload, job) {
    await purgeReadNotifications(job.services, payload.days);
    // The next run, unless one is already waiting (a second process scheduled it at start).
    await scheduleRetention(job.services.db, job.services.queue ?? null, payload.days, RETENTION_EVERY_SECONDS);
  },
});

/**
 * Makes sure one retention run is waiting (at start-up: now; after a run: a day later), with the
 * configured age; a waiting run takes the new age. Serialised by an advisory lock, so two processes
 * starting at once schedule one chain.
 */
export async function scheduleRetention(db: Db, queue: JobQueue | null, days: number, startAfterSeconds = 0): Promise<void> {
  if (!queue) return;
  await db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext('notification-retention'))`);
    const waiting = await tx
      .update(jobQueue)
      .set({ payload: { days } })
      .where(and(eq(jobQueue.name, notificationRetentionJob.name), inArray(jobQueue.state, ["pending"])))
      .returning({ id: jobQueue.id });
    if (waiting.length === 0) await queue.send(notificationRetentionJob, { days }, { db: tx as unknown as Db, startAfterSeconds });
  });
}
