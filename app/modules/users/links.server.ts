import { sql } from "drizzle-orm";
import type { ServiceContext } from "~/core/context.server";
import { userLinkedObjects } from "~/db/schema";

/**
 * The facilities and buildings people are linked to, as the facility tree's verbs change them (an area
 * writes only its own tables). Inside the caller's unit of work.
 */

/** The person who made a facility reaches it (a facility manager reaches only linked facilities). */
export async function linkToFacility(ctx: ServiceContext, userId: number, facilityId: number): Promise<void> {
  await ctx.db.insert(userLinkedObjects).values({ entityId: ctx.entityId, userId, facilityId });
}

/** Links a person to many new facilities at once (an import made for them), one statement. */
export async function linkToFacilities(ctx: ServiceContext, userId: number, facilityIds: readonly number[]): Promise<void> {
  if (facilityIds.length === 0) return;
  await ctx.db.execute(sql`insert into user_linked_objects (entity_id, user_id, facility_id)
    select ${ctx.entityId}, ${userId}, f from unnest(${`{${facilityIds.map((n) => Math.trunc(n)).join(",")}}`}::int[]) as f`);
}

/** An archived facility (with its buildings) or building: nobody keeps a link to what no longer exists. */
export async function unlinkArchivedPlace(ctx: ServiceContext, place: { facilityId: number } | { buildingId: number }): Promise<void> {
  if ("facilityId" in place) {
    await ctx.db.execute(sql`
      delete from user_linked_objects where entity_id = ${ctx.entityId} and (facility_id = ${place.facilityId}
        or building_id in (select id from buildings where entity_id = ${ctx.entityId} and facility_id = ${place.facilityId}))`);
  } else {
    await ctx.db.execute(sql`delete from user_linked_objects where entity_id = ${ctx.entityId} and building_id = ${place.buildingId}`);
  }
}
