import { and, asc, eq, inArray, isNull, ne, sql } from "drizzle-orm";
import { assertCan } from "~/core/actor";
import type { ServiceContext } from "~/core/context.server";
import { UserStatus } from "~/db/enums";
import { buildings, facilities, rooms, users } from "~/db/schema";
import { treeScope } from "~/modules/facilities/policy.server";

/**
 * Read-only helpers of the incident type form (/add-incident-type, /update-incident-type/{id}): the
 * chosen rooms and default assignees named, whatever page of their searchable checklists is shown.
 */

export interface RoomChoice {
  id: number;
  name: string;
  buildingName: string;
  facilityName: string;
}

export interface AssigneeChoice {
  id: number;
  name: string;
  surname: string;
}

/** The rooms among `ids` that are active rooms of the entity within the editor's reach, by name. */
export async function getRoomChoices(ctx: ServiceContext, ids: number[]): Promise<RoomChoice[]> {
  assertCan(ctx.actor, "manage", "incidentType");
  if (!ids.length) return [];
  return ctx.db
    .select({ id: rooms.id, name: rooms.name, buildingName: buildings.name, facilityName: facilities.name })
    .from(rooms)
    .innerJoin(buildings, eq(buildings.id, rooms.buildingId))
    .innerJoin(facilities, eq(facilities.id, buildings.facilityId))
    .where(and(eq(rooms.entityId, ctx.entityId), isNull(rooms.archivedAt), inArray(rooms.id, ids.slice(0, 1000)), treeScope(ctx, "room")))
    .orderBy(asc(sql`lower(${rooms.name})`), asc(rooms.id));
}

/** The users among `ids` that may be assigned work (of the entity, not archived nor disabled), by surname. */
export async function getAssigneeChoices(ctx: ServiceContext, ids: number[]): Promise<AssigneeChoice[]> {
  assertCan(ctx.actor, "manage", "incidentType");
  if (!ids.length) return [];
  return ctx.db
    .select({ id: users.id, name: users.name, surname: users.surname })
    .from(users)
    .where(and(eq(users.entityId, ctx.entityId), isNull(users.archivedAt), ne(users.status, UserStatus.DISABLED), inArray(users.id, ids.slice(0, 1000))))
    .orderBy(asc(sql`lower(${users.surname})`), asc(sql`lower(${users.name})`), asc(users.id));
}
