import { beforeAll, describe, expect, it } from "vitest";
import { type Entity, materialLines, timeEntries, type User } from "~/db/schema";
import { ForbiddenError, NotFoundError } from "~/lib/errors";
import { createBuilding, createEntity, createEquipmentItem, createFacility, createIncident, createIncidentType, createPlannedMaintenance, createRoom, createStaff, createTask, linkUserTo } from "#tests/factories";
import { actorContext, rejectionOf } from "#tests/service-helpers";
import { setupTestDatabase } from "#tests/test-context";
import { type CostFigures, type DashboardCosts, getDashboardCosts } from "./costs.server";
import type { DashboardFilters } from "./filters";

/**
 * The dashboard's time and costs over entries and lines written by hand (entity in Europe/Brussels,
 * period January to March 2026).
 *
 * Alpha: building A1 (room A1, equipment EA), building A2 (room A2, equipment ET). Beta: building B1 (room B1).
 *  iA  (room A1, EA, Leak)   entries: 15 Jan 90 min at 40.00 = 60.00; 3 Feb 45 min at 38.50 = 28.875 → 28.88;
 *                            1 Apr (outside). Lines: 2.5 × 3.99 = 9.975 → 9.98 on 31 Jan 23:30 UTC (1 Feb in
 *                            Brussels: February); 1 × 1000.00 on 31 Mar 22:30 UTC (1 Apr in Brussels: outside).
 *  iA2 (room A2, no type)    entry: 31 Jan 30 min without a rate (unpriced).
 *  iB  (room B1, Leak)       entry: 20 Jan 60 min at 50.00 = 50.00. Line: 1 × 120.00 on 20 Jan.
 *  tA  (task, room A2, ET)   entry: 10 Mar 120 min at 45.00 = 90.00. Line: 3 × 5.10 = 15.30 on 10 Mar.
 *  tB  (task, room B1)       entry: 5 Mar 30 min at 60.00 = 30.00.
 *  an archived incident of room A1 with 600 min at 50.00, and another entity's work: never counted.
 */
const database = setupTestDatabase();
let entity: Entity;
let other: Entity;
let admin: User;
let manager: User;
let technician: User;
let otherAdmin: User;
let alpha: number;
let beta: number;
let leak: number;
let buildingA2: number;
let roomA1: number;
let roomA2: number;
let roomB1: number;
let itemEA: number;
let itemET: number;
let otherFacility: number;

const period: DashboardFilters = { facilityId: null, buildingId: null, incidentTypeId: null, from: "2026-01-01", to: "2026-03-31" };
const ctxOf = (user: User) => actorContext(database.db, user);
const at = (iso: string) => new Date(iso);

