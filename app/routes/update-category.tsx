import { parseWithZod } from "@conform-to/zod/v4";
import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction, redirect } from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { CATEGORIES_LIST, CategoryForm } from "~/components/equipment/category-form";
import { ARCHIVE_INTENT, ArchiveDialog, ArchiveTrigger } from "~/components/forms/archive-dialog";
import { FormPage } from "~/components/forms/form-parts";
import { detectLocale } from "~/i18n.server";
import type { ServiceContext } from "~/lib/context.server";
import { isDomainError } from "~/lib/errors";
import { formFailed, serviceFailed } from "~/lib/form-action.server";
import { toastHeader } from "~/lib/toast.server";
import type { AuthUser } from "~/modules/auth/service.server";
import { requireUser } from "~/modules/auth/guard.server";
import { getCategory } from "~/modules/equipment/queries.server";
import { CategorySchema } from "~/modules/equipment/schema";
import { archiveCategory, updateCategory } from "~/modules/equipment/service.server";
import { ArchiveSchema } from "~/modules/facilities/schema";
import { runtime } from "~/runtime.server";

/**
 * /update-category/{id}: name and tags, and the archive dialog (`?dialog=archive`), which also
 * archives the category's generic equipment (their items leave the rooms, their open incidents are
 * rejected).
 */
export const meta: MetaFunction = () => [{ title: "Caretaker" }];

async function contextFor(user: AuthUser, request: Request): Promise<ServiceContext> {
  return {
    db: (await runtime()).database.db,
    entityId: user.entityId,
    actor: { id: user.id, role: user.role },
    locale: await detectLocale(request),
  };
}

/** The category id of the address; anything else is not found. */
function categoryId(param: string | undefined): number {
  if (!param || !/^\d{1,9}$/.test(param)) throw new Response("Not Found", { status: 404 });
  return Number(param);
}

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const user = await requireUser(request, context);
  const ctx = await contextFor(user, request);
  try {
    return { category: await getCategory(ctx, categoryId(params.id)) };
  } catch (error) {
    if (isDomainError(error) && error.status === 404) throw new Response("Not Found", { status: 404 });
    throw error;
  }
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  const user = await requireUser(request, context);
  const ctx = await contextFor(user, request);
  const id = categoryId(params.id);
  const formData = await request.formData();
  const intent = formData.get("intent");

  if (intent === ARCHIVE_INTENT) {
    const submission = parseWithZod(formData, { schema: ArchiveSchema });
    if (submission.status !== "success") return formFailed(ARCHIVE_INTENT, submission.reply());
    try {
      await archiveCategory(ctx, id, { confirmName: submission.value.confirmName });
    } catch (error) {
      return serviceFailed(ARCHIVE_INTENT, (options) => submission.reply(options), error);
    }
    return redirect(CATEGORIES_LIST, {
      headers: { "Set-Cookie": await toastHeader({ type: "success", key: "common:toast.archived" }) },
    });
  }
  if (intent !== "update") throw new Response("Bad Request", { status: 400 });

  const submission = parseWithZod(formData, { schema: CategorySchema });
  if (submission.status !== "success") return formFailed("update", submission.reply());
  try {
    await updateCategory(ctx, id, submission.value);
  } catch (error) {
    return serviceFailed("update", (options) => submission.reply(options), error);
  }
  return redirect(CATEGORIES_LIST, {
    headers: { "Set-Cookie": await toastHeader({ type: "success", key: "common:toast.updated" }) },
  });
}

export default function UpdateCategory() {
  const { t } = useTranslation("equipment");
  const { category } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const resultFor = (intent: string) => (actionData?.intent === intent ? actionData.result : undefined);

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
