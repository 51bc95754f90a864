import { personActor } from "~/core/actor";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "~/db/client.server";
import { IncidentStatus, Role } from "~/db/enums";
import { buildings, facilities, rooms, type User } from "~/db/schema";
import type { FilesContext } from "~/modules/files/uploads.server";
import { createCategory, createEquipmentType, updateEquipmentType, archiveEquipmentType, archiveCategory } from "~/modules/equipment/service.server";
import { archiveRoom, createRoom, createRoomType, removeRoomType, updateRoom } from "~/modules/rooms/service.server";
import { setIncidentStatus } from "~/modules/incidents/service.server";
import { createEntity, createIncident, createUser } from "#tests/factories";
import { createTestDatabase } from "#tests/test-db";
import { findCounterDrift, recountCounters } from "./counters.server";
import { archiveBuilding, archiveFacility, createBuilding, createFacility, updateBuilding } from "./service.server";

let database: Database;
const files = { root: fs.mkdtempSync(path.join(os.tmpdir(), "caretaker-counters-")), maxBytes: 64 * 1024 };

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database?.close();
  fs.rmSync(files.root, { recursive: true, force: true });
});

const ctxFor = (user: User): FilesContext => ({
  db: database.db,
  entityId: user.entityId,
  actor: personActor(user),
  locale: "en",
  timeZone: "Europe/Brussels",
  files,
});

async function manager() {
  const entity = await createEntity(database.db);
  const user = await createUser(database.db, { entityId: entity.id, role: Role.FACILITY_MANAGER });
  return { entity, user, ctx: ctxFor(user) };
}

const noDrift = async (entityId: number) => expect(await findCounterDrift(database.db, entityId)).toEqual([]);

async function countersOf(table: "rooms" | "buildings" | "facilities", id: number) {
  const t = { rooms, buildings, facilities }[table];
  const [row] = await database.db.select().from(t).where(eq(t.id, id));
  return row as Record<string, unknown>;
}

