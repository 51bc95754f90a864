import { useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { BuildingForm, BUILDINGS_LIST } from "~/components/facilities/building-form";
import { ArchiveDialog } from "~/components/forms/archive-dialog";
import { fieldFormValues } from "~/core/fields.server";
import { screenLoader, subjectById, updateAction } from "~/http/screen.server";
import { getBuildingForEdit, listFacilityOptions } from "~/modules/facilities/queries.server";
import { BUILDING_FIELDS, BuildingSchema } from "~/modules/facilities/schema";
import { archiveBuilding, updateBuilding } from "~/modules/facilities/service.server";
import { UpdateScreen } from "~/components/forms/form-screens";

/**
 * /update-building/{id}: the building form (`intent=update`) and the archive confirmation at
 * `?dialog=archive` (`intent=archive`). An unknown id, or another entity's, is a 404 page.
 */
const building = subjectById(getBuildingForEdit);
export const loader = screenLoader(building, async ({ ctx, subject }) => ({
  building: subject,
  values: fieldFormValues(BUILDING_FIELDS, subject, BuildingSchema.shape),
  facilities: await listFacilityOptions(ctx),
}));
export const action = updateAction(building, { schema: BuildingSchema, list: BUILDINGS_LIST, update: updateBuilding, archive: archiveBuilding });

export default function UpdateBuilding() {
  const { t } = useTranslation("facilities");
  const { building, values, facilities } = useLoaderData<typeof loader>();
  return (
    <UpdateScreen
      screen="update-building"
      subtitle={t("building.shortId", { shortId: building.shortId })}
      backTo={BUILDINGS_LIST}
      backLabel={t("building.back")}
      archiveLabel={t("building.archive")}
      archiveDialog={(lastResult) => <ArchiveDialog name={building.name} details={t("building.archiveDetails")} lastResult={lastResult} />}
      form={(props) => <BuildingForm building={values} facilities={facilities} {...props} />}
    />
  );
}

export { ScreenErrorBoundary as ErrorBoundary } from "~/components/shell/screen-error";
