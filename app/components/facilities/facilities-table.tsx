import { useMemo } from "react";
import { useTranslation } from "react-i18next";
import { countLinkCell, linkCell, shortIdColumnClass } from "~/components/lists/cells";
import { DataTable, listColumns, type ListTableProps, listTexts } from "~/components/lists/data-table";
import { cellLinkClass, numberColumnClass } from "~/components/lists/styles";
import type { FacilityRow } from "~/modules/facilities/queries.server";

const column = listColumns<FacilityRow>();

/** The facilities of the entity: a name links to its form, the buildings count to its buildings. */
export function FacilitiesTable(list: ListTableProps<FacilityRow>) {
  const { t } = useTranslation("facilities");
  const columns = useMemo(
    () => [
      column.accessor("shortId", { header: t("columns.shortId"), meta: { sortKey: "shortId", className: shortIdColumnClass } }),
      column.accessor("name", {
        header: t("columns.name"),
        meta: { sortKey: "name", cardTitle: true },
        cell: linkCell((facility) => `/update-facility/${facility.id}`),
      }),
      column.accessor("description", {
        header: t("columns.description"),
        cell: (c) => <span className="line-clamp-2 max-w-md text-muted-foreground">{c.getValue()}</span>,
      }),
      column.accessor("countBuildings", {
        header: t("columns.countBuildings"),
        meta: { sortKey: "countBuildings", className: numberColumnClass },
        cell: countLinkCell(
          (facility) => `/facilities?tab=buildings&facilityId=${facility.id}`,
          (facility) => t("facilities.showBuildings", { name: facility.name }),
        ),
      }),
      column.accessor("activeIncidents", { header: t("columns.activeIncidents"), meta: { className: numberColumnClass } }),
      column.display({
        id: "actions",
        header: () => <span className="sr-only">{t("columns.actions")}</span>,
        meta: { className: "w-16 text-right" },
        cell: (c) => (
          <a href={`/view-facility/${c.row.original.id}`} aria-label={t("view.viewLabel", { name: c.row.original.name })} className={cellLinkClass}>
            {t("view.view")}
          </a>
        ),
      }),
    ],
    [t],
  );
  return (
    <DataTable columns={columns} {...list} {...listTexts(t, "facilities")} />
  );
}
