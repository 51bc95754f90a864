import { and, asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tokenActor } from "~/core/actor";
import type { ServiceContext } from "~/core/context.server";
import type { Database } from "~/db/client.server";
import { Role } from "~/db/enums";
import { type Entity, incidents, type User } from "~/db/schema";
import { createBuilding, createEntity, createFacility, createIncident, createRoom, createUser, linkUserTo } from "#tests/factories";
import { actorContext } from "#tests/service-helpers";
import { createTestDatabase } from "#tests/test-db";
import { incidentReach, incidentsOutsideReach, reachOutline } from "./policy.server";

/**
 * A wide reach is tested by its complement (`incidentReach` with a `ReachOutline`) and a dashboard counts
 * what lies outside a reach (`incidentsOutsideReach`): both must select exactly the incidents the plain
 * reach does, or its complement. The tree: facility F1 with buildings A and B (and an archived building
 * Z), facility F2 with building C; one incident in a room of each building, one without a room, one
 * without a room assigned to the wide manager, one in C assigned to the wide manager; another entity's.
 */
let database: Database;
let entity: Entity;
let wide: User;
let narrow: User;
let everything: User;
let admin: User;
let f1: number;
const named: Record<string, number> = {};

beforeAll(async () => {
  database = await createTestDatabase();
  const db = database.db;
  entity = await createEntity(db);
  const other = await createEntity(db);
  admin = await createUser(db, { entityId: entity.id, role: Role.ADMINISTRATOR });
  wide = await createUser(db, { entityId: entity.id, role: Role.FACILITY_MANAGER });
  narrow = await createUser(db, { entityId: entity.id, role: Role.TECHNICIAN });
  everything = await createUser(db, { entityId: entity.id, role: Role.FACILITY_MANAGER });
  f1 = (await createFacility(db, { entityId: entity.id })).id;
  const f2 = (await createFacility(db, { entityId: entity.id })).id;
  const a = await createBuilding(db, { entityId: entity.id, facilityId: f1 });
  const b = await createBuilding(db, { entityId: entity.id, facilityId: f1 });
  const z = await createBuilding(db, { entityId: entity.id, facilityId: f1, archivedAt: new Date() });
  const c = await createBuilding(db, { entityId: entity.id, facilityId: f2 });
  await linkUserTo(db, { entityId: entity.id, userId: wide.id, facilityId: f1 });
  await linkUserTo(db, { entityId: entity.id, userId: narrow.id, buildingId: c.id });
  await linkUserTo(db, { entityId: entity.id, userId: everything.id, facilityId: f1 });
  await linkUserTo(db, { entityId: entity.id, userId: everything.id, facilityId: f2 });
  const e = entity.id;
  for (const [name, building] of [["a", a], ["b", b], ["z", z], ["c", c]] as const) {
    const room = await createRoom(db, { entityId: e, buildingId: building.id });
    named[name] = (await createIncident(db, { entityId: e, roomId: room.id })).id;
  }
  const cRoom = await createRoom(db, { entityId: e, buildingId: c.id });
  named.cMine = (await createIncident(db, { entityId: e, roomId: cRoom.id, assigneeId: wide.id })).id;
  named.noRoom = (await createIncident(db, { entityId: e })).id;
  named.noRoomMine = (await createIncident(db, { entityId: e, assigneeId: wide.id })).id;
  const otherBuilding = await createBuilding(db, { entityId: other.id });
  const otherRoom = await createRoom(db, { entityId: other.id, buildingId: otherBuilding.id });
  await createIncident(db, { entityId: other.id, roomId: otherRoom.id, assigneeId: wide.id });
});

afterAll(async () => {
  await database?.close();
});

async function selected(ctx: ServiceContext, condition: ReturnType<typeof incidentReach>): Promise<string[]> {
  const rows = await ctx.db
    .select({ id: incidents.id })
    .from(incidents)
    .where(and(eq(incidents.entityId, ctx.entityId), condition))
    .orderBy(asc(incidents.id));
  const byId = new Map(Object.entries(named).map(([name, id]) => [id, name]));
  return rows.map((r) => byId.get(r.id) ?? `?${r.id}`).sort();
}

describe(`a reach and its complement (${process.env.DATABASE_URL ? "PostgreSQL" : "PGlite"})`, () => {
  it("outlines the reach: the buildings outside it, and whether it holds at least half of the live ones", async () => {
    const db = database.db;
    expect(await reachOutline(actorContext(db, admin))).toBeNull();
    const w = await reachOutline(actorContext(db, wide));
    expect(w).toMatchObject({ reached: 2, total: 3, wide: true });
    expect(w!.outside).toHaveLength(1);
    const n = await reachOutline(actorContext(db, narrow));
    expect(n).toMatchObject({ reached: 1, total: 3, wide: false });
    // The archived building Z is outside the technician's reach too.
    expect(n!.outside).toHaveLength(3);
    expect(await reachOutline(actorContext(db, everything))).toEqual({ reached: 3, total: 3, outside: [], wide: true });
  });

  it("selects the same incidents from the reach and from its complement, for a person and for a token", async () => {
    const db = database.db;
    const token: ServiceContext = { ...actorContext(db, wide), actor: tokenActor(wide, 1, ["incident:read"], { facilityIds: [f1] }) };
    const expected: [ServiceContext, string[]][] = [
      [actorContext(db, wide), ["a", "b", "cMine", "noRoomMine", "z"]],
      [actorContext(db, narrow), ["c", "cMine"]],
      [actorContext(db, everything), ["a", "b", "c", "cMine", "z"]],
      [token, ["a", "b", "z"]],
    ];
    for (const [ctx, names] of expected) {
      const outline = await reachOutline(ctx);
      expect(await selected(ctx, incidentReach(ctx))).toEqual(names);
      // Whatever the outline says, both forms select the same incidents.
      expect(await selected(ctx, incidentReach(ctx, { ...outline!, wide: true }))).toEqual(names);
      expect(await selected(ctx, incidentReach(ctx, { ...outline!, wide: false }))).toEqual(names);
      // The outside, part by part, is everything else of the entity, each incident once.
      const outside: string[] = [];
      for (const part of incidentsOutsideReach(ctx, outline!.outside)) outside.push(...(await selected(ctx, part)));
      expect(outside.sort()).toEqual(Object.keys(named).filter((n) => !names.includes(n)).sort());
    }
    expect(incidentsOutsideReach(actorContext(db, admin), [])).toEqual([]);
  });
});
