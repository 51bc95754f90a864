import { and, eq, sql } from "drizzle-orm";
import type { ServiceContext } from "~/core/context.server";
import { incidentTypeRooms, incidentTypeRoomTypes } from "~/db/schema";

/**
 * Where incident types apply, as other areas change it (an area writes only its own tables): the room form
 * chooses a room's types, removing a room type hands its types to the replacement. Inside the caller's unit
 * of work; the caller checked who may do it and what the ids name.
 */

/** The incident types offered in one room, beyond those of its room type: replaced by `incidentTypeIds`. */
export async function setRoomIncidentTypes(ctx: ServiceContext, roomId: number, incidentTypeIds: readonly number[]): Promise<void> {
  await ctx.db.delete(incidentTypeRooms).where(and(eq(incidentTypeRooms.roomId, roomId), eq(incidentTypeRooms.entityId, ctx.entityId)));
  if (incidentTypeIds.length) {
    await ctx.db.insert(incidentTypeRooms).values(incidentTypeIds.map((incidentTypeId) => ({ entityId: ctx.entityId, incidentTypeId, roomId })));
  }
}

/** A room type removed: the incident types that applied to it apply to `toRoomTypeId` instead. Returns how many moved. */
export async function replaceRoomType(ctx: ServiceContext, fromRoomTypeId: number, toRoomTypeId: number): Promise<number> {
  await ctx.db.execute(sql`
    insert into incident_type_room_types (entity_id, incident_type_id, room_type_id)
    select entity_id, incident_type_id, ${toRoomTypeId}::int from incident_type_room_types
    where entity_id = ${ctx.entityId} and room_type_id = ${fromRoomTypeId}
    on conflict do nothing`);
  const removed = await ctx.db
    .delete(incidentTypeRoomTypes)
    .where(and(eq(incidentTypeRoomTypes.entityId, ctx.entityId), eq(incidentTypeRoomTypes.roomTypeId, fromRoomTypeId)))
    .returning({ incidentTypeId: incidentTypeRoomTypes.incidentTypeId });
  return removed.length;
}
