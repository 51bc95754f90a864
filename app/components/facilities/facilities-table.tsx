import { useMemo } from "react";
import { useTranslation } from "react-i18next";
import { countLinkCell, nameLinkColumn, shortIdColumn, viewColumn } from "~/components/lists/cells";
import { DataTable, listColumns, type ListTableProps, listTexts } from "~/components/lists/data-table";
import { numberColumnClass } from "~/components/lists/styles";
import type { FacilityRow } from "~/modules/facilities/queries.server";

const column = listColumns<FacilityRow>();

/** The facilities of the entity: a name links to its form, the buildings count to its buildings. */
export function FacilitiesTable(list: ListTableProps<FacilityRow>) {
  const { t } = useTranslation("facilities");
  const columns = useMemo(
    () => [
      shortIdColumn<FacilityRow>(t("columns.shortId")),
      nameLinkColumn<FacilityRow>(t("columns.name"), (facility) => `/update-facility/${facility.id}`),
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
      viewColumn<FacilityRow>({ header: t("columns.actions"), view: t("view.view"), label: (row) => t("view.viewLabel", { name: row.name }) }, (row) => `/view-facility/${row.id}`),
    ],
    [t],
  );
  return (
    <DataTable columns={columns} {...list} {...listTexts(t, "facilities")} />
  );
}
