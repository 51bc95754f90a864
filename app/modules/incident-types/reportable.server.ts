import { and, eq, isNull } from "drizzle-orm";
import type { ServiceContext } from "~/core/context.server";
import { equipmentItems, rooms } from "~/db/schema";
import { NotFoundError } from "~/lib/errors";
import { treeScope } from "~/modules/facilities/policy.server";
import { roomNotFound } from "~/modules/rooms/queries.server";
import { listReportableIncidentTypes, type ReportableIncidentType } from "./queries.server";

/** An equipment item that is not of the entity, archived, or outside the reader's reach. */
export const equipmentItemNotFound = () => new NotFoundError("errors.notFound.generic", "EQUIPMENT_ITEM_NOT_FOUND");

export type ReportablePlace = { roomId: number } | { equipmentItemId: number };

/**
 * "Which incident types may be reported here", for a signed-in user (GET
 * /api/incident-types/reportable): the room or equipment item must be of the entity, not archived,
 * and within the reader's reach (technicians: their linked facilities and buildings, `treeScope`);
 * otherwise "room not found" / "equipment item not found", whether it exists elsewhere or not.
 */
export async function listReportableIncidentTypesInReach(ctx: ServiceContext, place: ReportablePlace): Promise<ReportableIncidentType[]> {
  if ("roomId" in place) {
    const [room] = await ctx.db
      .select({ id: rooms.id })
      .from(rooms)
      .where(and(eq(rooms.id, place.roomId), eq(rooms.entityId, ctx.entityId), isNull(rooms.archivedAt), treeScope(ctx, "room")))
      .limit(1);
    if (!room) throw roomNotFound();
  } else {
    const [item] = await ctx.db
      .select({ id: equipmentItems.id })
      .from(equipmentItems)
      .where(
        and(
          eq(equipmentItems.id, place.equipmentItemId),
          eq(equipmentItems.entityId, ctx.entityId),
          isNull(equipmentItems.archivedAt),
          treeScope(ctx, "equipmentItem"),
        ),
      )
      .limit(1);
    if (!item) throw equipmentItemNotFound();
  }
  return listReportableIncidentTypes(ctx, place);
}
