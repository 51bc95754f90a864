import { type Actor, assertCan, can, roleIsAdministrators, ROLES_OFFERED } from "~/core/actor";
import type { Role } from "~/db/enums";
import type { ServiceContext } from "~/core/context.server";
import { ForbiddenError } from "~/lib/errors";

/**
 * Who may manage which users (SPEC.md sections 5 and 6), in one place, on the permission table
 * (core/actor.ts):
 * - those who may `manage` `user` (facility managers and administrators) manage the users of their
 *   entity; technicians and the system manage nobody;
 * - only those who may `manage` `administrator` give the administrator role or change an administrator;
 * - nobody disables, demotes or archives themselves (the verbs check it);
 * - the entity's last active administrator is never disabled, demoted or archived (the verbs count).
 */
export function assertCanManageUsers(ctx: ServiceContext): asserts ctx is ServiceContext & { actor: Actor } {
  assertCan(ctx.actor, "manage", "user", "users:errors.forbidden");
}

/**
 * Whether user `id` is the acting person's own account (SPEC.md sections 4 and 7: every person, a
 * technician too, loads and updates their own profile through /api/users/{id}). A token is not a person
 * and has no account.
 */
export function isOwnAccount(actor: Actor | null | undefined, id: number): boolean {
  return actor?.kind === "person" && actor.id === id && can(actor, "read", "account");
}

/** Whether `actor` may change a user who has (or would get) `role`: an administrators' role only by whom may manage administrators. */
export function mayHandleRole(actor: Actor | null, role: number): boolean {
  return !roleIsAdministrators(role) || can(actor, "manage", "administrator");
}

export function assertMayHandleRole(actor: Actor | null, role: number): void {
  if (!mayHandleRole(actor, role)) throw new ForbiddenError("users:errors.adminOnly", "ADMINISTRATOR_ONLY");
}

/** The roles an editor may give (SPEC.md section 5): technician and manager for all; administrator only by whom may manage administrators. */
export function assignableRoles(editor: Actor | null): Role[] {
  return ROLES_OFFERED.filter((role) => mayHandleRole(editor, role));
}
