import { z } from "zod";
import { defineChange } from "~/core/changes.server";

/**
 * What happens to maintenance tasks, as change events (core/changes.server.ts, decision 048), emitted
 * by the task verbs (./tasks.server.ts) in their transaction. The dispatcher turns `task.done` into the
 * "task done" notification (./task-notifications.server.ts, decision 051) and both into live events.
 * Payloads carry what was true when the change was made.
 */
const id = z.number().int().positive();
const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);
const base = { taskId: id, plannedMaintenanceId: id, roomId: id, dueDate: day };
const subject = (p: { taskId: number }) => p.taskId;

/** Marked done (with a note or photo, or not) by the change's actor. */
export const taskDone = defineChange({
  type: "task.done",
  webhook: true,
  payload: z.object({ ...base, assigneeId: id.nullable(), hasNote: z.boolean(), hasPhoto: z.boolean() }),
  subject,
});

/** Done undone: pending again. */
export const taskReopened = defineChange({ type: "task.reopened", payload: z.object(base), subject });
