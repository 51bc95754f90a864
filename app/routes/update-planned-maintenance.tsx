import { useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { ArchiveDialog, ArchiveTrigger } from "~/components/forms/archive-dialog";
import { FormPage } from "~/components/forms/form-parts";
import { useResultFor } from "~/components/forms/zod-form";
import type { LocationTreeView } from "~/components/maintenance/location-picker";
import { PlannedMaintenanceForm } from "~/components/maintenance/maintenance-forms";
import type { TitledHandle } from "~/components/shell/document-title";
import { locationBrowser, locationTreeOf, withPostedTree } from "~/http/maintenance-form.server";
import { archiveIntent, formIntent, screenAction, screenLoader, subjectById } from "~/http/screen.server";
import { ARCHIVE_INTENT } from "~/lib/archive-intent";
import { PLANS_LIST } from "~/lib/maintenance-form";
import { getPlannedMaintenance, listAssigneeChoices, listMaintenanceTypeOptions } from "~/modules/maintenance/queries.server";
import { PlannedMaintenanceSchema } from "~/modules/maintenance/schema";
import { archivePlannedMaintenance, updatePlannedMaintenance } from "~/modules/maintenance/service.server";

/**
 * /update-planned-maintenance/{id}: the plan's form (`intent=update`; its future pending tasks follow)
 * and its archive confirmation at `?dialog=archive` (`intent=archive`, the retyped name). Another
 * entity's id, or an archived plan, is the "Planned maintenance not found" page.
 */
const plan = subjectById(getPlannedMaintenance, "maintenance:errors.planNotFound");

export const loader = screenLoader(plan, async ({ ctx, url, subject }) => {
  const chosen = {
    facilityIds: subject.facilities.map((f) => f.id),
    buildingIds: subject.buildings.map((b) => b.id),
    roomIds: subject.rooms.map((r) => r.id),
    equipmentItemIds: subject.equipmentItems.map((i) => i.id),
  };
  const [types, tree, assignees] = await Promise.all([listMaintenanceTypeOptions(ctx), locationTreeOf(ctx, url.searchParams, chosen), listAssigneeChoices(ctx)]);
  return { plan: subject, types, tree, assignees, timeZone: ctx.timeZone };
});

export const handle: TitledHandle = { documentTitle: (data: { plan: { name: string } }) => data.plan.name };

const save = withPostedTree(
  formIntent({ schema: PlannedMaintenanceSchema, redirectTo: PLANS_LIST, toast: "common:toast.updated" }, (value, { ctx, subject }: { ctx: Parameters<typeof updatePlannedMaintenance>[0]; subject: { id: number } }) =>
    updatePlannedMaintenance(ctx, subject.id, value),
  ),
);

export const action = screenAction({
  subject: plan,
  fallback: "browse",
  intents: { update: save, browse: locationBrowser("update", save), [ARCHIVE_INTENT]: archiveIntent(PLANS_LIST, archivePlannedMaintenance) },
});

export default function UpdatePlannedMaintenance() {
  const { t } = useTranslation("maintenance");
  const { plan, types, tree, assignees, timeZone } = useLoaderData<typeof loader>();
  const helped = useActionData<typeof action>() as { revision?: number; tree?: LocationTreeView } | undefined;
  const resultFor = useResultFor();
  return (
    <>
      <ArchiveDialog name={plan.name} lastResult={resultFor(ARCHIVE_INTENT)} details={t("plans.archiveDetails")} />
      <FormPage title={t("common:screens.update-planned-maintenance")} subtitle={plan.name} backTo={PLANS_LIST} backLabel={t("plans.back")} actions={<ArchiveTrigger>{t("plans.archive")}</ArchiveTrigger>}>
        <PlannedMaintenanceForm
          key={helped?.revision ?? 0}
          intent="update"
          values={{
            name: plan.name,
            maintenanceTypeId: plan.maintenanceTypeId,
            startDate: plan.startDate,
            endDate: plan.endDate,
            timeOfDay: plan.timeOfDay,
            occurrenceUnit: plan.occurrenceUnit,
            occurrenceInterval: plan.occurrenceInterval,
            instructions: plan.instructions,
            assigneeIds: plan.assignees.map((p) => p.id),
            facilityIds: plan.facilities.map((f) => f.id),
            buildingIds: plan.buildings.map((b) => b.id),
            roomIds: plan.rooms.map((r) => r.id),
            equipmentItemIds: plan.equipmentItems.map((i) => i.id),
          }}
          types={types}
          tree={helped?.tree ?? tree}
          assignees={assignees}
          hiddenLocations={plan.hiddenLocations}
          timeZone={timeZone}
          lastResult={resultFor("update")}
        />
      </FormPage>
    </>
  );
}

export { ScreenErrorBoundary as ErrorBoundary } from "~/components/shell/screen-error";
