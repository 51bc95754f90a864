import type { JobDefinition } from "~/core/jobs.server";
import type { ScheduleDefinition } from "~/core/schedules.server";
import { sendEmailJob } from "~/mail/jobs.server";
import { notificationDigestJob, notificationRetentionJob, notificationRetentionSchedule, notifyJob } from "~/modules/notifications/jobs.server";

/** Every background job of the app: the workers run these (app/jobs/queue.server.ts). */
export const jobs: readonly JobDefinition[] = [sendEmailJob, notifyJob, notificationDigestJob, notificationRetentionJob];

/** What the schedules take from the configuration. */
export interface ScheduleSettings {
  notificationRetentionDays: number;
}

/** Every recurring job of the app (decision 045): the workers fire these on the queue. */
export function schedules(settings: ScheduleSettings): readonly ScheduleDefinition[] {
  return [notificationRetentionSchedule(settings.notificationRetentionDays)];
}
