import type { ActionFunctionArgs } from "@remix-run/node";
import { apiRoute, idParam, methodNotAllowed } from "~/http/api.server";
import { verbBody } from "~/http/incident-api.server";
import { taskNotFound } from "~/modules/maintenance/task-queries.server";
import type { SetTaskStatusInput } from "~/modules/maintenance/task-schema";
import { setTaskStatus } from "~/modules/maintenance/tasks.server";

/**
 * PUT /api/tasks/{id}/status { status: 0 | 1, note?, checks? } (pending, done): marks the task done (with
 * the note, and for an inspection every check's answer by check id: "pass"/"fail", a number, a text) or
 * undoes it. Answers `{ id, plannedMaintenanceId, roomId, dueDate, status, doneAt, doneById, note,
 * photoFileId, signedOffById, signedOffName, signedOffAt, answers }`. A check that requires a photo
 * cannot be answered here (400 CHECKLIST_INCOMPLETE): the task's screen takes the photo. A task out of reach is 404 TASK_NOT_FOUND; a technician's task assigned to
 * someone else is 403 TASK_NOT_YOURS.
 */
export const action = apiRoute<ActionFunctionArgs>(async ({ request, params, ctx }) => {
  if (request.method !== "PUT") return methodNotAllowed("PUT");
  const id = idParam(params.id);
  if (!id) throw taskNotFound();
  return setTaskStatus(ctx, id, verbBody<SetTaskStatusInput>(request));
});

export const loader = apiRoute(() => methodNotAllowed("PUT"));
