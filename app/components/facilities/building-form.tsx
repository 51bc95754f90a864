import { getFormProps, getInputProps, getTextareaProps, type SubmissionResult } from "@conform-to/react";
import { Form } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { FormActions, FormSection } from "~/components/forms/form-parts";
import { SelectField } from "~/components/forms/select-field";
import { FormErrors, useErrorText, useZodForm, zodValidator } from "~/components/forms/zod-form";
import { AddressFields } from "~/components/settings/address-fields";
import { Field } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import { Textarea } from "~/components/ui/textarea";
import type { BuildingInput } from "~/modules/facilities/schema";

/** Client-side validation, loaded when the form is first used (decision 021). */
const validateBuilding = zodValidator(() => import("~/modules/facilities/schema").then((m) => m.BuildingSchema));

export const BUILDINGS_LIST = "/facilities?tab=buildings";

type BuildingValues = Partial<Record<keyof BuildingInput, string | number | null>>;

/**
 * The building form of /add-building and /update-building/{id}: name, facility (both required),
 * description and the address fields of SPEC.md section 3 (all optional).
 */
export function BuildingForm({
  building,
  facilities,
  intent,
  submitLabel,
  lastResult,
}: {
  building: BuildingValues;
  facilities: { id: number; name: string }[];
  intent: "create" | "update";
  submitLabel: string;
  lastResult?: SubmissionResult<string[]>;
}) {
  const { t } = useTranslation("facilities");
  const text = useErrorText(["facilities"]);
  const defaultValue = Object.fromEntries(Object.entries(building).map(([name, value]) => [name, String(value ?? "")]));
  const [form, fields] = useZodForm(validateBuilding, { id: "building", lastResult, defaultValue });
  return (
    <Form method="post" {...getFormProps(form)} className="grid gap-6">
      <input type="hidden" name="intent" value={intent} />
      <FormErrors id={form.errorId} errors={form.errors} ns={["facilities"]} />
      <FormSection title={t("building.details")}>
        <div className="grid items-start gap-4 sm:grid-cols-2">
          <Field label={t("building.name")} htmlFor={fields.name.id} errors={text(fields.name.errors)} required>
            <Input {...getInputProps(fields.name, { type: "text" })} autoComplete="off" />
          </Field>
          <SelectField
            label={t("building.facility")}
            field={fields.facilityId}
            errors={text(fields.facilityId.errors)}
            required
            placeholder={t("building.chooseFacility")}
            options={facilities}
          />
        </div>
        <Field label={t("building.description")} htmlFor={fields.description.id} errors={text(fields.description.errors)}>
          <Textarea {...getTextareaProps(fields.description)} rows={3} />
        </Field>
      </FormSection>
      <FormSection title={t("building.address")}>
        <AddressFields fieldset={fields} required={false} />
      </FormSection>
      <FormActions intent={intent} cancelTo={BUILDINGS_LIST} submitLabel={submitLabel} />
    </Form>
  );
}
