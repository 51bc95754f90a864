import { and, eq, inArray, or, type SQL } from "drizzle-orm";
import type { ServiceContext } from "~/core/context.server";
import { NotificationType } from "~/db/enums";
import { incidents, incidentTypeDefaultAssignees, rooms, users } from "~/db/schema";
import { settingsCoverIncident } from "~/modules/notifications/settings-sql.server";
import { defineNotificationKind, type NotificationContent, type NotificationKind } from "~/modules/notifications/kinds.server";
import { incidentAssigned, incidentCommented, incidentCreated, incidentStatusChanged } from "./changes.server";
import { assigneeCandidates } from "./queries.server";

/**
 * The incidents' notification kinds (SPEC.md section 3: created, assigned, unassigned, status updated,
 * new comment; decision 028), each following one change event:
 *
 * - created: the assignee, the type's default assignees, and the users who receive notifications
 *   (`receiveNotification`) whose settings match the incident's priority and building (an empty list of
 *   priorities or buildings means all);
 * - assigned: the new assignee; unassigned: the previous one (taken off, or handed to someone else);
 * - status updated, new comment: the assignee when the change was made;
 *
 * never the person who made the change (the notifications handler leaves the actor out), and only
 * users who can reach the incident's location (the assignee candidates of its room: administrators,
 * and managers and technicians linked to its facility or building; archived and disabled accounts never).
 */
type IncidentFacts = {
  id: number;
  shortId: number;
  title: string;
  description: string | null;
  priority: number | null;
  roomId: number | null;
  buildingId: number | null;
  assigneeId: number | null;
  incidentTypeId: number | null;
};

/** The incident's facts, or null when it is not the entity's or fails `only` (a further condition). */
async function incidentFacts(ctx: ServiceContext, incidentId: number, only?: SQL): Promise<IncidentFacts | null> {
  const [row] = await ctx.db
    .select({
      id: incidents.id,
      shortId: incidents.shortId,
      title: incidents.title,
      description: incidents.description,
      priority: incidents.priority,
      roomId: incidents.roomId,
      buildingId: rooms.buildingId,
      assigneeId: incidents.assigneeId,
      incidentTypeId: incidents.incidentTypeId,
    })
    .from(incidents)
    .leftJoin(rooms, and(eq(rooms.id, incidents.roomId), eq(rooms.entityId, ctx.entityId)))
    .where(and(eq(incidents.id, incidentId), eq(incidents.entityId, ctx.entityId), only));
  return row ?? null;
}

/** The users among `who` (a condition on `users`) who can reach the incident's location, by id. */
async function reachingUsers(ctx: ServiceContext, incident: IncidentFacts, who: ReturnType<typeof or>): Promise<number[]> {
  // tenant-scope: scoped by assigneeCandidates (incidents/queries.server.ts): active users of ctx.entityId
  const rows = await ctx.db
    .select({ id: users.id })
    .from(users)
    .where(and(who, assigneeCandidates(ctx, incident.roomId)))
    .orderBy(users.id);
  return rows.map((r) => r.id);
}

/**
 * What every incident notification says: its subject and the incident's facts in the message, with
 * `extra`; nobody is told when the incident fails `only`.
 */
export async function aboutIncident(
  ctx: ServiceContext,
  incidentId: number,
  recipients: (incident: IncidentFacts) => ReturnType<typeof or> | null,
  extra: Record<string, unknown> = {},
  only?: SQL,
): Promise<NotificationContent | null> {
  const incident = await incidentFacts(ctx, incidentId, only);
  if (!incident) return null;
  const who = recipients(incident);
  if (!who) return null;
  return {
    recipients: await reachingUsers(ctx, incident, who),
    subject: `#${incident.shortId} ${incident.title}`,
    incidentId: incident.id,
    message: {
      incidentPriority: incident.priority as never,
      incidentDescription: incident.description,
      incidentTitle: incident.title,
      incidentShortId: incident.shortId,
      ...extra,
    },
  };
}

const person = (id: number | null) => (id ? eq(users.id, id) : null);

export const incidentCreatedNotification = defineNotificationKind({
  type: NotificationType.INCIDENT_CREATED,
  change: incidentCreated,
  compose: (ctx, change) =>
    aboutIncident(ctx, change.incidentId, (incident) =>
      or(
        change.assigneeId ? eq(users.id, change.assigneeId) : undefined,
        incident.incidentTypeId
          ? inArray(
              users.id,
              ctx.db
                .select({ id: incidentTypeDefaultAssignees.userId })
                .from(incidentTypeDefaultAssignees)
                .where(and(eq(incidentTypeDefaultAssignees.incidentTypeId, incident.incidentTypeId), eq(incidentTypeDefaultAssignees.entityId, ctx.entityId))),
            )
          : undefined,
        and(eq(users.receiveNotification, true), settingsCoverIncident(incident.priority, incident.buildingId)),
      ),
    ),
});

export const incidentAssignedNotification = defineNotificationKind({
  type: NotificationType.INCIDENT_ASSIGNED,
  change: incidentAssigned,
  compose: (ctx, change) => aboutIncident(ctx, change.incidentId, () => person(change.to)),
});

export const incidentUnassignedNotification = defineNotificationKind({
  type: NotificationType.INCIDENT_UNASSIGNED,
  change: incidentAssigned,
  compose: (ctx, change) => aboutIncident(ctx, change.incidentId, () => person(change.from)),
});

export const incidentStatusNotification = defineNotificationKind({
  type: NotificationType.INCIDENT_STATUS_UPDATED,
  change: incidentStatusChanged,
  compose: (ctx, change) => aboutIncident(ctx, change.incidentId, () => person(change.assigneeId), { status: change.to }),
});

export const incidentCommentNotification = defineNotificationKind({
  type: NotificationType.INCIDENT_NEW_COMMENT,
  change: incidentCommented,
  compose: (ctx, change) => aboutIncident(ctx, change.incidentId, () => person(change.assigneeId), { commentId: change.commentId }),
});

export const incidentNotificationKinds: readonly NotificationKind[] = [
  incidentCreatedNotification,
  incidentAssignedNotification,
  incidentUnassignedNotification,
  incidentStatusNotification,
  incidentCommentNotification,
] as NotificationKind[];
