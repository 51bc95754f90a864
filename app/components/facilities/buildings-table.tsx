import { useMemo } from "react";
import { useTranslation } from "react-i18next";
import { linkCell, shortIdColumnClass } from "~/components/lists/cells";
import { DataTable, listColumns, type ListTableProps, listTexts } from "~/components/lists/data-table";
import { cellLinkClass, numberColumnClass } from "~/components/lists/styles";
import type { BuildingRow } from "~/modules/facilities/queries.server";

const column = listColumns<BuildingRow>();

/** The buildings of the entity (or of one facility): a name links to its form. */
export function BuildingsTable(list: ListTableProps<BuildingRow>) {
  const { t } = useTranslation("facilities");
  const columns = useMemo(
    () => [
      column.accessor("shortId", { header: t("columns.shortId"), meta: { sortKey: "shortId", className: shortIdColumnClass } }),
      column.accessor("name", {
        header: t("columns.name"),
        meta: { sortKey: "name", cardTitle: true },
        cell: linkCell((building) => `/update-building/${building.id}`),
      }),
      column.accessor("facilityName", { header: t("columns.facility"), meta: { sortKey: "facilityName" } }),
      column.accessor("city", { header: t("columns.city"), meta: { sortKey: "city" } }),
      column.accessor("countRooms", { header: t("columns.countRooms"), meta: { sortKey: "countRooms", className: numberColumnClass } }),
      column.accessor("activeIncidents", { header: t("columns.activeIncidents"), meta: { className: numberColumnClass } }),
      column.display({
        id: "actions",
        header: () => <span className="sr-only">{t("columns.actions")}</span>,
        meta: { className: "w-16 text-right" },
        cell: (c) => (
          <a href={`/view-building/${c.row.original.id}`} aria-label={t("view.viewLabel", { name: c.row.original.name })} className={cellLinkClass}>
            {t("view.view")}
          </a>
        ),
      }),
    ],
    [t],
  );
  return (
    <DataTable columns={columns} {...list} {...listTexts(t, "buildings")} />
  );
}
