import { Link } from "@remix-run/react";
import { createColumnHelper } from "@tanstack/react-table";
import { useMemo } from "react";
import { useTranslation } from "react-i18next";
import { cellLinkClass, DataTable, numberColumnClass } from "~/components/lists/data-table";
import type { ListQuery, Page } from "~/lib/list-query";
import type { FacilityRow } from "~/modules/facilities/queries.server";

const column = createColumnHelper<FacilityRow>();

/** The facilities of the entity: a name links to its form, the buildings count to its buildings. */
export function FacilitiesTable({ page, query }: { page: Page<FacilityRow>; query: ListQuery }) {
  const { t } = useTranslation("facilities");
  const columns = useMemo(
    () => [
      column.accessor("shortId", { header: t("columns.shortId"), meta: { sortKey: "shortId", className: "w-20 tabular-nums" } }),
      column.accessor("name", {
        header: t("columns.name"),
        meta: { sortKey: "name" },
        cell: (c) => (
          <Link to={`/update-facility/${c.row.original.id}`} className={cellLinkClass}>
            {c.getValue()}
          </Link>
        ),
      }),
      column.accessor("description", {
        header: t("columns.description"),
        cell: (c) => <span className="line-clamp-2 max-w-md text-muted-foreground">{c.getValue()}</span>,
      }),
      column.accessor("countBuildings", {
        header: t("columns.countBuildings"),
        meta: { sortKey: "countBuildings", className: numberColumnClass },
        cell: (c) => (
          <Link
            to={`/facilities?tab=buildings&facilityId=${c.row.original.id}`}
            aria-label={`${c.getValue()} – ${t("facilities.showBuildings", { name: c.row.original.name })}`}
            className={cellLinkClass}
          >
            {c.getValue()}
          </Link>
        ),
      }),
      column.accessor("activeIncidents", { header: t("columns.activeIncidents"), meta: { className: numberColumnClass } }),
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
      caption={t("facilities.caption")}
      emptyText={t("facilities.empty")}
      noMatchText={t("facilities.noMatch")}
    />
  );
}
