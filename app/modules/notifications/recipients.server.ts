import { and, eq, inArray, ne, or, sql } from "drizzle-orm";
import type { ServiceContext } from "~/core/context.server";
import { NotificationType } from "~/db/enums";
import { incidentTypeDefaultAssignees, users } from "~/db/schema";
import { assigneeCandidates } from "~/modules/incidents/queries.server";

/**
 * Who is told what (issue #14, decision 028), in one place:
 *
 * - assigned: the new assignee;
 * - unassigned: the previous assignee (taken off, or handed to someone else);
 * - status updated, new comment: the assignee;
 * - incident created: the assignee and the type's default assignees, and the users who receive
 *   notifications (`receiveNotification`) whose settings match the incident's priority and building
 *   (an empty list of priorities or buildings means all);
 *
 * never the person who made the change, and only users who can reach the incident's location (the
 * assignee candidates of its room: administrators, and managers and technicians linked to its facility or
 * building; archived and disabled accounts never).
 */
export interface RecipientQuestion {
  type: NotificationType;
  incident: { id: number; roomId: number | null; assigneeId: number | null; priority: number | null; incidentTypeId: number | null };
  /** For "unassigned": who had it before. */
  previousAssigneeId?: number | null;
  /** Who made the change (never told); null for an occupier's report or the system. */
  actorId: number | null;
}

export async function notificationRecipients(ctx: ServiceContext, question: RecipientQuestion): Promise<number[]> {
  const { type, incident } = question;
  let who;
  switch (type) {
    case NotificationType.INCIDENT_ASSIGNED:
    case NotificationType.INCIDENT_STATUS_UPDATED:
    case NotificationType.INCIDENT_NEW_COMMENT:
      if (!incident.assigneeId) return [];
      who = eq(users.id, incident.assigneeId);
      break;
    case NotificationType.INCIDENT_UNASSIGNED:
      if (!question.previousAssigneeId) return [];
      who = eq(users.id, question.previousAssigneeId);
      break;
    case NotificationType.INCIDENT_CREATED: {
      const building = sql`(select r.building_id from rooms r where r.id = ${incident.roomId ?? 0} and r.entity_id = ${ctx.entityId})`;
      who = or(
        incident.assigneeId ? eq(users.id, incident.assigneeId) : undefined,
        incident.incidentTypeId
          ? inArray(
              users.id,
              ctx.db
                .select({ id: incidentTypeDefaultAssignees.userId })
                .from(incidentTypeDefaultAssignees)
                .where(and(eq(incidentTypeDefaultAssignees.incidentTypeId, incident.incidentTypeId), eq(incidentTypeDefaultAssignees.entityId, ctx.entityId))),
            )
          : undefined,
        and(
          eq(users.receiveNotification, true),
          sql`(jsonb_array_length(${users.notificationSettings}->'priorities') = 0
            or ${users.notificationSettings}->'priorities' @> to_jsonb(${incident.priority ?? -1}::int))`,
          sql`(jsonb_array_length(${users.notificationSettings}->'buildingIds') = 0
            or ${users.notificationSettings}->'buildingIds' @> to_jsonb(${building}))`,
        ),
      );
      break;
    }
    default:
      return [];
  }
  const rows = await ctx.db
    .select({ id: users.id })
    .from(users)
    .where(and(who, question.actorId ? ne(users.id, question.actorId) : undefined, assigneeCandidates(ctx, incident.roomId)))
    .orderBy(users.id);
  return rows.map((r) => r.id);
}
