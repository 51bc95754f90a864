import { getFormProps, getInputProps, getSelectProps, getTextareaProps, type SubmissionResult, useForm } from "@conform-to/react";
import { Form } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { MissingHint } from "~/components/forms/missing-hint";
import { FilesField } from "~/components/forms/files-field";
import { CheckboxListField } from "~/components/forms/checkbox-list-field";
import { DefaultSubmit, FormActions, FormSection } from "~/components/forms/form-parts";
import { type BuildingChoice, BuildingPicker, type BuildingSearch } from "~/components/forms/building-picker";
import { SelectField } from "~/components/forms/select-field";
import { FormErrors, useErrorText, useLazyValidator } from "~/components/forms/zod-form";
import { Field, fieldDescriptionId } from "~/components/ui/field";
import { FIND_BUILDING_INTENT, MORE_BUILDINGS_INTENT } from "~/lib/pickers";
import { Input } from "~/components/ui/input";
import { Textarea } from "~/components/ui/textarea";
import type { AttachedFile, RoomEquipmentView } from "~/modules/rooms/queries.server";
import { RoomEquipmentField } from "./room-equipment-field";
import { type RoomFormShape, SAVE_INTENT } from "./room-form-intents";
import { RoomLinksField } from "./room-links-field";

export const ROOMS_LIST = "/facilities?tab=rooms";

/** The form's checks in the browser (zod and the schemas), loaded when the form is first used (decision 021). */
const loadValidation = () => import("./room-form-validation");

export interface RoomFormOptions {
  /** The building picker: the chosen building and one page of matches (the set can be large). */
  buildings: { selected: BuildingChoice | null; search: BuildingSearch };
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
  const validation = useLazyValidator("room", loadValidation, Boolean(lastResult));
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
    onValidate: validation?.validateRoomForm,
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
  });

  // No building at all (no search, nothing chosen): say where to add one.
  const noBuilding = !options.buildings.selected && !options.buildings.search.q && options.buildings.search.options.length === 0;

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
          <BuildingPicker
            key={`${options.buildings.search.q}|${options.buildings.search.options[0]?.id ?? ""}`}
            label={t("room.building")}
            selectProps={getSelectProps(fields.buildingId, { ariaDescribedBy: noBuilding ? fieldDescriptionId(fields.buildingId.id) : undefined })}
            errors={text(fields.buildingId.errors)}
            description={noBuilding ? <MissingHint message={t("room.noBuilding")} to="/add-building" label={t("common:screens.add-building")} /> : undefined}
            required
            emptyLabel={t("room.chooseBuilding")}
            selected={options.buildings.selected}
            search={options.buildings.search}
            submit={{ method: "post", searchIntent: FIND_BUILDING_INTENT, moreIntent: MORE_BUILDINGS_INTENT }}
          />
          <SelectField
            label={t("room.roomType")}
            field={fields.roomTypeId}
            errors={text(fields.roomTypeId.errors)}
            description={
              options.roomTypes.length === 0 ? <MissingHint message={t("room.noRoomType")} to="/add-room-type" label={t("common:screens.add-room-type")} /> : undefined
            }
            required
            placeholder={t("room.chooseRoomType")}
            options={options.roomTypes}
          />
        </div>
        <Field label={t("room.description")} htmlFor={fields.description.id} errors={text(fields.description.errors)}>
          <Textarea {...getTextareaProps(fields.description)} rows={3} />
        </Field>
      </FormSection>
      {/* Before the first list button: Enter in a field saves the room. */}
      <DefaultSubmit name="intent" value={SAVE_INTENT} />

      <RoomEquipmentField
        form={form}
        field={fields.equipments}
        addField={fields.addEquipment}
        equipmentTypes={options.equipmentTypes}
        existingItems={existingItems}
        parseAddEquipment={validation?.parseAddEquipment}
      />

      <CheckboxListField
        title={t("room.incidentTypes")}
        description={options.incidentTypes.length ? t("room.incidentTypesHint") : t("room.noIncidentTypes")}
        field={fields.incidentTypes}
        options={options.incidentTypes}
      />

      <RoomLinksField form={form} field={fields.links} />

      <FilesField form={form} files={mode === "update" ? files : null} maxBytes={maxBytes} ns="rooms" keyPrefix="room" />

      <FormActions intent={SAVE_INTENT} postsIntent cancelTo={ROOMS_LIST} submitLabel={submitLabel} />
    </Form>
  );
}
