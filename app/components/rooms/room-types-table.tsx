import { useMemo } from "react";
import { useTranslation } from "react-i18next";
import { linkCell, tagsCell } from "~/components/lists/cells";
import { DataTable, listColumns, type ListTableProps, listTexts } from "~/components/lists/data-table";
import { numberColumnClass } from "~/components/lists/styles";
import type { RoomTypeRow } from "~/modules/rooms/queries.server";

const column = listColumns<RoomTypeRow>();

/** The room types of the entity: name (links to its form), tags, and how many rooms use it. */
export function RoomTypesTable(list: ListTableProps<RoomTypeRow>) {
  const { t } = useTranslation("rooms");
  const columns = useMemo(
    () => [
      column.accessor("roomTypeName", {
        header: t("columns.name"),
        meta: { sortKey: "name" },
        cell: linkCell((roomType) => `/update-room-type/${roomType.id}`),
      }),
      column.accessor("tags", { header: t("columns.tags"), cell: tagsCell }),
      column.accessor("linkedRoomsCount", {
        header: t("columns.linkedRoomsCount"),
        meta: { sortKey: "linkedRoomsCount", className: numberColumnClass },
      }),
    ],
    [t],
  );
  return (
    <DataTable columns={columns} {...list} {...listTexts(t, "roomTypes")} />
  );
}
