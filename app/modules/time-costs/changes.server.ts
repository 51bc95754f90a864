import { z } from "zod";
import { defineChange } from "~/core/changes.server";

/**
 * Time or material recorded, corrected or deleted on an incident or a task (issue 62), emitted by every verb of
 * ./service.server.ts in its transaction. No one is notified of it yet; the dispatcher publishes it as
 * a live event of the same name (an open incident view, later the costs on the dashboard).
 */
const id = z.number().int().positive();

export const incidentWorkLogged = defineChange({
  type: "incident.work-logged",
  payload: z.object({
    incidentId: id,
    shortId: id.optional(),
    kind: z.enum(["time", "material"]),
    /** The time entry's or material line's id. */
    id,
    action: z.enum(["added", "updated", "deleted"]),
  }),
  subject: (p) => p.incidentId,
});

/** The same on a maintenance task, with what the task changes (maintenance/changes.server.ts) carry. */
export const taskWorkLogged = defineChange({
  type: "task.work-logged",
  payload: z.object({
    taskId: id,
    plannedMaintenanceId: id,
    roomId: id,
    dueDate: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
    kind: z.enum(["time", "material"]),
    id,
    action: z.enum(["added", "updated", "deleted"]),
  }),
  subject: (p) => p.taskId,
});
