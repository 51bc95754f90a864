import { getFormProps, getInputProps, getTextareaProps, type SubmissionResult } from "@conform-to/react";
import { Form } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { FormActions } from "~/components/forms/form-parts";
import { FormErrors, useErrorText, useZodForm, zodValidator } from "~/components/forms/zod-form";
import { Field } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import { Textarea } from "~/components/ui/textarea";
import type { FacilityInput } from "~/modules/facilities/schema";

/** Client-side validation, loaded when the form is first used (decision 021). */
const validateFacility = zodValidator(() => import("~/modules/facilities/schema").then((m) => m.FacilitySchema));

export const FACILITIES_LIST = "/facilities";

/** The facility form of /add-facility and /update-facility/{id}: name (required) and description. */
export function FacilityForm({
  facility,
  intent,
  submitLabel,
  lastResult,
}: {
  /** The saved facility's values (the edit screen); none on the add screen. */
  facility?: Partial<Record<keyof FacilityInput, string | null>>;
  intent: "create" | "update";
  submitLabel: string;
  lastResult?: SubmissionResult<string[]>;
}) {
  const { t } = useTranslation("facilities");
  const text = useErrorText(["facilities"]);
  const [form, fields] = useZodForm(validateFacility, {
    id: "facility",
    lastResult,
    defaultValue: Object.fromEntries(Object.entries(facility ?? {}).map(([name, value]) => [name, value ?? ""])),
  });
  return (
    <Form method="post" {...getFormProps(form)} className="grid gap-4">
      <input type="hidden" name="intent" value={intent} />
      <FormErrors id={form.errorId} errors={form.errors} ns={["facilities"]} />
      <Field label={t("facility.name")} htmlFor={fields.name.id} errors={text(fields.name.errors)} required>
        <Input {...getInputProps(fields.name, { type: "text" })} autoComplete="off" />
      </Field>
      <Field label={t("facility.description")} htmlFor={fields.description.id} errors={text(fields.description.errors)}>
        <Textarea {...getTextareaProps(fields.description)} rows={4} />
      </Field>
      <FormActions intent={intent} cancelTo={FACILITIES_LIST} submitLabel={submitLabel} className="mt-2" />
    </Form>
  );
}
