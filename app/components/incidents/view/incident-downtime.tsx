import { getFormProps, getInputProps, type SubmissionResult } from "@conform-to/react";
import { Form } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { SubmitButton } from "~/components/forms/form-parts";
import { FormErrors, useErrorText, useZodForm, zodValidator } from "~/components/forms/zod-form";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { Field } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import { VIEW_INTENTS } from "~/lib/incident-view";
import type { IncidentDetail } from "~/modules/incidents/queries.server";

const downtimeValidator = zodValidator(() => import("~/modules/incidents/schema").then((m) => m.DowntimeSchema));

/** The hours of a downtime in minutes, as the form shows them ("1.5"); empty for none. */
const hoursOf = (minutes: number | null) => (minutes === null ? "" : String(Math.round((minutes / 60) * 100) / 100));

/**
 * The incident's equipment downtime (decision 066): a plain form marking the equipment out of service
 * (its downtime then runs from the report to Done) with, optionally, the downtime in hours set by hand.
 * Shown only for an incident on a piece of equipment.
 */
export function IncidentDowntime({ incident, lastResult }: { incident: Pick<IncidentDetail, "equipmentDown" | "downtimeMinutes">; lastResult?: SubmissionResult<string[]> }) {
  const { t } = useTranslation("incidentView");
  const text = useErrorText(["incidents"]);
  const [form, fields] = useZodForm(downtimeValidator, {
    id: "downtime",
    lastResult,
    defaultValue: { equipmentDown: incident.equipmentDown ? "on" : "", downtimeHours: hoursOf(incident.downtimeMinutes) },
  });
  return (
    <Card id="equipment-downtime">
      <CardHeader>
        <CardTitle className="text-lg">{t("downtime.title")}</CardTitle>
        <CardDescription>{incident.equipmentDown ? t("downtime.down") : t("downtime.up")}</CardDescription>
      </CardHeader>
      <CardContent>
        <Form method="post" {...getFormProps(form)} className="grid gap-3">
          <input type="hidden" name="intent" value={VIEW_INTENTS.downtime} />
          <FormErrors id={form.errorId} errors={form.errors} ns={["incidents"]} />
          <label className="flex items-center gap-2 text-sm">
            <input {...getInputProps(fields.equipmentDown, { type: "checkbox" })} className="size-4" />
            {t("downtime.equipmentDown")}
          </label>
          <Field label={t("downtime.hours")} htmlFor={fields.downtimeHours.id} errors={text(fields.downtimeHours.errors)} description={t("downtime.hoursHint")}>
            <Input {...getInputProps(fields.downtimeHours, { type: "text" })} inputMode="decimal" autoComplete="off" className="max-w-40" />
          </Field>
          <div>
            <SubmitButton intent={VIEW_INTENTS.downtime}>{t("downtime.save")}</SubmitButton>
          </div>
        </Form>
      </CardContent>
    </Card>
  );
}
