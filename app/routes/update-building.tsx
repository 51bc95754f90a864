import { type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { BuildingForm, BUILDINGS_LIST } from "~/components/facilities/building-form";
import { ARCHIVE_INTENT, ArchiveDialog, ArchiveTrigger } from "~/components/forms/archive-dialog";
import { FormPage } from "~/components/forms/form-parts";
import { useResultFor } from "~/components/forms/zod-form";
import { archiveAction, formDataOf, submitForm } from "~/http/form-action.server";
import { serviceContext } from "~/http/route-context.server";
import { orErrorPage, routeId } from "~/http/route-params.server";
import { requireUser } from "~/modules/auth/guard.server";
import { getBuildingForEdit, listFacilityOptions } from "~/modules/facilities/queries.server";
import { BuildingSchema } from "~/modules/facilities/schema";
import { archiveBuilding, updateBuilding } from "~/modules/facilities/service.server";

/**
 * /update-building/{id}: the building form (`intent=update`) and the archive confirmation at
 * `?dialog=archive` (`intent=archive`). An unknown id, or another entity's, is a 404 page.
 */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const user = await requireUser(request, context);
  const id = routeId(params);
  const ctx = await serviceContext({ request, context }, user);
  const [building, facilities] = await Promise.all([orErrorPage(getBuildingForEdit(ctx, id)), listFacilityOptions(ctx)]);
  return { building, facilities };
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  const user = await requireUser(request, context);
  const id = routeId(params);
  const ctx = await serviceContext({ request, context }, user);
  const formData = await formDataOf(request);
  switch (formData.get("intent")) {
    case "update":
      return submitForm(
        formData,
        { intent: "update", schema: BuildingSchema, redirectTo: BUILDINGS_LIST, toast: "common:toast.updated" },
        (building) => updateBuilding(ctx, id, building),
      );
    case ARCHIVE_INTENT:
      return archiveAction(formData, (confirm) => archiveBuilding(ctx, id, confirm), { redirectTo: BUILDINGS_LIST });
    default:
      throw new Response("Bad Request", { status: 400 });
  }
}

export default function UpdateBuilding() {
  const { t } = useTranslation("facilities");
  const { building, facilities } = useLoaderData<typeof loader>();
  const resultFor = useResultFor();
  return (
    <>
      <ArchiveDialog name={building.name} details={t("building.archiveDetails")} lastResult={resultFor(ARCHIVE_INTENT)} />
      <FormPage
        title={t("common:screens.update-building")}
        subtitle={t("building.shortId", { shortId: building.shortId })}
        backTo={BUILDINGS_LIST}
        backLabel={t("building.back")}
        actions={<ArchiveTrigger>{t("building.archive")}</ArchiveTrigger>}
      >
        <BuildingForm
          building={building}
          facilities={facilities}
          intent="update"
          submitLabel={t("common:actions.save")}
          lastResult={resultFor("update")}
        />
      </FormPage>
    </>
  );
}

export { ScreenErrorBoundary as ErrorBoundary } from "~/components/shell/screen-error";
