import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { BuildingForm, BUILDINGS_LIST } from "~/components/facilities/building-form";
import { FormPage } from "~/components/forms/form-parts";
import { Alert } from "~/components/ui/alert";
import { intParam } from "~/lib/list-query";
import { addAction, screenLoader } from "~/http/screen.server";
import { listFacilityOptions } from "~/modules/facilities/queries.server";
import { BuildingSchema } from "~/modules/facilities/schema";
import { createBuilding } from "~/modules/facilities/service.server";

/** /add-building (`?facilityId=` preselects the facility): on success back to the buildings list. */
export const loader = screenLoader(async ({ ctx, url }) => {
  const facilities = await listFacilityOptions(ctx);
  const wanted = intParam(url.searchParams, "facilityId");
  const facilityId = facilities.some((f) => f.id === wanted) ? wanted : facilities.length === 1 ? facilities[0].id : null;
  return { facilities, facilityId };
});

export const action = addAction({ schema: BuildingSchema, list: BUILDINGS_LIST, create: createBuilding });

export default function AddBuilding() {
  const { t } = useTranslation("facilities");
  const { facilities, facilityId } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  return (
    <FormPage title={t("common:screens.add-building")} backTo={BUILDINGS_LIST} backLabel={t("building.back")}>
      {facilities.length === 0 ? (
        <Alert className="mb-6">
          <p>
            {t("building.noFacility")}{" "}
            <Link to="/add-facility" className="font-medium text-primary underline-offset-4 hover:underline">
              {t("facilities.add")}
            </Link>
          </p>
        </Alert>
      ) : null}
      <BuildingForm
        building={{ facilityId }}
        facilities={facilities}
        intent="create"
        submitLabel={t("common:actions.add")}
        lastResult={actionData?.result}
      />
    </FormPage>
  );
}

export { ScreenErrorBoundary as ErrorBoundary } from "~/components/shell/screen-error";
