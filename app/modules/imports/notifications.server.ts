import { and, eq, isNull } from "drizzle-orm";
import { type BulkUploadType, NotificationType, UserStatus } from "~/db/enums";
import { users } from "~/db/schema";
import { defineNotificationKind, type NotificationKind } from "~/modules/notifications/kinds.server";
import { importFinished } from "./changes.server";
import { type ImportArea, importArea } from "./columns";

/**
 * The import notifications (SPEC.md section 3: success and failure for facilities, equipments,
 * maintenance, incidents), told to the person who started the import (if their account is still
 * active), following "import finished". The import types map onto the four areas (`importArea`).
 */
const TYPES: Record<ImportArea, { success: NotificationType; failure: NotificationType }> = {
  facilities: { success: NotificationType.IMPORT_FACILITIES_SUCCESS, failure: NotificationType.IMPORT_FACILITIES_FAILURE },
  equipments: { success: NotificationType.IMPORT_EQUIPMENTS_SUCCESS, failure: NotificationType.IMPORT_EQUIPMENTS_FAILURE },
  maintenance: { success: NotificationType.IMPORT_MAINTENANCE_SUCCESS, failure: NotificationType.IMPORT_MAINTENANCE_FAILURE },
  incidents: { success: NotificationType.IMPORT_INCIDENTS_SUCCESS, failure: NotificationType.IMPORT_INCIDENTS_FAILURE },
};

function kind(area: ImportArea, succeeded: boolean) {
  return defineNotificationKind({
    type: succeeded ? TYPES[area].success : TYPES[area].failure,
    change: importFinished,
    async compose(ctx, change) {
      if (change.succeeded !== succeeded || importArea(change.importType as BulkUploadType) !== area || change.requestedById === null) return null;
      const [person] = await ctx.db
        .select({ id: users.id })
        .from(users)
        .where(and(eq(users.id, change.requestedById), eq(users.entityId, ctx.entityId), eq(users.status, UserStatus.ACTIVE), isNull(users.archivedAt)));
      if (!person) return null;
      return {
        recipients: [person.id],
        subject: `import ${change.dataJobId}`,
        message: { importType: change.importType, rows: change.rows, errorCode: change.errorCode, dataJobId: change.dataJobId },
        dataJobId: change.dataJobId,
      };
    },
  });
}

export const importNotificationKinds: readonly NotificationKind[] = (Object.keys(TYPES) as ImportArea[]).flatMap((area) => [kind(area, true), kind(area, false)]) as NotificationKind[];
