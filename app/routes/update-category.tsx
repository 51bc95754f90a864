import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { CATEGORIES_LIST, CategoryForm } from "~/components/equipment/category-form";
import { ARCHIVE_INTENT, ArchiveDialog, ArchiveTrigger } from "~/components/forms/archive-dialog";
import { FormPage } from "~/components/forms/form-parts";
import { useResultFor } from "~/components/forms/zod-form";
import { screenLoader, subjectById, updateAction } from "~/http/screen.server";
import { getCategoryForEdit } from "~/modules/equipment/queries.server";
import { CategorySchema } from "~/modules/equipment/schema";
import { archiveCategory, updateCategory } from "~/modules/equipment/service.server";

/**
 * /update-category/{id}: name and tags, and the archive dialog (`?dialog=archive`), which also
 * archives the category's generic equipment (their items leave the rooms, their open incidents are
 * rejected).
 */
const category = subjectById(getCategoryForEdit);
export const loader = screenLoader(category, ({ subject }) => ({ category: subject }));
export const action = updateAction(category, { schema: CategorySchema, list: CATEGORIES_LIST, update: updateCategory, archive: archiveCategory });

export default function UpdateCategory() {
  const { t } = useTranslation("equipment");
  const { category } = useLoaderData<typeof loader>();
  const resultFor = useResultFor();

  return (
    <>
      <ArchiveDialog name={category.categoryName} lastResult={resultFor(ARCHIVE_INTENT)} details={t("category.archiveDetails")} />
      <FormPage
        title={t("common:screens.update-category")}
        backTo={CATEGORIES_LIST}
        backLabel={t("category.back")}
        subtitle={
          <>
            <Link to={`/equipments?categoryId=${category.id}`} className="font-medium text-primary underline-offset-4 hover:underline">
              {t("category.equipmentCount", { count: category.equipmentCount })}
            </Link>
            {" · "}
            <Link to={`/add-generic-equipment?categoryId=${category.id}`} className="font-medium text-primary underline-offset-4 hover:underline">
              {t("category.addEquipment")}
            </Link>
          </>
        }
        actions={<ArchiveTrigger>{t("category.archive")}</ArchiveTrigger>}
      >
        <CategoryForm
          category={category}
          intent="update"
          submitLabel={t("common:actions.save")}
          lastResult={resultFor("update")}
        />
      </FormPage>
    </>
  );
}

export { ScreenErrorBoundary as ErrorBoundary } from "~/components/shell/screen-error";
