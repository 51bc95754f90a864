import { useMemo } from "react";
import { useTranslation } from "react-i18next";
import { nameLinkColumn, shortIdColumn, viewColumn } from "~/components/lists/cells";
import { DataTable, listColumns, type ListTableProps, listTexts } from "~/components/lists/data-table";
import { numberColumnClass } from "~/components/lists/styles";
import type { BuildingRow } from "~/modules/facilities/queries.server";

const column = listColumns<BuildingRow>();

/** The buildings of the entity (or of one facility): a name links to its form. */
export function BuildingsTable(list: ListTableProps<BuildingRow>) {
  const { t } = useTranslation("facilities");
  const columns = useMemo(
    () => [
      shortIdColumn<BuildingRow>(t("columns.shortId")),
      nameLinkColumn<BuildingRow>(t("columns.name"), (building) => `/update-building/${building.id}`),
      column.accessor("facilityName", { header: t("columns.facility"), meta: { sortKey: "facilityName" } }),
      column.accessor("city", { header: t("columns.city"), meta: { sortKey: "city" } }),
      column.accessor("countRooms", { header: t("columns.countRooms"), meta: { sortKey: "countRooms", className: numberColumnClass } }),
      column.accessor("activeIncidents", { header: t("columns.activeIncidents"), meta: { className: numberColumnClass } }),
      viewColumn<BuildingRow>({ header: t("columns.actions"), view: t("view.view"), label: (row) => t("view.viewLabel", { name: row.name }) }, (row) => `/view-building/${row.id}`),
    ],
    [t],
  );
  return (
    <DataTable columns={columns} {...list} {...listTexts(t, "buildings")} />
  );
}
