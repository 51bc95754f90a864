import { type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { useActionData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { FACILITIES_LIST, FacilityForm } from "~/components/facilities/facility-form";
import { FormPage } from "~/components/forms/form-parts";
import { formDataOf, submitForm } from "~/http/form-action.server";
import { serviceContext } from "~/http/route-context.server";
import { requireUser } from "~/modules/auth/guard.server";
import { FacilitySchema } from "~/modules/facilities/schema";
import { createFacility } from "~/modules/facilities/service.server";

/** /add-facility: name and description; on success back to the facilities list. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireUser(request, context);
  return null;
}

export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireUser(request, context);
  const ctx = await serviceContext({ request, context }, user);
  return submitForm(
    await formDataOf(request),
    { intent: "create", schema: FacilitySchema, redirectTo: FACILITIES_LIST, toast: "common:toast.created" },
    (facility) => createFacility(ctx, facility),
  );
}

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