beforeAll(async () => {
  const db = database.db;
  entity = await createEntity(db);
  other = await createEntity(db);
  ({ admin, manager, technician } = await createStaff(db, entity.id));
  ({ admin: otherAdmin } = await createStaff(db, other.id));
  const e = entity.id;
  alpha = (await createFacility(db, { entityId: e, name: "Alpha" })).id;
  beta = (await createFacility(db, { entityId: e, name: "Beta" })).id;
  const buildingA1 = (await createBuilding(db, { entityId: e, facilityId: alpha, name: "A1" })).id;
  buildingA2 = (await createBuilding(db, { entityId: e, facilityId: alpha, name: "A2" })).id;
  const buildingB1 = (await createBuilding(db, { entityId: e, facilityId: beta, name: "B1" })).id;
  roomA1 = (await createRoom(db, { entityId: e, buildingId: buildingA1, name: "Room A1" })).id;
  roomA2 = (await createRoom(db, { entityId: e, buildingId: buildingA2, name: "Room A2" })).id;
  roomB1 = (await createRoom(db, { entityId: e, buildingId: buildingB1, name: "Room B1" })).id;
  itemEA = (await createEquipmentItem(db, { entityId: e, roomId: roomA1, internalReference: "EA" })).id;
  itemET = (await createEquipmentItem(db, { entityId: e, roomId: roomA2, internalReference: "ET" })).id;
  leak = (await createIncidentType(db, { entityId: e, nameEn: "Leak" })).id;
  await linkUserTo(db, { entityId: e, userId: manager.id, facilityId: alpha });

  const jan = at("2026-01-12T09:00Z");
  const iA = (await createIncident(db, { entityId: e, roomId: roomA1, equipmentItemId: itemEA, incidentTypeId: leak, createdAt: jan })).id;
  const iA2 = (await createIncident(db, { entityId: e, roomId: roomA2, createdAt: jan })).id;
  const iB = (await createIncident(db, { entityId: e, roomId: roomB1, incidentTypeId: leak, createdAt: jan })).id;
  const archived = (await createIncident(db, { entityId: e, roomId: roomA1, createdAt: jan, archivedAt: at("2026-02-01T00:00Z") })).id;
  const plan = await createPlannedMaintenance(db, { entityId: e, roomIds: [roomA2] });
  const tA = (await createTask(db, { entityId: e, plannedMaintenanceId: plan.id, roomId: roomA2, equipmentItemId: itemET, dueDate: "2026-03-10" })).id;
  const tB = (await createTask(db, { entityId: e, plannedMaintenanceId: plan.id, roomId: roomB1, dueDate: "2026-03-05" })).id;

  const w = technician.id;
  const entry = (record: { incidentId?: number; taskId?: number }, workedOn: string, minutes: number, hourlyRate: string | null) => ({
    entityId: e,
    ...record,
    userId: w,
    workedOn,
    minutes,
    hourlyRate,
  });
  await db.insert(timeEntries).values([
    entry({ incidentId: iA }, "2026-01-15", 90, "40.00"),
    entry({ incidentId: iA }, "2026-02-03", 45, "38.50"),
    entry({ incidentId: iA }, "2026-04-01", 60, "40.00"),
    entry({ incidentId: iA2 }, "2026-01-31", 30, null),
    entry({ incidentId: iB }, "2026-01-20", 60, "50.00"),
    entry({ taskId: tA }, "2026-03-10", 120, "45.00"),
    entry({ taskId: tB }, "2026-03-05", 30, "60.00"),
    entry({ incidentId: archived }, "2026-01-10", 600, "50.00"),
  ]);
  const line = (record: { incidentId?: number; taskId?: number }, quantity: string, unitCost: string, createdAt: string) => ({
    entityId: e,
    ...record,
    description: "Part",
    quantity,
    unitCost,
    createdAt: at(createdAt),
  });
  await db.insert(materialLines).values([
    line({ incidentId: iA }, "2.5", "3.99", "2026-01-31T23:30Z"),
    line({ incidentId: iA }, "1", "1000.00", "2026-03-31T22:30Z"),
    line({ incidentId: iB }, "1", "120.00", "2026-01-20T10:00Z"),
    line({ taskId: tA }, "3", "5.10", "2026-03-10T10:00Z"),
  ]);

  const o = other.id;
  const otherBuilding = await createBuilding(db, { entityId: o });
  otherFacility = otherBuilding.facilityId;
  const otherRoom = (await createRoom(db, { entityId: o, buildingId: otherBuilding.id })).id;
  const theirs = (await createIncident(db, { entityId: o, roomId: otherRoom, createdAt: jan })).id;
  await db.insert(timeEntries).values({ entityId: o, incidentId: theirs, userId: otherAdmin.id, workedOn: "2026-01-15", minutes: 60, hourlyRate: "99.00" });
  await db.insert(materialLines).values({ entityId: o, incidentId: theirs, description: "Theirs", quantity: "1", unitCost: "7.00", createdAt: at("2026-01-15T10:00Z") });
});

