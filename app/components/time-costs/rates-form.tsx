import { getFormProps, getInputProps, getSelectProps, type SubmissionResult } from "@conform-to/react";
import { Form } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { SubmitButton } from "~/components/forms/form-parts";
import { FormErrors, useErrorText, useZodForm, zodValidator } from "~/components/forms/zod-form";
import { Field } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import { Select } from "~/components/ui/select";
import { CURRENCIES } from "~/modules/time-costs/constants";
import type { HourlyRates } from "~/modules/time-costs/queries.server";
import { Options } from "~/components/ui/options";

// The schema arrives lazily, on the first interaction with the form (decision 021).
const ratesValidator = zodValidator(() => import("~/modules/time-costs/schema").then((m) => m.HourlyRatesSchema));

const NS = ["timeCosts"];
export const RATES_INTENT = "rates";

/**
 * The rates form (issue 62): the entity's currency and default hourly rate, then one field per person
 * (empty: the default). A plain form: each person's id travels in a hidden field beside their rate
 * (`rates[i].userId`, `rates[i].rate`), so it works without JavaScript. One column on a phone.
 */
export function RatesForm({ rates, lastResult }: { rates: HourlyRates; lastResult?: SubmissionResult<string[]> }) {
  const { t } = useTranslation("timeCosts");
  const text = useErrorText(NS);
  const [form, fields] = useZodForm(ratesValidator, {
    id: "hourly-rates",
    lastResult,
    defaultValue: {
      currency: rates.currency,
      defaultRate: rates.defaultRate ?? "",
      rates: rates.people.map((p) => ({ userId: String(p.id), rate: p.rate ?? "" })),
    },
  });
  const rows = fields.rates.getFieldList();
  return (
    <Form method="post" {...getFormProps(form)} className="grid gap-6">
      <input type="hidden" name="intent" value={RATES_INTENT} />
      <FormErrors id={form.errorId} errors={form.errors} ns={NS} />
      <div className="grid gap-4 sm:grid-cols-2">
        <Field label={t("rates.currency")} htmlFor={fields.currency.id} errors={text(fields.currency.errors)} description={t("rates.currencyHint")} required>
          <Select {...getSelectProps(fields.currency)}>
            <Options values={CURRENCIES} />
          </Select>
        </Field>
        <Field label={t("rates.defaultRate")} htmlFor={fields.defaultRate.id} errors={text(fields.defaultRate.errors)} description={t("rates.defaultRateHint")}>
          <Input {...getInputProps(fields.defaultRate, { type: "text" })} inputMode="decimal" autoComplete="off" />
        </Field>
      </div>
      <fieldset className="grid gap-3" aria-describedby="rates-people-hint">
        <legend className="text-base font-semibold">{t("rates.people")}</legend>
        <p id="rates-people-hint" className="text-sm text-muted-foreground">
          {t("rates.peopleHint")}
        </p>
        {fields.rates.errors?.length ? (
          <p className="text-sm font-medium text-destructive" role="alert">
            {text(fields.rates.errors)?.join(" ")}
          </p>
        ) : null}
        {rates.people.length ? (
          <ul className="grid divide-y rounded-md border">
            {rows.map((row, index) => {
              const person = rates.people[index];
              const fieldset = row.getFieldset();
              if (!person) return null;
              return (
                <li key={row.key} className="grid gap-2 p-3 sm:grid-cols-[1fr_12rem] sm:items-center">
                  <input {...getInputProps(fieldset.userId, { type: "hidden" })} />
                  <div className="min-w-0">
                    <p className="break-words font-medium">{person.name}</p>
                    <p className="break-all text-xs text-muted-foreground">{person.email}</p>
                  </div>
                  <Field
                    label={
                      <>
                        <span className="sr-only">{t("rates.rateOf", { name: person.name })}</span>
                        <span aria-hidden="true">{t("rates.rate")}</span>
                      </>
                    }
                    htmlFor={fieldset.rate.id}
                    errors={text(fieldset.rate.errors)}
                  >
                    <Input {...getInputProps(fieldset.rate, { type: "text" })} inputMode="decimal" autoComplete="off" placeholder={t("rates.usesDefault")} />
                  </Field>
                </li>
              );
            })}
          </ul>
        ) : (
          <p className="text-sm text-muted-foreground">{t("rates.noPeople")}</p>
        )}
      </fieldset>
      <div>
        <SubmitButton intent={RATES_INTENT}>{t("rates.submit")}</SubmitButton>
      </div>
    </Form>
  );
}
