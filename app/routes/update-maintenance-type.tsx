import { useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { ArchiveDialog, ArchiveTrigger } from "~/components/forms/archive-dialog";
import { FormPage } from "~/components/forms/form-parts";
import { useResultFor } from "~/components/forms/zod-form";
import { CHECK_INTENTS, ChecklistEditor } from "~/components/maintenance/checklist-editor";
import type { LocationTreeView } from "~/components/maintenance/location-picker";
import { MaintenanceTypeForm } from "~/components/maintenance/maintenance-forms";
import type { TitledHandle } from "~/components/shell/document-title";
import { locationBrowser, locationTreeOf, typeFormValues, withPostedTree } from "~/http/maintenance-form.server";
import { archiveIntent, formIntent, screenAction, screenLoader, subjectById } from "~/http/screen.server";
import { ARCHIVE_INTENT } from "~/lib/archive-intent";
import { TYPES_LIST } from "~/lib/maintenance-form";
import { CheckRefSchema, CheckSchema } from "~/modules/maintenance/inspection-schema";
import { addMaintenanceCheck, incidentTypeChoices, listChecks, removeMaintenanceCheck, updateMaintenanceCheck } from "~/modules/maintenance/inspections.server";
import { getMaintenanceType, listAssigneeChoices } from "~/modules/maintenance/queries.server";
import { MaintenanceTypeSchema } from "~/modules/maintenance/schema";
import { archiveMaintenanceType, updateMaintenanceType } from "~/modules/maintenance/service.server";

/**
 * /update-maintenance-type/{id}: the type's form (`intent=update`) and its archive confirmation at
 * `?dialog=archive` (`intent=archive`, the retyped name; its plans are archived with it). Another
 * entity's id, or an archived type, is the "Maintenance type not found" page. Below the form, the type's
 * inspection checklist: one plain form per check (`update-check`, `remove-check`) and one to add a check
 * (`add-check`), each coming back here.
 */
const maintenanceType = subjectById(getMaintenanceType, "maintenance:errors.typeNotFound");

export const loader = screenLoader(maintenanceType, async ({ ctx, url, subject: type }) => {
  const chosen = { facilityIds: [], buildingIds: [], roomIds: type.rooms.map((r) => r.id), equipmentItemIds: type.equipmentItems.map((i) => i.id) };
  const [tree, assignees, checks, incidentTypes] = await Promise.all([
    locationTreeOf(ctx, url.searchParams, chosen),
    listAssigneeChoices(ctx),
    listChecks(ctx, type.id),
    incidentTypeChoices(ctx),
  ]);
  return { type, values: typeFormValues(type), tree, assignees, checks, incidentTypes };
});

export const handle: TitledHandle = { documentTitle: (data: { type: { name: string } }) => data.type.name };

const save = withPostedTree(
  formIntent({ schema: MaintenanceTypeSchema, redirectTo: TYPES_LIST, toast: "common:toast.updated" }, (value, { ctx, subject }: { ctx: Parameters<typeof updateMaintenanceType>[0]; subject: { id: number } }) =>
    updateMaintenanceType(ctx, subject.id, value),
  ),
);

type CheckArgs = { ctx: Parameters<typeof addMaintenanceCheck>[0]; subject: { id: number }; formData: FormData };
const here = ({ subject }: { subject: { id: number } }) => `/update-maintenance-type/${subject.id}`;
const checkIdOf = (formData: FormData) => {
  const value = formData.get("checkId");
  return typeof value === "string" && /^\d{1,9}$/.test(value) ? Number(value) : 0;
};

export const action = screenAction({
  subject: maintenanceType,
  fallback: "browse",
  intents: {
    update: save,
    browse: locationBrowser("update", save),
    [ARCHIVE_INTENT]: archiveIntent(TYPES_LIST, archiveMaintenanceType),
    [CHECK_INTENTS.add]: formIntent({ schema: CheckSchema, redirectTo: here, toast: "common:toast.created" }, (value, { ctx, subject }: CheckArgs) =>
      addMaintenanceCheck(ctx, subject.id, value),
    ),
    [CHECK_INTENTS.update]: formIntent({ schema: CheckSchema, redirectTo: here, toast: "common:toast.updated" }, (value, { ctx, subject, formData }: CheckArgs) =>
      updateMaintenanceCheck(ctx, subject.id, checkIdOf(formData), value),
    ),
    [CHECK_INTENTS.remove]: formIntent({ schema: CheckRefSchema, redirectTo: here, toast: "maintenance:checks.removed" }, (value, { ctx, subject }: CheckArgs) =>
      removeMaintenanceCheck(ctx, subject.id, value.checkId),
    ),
  },
});

export default function UpdateMaintenanceType() {
  const { t } = useTranslation("maintenance");
  const { type, values, tree, assignees, checks, incidentTypes } = useLoaderData<typeof loader>();
  const helped = useActionData<typeof action>() as { revision?: number; tree?: LocationTreeView } | undefined;
  const answered = helped as Parameters<typeof ChecklistEditor>[0]["results"];
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
      <div className="mx-auto mt-6 w-full max-w-3xl">
        <ChecklistEditor checks={checks} incidentTypes={incidentTypes} results={answered && Object.values(CHECK_INTENTS).includes(answered.intent as never) ? answered : undefined} />
      </div>
    </>
  );
}

export { ScreenErrorBoundary as ErrorBoundary } from "~/components/shell/screen-error";
