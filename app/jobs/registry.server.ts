import type { JobDefinition } from "~/core/jobs.server";
import { sendEmailJob } from "~/mail/jobs.server";
import { notificationDigestJob, notificationRetentionJob, notifyJob } from "~/modules/notifications/jobs.server";

/** Every background job of the app: the workers run these (app/jobs/queue.server.ts). */
export const jobs: readonly JobDefinition[] = [sendEmailJob, notifyJob, notificationDigestJob, notificationRetentionJob];
