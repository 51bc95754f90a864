/**
 * What the user screens show, without zod (pages load the form schemas only when a form is first used,
 * decision 021); the schema module re-exports them.
 */
import { type Actor, can } from "~/core/actor";

/** The roles an editor may give (SPEC.md section 5): technician and manager for all; administrator only by whom may manage administrators. */
export function assignableRoles(editor: Actor | null): (1 | 2 | 3)[] {
  return can(editor, "manage", "administrator") ? [2, 1, 3] : [2, 1];
}

/** The full name a user is shown (and retyped in the archive dialog) by. */
export const fullName = (user: { name: string; surname: string }) => `${user.name} ${user.surname}`.trim();
