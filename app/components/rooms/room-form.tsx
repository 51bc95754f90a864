import {
  type FieldMetadata,
  getCollectionProps,
  getFormProps,
  getInputProps,
  getSelectProps,
  getTextareaProps,
  type SubmissionResult,
  useForm,
} from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { Form, Link, useNavigation } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { CheckboxField, DefaultSubmit, FormSection } from "~/components/forms/form-parts";
import { FormErrors, useErrorText } from "~/components/forms/zod-form";
import { Button, buttonVariants } from "~/components/ui/button";
import { Field } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import { Select } from "~/components/ui/select";
import { Textarea } from "~/components/ui/textarea";
import { cn } from "~/lib/utils";
import type { AttachedFile, RoomEquipmentView } from "~/modules/rooms/queries.server";
import { RoomSchema } from "~/modules/rooms/schema";
import { RoomEquipmentField } from "./room-equipment-field";
import { ADD_EQUIPMENT_INTENT, AddEquipmentFormSchema, type RoomFormShape, SAVE_INTENT } from "./room-form-schema";
import { RoomFilesField } from "./room-files-field";
import { RoomLinksField } from "./room-links-field";

export const ROOMS_LIST = "/facilities?tab=rooms";

export interface RoomFormOptions {
  buildings: { id: number; name: string; facilityId: number; facilityName: string }[];
  roomTypes: { id: number; name: string }[];
  incidentTypes: { id: number; name: string }[];
  equipmentTypes: { id: number; name: string; categoryId: number; categoryName: string }[];
}

/** What the form starts from: an empty room (add) or the stored one (update). */
export interface RoomFormValues {
  name: string;
  description: string | null;
  floor: string;
  buildingId: number | null;
  roomTypeId: number | null;
  incidentTypes: number[];
  links: { type: number; url: string }[];
  equipments: { id: number; equipmentTypeId: number; internalReference: string | null }[];
}

/** The buildings grouped by facility, for an `<optgroup>` per facility. */
function byFacility(buildings: RoomFormOptions["buildings"]) {
  const groups = new Map<number, { name: string; buildings: RoomFormOptions["buildings"] }>();
  for (const building of buildings) {
    const group = groups.get(building.facilityId) ?? { name: building.facilityName, buildings: [] };
    group.buildings.push(building);
    groups.set(building.facilityId, group);
  }
  return [...groups.entries()].map(([id, group]) => ({ id, ...group }));
}

/**
 * The room form of /add-room and /update-room/{id} (SPEC.md sections 3 and 5): details, equipment
 * items (with the quantity dialog), incident types, links, files and images. One multipart post that
 * works without JavaScript; the buttons of its lists are conform intents, the quantity dialog posts
 * `intent=add-equipment` (done in the browser when JavaScript runs), Save posts `intent=save`.
 */
