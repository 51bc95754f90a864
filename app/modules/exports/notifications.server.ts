import { and, eq, isNull, ne } from "drizzle-orm";
import { can } from "~/core/actor";
import { EXPORT_TYPE_VALUES, type ExportType, exportSuccessNotificationType, UserStatus } from "~/db/enums";
import { users } from "~/db/schema";
import { defineNotificationKind, type NotificationKind } from "~/modules/notifications/kinds.server";
import { exportReady } from "./changes.server";
import { exportSlugOf } from "./schema";

/**
 * The export success notifications (SPEC.md section 3: one type per export type, 13 to 24; 30 and 31
 * for the time entries and material lines exports, `exportSuccessNotificationType`), each
 * following "export ready" for its own type: they tell the person who asked for the export, if they
 * are still an active user of the entity who may export, with the file as the download link
 * (`message.downloadFileId`, which notificationLink turns into /files/{id}).
 */
function exportNotification(exportType: ExportType) {
  return defineNotificationKind({
    type: exportSuccessNotificationType(exportType),
    change: exportReady,
    async compose(ctx, change) {
      if (change.exportType !== exportType) return null;
      const [person] = await ctx.db
        .select({ id: users.id, role: users.role })
        .from(users)
        .where(and(eq(users.id, change.requestedById), eq(users.entityId, ctx.entityId), isNull(users.archivedAt), ne(users.status, UserStatus.DISABLED)));
      if (!person || !can({ kind: "person", id: person.id, role: person.role }, "export", "data")) return null;
      return {
        recipients: [person.id],
        subject: exportSlugOf(exportType) ?? "export",
        message: { downloadFileId: change.fileId, exportType, rows: change.rows },
        dataJobId: change.dataJobId,
      };
    },
  });
}

export const exportNotificationKinds: readonly NotificationKind[] = EXPORT_TYPE_VALUES.map((t) => exportNotification(t)) as NotificationKind[];
