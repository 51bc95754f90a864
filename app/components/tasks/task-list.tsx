import { useTranslation } from "react-i18next";
import { Pager } from "~/components/lists/pager";
import type { Page } from "~/lib/list-query";
import { useDates } from "~/lib/use-dates";
import { DoneBy, MarkTaskForm, TaskLink, taskPlace, TaskStatusBadge, type TaskSummary, useWallTime } from "./task-parts";

export type ListedTask = TaskSummary & { section: "overdue" | "today" | "week" | "later" | "earlier" };

/**
 * The person's task list (/task): the page's tasks under their section's heading (Overdue, Today, This
 * week, Later, Earlier), each a card with its plan, place, due day and time, assignees, status and one
 * button (mark done, or undo), a single column on a phone. The empty state says what the filters showed.
 */
export function TaskList({ page, filtered }: { page: Page<ListedTask>; filtered: boolean }) {
  const { t } = useTranslation("tasks");
  const dates = useDates();
  const wallTime = useWallTime();
  if (page.items.length === 0) {
    return (
      <div className="rounded-md border bg-background p-6 text-muted-foreground">
        <p>{filtered ? t("list.emptyFiltered") : t("list.empty")}</p>
      </div>
    );
  }
  const sections: { key: ListedTask["section"]; items: ListedTask[] }[] = [];
  for (const task of page.items) {
    const last = sections.at(-1);
    if (last && last.key === task.section) last.items.push(task);
    else sections.push({ key: task.section, items: [task] });
  }
  return (
    <div className="grid gap-6">
      {sections.map((section) => (
        <section key={section.key} aria-labelledby={`tasks-${section.key}`} className="grid gap-2">
          <h2 id={`tasks-${section.key}`} className="text-lg font-semibold">
            {t(`sections.${section.key}`)}
          </h2>
          <ul className="grid gap-2" data-testid={`tasks-${section.key}`}>
            {section.items.map((task) => (
              <li key={task.id} className="flex flex-col gap-3 rounded-md border bg-background p-4 sm:flex-row sm:items-center sm:justify-between">
                <div className="min-w-0 space-y-1">
                  <div className="flex flex-wrap items-center gap-2">
                    <TaskLink task={task} />
                    <TaskStatusBadge status={task.status} />
                  </div>
                  <p className="break-words text-sm">{taskPlace(task)}</p>
                  <p className="text-sm text-muted-foreground">
                    {dates.day(task.dueDate)}
                    {task.dueTime ? ` · ${wallTime(task.dueTime)}` : ` · ${t("allDay")}`}
                    {task.assignees ? ` · ${task.assignees}` : ` · ${t("unassigned")}`}
                  </p>
                  <p className="text-sm text-muted-foreground">
                    <DoneBy task={task} />
                  </p>
                </div>
                <div className="shrink-0">
                  <MarkTaskForm task={task} label={`${task.planName}, ${taskPlace(task)}`} />
                </div>
              </li>
            ))}
          </ul>
        </section>
      ))}
      <Pager page={page} />
    </div>
  );
}
