import { and, eq, exists, inArray, isNotNull, isNull, or, type SQL, sql, type SQLWrapper } from "drizzle-orm";
import { buildings, equipmentItems, equipmentTypes, facilities, incidents, rooms, userLinkedObjects } from "~/db/schema";
import { type Actor, can, reachesWholeEntity } from "~/core/actor";
import type { ServiceContext } from "~/core/context.server";

/**
 * What of the facility tree an actor reaches (SPEC.md section 6, decision 022), as SQL scopes. Whether an
 * actor may manage places, the catalogue or incident types at all is the permission table's
 * (`can(actor, "manage", "place")`, core/actor.ts); which places is decided here: administrators and
 * the system reach their whole entity, facility managers and technicians only the facilities and
 * buildings they are linked to (a linked facility grants all its current and future buildings). The
 * catalogue (room types, equipment categories, generic equipment) is not part of the tree.
 */

/**
 * Whether the actor reaches the whole entity (administrators, the system), rather than their linked
 * facilities and buildings (facility managers and technicians).
 */
export function isEntityWide(actor: Actor | null | undefined): boolean {
  return reachesWholeEntity(actor);
}

/**
 * The facilities an API token is limited to (decision 056), or null when the actor reaches through a
 * person's links (a person, a token without a facility list).
 */
function tokenFacilities(actor: Actor | null | undefined): readonly number[] | null {
  return actor?.kind === "token" && actor.facilityIds ? actor.facilityIds : null;
}

/**
 * For an API token limited to some facilities, a condition keeping the rows whose `facilityId` column is
 * one of them; undefined for every other actor. For what is the entity's rather than a place's but names
 * places (a user's linked facilities and buildings): a limited token is shown none of the others.
 */
export function withinTokenFacilities(actor: Actor | null | undefined, facilityId: SQLWrapper): SQL | undefined {
  const limited = tokenFacilities(actor);
  return limited ? sql`${facilityId} in (${idsSql(limited)})` : undefined;
}

/** `ids` as a SQL list of integers (never empty: `null` matches nothing). */
function idsSql(ids: readonly number[]): SQL {
  return ids.length ? sql.join(ids.map((id) => sql`${id}::int`), sql`, `) : sql`null`;
}

