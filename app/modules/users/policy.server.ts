import { Role } from "~/db/enums";
import type { Actor, ServiceContext } from "~/core/context.server";
import { ForbiddenError } from "~/lib/errors";

/**
 * Who may manage which users (SPEC.md sections 5 and 6, issue #10), in one place:
 * - facility managers and administrators manage the users of their entity; technicians manage nobody;
 * - only an administrator may give the administrator role, or change an administrator;
 * - nobody disables, demotes or archives themselves (the verbs check it with `assertNotSelf`);
 * - the entity's last active administrator is never disabled, demoted or archived (the verbs count).
 */
export function canManageUsers(actor: Actor | null | undefined): actor is Actor {
  return actor?.role === Role.FACILITY_MANAGER || actor?.role === Role.ADMINISTRATOR;
}

export function assertCanManageUsers(ctx: ServiceContext): asserts ctx is ServiceContext & { actor: Actor } {
  if (!canManageUsers(ctx.actor)) throw new ForbiddenError("users:errors.forbidden");
}

/** Whether `actor` may change a user who has (or would get) `role`. */
export function mayHandleRole(actor: Actor, role: number): boolean {
  return role !== Role.ADMINISTRATOR || actor.role === Role.ADMINISTRATOR;
}

export function assertMayHandleRole(actor: Actor, role: number): void {
  if (!mayHandleRole(actor, role)) throw new ForbiddenError("users:errors.adminOnly", "ADMINISTRATOR_ONLY");
}

/** Roles that must be linked to at least one facility or building (SPEC.md section 5). */
export function needsLinks(role: number): boolean {
  return role === Role.TECHNICIAN || role === Role.FACILITY_MANAGER;
}
