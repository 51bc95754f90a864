import { type FieldMetadata, getFormProps, getInputProps, getSelectProps, getTextareaProps, type SubmissionResult, useForm } from "@conform-to/react";
import { Form } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { CheckboxListField } from "~/components/forms/checkbox-list-field";
import { DefaultSubmit, FormActions, FormSection } from "~/components/forms/form-parts";
import { TagsField } from "~/components/forms/tags-field";
import { FormErrors, useErrorText, useLazyValidator } from "~/components/forms/zod-form";
import { Field, fieldDescriptionId } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import { Select } from "~/components/ui/select";
import { Textarea } from "~/components/ui/textarea";
import { LOCATION_FIELDS, PLANS_LIST, TYPES_LIST } from "~/lib/maintenance-form";
import { type CheckedLocations, LocationPicker, type LocationTreeView } from "./location-picker";
import { Options } from "~/components/ui/options";

/**
 * The maintenance type form and the planned maintenance form (SPEC.md sections 3 and 5): plain posts
 * that work without JavaScript. Save posts `intent=create|update`; the location picker's buttons post
 * the form as it is (the server answers it again), so only Save is checked in the browser.
 */

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyField = FieldMetadata<any, any, string[]>;
type Intent = "create" | "update";

const OCCURRENCE_UNITS = [0, 1, 2, 3, 4] as const;

const loadValidation = () =>
  Promise.all([import("@conform-to/zod/v4"), import("zod"), import("~/modules/maintenance/schema")]).then(([{ parseWithZod }, { z }, schemas]) => {
    const asItIs = z.object({}).passthrough();
    return {
      validate: (formData: FormData, schema: "type" | "plan" | null) =>
        parseWithZod(formData, { schema: schema === "type" ? schemas.MaintenanceTypeSchema : schema === "plan" ? schemas.PlannedMaintenanceSchema : asItIs }),
    };
  });

/** conform's form, validated in the browser on Save only (a picker button posts the form as it is). */
function useMaintenanceForm(id: string, kind: "type" | "plan", lastResult: SubmissionResult<string[]> | undefined, defaults: Record<string, unknown>) {
  const validation = useLazyValidator(id, loadValidation, Boolean(lastResult));
  return useForm<Record<string, unknown>, unknown>({
    id,
    lastResult,
    onValidate: validation
      ? ({ formData, submitter }) => {
          const picker = submitter instanceof HTMLButtonElement && submitter.name === LOCATION_FIELDS.browse;
          return validation.validate(formData, picker ? null : kind);
        }
      : undefined,
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
    // After an answer of the server (a picker button, a refused save) the form starts from the posted input.
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    defaultValue: ((lastResult?.initialValue as Record<string, unknown> | undefined) ?? defaults) as any,
  });
}

const strings = (value: unknown) => ([] as unknown[]).concat(value ?? []).filter((v) => v !== undefined && v !== null && v !== "").map(String);

function checkedOf(all: Record<string, AnyField>): CheckedLocations {
  return {
    facilityIds: strings(all.facilityIds?.initialValue),
    buildingIds: strings(all.buildingIds?.initialValue),
    roomIds: strings(all.roomIds?.initialValue),
    equipmentItemIds: strings(all.equipmentItemIds?.initialValue),
  };
}

function OccurrenceFields({ unit, interval }: { unit: AnyField; interval: AnyField }) {
  const { t } = useTranslation("maintenance");
  const text = useErrorText(["maintenance"]);
  return (
    <div className="grid items-start gap-4 sm:grid-cols-2">
      <Field label={t("form.occurrenceUnit")} htmlFor={unit.id} errors={text(unit.errors)}>
        <Select {...getSelectProps(unit)}>
          <Options values={OCCURRENCE_UNITS} label={(value) => t(`form.units.${value}`)} />
        </Select>
      </Field>
      <Field label={t("form.occurrenceInterval")} htmlFor={interval.id} errors={text(interval.errors)} description={t("form.occurrenceIntervalHint")}>
        <Input {...getInputProps(interval, { type: "number", ariaDescribedBy: fieldDescriptionId(interval.id) })} min={1} max={999} inputMode="numeric" />
      </Field>
    </div>
  );
}

export interface Person {
  id: number;
  name: string;
  surname: string;
}

export interface MaintenanceTypeFormValues {
  name: string;
  tags: string[];
  occurrenceUnit: number;
  occurrenceInterval: number | null;
  instructions: string;
  estimatedDuration: number | null;
  assigneeIds: number[];
  roomIds: number[];
  equipmentItemIds: number[];
}

