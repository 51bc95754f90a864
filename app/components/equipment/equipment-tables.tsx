import { useMemo } from "react";
import { useTranslation } from "react-i18next";
import { countLinkCell, linkCell, tagsCell, textLinkCell } from "~/components/lists/cells";
import { DataTable, listColumns, type ListTableProps, listTexts } from "~/components/lists/data-table";
import { numberColumnClass } from "~/components/lists/styles";
import { TagList } from "~/components/lists/tag-list";
import type { ItemListRow } from "~/modules/equipment/item-queries.server";
import type { CategoryRow, EquipmentTypeRow } from "~/modules/equipment/queries.server";
import { useDates } from "~/lib/use-dates";

const typeColumn = listColumns<EquipmentTypeRow>();

/** The generic equipment of the entity (or of one category): a name links to its form. */
export function EquipmentTypesTable(list: ListTableProps<EquipmentTypeRow>) {
  const { t } = useTranslation("equipment");
  const dates = useDates();
  const columns = useMemo(
    () => [
      typeColumn.accessor("equipmentName", {
        header: t("columns.name"),
        meta: { sortKey: "name" },
        cell: linkCell((equipmentType) => `/update-equipment-type/${equipmentType.id}`),
      }),
      typeColumn.accessor("categoryName", { header: t("columns.category"), meta: { sortKey: "categoryName" } }),
      typeColumn.accessor("tags", {
        header: t("columns.tags"),
        cell: (c) => <TagList tags={c.getValue().map((tag) => tag.label)} />,
      }),
      typeColumn.accessor("itemCount", { header: t("columns.itemCount"), meta: { sortKey: "itemCount", className: numberColumnClass } }),
      typeColumn.accessor("creationTimestamp", {
        header: t("columns.created"),
        meta: { sortKey: "creationTimestamp", className: "whitespace-nowrap" },
        cell: (c) => <time dateTime={c.getValue()}>{dates.date(c.getValue())}</time>,
      }),
    ],
    [t, dates],
  );
  return (
    <DataTable columns={columns} {...list} {...listTexts(t, "types")} />
  );
}

const categoryColumn = listColumns<CategoryRow>();

/** The equipment categories: a name links to its form, the equipment count to its generic equipment. */
export function CategoriesTable(list: ListTableProps<CategoryRow>) {
  const { t } = useTranslation("equipment");
  const columns = useMemo(
    () => [
      categoryColumn.accessor("categoryName", {
        header: t("columns.name"),
        meta: { sortKey: "name" },
        cell: linkCell((category) => `/update-category/${category.id}`),
      }),
      categoryColumn.accessor("tags", { header: t("columns.tags"), cell: tagsCell }),
      categoryColumn.accessor("equipmentCount", {
        header: t("columns.equipmentCount"),
        meta: { sortKey: "equipmentCount", className: numberColumnClass },
        cell: countLinkCell(
          (category) => `/equipments?categoryId=${category.id}`,
          (category) => t("categories.showEquipment", { name: category.categoryName }),
        ),
      }),
    ],
    [t],
  );
  return (
    <DataTable columns={columns} {...list} {...listTexts(t, "categories")} />
  );
}

const itemColumn = listColumns<ItemListRow>();

/** The equipment items in the rooms the viewer reaches: an item links to its screen, its room to the room's. */
export function ItemsTable(list: ListTableProps<ItemListRow>) {
  const { t } = useTranslation("equipment");
  const dates = useDates();
  const columns = useMemo(
    () => [
      itemColumn.accessor("equipmentName", {
        header: t("columns.item"),
        meta: { sortKey: "equipmentName" },
        cell: textLinkCell((item) => `/view-equipment/${item.id}`, (item) => [item.equipmentName, item.internalReference].filter(Boolean).join(" · ")),
      }),
      itemColumn.accessor("serialNumber", { header: t("item.serialNumber") }),
      itemColumn.accessor("model", { header: t("item.model"), cell: (c) => [c.row.original.manufacturer, c.getValue()].filter(Boolean).join(" ") }),
      itemColumn.accessor("roomName", {
        header: t("columns.room"),
        meta: { sortKey: "roomName" },
        cell: textLinkCell((item) => `/view-room/${item.roomId}`, (item) => `${item.roomName} · ${item.buildingName}`),
      }),
      itemColumn.accessor("warrantyEndsOn", {
        header: t("item.warrantyEndsOn"),
        meta: { sortKey: "warrantyEndsOn", className: "whitespace-nowrap" },
        cell: (c) => {
          const day = c.getValue();
          return day ? <time dateTime={day}>{dates.day(day)}</time> : null;
        },
      }),
    ],
    [t, dates],
  );
  return <DataTable columns={columns} {...list} {...listTexts(t, "items")} />;
}
