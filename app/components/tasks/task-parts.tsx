import { Form, Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { useDates } from "~/lib/use-dates";

/** What the task parts show of a task (a row of the list, the calendar or the task view). */
export interface TaskSummary {
  id: number;
  plannedMaintenanceId: number;
  planName: string;
  dueDate: string;
  dueTime: string | null;
  status: number;
  roomId: number;
  roomName: string;
  buildingName: string;
  equipmentName: string | null;
  assignees: string | null;
  doneAt: string | Date | null;
  doneByName: string | null;
}

export const DONE = 1;

/** The address of a plan's day. */
export const taskDayHref = (task: Pick<TaskSummary, "plannedMaintenanceId" | "dueDate">) => `/view-task/${task.plannedMaintenanceId}/${task.dueDate}`;

/** A local time of day ("14:30:00") in the page's language ("2:30 PM"). */
export function useWallTime(): (time: string) => string {
  return useDates().wallTime;
}

export function TaskStatusBadge({ status }: { status: number }) {
  const { t } = useTranslation("tasks");
  return <Badge variant={status === DONE ? "success" : "secondary"}>{t(`status.${status}`)}</Badge>;
}

export { taskPlace } from "~/modules/maintenance/task-place";

/** Who did it and when ("Done by Tom Tech on Nov 29, 2026, 9:00 AM"). */
export function DoneBy({ task }: { task: Pick<TaskSummary, "status" | "doneAt" | "doneByName"> }) {
  const { t } = useTranslation("tasks");
  const dates = useDates();
  if (task.status !== DONE || !task.doneAt) return null;
  return <span>{t("doneBy", { name: task.doneByName || t("someone"), when: dates.dateTime(task.doneAt) })}</span>;
}

/**
 * Mark done or undo, as a one-button form posting to the current page's action (works without
 * JavaScript); `label` names the task for screen readers.
 */
export function MarkTaskForm({ task, label }: { task: Pick<TaskSummary, "id" | "status">; label: string }) {
  const { t } = useTranslation("tasks");
  const done = task.status === DONE;
  return (
    <Form method="post" preventScrollReset>
      <input type="hidden" name="taskId" value={task.id} />
      <Button type="submit" name="intent" value={done ? "undo" : "done"} variant={done ? "outline" : "default"} size="sm" aria-label={`${done ? t("actions.undo") : t("actions.markDone")}: ${label}`} className="w-full sm:w-auto">
        {done ? t("actions.undo") : t("actions.markDone")}
      </Button>
    </Form>
  );
}

export function TaskLink({ task }: { task: TaskSummary }) {
  return (
    <Link to={taskDayHref(task)} className="font-medium underline-offset-4 hover:underline">
      {task.planName}
    </Link>
  );
}
