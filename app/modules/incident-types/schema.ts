import { z } from "zod";
import { defineFields, textMax } from "~/lib/fields";
import { idList, optionalText, noControl } from "~/lib/schema-helpers";
import { CONTROL_CHARACTERS_MESSAGE } from "~/lib/text";
import { MAX_CHECKLIST_ITEMS, NAME_LANGUAGES } from "./constants";

/**
 * Incident types (SPEC.md sections 3, 4, 5): one shape for the forms (client and server
 * validation), the verbs and the REST bodies. Client-safe; messages are i18n keys.
 */

export { MAX_CHECKLIST_ITEMS, NAME_FIELDS, NAME_LANGUAGES, type NameLanguage } from "./constants";

/** Checklist content types: yes/no 0, text 1, number 2, photo 3 (decision 024). */
export const ContentTypeSchema = z.union([z.literal(0), z.literal(1), z.literal(2), z.literal(3)], {
  error: "incidentTypes:validation.contentType",
});

const nameField = () =>
  z
    .string({ error: "incidentTypes:validation.invalid" })
    .trim()
    .max(200, "common:validation.tooLong")
    .refine(noControl, CONTROL_CHARACTERS_MESSAGE)
    .nullish()
    .transform((v) => (v ? v : null));

const httpUrl = z
  .string({ error: "incidentTypes:validation.url" })
  .trim()
  .max(2000, "common:validation.tooLong")
  .refine(noControl, CONTROL_CHARACTERS_MESSAGE)
  .nullish()
  .transform((v) => (v ? v : null))
  .refine((v) => {
    if (v === null) return true;
    try {
      const url = new URL(v);
      return url.protocol === "https:" || url.protocol === "http:";
    } catch {
      return false;
    }
  }, "incidentTypes:validation.url");

const questionField = () =>
  z
    .string({ error: "incidentTypes:validation.invalid" })
    .trim()
    .max(500, "common:validation.tooLong")
    .refine(noControl, CONTROL_CHARACTERS_MESSAGE)
    .nullish()
    .transform((v) => (v ? v : null));

/**
 * The API document's form of "at least one of these texts is filled" (a refinement JSON Schema cannot
 * derive): one of the fields is present and holds more than spaces. Inside `allOf`, so that generated
 * clients read it as a further condition on the object rather than as another shape of it.
 */
const oneFilledOf = (fields: readonly string[]) => ({
  allOf: [{ anyOf: fields.map((field) => ({ required: [field], properties: { [field]: { type: "string", pattern: "\\S" } } })) }],
});

/**
 * A checklist question in English (`question`), French and Dutch: at least one (like the type's name), the
 * others filled by "translate to the others". Reporters read it in their language, or the first there is.
 */
export const ChecklistItemSchema = z
  .object({
    question: questionField(),
    questionFr: questionField(),
    questionNl: questionField(),
    tutorialLink: httpUrl,
    message: optionalText(1000),
    contentType: ContentTypeSchema.default(0),
  })
  .superRefine(
    (value, ctx) => {
      const v = (value ?? {}) as Partial<typeof value>;
      if (!v.question && !v.questionFr && !v.questionNl) {
        ctx.addIssue({ code: "custom", message: "incidentTypes:validation.questionRequired", path: ["question"] });
      }
    },
    { when: () => true },
  )
  .meta(oneFilledOf(["question", "questionFr", "questionNl"]));
export type ChecklistItemInput = z.input<typeof ChecklistItemSchema>;

/** Priority of a type (SPEC.md section 3: Low 0, Medium 1, High 2, Critical 3; no "Not Selected"). */
export const DefaultPrioritySchema = z.union([z.literal(0), z.literal(1), z.literal(2), z.literal(3)], {
  error: "incidentTypes:validation.priority",
});

const booleanField = () =>
  z
    .union([z.boolean(), z.literal("on"), z.literal("true"), z.literal("false")], { error: "incidentTypes:validation.invalid" })
    .nullish()
    .transform((v) => v === true || v === "on" || v === "true");