export const EMPTY_TYPE: MaintenanceTypeFormValues = { name: "", tags: [], occurrenceUnit: 3, occurrenceInterval: 1, instructions: "", estimatedDuration: null, assigneeIds: [], roomIds: [], equipmentItemIds: [] };

/** The maintenance type form: name, tags, occurrence, instructions, and the defaults of its plans (assignees, rooms, equipment). */
export function MaintenanceTypeForm({
  intent,
  values,
  tree,
  assignees,
  lastResult,
}: {
  intent: Intent;
  values: MaintenanceTypeFormValues;
  tree: LocationTreeView;
  assignees: Person[];
  lastResult?: SubmissionResult<string[]>;
}) {
  const { t } = useTranslation("maintenance");
  const text = useErrorText(["maintenance"]);
  const [form, fields] = useMaintenanceForm(`maintenance-type-${intent}`, "type", lastResult, {
    name: values.name,
    tags: values.tags,
    occurrenceUnit: String(values.occurrenceUnit),
    occurrenceInterval: values.occurrenceInterval == null ? "" : String(values.occurrenceInterval),
    instructions: values.instructions,
    estimatedDuration: values.estimatedDuration == null ? "" : String(values.estimatedDuration),
    assigneeIds: values.assigneeIds.map(String),
    roomIds: values.roomIds.map(String),
    equipmentItemIds: values.equipmentItemIds.map(String),
  });
  const all = fields as unknown as Record<string, AnyField>;
  return (
    <Form method="post" {...getFormProps(form)} className="grid gap-6">
      <DefaultSubmit name="intent" value={intent} />
      <FormErrors id={form.errorId} errors={form.errors} ns={["maintenance"]} />
      <FormSection title={t("form.general")}>
        <Field label={t("form.typeName")} htmlFor={all.name.id} errors={text(all.name.errors)} required>
          <Input {...getInputProps(all.name, { type: "text" })} autoComplete="off" />
        </Field>
        {/* eslint-disable-next-line @typescript-eslint/no-explicit-any */}
        <TagsField form={form as any} field={all.tags as any} />
      </FormSection>
      <FormSection title={t("form.occurrence")} description={t("form.typeOccurrenceHint")}>
        <OccurrenceFields unit={all.occurrenceUnit} interval={all.occurrenceInterval} />
      </FormSection>
      <FormSection title={t("form.instructions")}>
        <Field label={t("form.instructionsLabel")} htmlFor={all.instructions.id} errors={text(all.instructions.errors)}>
          <Textarea {...getTextareaProps(all.instructions)} rows={4} />
        </Field>
        <Field label={t("form.estimatedDuration")} htmlFor={all.estimatedDuration.id} errors={text(all.estimatedDuration.errors)}>
          <Input {...getInputProps(all.estimatedDuration, { type: "number" })} min={1} step={1} inputMode="numeric" className="w-32" />
        </Field>
      </FormSection>
      <CheckboxListField title={t("form.defaultAssignees")} description={t("form.defaultAssigneesHint")} field={all.assigneeIds} options={assignees.map((p) => ({ id: p.id, name: `${p.name} ${p.surname}` }))} />
      <FormSection title={t("form.defaultLocations")}>
        <LocationPicker
          tree={tree}
          checked={checkedOf(all)}
          allowWhole={false}
          legend={t("form.defaultLocationsLegend")}
          hint={t("form.defaultLocationsHint")}
          errors={text([...(all.roomIds.errors ?? []), ...(all.equipmentItemIds.errors ?? []), ...(all.selection?.errors ?? [])])}
          errorId={`${form.id}-locations-error`}
          idPrefix={`${form.id}-loc`}
        />
      </FormSection>
      <FormActions intent={intent} postsIntent cancelTo={TYPES_LIST} submitLabel={intent === "create" ? t("common:actions.add") : t("common:actions.save")} />
    </Form>
  );
}

export interface PlannedMaintenanceFormValues {
  name: string;
  maintenanceTypeId: number | null;
  startDate: string;
  endDate: string;
  timeOfDay: string | null;
  occurrenceUnit: number;
  occurrenceInterval: number | null;
  instructions: string;
  assigneeIds: number[];
  facilityIds: number[];
  buildingIds: number[];
  roomIds: number[];
  equipmentItemIds: number[];
}

