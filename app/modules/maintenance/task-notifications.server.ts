import { and, eq, inArray, or, sql } from "drizzle-orm";
import type { ServiceContext } from "~/core/context.server";
import { roleMay } from "~/core/role-sql.server";
import { NotificationType } from "~/db/enums";
import { plannedMaintenanceAssignees, plannedMaintenances, rooms, users } from "~/db/schema";
import { assigneeCandidates } from "~/modules/incidents/queries.server";
import { defineNotificationKind, type NotificationKind } from "~/modules/notifications/kinds.server";
import { taskDone } from "./changes.server";

/**
 * The maintenance tasks' notification kind (decision 051): "task done" tells
 *
 * - the task's other assignees (its own assignee, or its plan's when it names nobody), so nobody goes to
 *   do it again;
 * - the people whose role manages tasks (the permission table: facility managers and administrators)
 *   who receive notifications (`receiveNotification`) and whose notification settings cover the task's
 *   building (an empty list of buildings means all), as the "incident created" notification picks them;
 *
 * never the person who did it (the notifications handler leaves the actor out), and only people who can
 * reach the task's room (the assignee candidates of its room; archived and disabled accounts never).
 * Undoing "done" tells nobody.
 */
export const taskDoneNotification = defineNotificationKind({
  type: NotificationType.TASK_DONE,
  change: taskDone,
  async compose(ctx: ServiceContext, change) {
    const [facts] = await ctx.db
      .select({ planName: plannedMaintenances.name, roomName: rooms.name, buildingId: rooms.buildingId })
      .from(plannedMaintenances)
      .innerJoin(rooms, and(eq(rooms.id, change.roomId), eq(rooms.entityId, ctx.entityId)))
      .where(and(eq(plannedMaintenances.id, change.plannedMaintenanceId), eq(plannedMaintenances.entityId, ctx.entityId)));
    if (!facts) return null;
    const assignees = change.assigneeId
      ? eq(users.id, change.assigneeId)
      : inArray(
          users.id,
          ctx.db
            .select({ id: plannedMaintenanceAssignees.userId })
            .from(plannedMaintenanceAssignees)
            .where(and(eq(plannedMaintenanceAssignees.plannedMaintenanceId, change.plannedMaintenanceId), eq(plannedMaintenanceAssignees.entityId, ctx.entityId))),
        );
    const managers = and(
      roleMay(users.role, "manage", "task"),
      eq(users.receiveNotification, true),
      sql`(jsonb_array_length(coalesce(${users.notificationSettings}->'buildingIds', '[]'::jsonb)) = 0
        or ${users.notificationSettings}->'buildingIds' @> to_jsonb(${facts.buildingId}::int))`,
    );
    // tenant-scope: scoped by assigneeCandidates (incidents/queries.server.ts): active users of ctx.entityId
    const rows = await ctx.db
      .select({ id: users.id })
      .from(users)
      .where(and(or(assignees, managers), assigneeCandidates(ctx, change.roomId)))
      .orderBy(users.id);
    const title = `${facts.planName} · ${facts.roomName}`;
    return {
      recipients: rows.map((r) => r.id),
      subject: title,
      message: {
        taskTitle: title,
        taskId: change.taskId,
        plannedMaintenanceId: change.plannedMaintenanceId,
        dueDate: change.dueDate,
      },
    };
  },
});

export const taskNotificationKinds: readonly NotificationKind[] = [taskDoneNotification] as NotificationKind[];
