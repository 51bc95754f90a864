/**
 * How a notification reads and where it leads, for the screens and the mails alike (client-safe). The
 * text is a translation key of the `notifications` namespace with its parameters: the reader's language
 * decides, not the writer's (decision 028).
 */
import { BULK_UPLOAD_TYPE_VALUES, EXPORT_SUCCESS_NOTIFICATION_TYPES, NotificationType } from "~/db/enums";
import type { NotificationMessage } from "~/db/schema/notifications";

export interface NotificationLike {
  type: number;
  subject: string;
  message: NotificationMessage;
  incidentId: number | null;
}

/**
 * An import's title names its import type (`notifications:importType.<importType>.succeeded|failed`):
 * SPEC.md's import notification types group the import types into four areas, and "Facilities
 * import succeeded" for a rooms import misleads. The area's title stays for a message without its type.
 */
function importTitleKey(n: NotificationLike): string | null {
  if (n.type < NotificationType.IMPORT_FACILITIES_SUCCESS || n.type > NotificationType.IMPORT_INCIDENTS_FAILURE) return null;
  const importType = n.message?.importType;
  if (typeof importType !== "number" || !(BULK_UPLOAD_TYPE_VALUES as readonly number[]).includes(importType)) return null;
  // Success and failure alternate from IMPORT_FACILITIES_SUCCESS (5, 7, 9, 11 succeeded; 6, 8, 10, 12 failed).
  const succeeded = (n.type - NotificationType.IMPORT_FACILITIES_SUCCESS) % 2 === 0;
  return `notifications:importType.${importType}.${succeeded ? "succeeded" : "failed"}`;
}

/**
 * A service-level alert's title names its side (`notifications:serviceLevel.<side>.warning|breach`): "due
 * soon" alone does not say whether the answer or the fix is late.
 */
function serviceLevelTitleKey(n: NotificationLike): string | null {
  if (n.type !== NotificationType.SERVICE_LEVEL_WARNING && n.type !== NotificationType.SERVICE_LEVEL_BREACHED) return null;
  const side = n.message?.serviceLevelSide;
  if (side !== "response" && side !== "resolution") return null;
  return `notifications:serviceLevel.${side}.${n.type === NotificationType.SERVICE_LEVEL_BREACHED ? "breach" : "warning"}`;
}

/** The title's key (`notifications:type.<n>`, an import's by its type) and its parameters. */
export function notificationTitle(n: NotificationLike): { key: string; params: Record<string, string | number> } {
  const m = n.message ?? {};
  return {
    key: importTitleKey(n) ?? serviceLevelTitleKey(n) ?? `notifications:type.${n.type}`,
    params: {
      shortId: typeof m.incidentShortId === "number" ? m.incidentShortId : "",
      title: typeof m.incidentTitle === "string" ? m.incidentTitle : n.subject,
    },
  };
}

/**
 * Whether the notification's stored subject is only a key (an import's "import 8", an export's type
 * slug): an import's or an export's (types 5 to 24, 30 and 31). Readers get its title instead.
 */
export function subjectIsItsTitle(type: number): boolean {
  return (
    (type >= NotificationType.IMPORT_FACILITIES_SUCCESS && type <= NotificationType.IMPORT_INCIDENTS_FAILURE) ||
    (EXPORT_SUCCESS_NOTIFICATION_TYPES as readonly number[]).includes(type)
  );
}

/** Where it leads: the incident, the task's day, the export's or print's download, the import screen, the webhooks, or the equipment item. */
export function notificationLink(n: NotificationLike): string | null {
  if (n.incidentId) return `/incident/${n.incidentId}`;
  // A maintenance task's: the plan's day (decision 051).
  if (typeof n.message?.plannedMaintenanceId === "number" && typeof n.message?.dueDate === "string") {
    return `/view-task/${n.message.plannedMaintenanceId}/${n.message.dueDate}`;
  }
  if (typeof n.message?.downloadFileId === "string") return `/files/${n.message.downloadFileId}`;
  if (n.type >= 5 && n.type <= 12) return "/import-data";
  if (n.type === 27) return "/administration/webhooks";
  // An equipment item's warranty ending (issue 63): the item's screen.
  if (typeof n.message?.equipmentItemId === "number") return `/view-equipment/${n.message.equipmentItemId}`;
  return null;
}

/** The priority key of the message (IncidentPriority), or null when it has none. */
export function notificationPriority(n: NotificationLike): string | null {
  const p = n.message?.incidentPriority;
  if (p === undefined) return null;
  return p === null ? "incidents:priority.none" : `incidents:priority.${p}`;
}
