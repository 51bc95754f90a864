import { getFormProps, getInputProps, getTextareaProps, type SubmissionResult } from "@conform-to/react";
import { Form, Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { ViewDetails, ViewEmpty, ViewSection } from "~/components/facilities/place-view";
import { FileThumb, FilesField } from "~/components/forms/files-field";
import { DefaultSubmit, FormSection, SubmitButton } from "~/components/forms/form-parts";
import { SelectField } from "~/components/forms/select-field";
import { FormErrors, useErrorText, useZodForm, zodValidator } from "~/components/forms/zod-form";
import { Field } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import { Textarea } from "~/components/ui/textarea";
import { useDates } from "~/lib/use-dates";
import type { EquipmentItemRecordView, RelatedItem } from "~/modules/equipment/item-queries.server";

/** Client-side validation, loaded when the form is first used (decision 021). */
const validateRecord = zodValidator(() => import("~/modules/equipment/schema").then((m) => m.EquipmentItemRecordSchema));

export const RECORD_INTENT = "record";

/** "Pump · PUMP-1", "(archived)" added for an archived one. */
function useItemName() {
  const { t } = useTranslation("equipment");
  return (item: RelatedItem) => {
    const name = [item.equipmentName, item.internalReference].filter(Boolean).join(" · ");
    return item.archived ? t("item.archivedItem", { name }) : name;
  };
}

/** An item named with a link to its screen (none for an archived one, whose screen is gone). */
function ItemLink({ item }: { item: RelatedItem }) {
  const name = useItemName()(item);
  if (item.archived) return <span>{name}</span>;
  return (
    <Link to={`/view-equipment/${item.id}`} className="font-medium text-primary underline-offset-4 hover:underline">
      {name}
    </Link>
  );
}

/** The item's record as read: its fields, its parent, its children and its files. */
export function ItemRecordView({ record }: { record: EquipmentItemRecordView }) {
  const { t } = useTranslation("equipment");
  const dates = useDates();
  const day = (d: string | null) => (d ? dates.day(d) : null);
  return (
    <ViewSection title={t("item.record")}>
      <div className="grid gap-4">
        <ViewDetails
          items={[
            [t("item.serialNumber"), record.serialNumber],
            [t("item.manufacturer"), record.manufacturer],
            [t("item.model"), record.model],
            [t("item.installedOn"), day(record.installedOn)],
            [t("item.warrantyEndsOn"), day(record.warrantyEndsOn)],
            [t("item.supplier"), record.supplier],
            [t("item.parent"), record.parent ? <ItemLink item={record.parent} /> : null],
            [t("item.notes"), record.notes],
          ]}
        />
        <ItemChildren items={record.children} />
        <ItemFiles record={record} />
      </div>
    </ViewSection>
  );
}

function ItemChildren({ items }: { items: RelatedItem[] }) {
  const { t } = useTranslation("equipment");
  return (
    <div className="grid gap-2">
      <h3 className="text-sm font-medium">{t("item.children")}</h3>
      {items.length === 0 ? (
        <ViewEmpty>{t("item.noChildren")}</ViewEmpty>
      ) : (
        <ul className="grid gap-1 text-sm">
          {items.map((child) => (
            <li key={child.id}>
              <ItemLink item={child} />
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

function ItemFiles({ record }: { record: EquipmentItemRecordView }) {
  const { t } = useTranslation("equipment");
  return (
    <div className="grid gap-2">
      <h3 className="text-sm font-medium">{t("item.files")}</h3>
      {record.files.length === 0 ? (
        <ViewEmpty>{t("item.noFiles")}</ViewEmpty>
      ) : (
        <ul className="grid gap-2 sm:grid-cols-2">
          {record.files.map((file) => (
            <li key={file.id} className="flex items-center gap-3 rounded-md border p-2">
              <FileThumb file={file} className="size-10" />
              <a href={file.url} target="_blank" rel="noreferrer" className="truncate text-sm font-medium text-primary underline-offset-4 hover:underline">
                {file.name}
              </a>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

/**
 * The form of the item's record (a multipart post, `intent=record`): its fields, its parent among the
 * items the viewer reaches (never one below it), and its documents and photos to add or delete.
 */
export function ItemRecordForm({
  record,
  parentChoices,
  maxBytes,
  lastResult,
}: {
  record: EquipmentItemRecordView;
  parentChoices: RelatedItem[];
  maxBytes: number;
  lastResult?: SubmissionResult<string[]>;
}) {
  const { t } = useTranslation("equipment");
  const text = useErrorText();
  const itemName = useItemName();
  const [form, fields] = useZodForm(validateRecord, {
    id: "item-record",
    lastResult,
    defaultValue: {
      serialNumber: record.serialNumber ?? "",
      manufacturer: record.manufacturer ?? "",
      model: record.model ?? "",
      installedOn: record.installedOn ?? "",
      warrantyEndsOn: record.warrantyEndsOn ?? "",
      supplier: record.supplier ?? "",
      notes: record.notes ?? "",
      parentItemId: record.parentItemId === null ? "" : String(record.parentItemId),
      deletedFiles: [],
    },
  });
  // The current parent stays a choice even when archived since.
  const parents = record.parent && !parentChoices.some((p) => p.id === record.parent!.id) ? [record.parent, ...parentChoices] : parentChoices;
  const textField = (name: "serialNumber" | "manufacturer" | "model" | "supplier") => (
    <Field label={t(`item.${name}`)} htmlFor={fields[name].id} errors={text(fields[name].errors)}>
      <Input {...getInputProps(fields[name], { type: "text" })} autoComplete="off" />
    </Field>
  );
  const dateField = (name: "installedOn" | "warrantyEndsOn") => (
    <Field label={t(`item.${name}`)} htmlFor={fields[name].id} errors={text(fields[name].errors)}>
      <Input {...getInputProps(fields[name], { type: "date" })} />
    </Field>
  );
  return (
    <Form method="post" encType="multipart/form-data" {...getFormProps(form)} className="grid gap-6">
      <DefaultSubmit />
      <input type="hidden" name="intent" value={RECORD_INTENT} />
      <FormErrors id={form.errorId} errors={form.errors} />
      <FormSection title={t("item.editRecord")} className="border-t-0 pt-0">
        <div className="grid items-start gap-4 sm:grid-cols-2">
          {textField("serialNumber")}
          {textField("manufacturer")}
          {textField("model")}
          {textField("supplier")}
          {dateField("installedOn")}
          {dateField("warrantyEndsOn")}
        </div>
        <SelectField
          label={t("item.parent")}
          field={fields.parentItemId}
          errors={text(fields.parentItemId.errors)}
          description={t("item.parentHint")}
          placeholder={t("item.noParent")}
          options={parents.map((p) => ({ id: p.id, name: itemName(p) }))}
        />
        <Field label={t("item.notes")} htmlFor={fields.notes.id} errors={text(fields.notes.errors)}>
          <Textarea {...getTextareaProps(fields.notes)} rows={3} />
        </Field>
      </FormSection>
      <FilesField form={form} files={record.files} maxBytes={maxBytes} ns="equipment" keyPrefix="item" />
      <div className="flex justify-end border-t pt-6">
        <SubmitButton intent={RECORD_INTENT}>{t("common:actions.save")}</SubmitButton>
      </div>
    </Form>
  );
}