/** The planned maintenance form: name, type, dates and time, occurrence, assignees, locations and instructions. */
export function PlannedMaintenanceForm({
  intent,
  values,
  types,
  tree,
  assignees,
  hiddenLocations = 0,
  timeZone,
  lastResult,
}: {
  intent: Intent;
  values: PlannedMaintenanceFormValues;
  types: { id: number; name: string }[];
  tree: LocationTreeView;
  assignees: Person[];
  /** Locations of the plan outside the editor's reach (kept). */
  hiddenLocations?: number;
  timeZone: string;
  lastResult?: SubmissionResult<string[]>;
}) {
  const { t } = useTranslation("maintenance");
  const text = useErrorText(["maintenance"]);
  const [form, fields] = useMaintenanceForm(`planned-maintenance-${intent}`, "plan", lastResult, {
    name: values.name,
    maintenanceTypeId: values.maintenanceTypeId == null ? "" : String(values.maintenanceTypeId),
    startDate: values.startDate,
    endDate: values.endDate,
    timeOfDay: values.timeOfDay ?? "",
    occurrenceUnit: String(values.occurrenceUnit),
    occurrenceInterval: values.occurrenceInterval == null ? "" : String(values.occurrenceInterval),
    instructions: values.instructions,
    assigneeIds: values.assigneeIds.map(String),
    facilityIds: values.facilityIds.map(String),
    buildingIds: values.buildingIds.map(String),
    roomIds: values.roomIds.map(String),
    equipmentItemIds: values.equipmentItemIds.map(String),
  });
  const all = fields as unknown as Record<string, AnyField>;
  const locationErrors = [
    ...(all.selection?.errors ?? []),
    ...(all.facilityIds.errors ?? []),
    ...(all.buildingIds.errors ?? []),
    ...(all.roomIds.errors ?? []),
    ...(all.equipmentItemIds.errors ?? []),
  ];
  return (
    <Form method="post" {...getFormProps(form)} className="grid gap-6">
      <DefaultSubmit name="intent" value={intent} />
      <FormErrors id={form.errorId} errors={form.errors} ns={["maintenance"]} />
      <FormSection title={t("form.general")}>
        <Field label={t("form.planName")} htmlFor={all.name.id} errors={text(all.name.errors)} required>
          <Input {...getInputProps(all.name, { type: "text" })} autoComplete="off" />
        </Field>
        <Field label={t("form.type")} htmlFor={all.maintenanceTypeId.id} errors={text(all.maintenanceTypeId.errors)} required>
          <Select {...getSelectProps(all.maintenanceTypeId)}>
            <option value="">{t("form.chooseType")}</option>
            <Options values={types} />
          </Select>
        </Field>
      </FormSection>
      <FormSection title={t("form.when")} description={t("form.whenHint", { timeZone })}>
        <div className="grid items-start gap-4 sm:grid-cols-3">
          <Field label={t("form.startDate")} htmlFor={all.startDate.id} errors={text(all.startDate.errors)} required>
            <Input {...getInputProps(all.startDate, { type: "date" })} />
          </Field>
          <Field label={t("form.endDate")} htmlFor={all.endDate.id} errors={text(all.endDate.errors)} required>
            <Input {...getInputProps(all.endDate, { type: "date" })} />
          </Field>
          <Field label={t("form.timeOfDay")} htmlFor={all.timeOfDay.id} errors={text(all.timeOfDay.errors)} description={t("form.timeOfDayHint")}>
            <Input {...getInputProps(all.timeOfDay, { type: "time", ariaDescribedBy: fieldDescriptionId(all.timeOfDay.id) })} />
          </Field>
        </div>
        <OccurrenceFields unit={all.occurrenceUnit} interval={all.occurrenceInterval} />
      </FormSection>
      <FormSection title={t("form.locations")}>
        {hiddenLocations > 0 ? <p className="text-sm text-muted-foreground">{t("form.hiddenLocations", { count: hiddenLocations })}</p> : null}
        <LocationPicker
          tree={tree}
          checked={checkedOf(all)}
          allowWhole
          legend={t("form.locationsLegend")}
          hint={t("form.locationsHint")}
          errors={text(locationErrors.length ? [...new Set(locationErrors)] : null)}
          errorId={`${form.id}-locations-error`}
          idPrefix={`${form.id}-loc`}
        />
      </FormSection>
      <CheckboxListField title={t("form.assignees")} description={t("form.assigneesHint")} field={all.assigneeIds} options={assignees.map((p) => ({ id: p.id, name: `${p.name} ${p.surname}` }))} />
      <FormSection title={t("form.instructions")}>
        <Field label={t("form.instructionsLabel")} htmlFor={all.instructions.id} errors={text(all.instructions.errors)}>
          <Textarea {...getTextareaProps(all.instructions)} rows={4} />
        </Field>
      </FormSection>
      <FormActions intent={intent} postsIntent cancelTo={PLANS_LIST} submitLabel={intent === "create" ? t("common:actions.add") : t("common:actions.save")} />
    </Form>
  );
}
