import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { CATEGORIES_LIST, CategoryForm } from "~/components/equipment/category-form";
import { ArchiveDialog } from "~/components/forms/archive-dialog";
import { fieldFormValues } from "~/core/fields.server";
import { screenLoader, subjectById, updateAction } from "~/http/screen.server";
import { getCategoryForEdit } from "~/modules/equipment/queries.server";
import { CATEGORY_FIELDS, CategorySchema } from "~/modules/equipment/schema";
import { archiveCategory, updateCategory } from "~/modules/equipment/service.server";
import { UpdateScreen } from "~/components/forms/form-screens";

/**
 * /update-category/{id}: name and tags, and the archive dialog (`?dialog=archive`), which also
 * archives the category's generic equipment (their items leave the rooms, their open incidents are
 * rejected).
 */
const category = subjectById(getCategoryForEdit);
export const loader = screenLoader(category, ({ subject }) => ({ category: subject, values: fieldFormValues(CATEGORY_FIELDS, subject, CategorySchema.shape) }));
export const action = updateAction(category, { schema: CategorySchema, list: CATEGORIES_LIST, update: updateCategory, archive: archiveCategory });

export default function UpdateCategory() {
  const { t } = useTranslation("equipment");
  const { category, values } = useLoaderData<typeof loader>();
  const link = "font-medium text-primary underline-offset-4 hover:underline";
  return (
    <UpdateScreen
      screen="update-category"
      subtitle={
        <>
          <Link to={`/equipments?categoryId=${category.id}`} className={link}>
            {t("category.equipmentCount", { count: category.equipmentCount })}
          </Link>
          {" · "}
          <Link to={`/add-generic-equipment?categoryId=${category.id}`} className={link}>
            {t("category.addEquipment")}
          </Link>
        </>
      }
      backTo={CATEGORIES_LIST}
      backLabel={t("category.back")}
      archiveLabel={t("category.archive")}
      archiveDialog={(lastResult) => <ArchiveDialog name={category.categoryName} details={t("category.archiveDetails")} lastResult={lastResult} />}
      form={(props) => <CategoryForm category={values} {...props} />}
    />
  );
}

export { ScreenErrorBoundary as ErrorBoundary } from "~/components/shell/screen-error";
