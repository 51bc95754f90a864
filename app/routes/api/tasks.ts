import type { LoaderFunctionArgs } from "@remix-run/node";
import { apiRoute, methodNotAllowed } from "~/http/api.server";
import { answersOfTasks } from "~/modules/maintenance/inspections.server";
import { tasksBetween, todayOf } from "~/modules/maintenance/task-queries.server";
import { parseTaskApiQuery } from "~/modules/maintenance/task-schema";

/**
 * GET /api/tasks?from&to&status&mine&building&plan: the maintenance tasks the caller reaches due from
 * `from` to `to` (days in the entity's time zone, both included; default today and 30 days later, at
 * most 366 days apart), by due day and time, as a JSON array (at most 2,000; `X-Truncated: true` when
 * there were more). `status` is pending, done or all (default); `mine=true` keeps the caller's own
 * tasks (assigned to them, or to their plan when the task names nobody). A bad parameter is 400
 * INVALID_TASK_QUERY naming it. An inspection carries its sign-off and its checklist's answers.
 */
export const loader = apiRoute<LoaderFunctionArgs>(async ({ request, ctx }) => {
  const query = parseTaskApiQuery(new URL(request.url).searchParams, todayOf(ctx));
  const { items, capped } = await tasksBetween(ctx, { from: query.from, to: query.to }, query.filters);
  const answers = await answersOfTasks(ctx, items.filter((task) => task.status === 1).map((task) => task.id));
  const body = items.map((task) => ({
    id: task.id,
    plannedMaintenanceId: task.plannedMaintenanceId,
    plannedMaintenanceName: task.planName,
    dueDate: task.dueDate,
    dueTime: task.dueTime,
    status: task.status,
    roomId: task.roomId,
    roomName: task.roomName,
    buildingId: task.buildingId,
    buildingName: task.buildingName,
    equipmentItemId: task.equipmentItemId,
    equipmentName: task.equipmentName,
    assigneeId: task.assigneeId,
    assignees: task.assignees,
    doneAt: task.doneAt,
    doneById: task.doneById,
    doneByName: task.doneByName,
    note: task.note,
    photoFileId: task.photoFileId,
    signedOffName: task.signedOffName,
    signedOffAt: task.signedOffAt,
    answers: answers.get(task.id) ?? [],
  }));
  return Response.json(body, { headers: capped ? { "X-Truncated": "true" } : {} });
});

export const action = apiRoute(() => methodNotAllowed("GET"));
