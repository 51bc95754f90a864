import { z } from "zod";
import { entitySystemContext } from "~/core/context.server";
import { defineJob } from "~/core/jobs.server";
import { defineSchedule } from "~/core/schedules.server";
import { withTx } from "~/core/unit-of-work.server";
import { sendNotificationDigest } from "./mail.server";
import { purgeReadNotifications } from "./service.server";

/**
 * The notifications' background jobs (decision 028): the digest email (`notification-digest`), and the
 * daily retention pass (`notification-retention`, enqueued every night by its schedule).
 */
export const notificationDigestJob = defineJob({
  name: "notification-digest",
  payload: z.object({ entityId: z.number().int().positive(), userId: z.number().int().positive(), since: z.iso.datetime() }),
  retryLimit: 5,
  async handler(payload, job) {
    const ctx = await entitySystemContext(job.services, payload.entityId, "notification-digest");
    await withTx(ctx, (tx, effects) => sendNotificationDigest(tx, payload.userId, new Date(payload.since), effects));
  },
});

export const notificationRetentionJob = defineJob({
  name: "notification-retention",
  payload: z.object({ days: z.number().int().min(1).max(36_500) }),
  retryLimit: 3,
  async handler(payload, job) {
    await purgeReadNotifications(job.services, payload.days);
  },
});

/**
 * The retention pass every night at 03:15, Brussels time (decision 020), removing read notifications
 * older than `days` (NOTIFICATION_RETENTION_DAYS, read at start: a new age applies from the next run).
 */
export function notificationRetentionSchedule(days: number) {
  return defineSchedule({ name: "notification-retention", job: notificationRetentionJob, payload: { days }, cron: "15 3 * * *" });
}
