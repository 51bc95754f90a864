import { useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { useDates } from "~/lib/use-dates";
import { EQUIPMENT_TYPES_LIST, EquipmentTypeForm } from "~/components/equipment/equipment-type-form";
import { ArchiveDialog } from "~/components/forms/archive-dialog";
import { uploadsOf } from "~/http/form-action.server";
import { fieldFormValues } from "~/core/fields.server";
import { screenLoader, subjectById, updateAction } from "~/http/screen.server";
import { getEquipmentTypeForEdit, listCategoryOptions } from "~/modules/equipment/queries.server";
import { EQUIPMENT_TYPE_FIELDS, EquipmentTypeFieldsSchema, EquipmentTypeSchema } from "~/modules/equipment/schema";
import { archiveEquipmentType, updateEquipmentType } from "~/modules/equipment/service.server";
import { listIncidentTypeOptions } from "~/modules/incident-types/queries.server";
import { UpdateScreen } from "~/components/forms/form-screens";

/**
 * /update-equipment-type/{id}: the generic equipment form (files to add and to delete in the same
 * multipart post) and the archive dialog (`?dialog=archive`): its items leave the rooms and their
 * open incidents are rejected.
 */
const equipmentType = subjectById(getEquipmentTypeForEdit);

export const loader = screenLoader(equipmentType, async ({ ctx, subject }) => {
  const [categories, incidentTypes] = await Promise.all([listCategoryOptions(ctx), listIncidentTypeOptions(ctx)]);
  // Its declared fields; the detail's tags carry their labels.
  const values = { ...fieldFormValues(EQUIPMENT_TYPE_FIELDS, subject, EquipmentTypeFieldsSchema.shape), tags: subject.tags.map((tag) => tag.label) };
  return { equipmentType: subject, values, categories, incidentTypes, maxBytes: ctx.files.maxBytes };
});

export const action = updateAction(equipmentType, {
  schema: EquipmentTypeSchema,
  list: EQUIPMENT_TYPES_LIST,
  files: true,
  update: async (ctx, id, value, formData) => updateEquipmentType(ctx, id, { ...value, newFiles: await uploadsOf(formData, "newFiles") }),
  archive: archiveEquipmentType,
});

export default function UpdateEquipmentType() {
  const { t } = useTranslation("equipment");
  const { equipmentType, values, categories, incidentTypes, maxBytes } = useLoaderData<typeof loader>();
  const dates = useDates();
  return (
    <UpdateScreen
      screen="update-equipment-type"
      subtitle={`${t("type.created", { date: dates.date(equipmentType.creationTimestamp) })} · ${t("type.itemCount", { count: equipmentType.itemCount })}`}
      backTo={EQUIPMENT_TYPES_LIST}
      backLabel={t("type.back")}
      archiveLabel={t("type.archive")}
      archiveDialog={(lastResult) => <ArchiveDialog name={equipmentType.equipmentName} details={t("type.archiveDetails")} lastResult={lastResult} />}
      form={(props) => (
        <EquipmentTypeForm
          equipmentType={{
            ...values,
            incidentTypes: equipmentType.incidentTypes.map((type) => type.id),
            files: equipmentType.files,
          }}
          categories={categories}
          incidentTypes={incidentTypes}
          maxBytes={maxBytes}
          {...props}
        />
      )}
    />
  );
}

export { ScreenErrorBoundary as ErrorBoundary } from "~/components/shell/screen-error";
