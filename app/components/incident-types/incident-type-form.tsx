import { type FieldMetadata, type FormMetadata, getCollectionProps, getFormProps, getInputProps, getSelectProps, getTextareaProps, type SubmissionResult, useForm } from "@conform-to/react";
import { Form } from "@remix-run/react";
import { type ReactNode, useState } from "react";
import { useTranslation } from "react-i18next";
import { CheckboxField, DefaultSubmit, FormActions, FormSection } from "~/components/forms/form-parts";
import { ErrorText, FormErrors, useErrorText, useLazyValidator } from "~/components/forms/zod-form";
import { Alert } from "~/components/ui/alert";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Field, fieldDescriptionId } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import { Select } from "~/components/ui/select";
import { Textarea } from "~/components/ui/textarea";
import { MAX_CHECKLIST_ITEMS, NAME_FIELDS, NAME_LANGUAGES, type NameLanguage } from "~/modules/incident-types/constants";
import type { IncidentTypeInput } from "~/modules/incident-types/schema";
import { CREATE_INTENT, INCIDENT_TYPES_LIST, TRANSLATE_INTENT, type TranslateOutcome, UPDATE_INTENT } from "~/lib/incident-type-form";
import { type ChoiceSearch, SearchableChecklist } from "./searchable-checklist";
import { Options } from "~/components/ui/options";

/** The values the form starts from (empty on /add-incident-type). */
export interface IncidentTypeFormValues {
  nameEn: string | null;
  nameFr: string | null;
  nameNl: string | null;
  untranslated: string[];
  defaultPriority: number;
  status: number;
  reporterMayChangePriority: boolean;
  appliesEverywhere: boolean;
  defaultAssigneeIds: number[];
  roomTypeIds: number[];
  equipmentTypeIds: number[];
  roomIds: number[];
  checklist: { question: string | null; questionFr?: string | null; questionNl?: string | null; tutorialLink: string | null; message: string | null; contentType: number }[];
}

export interface RoomChoiceView {
  id: number;
  name: string;
  buildingName: string;
  facilityName: string;
}
export interface AssigneeChoiceView {
  id: number;
  name: string;
  surname: string;
}

export interface IncidentTypeFormOptionsView {
  roomTypes: { id: number; name: string }[];
  equipmentTypes: { id: number; name: string; categoryName: string }[];
  rooms: { chosen: RoomChoiceView[]; search: ChoiceSearch<RoomChoiceView> };
  assignees: { chosen: AssigneeChoiceView[]; search: ChoiceSearch<AssigneeChoiceView> };
}

export const PRIORITIES = [0, 1, 2, 3] as const;
export const STATUSES = [0, 1] as const;
export const CONTENT_TYPES = [0, 1, 2, 3] as const;

/**
 * The form's validation, loaded when the form is first used (decision 021): Save checks the whole type;
 * the helper buttons post the form as it is.
 */
const loadValidation = () =>
  Promise.all([import("@conform-to/zod/v4"), import("zod"), import("~/modules/incident-types/schema")]).then(([{ parseWithZod }, { z }, { IncidentTypeSchema }]) => {
    const asItIs = z.object({}).passthrough();
    return { validate: (formData: FormData, save: boolean) => parseWithZod(formData, { schema: save ? IncidentTypeSchema : asItIs }) };
  });

const asStrings = (value: unknown) => ([] as unknown[]).concat(value ?? []).filter((v) => v !== undefined && v !== null).map(String);

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyField = FieldMetadata<any, any, string[]>;

/**
 * The incident type form (SPEC.md sections 3 and 5): the names in English, French and
 * Dutch side by side with "Translate to the others", the default priority, status and options, where
 * the type applies (everywhere, room types, generic equipment, rooms), the default assignees and the
 * checklist. One plain post that works without JavaScript.
 */
