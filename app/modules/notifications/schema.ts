/**
 * Input schemas of the notification verbs (client-safe, shared by the forms and the REST API). Messages
 * are i18n keys.
 */
import { z } from "zod";
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
