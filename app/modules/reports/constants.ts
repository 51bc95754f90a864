/**
 * The report dialog's fixed values (SPEC.md sections 2, 5 and 8), without zod so that the dialog renders
 * without the validation code (decision 021); `schema.ts` re-exports them.
 */
export const REPORT_TYPES = ["bug", "suggestion"] as const;
export type ReportTypeName = (typeof REPORT_TYPES)[number];

export const REPORT_MESSAGE_MAX = 5000;

/**
 * File name endings the attachment picker offers (the same formats `storeFile` accepts for a
 * "document"). The server decides by the bytes; this list only lets the browser catch an obvious
 * mistake before uploading.
 */
export const REPORT_ATTACHMENT_EXTENSIONS = [
  "png",
  "jpg",
  "jpeg",
  "gif",
  "webp",
  "pdf",
  "txt",
  "csv",
  "docx",
  "xlsx",
  "pptx",
  "odt",
  "ods",
] as const;
export const REPORT_ATTACHMENT_ACCEPT = REPORT_ATTACHMENT_EXTENSIONS.map((ext) => `.${ext}`).join(",");
