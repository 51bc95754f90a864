import { type FieldMetadata, type FormMetadata, getInputProps } from "@conform-to/react";
import { type MouseEvent, useState } from "react";
import { useTranslation } from "react-i18next";
import { MissingHint } from "~/components/forms/missing-hint";
import { FormSection, RemoveRowButton } from "~/components/forms/form-parts";
import { groupOptions, SelectField } from "~/components/forms/select-field";
import { ErrorText, useErrorText } from "~/components/forms/zod-form";
import { Button } from "~/components/ui/button";
import { Field } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import type { RoomEquipmentView } from "~/modules/rooms/queries.server";
import type { AddEquipmentInput, RoomEquipmentInput } from "~/modules/rooms/schema";
import { equipmentRowsOf, newEquipmentRows } from "~/lib/equipment-rows";
import { ADD_EQUIPMENT_INTENT, type RoomFormShape } from "./room-form-intents";
import type { RoomFormValidation } from "./room-form-validation";

type EquipmentType = { id: number; name: string; categoryId: number; categoryName: string };

/**
 * The equipment items of a room: one row per item (hidden `id` and `equipmentTypeId`, the generic
 * equipment as text, an editable internal reference, the report identifier of a stored item, a Remove
 * button), the list's error ("You should have at least one equipment") and the quantity dialog.
 *
 * The quantity dialog is a disclosure panel inside the room form, so it needs no JavaScript and no
 * navigation (the room's unsaved input stays): its button posts `intent=add-equipment` and the
 * action answers the same form with the new rows. With JavaScript the rows are added in the browser
 * (one conform `update` of the list), keeping the files already chosen.
 */
