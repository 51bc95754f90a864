import { z } from "zod";
import { defineChange } from "~/core/changes.server";

/**
 * What happens to incidents, as change events (core/changes.server.ts, decision 048). Every write of
 * an incident, whoever makes it (the incidents screens and API, an occupier's report, archiving a
 * place, a user or an incident type), goes through this module and emits one of these, in its
 * transaction; the dispatcher turns them into notifications (./notifications.server.ts), live events
 * and reporters' mails. Payloads carry what was true when the change was made (the assignee then),
 * since they are dispatched a moment later.
 */
const id = z.number().int().positive();
const status = z.number().int().min(0).max(4);
const base = { incidentId: id, shortId: z.number().int().positive().optional() };
const subject = (p: { incidentId: number }) => p.incidentId;

export const incidentCreated = defineChange({
  type: "incident.created",
  webhook: true,
  payload: z.object({ ...base, assigneeId: id.nullable(), source: z.enum(["staff", "occupier", "import"]) }),
  subject,
});

export const incidentReportedAgain = defineChange({
  type: "incident.reported-again",
  payload: z.object({ ...base, occurrences: z.number().int().positive() }),
  subject,
});

export const incidentStatusChanged = defineChange({
  type: "incident.status-changed",
  webhook: true,
  payload: z.object({ ...base, assigneeId: id.nullable(), from: status, to: status }),
  subject,
});

export const incidentPriorityChanged = defineChange({
  type: "incident.priority-changed",
  payload: z.object({ ...base, from: z.number().int().min(0).max(3).nullable(), to: z.number().int().min(0).max(3).nullable() }),
  subject,
});

/** Assigned to someone (`to`), taken off someone (`from`), or both. */
export const incidentAssigned = defineChange({
  type: "incident.assigned",
  webhook: true,
  payload: z.object({ ...base, from: id.nullable(), to: id.nullable() }),
  subject,
});

export const incidentTagsChanged = defineChange({
  type: "incident.tags-changed",
  payload: z.object({ ...base, added: z.string().optional(), removed: z.string().optional() }),
  subject,
});

export const incidentTitleChanged = defineChange({ type: "incident.title-changed", payload: z.object(base), subject });

export const incidentDescriptionChanged = defineChange({ type: "incident.description-changed", payload: z.object(base), subject });

export const incidentCommented = defineChange({
  type: "incident.commented",
  webhook: true,
  payload: z.object({ ...base, assigneeId: id.nullable(), commentId: id }),
  subject,
});

export const incidentMarkedDuplicate = defineChange({
  type: "incident.marked-duplicate",
  payload: z.object({ ...base, keptId: id }),
  subject,
});

/** Its incident type was archived and taken off it. */
export const incidentTypeRemoved = defineChange({
  type: "incident.type-removed",
  payload: z.object({ ...base, incidentTypeId: id }),
  subject,
});

/** Its equipment was marked out of service or back in service, or its downtime set by hand (decision 066). */
export const incidentDowntimeChanged = defineChange({
  type: "incident.downtime-changed",
  payload: z.object({ ...base, equipmentDown: z.boolean(), downtimeMinutes: z.number().int().nonnegative().nullable() }),
  subject,
});
