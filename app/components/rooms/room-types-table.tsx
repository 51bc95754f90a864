import { Link } from "@remix-run/react";
import { createColumnHelper } from "@tanstack/react-table";
import { useMemo } from "react";
import { useTranslation } from "react-i18next";
import { cellLinkClass, DataTable, numberColumnClass } from "~/components/lists/data-table";
import type { ListQuery, Page } from "~/lib/list-query";
import type { RoomTypeRow } from "~/modules/rooms/queries.server";
import { TagList } from "./tag-list";

const column = createColumnHelper<RoomTypeRow>();

/** The room types of the entity: name (links to its form), tags, and how many rooms use it. */
export function RoomTypesTable({ page, query }: { page: Page<RoomTypeRow>; query: ListQuery }) {
  const { t } = useTranslation("rooms");
  const columns = useMemo(
    () => [
      column.accessor("roomTypeName", {
        header: t("columns.name"),
        meta: { sortKey: "name" },
        cell: (c) => (
          <Link to={`/update-room-type/${c.row.original.id}`} className={cellLinkClass}>
            {c.getValue()}
          </Link>
        ),
      }),
      column.accessor("tags", { header: t("columns.tags"), cell: (c) => <TagList tags={c.getValue()} /> }),
      column.accessor("linkedRoomsCount", {
        header: t("columns.linkedRoomsCount"),
        meta: { sortKey: "linkedRoomsCount", className: numberColumnClass },
      }),
    ],
    [t],
  );
  return (
    <DataTable
      columns={columns}
      page={page}
      sort={query.sort}
      dir={query.dir}
      filtered={Boolean(query.q)}
      caption={t("roomTypes.caption")}
      emptyText={t("roomTypes.empty")}
      noMatchText={t("roomTypes.noMatch")}
    />
  );
}
