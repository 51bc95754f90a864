import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { useId } from "react";
import { useTranslation } from "react-i18next";
import { FormPage } from "~/components/forms/form-parts";
import { useResultFor } from "~/components/forms/zod-form";
import type { LocationTreeView } from "~/components/maintenance/location-picker";
import { PlannedMaintenanceForm, type PlannedMaintenanceFormValues } from "~/components/maintenance/maintenance-forms";
import { Button } from "~/components/ui/button";
import { Label } from "~/components/ui/label";
import { Select } from "~/components/ui/select";
import { Options } from "~/components/ui/options";
import { locationBrowser, locationTreeOf, withPostedTree } from "~/http/maintenance-form.server";
import { formIntent, screenAction, screenLoader } from "~/http/screen.server";
import { intParam } from "~/lib/list-query";
import { PLANS_LIST } from "~/lib/maintenance-form";
import { listAssigneeChoices, listMaintenanceTypeOptions, newPlannedMaintenanceValues } from "~/modules/maintenance/queries.server";
import { PlannedMaintenanceSchema } from "~/modules/maintenance/schema";
import { createPlannedMaintenance } from "~/modules/maintenance/service.server";
import { NeedMaintenanceType } from "~/components/maintenance/need-maintenance-type";

/**
 * /add-planned-maintenance: a new plan (SPEC.md sections 3 and 5). `?type=<id>` starts from that
 * maintenance type's defaults (name, occurrence, instructions, assignees, rooms and equipment items);
 * a small GET form above the plan's form picks it without JavaScript. Save posts `intent=create`; on
 * success back to the list with "Created".
 */
export const loader = screenLoader(async ({ ctx, url }) => {
  const values: PlannedMaintenanceFormValues = await newPlannedMaintenanceValues(ctx, intParam(url.searchParams, "type"));
  const [types, tree, assignees] = await Promise.all([
    listMaintenanceTypeOptions(ctx),
    locationTreeOf(ctx, url.searchParams, { facilityIds: [], buildingIds: [], roomIds: values.roomIds, equipmentItemIds: values.equipmentItemIds }),
    listAssigneeChoices(ctx),
  ]);
  return { values, types, tree, assignees, timeZone: ctx.timeZone };
});

const save = withPostedTree(
  formIntent({ schema: PlannedMaintenanceSchema, redirectTo: PLANS_LIST, toast: "common:toast.created" }, (value, { ctx }) => createPlannedMaintenance(ctx, value)),
);

export const action = screenAction({ fallback: "browse", intents: { create: save, browse: locationBrowser("create", save) } });

function StartFromType({ types, chosen }: { types: { id: number; name: string }[]; chosen: number | null }) {
  const { t } = useTranslation("maintenance");
  const id = useId();
  return (
    <Form method="get" className="flex flex-col gap-2 rounded-md border p-3 sm:flex-row sm:items-end">
      <div className="grid flex-1 gap-1.5">
        <Label htmlFor={id}>{t("form.startFromType")}</Label>
        <Select id={id} name="type" defaultValue={chosen ? String(chosen) : ""}>
          <option value="">{t("form.chooseType")}</option>
          <Options values={types} />
        </Select>
      </div>
      <Button type="submit" variant="secondary">
        {t("form.useDefaults")}
      </Button>
    </Form>
  );
}

export default function AddPlannedMaintenance() {
  const { t } = useTranslation("maintenance");
  const { values, types, tree, assignees, timeZone } = useLoaderData<typeof loader>();
  const helped = useActionData<typeof action>() as { revision?: number; tree?: LocationTreeView } | undefined;
  const resultFor = useResultFor();
  return (
    <FormPage title={t("common:screens.add-planned-maintenance")} backTo={PLANS_LIST} backLabel={t("plans.back")}>
      {types.length === 0 ? (
        <NeedMaintenanceType />
      ) : (
        <StartFromType types={types} chosen={values.maintenanceTypeId} />
      )}
      <PlannedMaintenanceForm
        key={`${values.maintenanceTypeId ?? 0}-${helped?.revision ?? 0}`}
        intent="create"
        values={values}
        types={types}
        tree={helped?.tree ?? tree}
        assignees={assignees}
        timeZone={timeZone}
        lastResult={resultFor("create")}
      />
    </FormPage>
  );
}

export { ScreenErrorBoundary as ErrorBoundary } from "~/components/shell/screen-error";
