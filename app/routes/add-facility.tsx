import { useActionData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { FACILITIES_LIST, FacilityForm } from "~/components/facilities/facility-form";
import { FormPage } from "~/components/forms/form-parts";
import { addAction, screenLoader } from "~/http/screen.server";
import { FacilitySchema } from "~/modules/facilities/schema";
import { createFacility } from "~/modules/facilities/service.server";

/** /add-facility: name and description; on success back to the facilities list. */
export const loader = screenLoader(() => null);
export const action = addAction({ schema: FacilitySchema, list: FACILITIES_LIST, create: createFacility });

export default function AddFacility() {
  const { t } = useTranslation("facilities");
  const actionData = useActionData<typeof action>();
  return (
    <FormPage title={t("common:screens.add-facility")} backTo={FACILITIES_LIST} backLabel={t("facility.back")}>
      <FacilityForm intent="create" submitLabel={t("common:actions.add")} lastResult={actionData?.result} />
    </FormPage>
  );
}

export { ScreenErrorBoundary as ErrorBoundary } from "~/components/shell/screen-error";
