import { and, eq, isNotNull, or } from "drizzle-orm";
import type { ServiceContext } from "~/core/context.server";
import { roleMay } from "~/core/role-sql.server";
import { NotificationType } from "~/db/enums";
import { incidents, users } from "~/db/schema";
import { aboutIncident } from "~/modules/incidents/notifications.server";
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
    compose(ctx: ServiceContext, change) {
      if ((change.stage === "breach") !== (type === NotificationType.SERVICE_LEVEL_BREACHED)) return Promise.resolve(null);
      return aboutIncident(
        ctx,
        change.incidentId,
        (incident) =>
          or(
            incident.assigneeId ? eq(users.id, incident.assigneeId) : undefined,
            and(roleMay(users.role, "open", "managerScreen"), eq(users.receiveNotification, true), settingsCoverIncident(incident.priority, incident.buildingId)),
          ) ?? null,
        { serviceLevelSide: change.side, dueAt: change.dueAt },
        isNotNull(dueColumn(change.side)),
      );
    },
  });
}

export const serviceLevelNotificationKinds: readonly NotificationKind[] = [
  serviceLevelKind(NotificationType.SERVICE_LEVEL_WARNING),
  serviceLevelKind(NotificationType.SERVICE_LEVEL_BREACHED),
] as NotificationKind[];
