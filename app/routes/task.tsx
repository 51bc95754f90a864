import { Link, useLoaderData, useLocation } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { TaskCalendar, type CalendarData } from "~/components/tasks/task-calendar";
import { TaskFilters } from "~/components/tasks/task-filters";
import { TaskList } from "~/components/tasks/task-list";
import { TabLinks } from "~/components/ui/tabs";
import { roleCan } from "~/core/actor";
import { screenAction, screenLoader } from "~/http/screen.server";
import { taskIntents, taskListHref } from "~/http/task-actions.server";
import { addDays } from "~/lib/dates";
import { useDates } from "~/lib/use-dates";
import { parseListQuery } from "~/lib/list-query";
import { CALENDAR_ENTRIES_PER_DAY, calendarDays, listTasks, monthGrid, taskFilterOptions, todayOf, weekDays } from "~/modules/maintenance/task-queries.server";
import { isDay, isMonth, parseTaskFilters, parseTaskView } from "~/modules/maintenance/task-schema";

/**
 * /task, for every signed-in user (SPEC.md sections 2 and 6): the maintenance tasks within the viewer's
 * reach, "my tasks" by default for technicians (`assignee=all` shows everyone's). Three views of the same
 * tasks (decision 051): the list (sections Overdue, Today, This week, Later, Earlier; filters by status,
 * building, plan, assignee, and one day, `&day=YYYY-MM-DD`; paged) and the maintenance calendar,
 * `?view=month` (`&month=YYYY-MM`) or `?view=week` (`&date=YYYY-MM-DD`), drawn on the server, a few
 * entries a day with a link to more (decision 051). Marking done and undoing are plain posts
 * (`intent=done|undo`, `taskId`) that come back to the same address.
 */
export const loader = screenLoader(async ({ ctx, url, user }) => {
  const params = url.searchParams;
  const view = parseTaskView(params);
  const filters = parseTaskFilters(params, { mineByDefault: !roleCan(user.role, "manage", "task") });
  const today = todayOf(ctx);
  const choices = await taskFilterOptions(ctx);
  const values = {
    status: filters.status,
    building: filters.buildingId ? String(filters.buildingId) : "",
    plan: filters.plannedMaintenanceId ? String(filters.plannedMaintenanceId) : "",
    assignee: filters.assignee === null ? "all" : String(filters.assignee),
    day: filters.day ?? "",
  };
  if (view === "list") {
    const query = parseListQuery(params, { sorts: ["due"], defaultSort: "due", mode: "screen" });
    const page = await listTasks(ctx, filters, { page: query.page, size: query.size }, { today });
    const filtered = filters.buildingId !== null || filters.plannedMaintenanceId !== null || filters.status !== "pending" || Boolean(filters.day);
    return { view, values, choices, page, filtered, calendar: null };
  }
  const calendarFilters = { buildingId: filters.buildingId, assignee: filters.assignee };
  let calendar: Omit<CalendarData, "entries" | "more">;
  if (view === "month") {
    const month = isMonth(params.get("month")) ? params.get("month")! : today.slice(0, 7);
    const grid = monthGrid(month);
    const first = `${month}-01`;
    calendar = { view, month, days: grid.days, today, previous: addDays(first, -1).slice(0, 7), next: addDays(first, 32).slice(0, 7), current: today.slice(0, 7) };
  } else {
    const anchor = isDay(params.get("date")) ? params.get("date")! : today;
    const week = weekDays(anchor);
    calendar = { view, month: null, days: week.days, today, previous: addDays(week.from, -7), next: addDays(week.from, 7), current: today };
  }
  const found = await calendarDays(ctx, { from: calendar.days[0], to: calendar.days.at(-1)! }, calendarFilters, CALENDAR_ENTRIES_PER_DAY[view]);
  return { view, values, choices, page: null, filtered: false, calendar: { ...calendar, ...found } };
});

export const action = screenAction({ intents: taskIntents(({ url }) => taskListHref(url)) });

export default function TaskScreen() {
  const { t } = useTranslation("tasks");
  const data = useLoaderData<typeof loader>();
  const dates = useDates();
  const location = useLocation();
  const params = new URLSearchParams(location.search);
  const filterParams = (view: string) => {
    const next = new URLSearchParams();
    if (view !== "list") next.set("view", view);
    for (const name of view === "list" ? ["status", "building", "plan", "assignee", "day"] : ["building", "assignee"]) {
      const value = params.get(name);
      if (value) next.set(name, value);
    }
    return next;
  };
  const hrefOf = (view: string) => {
    const search = filterParams(view).toString();
    return `/task${search ? `?${search}` : ""}`;
  };
  const keep: Record<string, string> = {};
  if (data.view !== "list") keep.view = data.view;
  if (data.calendar?.month) keep.month = data.calendar.month;
  if (data.view === "week" && params.get("date")) keep.date = params.get("date")!;
  if (data.view === "list" && data.values.day) keep.day = data.values.day;
  const calendarHref = (anchor: string) => {
    const next = filterParams(data.view);
    next.set(data.view === "month" ? "month" : "date", anchor);
    return `/task?${next.toString()}`;
  };
  // The list of another day, or of every day (null), with the list's other filters.
  const dayHref = (day: string | null, status?: string) => {
    const next = filterParams("list");
    if (day) next.set("day", day);
    else next.delete("day");
    if (status) next.set("status", status);
    const search = next.toString();
    return `/task${search ? `?${search}` : ""}`;
  };
  // A day with more entries than its cell shows: the month opens the day's week, the week the day's list.
  const moreHref = (day: string) => {
    if (data.view !== "month") return dayHref(day, "all");
    const next = filterParams("week");
    next.set("date", day);
    return `/task?${next.toString()}`;
  };
  return (
    <div className="mx-auto grid w-full max-w-6xl gap-4">
      <h1 className="text-2xl font-semibold tracking-tight">{t("title")}</h1>
      <TabLinks
        label={t("views.label")}
        active={data.view}
        tabs={[
          { key: "list", to: hrefOf("list"), label: t("views.list") },
          { key: "month", to: hrefOf("month"), label: t("views.month") },
          { key: "week", to: hrefOf("week"), label: t("views.week") },
        ]}
      />
      <TaskFilters key={location.search} values={data.values} choices={data.choices} calendar={data.view !== "list"} keep={keep} />
      {data.page && data.values.day ? (
        <nav aria-label={t("list.dayNavigation")} className="flex flex-wrap items-center justify-between gap-2">
          <h2 className="text-lg font-semibold">{t("list.dayOf", { day: dates.day(data.values.day) })}</h2>
          <div className="flex flex-wrap gap-2">
            <Link to={dayHref(addDays(data.values.day, -1))} rel="prev" className="ui-btn ui-btn-outline ui-btn-sm">
              {t("list.previousDay")}
            </Link>
            <Link to={dayHref(addDays(data.values.day, 1))} rel="next" className="ui-btn ui-btn-outline ui-btn-sm">
              {t("list.nextDay")}
            </Link>
            <Link to={dayHref(null)} className="ui-btn ui-btn-outline ui-btn-sm">
              {t("list.everyDay")}
            </Link>
          </div>
        </nav>
      ) : null}
      {data.page ? <TaskList page={data.page} filtered={data.filtered} /> : null}
      {data.calendar ? <TaskCalendar data={data.calendar} hrefFor={calendarHref} moreHref={moreHref} /> : null}
    </div>
  );
}

export { ScreenErrorBoundary as ErrorBoundary } from "~/components/shell/screen-error";
