import { parseWithZod } from "@conform-to/zod/v4";
import { redirect } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { BackLink } from "~/components/forms/form-parts";
import { useResultFor } from "~/components/forms/zod-form";
import { ClosedDayForm, ClosedDayList, HolidaysForm, TargetsForm, TYPE_PARAM, TypeOverrides, typeServiceLevels, WarningForm, WorkingWeekForm } from "~/components/service-levels/service-level-forms";
import { SERVICE_LEVELS } from "~/components/service-levels/paths";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { controlCharacterErrors, formFailed, serviceFailed } from "~/http/form-action.server";
import { formIntent, screenAction, screenLoader } from "~/http/screen.server";
import { toastHeader } from "~/http/toast.server";
import { now } from "~/lib/clock.server";
import { dayIn } from "~/lib/dates";
import { useDates } from "~/lib/use-dates";
import { listIncidentTypeOptions } from "~/modules/incident-types/queries.server";
import { getServiceLevelSettings, listTargetOverrides } from "~/modules/service-levels/queries.server";
import { ClosedDaySchema, PublicHolidaysSchema, RemoveClosedDaySchema, TargetsSchema, WarningLeadSchema, WorkingWeekSchema } from "~/modules/service-levels/schema";
import { holidayLanguageOf } from "~/modules/service-levels/values";
import { addClosedDay, addPublicHolidays, removeClosedDay, setTargets, setWarningLead, setWorkingWeek } from "~/modules/service-levels/service.server";

/**
 * /administration/service-levels (issue 62, decision 064): the entity's working week, closed days (one by
 * one, or Belgium's public holidays of a year), the targets of each priority and the warning before a
 * breach, and the incident types with targets of their own (each type's on its own screen, chosen with a
 * GET form: `?type=<id>` redirects there). Administrators only (the gate, the read and every verb). Each
 * part is a form of its own (`intent`), posted and answered with a redirect and a toast, or with its
 * errors and input kept.
 */
export const loader = screenLoader(async ({ ctx, url }) => {
  const chosen = url.searchParams.get(TYPE_PARAM);
  // The type's screen reads it within the entity: another entity's id is its "not found" page.
  if (chosen && /^[1-9]\d{0,8}$/.test(chosen)) throw redirect(typeServiceLevels(Number(chosen)));
  const [settings, overrides, types] = await Promise.all([getServiceLevelSettings(ctx), listTargetOverrides(ctx), listIncidentTypeOptions(ctx)]);
  return { settings, overrides, types, year: Number(dayIn(now(), ctx.timeZone).slice(0, 4)), holidayLanguage: holidayLanguageOf(ctx.locale) };
});

export const action = screenAction({
  intents: {
    week: formIntent({ schema: WorkingWeekSchema, redirectTo: SERVICE_LEVELS, toast: "serviceLevels:toast.weekSaved" }, (value, { ctx }) => setWorkingWeek(ctx, value)),
    addClosedDay: formIntent({ schema: ClosedDaySchema, redirectTo: SERVICE_LEVELS, toast: "serviceLevels:toast.closedDayAdded" }, (value, { ctx }) => addClosedDay(ctx, value)),
    removeClosedDay: formIntent(
      {
        schema: RemoveClosedDaySchema,
        redirectTo: SERVICE_LEVELS,
        toast: "serviceLevels:toast.closedDayRemoved",
        failure: { toast: "serviceLevels:errors.closedDayNotFound", to: SERVICE_LEVELS, inputErrors: false },
      },
      (value, { ctx }) => removeClosedDay(ctx, value),
    ),
    holidays: async ({ formData, ctx }) => {
      const submission = parseWithZod(formData, { schema: PublicHolidaysSchema });
      const control = controlCharacterErrors(formData);
      if (control) return formFailed("holidays", submission.reply({ fieldErrors: control }));
      if (submission.status !== "success") return formFailed("holidays", submission.reply());
      try {
        const { added } = await addPublicHolidays(ctx, submission.value);
        return redirect(SERVICE_LEVELS, { headers: { "Set-Cookie": await toastHeader({ type: "success", key: "serviceLevels:toast.holidaysAdded", params: { count: added } }) } });
      } catch (error) {
        return serviceFailed("holidays", (errors) => submission.reply(errors), error);
      }
    },
    targets: formIntent({ schema: TargetsSchema, redirectTo: SERVICE_LEVELS, toast: "serviceLevels:toast.targetsSaved" }, (value, { ctx }) => setTargets(ctx, null, value)),
    warning: formIntent({ schema: WarningLeadSchema, redirectTo: SERVICE_LEVELS, toast: "serviceLevels:toast.warningSaved" }, (value, { ctx }) => setWarningLead(ctx, value)),
  },
});

function Section({ id, title, description, children }: { id: string; title: string; description: string; children: ReactNode }) {
  return (
    <Card aria-labelledby={id}>
      <CardHeader>
        <CardTitle as="h2" id={id}>
          {title}
        </CardTitle>
        <CardDescription>{description}</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-6">{children}</CardContent>
    </Card>
  );
}

export default function AdministrationServiceLevels() {
  const { t } = useTranslation("serviceLevels");
  const { settings, overrides, types, year, holidayLanguage } = useLoaderData<typeof loader>();
  const resultFor = useResultFor();
  const dates = useDates();
  return (
    <div className="mx-auto grid w-full max-w-4xl gap-6">
      <div className="grid gap-1">
        <BackLink to="/administration">{t("backToAdministration")}</BackLink>
        <h1 className="text-2xl font-semibold tracking-tight">{t("common:screens.administration-service-levels")}</h1>
        <p className="text-sm text-muted-foreground">{t("intro")}</p>
        <p className="text-sm text-muted-foreground">{t("timeZone", { timeZone: settings.timeZone })}</p>
      </div>

      <Section id="service-levels-week" title={t("week.title")} description={t("week.description")}>
        <WorkingWeekForm week={settings.week} lastResult={resultFor("week")} />
      </Section>

      <Section id="service-levels-closed-days" title={t("closedDays.title")} description={t("closedDays.description")}>
        <ClosedDayList days={settings.closedDays} formatDay={(day) => dates.day(day)} />
        <div className="grid gap-3 border-t pt-6">
          <h3 className="text-base font-semibold">{t("closedDays.addTitle")}</h3>
          <ClosedDayForm lastResult={resultFor("addClosedDay")} />
        </div>
        <div className="grid gap-3 border-t pt-6">
          <h3 className="text-base font-semibold">{t("holidays.title")}</h3>
          <p className="text-sm text-muted-foreground">{t("holidays.description")}</p>
          <HolidaysForm year={year} language={holidayLanguage} lastResult={resultFor("holidays")} />
        </div>
      </Section>

      <Section id="service-levels-targets" title={t("targets.title")} description={t("targets.description")}>
        <TargetsForm targets={settings.targets} lastResult={resultFor("targets")} />
      </Section>

      <Section id="service-levels-types" title={t("types.title")} description={t("types.description")}>
        <TypeOverrides overrides={overrides} types={types} />
      </Section>

      <Section id="service-levels-warning" title={t("warning.title")} description={t("warning.description")}>
        <WarningForm warnBeforeMinutes={settings.warnBeforeMinutes} lastResult={resultFor("warning")} />
      </Section>
    </div>
  );
}

export { ScreenErrorBoundary as ErrorBoundary } from "~/components/shell/screen-error";
