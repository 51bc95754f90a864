import { useTranslation } from "react-i18next";
import { FACILITIES_LIST, FacilityForm } from "~/components/facilities/facility-form";
import { addAction, screenLoader } from "~/http/screen.server";
import { FacilitySchema } from "~/modules/facilities/schema";
import { createFacility } from "~/modules/facilities/service.server";
import { AddScreen } from "~/components/forms/form-screens";

/** /add-facility: name and description; on success back to the facilities list. */
export const loader = screenLoader(() => null);
export const action = addAction({ schema: FacilitySchema, list: FACILITIES_LIST, create: createFacility });

export default function AddFacility() {
  const { t } = useTranslation("facilities");
  return <AddScreen screen="add-facility" backTo={FACILITIES_LIST} backLabel={t("facility.back")} form={(props) => <FacilityForm {...props} />} />;
}

export { ScreenErrorBoundary as ErrorBoundary } from "~/components/shell/screen-error";
