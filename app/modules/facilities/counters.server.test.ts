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
import { createEntity, createIncident, createUser } from "#tests/factories";
import { createTestDatabase } from "#tests/test-db";
import {
  adjustOpenIncidentCounts,
  adjustRoomCounts,
  findCounterDrift,
  isOpenIncident,
  openIncidentDeltas,
  recountCounters,
} from "./counters.server";
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

describe("openIncidentDeltas", () => {
  const open = (roomId: number | null, status: IncidentStatus = IncidentStatus.PENDING, archivedAt: Date | null = null) => ({
    roomId,
    status,
    archivedAt,
  });

  it("counts Pending and In Progress incidents that are not archived", () => {
    expect(isOpenIncident({ status: IncidentStatus.PENDING })).toBe(true);
    expect(isOpenIncident({ status: IncidentStatus.IN_PROGRESS })).toBe(true);
    for (const status of [IncidentStatus.DONE, IncidentStatus.REJECTED, IncidentStatus.ARCHIVED]) expect(isOpenIncident({ status })).toBe(false);
    expect(isOpenIncident({ status: IncidentStatus.PENDING, archivedAt: new Date() })).toBe(false);
  });

  it("gives +1 on creation, -1 on closing, both on a move, nothing otherwise", () => {
    expect(openIncidentDeltas(null, open(1))).toEqual([{ roomId: 1, delta: 1 }]);
    expect(openIncidentDeltas(null, open(1, IncidentStatus.DONE))).toEqual([]);
    expect(openIncidentDeltas(null, open(null))).toEqual([]);
    expect(openIncidentDeltas(open(1), open(1, IncidentStatus.IN_PROGRESS))).toEqual([]);
    expect(openIncidentDeltas(open(1), open(1, IncidentStatus.DONE))).toEqual([{ roomId: 1, delta: -1 }]);
    expect(openIncidentDeltas(open(1, IncidentStatus.REJECTED), open(1, IncidentStatus.PENDING))).toEqual([{ roomId: 1, delta: 1 }]);
    expect(openIncidentDeltas(open(1), open(1, IncidentStatus.PENDING, new Date()))).toEqual([{ roomId: 1, delta: -1 }]);
    expect(openIncidentDeltas(open(1), open(2))).toEqual([
      { roomId: 1, delta: -1 },
      { roomId: 2, delta: 1 },
    ]);
    expect(openIncidentDeltas(open(1), null)).toEqual([{ roomId: 1, delta: -1 }]);
  });
});

describe(`counters kept by the verbs (${process.env.DATABASE_URL ? "PostgreSQL" : "PGlite"})`, () => {
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

    // Incidents, as the incidents service will write them.
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

    // A status change of the future incidents service: the deltas of the change.
    await adjustOpenIncidentCounts(ctx, openIncidentDeltas({ roomId: r2.id, status: IncidentStatus.PENDING }, { roomId: r2.id, status: IncidentStatus.DONE }));
    await database.db.execute(
      // the matching row change (what the service would write in the same transaction)
      sql`update incidents set status = 2 where entity_id = ${e} and room_id = ${r2.id} and status = 0`,
    );
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
    // Another entity's context names this entity's ids: nothing changes.
    await adjustRoomCounts({ db: database.db, entityId: other.entity.id }, [room.id], -1);
    await adjustOpenIncidentCounts({ db: database.db, entityId: other.entity.id }, [{ roomId: room.id, delta: 5 }]);
    await noDrift(entity.id);
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
