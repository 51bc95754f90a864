import { parseWithZod } from "@conform-to/zod/v4";
import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction, redirect } from "@remix-run/node";
import { useActionData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { CATEGORIES_LIST, CategoryForm } from "~/components/equipment/category-form";
import { FormPage } from "~/components/forms/form-parts";
import { detectLocale } from "~/i18n.server";
import type { ServiceContext } from "~/lib/context.server";
import { formFailed, serviceFailed } from "~/lib/form-action.server";
import { toastHeader } from "~/lib/toast.server";
import { requireUser } from "~/modules/auth/guard.server";
import { CategorySchema } from "~/modules/equipment/schema";
import { createCategory } from "~/modules/equipment/service.server";
import { runtime } from "~/runtime.server";

/** /add-equipment-category: name and tags; back to the categories tab with "Created". */
export const meta: MetaFunction = () => [{ title: "Caretaker" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireUser(request, context);
  return null;
}

export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireUser(request, context);
  const ctx: ServiceContext = {
    db: (await runtime()).database.db,
    entityId: user.entityId,
    actor: { id: user.id, role: user.role },
    locale: await detectLocale(request),
  };
  const formData = await request.formData();
  const submission = parseWithZod(formData, { schema: CategorySchema });
  if (submission.status !== "success") return formFailed("create", submission.reply());
  try {
    await createCategory(ctx, submission.value);
  } catch (error) {
    return serviceFailed("create", (options) => submission.reply(options), error);
  }
  return redirect(CATEGORIES_LIST, {
    headers: { "Set-Cookie": await toastHeader({ type: "success", key: "common:toast.created" }) },
  });
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
