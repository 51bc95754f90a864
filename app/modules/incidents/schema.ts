/**
 * Input schemas of the incident verbs (client-safe, shared by the forms and the REST API). Messages are
 * i18n keys. A form posts strings ("2", "none"); the API posts JSON (2, null): both read alike.
 */
import { z } from "zod";
import { INVALID, optionalText, requiredText, tagField } from "~/lib/schema-helpers";
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

/**
 * A priority 0-3, or "Not Selected" (`"none"`, `null`, or an empty choice). Required: a body without it is
 * refused rather than read as "Not Selected" (the API document writes the field as required).
 */
export const priorityField = () =>
  z.preprocess(
    (v) => (v === NO_PRIORITY || v === null || v === "" ? null : asNumber(v)),
    z.number({ error: PRIORITY_INVALID }).int(PRIORITY_INVALID).min(0, PRIORITY_INVALID).max(3, PRIORITY_INVALID).nullable(),
  );

/** A user id, or nobody (`"none"`, `null`, or an empty choice). Required, like the priority. */
export const assigneeField = () =>
  z.preprocess(
    (v) => (v === "none" || v === null || v === "" ? null : asNumber(v)),
    z.number({ error: ASSIGNEE_INVALID }).int(ASSIGNEE_INVALID).positive(ASSIGNEE_INVALID).max(2_147_483_647, ASSIGNEE_INVALID).nullable(),
  );

export const SetStatusSchema = z.object({ status: statusField() });
export type SetStatusInput = z.input<typeof SetStatusSchema>;

export const SetPrioritySchema = z.object({ priority: priorityField() });
export type SetPriorityInput = z.input<typeof SetPrioritySchema>;

export const AssignSchema = z.object({ assigneeId: assigneeField() });
export type AssignInput = z.input<typeof AssignSchema>;

const DOWNTIME_INVALID = "incidents:validation.downtimeHours";

/** At most a year of downtime set by hand, in minutes (the column's check). */
export const MAX_DOWNTIME_MINUTES = 366 * 24 * 60;

/**
 * The equipment's downtime (decision 066): out of service or not, and, optionally, how long in hours
 * ("1.5" or "1,5", the form's field) or in whole minutes (`downtimeMinutes`, as the REST answers give it;
 * not both); empty: from the report until Done; at most a year.
 */
export const DowntimeSchema = z.object({
  equipmentDown: z
    .union([z.boolean(), z.literal("on"), z.literal("true"), z.literal("false")], { error: INVALID })
    .nullish()
    .transform((v) => v === true || v === "on" || v === "true"),
  downtimeHours: z
    .union([z.string(), z.number()], { error: DOWNTIME_INVALID })
    .nullish()
    .transform((v, ctx) => {
      const text = typeof v === "number" ? String(v) : (v ?? "").trim().replace(",", ".");
      if (text === "") return null;
      const hours = /^\d{1,4}(\.\d{1,2})?$/.test(text) ? Number(text) : NaN;
      if (!Number.isFinite(hours) || hours > 366 * 24) {
        ctx.addIssue({ code: "custom", message: DOWNTIME_INVALID });
        return z.NEVER;
      }
      return Math.round(hours * 60);
    }),
  downtimeMinutes: z
    .number({ error: DOWNTIME_INVALID })
    .int(DOWNTIME_INVALID)
    .min(0, DOWNTIME_INVALID)
    .max(MAX_DOWNTIME_MINUTES, DOWNTIME_INVALID)
    .nullish()
    .transform((v) => v ?? null),
})
  .superRefine((value, ctx) => {
    if (value.downtimeHours !== null && value.downtimeMinutes !== null) ctx.addIssue({ code: "custom", message: DOWNTIME_INVALID, path: ["downtimeMinutes"] });
  })
  // The hours typed (or the minutes sent), as the minutes stored.
  .transform(({ equipmentDown, downtimeHours, downtimeMinutes }) => ({ equipmentDown, downtimeMinutes: downtimeHours ?? downtimeMinutes }));
export type DowntimeInput = z.input<typeof DowntimeSchema>;

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

const SELECT_SOME = "incidents:validation.selectSome";

/** The selected incidents: at least one (a missing list too), at most BULK_MAX; duplicates are dropped. */
const selectedIds = () =>
  z
    .array(z.number({ error: INVALID }).int(INVALID).positive(INVALID).max(2_147_483_647, INVALID), { error: (issue) => (issue.input === undefined ? SELECT_SOME : INVALID) })
    .min(1, SELECT_SOME)
    .max(BULK_MAX, INVALID)
    .transform((ids) => [...new Set(ids)]);

/**
 * One change to several incidents at once (the table's selection): all or nothing. `change` names the
 * field that carries the new value (status, priority or assigneeId), which is then required; one variant
 * per change, so the API document shows each with its own field.
 */
export const BulkChangeSchema = z
  .discriminatedUnion(
    "change",
    [
      z.object({ ids: selectedIds(), change: z.literal("status"), status: statusField() }),
      z.object({ ids: selectedIds(), change: z.literal("priority"), priority: priorityField() }),
      z.object({ ids: selectedIds(), change: z.literal("assignee"), assigneeId: assigneeField() }),
    ],
    { error: INVALID },
  )
  .transform((value) => ({
    ids: value.ids,
    change: value.change,
    value: (value.change === "status" ? value.status : value.change === "priority" ? value.priority : value.assigneeId) as number | null,
  }));
export type BulkChangeInput = z.input<typeof BulkChangeSchema>;
