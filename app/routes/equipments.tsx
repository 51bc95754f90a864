import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { CategoriesTable, EquipmentTypesTable } from "~/components/equipment/equipment-tables";
import { FilterSelect, ListToolbar } from "~/components/lists/list-toolbar";
import { buttonVariants } from "~/components/ui/button";
import { TabLinks } from "~/components/ui/tabs";
import { intParam, parseListQuery } from "~/lib/list-query";
import { tabsLoader } from "~/http/screen.server";
import { CATEGORY_SORTS, EQUIPMENT_TYPE_SORTS, listCategories, listCategoryOptions, listEquipmentTypes } from "~/modules/equipment/queries.server";

/**
 * /equipments: the equipment catalogue with two link tabs, "Generic equipment" (default; filter by
 * category with `categoryId`) and "Equipment categories" (`?tab=categories`). Server-side sort,
 * search and paging from the address, so every control is a link or a GET form (JavaScript off too).
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
          { key: "categories", to: "/equipments?tab=categories", label: t("tabs.categories") },
        ]}
      />

      {data.tab === "types" && data.types ? (
        <>
          <ListToolbar
            q={data.query.q}
            filters={
              <FilterSelect
                name="categoryId"
                label={t("types.filterCategory")}
                value={data.categoryId}
                allLabel={t("types.allCategories")}
                options={data.categoryOptions.map((c) => ({ value: c.id, label: c.name }))}
              />
            }
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
