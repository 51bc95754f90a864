import { getFormProps, getInputProps, getTextareaProps, type SubmissionResult } from "@conform-to/react";
import { Form } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { MissingHint } from "~/components/forms/missing-hint";
import { FilesField } from "~/components/forms/files-field";
import { CheckboxListField } from "~/components/forms/checkbox-list-field";
import { DefaultSubmit, FormActions, FormSection } from "~/components/forms/form-parts";
import { SelectField } from "~/components/forms/select-field";
import { TagsField } from "~/components/forms/tags-field";
import { FormErrors, useErrorText, useZodForm, zodValidator } from "~/components/forms/zod-form";
import { Field } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import { Textarea } from "~/components/ui/textarea";
import type { AttachedFile } from "~/modules/rooms/queries.server";

/** Client-side validation, loaded when the form is first used (decision 021). */
const validateEquipmentType = zodValidator(() => import("~/modules/equipment/schema").then((m) => m.EquipmentTypeSchema));

export const EQUIPMENT_TYPES_LIST = "/equipments";

export interface EquipmentTypeValues {
  equipmentName: string;
  notes: string | null;
  categoryId: number | null;
  tags: string[];
  incidentTypes: number[];
  files: AttachedFile[];
}

/**
 * The generic equipment form of /add-generic-equipment and /update-equipment-type/{id}: name,
 * category (both required), notes, tags, incident types (checkboxes), and files and images: a
 * multipart post, so new files (`newFiles`) and the files to delete (`deletedFiles`) go with the rest.
 */
export function EquipmentTypeForm({
  equipmentType,
  categories,
  incidentTypes,
  maxBytes,
  intent,
  submitLabel,
  lastResult,
}: {
  equipmentType: EquipmentTypeValues;
  categories: { id: number; name: string }[];
  incidentTypes: { id: number; name: string }[];
  maxBytes: number;
  intent: "create" | "update";
  submitLabel: string;
  lastResult?: SubmissionResult<string[]>;
}) {
  const { t } = useTranslation("equipment");
  const text = useErrorText();
  const [form, fields] = useZodForm(validateEquipmentType, {
    id: "equipment-type",
    lastResult,
    defaultValue: {
      equipmentName: equipmentType.equipmentName,
      notes: equipmentType.notes ?? "",
      categoryId: equipmentType.categoryId === null ? "" : String(equipmentType.categoryId),
      tags: equipmentType.tags,
      incidentTypes: equipmentType.incidentTypes.map(String),
      deletedFiles: [],
    },
  });

  return (
    <Form method="post" encType="multipart/form-data" {...getFormProps(form)} className="grid gap-6">
      <DefaultSubmit />
      <input type="hidden" name="intent" value={intent} />
      <FormErrors id={form.errorId} errors={form.errors} />
      <FormSection title={t("type.details")} className="border-t-0 pt-0">
        <div className="grid items-start gap-4 sm:grid-cols-2">
          <Field label={t("type.name")} htmlFor={fields.equipmentName.id} errors={text(fields.equipmentName.errors)} required>
            <Input {...getInputProps(fields.equipmentName, { type: "text" })} autoComplete="off" />
          </Field>
          <SelectField
            label={t("type.category")}
            field={fields.categoryId}
            errors={text(fields.categoryId.errors)}
            description={
              categories.length === 0 ? <MissingHint message={t("type.noCategory")} to="/add-equipment-category" label={t("common:screens.add-equipment-category")} /> : undefined
            }
            required
            placeholder={t("type.chooseCategory")}
            options={categories}
          />
        </div>
        <Field label={t("type.notes")} htmlFor={fields.notes.id} errors={text(fields.notes.errors)}>
          <Textarea {...getTextareaProps(fields.notes)} rows={4} />
        </Field>
        <TagsField form={form} field={fields.tags} />
      </FormSection>

      <CheckboxListField
        title={t("type.incidentTypes")}
        description={incidentTypes.length ? t("type.incidentTypesHint") : t("type.noIncidentTypes")}
        field={fields.incidentTypes}
        options={incidentTypes}
      />

      <FilesField form={form} files={intent === "update" ? equipmentType.files : null} maxBytes={maxBytes} ns="equipment" keyPrefix="type" />

      <FormActions intent={intent} cancelTo={EQUIPMENT_TYPES_LIST} submitLabel={submitLabel} />
    </Form>
  );
}
