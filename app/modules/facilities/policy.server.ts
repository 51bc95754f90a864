import { and, eq, or } from "drizzle-orm";
import { Role } from "~/db/enums";
import { userLinkedObjects } from "~/db/schema";
import type { Actor, ServiceContext } from "~/lib/context.server";
import { ForbiddenError } from "~/lib/errors";

/**
 * Who may do what with the facility tree and the equipment catalogue (SPEC.md section 6), in one
 * place: facility managers and administrators manage everything of their entity; any signed-in user
 * may view a room, technicians only in the facilities or buildings they are linked to (a linked
 * facility grants all its current and future buildings).
 */
export function canManageFacilities(actor: Actor | null | undefined): actor is Actor {
  return actor?.role === Role.FACILITY_MANAGER || actor?.role === Role.ADMINISTRATOR;
}

export function assertCanManageFacilities(ctx: ServiceContext): asserts ctx is ServiceContext & { actor: Actor } {
  if (!canManageFacilities(ctx.actor)) throw new ForbiddenError();
}

/** Whether the actor may open the room view of a room in `place`. */
export async function canViewRoom(ctx: ServiceContext, place: { facilityId: number; buildingId: number }): Promise<boolean> {
  const actor = ctx.actor;
  if (!actor) return false;
  if (actor.role === Role.FACILITY_MANAGER || actor.role === Role.ADMINISTRATOR) return true;
  if (actor.role !== Role.TECHNICIAN) return false;
  const [link] = await ctx.db
    .select({ id: userLinkedObjects.id })
    .from(userLinkedObjects)
    .where(
      and(
        eq(userLinkedObjects.userId, actor.id),
        eq(userLinkedObjects.entityId, ctx.entityId),
        or(eq(userLinkedObjects.facilityId, place.facilityId), eq(userLinkedObjects.buildingId, place.buildingId)),
      ),
    )
    .limit(1);
  return Boolean(link);
}
