import { parseWithZod } from "@conform-to/zod/v4";
import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction, redirect } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { formatDate } from "~/components/equipment/equipment-tables";
import { EQUIPMENT_TYPES_LIST, EquipmentTypeForm } from "~/components/equipment/equipment-type-form";
import { ARCHIVE_INTENT, ArchiveDialog, ArchiveTrigger } from "~/components/forms/archive-dialog";
import { FormPage } from "~/components/forms/form-parts";
import { detectLocale } from "~/i18n.server";
import { isDomainError } from "~/lib/errors";
import { formFailed, readFormData, serviceFailed, toUpload, uploadedFiles } from "~/lib/form-action.server";
import { toastHeader } from "~/lib/toast.server";
import { requireUser } from "~/modules/auth/guard.server";
import type { AuthUser } from "~/modules/auth/service.server";
import { getEquipmentType, listCategoryOptions } from "~/modules/equipment/queries.server";
import { EquipmentTypeSchema } from "~/modules/equipment/schema";
import { archiveEquipmentType, updateEquipmentType } from "~/modules/equipment/service.server";
import { ArchiveSchema } from "~/modules/facilities/schema";
import type { FilesContext } from "~/modules/files/uploads.server";
import { listIncidentTypeOptions } from "~/modules/incident-types/queries.server";
import { runtime } from "~/runtime.server";

/**
 * /update-equipment-type/{id}: the generic equipment form (files to add and to delete in the same
 * multipart post) and the archive dialog (`?dialog=archive`): its items leave the rooms and their
 * open incidents are rejected.
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

/** The generic equipment id of the address; anything else is not found. */
function equipmentTypeId(param: string | undefined): number {
  if (!param || !/^\d{1,9}$/.test(param)) throw new Response("Not Found", { status: 404 });
  return Number(param);
}

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const user = await requireUser(request, context);
  const ctx = await contextFor(user, request);
  try {
    const [equipmentType, categories, incidentTypes] = await Promise.all([
      getEquipmentType(ctx, equipmentTypeId(params.id)),
      listCategoryOptions(ctx),
      listIncidentTypeOptions(ctx),
    ]);
    return { equipmentType, categories, incidentTypes, maxBytes: ctx.files.maxBytes };
  } catch (error) {
    if (isDomainError(error) && error.status === 404) throw new Response("Not Found", { status: 404 });
    throw error;
  }
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  const user = await requireUser(request, context);
  const ctx = await contextFor(user, request);
  const id = equipmentTypeId(params.id);
  const formData = await readFormData(request, ctx.files.maxBytes);
  const intent = formData.get("intent");

  if (intent === ARCHIVE_INTENT) {
    const submission = parseWithZod(formData, { schema: ArchiveSchema });
    if (submission.status !== "success") return formFailed(ARCHIVE_INTENT, submission.reply());
    try {
      await archiveEquipmentType(ctx, id, { confirmName: submission.value.confirmName });
    } catch (error) {
      return serviceFailed(ARCHIVE_INTENT, (options) => submission.reply(options), error);
    }
    return redirect(EQUIPMENT_TYPES_LIST, {
      headers: { "Set-Cookie": await toastHeader({ type: "success", key: "common:toast.archived" }) },
    });
  }
  if (intent !== "update") throw new Response("Bad Request", { status: 400 });

  const submission = parseWithZod(formData, { schema: EquipmentTypeSchema });
  if (submission.status !== "success") return formFailed("update", submission.reply());
  try {
    const newFiles = await Promise.all(uploadedFiles(formData, "newFiles").map(toUpload));
    await updateEquipmentType(ctx, id, { ...submission.value, newFiles });
  } catch (error) {
    return serviceFailed("update", (options) => submission.reply(options), error);
  }
  return redirect(EQUIPMENT_TYPES_LIST, {
    headers: { "Set-Cookie": await toastHeader({ type: "success", key: "common:toast.updated" }) },
  });
}

export default function UpdateEquipmentType() {
  const { t, i18n } = useTranslation("equipment");
  const { equipmentType, categories, incidentTypes, maxBytes } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const resultFor = (intent: string) => (actionData?.intent === intent ? actionData.result : undefined);

  return (
    <>
      <ArchiveDialog name={equipmentType.equipmentName} lastResult={resultFor(ARCHIVE_INTENT)} details={t("type.archiveDetails")} />
      <FormPage
        title={t("common:screens.update-equipment-type")}
        backTo={EQUIPMENT_TYPES_LIST}
        backLabel={t("type.back")}
        subtitle={`${t("type.created", { date: formatDate(equipmentType.creationTimestamp, i18n.language) })} · ${t("type.itemCount", { count: equipmentType.itemCount })}`}
        actions={<ArchiveTrigger>{t("type.archive")}</ArchiveTrigger>}
      >
        <EquipmentTypeForm
          equipmentType={{
            equipmentName: equipmentType.equipmentName,
            notes: equipmentType.notes,
            categoryId: equipmentType.categoryId,
            tags: equipmentType.tags.map((tag) => tag.label),
            incidentTypes: equipmentType.incidentTypes.map((type) => type.id),
            files: equipmentType.files,
          }}
          categories={categories}
          incidentTypes={incidentTypes}
          maxBytes={maxBytes}
          intent="update"
          submitLabel={t("common:actions.save")}
          lastResult={resultFor("update")}
        />
      </FormPage>
    </>
  );
}