/** Whether the actor may open the room view of a room in `place`. */
export async function canViewRoom(ctx: ServiceContext, place: { facilityId: number; buildingId: number }): Promise<boolean> {
  const actor = ctx.actor;
  if (!can(actor, "read", "place")) return false;
  if (isEntityWide(actor)) return true;
  const limited = tokenFacilities(actor);
  if (limited) return limited.includes(place.facilityId);
  if (actor?.id == null) return false;
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

/**
 * The part of the facility tree an actor may read and act on, as a condition on the given level's
 * table. Administrators: all of their entity (`undefined`, no condition). Facility managers and
 * technicians: the facilities and buildings they are linked to (a linked facility covers all its
 * buildings, present and future); everything else is invisible to them, as another entity's rows
 * are (SPEC.md section 6, decision 022). No actor: nothing.
 *
 * - `facility`: the facilities shown to the actor: linked ones, and those holding a linked building;
 * - `wholeFacility`: the facilities the actor reaches entirely (linked themselves), the ones they may
 *   change, archive (with every building) or add buildings to;
 * - `building`, `room`, `equipmentItem`: what lies in a linked facility or building.
 */
export type TreeLevel = "facility" | "wholeFacility" | "building" | "room" | "equipmentItem";

export function treeScope(ctx: ServiceContext, level: TreeLevel): SQL | undefined {
  const actor = ctx.actor;
  if (isEntityWide(actor)) return undefined;
  if (actor?.id == null) return sql`false`;
  // A token limited to some facilities reaches them (and every building in them), not its maker's links.
  const limited = tokenFacilities(actor);
  const linkedFacilities = limited
    ? sql`select f.id from facilities f where f.entity_id = ${ctx.entityId} and f.id in (${idsSql(limited)})`
    : sql`select l.facility_id from user_linked_objects l
    where l.user_id = ${actor.id} and l.entity_id = ${ctx.entityId} and l.facility_id is not null`;
  const linkedBuildings = limited
    ? sql`select null::int where false`
    : sql`select l.building_id from user_linked_objects l
    where l.user_id = ${actor.id} and l.entity_id = ${ctx.entityId} and l.building_id is not null`;
  // Two selects, not one with an OR: the planner then knows the handful of buildings it gets, and reads
  // their rooms by index instead of every room of the entity.
  const buildingsInScope = sql`select b.id from buildings b
      where b.entity_id = ${ctx.entityId} and b.facility_id in (${linkedFacilities})
    union all
    select b.id from buildings b
      where b.entity_id = ${ctx.entityId} and b.id in (${linkedBuildings})`;
  switch (level) {
    case "facility":
      // tenant-scope: scoped by the linked buildings: the user's links in ctx.entityId, joined to the entity's buildings above
      return sql`(${facilities.id} in (${linkedFacilities})
        or ${facilities.id} in (select b.facility_id from buildings b where b.id in (${linkedBuildings})))`;
    case "wholeFacility":
      return sql`${facilities.id} in (${linkedFacilities})`;
    case "building":
      return sql`${buildings.id} in (${buildingsInScope})`;
    case "room":
      return sql`${rooms.buildingId} in (${buildingsInScope})`;
    case "equipmentItem":
      // tenant-scope: scoped by buildingsInScope: buildings of ctx.entityId only
      return sql`${equipmentItems.roomId} in (select r.id from rooms r where r.building_id in (${buildingsInScope}))`;
  }
}

/**
 * The generic equipment whose documentation an actor may read, as a condition on `equipment_types`.
 * The catalogue is entity-wide for those who manage it (facility managers and administrators:
 * `undefined`), who edit its documentation; technicians read the documentation of the types with an
 * active item in a room they reach (the equipment they may be sent to); nothing for no actor. The
 * catalogue itself (names, notes, categories) stays readable by every user of the entity.
 */
export function equipmentTypeReach(ctx: ServiceContext): SQL | undefined {
  const actor = ctx.actor;
  if (can(actor, "manage", "catalogue")) return undefined;
  if (actor?.id == null) return sql`false`;
  return exists(
    ctx.db
      .select({ one: sql`1` })
      .from(equipmentItems)
      .innerJoin(rooms, eq(rooms.id, equipmentItems.roomId))
      .where(
        and(
          eq(equipmentItems.entityId, ctx.entityId),
          eq(equipmentItems.equipmentTypeId, equipmentTypes.id),
          isNull(equipmentItems.archivedAt),
          isNull(rooms.archivedAt),
          treeScope(ctx, "equipmentItem"),
        ),
      ),
  );
}

/**
 * The incidents an actor may read (and so their files and comments' attachments), as a condition on
 * `incidents`. Administrators: all of their entity (`undefined`). Facility managers and technicians:
 * incidents in a room they reach (`treeScope`; an incident on an equipment item carries the item's room,
 * so one index on `room_id` decides it), and incidents assigned to them; nothing for no actor.
 *
 * Given the actor's `ReachOutline` and a wide reach, the same set is written from its complement: an
 * incident with a room not in a building outside the reach. A few buildings outside cost a small hash
 * per query instead of one of every reached room (tens of thousands for a manager of the whole tree).
 */
export function incidentReach(ctx: ServiceContext, outline?: ReachOutline | null): SQL | undefined {
  const actor = ctx.actor;
  if (isEntityWide(actor)) return undefined;
  if (actor?.id == null) return sql`false`;
  let inReachedRoom: SQL;
  if (outline?.wide) {
    inReachedRoom = outline.outside.length
      ? and(isNotNull(incidents.roomId), sql`${incidents.roomId} not in (${roomsOfBuildings(ctx, outline.outside)})`)!
      : isNotNull(incidents.roomId);
  } else {
    const reachableRooms = ctx.db
      .select({ id: rooms.id })
      .from(rooms)
      .where(and(eq(rooms.entityId, ctx.entityId), treeScope(ctx, "room")));
    inReachedRoom = inArray(incidents.roomId, reachableRooms);
  }
  // A token's maker's assigned incidents are not the token's: it reaches its facilities' rooms only.
  if (tokenFacilities(actor)) return inReachedRoom;
  return or(eq(incidents.assigneeId, actor.id), inReachedRoom);
}

/**
 * `incidentReach` in parts, for reads that start from places rather than incidents (the dashboard's
 * monthly costs): a condition on the `rooms` row of the incident's room and the same on its `buildings`
 * row (undefined: every place, and the incidents without a room), and the person whose assigned
 * incidents are in reach wherever they are (null: none). The incidents in reach are those in a room that
 * meets `room` (or a building that meets `building`), plus those assigned to `assigneeId`.
 */
export function incidentReachByPlace(ctx: ServiceContext): { room: SQL | undefined; building: SQL | undefined; assigneeId: number | null } {
  const actor = ctx.actor;
  if (isEntityWide(actor)) return { room: undefined, building: undefined, assigneeId: null };
  if (actor?.id == null) return { room: sql`false`, building: sql`false`, assigneeId: null };
  return {
    room: treeScope(ctx, "room") ?? sql`true`,
    building: treeScope(ctx, "building") ?? sql`true`,
    assigneeId: tokenFacilities(actor) ? null : actor.id,
  };
}

/**
 * An outline of the actor's reach in the facility tree: the entity's buildings they do not reach
 * (archived ones too), and whether they reach at least half of the buildings not archived (`wide`), a
 * cheap measure of whether the reach or its complement is the smaller set to test. Null for an actor
 * reaching the whole entity, who needs none.
 */
export interface ReachOutline {
  reached: number;
  total: number;
  outside: number[];
  wide: boolean;
}

export async function reachOutline(ctx: ServiceContext): Promise<ReachOutline | null> {
  if (isEntityWide(ctx.actor) || ctx.actor?.id == null) return null;
  const scope = treeScope(ctx, "building");
  const rows = await ctx.db
    .select({ id: buildings.id, live: sql<boolean>`${buildings.archivedAt} is null`, reached: scope ? sql<boolean>`coalesce(${scope}, false)` : sql<boolean>`true` })
    .from(buildings)
    .where(eq(buildings.entityId, ctx.entityId));
  const live = rows.filter((r) => r.live);
  const reached = live.filter((r) => r.reached).length;
  return { reached, total: live.length, outside: rows.filter((r) => !r.reached).map((r) => r.id), wide: live.length > 0 && reached * 2 >= live.length };
}

/**
 * The entity's incidents outside the actor's reach (the complement of `incidentReach`), given the
 * buildings outside it (`reachOutline`), as disjoint conditions each an index serves alone (an
 * OR of them would make the planner test every incident): the incidents without a room, and those in a
 * room of those buildings; for a person, either one not assigned to them. An actor reaching the whole
 * entity: none. Summing the entity's counters and taking away what these select is how a dashboard of a
 * wide reach counts only what lies outside it.
 */
export function incidentsOutsideReach(ctx: ServiceContext, outsideBuildings: readonly number[]): SQL[] {
  const actor = ctx.actor;
  if (isEntityWide(actor)) return [];
  if (actor?.id == null) return [sql`true`];
  const notMine = tokenFacilities(actor) ? undefined : sql`${incidents.assigneeId} is distinct from ${actor.id}`;
  const inOutsideRooms = inArray(incidents.roomId, roomsOfBuildings(ctx, outsideBuildings));
  return [and(isNull(incidents.roomId), notMine)!, ...(outsideBuildings.length ? [and(inOutsideRooms, notMine)!] : [])];
}

/** The ids of the entity's rooms in the given buildings, as a subquery. */
function roomsOfBuildings(ctx: ServiceContext, buildingIds: readonly number[]) {
  return ctx.db
    .select({ id: rooms.id })
    .from(rooms)
    .where(and(eq(rooms.entityId, ctx.entityId), sql`${rooms.buildingId} in (${idsSql(buildingIds)})`));
}
