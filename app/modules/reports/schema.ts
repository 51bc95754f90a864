import { z } from "zod";
import { REPORT_ATTACHMENT_EXTENSIONS, REPORT_MESSAGE_MAX, REPORT_TYPES } from "./constants";

/**
 * "Report a bug or suggestion" (SPEC.md sections 2, 5 and 8). Client-safe: the dialog validates with
 * the form schema when JavaScript is on, the action with the same schema, the service with
 * `SubmitReportSchema`. Messages are i18n keys.
 */
export { REPORT_ATTACHMENT_ACCEPT, REPORT_ATTACHMENT_EXTENSIONS, REPORT_MESSAGE_MAX, REPORT_TYPES, type ReportTypeName } from "./constants";

const hasAcceptedExtension = (name: string) => {
  const ext = name.toLowerCase().split(".").pop() ?? "";
  return name.includes(".") && (REPORT_ATTACHMENT_EXTENSIONS as readonly string[]).includes(ext);
};

const type = z.enum(REPORT_TYPES, { error: "shell:report.typeRequired" });
const message = z
  .string({ error: "shell:report.messageRequired" })
  .trim()
  .min(1, "shell:report.messageRequired")
  .max(REPORT_MESSAGE_MAX, "shell:report.messageTooLong");

/** The web form: `type`, `message`, an optional `attachment` file and where to go back to. */
export const ReportFormSchema = z.object({
  type,
  message,
  attachment: z
    .custom<File>((value) => typeof File !== "undefined" && value instanceof File, "errors.file.wrongFormat")
    .refine((file) => hasAcceptedExtension(file.name), "errors.file.wrongFormat")
    .optional(),
  redirectTo: z.string().optional(),
});
export type ReportFormInput = z.infer<typeof ReportFormSchema>;

/** What `submitReport` takes, whatever the transport. */
export const SubmitReportSchema = z.object({
  type,
  message,
  /** Address of the screen the report was sent from (kept for the reader of the report). */
  pageUrl: z
    .string()
    .max(2000)
    .optional()
    .transform((value) => (value && value.startsWith("/") ? value : undefined)),
  attachment: z
    .object({
      bytes: z.custom<Uint8Array>((value) => value instanceof Uint8Array, "errors.file.empty"),
      originalName: z.string().max(255),
    })
    .optional(),
});
export type SubmitReportInput = z.input<typeof SubmitReportSchema>;