export function IncidentTypeForm({
  mode,
  values,
  options,
  lastResult,
  translated,
}: {
  mode: "create" | "update";
  values: IncidentTypeFormValues;
  options: IncidentTypeFormOptionsView;
  lastResult?: SubmissionResult<string[]>;
  /** After "Translate to the others": how it went. */
  translated?: TranslateOutcome;
}) {
  const { t } = useTranslation("incidentTypes");
  const text = useErrorText(["incidentTypes"]);
  const intent = mode === "create" ? CREATE_INTENT : UPDATE_INTENT;
  const validation = useLazyValidator(`incident-type-${mode}`, loadValidation, Boolean(lastResult));
  const [form, fields] = useForm<IncidentTypeInput, unknown>({
    id: `incident-type-${mode}`,
    lastResult,
    // The helper buttons (translate, the checklists' search and pages) post the form as it is: only
    // Save checks it. (conform validates every submit, whatever the button's formNoValidate says.)
    // Until the validation has loaded, the form posts unchecked and the server answers.
    onValidate: validation
      ? ({ formData, submitter }) => {
          const button = submitter instanceof HTMLButtonElement && submitter.name === "intent" ? submitter.value : intent;
          return validation.validate(formData, button === intent);
        }
      : undefined,
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
    // After an answer of the server (a helper's, or a refused save) the form starts from the posted
    // input: conform keys list items by the default value, so the checklist must be in it too.
    defaultValue: (lastResult?.initialValue as Record<string, unknown> | undefined) ?? {
      nameEn: values.nameEn ?? "",
      nameFr: values.nameFr ?? "",
      nameNl: values.nameNl ?? "",
      untranslated: values.untranslated,
      defaultPriority: String(values.defaultPriority),
      status: String(values.status),
      reporterMayChangePriority: values.reporterMayChangePriority ? "on" : undefined,
      appliesEverywhere: values.appliesEverywhere ? "on" : undefined,
      defaultAssigneeIds: values.defaultAssigneeIds.map(String),
      roomTypeIds: values.roomTypeIds.map(String),
      equipmentTypeIds: values.equipmentTypeIds.map(String),
      roomIds: values.roomIds.map(String),
      checklist: values.checklist.map((item) => ({
        question: item.question ?? "",
        questionFr: item.questionFr ?? "",
        questionNl: item.questionNl ?? "",
        tutorialLink: item.tutorialLink ?? "",
        message: item.message ?? "",
        contentType: String(item.contentType),
      })),
      // eslint-disable-next-line @typescript-eslint/no-explicit-any
    } as any,
  });
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const all = fields as any;
  const [untranslated, setUntranslated] = useState<string[]>(() => asStrings(all.untranslated.initialValue));
  const { rooms, assignees } = options;

  return (
    <Form method="post" {...getFormProps(form)} className="grid gap-6">
      {/* Enter in a field saves (the list buttons come first otherwise). */}
      <DefaultSubmit name="intent" value={intent} />
      <FormErrors id={form.errorId} errors={form.errors} ns={["incidentTypes"]} />

      <FormSection title={t("form.names")} description={t("form.namesHint")}>
        {translated ? <Alert variant={translated === "failed" ? "destructive" : "default"} role="status">{t(`form.translated.${translated}`)}</Alert> : null}
        {untranslated.map((lang) => (
          <input key={lang} type="hidden" name="untranslated" value={lang} />
        ))}
        <div className="grid items-start gap-4 md:grid-cols-3">
          {NAME_LANGUAGES.map((lang) => {
            const field = all[NAME_FIELDS[lang]] as AnyField;
            const marked = untranslated.includes(lang);
            return (
              <Field
                key={lang}
                label={t(`form.name.${lang}`)}
                htmlFor={field.id}
                errors={text(field.errors)}
                description={marked ? <UntranslatedMark /> : undefined}
              >
                <Input
                  {...getInputProps(field, { type: "text", ariaDescribedBy: marked ? fieldDescriptionId(field.id) : undefined })}
                  lang={lang}
                  autoComplete="off"
                  onChange={() => {
                    if (marked) setUntranslated((list) => list.filter((l) => l !== (lang as NameLanguage)));
                  }}
                />
              </Field>
            );
          })}
        </div>
        <div>
          <Button type="submit" name="intent" value={TRANSLATE_INTENT} formNoValidate variant="outline" size="sm">
            {t("form.translate")}
          </Button>
        </div>
      </FormSection>

      <FormSection title={t("form.settings")}>
        <div className="grid items-start gap-4 sm:grid-cols-2">
          <Field label={t("form.defaultPriority")} htmlFor={all.defaultPriority.id} errors={text(all.defaultPriority.errors)} required>
            <Select {...getSelectProps(all.defaultPriority)}>
              <Options values={PRIORITIES} label={(value) => t(`priority.${value}`)} />
            </Select>
          </Field>
          <Field label={t("form.status")} htmlFor={all.status.id} errors={text(all.status.errors)} description={t("form.statusHint")}>
            <Select {...getSelectProps(all.status, { ariaDescribedBy: fieldDescriptionId(all.status.id) })}>
              <Options values={STATUSES} label={(value) => t(`status.${value}`)} />
            </Select>
          </Field>
        </div>
        <CheckboxField {...getInputProps(all.reporterMayChangePriority, { type: "checkbox" })} label={t("form.reporterMayChangePriority")} />
      </FormSection>

      <FormSection title={t("form.where")} description={t("form.whereHint")}>
        <CheckboxField
          {...getInputProps(all.appliesEverywhere, { type: "checkbox" })}
          label={t("form.appliesEverywhere")}
          description={t("form.appliesEverywhereHint")}
        />
        <div className="grid items-start gap-6 lg:grid-cols-2">
          <CheckboxGroup
            legend={t("form.roomTypes")}
            field={all.roomTypeIds}
            options={options.roomTypes.map((o) => ({ id: o.id, label: o.name }))}
            emptyText={t("form.noRoomTypes")}
          />
          <CheckboxGroup
            legend={t("form.equipmentTypes")}
            field={all.equipmentTypeIds}
            options={options.equipmentTypes.map((o) => ({ id: o.id, label: t("form.equipmentOption", { name: o.name, category: o.categoryName }) }))}
            emptyText={t("form.noEquipmentTypes")}
          />
        </div>
        <SearchableChecklist
          kind="rooms"
          legend={t("form.rooms")}
          hint={t("form.roomsHint")}
          name={all.roomIds.name}
          idPrefix={all.roomIds.id}
          checked={asStrings(all.roomIds.initialValue)}
          chosen={rooms.chosen}
          search={rooms.search}
          labelOf={(room) => t("form.roomOption", { room: room.name, building: room.buildingName, facility: room.facilityName })}
          errors={text(all.roomIds.errors)}
          errorId={all.roomIds.errorId}
          emptyText={t("form.noRooms")}
          searchLabel={t("form.searchRooms")}
          statusText={pickerStatus(t, rooms.search, "rooms")}
        />
      </FormSection>

      <FormSection title={t("form.assignees")} description={t("form.assigneesHint")}>
        <SearchableChecklist
          kind="assignees"
          legend={t("form.defaultAssignees")}
          name={all.defaultAssigneeIds.name}
          idPrefix={all.defaultAssigneeIds.id}
          checked={asStrings(all.defaultAssigneeIds.initialValue)}
          chosen={assignees.chosen}
          search={assignees.search}
          labelOf={(user) => `${user.name} ${user.surname}`}
          errors={text(all.defaultAssigneeIds.errors)}
          errorId={all.defaultAssigneeIds.errorId}
          emptyText={t("form.noAssignees")}
          searchLabel={t("form.searchAssignees")}
          statusText={pickerStatus(t, assignees.search, "assignees")}
        />
      </FormSection>

      <ChecklistEditor form={form} field={all.checklist} />

      <FormActions
        intent={intent}
        postsIntent
        cancelTo={INCIDENT_TYPES_LIST}
        submitLabel={mode === "create" ? t("form.create") : t("common:actions.save")}
      />
    </Form>
  );
}

