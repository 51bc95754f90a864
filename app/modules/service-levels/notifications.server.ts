import { and, eq, or, sql } from "drizzle-orm";
import type { ServiceContext } from "~/core/context.server";
import { roleMay } from "~/core/role-sql.server";
import { NotificationType } from "~/db/enums";
import { incidents, rooms, users } from "~/db/schema";
import { assigneeCandidates } from "~/modules/incidents/queries.server";
import { settingsCoverIncident } from "~/modules/notifications/settings-sql.server";
import { defineNotificationKind, type NotificationKind } from "~/modules/notifications/kinds.server";
import { serviceLevelAlerted } from "./changes.server";

/**
 * The service-level notification kinds (issue 62, decision 064 "Alerts"), following the breach pass's
 * `incident.service-level-alert`: "due soon" for a warning, "breached" for a breach. Who is told:
 *
 * - the incident's assignee;
 * - the managers (the roles that open the manager screens: facility managers and administrators) who
 *   receive notifications and whose settings cover the incident's priority and building, as for a new
 *   incident (an empty list means all);
 *
 * only people who reach the incident's room (its assignee candidates; archived and disabled accounts
 * never). An alert whose target was met or whose clock stopped before it was dispatched tells nobody.
 */
/** The side's due instant: set while its clock runs, null once met or stopped. */
const dueColumn = (side: "response" | "resolution") => (side === "response" ? incidents.responseDueAt : incidents.resolutionDueAt);

function serviceLevelKind(type: NotificationType) {
  return defineNotificationKind({
    type,
    change: serviceLevelAlerted,
    async compose(ctx: ServiceContext, change) {
      if ((change.stage === "breach") !== (type === NotificationType.SERVICE_LEVEL_BREACHED)) return null;
      const [incident] = await ctx.db
        .select({
          id: incidents.id,
          shortId: incidents.shortId,
          title: incidents.title,
          description: incidents.description,
          priority: incidents.priority,
          roomId: incidents.roomId,
          assigneeId: incidents.assigneeId,
          buildingId: rooms.buildingId,
          running: sql<boolean>`${dueColumn(change.side)} is not null`,
        })
        .from(incidents)
        .leftJoin(rooms, and(eq(rooms.id, incidents.roomId), eq(rooms.entityId, ctx.entityId)))
        .where(and(eq(incidents.id, change.incidentId), eq(incidents.entityId, ctx.entityId)));
      if (!incident?.running) return null;
      const managers = and(roleMay(users.role, "open", "managerScreen"), eq(users.receiveNotification, true), settingsCoverIncident(incident.priority, incident.buildingId));
      // tenant-scope: scoped by assigneeCandidates (incidents/queries.server.ts): active users of ctx.entityId
      const rows = await ctx.db
        .select({ id: users.id })
        .from(users)
        .where(and(or(incident.assigneeId ? eq(users.id, incident.assigneeId) : undefined, managers), assigneeCandidates(ctx, incident.roomId)))
        .orderBy(users.id);
      return {
        recipients: rows.map((r) => r.id),
        subject: `#${incident.shortId} ${incident.title}`,
        incidentId: incident.id,
        message: {
          incidentPriority: incident.priority as never,
          incidentDescription: incident.description,
          incidentTitle: incident.title,
          incidentShortId: incident.shortId,
          serviceLevelSide: change.side,
          dueAt: change.dueAt,
        },
      };
    },
  });
}

export const serviceLevelNotificationKinds: readonly NotificationKind[] = [
  serviceLevelKind(NotificationType.SERVICE_LEVEL_WARNING),
  serviceLevelKind(NotificationType.SERVICE_LEVEL_BREACHED),
] as NotificationKind[];
