/**
 * Input schemas of the incident verbs (client-safe, shared by the forms and the REST API). Messages are
 * i18n keys. A form posts strings ("2", "none"); the API posts JSON (2, null): both read alike.
 */
import { z } from "zod";
import { INVALID, idList, optionalText, requiredText, tagField } from "~/lib/schema-helpers";
import { BULK_MAX, COMMENT_MAX, DESCRIPTION_MAX, NO_PRIORITY, SETTABLE_STATUSES, TITLE_MAX } from "./constants";

const STATUS_INVALID = "incidents:validation.status";
const PRIORITY_INVALID = "incidents:validation.priority";
const ASSIGNEE_INVALID = "incidents:validation.assignee";

const asNumber = (v: unknown) => (typeof v === "string" && /^-?\d{1,10}$/.test(v.trim()) ? Number(v.trim()) : v);

export const statusField = () =>
  z.preprocess(
    asNumber,
    z
      .number({ error: STATUS_INVALID })
      .int(STATUS_INVALID)
      .refine((s) => (SETTABLE_STATUSES as readonly number[]).includes(s), STATUS_INVALID),
  );

/** A priority 0-3, or "Not Selected" (`"none"`, `null`, or an empty choice). */
export const priorityField = () =>
  z.preprocess(
    (v) => (v === NO_PRIORITY || v === null || v === "" || v === undefined ? null : asNumber(v)),
    z.number({ error: PRIORITY_INVALID }).int(PRIORITY_INVALID).min(0, PRIORITY_INVALID).max(3, PRIORITY_INVALID).nullable(),
  );

/** A user id, or nobody (`"none"`, `null`, or an empty choice). */
export const assigneeField = () =>
  z.preprocess(
    (v) => (v === "none" || v === null || v === "" || v === undefined ? null : asNumber(v)),
    z.number({ error: ASSIGNEE_INVALID }).int(ASSIGNEE_INVALID).positive(ASSIGNEE_INVALID).max(2_147_483_647, ASSIGNEE_INVALID).nullable(),
  );

export const SetStatusSchema = z.object({ status: statusField() });
export type SetStatusInput = z.input<typeof SetStatusSchema>;

export const SetPrioritySchema = z.object({ priority: priorityField() });
export type SetPriorityInput = z.input<typeof SetPrioritySchema>;

export const AssignSchema = z.object({ assigneeId: assigneeField() });
export type AssignInput = z.input<typeof AssignSchema>;

export const TagSchema = z.object({ tag: tagField() });
export type TagInput = z.input<typeof TagSchema>;

export const TitleSchema = z.object({ title: requiredText(TITLE_MAX, "incidents:validation.titleRequired") });
export type TitleInput = z.input<typeof TitleSchema>;

export const DescriptionSchema = z.object({ description: optionalText(DESCRIPTION_MAX) });
export type DescriptionInput = z.input<typeof DescriptionSchema>;

/** SPEC.md section 5: text required to post a comment. */
export const CommentSchema = z.object({ body: requiredText(COMMENT_MAX, "incidents:validation.commentRequired") });
export type CommentInput = z.input<typeof CommentSchema>;

/** Mark as duplicate of the incident with this short id ("#12" or "12"). */
export const DuplicateSchema = z.object({
  duplicateOf: z.preprocess(
    (v) => (typeof v === "string" ? asNumber(v.trim().replace(/^#/, "")) : v),
    z
      .number({ error: "incidents:validation.duplicateRequired" })
      .int("incidents:validation.duplicateRequired")
      .positive("incidents:validation.duplicateRequired")
      .max(2_147_483_647, "incidents:validation.duplicateNotFound"),
  ),
});
export type DuplicateInput = z.input<typeof DuplicateSchema>;

/** One change to several incidents at once (the table's selection): all or nothing. */
export const BulkChangeSchema = z
  .object({
    ids: idList().refine((ids) => ids.length > 0, "incidents:validation.selectSome").refine((ids) => ids.length <= BULK_MAX, INVALID),
    change: z.enum(["status", "priority", "assignee"], { error: INVALID }),
    status: z.unknown().optional(),
    priority: z.unknown().optional(),
    assigneeId: z.unknown().optional(),
  })
  .transform((value, ctx) => {
    const field = value.change === "status" ? "status" : value.change === "priority" ? "priority" : "assigneeId";
    const schema = value.change === "status" ? statusField() : value.change === "priority" ? priorityField() : assigneeField();
    const parsed = schema.safeParse(value[field]);
    if (!parsed.success) {
      ctx.addIssue({ code: "custom", path: [field], message: parsed.error.issues[0]?.message ?? INVALID });
      return z.NEVER;
    }
    return { ids: value.ids, change: value.change, value: parsed.data as number | null };
  });
export type BulkChangeInput = z.input<typeof BulkChangeSchema>;
