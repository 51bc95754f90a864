import { useTranslation } from "react-i18next";
import { CATEGORIES_LIST, CategoryForm } from "~/components/equipment/category-form";
import { addAction, screenLoader } from "~/http/screen.server";
import { CategorySchema } from "~/modules/equipment/schema";
import { createCategory } from "~/modules/equipment/service.server";
import { AddScreen } from "~/components/forms/form-screens";

/** /add-equipment-category: name and tags; back to the categories tab with "Created". */
export const loader = screenLoader(() => null);
export const action = addAction({ schema: CategorySchema, list: CATEGORIES_LIST, create: createCategory });

export default function AddEquipmentCategory() {
  const { t } = useTranslation("equipment");
  return <AddScreen screen="add-equipment-category" backTo={CATEGORIES_LIST} backLabel={t("category.back")} form={(props) => <CategoryForm {...props} />} />;
}

export { ScreenErrorBoundary as ErrorBoundary } from "~/components/shell/screen-error";
