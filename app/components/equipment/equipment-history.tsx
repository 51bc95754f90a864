import { useTranslation } from "react-i18next";
import { linkColumn, shortIdColumn, type ViewColumn, ViewDetails, ViewEmpty, ViewSection, ViewTable } from "~/components/facilities/place-view";
import { Pager } from "~/components/lists/pager";
import type { Page } from "~/lib/list-query";
import { useDates } from "~/lib/use-dates";
import { useHours } from "./use-hours";
import type { EquipmentItemSummary, HistoryIncident, HistoryTask, MonthFailures, ReliabilityFigures } from "~/modules/reliability/queries.server";

/** Where the item is and what it is. */
export function EquipmentItemDetails({ item }: { item: EquipmentItemSummary }) {
  const { t } = useTranslation("equipment");
  return (
    <ViewSection title={t("history.details")}>
      <ViewDetails
        items={[
          [t("history.genericEquipment"), item.equipmentName],
          [t("history.category"), item.categoryName],
          [t("history.internalReference"), item.internalReference],
          [t("history.building"), item.buildingName],
        ]}
      />
    </ViewSection>
  );
}

/** The three figures of the item, or "No failures yet". */
export function ReliabilitySummary({ figures }: { figures: ReliabilityFigures }) {
  const { t } = useTranslation("equipment");
  const hours = useHours();
  return (
    <ViewSection title={t("history.reliability")}>
      {figures.failures === 0 ? (
        <ViewEmpty>{t("history.noFailures")}</ViewEmpty>
      ) : (
        <div className="grid gap-3">
          <dl className="grid gap-3 sm:grid-cols-2 lg:grid-cols-5">
            {(
              [
                [t("history.failures"), String(figures.failures)],
                [t("history.medianRepair"), hours(figures.medianRepairHours)],
                [t("history.meanRepair"), hours(figures.meanRepairHours)],
                [t("history.mtbf"), hours(figures.mtbfHours)],
                [t("history.downtime"), hours(figures.downtimeHours)],
              ] as const
            ).map(([label, value]) => (
              <div key={label} className="grid gap-0.5 rounded-md border p-3">
                <dt className="text-sm text-muted-foreground">{label}</dt>
                <dd className="text-xl font-semibold tabular-nums">{value}</dd>
              </div>
            ))}
          </dl>
          <p className="text-sm text-muted-foreground">
            {figures.repaired === 0 ? t("history.noneRepaired") : t("history.repairedCount", { count: figures.repaired })}
            {figures.failures < 2 ? ` ${t("history.mtbfNeedsTwo")}` : ""}
          </p>
        </div>
      )}
    </ViewSection>
  );
}

/**
 * Failures per month as columns drawn in HTML (no JavaScript, no chart library): each column is a list
 * item that says its month and count, its bar's height a share of the busiest month.
 */
export function FailuresChart({ months }: { months: MonthFailures[] }) {
  const { t } = useTranslation("equipment");
  const dates = useDates();
  const most = Math.max(1, ...months.map((m) => m.failures));
  return (
    <ViewSection title={t("history.chartTitle")}>
      <ol className="flex h-40 items-end gap-1 border-b pb-0" aria-label={t("history.chartTitle")}>
        {months.map((m) => (
          <li key={m.month} className="flex h-full min-w-0 flex-1 flex-col items-center justify-end gap-1">
            <span className="text-xs tabular-nums text-muted-foreground" aria-hidden="true">
              {m.failures}
            </span>
            <span className="w-full rounded-t bg-primary" style={{ height: `${(m.failures / most) * 100}%`, minHeight: m.failures ? "2px" : 0 }} aria-hidden="true" />
            <span className="sr-only">{t("history.monthFailures", { month: dates.month(m.month), count: m.failures })}</span>
          </li>
        ))}
      </ol>
      <div className="mt-1 flex gap-1" aria-hidden="true">
        {months.map((m) => (
          <span key={m.month} className="min-w-0 flex-1 truncate text-center text-xs text-muted-foreground">
            {dates.month(m.month).slice(0, 3)}
          </span>
        ))}
      </div>
    </ViewSection>
  );
}

/** The item's incidents, newest first, a page at a time, each linking to its page. */
export function HistoryIncidents({ page }: { page: Page<HistoryIncident> }) {
  const { t } = useTranslation("equipment");
  const dates = useDates();
  const columns: ViewColumn<HistoryIncident>[] = [
    shortIdColumn(t("history.columns.shortId")),
    linkColumn(t("history.columns.title"), (incident) => `/incident/${incident.id}`, (incident) => incident.title),
    {
      header: t("history.columns.status"),
      cell: (incident) => (incident.duplicate ? t("history.duplicate", { status: t(`incidents:status.${incident.status}`) }) : t(`incidents:status.${incident.status}`)),
    },
    { header: t("history.columns.reported"), cellClassName: "whitespace-nowrap", cell: (incident) => <time dateTime={incident.createdAt}>{dates.dateTime(incident.createdAt)}</time> },
    {
      header: t("history.columns.done"),
      cellClassName: "whitespace-nowrap",
      cell: (incident) => (incident.doneAt ? <time dateTime={incident.doneAt}>{dates.dateTime(incident.doneAt)}</time> : t("history.noValue")),
    },
  ];
  return (
    <ViewSection title={t("history.incidents")}>
      {page.total === 0 ? (
        <ViewEmpty>{t("history.noIncidents")}</ViewEmpty>
      ) : (
        <div className="grid gap-3">
          <ViewTable caption={t("history.incidentsCaption")} className="min-w-[40rem]" columns={columns} rows={page.items} />
          <Pager page={page} />
        </div>
      )}
    </ViewSection>
  );
}

/** The item's latest maintenance tasks, each linking to its day. */
export function HistoryTasks({ tasks }: { tasks: HistoryTask[] }) {
  const { t } = useTranslation("equipment");
  const dates = useDates();
  const rows = tasks.map((task, index) => ({ ...task, id: index }));
  type Row = (typeof rows)[number];
  const columns: ViewColumn<Row>[] = [
    linkColumn(t("history.columns.task"), (task) => `/view-task/${task.plannedMaintenanceId}/${task.dueDate}`, (task) => task.name),
    { header: t("history.columns.due"), cellClassName: "whitespace-nowrap", cell: (task) => dates.day(task.dueDate) },
    { header: t("history.columns.status"), cell: (task) => t(`tasks:status.${task.status}`) },
    {
      header: t("history.columns.done"),
      cellClassName: "whitespace-nowrap",
      cell: (task) => (task.doneAt ? <time dateTime={task.doneAt}>{dates.dateTime(task.doneAt)}</time> : t("history.noValue")),
    },
  ];
  return (
    <ViewSection title={t("history.tasks")}>
      {rows.length === 0 ? <ViewEmpty>{t("history.noTasks")}</ViewEmpty> : <ViewTable caption={t("history.tasksCaption")} className="min-w-[32rem]" columns={columns} rows={rows} />}
    </ViewSection>
  );
}
