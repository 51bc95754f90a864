import { Role } from "~/db/enums";
import type { Actor, ServiceContext } from "~/core/context.server";
import { ForbiddenError } from "~/lib/errors";

/**
 * Who may do what with the entity (SPEC.md section 6): every member reads it (branding, greetings);
 * only facility managers and administrators change its settings and its explanatory sticker.
 */
export function canManageEntity(actor: Actor | null | undefined): actor is Actor {
  return actor?.role === Role.FACILITY_MANAGER || actor?.role === Role.ADMINISTRATOR;
}

export function assertCanManageEntity(ctx: ServiceContext): asserts ctx is ServiceContext & { actor: Actor } {
  if (!canManageEntity(ctx.actor)) throw new ForbiddenError("settings:errors.forbidden");
}
