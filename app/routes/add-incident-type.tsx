import { useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { FormPage } from "~/components/forms/form-parts";
import { useResultFor } from "~/components/forms/zod-form";
import { IncidentTypeForm, type IncidentTypeFormOptionsView, type IncidentTypeFormValues } from "~/components/incident-types/incident-type-form";
import { CREATE_INTENT, INCIDENT_TYPES_LIST, type TranslateOutcome } from "~/lib/incident-type-form";
import { incidentTypeFormOptions, incidentTypeHelpers, withPostedOptions } from "~/http/incident-type-form.server";
import { formIntent, screenAction, screenLoader } from "~/http/screen.server";
import { IncidentTypeSchema } from "~/modules/incident-types/schema";
import { createIncidentType } from "~/modules/incident-types/service.server";

/**
 * /add-incident-type: a new incident type (SPEC.md sections 3 and 5). Save posts `intent=create`;
 * "Translate to the others" and the rooms' and assignees' searches answer the form again, nothing
 * saved. On success back to the list with "Created".
 */
export const loader = screenLoader(async ({ ctx, url }) => ({ options: await incidentTypeFormOptions(ctx, url.searchParams, { roomIds: [], assigneeIds: [] }) }));

export const action = screenAction({
  // The checklist's list buttons post no intent (conform's own): the form, changed, nothing saved.
  fallback: CREATE_INTENT,
  intents: {
    ...incidentTypeHelpers(CREATE_INTENT),
    [CREATE_INTENT]: withPostedOptions(
      formIntent({ schema: IncidentTypeSchema, redirectTo: INCIDENT_TYPES_LIST, toast: "incidentTypes:toast.created" }, (value, { ctx }) => createIncidentType(ctx, value)),
    ),
  },
});

const EMPTY_INCIDENT_TYPE: IncidentTypeFormValues = {
  nameEn: null,
  nameFr: null,
  nameNl: null,
  untranslated: [],
  defaultPriority: 1,
  status: 1,
  reporterMayChangePriority: false,
  appliesEverywhere: false,
  defaultAssigneeIds: [],
  roomTypeIds: [],
  equipmentTypeIds: [],
  roomIds: [],
  checklist: [],
};

export default function AddIncidentType() {
  const { t } = useTranslation("incidentTypes");
  const { options } = useLoaderData<typeof loader>();
  const helped = useActionData<typeof action>() as { revision?: number; options?: IncidentTypeFormOptionsView; translated?: TranslateOutcome } | undefined;
  const resultFor = useResultFor();
  return (
    <FormPage title={t("common:screens.add-incident-type")} subtitle={t("form.addHint")} backTo={INCIDENT_TYPES_LIST} backLabel={t("form.back")}>
      <IncidentTypeForm
        key={helped?.revision ?? 0}
        mode="create"
        values={EMPTY_INCIDENT_TYPE}
        options={helped?.options ?? options}
        lastResult={resultFor(CREATE_INTENT)}
        translated={helped?.translated}
      />
    </FormPage>
  );
}

export { ScreenErrorBoundary as ErrorBoundary } from "~/components/shell/screen-error";
