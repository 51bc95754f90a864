import {
  type FieldMetadata,
  getCollectionProps,
  getFormProps,
  getInputProps,
  getSelectProps,
  getTextareaProps,
  type SubmissionResult,
} from "@conform-to/react";
import { Form } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { CheckboxField, FormActions, FormSection, DefaultSubmit } from "~/components/forms/form-parts";
import { TagsField } from "~/components/forms/tags-field";
import { FormErrors, useErrorText, useZodForm } from "~/components/forms/zod-form";
import { Field, fieldControlProps } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import { Select } from "~/components/ui/select";
import { Textarea } from "~/components/ui/textarea";
import { EquipmentTypeSchema } from "~/modules/equipment/schema";
import type { AttachedFile } from "~/modules/rooms/queries.server";
import { FileList } from "./file-list";

export const EQUIPMENT_TYPES_LIST = "/equipments";

/** What the browser offers in the file picker; the server decides by content (modules/files/sniff.ts). */
const ACCEPT = ".png,.jpg,.jpeg,.gif,.webp,.pdf,.txt,.csv,.docx,.xlsx,.pptx,.odt,.ods";

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
  const [form, fields] = useZodForm(EquipmentTypeSchema, {
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
  // `newFiles` is not a field of the schema (the files travel beside it), but the service's file
  // errors come back under that name: conform's fieldset answers any name.
  const newFiles = (fields as unknown as Record<string, FieldMetadata<unknown>>).newFiles;
  const newFilesErrors = text(newFiles.errors);
  const newFilesId = `${form.id}-newFiles`;
  const maxSize = Math.round((maxBytes / (1024 * 1024)) * 10) / 10;

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
          <Field
            label={t("type.category")}
            htmlFor={fields.categoryId.id}
            errors={text(fields.categoryId.errors)}
            description={categories.length === 0 ? t("type.noCategory") : undefined}
            required
          >
            <Select {...getSelectProps(fields.categoryId, { ariaDescribedBy: categories.length === 0 ? `${fields.categoryId.id}-description` : undefined })}>
              <option value="">{t("type.chooseCategory")}</option>
              {categories.map((category) => (
                <option key={category.id} value={category.id}>
                  {category.name}
                </option>
              ))}
            </Select>
          </Field>
        </div>
        <Field label={t("type.notes")} htmlFor={fields.notes.id} errors={text(fields.notes.errors)}>
          <Textarea {...getTextareaProps(fields.notes)} rows={4} />
        </Field>
        <TagsField form={form} field={fields.tags} />
      </FormSection>

      <FormSection title={t("type.incidentTypes")} description={incidentTypes.length ? t("type.incidentTypesHint") : t("type.noIncidentTypes")}>
        {incidentTypes.length ? (
          <div className="grid gap-3 sm:grid-cols-2">
            {getCollectionProps(fields.incidentTypes, { type: "checkbox", options: incidentTypes.map((type) => String(type.id)) }).map(
              ({ key, type: _type, ...props }, index) => (
                <CheckboxField key={key} {...props} label={incidentTypes[index].name} />
              ),
            )}
          </div>
        ) : null}
        {fields.incidentTypes.errors?.length ? (
          <p id={fields.incidentTypes.errorId} className="text-sm font-medium text-destructive">
            {text(fields.incidentTypes.errors)?.join(" ")}
          </p>
        ) : null}
      </FormSection>

      <FormSection title={t("type.files")} description={t("type.filesHint")}>
        {intent === "update" ? (
          <FileList files={equipmentType.files} deletedFiles={fields.deletedFiles} errors={text(fields.deletedFiles.errors)} />
        ) : null}
        <Field
          label={t("type.newFiles")}
          htmlFor={newFilesId}
          errors={newFilesErrors}
          description={t("type.newFilesHint", { size: maxSize })}
        >
          <Input
            type="file"
            name="newFiles"
            multiple
            accept={ACCEPT}
            {...fieldControlProps(newFilesId, { errors: newFilesErrors, description: true })}
            className="h-auto cursor-pointer py-2 sm:h-auto"
          />
        </Field>
      </FormSection>

      <FormActions intent={intent} cancelTo={EQUIPMENT_TYPES_LIST} submitLabel={submitLabel} />
    </Form>
  );
}
