import { useActionData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { CATEGORIES_LIST, CategoryForm } from "~/components/equipment/category-form";
import { FormPage } from "~/components/forms/form-parts";
import { addAction, screenLoader } from "~/http/screen.server";
import { CategorySchema } from "~/modules/equipment/schema";
import { createCategory } from "~/modules/equipment/service.server";

/** /add-equipment-category: name and tags; back to the categories tab with "Created". */
export const loader = screenLoader(() => null);
export const action = addAction({ schema: CategorySchema, list: CATEGORIES_LIST, create: createCategory });

export default function AddEquipmentCategory() {
  const { t } = useTranslation("equipment");
  const actionData = useActionData<typeof action>();
  return (
    <FormPage title={t("common:screens.add-equipment-category")} backTo={CATEGORIES_LIST} backLabel={t("category.back")}>
      <CategoryForm intent="create" submitLabel={t("common:actions.add")} lastResult={actionData?.result} />
    </FormPage>
  );
}

export { ScreenErrorBoundary as ErrorBoundary } from "~/components/shell/screen-error";