function UntranslatedMark() {
  const { t } = useTranslation("incidentTypes");
  return (
    <span className="inline-flex flex-wrap items-center gap-2">
      <Badge variant="warning">{t("untranslated")}</Badge>
      <span>{t("form.untranslatedHint")}</span>
    </span>
  );
}

function pickerStatus(t: (key: string, values?: Record<string, unknown>) => string, search: ChoiceSearch<unknown>, kind: "rooms" | "assignees") {
  if (search.total === 0) return search.q ? t(`form.${kind}NoMatch`, { q: search.q }) : t(`form.${kind}None`);
  return t(`form.${kind}Page`, { page: search.page, pages: search.pages, count: search.total });
}

/** A group of checkboxes of a small set (room types, generic equipment), scrolling when long. */
function CheckboxGroup({ legend, field, options, emptyText }: { legend: ReactNode; field: AnyField; options: { id: number; label: string }[]; emptyText: ReactNode }) {
  const text = useErrorText(["incidentTypes"]);
  const boxes = getCollectionProps(field, { type: "checkbox", options: options.map((o) => String(o.id)) });
  const errors = text(field.errors);
  return (
    <fieldset className="grid min-w-0 content-start gap-3">
      <legend className="mb-3 text-sm font-medium">{legend}</legend>
      {options.length ? (
        <div className="grid max-h-72 gap-2 overflow-y-auto rounded-md border p-3">
          {boxes.map(({ key, type: _type, ...props }, index) => (
            <CheckboxField key={key} {...props} label={options[index].label} />
          ))}
        </div>
      ) : (
        <p className="text-sm text-muted-foreground">{emptyText}</p>
      )}
      <ErrorText id={field.errorId} errors={errors} />
    </fieldset>
  );
}

