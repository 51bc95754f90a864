import { and, eq, isNull } from "drizzle-orm";
import { roleMay } from "~/core/role-sql.server";
import { NotificationType, UserStatus } from "~/db/enums";
import { users } from "~/db/schema";
import { defineNotificationKind, type NotificationKind } from "~/modules/notifications/kinds.server";
import { webhookDisabled } from "./changes.server";

/**
 * "Webhook disabled after failed deliveries: {{title}}" (type 27) to every active person of the entity
 * whose role manages webhooks (the permission table: administrators, decision 057), the endpoint's name as its title; it leads
 * to /administration/webhooks (modules/notifications/present.ts).
 */
export const webhookDisabledNotification = defineNotificationKind({
  type: NotificationType.WEBHOOK_DISABLED,
  change: webhookDisabled,
  async compose(ctx, change) {
    const rows = await ctx.db
      .select({ id: users.id })
      .from(users)
      .where(and(eq(users.entityId, ctx.entityId), roleMay(users.role, "manage", "webhook"), eq(users.status, UserStatus.ACTIVE), isNull(users.archivedAt)))
      .orderBy(users.id);
    return { recipients: rows.map((r) => r.id), subject: change.name, message: { webhookId: change.endpointId, failedDeliveries: change.failedDeliveries } };
  },
});

export const webhookNotificationKinds: readonly NotificationKind[] = [webhookDisabledNotification] as NotificationKind[];
