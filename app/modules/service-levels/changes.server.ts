import { z } from "zod";
import { defineChange } from "~/core/changes.server";

/**
 * What happens to the service levels, as a change event (decision 048): an administrator changed a part of
 * them. Incidents' due times follow from these settings, so whatever keeps due times or warns before a
 * breach hears of it here; `incidentTypeId` names the type whose override changed (null: the entity's own).
 */
export const SERVICE_LEVEL_PARTS = ["working-week", "closed-days", "targets", "warning-lead"] as const;

export const serviceLevelsChanged = defineChange({
  type: "serviceLevel.changed",
  payload: z.object({ part: z.enum(SERVICE_LEVEL_PARTS), incidentTypeId: z.number().int().positive().nullable() }),
  subject: (p) => p.incidentTypeId,
});

/**
 * The breach pass (./alerts.server.ts) raised an alert: the incident's `side` target is `stage` ("warning":
 * within the entity's warning lead of `dueAt`; "breach": past it). Emitted once per incident, side, stage
 * and target; the "service level" notification kinds and webhooks follow it.
 */
export const serviceLevelAlerted = defineChange({
  type: "incident.service-level-alert",
  webhook: true,
  payload: z.object({
    incidentId: z.number().int().positive(),
    side: z.enum(["response", "resolution"]),
    stage: z.enum(["warning", "breach"]),
    targetMinutes: z.number().int().positive(),
    dueAt: z.string(),
  }),
  subject: (p) => p.incidentId,
});
