import { useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { ArchiveDialog, ArchiveTrigger } from "~/components/forms/archive-dialog";
import { FormPage } from "~/components/forms/form-parts";
import { useResultFor } from "~/components/forms/zod-form";
import type { LocationTreeView } from "~/components/maintenance/location-picker";
import { MaintenanceTypeForm } from "~/components/maintenance/maintenance-forms";
import type { TitledHandle } from "~/components/shell/document-title";
import { locationBrowser, locationTreeOf, typeFormValues, withPostedTree } from "~/http/maintenance-form.server";
import { archiveIntent, formIntent, screenAction, screenLoader, subjectById } from "~/http/screen.server";
import { ARCHIVE_INTENT } from "~/lib/archive-intent";
import { TYPES_LIST } from "~/lib/maintenance-form";
import { getMaintenanceType, listAssigneeChoices } from "~/modules/maintenance/queries.server";
import { MaintenanceTypeSchema } from "~/modules/maintenance/schema";
import { archiveMaintenanceType, updateMaintenanceType } from "~/modules/maintenance/service.server";

/**
 * /update-maintenance-type/{id}: the type's form (`intent=update`) and its archive confirmation at
 * `?dialog=archive` (`intent=archive`, the retyped name; its plans are archived with it). Another
 * entity's id, or an archived type, is the "Maintenance type not found" page.
 */
const maintenanceType = subjectById(getMaintenanceType, "maintenance:errors.typeNotFound");

export const loader = screenLoader(maintenanceType, async ({ ctx, url, subject: type }) => {
  const chosen = { facilityIds: [], buildingIds: [], roomIds: type.rooms.map((r) => r.id), equipmentItemIds: type.equipmentItems.map((i) => i.id) };
  const [tree, assignees] = await Promise.all([locationTreeOf(ctx, url.searchParams, chosen), listAssigneeChoices(ctx)]);
  return { type, values: typeFormValues(type), tree, assignees };
});

export const handle: TitledHandle = { documentTitle: (data: { type: { name: string } }) => data.type.name };

const save = withPostedTree(
  formIntent({ schema: MaintenanceTypeSchema, redirectTo: TYPES_LIST, toast: "common:toast.updated" }, (value, { ctx, subject }: { ctx: Parameters<typeof updateMaintenanceType>[0]; subject: { id: number } }) =>
    updateMaintenanceType(ctx, subject.id, value),
  ),
);

export const action = screenAction({
  subject: maintenanceType,
  fallback: "browse",
  intents: { update: save, browse: locationBrowser("update", save), [ARCHIVE_INTENT]: archiveIntent(TYPES_LIST, archiveMaintenanceType) },
});

export default function UpdateMaintenanceType() {
  const { t } = useTranslation("maintenance");
  const { type, values, tree, assignees } = useLoaderData<typeof loader>();
  const helped = useActionData<typeof action>() as { revision?: number; tree?: LocationTreeView } | undefined;
  const resultFor = useResultFor();
  return (
    <>
      <ArchiveDialog name={type.name} lastResult={resultFor(ARCHIVE_INTENT)} details={type.plansCount ? t("types.archiveDetails", { count: type.plansCount }) : undefined} />
      <FormPage title={t("common:screens.update-maintenance-type")} subtitle={type.name} backTo={TYPES_LIST} backLabel={t("types.back")} actions={<ArchiveTrigger>{t("types.archive")}</ArchiveTrigger>}>
        <MaintenanceTypeForm
          key={helped?.revision ?? 0}
          intent="update"
          values={values}
          tree={helped?.tree ?? tree}
          assignees={assignees}
          lastResult={resultFor("update")}
        />
      </FormPage>
    </>
  );
}

export { ScreenErrorBoundary as ErrorBoundary } from "~/components/shell/screen-error";
