import { parseWithZod } from "@conform-to/zod/v4";
import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction, redirect } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { EQUIPMENT_TYPES_LIST, EquipmentTypeForm } from "~/components/equipment/equipment-type-form";
import { FormPage } from "~/components/forms/form-parts";
import { detectLocale } from "~/i18n.server";
import { formFailed, readFormData, serviceFailed, toUpload, uploadedFiles } from "~/lib/form-action.server";
import { intParam } from "~/lib/list-query";
import { toastHeader } from "~/lib/toast.server";
import { requireUser } from "~/modules/auth/guard.server";
import type { AuthUser } from "~/modules/auth/service.server";
import { listCategoryOptions } from "~/modules/equipment/queries.server";
import { EquipmentTypeSchema } from "~/modules/equipment/schema";
import { createEquipmentType } from "~/modules/equipment/service.server";
import type { FilesContext } from "~/modules/files/uploads.server";
import { listIncidentTypeOptions } from "~/modules/incident-types/queries.server";
import { runtime } from "~/runtime.server";

/**
 * /add-generic-equipment (`?categoryId=` preselects the category): name, category, notes, tags,
 * incident types, files and images, in one multipart post.
 */
export const meta: MetaFunction = () => [{ title: "Caretaker" }];

async function contextFor(user: AuthUser, request: Request): Promise<FilesContext> {
  const rt = await runtime();
  return {
    db: rt.database.db,
    entityId: user.entityId,
    actor: { id: user.id, role: user.role },
    locale: await detectLocale(request),
    files: rt.files,
  };
}

export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireUser(request, context);
  const ctx = await contextFor(user, request);
  const [categories, incidentTypes] = await Promise.all([listCategoryOptions(ctx), listIncidentTypeOptions(ctx)]);
  const wanted = intParam(new URL(request.url).searchParams, "categoryId");
  const categoryId = categories.some((c) => c.id === wanted) ? wanted : null;
  return { categories, incidentTypes, categoryId, maxBytes: ctx.files.maxBytes };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireUser(request, context);
  const ctx = await contextFor(user, request);
  const formData = await readFormData(request, ctx.files.maxBytes);
  const submission = parseWithZod(formData, { schema: EquipmentTypeSchema });
  if (submission.status !== "success") return formFailed("create", submission.reply());
  try {
    const newFiles = await Promise.all(uploadedFiles(formData, "newFiles").map(toUpload));
    await createEquipmentType(ctx, { ...submission.value, newFiles });
  } catch (error) {
    return serviceFailed("create", (options) => submission.reply(options), error);
  }
  return redirect(EQUIPMENT_TYPES_LIST, {
    headers: { "Set-Cookie": await toastHeader({ type: "success", key: "common:toast.created" }) },
  });
}

export default function AddGenericEquipment() {
  const { t } = useTranslation("equipment");
  const { categories, incidentTypes, categoryId, maxBytes } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  return (
    <FormPage title={t("common:screens.add-generic-equipment")} backTo={EQUIPMENT_TYPES_LIST} backLabel={t("type.back")}>
      <EquipmentTypeForm
        equipmentType={{ equipmentName: "", notes: null, categoryId, tags: [], incidentTypes: [], files: [] }}
        categories={categories}
        incidentTypes={incidentTypes}
        maxBytes={maxBytes}
        intent="create"
        submitLabel={t("common:actions.add")}
        lastResult={actionData?.result}
      />
    </FormPage>
  );
}
