import { useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { EQUIPMENT_TYPES_LIST, EquipmentTypeForm } from "~/components/equipment/equipment-type-form";
import { uploadsOf } from "~/http/form-action.server";
import { intParam } from "~/lib/list-query";
import { addAction, screenLoader } from "~/http/screen.server";
import { listCategoryOptions } from "~/modules/equipment/queries.server";
import { EquipmentTypeSchema } from "~/modules/equipment/schema";
import { createEquipmentType } from "~/modules/equipment/service.server";
import { listIncidentTypeOptions } from "~/modules/incident-types/queries.server";
import { AddScreen } from "~/components/forms/form-screens";

/**
 * /add-generic-equipment (`?categoryId=` preselects the category): name, category, notes, tags,
 * incident types, files and images, in one multipart post.
 */
export const loader = screenLoader(async ({ ctx, url }) => {
  const [categories, incidentTypes] = await Promise.all([listCategoryOptions(ctx), listIncidentTypeOptions(ctx)]);
  const wanted = intParam(url.searchParams, "categoryId");
  const categoryId = categories.some((c) => c.id === wanted) ? wanted : null;
  return { categories, incidentTypes, categoryId, maxBytes: ctx.files.maxBytes };
});

export const action = addAction({
  schema: EquipmentTypeSchema,
  list: EQUIPMENT_TYPES_LIST,
  files: true,
  create: async (ctx, value, formData) => createEquipmentType(ctx, { ...value, newFiles: await uploadsOf(formData, "newFiles") }),
});

export default function AddGenericEquipment() {
  const { t } = useTranslation("equipment");
  const { categories, incidentTypes, categoryId, maxBytes } = useLoaderData<typeof loader>();
  return (
    <AddScreen
      screen="add-generic-equipment"
      backTo={EQUIPMENT_TYPES_LIST}
      backLabel={t("type.back")}
      form={(props) => (
        <EquipmentTypeForm
          equipmentType={{ equipmentName: "", notes: null, categoryId, tags: [], incidentTypes: [], files: [] }}
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
