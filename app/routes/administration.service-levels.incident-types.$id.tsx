import { useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { BackLink } from "~/components/forms/form-parts";
import { useResultFor } from "~/components/forms/zod-form";
import { ClearOverrideForm, TargetsForm, typeServiceLevels } from "~/components/service-levels/service-level-forms";
import { SERVICE_LEVELS } from "~/components/service-levels/paths";
import type { TitledHandle } from "~/components/shell/document-title";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { redirectWithToast } from "~/http/form-action.server";
import { formIntent, screenAction, screenLoader, subjectById } from "~/http/screen.server";
import { getIncidentTypeServiceLevels } from "~/modules/service-levels/queries.server";
import { TargetsSchema } from "~/modules/service-levels/schema";
import { clearTargetOverride, setTargets } from "~/modules/service-levels/service.server";

/**
 * /administration/service-levels/incident-types/{id} (issue 62, decision 064): an incident type's own
 * targets, priority by priority, each replacing the entity's where its hours are set (empty: the
 * entity's, written under the field); and the removal of all of them. Administrators only (the gate, the
 * read and both verbs). Another entity's type, or an archived one, is the "Incident type not found" page.
 */
const incidentType = subjectById(getIncidentTypeServiceLevels, "serviceLevels:errors.incidentTypeNotFound");

export const loader = screenLoader(incidentType, ({ subject }) => ({ type: subject }));

export const handle: TitledHandle = { documentTitle: (data: { type: { name: string } }) => data.type.name };

export const action = screenAction({
  subject: incidentType,
  intents: {
    targets: formIntent(
      { schema: TargetsSchema, redirectTo: ({ subject }) => typeServiceLevels(subject.id), toast: "serviceLevels:toast.overrideSaved" },
      (value, { ctx, subject }) => setTargets(ctx, subject.id, value),
    ),
    clearOverride: async ({ ctx, subject }) => {
      await clearTargetOverride(ctx, subject.id);
      return redirectWithToast(typeServiceLevels(subject.id), "serviceLevels:toast.overrideCleared");
    },
  },
});

export default function IncidentTypeServiceLevels() {
  const { t } = useTranslation("serviceLevels");
  const { type } = useLoaderData<typeof loader>();
  const resultFor = useResultFor();
  return (
    <div className="mx-auto grid w-full max-w-4xl gap-6">
      <div className="grid gap-1">
        <BackLink to={SERVICE_LEVELS}>{t("override.back")}</BackLink>
        <h1 className="text-2xl font-semibold tracking-tight">{t("common:screens.administration-service-level-type")}</h1>
        <p className="text-lg font-medium">{type.name}</p>
        <p className="text-sm text-muted-foreground">{t(type.overrides ? "override.own" : "override.inherits")}</p>
      </div>

      <Card aria-labelledby="service-levels-type-targets-title">
        <CardHeader>
          <CardTitle as="h2" id="service-levels-type-targets-title">
            {t("override.title")}
          </CardTitle>
          <CardDescription>{t("override.description")}</CardDescription>
        </CardHeader>
        <CardContent>
          <TargetsForm targets={type.override} inherited={type.entity} lastResult={resultFor("targets")} />
        </CardContent>
      </Card>

      {type.overrides ? (
        <Card aria-labelledby="service-levels-type-clear-title">
          <CardHeader>
            <CardTitle as="h2" id="service-levels-type-clear-title">
              {t("override.clearTitle")}
            </CardTitle>
          </CardHeader>
          <CardContent>
            <ClearOverrideForm />
          </CardContent>
        </Card>
      ) : null}
    </div>
  );
}

export { ScreenErrorBoundary as ErrorBoundary } from "~/components/shell/screen-error";
