import { and, eq, isNull } from "drizzle-orm";
import { NotificationType, UserStatus } from "~/db/enums";
import { users } from "~/db/schema";
import { defineNotificationKind, type NotificationKind } from "~/modules/notifications/kinds.server";
import { printSheetsReady } from "./changes.server";

/**
 * "Sticker sheets ready to download" (type 26): tells the person who asked for a background print,
 * while they are an active user of the entity, with the stored PDF as the link (`downloadFileId`).
 */
export const printReadyNotification = defineNotificationKind({
  type: NotificationType.PRINT_READY,
  change: printSheetsReady,
  async compose(ctx, change) {
    if (!change.requestedById) return null;
    const [user] = await ctx.db
      .select({ id: users.id })
      .from(users)
      .where(and(eq(users.id, change.requestedById), eq(users.entityId, ctx.entityId), eq(users.status, UserStatus.ACTIVE), isNull(users.archivedAt)));
    if (!user) return null;
    return {
      recipients: [user.id],
      subject: `QR codes (${change.stickers})`,
      message: { downloadFileId: change.fileId, stickers: change.stickers },
    };
  },
});

export const printingNotificationKinds: readonly NotificationKind[] = [printReadyNotification] as NotificationKind[];
