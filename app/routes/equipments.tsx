import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { CategoriesTable, EquipmentTypesTable, ItemsTable } from "~/components/equipment/equipment-tables";
import { ListToolbar } from "~/components/lists/list-toolbar";
import { buttonVariants } from "~/components/ui/button";
import { TabLinks } from "~/components/ui/tabs";
import { intParam, parseListQuery } from "~/lib/list-query";
import { tabsLoader } from "~/http/screen.server";
import { CATEGORY_SORTS, EQUIPMENT_TYPE_SORTS, listCategories, listCategoryOptions, listEquipmentTypes } from "~/modules/equipment/queries.server";
import { ITEM_SORTS, listItemRecords, MAX_WARRANTY_DAYS } from "~/modules/equipment/item-queries.server";

/** The "warranty ending within" choices of the items' filter, in days (the address takes any from 1 to MAX_WARRANTY_DAYS). */
const WARRANTY_CHOICES = [30, 60, 90, 180, 365];

/**
 * /equipments: the equipment catalogue with three link tabs, "Generic equipment" (default; filter by
 * category with `categoryId`), "Items" (`?tab=items`: the items of the rooms the viewer reaches, each
 * linking to its screen; searched by reference, serial number, maker or model; filter `warrantyDays`:
 * warranty ending within that many days) and "Equipment categories" (`?tab=categories`). Server-side
 * sort, search and paging from the address, so every control is a link or a GET form (JavaScript off too).
 */
export const loader = tabsLoader("types", {
  types: async ({ ctx, url: { searchParams: params } }) => {
    const query = parseListQuery(params, { sorts: EQUIPMENT_TYPE_SORTS, defaultSort: "name" });
    const categoryId = intParam(params, "categoryId");
    const [page, categoryOptions] = await Promise.all([
      listEquipmentTypes(ctx, query, { categoryIds: categoryId ? [categoryId] : null }),
      listCategoryOptions(ctx),
    ]);
    return { query, categories: null, types: page, categoryId, categoryOptions };
  },
  items: async ({ ctx, url: { searchParams: params } }) => {
    const query = parseListQuery(params, { sorts: ITEM_SORTS, defaultSort: "equipmentName" });
    const asked = intParam(params, "warrantyDays");
    const warrantyDays = asked && asked <= MAX_WARRANTY_DAYS ? asked : null;
    return { query, items: await listItemRecords(ctx, query, { warrantyWithinDays: warrantyDays }), warrantyDays, categories: null, types: null, categoryId: null, categoryOptions: [] };
  },
  categories: async ({ ctx, url: { searchParams: params } }) => {
    const query = parseListQuery(params, { sorts: CATEGORY_SORTS, defaultSort: "name" });
    return { query, categories: await listCategories(ctx, query), types: null, categoryId: null, categoryOptions: [] };
  },
});

export default function Equipments() {
  const { t } = useTranslation("equipment");
  const data = useLoaderData<typeof loader>();
  const addTo = data.categoryId ? `/add-generic-equipment?categoryId=${data.categoryId}` : "/add-generic-equipment";

  return (
    <div className="grid gap-6">
      <h1 className="text-2xl font-semibold tracking-tight">{t("title")}</h1>
      <TabLinks
        label={t("tabs.label")}
        active={data.tab}
        preventScrollReset
        tabs={[
          { key: "types", to: "/equipments", label: t("tabs.types") },
          { key: "items", to: "/equipments?tab=items", label: t("tabs.items") },
          { key: "categories", to: "/equipments?tab=categories", label: t("tabs.categories") },
        ]}
      />

      {data.tab === "types" && data.types ? (
        <>
          <ListToolbar
            q={data.query.q}
            filter={{ name: "categoryId", label: t("types.filterCategory"), value: data.categoryId, allLabel: t("types.allCategories"), options: data.categoryOptions.map((c) => ({ value: c.id, label: c.name })) }}
            actions={
              data.categoryOptions.length > 0 ? (
                <Link to={addTo} className={buttonVariants()}>
                  {t("types.add")}
                </Link>
              ) : null
            }
          />
          {data.categoryOptions.length === 0 ? (
            <p className="text-sm text-muted-foreground">
              {t("types.needCategory")}{" "}
              <Link to="/add-equipment-category" className="font-medium text-primary underline-offset-4 hover:underline">
                {t("categories.add")}
              </Link>
            </p>
          ) : null}
          <EquipmentTypesTable page={data.types} query={data.query} filtered={Boolean(data.query.q || data.categoryId)} />
        </>
      ) : null}

      {data.tab === "items" && "items" in data ? (
        <>
          <ListToolbar
            q={data.query.q}
            filter={{ name: "warrantyDays", label: t("items.filterWarranty"), value: data.warrantyDays, allLabel: t("items.anyWarranty"), options: [...new Set([...WARRANTY_CHOICES, ...(data.warrantyDays ? [data.warrantyDays] : [])])].sort((a, b) => a - b).map((days) => ({ value: days, label: t("items.warrantyWithin", { count: days }) })) }}
          />
          <ItemsTable page={data.items} query={data.query} filtered={Boolean(data.query.q || data.warrantyDays)} />
        </>
      ) : null}

      {data.tab === "categories" && data.categories ? (
        <>
          <ListToolbar
            q={data.query.q}
            actions={
              <Link to="/add-equipment-category" className={buttonVariants()}>
                {t("categories.add")}
              </Link>
            }
          />
          <CategoriesTable page={data.categories} query={data.query} />
        </>
      ) : null}
    </div>
  );
}

export { ScreenErrorBoundary as ErrorBoundary } from "~/components/shell/screen-error";