export function RoomForm({
  room,
  options,
  existingItems = [],
  files = [],
  mode,
  submitLabel,
  lastResult,
  maxBytes,
}: {
  room: RoomFormValues;
  options: RoomFormOptions;
  /** The stored items (report identifiers) of an existing room. */
  existingItems?: RoomEquipmentView[];
  /** The stored files of an existing room. */
  files?: AttachedFile[];
  mode: "create" | "update";
  submitLabel: string;
  lastResult?: SubmissionResult<string[]>;
  maxBytes: number;
}) {
  const { t } = useTranslation("rooms");
  const text = useErrorText();
  const navigation = useNavigation();
  const [form, fields] = useForm<RoomFormShape, unknown>({
    id: "room",
    lastResult,
    defaultValue: {
      name: room.name,
      description: room.description ?? "",
      floor: room.floor,
      buildingId: room.buildingId === null ? "" : String(room.buildingId),
      roomTypeId: room.roomTypeId === null ? "" : String(room.roomTypeId),
      incidentTypes: room.incidentTypes.map(String),
      links: room.links.map((link) => ({ type: String(link.type), url: link.url })),
      equipments: room.equipments.map((item) => ({
        id: String(item.id),
        equipmentTypeId: String(item.equipmentTypeId),
        internalReference: item.internalReference ?? "",
      })),
      deletedFiles: [],
    },
    onValidate: ({ formData }) =>
      formData.get("intent") === ADD_EQUIPMENT_INTENT
        ? parseWithZod(formData, { schema: AddEquipmentFormSchema })
        : parseWithZod(formData, { schema: RoomSchema }),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
  });
  // `newFiles` is not a field of the schema (the files travel beside it); the service's file errors
  // come back under that name.
  const newFiles = fields.newFiles as FieldMetadata<unknown>;
  const saving = navigation.state === "submitting" && navigation.formData?.get("intent") === SAVE_INTENT;
  const groups = byFacility(options.buildings);
  const cancelTo = ROOMS_LIST;

  return (
    <Form method="post" encType="multipart/form-data" {...getFormProps(form)} className="relative grid gap-8">
      <FormErrors id={form.errorId} errors={form.errors} />

      <FormSection title={t("room.details")}>
        <div className="grid items-start gap-4 sm:grid-cols-2">
          <Field label={t("room.name")} htmlFor={fields.name.id} errors={text(fields.name.errors)} required>
            <Input {...getInputProps(fields.name, { type: "text" })} autoComplete="off" />
          </Field>
          <Field label={t("room.floor")} htmlFor={fields.floor.id} errors={text(fields.floor.errors)} required>
            <Input {...getInputProps(fields.floor, { type: "text" })} autoComplete="off" />
          </Field>
          <Field
            label={t("room.building")}
            htmlFor={fields.buildingId.id}
            errors={text(fields.buildingId.errors)}
            description={options.buildings.length === 0 ? t("room.noBuilding") : undefined}
            required
          >
            <Select
              {...getSelectProps(fields.buildingId, {
                ariaDescribedBy: options.buildings.length === 0 ? `${fields.buildingId.id}-description` : undefined,
              })}
            >
              <option value="">{t("room.chooseBuilding")}</option>
              {groups.map((group) => (
                <optgroup key={group.id} label={group.name}>
                  {group.buildings.map((building) => (
                    <option key={building.id} value={building.id}>
                      {building.name}
                    </option>
                  ))}
                </optgroup>
              ))}
            </Select>
          </Field>
          <Field
            label={t("room.roomType")}
            htmlFor={fields.roomTypeId.id}
            errors={text(fields.roomTypeId.errors)}
            description={options.roomTypes.length === 0 ? t("room.noRoomType") : undefined}
            required
          >
            <Select
              {...getSelectProps(fields.roomTypeId, {
                ariaDescribedBy: options.roomTypes.length === 0 ? `${fields.roomTypeId.id}-description` : undefined,
              })}
            >
              <option value="">{t("room.chooseRoomType")}</option>
              {options.roomTypes.map((type) => (
                <option key={type.id} value={type.id}>
                  {type.name}
                </option>
              ))}
            </Select>
          </Field>
        </div>
        <Field label={t("room.description")} htmlFor={fields.description.id} errors={text(fields.description.errors)}>
          <Textarea {...getTextareaProps(fields.description)} rows={3} />
        </Field>
      </FormSection>
      {/* Before the first list button: Enter in a field saves the room. */}
      <DefaultSubmit name="intent" value={SAVE_INTENT} />

      <RoomEquipmentField form={form} field={fields.equipments} addField={fields.addEquipment} equipmentTypes={options.equipmentTypes} existingItems={existingItems} />

      <FormSection
        title={t("room.incidentTypes")}
        description={options.incidentTypes.length ? t("room.incidentTypesHint") : t("room.noIncidentTypes")}
      >
        {options.incidentTypes.length ? (
          <div className="grid gap-3 sm:grid-cols-2">
            {getCollectionProps(fields.incidentTypes, {
              type: "checkbox",
              options: options.incidentTypes.map((type) => String(type.id)),
            }).map(({ key, type: _type, ...props }, index) => (
              <CheckboxField key={key} {...props} label={options.incidentTypes[index].name} />
            ))}
          </div>
        ) : null}
        {fields.incidentTypes.errors?.length ? (
          <p id={fields.incidentTypes.errorId} className="text-sm font-medium text-destructive">
            {text(fields.incidentTypes.errors)?.join(" ")}
          </p>
        ) : null}
      </FormSection>

      <RoomLinksField form={form} field={fields.links} />

      <RoomFilesField
        files={mode === "update" ? files : null}
        deletedFiles={fields.deletedFiles}
        newFiles={newFiles}
        formId={form.id}
        maxBytes={maxBytes}
      />

      <div className="flex flex-col-reverse gap-2 border-t pt-6 sm:flex-row sm:justify-end">
        <Link to={cancelTo} className={cn(buttonVariants({ variant: "outline" }), "w-full sm:w-auto")}>
          {t("common:actions.cancel")}
        </Link>
        <Button type="submit" name="intent" value={SAVE_INTENT} disabled={saving} className="w-full sm:w-auto">
          {saving ? t("common:actions.saving") : submitLabel}
        </Button>
      </div>
    </Form>
  );
}