describe(`counters kept by triggers, through the verbs (${process.env.DATABASE_URL ? "PostgreSQL" : "PGlite"})`, () => {
  it("follow every verb of the facility tree and the equipment catalogue", async () => {
    const { entity, ctx } = await manager();
    const e = entity.id;
    // Another entity's tree, to check that nothing of it moves.
    const other = await manager();
    const theirFacility = await createFacility(other.ctx, { name: "Theirs", description: null });
    const theirBuilding = await createBuilding(other.ctx, { name: "Their building", facilityId: theirFacility.id } as never);
    const theirType = await createRoomType(other.ctx, { roomTypeName: "Office", tags: [] });
    const theirCategory = await createCategory(other.ctx, { categoryName: "Tools", tags: [] });
    const theirChair = await createEquipmentType(other.ctx, { equipmentName: "Chair", categoryId: theirCategory.id } as never);
    const theirRoom = await createRoom(other.ctx, {
      name: "Their room",
      floor: "0",
      buildingId: theirBuilding.id,
      roomTypeId: theirType.id,
      equipments: [{ equipmentTypeId: theirChair.id, internalReference: null }],
    } as never);
    await createIncident(database.db, { entityId: other.entity.id, roomId: theirRoom.id });

    const north = await createFacility(ctx, { name: "North", description: null });
    const south = await createFacility(ctx, { name: "South", description: null });
    const main = await createBuilding(ctx, { name: "Main", facilityId: north.id } as never);
    const annex = await createBuilding(ctx, { name: "Annex", facilityId: north.id } as never);
    expect(await countersOf("facilities", north.id)).toMatchObject({ buildingCount: 2, activeIncidentCount: 0 });
    const office = await createRoomType(ctx, { roomTypeName: "Office", tags: [] });
    const lab = await createRoomType(ctx, { roomTypeName: "Lab", tags: [] });
    const furniture = await createCategory(ctx, { categoryName: "Furniture", tags: [] });
    const tools = await createCategory(ctx, { categoryName: "Tools", tags: [] });
    const chair = await createEquipmentType(ctx, { equipmentName: "Chair", categoryId: furniture.id } as never);
    const desk = await createEquipmentType(ctx, { equipmentName: "Desk", categoryId: furniture.id } as never);
    await noDrift(e);

    const roomInput = (name: string, buildingId: number, roomTypeId: number, equipments: { id?: number; equipmentTypeId: number }[]) =>
      ({ name, floor: "1", buildingId, roomTypeId, equipments: equipments.map((x) => ({ internalReference: null, ...x })) }) as never;
    const r1 = await createRoom(ctx, roomInput("R1", main.id, office.id, [{ equipmentTypeId: chair.id }, { equipmentTypeId: desk.id }]));
    const r2 = await createRoom(ctx, roomInput("R2", main.id, lab.id, [{ equipmentTypeId: chair.id }]));
    const r3 = await createRoom(ctx, roomInput("R3", annex.id, office.id, [{ equipmentTypeId: desk.id }]));
    expect(await countersOf("rooms", r1.id)).toMatchObject({ equipmentCount: 2, activeIncidentCount: 0 });
    expect(await countersOf("buildings", main.id)).toMatchObject({ roomCount: 2 });
    await noDrift(e);

    // Incidents, written by the factory (plain inserts).
    for (const [roomId, status] of [
      [r1.id, IncidentStatus.PENDING],
      [r1.id, IncidentStatus.IN_PROGRESS],
      [r1.id, IncidentStatus.DONE],
      [r2.id, IncidentStatus.PENDING],
      [r3.id, IncidentStatus.IN_PROGRESS],
    ] as const) {
      await createIncident(database.db, { entityId: e, roomId, status });
    }
    const onItem = await createIncident(database.db, { entityId: e, roomId: r1.id, equipmentItemId: r1.equipments[0].id });
    expect(await countersOf("rooms", r1.id)).toMatchObject({ activeIncidentCount: 3 });
    expect(await countersOf("buildings", main.id)).toMatchObject({ activeIncidentCount: 4 });
    expect(await countersOf("facilities", north.id)).toMatchObject({ activeIncidentCount: 5 });
    await noDrift(e);

    // A status change written by hand.
    await database.db.execute(sql`update incidents set status = 2 where entity_id = ${e} and room_id = ${r2.id} and status = 0`);
    expect(await countersOf("buildings", main.id)).toMatchObject({ activeIncidentCount: 3 });
    await noDrift(e);

    // Rooms: move to another building and type, items removed and added.
    await updateRoom(
      ctx,
      r1.id,
      roomInput("R1", annex.id, lab.id, [{ id: r1.equipments.find((i) => i.equipmentTypeId === chair.id)!.id, equipmentTypeId: chair.id }, { equipmentTypeId: chair.id }, { equipmentTypeId: chair.id }]),
    );
    expect(await countersOf("rooms", r1.id)).toMatchObject({ equipmentCount: 3 });
    expect(await countersOf("buildings", annex.id)).toMatchObject({ roomCount: 2 });
    await noDrift(e);

    // Buildings: move to another facility (with its rooms' incidents).
    await updateBuilding(ctx, annex.id, { name: "Annex", facilityId: south.id } as never);
    expect(await countersOf("facilities", south.id)).toMatchObject({ buildingCount: 1 });
    await noDrift(e);

    // Generic equipment: another category, then archived (items leave the rooms, incidents rejected).
    await updateEquipmentType(ctx, desk.id, { equipmentName: "Desk", categoryId: tools.id } as never);
    await noDrift(e);
    await archiveEquipmentType(ctx, chair.id);
    expect(await countersOf("rooms", r1.id)).toMatchObject({ equipmentCount: 0 });
    await noDrift(e);
    await archiveCategory(ctx, tools.id);
    await noDrift(e);

    // Room types: removing one moves its rooms to the replacement.
    await removeRoomType(ctx, lab.id, { replacementRoomType: office.id });
    await noDrift(e);

    // Archives: a room, a building, a facility.
    await archiveRoom(ctx, r3.id);
    await noDrift(e);
    const spare = await createBuilding(ctx, { name: "Spare", facilityId: north.id } as never);
    await archiveBuilding(ctx, spare.id);
    await noDrift(e);
    await archiveFacility(ctx, south.id);
    await noDrift(e);
    expect(onItem.id).toBeGreaterThan(0);

    // The other entity never moved.
    await noDrift(other.entity.id);
    expect(await countersOf("rooms", theirRoom.id)).toMatchObject({ equipmentCount: 1, activeIncidentCount: 1 });
    expect(await countersOf("buildings", theirBuilding.id)).toMatchObject({ roomCount: 1, activeIncidentCount: 1 });
  });

  it("never reach another entity's rows, and roll back with the verb", async () => {
    const { entity, ctx } = await manager();
    const other = await manager();
    const facility = await createFacility(ctx, { name: "F", description: null });
    const building = await createBuilding(ctx, { name: "B", facilityId: facility.id } as never);
    const type = await createRoomType(ctx, { roomTypeName: "T", tags: [] });
    const category = await createCategory(ctx, { categoryName: "C", tags: [] });
    const chair = await createEquipmentType(ctx, { equipmentName: "Chair", categoryId: category.id } as never);
    const room = await createRoom(ctx, {
      name: "R",
      floor: "0",
      buildingId: building.id,
      roomTypeId: type.id,
      equipments: [{ equipmentTypeId: chair.id, internalReference: null }],
    } as never);
    // Rows of another entity naming this entity's room (written by hand, around the verbs) count for
    // neither: a parent is matched on its id and its entity.
    await database.db.execute(sql`
      insert into incidents (entity_id, short_id, title, room_id, status)
      select ${other.entity.id}, 900000 + g, 'Elsewhere', ${room.id}, 0 from generate_series(1, 5) g`);
    await noDrift(entity.id);
    await noDrift(other.entity.id);
    expect(await countersOf("rooms", room.id)).toMatchObject({ activeIncidentCount: 0, equipmentCount: 1 });
    // A verb that fails after adjusting (wrong confirmation name) leaves the counters as they were.
    await expect(archiveRoom(ctx, room.id, { confirmName: "not the name" })).rejects.toThrow();
    await expect(archiveBuilding(ctx, building.id, { confirmName: "not the name" })).rejects.toThrow();
    await noDrift(entity.id);
    expect(await countersOf("buildings", building.id)).toMatchObject({ roomCount: 1 });
    expect(await countersOf("facilities", facility.id)).toMatchObject({ buildingCount: 1 });
  });

  it("are recomputed from the rows by recountCounters", async () => {
    const { entity, ctx } = await manager();
    const facility = await createFacility(ctx, { name: "F", description: null });
    const building = await createBuilding(ctx, { name: "B", facilityId: facility.id } as never);
    const type = await createRoomType(ctx, { roomTypeName: "T", tags: [] });
    const category = await createCategory(ctx, { categoryName: "C", tags: [] });
    const chair = await createEquipmentType(ctx, { equipmentName: "Chair", categoryId: category.id } as never);
    const room = await createRoom(ctx, {
      name: "R",
      floor: "0",
      buildingId: building.id,
      roomTypeId: type.id,
      equipments: [{ equipmentTypeId: chair.id, internalReference: null }],
    } as never);
    await createIncident(database.db, { entityId: entity.id, roomId: room.id });
    // Drift written around the verbs:
    await database.db
      .update(buildings)
      .set({ roomCount: 7, activeIncidentCount: 9 })
      .where(and(eq(buildings.id, building.id), eq(buildings.entityId, entity.id)));
    await database.db.update(rooms).set({ equipmentCount: 0 }).where(and(eq(rooms.id, room.id), eq(rooms.entityId, entity.id)));
    const drift = await findCounterDrift(database.db, entity.id);
    expect(drift).toEqual(
      expect.arrayContaining([
        { table: "buildings", id: building.id, column: "room_count", stored: 7, expected: 1 },
        { table: "buildings", id: building.id, column: "active_incident_count", stored: 9, expected: 1 },
        { table: "rooms", id: room.id, column: "equipment_count", stored: 0, expected: 1 },
      ]),
    );
    await recountCounters(database.db, entity.id);
    await noDrift(entity.id);
  });
});

