import { getFormProps, getInputProps, getSelectProps, useForm, type SubmissionResult } from "@conform-to/react";
import { Form, useNavigation } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { Button } from "~/components/ui/button";
import { Field } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import { CountryOptions } from "~/components/forms/country-options";
import { Select } from "~/components/ui/select";
import type { EntitySchema } from "~/modules/onboarding/schema";
import { FormErrors, type FormValidator, useLazyValidator } from "~/components/forms/zod-form";
import type { z } from "zod";
import { CaptchaField, ensureCaptcha, type CaptchaQuestion } from "./captcha-field";

/** Client-side validation, loaded when the form is first used (decision 021); Back keeps what was typed without checking it. */
const validateEntity = () =>
  Promise.all([import("@conform-to/zod/v4"), import("~/modules/onboarding/schema")]).then(
    ([{ parseWithZod }, { EntitySchema }]): FormValidator =>
      ({ formData }) =>
        formData.get("intent") === "back"
          ? parseWithZod(formData, { schema: EntitySchema.partial().passthrough() })
          : parseWithZod(formData, { schema: EntitySchema }),
  );

/** Step 2 of the sign-up: the organisation and the captcha. Posts `intent=finish`, or `intent=back`. */
export function EntityStep({
  lastResult,
  defaultValue,
  question,
}: {
  lastResult?: SubmissionResult<string[]>;
  defaultValue: Record<string, string | undefined>;
  question: CaptchaQuestion;
}) {
  const { t } = useTranslation(["onboarding", "common"]);
  const navigation = useNavigation();
  const formRef = useRef<HTMLFormElement>(null);
  const onValidate = useLazyValidator("signup-entity", validateEntity, Boolean(lastResult));
  const [form, fields] = useForm<z.input<typeof EntitySchema>, z.output<typeof EntitySchema>>({
    id: "signup-entity",
    lastResult,
    defaultValue,
    onValidate,
    onSubmit: (event, { formData }) => {
      if (formData.get("intent") === "finish") ensureCaptcha(event, formRef.current);
    },
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
  });
  const tr = (keys?: string[]) => keys?.map((key) => t(key));
  // Every answer of the server spends the widget's solution (or may have): solve a fresh challenge.
  const [attempt, setAttempt] = useState(0);
  useEffect(() => {
    if (lastResult) setAttempt((n) => n + 1);
  }, [lastResult]);
  const optional = <span className="font-normal text-muted-foreground"> ({t("signup.optional")})</span>;

  return (
    <Form method="post" ref={formRef} {...getFormProps(form)} className="grid gap-4">
      <FormErrors id={form.errorId} errors={form.errors} ns={["onboarding"]} />
      <div className="grid gap-4 *:content-start sm:grid-cols-2">
        <Field label={t("signup.entityName")} htmlFor={fields.entityName.id} errors={tr(fields.entityName.errors)} required>
          <Input {...getInputProps(fields.entityName, { type: "text" })} autoComplete="organization" />
        </Field>
        <Field label={t("signup.vatNumber")} htmlFor={fields.vatNumber.id} errors={tr(fields.vatNumber.errors)} required>
          <Input {...getInputProps(fields.vatNumber, { type: "text" })} autoComplete="off" />
        </Field>
      </div>

      <fieldset className="grid gap-4">
        <legend className="mb-2 text-base font-semibold">{t("signup.address")}</legend>
        <div className="grid gap-4 *:content-start sm:grid-cols-[1fr_8rem]">
          <Field label={t("signup.streetName")} htmlFor={fields.streetName.id} errors={tr(fields.streetName.errors)} required>
            <Input {...getInputProps(fields.streetName, { type: "text" })} autoComplete="address-line1" />
          </Field>
          <Field label={t("signup.streetNumber")} htmlFor={fields.streetNumber.id} errors={tr(fields.streetNumber.errors)} required>
            <Input {...getInputProps(fields.streetNumber, { type: "text" })} />
          </Field>
        </div>
        <div className="grid gap-4 *:content-start sm:grid-cols-[12rem_1fr]">
          <Field label={<>{t("signup.suffix")}{optional}</>} htmlFor={fields.suffix.id} errors={tr(fields.suffix.errors)}>
            <Input {...getInputProps(fields.suffix, { type: "text" })} />
          </Field>
          <Field label={<>{t("signup.buildingFloor")}{optional}</>} htmlFor={fields.buildingFloor.id} errors={tr(fields.buildingFloor.errors)}>
            <Input {...getInputProps(fields.buildingFloor, { type: "text" })} autoComplete="address-line2" />
          </Field>
        </div>
        <Field label={<>{t("signup.additionalInfo")}{optional}</>} htmlFor={fields.additionalInfo.id} errors={tr(fields.additionalInfo.errors)}>
          <Input {...getInputProps(fields.additionalInfo, { type: "text" })} autoComplete="address-line3" />
        </Field>
        <div className="grid gap-4 *:content-start sm:grid-cols-[8rem_1fr]">
          <Field label={t("signup.postalCode")} htmlFor={fields.postalCode.id} errors={tr(fields.postalCode.errors)} required>
            <Input {...getInputProps(fields.postalCode, { type: "text" })} autoComplete="postal-code" />
          </Field>
          <Field label={t("signup.city")} htmlFor={fields.city.id} errors={tr(fields.city.errors)} required>
            <Input {...getInputProps(fields.city, { type: "text" })} autoComplete="address-level2" />
          </Field>
        </div>
        <Field label={t("signup.country")} htmlFor={fields.country.id} errors={tr(fields.country.errors)} required>
          <Select {...getSelectProps(fields.country)} autoComplete="country">
            <CountryOptions />
          </Select>
        </Field>
      </fieldset>

      <CaptchaField key={`${question.token}-${attempt}`} question={question} />

      <div className="mt-2 flex flex-col gap-3 sm:flex-row-reverse sm:justify-between">
        {/* Finish comes first so that Enter submits it; Back is placed on the left by the layout. */}
        <Button type="submit" name="intent" value="finish" className="sm:min-w-32" disabled={navigation.state === "submitting"}>
          {t("signup.finish")}
        </Button>
        <Button type="submit" name="intent" value="back" variant="outline" formNoValidate className="sm:min-w-32">
          {t("signup.back")}
        </Button>
      </div>
    </Form>
  );
}
