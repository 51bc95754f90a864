import { useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { FormPage } from "~/components/forms/form-parts";
import { useResultFor } from "~/components/forms/zod-form";
import { EMPTY_TYPE, MaintenanceTypeForm } from "~/components/maintenance/maintenance-forms";
import type { LocationTreeView } from "~/components/maintenance/location-picker";
import { locationBrowser, locationTreeOf, NO_LOCATIONS, withPostedTree } from "~/http/maintenance-form.server";
import { formIntent, screenAction, screenLoader } from "~/http/screen.server";
import { TYPES_LIST } from "~/lib/maintenance-form";
import { listAssigneeChoices } from "~/modules/maintenance/queries.server";
import { MaintenanceTypeSchema } from "~/modules/maintenance/schema";
import { createMaintenanceType } from "~/modules/maintenance/service.server";

/**
 * /add-maintenance-type: name, tags, occurrence, instructions and the defaults of its plans (assignees,
 * rooms and equipment items from the location tree). Save posts `intent=create`; the location picker's
 * buttons answer the form again, nothing saved. On success back to the types with "Created".
 */
export const loader = screenLoader(async ({ ctx, url }) => {
  const [tree, assignees] = await Promise.all([locationTreeOf(ctx, url.searchParams, NO_LOCATIONS), listAssigneeChoices(ctx)]);
  return { tree, assignees };
});

const save = withPostedTree(formIntent({ schema: MaintenanceTypeSchema, redirectTo: TYPES_LIST, toast: "common:toast.created" }, (value, { ctx }) => createMaintenanceType(ctx, value)));

export const action = screenAction({ fallback: "browse", intents: { create: save, browse: locationBrowser("create", save) } });

export default function AddMaintenanceType() {
  const { t } = useTranslation("maintenance");
  const { tree, assignees } = useLoaderData<typeof loader>();
  const helped = useActionData<typeof action>() as { revision?: number; tree?: LocationTreeView } | undefined;
  const resultFor = useResultFor();
  return (
    <FormPage title={t("common:screens.add-maintenance-type")} backTo={TYPES_LIST} backLabel={t("types.back")}>
      <MaintenanceTypeForm key={helped?.revision ?? 0} intent="create" values={EMPTY_TYPE} tree={helped?.tree ?? tree} assignees={assignees} lastResult={resultFor("create")} />
    </FormPage>
  );
}

export { ScreenErrorBoundary as ErrorBoundary } from "~/components/shell/screen-error";
