/**
 * The archive confirmation (SPEC.md section 5) as the form and its action agree on it: the URL dialog
 * `?dialog=archive` posts `intent=archive` with the retyped name. Client-safe.
 */
export const ARCHIVE_DIALOG = "archive";
export const ARCHIVE_INTENT = "archive";
