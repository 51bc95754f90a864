import { useMemo } from "react";
import { useTranslation } from "react-i18next";
import { linkCell, tagsCell } from "~/components/lists/cells";
import { DataTable, listColumns, type ListTableProps, listTexts } from "~/components/lists/data-table";
import { numberColumnClass } from "~/components/lists/styles";
import { useDates } from "~/lib/use-dates";
import type { MaintenanceTypeRow, PlannedMaintenanceRow } from "~/modules/maintenance/queries.server";

/** "Every 2 weeks", "Every month", "Once". */
export function useOccurrenceText() {
  const { t } = useTranslation("maintenance");
  return (unit: number, interval: number | null) => (unit === 0 ? t("occurrence.once") : t(`occurrence.every.${unit}`, { count: interval ?? 1 }));
}

/** A local date ('YYYY-MM-DD') written in the page's language, never shifted by a time zone. */
export function useLocalDate() {
  const dates = useDates();
  return (value: string) => dates.day(value);
}

const planColumn = listColumns<PlannedMaintenanceRow>();
const typeColumn = listColumns<MaintenanceTypeRow>();

/** The planned maintenances: name (to its form), type, occurrence, dates and time, assignees. */
export function PlansTable(list: ListTableProps<PlannedMaintenanceRow>) {
  const { t } = useTranslation("maintenance");
  const occurrence = useOccurrenceText();
  const date = useLocalDate();
  const columns = useMemo(
    () => [
      planColumn.accessor("name", { header: t("columns.name"), meta: { sortKey: "name" }, cell: linkCell((plan) => `/update-planned-maintenance/${plan.id}`) }),
      planColumn.accessor("maintenanceTypeName", { header: t("columns.type"), meta: { sortKey: "type" } }),
      planColumn.accessor("occurrenceUnit", { header: t("columns.occurrence"), cell: (c) => occurrence(c.getValue(), c.row.original.occurrenceInterval) }),
      planColumn.accessor("startDate", { header: t("columns.startDate"), meta: { sortKey: "startDate" }, cell: (c) => <time dateTime={c.getValue()}>{date(c.getValue())}</time> }),
      planColumn.accessor("endDate", { header: t("columns.endDate"), meta: { sortKey: "endDate" }, cell: (c) => <time dateTime={c.getValue()}>{date(c.getValue())}</time> }),
      planColumn.accessor("timeOfDay", { header: t("columns.time"), cell: (c) => c.getValue() ?? t("anyTime") }),
      planColumn.accessor("assignees", {
        header: t("columns.assignees"),
        cell: (c) => (c.getValue().length ? c.getValue().map((p) => `${p.name} ${p.surname}`).join(", ") : t("noAssignee")),
      }),
    ],
    [t, occurrence, date],
  );
  return (
    <DataTable columns={columns} {...list} {...listTexts(t, "plans")} />
  );
}

/** The maintenance types: name (to its form), occurrence, tags, active plans, and "Plan it". */
export function TypesTable(list: ListTableProps<MaintenanceTypeRow>) {
  const { t } = useTranslation("maintenance");
  const occurrence = useOccurrenceText();
  const columns = useMemo(
    () => [
      typeColumn.accessor("name", { header: t("columns.name"), meta: { sortKey: "name" }, cell: linkCell((type) => `/update-maintenance-type/${type.id}`) }),
      typeColumn.accessor("occurrenceUnit", { header: t("columns.occurrence"), meta: { sortKey: "occurrence" }, cell: (c) => occurrence(c.getValue(), c.row.original.occurrenceInterval) }),
      typeColumn.accessor("tags", { header: t("columns.tags"), cell: tagsCell }),
      typeColumn.accessor("plansCount", { header: t("columns.plans"), meta: { className: numberColumnClass } }),
      typeColumn.accessor("id", {
        header: t("columns.actions"),
        cell: (c) => (
          <a href={`/add-planned-maintenance?type=${c.getValue()}`} className="font-medium text-primary underline-offset-4 hover:underline" aria-label={t("types.planItNamed", { name: c.row.original.name })}>
            {t("types.planIt")}
          </a>
        ),
      }),
    ],
    [t, occurrence],
  );
  return <DataTable columns={columns} {...list} {...listTexts(t, "types")} />;
}
