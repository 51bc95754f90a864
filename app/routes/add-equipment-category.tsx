import { type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { useActionData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { CATEGORIES_LIST, CategoryForm } from "~/components/equipment/category-form";
import { FormPage } from "~/components/forms/form-parts";
import { formDataOf, submitForm } from "~/http/form-action.server";
import { serviceContext } from "~/http/route-context.server";
import { requireUser } from "~/modules/auth/guard.server";
import { CategorySchema } from "~/modules/equipment/schema";
import { createCategory } from "~/modules/equipment/service.server";

/** /add-equipment-category: name and tags; back to the categories tab with "Created". */
export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireUser(request, context);
  return null;
}

export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireUser(request, context);
  const ctx = await serviceContext({ request, context }, user);
  return submitForm(
    await formDataOf(request),
    { intent: "create", schema: CategorySchema, redirectTo: CATEGORIES_LIST, toast: "common:toast.created" },
    (category) => createCategory(ctx, category),
  );
}

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