export const IncidentTypeSchema = z
  .object({
    nameEn: nameField(),
    nameFr: nameField(),
    nameNl: nameField(),
    /** Languages whose name is still a copy of another's (the translate helper marks them; editing clears the mark). */
    untranslated: z
      .array(z.enum(NAME_LANGUAGES, { error: "incidentTypes:validation.invalid" }), { error: "incidentTypes:validation.invalid" })
      .max(3, "incidentTypes:validation.invalid")
      .nullish()
      .transform((v) => [...new Set(v ?? [])]),
    defaultPriority: DefaultPrioritySchema,
    /** none 0 (a draft: not offered to reporters) or active 1; archiving is its own verb. */
    status: z.union([z.literal(0), z.literal(1)], { error: "incidentTypes:validation.status" }).default(1),
    reporterMayChangePriority: booleanField(),
    appliesEverywhere: booleanField(),
    defaultAssigneeIds: idList(),
    roomTypeIds: idList(),
    equipmentTypeIds: idList(),
    roomIds: idList(),
    checklist: z
      .array(ChecklistItemSchema, { error: "incidentTypes:validation.invalid" })
      .max(MAX_CHECKLIST_ITEMS, "incidentTypes:validation.tooManyItems")
      .nullish()
      .transform((v) => v ?? []),
  })
  .superRefine((value, ctx) => {
    const v = (value ?? {}) as Partial<typeof value>;
    if (!v.nameEn && !v.nameFr && !v.nameNl) {
      ctx.addIssue({ code: "custom", message: "incidentTypes:validation.nameRequired", path: ["nameEn"] });
    }
    // Checked even when another field is wrong, so that every error shows at once.
  }, { when: () => true })
  .meta(oneFilledOf(["nameEn", "nameFr", "nameNl"]));
export type IncidentTypeInput = z.input<typeof IncidentTypeSchema>;
export type IncidentTypeValues = z.output<typeof IncidentTypeSchema>;

/** An incident type's importable fields (lib/fields.ts): at least one of the names (the import's `oneOf`). */
export const INCIDENT_TYPE_FIELDS = defineFields({
  fields: {
    nameEn: { kind: "text", max: textMax(nameField()), example: "Broken window" },
    nameFr: { kind: "text", max: textMax(nameField()), example: "Fenêtre cassée" },
    nameNl: { kind: "text", max: textMax(nameField()), example: "Gebroken raam" },
    defaultPriority: { kind: "choice", required: true, choice: "priority" },
    appliesEverywhere: { kind: "choice", choice: "yesNo" },
    reporterMayChangePriority: { kind: "choice", choice: "yesNo" },
  },
  exportOrder: ["nameEn", "nameFr", "nameNl", "defaultPriority", "reporterMayChangePriority", "appliesEverywhere"],
});

/** The "translate to the others" helper: the names as typed, and the language to translate from. */
export const TranslateNamesSchema = z.object({
  nameEn: nameField(),
  nameFr: nameField(),
  nameNl: nameField(),
  from: z.enum(NAME_LANGUAGES, { error: "incidentTypes:validation.invalid" }).nullish(),
  /** The checklist's questions as typed: each gets its missing languages too. */
  checklist: z
    .array(z.object({ question: questionField(), questionFr: questionField(), questionNl: questionField() }), { error: "incidentTypes:validation.invalid" })
    .max(MAX_CHECKLIST_ITEMS, "incidentTypes:validation.tooManyItems")
    .nullish()
    .transform((v) => v ?? []),
});
export type TranslateNamesInput = z.input<typeof TranslateNamesSchema>;

/** A checklist question in a language, then in the others (English, French, Dutch). */
export function questionIn(item: { question: string | null; questionFr?: string | null; questionNl?: string | null }, locale: string): string {
  return displayName({ nameEn: item.question, nameFr: item.questionFr ?? null, nameNl: item.questionNl ?? null }, locale);
}

/** The name of a type in a language, then in the others (English, French, Dutch). */
export function displayName(names: { nameEn: string | null; nameFr: string | null; nameNl: string | null }, locale: string): string {
  const order = locale.startsWith("fr") ? [names.nameFr, names.nameEn, names.nameNl] : locale.startsWith("nl") ? [names.nameNl, names.nameEn, names.nameFr] : [names.nameEn, names.nameFr, names.nameNl];
  return order.find((n) => n) ?? "";
}
