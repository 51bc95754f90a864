import { type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { CATEGORIES_LIST, CategoryForm } from "~/components/equipment/category-form";
import { ARCHIVE_INTENT, ArchiveDialog, ArchiveTrigger } from "~/components/forms/archive-dialog";
import { FormPage } from "~/components/forms/form-parts";
import { useResultFor } from "~/components/forms/zod-form";
import { archiveAction, formDataOf, submitForm } from "~/http/form-action.server";
import { serviceContext } from "~/http/route-context.server";
import { orErrorPage, routeId } from "~/http/route-params.server";
import { requireUser } from "~/modules/auth/guard.server";
import { getCategoryForEdit } from "~/modules/equipment/queries.server";
import { CategorySchema } from "~/modules/equipment/schema";
import { archiveCategory, updateCategory } from "~/modules/equipment/service.server";

/**
 * /update-category/{id}: name and tags, and the archive dialog (`?dialog=archive`), which also
 * archives the category's generic equipment (their items leave the rooms, their open incidents are
 * rejected).
 */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const user = await requireUser(request, context);
  const id = routeId(params);
  const ctx = await serviceContext({ request, context }, user);
  return { category: await orErrorPage(getCategoryForEdit(ctx, id)) };
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  const user = await requireUser(request, context);
  const id = routeId(params);
  const ctx = await serviceContext({ request, context }, user);
  const formData = await formDataOf(request);
  switch (formData.get("intent")) {
    case "update":
      return submitForm(
        formData,
        { intent: "update", schema: CategorySchema, redirectTo: CATEGORIES_LIST, toast: "common:toast.updated" },
        (category) => updateCategory(ctx, id, category),
      );
    case ARCHIVE_INTENT:
      return archiveAction(formData, (confirm) => archiveCategory(ctx, id, confirm), { redirectTo: CATEGORIES_LIST });
    default:
      throw new Response("Bad Request", { status: 400 });
  }
}

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
