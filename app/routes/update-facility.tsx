import { useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { FACILITIES_LIST, FacilityForm } from "~/components/facilities/facility-form";
import { ArchiveDialog } from "~/components/forms/archive-dialog";
import { fieldFormValues } from "~/core/fields.server";
import { screenLoader, subjectById, updateAction } from "~/http/screen.server";
import { getFacilityForEdit } from "~/modules/facilities/queries.server";
import { FACILITY_FIELDS, FacilitySchema } from "~/modules/facilities/schema";
import { archiveFacility, updateFacility } from "~/modules/facilities/service.server";
import { UpdateScreen } from "~/components/forms/form-screens";

/**
 * /update-facility/{id}: the facility form (`intent=update`) and the archive confirmation at
 * `?dialog=archive` (`intent=archive`). An unknown id, or another entity's, is a 404 page.
 */
const facility = subjectById(getFacilityForEdit);
export const loader = screenLoader(facility, ({ subject }) => ({ facility: subject, values: fieldFormValues(FACILITY_FIELDS, subject, FacilitySchema.shape) }));
export const action = updateAction(facility, { schema: FacilitySchema, list: FACILITIES_LIST, update: updateFacility, archive: archiveFacility });

export default function UpdateFacility() {
  const { t } = useTranslation("facilities");
  const { facility, values } = useLoaderData<typeof loader>();
  return (
    <UpdateScreen
      screen="update-facility"
      subtitle={t("facility.shortId", { shortId: facility.shortId })}
      backTo={FACILITIES_LIST}
      backLabel={t("facility.back")}
      archiveLabel={t("facility.archive")}
      archiveDialog={(lastResult) => <ArchiveDialog name={facility.name} details={t("facility.archiveDetails")} lastResult={lastResult} />}
      form={(props) => <FacilityForm facility={values} {...props} />}
    />
  );
}

export { ScreenErrorBoundary as ErrorBoundary } from "~/components/shell/screen-error";
