/**
 * What an occupier posts from /report/{identifier}, client-safe. Messages are i18n keys of
 * the `report` namespace. Checklist answers come as `answer.<position>` fields.
 */
import { z } from "zod";
import { noControl, optionalText } from "~/lib/schema-helpers";
import { CONTROL_CHARACTERS_MESSAGE } from "~/lib/text";

export const REPORT_DESCRIPTION_MAX = 2000;
export const REPORT_ANSWER_MAX = 500;
/** Photos one report may carry. */
export const REPORT_MAX_PHOTOS = 5;

const asNumber = (v: unknown) => (typeof v === "string" && /^\d{1,10}$/.test(v.trim()) ? Number(v.trim()) : v);

export const OccupierReportSchema = z.object({
  incidentTypeId: z.preprocess(
    asNumber,
    z.number({ error: "report:validation.typeRequired" }).int("report:validation.typeRequired").positive("report:validation.typeRequired").max(2_147_483_647, "report:validation.typeRequired"),
  ),
  description: z
    .string({ error: "report:validation.descriptionRequired" })
    .trim()
    .min(1, "report:validation.descriptionRequired")
    .max(REPORT_DESCRIPTION_MAX, "report:validation.descriptionTooLong")
    .refine(noControl, CONTROL_CHARACTERS_MESSAGE),
  email: z
    .string({ error: "report:validation.email" })
    .trim()
    .max(254, "report:validation.email")
    .refine((v) => v === "" || /^[^\s@<>()[\]\\,;:"]+@[^\s@<>()[\]\\,;:"]+\.[^\s@<>()[\]\\,;:"]{2,}$/.test(v), "report:validation.email")
    .nullish()
    .transform((v) => (v ? v.toLowerCase() : null)),
  priority: z.preprocess(
    (v) => (v === "" || v === null || v === undefined ? null : asNumber(v)),
    z.number({ error: "report:validation.priority" }).int("report:validation.priority").min(0, "report:validation.priority").max(3, "report:validation.priority").nullable(),
  ),
  answers: z.record(z.string().regex(/^\d{1,3}$/), optionalText(REPORT_ANSWER_MAX)).nullish().transform((a) => a ?? {}),
});
export type OccupierReportInput = z.input<typeof OccupierReportSchema>;
export type OccupierReportValues = z.output<typeof OccupierReportSchema>;

/** The report page's honeypot field: hidden from people, filled in by bots (a post with it is dropped). */
export const REPORT_HONEYPOT_FIELD = "website";