describe(`counters kept by triggers, for set-based writes outside the verbs (${process.env.DATABASE_URL ? "PostgreSQL" : "PGlite"})`, () => {
  const run = (query: ReturnType<typeof sql>) => database.db.execute(query);
  const one = async <T>(query: ReturnType<typeof sql>) => {
    const result = (await run(query)) as unknown as { rows?: T[] } | T[];
    return (Array.isArray(result) ? result : (result.rows ?? []))[0];
  };

  it("follow an import's statements: many rows inserted, moved, closed, archived, restored and deleted at once", async () => {
    const { entity, ctx } = await manager();
    const e = entity.id;
    const other = await manager();
    const theirs = await createFacility(other.ctx, { name: "Theirs", description: null });
    await createBuilding(other.ctx, { name: "Their building", facilityId: theirs.id } as never);
    const north = await createFacility(ctx, { name: "North", description: null });
    const south = await createFacility(ctx, { name: "South", description: null });
    const office = await createRoomType(ctx, { roomTypeName: "Office", tags: [] });
    const lab = await createRoomType(ctx, { roomTypeName: "Lab", tags: [] });
    const furniture = await createCategory(ctx, { categoryName: "Furniture", tags: [] });
    const tools = await createCategory(ctx, { categoryName: "Tools", tags: [] });
    const chair = await createEquipmentType(ctx, { equipmentName: "Chair", categoryId: furniture.id } as never);

    // 6 buildings (3 per facility), 50 rooms each (a third of them labs), 2 items a room, 4 incidents a
    // room of which one is open (status k % 5: 1 In Progress, 2 Done, 3 Rejected, 4 Archived).
    await run(sql`
      insert into buildings (entity_id, facility_id, short_id, name)
      select ${e}, case when g % 2 = 0 then ${north.id}::int else ${south.id}::int end, 100 + g, 'Imported ' || g
      from generate_series(1, 6) g`);
    await run(sql`
      insert into rooms (entity_id, building_id, room_type_id, short_id, name, floor)
      select ${e}, b.id, case when g % 3 = 0 then ${lab.id}::int else ${office.id}::int end, b.short_id * 1000 + g, 'Room ' || g, '0'
      from buildings b cross join generate_series(1, 50) g where b.entity_id = ${e}`);
    await run(sql`
      insert into equipment_items (entity_id, room_id, equipment_type_id, internal_reference)
      select ${e}, r.id, ${chair.id}, 'EQ-' || r.short_id || '-' || k from rooms r cross join generate_series(1, 2) k where r.entity_id = ${e}`);
    await run(sql`
      insert into incidents (entity_id, short_id, title, room_id, status)
      select ${e}, r.short_id * 10 + k, 'Imported', r.id, (k % 5)::smallint from rooms r cross join generate_series(1, 4) k where r.entity_id = ${e}`);
    await noDrift(e);
    expect(await countersOf("facilities", north.id)).toMatchObject({ buildingCount: 3, activeIncidentCount: 150 });
    const [first, second] = (await database.db.select().from(buildings).where(eq(buildings.facilityId, north.id))).sort((a, b) => a.id - b.id);
    expect(await countersOf("buildings", first.id)).toMatchObject({ roomCount: 50, activeIncidentCount: 50 });
    expect(await one(sql`select room_count from room_types where id = ${lab.id}`)).toMatchObject({ room_count: 96 });
    expect(await one(sql`select item_count from equipment_types where id = ${chair.id}`)).toMatchObject({ item_count: 600 });

    // A bulk status change: every Done incident reopened, then one room's open incidents closed.
    await run(sql`update incidents set status = 0 where entity_id = ${e} and status = 2`);
    await noDrift(e);
    expect(await countersOf("facilities", north.id)).toMatchObject({ activeIncidentCount: 300 });

    // Rooms moved to another building and type, buildings to another facility, generic equipment to another category.
    await run(sql`update rooms set building_id = ${second.id}, room_type_id = ${lab.id} where building_id = ${first.id} and short_id % 2 = 0`);
    await noDrift(e);
    expect(await countersOf("buildings", second.id)).toMatchObject({ roomCount: 75, activeIncidentCount: 150 });
    await run(sql`update buildings set facility_id = ${south.id} where entity_id = ${e} and id = ${second.id}`);
    await noDrift(e);
    await run(sql`update equipment_types set category_id = ${tools.id} where entity_id = ${e} and category_id = ${furniture.id}`);
    await noDrift(e);

    // Archives and restores, in one statement each: half of a building's rooms, then all of them back;
    // items of every other room; a whole facility by hand (rooms and buildings, as the cascade does).
    await run(sql`update rooms set archived_at = case when short_id % 3 = 0 then now() end where building_id = ${second.id}`);
    await noDrift(e);
    await run(sql`update rooms set archived_at = null where building_id = ${second.id}`);
    await noDrift(e);
    expect(await countersOf("buildings", second.id)).toMatchObject({ roomCount: 75, activeIncidentCount: 150 });
    await run(sql`update equipment_items set archived_at = now() where entity_id = ${e} and room_id % 2 = 0`);
    await noDrift(e);
    await run(sql`
      with closed as (
        update incidents i set status = 3 from rooms r join buildings b on b.id = r.building_id
        where r.id = i.room_id and b.facility_id = ${north.id} and i.status in (0, 1) returning i.id
      ), rooms_archived as (
        update rooms r set archived_at = now() from buildings b
        where b.id = r.building_id and b.facility_id = ${north.id} and r.archived_at is null returning r.id
      )
      update buildings set archived_at = now() where facility_id = ${north.id} and archived_at is null`);
    await noDrift(e);
    expect(await countersOf("facilities", north.id)).toMatchObject({ buildingCount: 0, activeIncidentCount: 0 });

    // Deletes: incidents of a building, then its items and rooms.
    await run(sql`delete from incidents where room_id in (select id from rooms where building_id = ${second.id})`);
    await noDrift(e);
    await run(sql`delete from equipment_items where room_id in (select id from rooms where building_id = ${second.id})`);
    await run(sql`delete from rooms where building_id = ${second.id}`);
    await noDrift(e);
    expect(await countersOf("buildings", second.id)).toMatchObject({ roomCount: 0, activeIncidentCount: 0 });
    await noDrift(other.entity.id);
  });

  it("add up when writers run concurrently", async () => {
    const entity = await createEntity(database.db);
    const admin = await createUser(database.db, { entityId: entity.id, role: Role.ADMINISTRATOR });
    const ctx = ctxFor(admin);
    const facility = await createFacility(ctx, { name: "F", description: null });
    const a = await createBuilding(ctx, { name: "A", facilityId: facility.id } as never);
    const b = await createBuilding(ctx, { name: "B", facilityId: facility.id } as never);
    const type = await createRoomType(ctx, { roomTypeName: "T", tags: [] });
    const category = await createCategory(ctx, { categoryName: "C", tags: [] });
    const chair = await createEquipmentType(ctx, { equipmentName: "Chair", categoryId: category.id } as never);
    const roomIds: number[] = [];
    const items: number[] = [];
    for (let i = 0; i < 6; i++) {
      const equipments = [{ equipmentTypeId: chair.id, internalReference: null }];
      const room = await createRoom(ctx, { name: `R${i}`, floor: "0", buildingId: (i % 2 ? b : a).id, roomTypeId: type.id, equipments } as never);
      roomIds.push(room.id);
      items.push(room.equipments[0].id);
    }
    const open = [];
    for (const roomId of roomIds) for (let k = 0; k < 4; k++) open.push(await createIncident(database.db, { entityId: entity.id, roomId }));
    // Status changes in every room, rooms moving both ways between A and B, and a set-based insert.
    await Promise.all([
      ...open.map((incident, i) => setIncidentStatus(ctx, incident.id, { status: i % 2 ? IncidentStatus.DONE : IncidentStatus.IN_PROGRESS })),
      ...roomIds.map((id, i) => {
        const equipments = [{ id: items[i], equipmentTypeId: chair.id, internalReference: null }];
        return updateRoom(ctx, id, { name: `R${i}`, floor: "1", buildingId: (i % 2 ? a : b).id, roomTypeId: type.id, equipments } as never);
      }),
      run(sql`
        insert into incidents (entity_id, short_id, title, room_id, status)
        select ${entity.id}, 500000 + g, 'Imported', ${roomIds[0]}, 0 from generate_series(1, 10) g`),
    ]);
    await noDrift(entity.id);
    expect(await countersOf("facilities", facility.id)).toMatchObject({ buildingCount: 2, activeIncidentCount: 12 + 10 });
  });
});
