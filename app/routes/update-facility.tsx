import { useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { FACILITIES_LIST, FacilityForm } from "~/components/facilities/facility-form";
import { ARCHIVE_INTENT, ArchiveDialog, ArchiveTrigger } from "~/components/forms/archive-dialog";
import { FormPage } from "~/components/forms/form-parts";
import { useResultFor } from "~/components/forms/zod-form";
import { screenLoader, subjectById, updateAction } from "~/http/screen.server";
import { getFacilityForEdit } from "~/modules/facilities/queries.server";
import { FacilitySchema } from "~/modules/facilities/schema";
import { archiveFacility, updateFacility } from "~/modules/facilities/service.server";

/**
 * /update-facility/{id}: the facility form (`intent=update`) and the archive confirmation at
 * `?dialog=archive` (`intent=archive`). An unknown id, or another entity's, is a 404 page.
 */
const facility = subjectById(getFacilityForEdit);
export const loader = screenLoader(facility, ({ subject }) => ({ facility: subject }));
export const action = updateAction(facility, { schema: FacilitySchema, list: FACILITIES_LIST, update: updateFacility, archive: archiveFacility });

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
