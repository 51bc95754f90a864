import type { ChangeHandler } from "~/core/changes.server";
import type { JobDefinition } from "~/core/jobs.server";
import type { ScheduleDefinition } from "~/core/schedules.server";
import { sendEmailJob } from "~/mail/jobs.server";
import { equipmentNotificationKinds } from "~/modules/equipment/notifications.server";
import { warrantyPassJob, warrantyPassSchedule } from "~/modules/equipment/warranty.server";
import { taskGenerationJob, taskGenerationSchedule } from "~/modules/maintenance/generation-jobs.server";
import { importJob } from "~/modules/imports/jobs.server";
import { importNotificationKinds } from "~/modules/imports/notifications.server";
import { incidentNotificationKinds } from "~/modules/incidents/notifications.server";
import { taskNotificationKinds } from "~/modules/maintenance/task-notifications.server";
import { notificationDigestJob, notificationRetentionJob, notificationRetentionSchedule } from "~/modules/notifications/jobs.server";
import { type NotificationKind, notificationsHandler } from "~/modules/notifications/kinds.server";
import { printStickersJob } from "~/modules/printing/jobs.server";
import { printingNotificationKinds } from "~/modules/printing/notifications.server";
import { exportExpiryJob, exportExpirySchedule, exportJob } from "~/modules/exports/jobs.server";
import { exportNotificationKinds } from "~/modules/exports/notifications.server";
import { breachPassJob, breachPassSchedule } from "~/modules/service-levels/alerts.server";
import { serviceLevelNotificationKinds } from "~/modules/service-levels/notifications.server";
import { reporterMailsHandler } from "~/modules/occupier-reports/reporter-mail.server";
import { webhookDeliveryJob, webhookRetentionJob, webhookRetentionSchedule, webhooksHandler } from "~/modules/webhooks/delivery.server";
import { webhookNotificationKinds } from "~/modules/webhooks/notifications.server";
import { liveEventsHandler } from "./changes.server";

/** Every background job of the app: the workers run these (app/jobs/queue.server.ts). */
export const jobs: readonly JobDefinition[] = [sendEmailJob, notificationDigestJob, notificationRetentionJob, taskGenerationJob, printStickersJob, webhookDeliveryJob, webhookRetentionJob, exportJob, exportExpiryJob, importJob, breachPassJob, warrantyPassJob];

/** What the schedules take from the configuration. */
export interface ScheduleSettings {
  notificationRetentionDays: number;
  webhookDeliveryRetentionDays: number;
}

/** Every recurring job of the app (decision 020): the workers fire these on the queue. */
export function schedules(settings: ScheduleSettings): readonly ScheduleDefinition[] {
  return [
    notificationRetentionSchedule(settings.notificationRetentionDays),
    taskGenerationSchedule,
    exportExpirySchedule,
    webhookRetentionSchedule(settings.webhookDeliveryRetentionDays),
    breachPassSchedule,
    warrantyPassSchedule,
  ];
}

/** Every notification kind (SPEC.md section 3's types), each beside the area whose change it follows. */
export const notificationKinds: readonly NotificationKind[] = [...incidentNotificationKinds, ...taskNotificationKinds, ...printingNotificationKinds, ...webhookNotificationKinds, ...exportNotificationKinds, ...importNotificationKinds, ...serviceLevelNotificationKinds, ...equipmentNotificationKinds];

/** What follows from change events (decision 048), in this order for each change. */
export const changeHandlers: readonly ChangeHandler[] = [notificationsHandler(notificationKinds), reporterMailsHandler, webhooksHandler, liveEventsHandler];
