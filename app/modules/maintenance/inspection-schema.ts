/**
 * A maintenance type's inspection checks and a task's answers to them (issue 63; decision 051):
 * client-safe, shared by the forms and the verbs. Messages are i18n keys.
 */
import { z } from "zod";
import { idField, noControl, optionalText } from "~/lib/schema-helpers";
import { CONTROL_CHARACTERS_MESSAGE } from "~/lib/text";

/** A check of a maintenance type's checklist, as the verbs read it and the type's screen edits it. */
export interface InspectionCheck {
  id: number;
  position: number;
  /** InspectionCheckKind: pass/fail 0, number 1, text 2. */
  kind: number;
  label: string | null;
  labelFr: string | null;
  labelNl: string | null;
  minValue: number | null;
  maxValue: number | null;
  photoRequired: boolean;
  incidentTypeId: number | null;
  /** Priority: low 0 to critical 3. */
  priority: number;
}

/** A check as a task's form shows it: its label in the viewer's language. */
export type CheckToAnswer = Pick<InspectionCheck, "id" | "kind" | "minValue" | "maxValue" | "photoRequired"> & { label: string };

/** A task's answer to a check, as the task's screen, the report and the API show it. */
export interface TaskAnswer {
  /** Null once the check was removed from the type. */
  checkId: number | null;
  position: number;
  kind: number;
  label: string;
  minValue: number | null;
  maxValue: number | null;
  answer: string;
  passed: boolean | null;
  photoFileId: string | null;
  /** The incident the failed check opened, when the viewer reaches it. */
  incident: { id: number; shortId: number } | null;
}

/** Check kinds (app/db/enums.ts InspectionCheckKind): pass/fail 0, number 1, text 2. */
export const CHECK_KINDS = [0, 1, 2] as const;
export const MAX_CHECKS = 40;
/** The longest text answer. */
export const CHECK_ANSWER_MAX = 2000;

const labelField = () =>
  z
    .string({ error: "common:validation.invalid" })
    .trim()
    .max(300, "common:validation.tooLong")
    .refine(noControl, CONTROL_CHARACTERS_MESSAGE)
    .nullish()
    .transform((v) => (v ? v : null));

/** A range's end: a number as typed in any of the three languages ("1.5", "1,5"), or empty for none. */
const bound = () =>
  z.preprocess(
    (v) => (typeof v === "string" ? (v.trim() === "" ? null : (readNumber(v) ?? v)) : (v ?? null)),
    z.number({ error: "maintenance:checks.validation.number" }).min(-1e12, "maintenance:checks.validation.number").max(1e12, "maintenance:checks.validation.number").nullable(),
  )
    .optional()
    .transform((v) => v ?? null);

/**
 * One check: its kind, its label in English (`label`), French and Dutch (at least one, like an incident
 * type's questions), a number's allowed range (both ends included, either may be open), whether a photo
 * must come with the answer, and the incident type and priority of the incident a failure opens.
 */
export const CheckSchema = z
  .object({
    kind: z.union([z.literal(0), z.literal(1), z.literal(2)], { error: "maintenance:checks.validation.kind" }),
    label: labelField(),
    labelFr: labelField(),
    labelNl: labelField(),
    minValue: bound(),
    maxValue: bound(),
    photoRequired: z.boolean().nullish().transform((v) => v ?? false),
    incidentTypeId: idField().nullish().transform((v) => v ?? null),
    priority: z.union([z.literal(0), z.literal(1), z.literal(2), z.literal(3)], { error: "maintenance:checks.validation.priority" }),
  })
  .superRefine(
    (value, ctx) => {
      const v = (value ?? {}) as Partial<typeof value>;
      if (!v.label && !v.labelFr && !v.labelNl) ctx.addIssue({ code: "custom", message: "maintenance:checks.validation.labelRequired", path: ["label"] });
      if (typeof v.minValue === "number" && typeof v.maxValue === "number" && v.minValue > v.maxValue) {
        ctx.addIssue({ code: "custom", message: "maintenance:checks.validation.range", path: ["maxValue"] });
      }
    },
    { when: () => true },
  )
  // Only a number has a range.
  .transform((v) => (v.kind === 1 ? v : { ...v, minValue: null, maxValue: null }));
export type CheckInput = z.input<typeof CheckSchema>;
export type CheckValues = z.output<typeof CheckSchema>;

/** Removing (or moving) a check: its id. */
export const CheckRefSchema = z.object({ checkId: idField() });

/**
 * A task's answers by check id: "pass" | "fail" | a number | a text; the photos likewise. A form names
 * them `checks.<id>` and `checkPhotos.<id>` (conform reads them back as these objects), and so do the
 * field errors.
 */
export type CheckAnswersInput = Record<string, string | null | undefined>;

export const answerField = (checkId: number) => `checks.${checkId}`;
export const photoField = (checkId: number) => `checkPhotos.${checkId}`;

/** Reads a number as typed in any of the three languages: "12", "-3.5", "3,5". Null if it is not one. */
export function readNumber(text: string): number | null {
  const t = text.trim();
  if (!/^-?\d{1,12}([.,]\d{1,6})?$/.test(t)) return null;
  return Number(t.replace(",", "."));
}

/** Whether an answer passes its check: false for "fail" or a number outside its range, null for a text. */
export function answerPasses(check: { kind: number; minValue: number | null; maxValue: number | null }, answer: string): boolean | null {
  if (check.kind === 0) return answer === "pass";
  if (check.kind === 1) {
    const n = readNumber(answer);
    if (n === null) return false;
    return (check.minValue === null || n >= check.minValue) && (check.maxValue === null || n <= check.maxValue);
  }
  return null;
}

export const checkAnswerText = optionalText(CHECK_ANSWER_MAX);

/**
 * A type's whole checklist as REST replaces it (PUT /api/maintenances/types/{id}/checklist): the checks in
 * their order, each with the `id` of one of the type's checks to change it, or none to add one; a check
 * left out is removed.
 */
export const ChecklistSchema = z.object({
  checks: z
    .array(z.intersection(z.object({ id: idField().nullish().transform((v) => v ?? null) }), CheckSchema), { error: "common:validation.invalid" })
    .max(MAX_CHECKS, "maintenance:checks.validation.tooMany"),
});
export type ChecklistInput = z.input<typeof ChecklistSchema>;
