import { z } from "zod";
import { ValidationError } from "~/lib/errors";
import { parseInput } from "~/lib/validation";
import { WRONG_NAME } from "./archive-intent";

/**
 * The archive confirmation (SPEC.md section 5): the user retypes the exact name, otherwise "Wrong
 * Name". The URL dialog `?dialog=archive` posts `intent=archive` with `confirmName`; the browser checks
 * it with `confirmNameSchema` when JavaScript is on, the archive verbs with `checkConfirmName` always.
 * Client-safe.
 */
export { ARCHIVE_DIALOG, ARCHIVE_INTENT, WRONG_NAME } from "./archive-intent";

export const ArchiveSchema = z.object({
  confirmName: z.string({ error: WRONG_NAME }),
});
export type ArchiveInput = z.input<typeof ArchiveSchema>;

/** Surrounding spaces aside, the retyped name must be the name. */
export const confirmNameMatches = (name: string, confirmName: string) => confirmName.trim() === name.trim();

/** The confirmation field checked against `name` (client-side validation of the dialogs). */
export const confirmNameField = (name: string) =>
  z.string({ error: WRONG_NAME }).refine((value) => confirmNameMatches(name, value), WRONG_NAME);

/** The archive dialog's form checked in the browser: `confirmName` must be `name`. */
export const confirmNameFormSchema = (name: string) => z.object({ confirmName: confirmNameField(name) });

/** The field error of a wrong confirmation, or none (no confirmation given: the REST calls send none). */
export function confirmNameErrors(name: string, confirm: ArchiveInput | undefined): Record<string, string[]> {
  if (confirm === undefined) return {};
  const { confirmName } = parseInput(ArchiveSchema, confirm);
  return confirmNameMatches(name, confirmName) ? {} : { confirmName: [WRONG_NAME] };
}

/** Throws "Wrong Name" on the confirmName field when the retyped name is not the name. */
export function checkConfirmName(name: string, confirm: ArchiveInput | undefined): void {
  const errors = confirmNameErrors(name, confirm);
  if (errors.confirmName) throw new ValidationError(errors, WRONG_NAME, "WRONG_NAME");
}
