import { type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { useDates } from "~/lib/use-dates";
import { EQUIPMENT_TYPES_LIST, EquipmentTypeForm } from "~/components/equipment/equipment-type-form";
import { ARCHIVE_INTENT, ArchiveDialog, ArchiveTrigger } from "~/components/forms/archive-dialog";
import { FormPage } from "~/components/forms/form-parts";
import { useResultFor } from "~/components/forms/zod-form";
import { archiveAction, readFormData, submitForm, uploadsOf } from "~/http/form-action.server";
import { filesContext } from "~/http/route-context.server";
import { orErrorPage, routeId } from "~/http/route-params.server";
import { requireUser } from "~/modules/auth/guard.server";
import { getEquipmentTypeForEdit, listCategoryOptions } from "~/modules/equipment/queries.server";
import { EquipmentTypeSchema } from "~/modules/equipment/schema";
import { archiveEquipmentType, updateEquipmentType } from "~/modules/equipment/service.server";
import { listIncidentTypeOptions } from "~/modules/incident-types/queries.server";

/**
 * /update-equipment-type/{id}: the generic equipment form (files to add and to delete in the same
 * multipart post) and the archive dialog (`?dialog=archive`): its items leave the rooms and their
 * open incidents are rejected.
 */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const user = await requireUser(request, context);
  const id = routeId(params);
  const ctx = await filesContext({ request, context }, user);
  const [equipmentType, categories, incidentTypes] = await Promise.all([
    orErrorPage(getEquipmentTypeForEdit(ctx, id)),
    listCategoryOptions(ctx),
    listIncidentTypeOptions(ctx),
  ]);
  return { equipmentType, categories, incidentTypes, maxBytes: ctx.files.maxBytes };
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  const user = await requireUser(request, context);
  const id = routeId(params);
  const ctx = await filesContext({ request, context }, user);
  const formData = await readFormData(request, ctx.files.maxBytes);
  switch (formData.get("intent")) {
    case "update":
      return submitForm(
        formData,
        { intent: "update", schema: EquipmentTypeSchema, redirectTo: EQUIPMENT_TYPES_LIST, toast: "common:toast.updated" },
        async (equipmentType) => updateEquipmentType(ctx, id, { ...equipmentType, newFiles: await uploadsOf(formData, "newFiles") }),
      );
    case ARCHIVE_INTENT:
      return archiveAction(formData, (confirm) => archiveEquipmentType(ctx, id, confirm), { redirectTo: EQUIPMENT_TYPES_LIST });
    default:
      throw new Response("Bad Request", { status: 400 });
  }
}

export default function UpdateEquipmentType() {
  const { t } = useTranslation("equipment");
  const { equipmentType, categories, incidentTypes, maxBytes } = useLoaderData<typeof loader>();
  const resultFor = useResultFor();
  const dates = useDates();

  return (
    <>
      <ArchiveDialog name={equipmentType.equipmentName} lastResult={resultFor(ARCHIVE_INTENT)} details={t("type.archiveDetails")} />
      <FormPage
        title={t("common:screens.update-equipment-type")}
        backTo={EQUIPMENT_TYPES_LIST}
        backLabel={t("type.back")}
        subtitle={`${t("type.created", { date: dates.date(equipmentType.creationTimestamp) })} · ${t("type.itemCount", { count: equipmentType.itemCount })}`}
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

export { ScreenErrorBoundary as ErrorBoundary } from "~/components/shell/screen-error";