/** The question's fields per language (`question` is the English one). */
const QUESTION_FIELDS = [
  ["en", "question"],
  ["fr", "questionFr"],
  ["nl", "questionNl"],
] as const;

/**
 * The checklist the reporter answers: add, remove, move up and down (conform list intents: done in
 * the browser with JavaScript, by the server without, nothing saved until Save), each item with its
 * question, tutorial link, message and content type.
 */
function ChecklistEditor({
  form,
  field,
}: {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  form: FormMetadata<any, string[]>;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  field: FieldMetadata<any[] | null | undefined, any, string[]>;
}) {
  const { t } = useTranslation("incidentTypes");
  const text = useErrorText(["incidentTypes"]);
  const items = field.getFieldList();
  return (
    <FormSection title={t("form.checklist")} description={t("form.checklistHint")}>
      {items.length === 0 ? <p className="text-sm text-muted-foreground">{t("form.noItems")}</p> : null}
      {items.length ? (
        <ol className="grid gap-4">
          {items.map((item, index) => {
            // eslint-disable-next-line @typescript-eslint/no-explicit-any
            const row = (item as any).getFieldset();
            const number = index + 1;
            return (
              <li key={item.key} className="grid gap-3 rounded-md border p-3 sm:p-4">
                <div className="flex flex-wrap items-center justify-between gap-2">
                  <h3 className="text-sm font-semibold">{t("form.item", { number })}</h3>
                  <div className="flex flex-wrap gap-2">
                    <Button
                      {...form.reorder.getButtonProps({ name: field.name, from: index, to: index - 1 })}
                      variant="outline"
                      size="sm"
                      disabled={index === 0}
                      aria-label={`${t("form.moveUp")}, ${t("form.item", { number })}`}
                    >
                      {t("form.moveUp")}
                    </Button>
                    <Button
                      {...form.reorder.getButtonProps({ name: field.name, from: index, to: index + 1 })}
                      variant="outline"
                      size="sm"
                      disabled={index === items.length - 1}
                      aria-label={`${t("form.moveDown")}, ${t("form.item", { number })}`}
                    >
                      {t("form.moveDown")}
                    </Button>
                    <Button
                      {...form.remove.getButtonProps({ name: field.name, index })}
                      variant="outline"
                      size="sm"
                      className="text-destructive hover:text-destructive"
                      aria-label={t("form.removeItem", { number })}
                    >
                      {t("form.remove")}
                    </Button>
                  </div>
                </div>
                <div className="grid items-start gap-3 sm:grid-cols-[minmax(0,1fr)_12rem]">
                  {/* The question in the three languages (at least one), like the name. */}
                  <fieldset className="grid gap-3 sm:row-span-3">
                    <legend className="sr-only">{t("form.questionIn", { number })}</legend>
                    {QUESTION_FIELDS.map(([lang, name]) => (
                      <Field key={lang} label={t(`form.question.${lang}`)} htmlFor={row[name].id} errors={text(row[name].errors)}>
                        <Input {...getInputProps(row[name], { type: "text" })} key={row[name].key} autoComplete="off" lang={lang} />
                      </Field>
                    ))}
                  </fieldset>
                  <Field label={t("form.contentType")} htmlFor={row.contentType.id} errors={text(row.contentType.errors)}>
                    <Select {...getSelectProps(row.contentType)} key={row.contentType.key}>
                      <Options values={CONTENT_TYPES} label={(value) => t(`contentType.${value}`)} />
                    </Select>
                  </Field>
                  <Field label={t("form.tutorialLink")} htmlFor={row.tutorialLink.id} errors={text(row.tutorialLink.errors)} className="sm:col-span-2">
                    <Input
                      {...getInputProps(row.tutorialLink, { type: "text" })}
                      key={row.tutorialLink.key}
                      inputMode="url"
                      spellCheck={false}
                      placeholder="https://"
                      autoComplete="off"
                    />
                  </Field>
                  <Field label={t("form.message")} htmlFor={row.message.id} errors={text(row.message.errors)} className="sm:col-span-2">
                    <Textarea {...getTextareaProps(row.message)} key={row.message.key} rows={2} />
                  </Field>
                </div>
              </li>
            );
          })}
        </ol>
      ) : null}
      <ErrorText id={field.errorId} errors={text(field.errors)} />
      {items.length < MAX_CHECKLIST_ITEMS ? (
        <div>
          <Button {...form.insert.getButtonProps({ name: field.name, defaultValue: { contentType: "0" } })} variant="outline" size="sm">
            {t("form.addItem")}
          </Button>
        </div>
      ) : null}
    </FormSection>
  );
}
