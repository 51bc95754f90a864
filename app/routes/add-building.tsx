import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { BuildingForm, BUILDINGS_LIST } from "~/components/facilities/building-form";
import { Alert } from "~/components/ui/alert";
import { intParam } from "~/lib/list-query";
import { addAction, screenLoader } from "~/http/screen.server";
import { listFacilityOptions } from "~/modules/facilities/queries.server";
import { BuildingSchema } from "~/modules/facilities/schema";
import { createBuilding } from "~/modules/facilities/service.server";
import { AddScreen } from "~/components/forms/form-screens";

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
  const notice =
    facilities.length === 0 ? (
      <Alert className="mb-6">
        <p>
          {t("building.noFacility")}{" "}
          <Link to="/add-facility" className="font-medium text-primary underline-offset-4 hover:underline">
            {t("facilities.add")}
          </Link>
        </p>
      </Alert>
    ) : null;
  return (
    <AddScreen
      screen="add-building"
      backTo={BUILDINGS_LIST}
      backLabel={t("building.back")}
      notice={notice}
      form={(props) => <BuildingForm building={{ facilityId }} facilities={facilities} {...props} />}
    />
  );
}

export { ScreenErrorBoundary as ErrorBoundary } from "~/components/shell/screen-error";
