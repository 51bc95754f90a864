import { Link } from "@remix-run/react";
import { createColumnHelper } from "@tanstack/react-table";
import { useMemo } from "react";
import { useTranslation } from "react-i18next";
import { DataTable } from "~/components/lists/data-table";
import { Badge } from "~/components/ui/badge";
import type { ListQuery, Page } from "~/lib/list-query";
import type { CategoryRow, EquipmentTypeRow } from "~/modules/equipment/queries.server";

const linkClass = "font-medium text-primary underline-offset-4 hover:underline";
const numberClass = "text-right tabular-nums";

/**
 * Dates of the lists in Belgian time, so that the server's rendering and the browser's hydration
 * agree whatever the machines' time zones.
 */
export function formatDate(iso: string, locale: string): string {
  return new Intl.DateTimeFormat(locale, { dateStyle: "medium", timeZone: "Europe/Brussels" }).format(new Date(iso));
}

function Tags({ tags }: { tags: string[] }) {
  if (tags.length === 0) return null;
  return (
    <ul className="flex flex-wrap gap-1">
      {tags.map((tag) => (
        <li key={tag}>
          <Badge variant="secondary" className="font-medium">
            {tag}
          </Badge>
        </li>
      ))}
    </ul>
  );
}

const typeColumn = createColumnHelper<EquipmentTypeRow>();

/** The generic equipment of the entity (or of one category): a name links to its form. */
export function EquipmentTypesTable({ page, query, filtered }: { page: Page<EquipmentTypeRow>; query: ListQuery; filtered: boolean }) {
  const { t, i18n } = useTranslation("equipment");
  const locale = i18n.language;
  const columns = useMemo(
    () => [
      typeColumn.accessor("equipmentName", {
        header: t("columns.name"),
        meta: { sortKey: "name" },
        cell: (c) => (
          <Link to={`/update-equipment-type/${c.row.original.id}`} className={linkClass}>
            {c.getValue()}
          </Link>
        ),
      }),
      typeColumn.accessor("categoryName", { header: t("columns.category"), meta: { sortKey: "categoryName" } }),
      typeColumn.accessor("tags", {
        header: t("columns.tags"),
        cell: (c) => <Tags tags={c.getValue().map((tag) => tag.label)} />,
      }),
      typeColumn.accessor("itemCount", { header: t("columns.itemCount"), meta: { sortKey: "itemCount", className: numberClass } }),
      typeColumn.accessor("creationTimestamp", {
        header: t("columns.created"),
        meta: { sortKey: "creationTimestamp", className: "whitespace-nowrap" },
        cell: (c) => <time dateTime={c.getValue()}>{formatDate(c.getValue(), locale)}</time>,
      }),
    ],
    [t, locale],
  );
  return (
    <DataTable
      columns={columns}
      page={page}
      sort={query.sort}
      dir={query.dir}
      filtered={filtered}
      caption={t("types.caption")}
      emptyText={t("types.empty")}
      noMatchText={t("types.noMatch")}
    />
  );
}

const categoryColumn = createColumnHelper<CategoryRow>();

/** The equipment categories: a name links to its form, the equipment count to its generic equipment. */
export function CategoriesTable({ page, query }: { page: Page<CategoryRow>; query: ListQuery }) {
  const { t } = useTranslation("equipment");
  const columns = useMemo(
    () => [
      categoryColumn.accessor("categoryName", {
        header: t("columns.name"),
        meta: { sortKey: "name" },
        cell: (c) => (
          <Link to={`/update-category/${c.row.original.id}`} className={linkClass}>
            {c.getValue()}
          </Link>
        ),
      }),
      categoryColumn.accessor("tags", { header: t("columns.tags"), cell: (c) => <Tags tags={c.getValue()} /> }),
      categoryColumn.accessor("equipmentCount", {
        header: t("columns.equipmentCount"),
        meta: { sortKey: "equipmentCount", className: numberClass },
        cell: (c) => (
          <Link
            to={`/equipments?categoryId=${c.row.original.id}`}
            aria-label={`${c.getValue()} – ${t("categories.showEquipment", { name: c.row.original.categoryName })}`}
            className={linkClass}
          >
            {c.getValue()}
          </Link>
        ),
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
      caption={t("categories.caption")}
      emptyText={t("categories.empty")}
      noMatchText={t("categories.noMatch")}
    />
  );
}
