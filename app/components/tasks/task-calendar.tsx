import { Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { cn } from "~/lib/utils";
import { useDates } from "~/lib/use-dates";
import type { CalendarEntry } from "~/modules/maintenance/calendar-entries";
import { taskDayHref, useWallTime } from "./task-parts";

export interface CalendarData {
  view: "month" | "week";
  /** The month shown (`YYYY-MM`), for the month view. */
  month: string | null;
  /** The days of the grid, Monday first (whole weeks). */
  days: string[];
  today: string;
  previous: string;
  next: string;
  current: string;
  /** A plan's tasks of a day and time as one entry each (calendar-entries.ts), a few a day. */
  entries: CalendarEntry[];
  /** The days that have more entries than shown. */
  more: string[];
}

function byDay(entries: CalendarEntry[]): Map<string, CalendarEntry[]> {
  const map = new Map<string, CalendarEntry[]>();
  for (const entry of entries) {
    const list = map.get(entry.dueDate);
    if (list) list.push(entry);
    else map.set(entry.dueDate, [entry]);
  }
  return map;
}

/**
 * One entry: time and plan, then its place (one task) or its number of locations, and how many are done
 * when some are. Each part takes at most two lines of the cell; the link's title gives it whole. An entry
 * of a day before today (the entity's, `today`) with a task still pending is overdue (SPEC.md task
 * statuses: pending, done): it says so in words, first, besides its colour, so that a screen reader and
 * a person who does not see the colour tell it from a task to come.
 */
function CalendarTask({ entry, today }: { entry: CalendarEntry; today: string }) {
  const { t } = useTranslation("tasks");
  const wallTime = useWallTime();
  const allDone = entry.done === entry.tasks;
  const overdue = !allDone && entry.dueDate < today;
  const heading = `${entry.dueTime ? `${wallTime(entry.dueTime)} ` : ""}${entry.planName}`;
  const where = entry.place ?? t("calendar.locations", { count: entry.tasks });
  const progress = allDone ? t("status.1") : entry.done > 0 ? t("calendar.doneOf", { done: entry.done, count: entry.tasks }) : null;
  const late = overdue ? t("sections.overdue") : null;
  return (
    <Link
      to={taskDayHref(entry)}
      title={[late, heading, where, progress].filter(Boolean).join(" · ")}
      data-overdue={overdue ? "true" : undefined}
      className={cn(
        "block min-w-0 rounded border px-1.5 py-1 text-xs leading-snug underline-offset-2 hover:underline",
        allDone ? "bg-muted text-muted-foreground" : overdue ? "border-destructive bg-destructive/10" : "bg-primary/5",
      )}
    >
      {late ? <span className="block font-semibold text-destructive">{late}</span> : null}
      <span className={cn("line-clamp-2 font-medium [overflow-wrap:anywhere]", allDone && "line-through")}>{heading}</span>
      <span className={cn("line-clamp-2 [overflow-wrap:anywhere]", allDone && "line-through")}>{where}</span>
      {allDone ? <span className="sr-only">{progress}</span> : progress ? <span className="block truncate text-muted-foreground">{progress}</span> : null}
    </Link>
  );
}

/**
 * The maintenance calendar (/task?view=month|week), drawn on the server: a month grid (Monday to
 * Sunday) or a week's seven days, each task a link to its day's page; on a phone the month is a list of
 * the days that have tasks. A day shows its first few entries and then a link to more (the month to the
 * day's week, the week to the day's list). Previous and next move by a month or a week.
 */
export function TaskCalendar({ data, hrefFor, moreHref }: { data: CalendarData; hrefFor: (anchor: string) => string; moreHref: (day: string) => string }) {
  const { t } = useTranslation("tasks");
  const dates = useDates();
  const tasks = byDay(data.entries);
  const more = new Set(data.more);
  const moreLink = (day: string) =>
    more.has(day) ? (
      <Link to={moreHref(day)} className="block px-1.5 text-xs font-medium underline underline-offset-2" aria-label={t("calendar.moreOf", { day: dates.day(day) })}>
        {t("calendar.more")}
      </Link>
    ) : null;
  const weekdays = data.days.slice(0, 7);
  const title = data.view === "month" && data.month ? dates.month(data.month) : t("calendar.weekOf", { day: dates.day(data.days[0]) });
  const inMonth = (day: string) => !data.month || day.startsWith(data.month);
  const daysWithTasks = data.days.filter((day) => inMonth(day) && tasks.has(day));

  return (
    <div className="grid gap-4">
      <nav aria-label={t("calendar.navigation")} className="flex flex-wrap items-center justify-between gap-2">
        <h2 className="text-lg font-semibold" aria-live="polite">
          {title}
        </h2>
        <div className="flex flex-wrap gap-2">
          <Link to={hrefFor(data.previous)} rel="prev" className="ui-btn ui-btn-outline ui-btn-sm">
            {data.view === "month" ? t("calendar.previousMonth") : t("calendar.previousWeek")}
          </Link>
          <Link to={hrefFor(data.current)} className="ui-btn ui-btn-outline ui-btn-sm">
            {t("calendar.today")}
          </Link>
          <Link to={hrefFor(data.next)} rel="next" className="ui-btn ui-btn-outline ui-btn-sm">
            {data.view === "month" ? t("calendar.nextMonth") : t("calendar.nextWeek")}
          </Link>
        </div>
      </nav>

      {/* Wide screens: the grid. */}
      <table className="hidden w-full table-fixed border-collapse md:table" data-testid="task-calendar-grid">
        <caption className="sr-only">{title}</caption>
        <thead>
          <tr>
            {weekdays.map((day) => (
              <th key={day} scope="col" className="border bg-muted/50 p-1 text-xs font-medium">
                <WeekdayName day={day} />
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {Array.from({ length: data.days.length / 7 }, (_, week) => (
            <tr key={week}>
              {data.days.slice(week * 7, week * 7 + 7).map((day) => (
                <td key={day} className={cn("h-24 overflow-hidden border p-1 align-top", !inMonth(day) && "bg-muted/30 text-muted-foreground", day === data.today && "ring-2 ring-inset ring-primary")}>
                  <div className="mb-1 text-xs font-medium">
                    <span className="sr-only">{dates.day(day)}</span>
                    <span aria-hidden="true">{Number(day.slice(8, 10))}</span>
                  </div>
                  <div className="grid min-w-0 grid-cols-1 gap-1">
                    {(tasks.get(day) ?? []).map((entry) => (
                      <CalendarTask key={`${entry.plannedMaintenanceId}-${entry.dueTime}`} entry={entry} today={data.today} />
                    ))}
                    {moreLink(day)}
                  </div>
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>

      {/* Phones: a list of the days that have tasks. */}
      <div className="grid gap-3 md:hidden" data-testid="task-calendar-days">
        {daysWithTasks.length === 0 ? (
          <p className="rounded-md border bg-background p-6 text-muted-foreground">{t("calendar.empty")}</p>
        ) : (
          daysWithTasks.map((day) => (
            <section key={day} aria-label={dates.day(day)} className="grid gap-1">
              <h3 className={cn("text-sm font-semibold", day === data.today && "text-primary")}>
                <WeekdayName day={day} /> {dates.day(day)}
              </h3>
              {(tasks.get(day) ?? []).map((entry) => (
                <CalendarTask key={`${entry.plannedMaintenanceId}-${entry.dueTime}`} entry={entry} today={data.today} />
              ))}
              {moreLink(day)}
            </section>
          ))
        )}
      </div>
      {daysWithTasks.length === 0 ? <p className="hidden text-sm text-muted-foreground md:block">{t("calendar.empty")}</p> : null}
    </div>
  );
}

function WeekdayName({ day }: { day: string }) {
  return <>{useDates().weekday(day)}</>;
}
