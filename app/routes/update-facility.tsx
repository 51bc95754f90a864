import { type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { FACILITIES_LIST, FacilityForm } from "~/components/facilities/facility-form";
import { ARCHIVE_INTENT, ArchiveDialog, ArchiveTrigger } from "~/components/forms/archive-dialog";
import { FormPage } from "~/components/forms/form-parts";
import { useResultFor } from "~/components/forms/zod-form";
import { archiveAction, formDataOf, submitForm } from "~/http/form-action.server";
import { serviceContext } from "~/http/route-context.server";
import { orErrorPage, routeId } from "~/http/route-params.server";
import { requireUser } from "~/modules/auth/guard.server";
import { getFacilityForEdit } from "~/modules/facilities/queries.server";
import { FacilitySchema } from "~/modules/facilities/schema";
import { archiveFacility, updateFacility } from "~/modules/facilities/service.server";

/**
 * /update-facility/{id}: the facility form (`intent=update`) and the archive confirmation at
 * `?dialog=archive` (`intent=archive`). An unknown id, or another entity's, is a 404 page.
 */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const user = await requireUser(request, context);
  const id = routeId(params);
  const ctx = await serviceContext({ request, context }, user);
  return { facility: await orErrorPage(getFacilityForEdit(ctx, id)) };
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
        { intent: "update", schema: FacilitySchema, redirectTo: FACILITIES_LIST, toast: "common:toast.updated" },
        (facility) => updateFacility(ctx, id, facility),
      );
    case ARCHIVE_INTENT:
      return archiveAction(formData, (confirm) => archiveFacility(ctx, id, confirm), { redirectTo: FACILITIES_LIST });
    default:
      throw new Response("Bad Request", { status: 400 });
  }
}

export default function UpdateFacility() {
  const { t } = useTranslation("facilities");
  const { facility } = useLoaderData<typeof loader>();
  const resultFor = useResultFor();
  return (
    <>
      <ArchiveDialog name={facility.name} details={t("facility.archiveDetails")} lastResult={resultFor(ARCHIVE_INTENT)} />
      <FormPage
        title={t("common:screens.update-facility")}
        subtitle={t("facility.shortId", { shortId: facility.shortId })}
        backTo={FACILITIES_LIST}
        backLabel={t("facility.back")}
        actions={<ArchiveTrigger>{t("facility.archive")}</ArchiveTrigger>}
      >
        <FacilityForm facility={facility} intent="update" submitLabel={t("common:actions.save")} lastResult={resultFor("update")} />
      </FormPage>
    </>
  );
}

export { ScreenErrorBoundary as ErrorBoundary } from "~/components/shell/screen-error";
