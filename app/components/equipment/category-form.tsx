import { getFormProps, getInputProps, type SubmissionResult } from "@conform-to/react";
import { Form } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { FormActions, DefaultSubmit } from "~/components/forms/form-parts";
import { TagsField } from "~/components/forms/tags-field";
import { FormErrors, useErrorText, useZodForm, zodValidator } from "~/components/forms/zod-form";
import { Field } from "~/components/ui/field";
import { Input } from "~/components/ui/input";

/** Client-side validation, loaded when the form is first used (decision 021). */
const validateCategory = zodValidator(() => import("~/modules/equipment/schema").then((m) => m.CategorySchema));

export const CATEGORIES_LIST = "/equipments?tab=categories";

/** The equipment category form of /add-equipment-category and /update-category/{id}: name (required) and tags. */
export function CategoryForm({
  category,
  intent,
  submitLabel,
  lastResult,
}: {
  category?: { categoryName: string; tags: string[] };
  intent: "create" | "update";
  submitLabel: string;
  lastResult?: SubmissionResult<string[]>;
}) {
  const { t } = useTranslation("equipment");
  const text = useErrorText();
  const [form, fields] = useZodForm(validateCategory, {
    id: "category",
    lastResult,
    defaultValue: { categoryName: category?.categoryName ?? "", tags: category?.tags ?? [] },
  });
  return (
    <Form method="post" {...getFormProps(form)} className="grid gap-6">
      <DefaultSubmit />
      <input type="hidden" name="intent" value={intent} />
      <FormErrors id={form.errorId} errors={form.errors} />
      <Field label={t("category.name")} htmlFor={fields.categoryName.id} errors={text(fields.categoryName.errors)} required>
        <Input {...getInputProps(fields.categoryName, { type: "text" })} autoComplete="off" />
      </Field>
      <TagsField form={form} field={fields.tags} />
      <FormActions intent={intent} cancelTo={CATEGORIES_LIST} submitLabel={submitLabel} />
    </Form>
  );
}
