import { z } from "zod";
import { defineChange } from "~/core/changes.server";

/**
 * Time or material recorded, corrected or deleted on an incident (issue 62), emitted by every verb of
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
