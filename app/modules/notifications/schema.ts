/**
 * Input schemas of the notification verbs (client-safe, shared by the forms and the REST API). Messages
 * are i18n keys.
 */
import { z } from "zod";
import { NotificationType } from "~/db/enums";
import { INVALID } from "~/lib/schema-helpers";

/** The most detail ids one "mark as read" call takes. */
export const MARK_READ_MAX = 1000;

const detailId = z.preprocess(
  (v) => (typeof v === "string" && /^\d{1,10}$/.test(v.trim()) ? Number(v.trim()) : v),
  z.number({ error: INVALID }).int(INVALID).positive(INVALID).max(2_147_483_647, INVALID),
);

/**
 * PATCH /users/{id}/notifications/read (SPEC.md section 7): a list of notification detail ids, sent as a
 * bare JSON array or as `{ notificationDetailsIds: [...] }`; the forms post `detailsId` fields.
 */
export const MarkReadSchema = z.preprocess(
  (v) => (Array.isArray(v) ? { notificationDetailsIds: v } : v),
  z.object({
    notificationDetailsIds: z
      .array(detailId, { error: INVALID })
      .min(1, INVALID)
      .max(MARK_READ_MAX, INVALID)
      .transform((ids) => [...new Set(ids)]),
  }),
);
export type MarkReadInput = z.input<typeof MarkReadSchema>;

/** The payload of the `notify` job: what happened to which incident, and by whom. */
export const NotifyPayload = z.object({
  /** The cause, once: a retried or repeated job writes nothing the second time. */
  key: z.string().min(1).max(200),
  entityId: z.number().int().positive(),
  type: z.number().int().min(NotificationType.INCIDENT_CREATED).max(NotificationType.INCIDENT_NEW_COMMENT),
  incidentId: z.number().int().positive(),
  actorId: z.number().int().positive().nullable(),
  /** The assignee when the change was made (the job may run later). */
  assigneeId: z.number().int().positive().nullable().optional(),
  previousAssigneeId: z.number().int().positive().nullable().optional(),
  commentId: z.number().int().positive().optional(),
  status: z.number().int().min(0).max(4).optional(),
});
export type NotifyPayload = z.infer<typeof NotifyPayload>;
