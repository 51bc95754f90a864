import { type Actor, assertCan } from "~/core/actor";
import type { ServiceContext } from "~/core/context.server";

/**
 * Who may do what with the entity (SPEC.md section 6), on the permission table (core/actor.ts): every
 * member reads it (branding, greetings); those who may `update` `entity` (facility managers and
 * administrators) change its settings and its explanatory sticker.
 */
export function assertCanManageEntity(ctx: ServiceContext): asserts ctx is ServiceContext & { actor: Actor } {
  assertCan(ctx.actor, "update", "entity", "settings:errors.forbidden");
}
