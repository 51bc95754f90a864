import { and, eq, isNull } from "drizzle-orm";
import { roleMay } from "~/core/role-sql.server";
import { NotificationType } from "~/db/enums";
import { equipmentItems, equipmentTypes, rooms, users } from "~/db/schema";
import { assigneeCandidates } from "~/modules/incidents/queries.server";
import { defineNotificationKind, type NotificationKind } from "~/modules/notifications/kinds.server";
import { equipmentWarrantyEnding } from "./changes.server";

/**
 * "Warranty ending soon: {{title}}" (type 32, issue 63), following the warranty pass's
 * `equipmentItem.warranty-ending`: told to the managers (the roles that open the manager screens:
 * facility managers and administrators) who receive notifications and reach the item's room (linked
 * to its facility or building, or entity-wide); archived and disabled accounts never. The title is the
 * item's generic equipment and internal reference; it leads to the item's screen. An item archived,
 * or whose warranty date changed, before the change was dispatched tells nobody.
 */
export const warrantyEndingNotification = defineNotificationKind({
  type: NotificationType.WARRANTY_ENDING,
  change: equipmentWarrantyEnding,
  async compose(ctx, change) {
    const [item] = await ctx.db
      .select({ id: equipmentItems.id, roomId: equipmentItems.roomId, equipmentName: equipmentTypes.name, internalReference: equipmentItems.internalReference })
      .from(equipmentItems)
      .innerJoin(equipmentTypes, eq(equipmentTypes.id, equipmentItems.equipmentTypeId))
      .innerJoin(rooms, eq(rooms.id, equipmentItems.roomId))
      .where(
        and(
          eq(equipmentItems.id, change.equipmentItemId),
          eq(equipmentItems.entityId, ctx.entityId),
          eq(equipmentItems.warrantyEndsOn, change.warrantyEndsOn),
          isNull(equipmentItems.archivedAt),
          isNull(rooms.archivedAt),
        ),
      );
    if (!item) return null;
    // tenant-scope: scoped by assigneeCandidates (incidents/queries.server.ts): active users of ctx.entityId who reach the room
    const people = await ctx.db
      .select({ id: users.id })
      .from(users)
      .where(and(assigneeCandidates(ctx, item.roomId), roleMay(users.role, "open", "managerScreen"), eq(users.receiveNotification, true)))
      .orderBy(users.id);
    return {
      recipients: people.map((p) => p.id),
      subject: [item.equipmentName, item.internalReference].filter(Boolean).join(" "),
      message: { equipmentItemId: item.id, warrantyEndsOn: change.warrantyEndsOn },
    };
  },
});

export const equipmentNotificationKinds: readonly NotificationKind[] = [warrantyEndingNotification] as NotificationKind[];