/** Figures as [minutes, labour, materials, total, unpriced entries, entries, lines]. */
const f = (x: CostFigures) => [x.minutes, x.labour, x.materials, x.total, x.unpricedEntries, x.entries, x.lines];
const months = (c: DashboardCosts) => c.months.map((m) => [m.month, ...f(m)]);

describe(`dashboard time and costs (${process.env.DATABASE_URL ? "PostgreSQL" : "PGlite"})`, () => {
  it("sums an administrator's period per month, facility, building, type, room and equipment", async () => {
    const costs = await getDashboardCosts(ctxOf(admin), period);
    expect(costs.currency).toBe("EUR");
    // 60.00 + 28.88 + 50.00 + 90.00 + 30.00; 9.98 + 120.00 + 15.30.
    expect(f(costs.total)).toEqual([375, "258.88", "145.28", "404.16", 1, 6, 3]);
    expect(months(costs)).toEqual([
      ["2026-01", 180, "110.00", "120.00", "230.00", 1, 3, 1],
      // The line of 31 January 23:30 UTC is February's in Brussels.
      ["2026-02", 45, "28.88", "9.98", "38.86", 0, 1, 1],
      ["2026-03", 150, "120.00", "15.30", "135.30", 0, 2, 1],
    ]);
    expect(costs.facilities.map((x) => [x.name, ...f(x)])).toEqual([
      ["Alpha", 285, "178.88", "25.28", "204.16", 1, 4, 2],
      ["Beta", 90, "80.00", "120.00", "200.00", 0, 2, 1],
    ]);
    expect(costs.buildings.map((x) => [x.name, x.facilityName, ...f(x)])).toEqual([
      ["B1", "Beta", 90, "80.00", "120.00", "200.00", 0, 2, 1],
      ["A2", "Alpha", 150, "90.00", "15.30", "105.30", 1, 2, 1],
      ["A1", "Alpha", 135, "88.88", "9.98", "98.86", 0, 2, 1],
    ]);
    expect(costs.types.map((x) => [x.kind, x.id, x.name, ...f(x)])).toEqual([
      ["type", leak, "Leak", 195, "138.88", "129.98", "268.86", 0, 3, 2],
      ["maintenance", null, null, 150, "120.00", "15.30", "135.30", 0, 2, 1],
      ["none", null, null, 30, "0.00", "0.00", "0.00", 1, 1, 0],
    ]);
    expect(costs.rooms.map((x) => [x.id, x.name, x.buildingName, x.total])).toEqual([
      [roomB1, "Room B1", "B1", "200.00"],
      [roomA2, "Room A2", "A2", "105.30"],
      [roomA1, "Room A1", "A1", "98.86"],
    ]);
    expect(costs.equipment.map((x) => [x.id, x.internalReference, x.roomName, x.total])).toEqual([
      [itemET, "ET", "Room A2", "105.30"],
      [itemEA, "EA", "Room A1", "98.86"],
    ]);
  });

  it("keeps to the filters: a type (no tasks), a building, a shorter period", async () => {
    const leaks = await getDashboardCosts(ctxOf(admin), { ...period, incidentTypeId: leak });
    expect(f(leaks.total)).toEqual([195, "138.88", "129.98", "268.86", 0, 3, 2]);
    expect(leaks.types.map((x) => x.kind)).toEqual(["type"]);
    const a2 = await getDashboardCosts(ctxOf(admin), { ...period, buildingId: buildingA2 });
    expect(f(a2.total)).toEqual([150, "90.00", "15.30", "105.30", 1, 2, 1]);
    expect(a2.rooms.map((x) => x.id)).toEqual([roomA2]);
    const beta_ = await getDashboardCosts(ctxOf(admin), { ...period, facilityId: beta });
    expect(f(beta_.total)).toEqual([90, "80.00", "120.00", "200.00", 0, 2, 1]);
    const february = await getDashboardCosts(ctxOf(admin), { ...period, from: "2026-02-01", to: "2026-02-28" });
    expect(months(february)).toEqual([["2026-02", 45, "28.88", "9.98", "38.86", 0, 1, 1]]);
    expect(f(february.total)).toEqual([45, "28.88", "9.98", "38.86", 0, 1, 1]);
  });

  it("shows a manager linked to one facility only that facility's costs", async () => {
    const costs = await getDashboardCosts(ctxOf(manager), period);
    expect(f(costs.total)).toEqual([285, "178.88", "25.28", "204.16", 1, 4, 2]);
    expect(months(costs)).toEqual([
      ["2026-01", 120, "60.00", "0.00", "60.00", 1, 2, 0],
      ["2026-02", 45, "28.88", "9.98", "38.86", 0, 1, 1],
      ["2026-03", 120, "90.00", "15.30", "105.30", 0, 1, 1],
    ]);
    expect(costs.facilities.map((x) => x.id)).toEqual([alpha]);
    expect(costs.rooms.map((x) => x.id)).toEqual([roomA2, roomA1]);
    expect(await rejectionOf(getDashboardCosts(ctxOf(manager), { ...period, facilityId: beta }))).toBeInstanceOf(NotFoundError);
  });

  it("never counts another entity's work, and refuses its facility and a technician", async () => {
    const theirs = await getDashboardCosts(ctxOf(otherAdmin), period);
    expect(f(theirs.total)).toEqual([60, "99.00", "7.00", "106.00", 0, 1, 1]);
    expect(theirs.rooms).toHaveLength(1);
    expect(await rejectionOf(getDashboardCosts(ctxOf(admin), { ...period, facilityId: otherFacility }))).toBeInstanceOf(NotFoundError);
    expect(await rejectionOf(getDashboardCosts(ctxOf(technician), period))).toBeInstanceOf(ForbiddenError);
  });

  it("lists the ten costliest rooms and equipment items", async () => {
    const db = database.db;
    const third = await createEntity(db);
    const { admin: thirdAdmin } = await createStaff(db, third.id);
    const building = (await createBuilding(db, { entityId: third.id })).id;
    // Twelve rooms, each with an item and an incident whose line costs 1.00, 2.00, … 12.00.
    const ids: number[] = [];
    for (let n = 1; n <= 12; n++) {
      const room = (await createRoom(db, { entityId: third.id, buildingId: building })).id;
      const item = (await createEquipmentItem(db, { entityId: third.id, roomId: room })).id;
      const incident = (await createIncident(db, { entityId: third.id, roomId: room, equipmentItemId: item, createdAt: at("2026-01-05T09:00Z") })).id;
      await db.insert(materialLines).values({ entityId: third.id, incidentId: incident, description: "Part", quantity: "1", unitCost: `${n}.00`, createdAt: at("2026-01-05T10:00Z") });
      ids.push(room);
    }
    const costs = await getDashboardCosts(ctxOf(thirdAdmin), period);
    expect(costs.rooms.map((x) => [x.id, x.total])).toEqual(ids.map((id, i) => [id, `${i + 1}.00`]).reverse().slice(0, 10));
    expect(costs.equipment.map((x) => x.total)).toEqual(["12.00", "11.00", "10.00", "9.00", "8.00", "7.00", "6.00", "5.00", "4.00", "3.00"]);
    expect(costs.total.materials).toBe("78.00");
  });

  it("answers zeros for a period without work", async () => {
    const costs = await getDashboardCosts(ctxOf(admin), { ...period, from: "2025-06-01", to: "2025-06-30" });
    expect(f(costs.total)).toEqual([0, "0.00", "0.00", "0.00", 0, 0, 0]);
    expect(months(costs)).toEqual([["2025-06", 0, "0.00", "0.00", "0.00", 0, 0, 0]]);
    expect([costs.facilities, costs.buildings, costs.types, costs.rooms, costs.equipment]).toEqual([[], [], [], [], []]);
  });
});
