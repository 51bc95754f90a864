import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { ARCHIVE_INTENT, ArchiveTrigger } from "~/components/forms/archive-dialog";
import { FormPage } from "~/components/forms/form-parts";
import { useResultFor } from "~/components/forms/zod-form";
import { ArchiveIncidentTypeDialog } from "~/components/incident-types/archive-incident-type-dialog";
import { IncidentTypeForm, type IncidentTypeFormOptionsView } from "~/components/incident-types/incident-type-form";
import { typeServiceLevels } from "~/components/service-levels/service-level-forms";
import { buttonVariants } from "~/components/ui/button";
import { can } from "~/core/actor";
import { INCIDENT_TYPES_LIST, type TranslateOutcome, UPDATE_INTENT } from "~/lib/incident-type-form";
import { incidentTypeFormOptions, incidentTypeHelpers, withPostedOptions } from "~/http/incident-type-form.server";
import { archiveIntent, formIntent, screenAction, screenLoader, subjectById } from "~/http/screen.server";
import { getIncidentTypeForEdit } from "~/modules/incident-types/queries.server";
import { pickFields } from "~/lib/fields";
import { INCIDENT_TYPE_FIELDS, IncidentTypeSchema } from "~/modules/incident-types/schema";
import { archiveIncidentType, updateIncidentType } from "~/modules/incident-types/service.server";

/**
 * /update-incident-type/{id}: the incident type form (`intent=update`, and its helpers: translate,
 * the rooms' and assignees' searches) and the archive confirmation at `?dialog=archive`
 * (`intent=archive`, one of the type's names retyped). Another entity's id, or an archived type, is
 * the "Incident type not found" page.
 */
const incidentType = subjectById(getIncidentTypeForEdit);

export const loader = screenLoader(incidentType, async ({ ctx, url, subject: type }) => ({
  type,
  // Administrators set the type's own service-level targets on a page of the service levels.
  serviceLevels: can(ctx.actor, "manage", "serviceLevel"),
  // The form's starting values of the type's declared fields (schema.ts).
  values: pickFields(INCIDENT_TYPE_FIELDS, type),
  options: await incidentTypeFormOptions(ctx, url.searchParams, { roomIds: type.rooms.map((r) => r.id), assigneeIds: type.defaultAssignees.map((u) => u.id) }),
}));

export const action = screenAction({
  subject: incidentType,
  // The checklist's list buttons post no intent (conform's own): the form, changed, nothing saved.
  fallback: UPDATE_INTENT,
  intents: {
    ...incidentTypeHelpers(UPDATE_INTENT),
    [UPDATE_INTENT]: withPostedOptions(
      formIntent({ schema: IncidentTypeSchema, redirectTo: INCIDENT_TYPES_LIST, toast: "incidentTypes:toast.updated" }, (value, { ctx, subject }) => updateIncidentType(ctx, subject.id, value)),
    ),
    [ARCHIVE_INTENT]: archiveIntent(INCIDENT_TYPES_LIST, archiveIncidentType),
  },
});

export default function UpdateIncidentType() {
  const { t } = useTranslation("incidentTypes");
  const { type, values, options, serviceLevels } = useLoaderData<typeof loader>();
  const helped = useActionData<typeof action>() as { revision?: number; options?: IncidentTypeFormOptionsView; translated?: TranslateOutcome } | undefined;
  const resultFor = useResultFor();
  const names = [type.nameEn, type.nameFr, type.nameNl].filter((n): n is string => Boolean(n));
  return (
    <>
      <ArchiveIncidentTypeDialog name={type.name} names={names} lastResult={resultFor(ARCHIVE_INTENT)} />
      <FormPage
        title={t("common:screens.update-incident-type")}
        subtitle={type.name}
        backTo={INCIDENT_TYPES_LIST}
        backLabel={t("form.back")}
        actions={
          <>
            {serviceLevels ? (
              <Link to={typeServiceLevels(type.id)} className={buttonVariants({ variant: "outline" })}>
                {t("form.serviceLevels")}
              </Link>
            ) : null}
            <ArchiveTrigger>{t("form.archive")}</ArchiveTrigger>
          </>
        }
      >
        <IncidentTypeForm
          key={helped?.revision ?? 0}
          mode="update"
          values={{
            ...values,
            untranslated: type.untranslated,
            status: type.status,
            defaultAssigneeIds: type.defaultAssignees.map((u) => u.id),
            roomTypeIds: type.roomTypes.map((r) => r.id),
            equipmentTypeIds: type.equipmentTypes.map((e) => e.id),
            roomIds: type.rooms.map((r) => r.id),
            checklist: type.checklist,
          }}
          options={helped?.options ?? options}
          lastResult={resultFor(UPDATE_INTENT)}
          translated={helped?.translated}
        />
      </FormPage>
    </>
  );
}

export { ScreenErrorBoundary as ErrorBoundary } from "~/components/shell/screen-error";
