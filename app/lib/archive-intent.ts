/**
 * The archive confirmation's names (SPEC.md section 5), without zod so that pages import them without the
 * validation code (decision 021); `~/lib/archive` has the schemas and re-exports these.
 */
export const ARCHIVE_DIALOG = "archive";
export const ARCHIVE_INTENT = "archive";
export const WRONG_NAME = "common:archive.wrongName";
