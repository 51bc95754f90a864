import type { SubmissionResult } from "@conform-to/react";
import { Form } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { useErrorText } from "~/components/forms/zod-form";
import { Button } from "~/components/ui/button";
import { Field, fieldControlProps } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import { Select } from "~/components/ui/select";
import type { InspectionCheck } from "~/modules/maintenance/inspection-schema";

/** The intents of the checklist's forms on the maintenance type screen. */
export const CHECK_INTENTS = { add: "add-check", update: "update-check", remove: "remove-check" } as const;

export type CheckView = InspectionCheck;

type Values = Partial<Record<keyof CheckView | "checkId", unknown>>;

/**
 * A maintenance type's inspection checklist (issue 63): each check in a plain form of its own (save,
 * remove), and one more to add a check. No JavaScript needed; a refused form comes back with its input
 * and the errors beside the fields.
 */
export function ChecklistEditor({
  checks,
  incidentTypes,
  results,
}: {
  checks: CheckView[];
  incidentTypes: { id: number; name: string }[];
  results: { intent: string; result: SubmissionResult<string[]> } | undefined;
}) {
  const { t } = useTranslation("maintenance");
  const failedId = (intent: string) => (results?.intent === intent ? String((results.result.initialValue as Values | undefined)?.checkId ?? "") : null);
  return (
    <section aria-labelledby="checklist-title" className="grid gap-4 rounded-md border bg-background p-4">
      <div className="grid gap-1">
        <h2 id="checklist-title" className="text-lg font-semibold">
          {t("checks.title")}
        </h2>
        <p className="text-sm text-muted-foreground">{t("checks.hint")}</p>
      </div>
      {checks.length === 0 ? <p className="text-sm">{t("checks.none")}</p> : null}
      <ol className="grid gap-4">
        {checks.map((check, index) => {
          const failed = failedId(CHECK_INTENTS.update) === String(check.id) ? results!.result : undefined;
          return (
            <li key={check.id} className="grid gap-2 rounded-md border p-3" data-testid={`check-${check.id}`}>
              <h3 className="text-sm font-medium">{t("checks.numbered", { n: index + 1 })}</h3>
              <Form method="post" className="grid gap-3" aria-label={t("checks.numbered", { n: index + 1 })}>
                <input type="hidden" name="checkId" value={check.id} />
                <CheckFields prefix={`check-${check.id}`} values={failed ? ((failed.initialValue as Values) ?? {}) : check} errors={failed?.error} incidentTypes={incidentTypes} />
                <div className="flex flex-wrap gap-2">
                  <Button type="submit" name="intent" value={CHECK_INTENTS.update} size="sm">
                    {t("checks.save")}
                  </Button>
                  <Button type="submit" name="intent" value={CHECK_INTENTS.remove} size="sm" variant="outline">
                    {t("checks.remove")}
                  </Button>
                </div>
              </Form>
            </li>
          );
        })}
      </ol>
      <Form method="post" className="grid gap-3 rounded-md border border-dashed p-3" aria-label={t("checks.add")}>
        <h3 className="text-sm font-medium">{t("checks.add")}</h3>
        <CheckFields
          prefix="new-check"
          values={results?.intent === CHECK_INTENTS.add ? ((results.result.initialValue as Values) ?? {}) : { kind: 0, priority: 1 }}
          errors={results?.intent === CHECK_INTENTS.add ? results.result.error : undefined}
          incidentTypes={incidentTypes}
        />
        <Button type="submit" name="intent" value={CHECK_INTENTS.add} size="sm" className="w-fit">
          {t("checks.add")}
        </Button>
      </Form>
    </section>
  );
}

const text = (v: unknown) => (v === null || v === undefined ? "" : String(v));

function CheckFields({
  prefix,
  values,
  errors,
  incidentTypes,
}: {
  prefix: string;
  values: Values;
  errors: Record<string, string[] | null> | null | undefined;
  incidentTypes: { id: number; name: string }[];
}) {
  const { t } = useTranslation("maintenance");
  const errorText = useErrorText(["maintenance"]);
  const field = (name: keyof CheckView) => {
    const id = `${prefix}-${name}`;
    const errs = errorText(errors?.[name] ?? null);
    return { id, errs, props: { ...fieldControlProps(id, { errors: errs }), name } };
  };
  const kind = field("kind");
  const priority = field("priority");
  const incidentType = field("incidentTypeId");
  const min = field("minValue");
  const max = field("maxValue");
  return (
    <div className="grid gap-3 sm:grid-cols-2">
      {(["label", "labelFr", "labelNl"] as const).map((name) => {
        const f = field(name);
        return (
          <Field key={name} label={t(`checks.fields.${name}`)} htmlFor={f.id} errors={f.errs}>
            <Input {...f.props} defaultValue={text(values[name])} maxLength={300} />
          </Field>
        );
      })}
      <Field label={t("checks.fields.kind")} htmlFor={kind.id} errors={kind.errs}>
        <Select {...kind.props} defaultValue={text(values.kind)}>
          {[0, 1, 2].map((k) => (
            <option key={k} value={k}>
              {t(`checks.kinds.${k}`)}
            </option>
          ))}
        </Select>
      </Field>
      <Field label={t("checks.fields.minValue")} htmlFor={min.id} errors={min.errs} description={t("checks.fields.rangeHint")}>
        <Input {...min.props} defaultValue={text(values.minValue)} inputMode="decimal" />
      </Field>
      <Field label={t("checks.fields.maxValue")} htmlFor={max.id} errors={max.errs}>
        <Input {...max.props} defaultValue={text(values.maxValue)} inputMode="decimal" />
      </Field>
      <Field label={t("checks.fields.incidentTypeId")} htmlFor={incidentType.id} errors={incidentType.errs}>
        <Select {...incidentType.props} defaultValue={text(values.incidentTypeId)}>
          <option value="">{t("checks.fields.noIncidentType")}</option>
          {incidentTypes.map((type) => (
            <option key={type.id} value={type.id}>
              {type.name}
            </option>
          ))}
        </Select>
      </Field>
      <Field label={t("checks.fields.priority")} htmlFor={priority.id} errors={priority.errs}>
        <Select {...priority.props} defaultValue={text(values.priority)}>
          {[0, 1, 2, 3].map((p) => (
            <option key={p} value={p}>
              {t(`checks.priorities.${p}`)}
            </option>
          ))}
        </Select>
      </Field>
      <label className="flex items-center gap-2 text-sm sm:col-span-2">
        <input type="checkbox" name="photoRequired" defaultChecked={values.photoRequired === true || values.photoRequired === "on"} className="size-4" />
        {t("checks.fields.photoRequired")}
      </label>
    </div>
  );
}