export function RoomEquipmentField({
  form,
  field,
  addField,
  equipmentTypes,
  existingItems,
  parseAddEquipment,
}: {
  form: FormMetadata<RoomFormShape, string[]>;
  field: FieldMetadata<RoomEquipmentInput[] | null | undefined, RoomFormShape, string[]>;
  addField: FieldMetadata<AddEquipmentInput | undefined, RoomFormShape, string[]>;
  equipmentTypes: EquipmentType[];
  existingItems: RoomEquipmentView[];
  /** The dialog's check, once the form's validation has loaded; until then the dialog posts (the server adds the rows). */
  parseAddEquipment?: RoomFormValidation["parseAddEquipment"];
}) {
  const { t } = useTranslation("rooms");
  const text = useErrorText();
  const items = field.getFieldList();
  const add = addField.getFieldset();
  const typesById = new Map(equipmentTypes.map((type) => [String(type.id), type]));
  const storedById = new Map(existingItems.map((item) => [String(item.id), item]));
  const addErrors = Boolean(add.equipmentTypeId.errors?.length || add.quantity.errors?.length || addField.errors?.length);
  const [open, setOpen] = useState(addErrors);
  const listErrors = text(field.errors);

  function addInBrowser(event: MouseEvent<HTMLButtonElement>) {
    const formElement = event.currentTarget.form;
    if (!formElement || !parseAddEquipment) return;
    const submission = parseAddEquipment(new FormData(formElement));
    // Invalid: let the submission go on; the form's validation shows the errors beside the fields.
    if (submission.status !== "success") return;
    const type = typesById.get(String(submission.value.addEquipment.equipmentTypeId));
    if (!type) return;
    event.preventDefault();
    const current = equipmentRowsOf((submission.payload as Record<string, unknown>).equipments);
    const rows = newEquipmentRows(current, type, submission.value.addEquipment.quantity);
    form.update({ name: field.name, value: [...current, ...rows] as never });
    for (const name of [add.equipmentTypeId.name, add.quantity.name]) {
      const element = formElement.elements.namedItem(name);
      if (element instanceof HTMLInputElement || element instanceof HTMLSelectElement) element.value = "";
    }
    setOpen(false);
  }

  return (
    <FormSection title={t("room.equipment")} description={t("room.equipmentHint")}>
      {items.length === 0 ? (
        <p className="rounded-md border border-dashed p-4 text-sm text-muted-foreground">{t("room.noEquipment")}</p>
      ) : (
        <div className="grid gap-2">
          <div
            aria-hidden="true"
            className="hidden gap-3 px-3 text-xs font-medium uppercase tracking-wide text-muted-foreground sm:grid sm:grid-cols-[minmax(0,1fr)_minmax(0,1fr)_9rem_2.5rem]"
          >
            <span>{t("room.genericEquipment")}</span>
            <span>{t("room.internalReference")}</span>
            <span>{t("room.reportIdentifier")}</span>
            <span />
          </div>
          <ul className="grid gap-2">
            {items.map((item, index) => {
              const row = item.getFieldset();
              const typeId = String(row.equipmentTypeId.initialValue ?? "");
              const id = row.id.initialValue ? String(row.id.initialValue) : "";
              const stored = id ? storedById.get(id) : undefined;
              const type = typesById.get(typeId);
              const name = type?.name ?? stored?.equipmentName ?? t("room.unknownEquipment");
              const category = type?.categoryName ?? stored?.categoryName ?? "";
              const rowErrors = [
                ...(text(row.id.errors) ?? []),
                ...(text(row.equipmentTypeId.errors) ?? []),
                ...(text(item.errors) ?? []),
              ];
              const referenceErrors = text(row.internalReference.errors);
              return (
                <li
                  key={item.key}
                  className="grid items-center gap-2 rounded-md border p-3 sm:grid-cols-[minmax(0,1fr)_minmax(0,1fr)_9rem_2.5rem] sm:gap-3"
                >
                  <input {...getInputProps(row.id, { type: "hidden" })} key={row.id.key} />
                  <input {...getInputProps(row.equipmentTypeId, { type: "hidden" })} key={row.equipmentTypeId.key} />
                  <div className="min-w-0">
                    <p className="truncate text-sm font-medium">{name}</p>
                    {category ? <p className="truncate text-xs text-muted-foreground">{category}</p> : null}
                  </div>
                  <div className="grid gap-1">
                    <Input
                      {...getInputProps(row.internalReference, { type: "text" })}
                      key={row.internalReference.key}
                      aria-label={`${t("room.internalReference")} – ${name} (${index + 1})`}
                      autoComplete="off"
                    />
                    <ErrorText id={row.internalReference.errorId} errors={referenceErrors} />
                  </div>
                  <div className="min-w-0 text-sm">
                    <span className="text-xs text-muted-foreground sm:hidden">{t("room.reportIdentifier")}: </span>
                    {stored?.reportIdentifier ? (
                      <code className="break-all font-mono text-xs">{stored.reportIdentifier}</code>
                    ) : (
                      <span className="text-xs text-muted-foreground">{t("room.newItem")}</span>
                    )}
                  </div>
                  <RemoveRowButton
                    {...form.remove.getButtonProps({ name: field.name, index })}
                    aria-label={t("room.removeItem", { name: `${name} (${index + 1})` })}
                    className="justify-self-end"
                  />
                  <ErrorText errors={rowErrors} className="sm:col-span-4" />
                </li>
              );
            })}
          </ul>
        </div>
      )}
      <ErrorText id={field.errorId} role="alert" errors={listErrors} />

      <details
        open={open}
        onToggle={(event) => setOpen(event.currentTarget.open)}
        className="group rounded-md border bg-muted/30"
      >
        <summary className="flex min-h-11 cursor-pointer list-none items-center gap-2 px-4 text-sm font-medium sm:min-h-10 [&::-webkit-details-marker]:hidden">
          <svg aria-hidden="true" viewBox="0 0 24 24" className="size-4" fill="none" stroke="currentColor" strokeWidth={2} strokeLinecap="round">
            <path d="M12 5v14M5 12h14" />
          </svg>
          {t("room.addEquipment")}
        </summary>
        <div className="grid gap-4 border-t p-4">
          <p className="text-sm text-muted-foreground">
            {equipmentTypes.length ? (
              t("room.addEquipmentHint")
            ) : (
              <MissingHint message={t("room.noEquipmentTypes")} to="/add-generic-equipment" label={t("common:screens.add-generic-equipment")} />
            )}
          </p>
          <div className="grid items-start gap-4 sm:grid-cols-[minmax(0,1fr)_12rem]">
            <SelectField
              key={add.equipmentTypeId.key}
              label={t("room.genericEquipment")}
              field={add.equipmentTypeId}
              errors={text(add.equipmentTypeId.errors)}
              required
              placeholder={t("room.chooseEquipment")}
              options={groupOptions(equipmentTypes, (type) => ({ id: type.categoryId, name: type.categoryName }))}
            />
            <Field label={t("room.quantity")} htmlFor={add.quantity.id} errors={text(add.quantity.errors)} required>
              <Input {...getInputProps(add.quantity, { type: "number" })} key={add.quantity.key} inputMode="numeric" step={1} />
            </Field>
          </div>
          <div>
            <Button
              type="submit"
              name="intent"
              value={ADD_EQUIPMENT_INTENT}
              formNoValidate
              variant="secondary"
              onClick={addInBrowser}
              className="w-full sm:w-auto"
            >
              {t("room.addItems")}
            </Button>
          </div>
        </div>
      </details>
    </FormSection>
  );
}
