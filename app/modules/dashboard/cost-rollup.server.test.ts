import { eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { incidents, materialLines, rooms, tasks, timeEntries } from "~/db/schema";
import { rowsOf } from "~/lib/list-page.server";
import { Role } from "~/db/enums";
import { createBuilding, createEntity, createEquipmentItem, createFacility, createIncident, createIncidentType, createPlannedMaintenance, createRoom, createTask, createUser, linkUserTo } from "#tests/factories";
import { actorContext } from "#tests/service-helpers";
import { setupTestDatabase, setupTwoEntities } from "#tests/test-context";
import { getDashboardCosts } from "./costs.server";

/**
 * The monthly roll-up of the time and costs (work_cost_months, migration 0053) after a sequence of
 * changes, against figures worked out by hand and against a fresh grouping of the work rows. Entity in
 * Europe/Brussels. Rooms R1 (building 1, equipment E1) and R2 (building 2); types T1 and T2; incident I
 * (R1, E1, T1) and task K (R2).
 */
const database = setupTestDatabase();
const people = setupTwoEntities(database);
let b1: number;
let b2: number;
let r1: number;
let r2: number;
let e1: number;
let t1: number;
let t2: number;
let incidentId: number;
let taskId: number;

type Cell = [month: string, room: number, item: number, type: number, minutes: number, labourCents: number, materialsCents: number, unpriced: number, entries: number, lines: number];

async function rollup(): Promise<Cell[]> {
  const rows = rowsOf<Record<string, string | number>>(
    await database.db.execute(sql`select to_char(month, 'YYYY-MM-DD') as month, room_id, equipment_item_id, type_key, minutes, labour_cents, materials_cents, unpriced, entries, lines
      from work_cost_months where entity_id = ${people.entity.id} order by 1, 2, 3, 4`)
  );
  return rows.map((r) => [String(r.month), ...[r.room_id, r.equipment_item_id, r.type_key, r.minutes, r.labour_cents, r.materials_cents, r.unpriced, r.entries, r.lines].map(Number)] as Cell);
}

/** The same figures grouped afresh from the work rows (not through the migration's functions). */
async function fresh(): Promise<Cell[]> {
  const rows = rowsOf<Record<string, string | number>>(
    await database.db.execute(sql`
      select to_char(w.month, 'YYYY-MM-DD') as month, coalesce(i.room_id, t.room_id, 0) as room_id, coalesce(i.equipment_item_id, t.equipment_item_id, 0) as equipment_item_id,
        case when w.task_id is not null then -1 else coalesce(i.incident_type_id, 0) end as type_key,
        sum(w.minutes) as minutes, sum(w.labour) as labour_cents, sum(w.materials) as materials_cents, sum(w.unpriced) as unpriced, sum(w.entries) as entries, sum(w.lines) as lines
      from (
        select incident_id, task_id, date_trunc('month', worked_on)::date as month, minutes, round(minutes * coalesce(hourly_rate, 0) / 60, 2) * 100 as labour,
          0 as materials, (hourly_rate is null)::int as unpriced, 1 as entries, 0 as lines
        from time_entries where entity_id = ${people.entity.id}
        union all
        select incident_id, task_id, date_trunc('month', created_at at time zone 'Europe/Brussels')::date, 0, 0, round(quantity * unit_cost, 2) * 100, 0, 0, 1
        from material_lines where entity_id = ${people.entity.id}
      ) w
      left join incidents i on i.id = w.incident_id left join tasks t on t.id = w.task_id
      where (i.id is not null and i.archived_at is null) or t.id is not null
      group by 1, 2, 3, 4 order by 1, 2, 3, 4`)
  );
  return rows.map((r) => [String(r.month), ...[r.room_id, r.equipment_item_id, r.type_key, r.minutes, r.labour_cents, r.materials_cents, r.unpriced, r.entries, r.lines].map(Number)] as Cell);
}

async function expectCells(expected: Cell[]) {
  expect(await rollup()).toEqual(expected);
  expect(await fresh()).toEqual(expected);
}

beforeAll(async () => {
  const db = database.db;
  const e = people.entity.id;
  const facility = (await createFacility(db, { entityId: e, name: "F" })).id;
  b1 = (await createBuilding(db, { entityId: e, facilityId: facility, name: "B1" })).id;
  b2 = (await createBuilding(db, { entityId: e, facilityId: facility, name: "B2" })).id;
  r1 = (await createRoom(db, { entityId: e, buildingId: b1, name: "R1" })).id;
  r2 = (await createRoom(db, { entityId: e, buildingId: b2, name: "R2" })).id;
  e1 = (await createEquipmentItem(db, { entityId: e, roomId: r1, internalReference: "E1" })).id;
  t1 = (await createIncidentType(db, { entityId: e, nameEn: "T1" })).id;
  t2 = (await createIncidentType(db, { entityId: e, nameEn: "T2" })).id;
  incidentId = (await createIncident(db, { entityId: e, roomId: r1, equipmentItemId: e1, incidentTypeId: t1 })).id;
  const plan = await createPlannedMaintenance(db, { entityId: e, roomIds: [r2] });
  taskId = (await createTask(db, { entityId: e, plannedMaintenanceId: plan.id, roomId: r2, dueDate: "2026-02-05" })).id;
});

describe("work_cost_months", () => {
  const w = () => ({ entityId: people.entity.id, userId: people.technician.id });

  it("follows entries, lines, moves, archiving and deletions", async () => {
    const db = database.db;
    // 60 min at 30.00 = 30.00; 45 min without a rate; 2 × 4.25 = 8.50 (15 Jan); the task: 30 min at 45.00 = 22.50.
    const [first, unpriced] = await db
      .insert(timeEntries)
      .values([
        { ...w(), incidentId, workedOn: "2026-01-10", minutes: 60, hourlyRate: "30.00" },
        { ...w(), incidentId, workedOn: "2026-01-20", minutes: 45, hourlyRate: null },
      ])
      .returning();
    await db.insert(materialLines).values({ entityId: people.entity.id, incidentId, description: "Seal", quantity: "2", unitCost: "4.25", createdAt: new Date("2026-01-15T10:00Z") });
    await db.insert(timeEntries).values({ ...w(), taskId, workedOn: "2026-02-05", minutes: 30, hourlyRate: "45.00" });
    await expectCells([
      ["2026-01-01", r1, e1, t1, 105, 3000, 850, 1, 2, 1],
      ["2026-02-01", r2, 0, -1, 30, 2250, 0, 0, 1, 0],
    ]);

    // The first entry edited: 100 min at 20.00 = 33.333 → 33.33, moved to 2 February; the unpriced one deleted.
    await db.update(timeEntries).set({ minutes: 100, hourlyRate: "20.00", workedOn: "2026-02-02" }).where(eq(timeEntries.id, first.id));
    await db.delete(timeEntries).where(eq(timeEntries.id, unpriced.id));
    await expectCells([
      ["2026-01-01", r1, e1, t1, 0, 0, 850, 0, 0, 1],
      ["2026-02-01", r1, e1, t1, 100, 3333, 0, 0, 1, 0],
      ["2026-02-01", r2, 0, -1, 30, 2250, 0, 0, 1, 0],
    ]);

    // The incident moved to R2, without equipment, as a T2; the task moved to R1 on E1.
    await db.update(incidents).set({ roomId: r2, equipmentItemId: null, incidentTypeId: t2 }).where(eq(incidents.id, incidentId));
    await db.update(tasks).set({ roomId: r1, equipmentItemId: e1 }).where(eq(tasks.id, taskId));
    await expectCells([
      ["2026-01-01", r2, 0, t2, 0, 0, 850, 0, 0, 1],
      ["2026-02-01", r1, e1, -1, 30, 2250, 0, 0, 1, 0],
      ["2026-02-01", r2, 0, t2, 100, 3333, 0, 0, 1, 0],
    ]);

    // Archived: its work leaves; restored: it comes back.
    await db.update(incidents).set({ archivedAt: new Date() }).where(eq(incidents.id, incidentId));
    await expectCells([["2026-02-01", r1, e1, -1, 30, 2250, 0, 0, 1, 0]]);
    await db.update(incidents).set({ archivedAt: null }).where(eq(incidents.id, incidentId));
    await expectCells([
      ["2026-01-01", r2, 0, t2, 0, 0, 850, 0, 0, 1],
      ["2026-02-01", r1, e1, -1, 30, 2250, 0, 0, 1, 0],
      ["2026-02-01", r2, 0, t2, 100, 3333, 0, 0, 1, 0],
    ]);

    // A line on the task at 23:30 UTC on 28 February: 1 March in Brussels. 1 × 9.99.
    await db.insert(materialLines).values({ entityId: people.entity.id, taskId, description: "Filter", quantity: "1", unitCost: "9.99", createdAt: new Date("2026-02-28T23:30Z") });
    await expectCells([
      ["2026-01-01", r2, 0, t2, 0, 0, 850, 0, 0, 1],
      ["2026-02-01", r1, e1, -1, 30, 2250, 0, 0, 1, 0],
      ["2026-02-01", r2, 0, t2, 100, 3333, 0, 0, 1, 0],
      ["2026-03-01", r1, e1, -1, 0, 0, 999, 0, 0, 1],
    ]);

    // Per building, and per room: room R2 moved from B2 to B1 takes its months along.
    const perBuilding = async () =>
      rowsOf<Record<string, string | number>>(
        await db.execute(sql`select to_char(month, 'YYYY-MM-DD') as month, building_id, type_key, minutes, labour_cents, materials_cents, entries, lines
          from work_cost_building_months where entity_id = ${people.entity.id} order by 1, 2, 3`)
      ).map((r) => [String(r.month), ...[r.building_id, r.type_key, r.minutes, r.labour_cents, r.materials_cents, r.entries, r.lines].map(Number)]);
    expect(await perBuilding()).toEqual([
      ["2026-01-01", b2, t2, 0, 0, 850, 0, 1],
      ["2026-02-01", b1, -1, 30, 2250, 0, 1, 0],
      ["2026-02-01", b2, t2, 100, 3333, 0, 1, 0],
      ["2026-03-01", b1, -1, 0, 0, 999, 0, 1],
    ]);
    await db.update(rooms).set({ buildingId: b1 }).where(eq(rooms.id, r2));
    expect(await perBuilding()).toEqual([
      ["2026-01-01", b1, t2, 0, 0, 850, 0, 1],
      ["2026-02-01", b1, -1, 30, 2250, 0, 1, 0],
      ["2026-02-01", b1, t2, 100, 3333, 0, 1, 0],
      ["2026-03-01", b1, -1, 0, 0, 999, 0, 1],
    ]);
    const perRoom = rowsOf<Record<string, string | number>>(
      await db.execute(sql`select to_char(month, 'YYYY-MM-DD') as month, room_id, cost_cents, records from work_cost_room_months where entity_id = ${people.entity.id} order by 1, 2`)
    ).map((r) => [String(r.month), Number(r.room_id), Number(r.cost_cents), Number(r.records)]);
    expect(perRoom).toEqual([
      ["2026-01-01", r2, 850, 1],
      ["2026-02-01", r1, 2250, 1],
      ["2026-02-01", r2, 3333, 1],
      ["2026-03-01", r1, 999, 1],
    ]);
  });

  it("reads the period's edges and a manager's assigned work out of reach from the work rows", async () => {
    // The manager is linked to no facility but assigned the incident (now in R2): its work is theirs alone.
    const db = database.db;
    await db.update(incidents).set({ assigneeId: people.manager.id }).where(eq(incidents.id, incidentId));
    const ctx = actorContext(db, people.manager);
    // 2 Feb to 28 Feb: the incident's entry of 2 Feb (100 min, 33.33) and the task's of 5 Feb are inside, January's
    // line and March's are not. The task is in R1, out of the manager's reach (no links): not counted.
    const costs = await getDashboardCosts(ctx, { facilityId: null, buildingId: null, incidentTypeId: null, from: "2026-02-02", to: "2026-02-28" });
    expect(costs.total).toEqual({ minutes: 100, labour: "33.33", materials: "0.00", total: "33.33", unpricedEntries: 0, entries: 1, lines: 0 });
    // Linked to the facility: everything of 3 Feb to 1 Mar: the task's entry (22.50) and its March line (9.99).
    await linkUserTo(db, { entityId: people.entity.id, userId: people.manager.id, facilityId: await facilityOf(r1) });
    const linked = await getDashboardCosts(ctx, { facilityId: null, buildingId: null, incidentTypeId: null, from: "2026-02-03", to: "2026-03-01" });
    expect(linked.total).toEqual({ minutes: 30, labour: "22.50", materials: "9.99", total: "32.49", unpricedEntries: 0, entries: 1, lines: 1 });
    expect(linked.months.map((m) => [m.month, m.total])).toEqual([
      ["2026-02", "22.50"],
      ["2026-03", "9.99"],
    ]);
  });

  it("deleting the incident and the task takes their work out", async () => {
    const db = database.db;
    await db.delete(incidents).where(eq(incidents.id, incidentId));
    await expectCells([
      ["2026-02-01", r1, e1, -1, 30, 2250, 0, 0, 1, 0],
      ["2026-03-01", r1, e1, -1, 0, 0, 999, 0, 0, 1],
    ]);
    await db.delete(tasks).where(eq(tasks.id, taskId));
    await expectCells([]);
  });
});

async function facilityOf(room: number): Promise<number> {
  const [row] = rowsOf<{ id: number }>(await database.db.execute(sql`select b.facility_id as id from rooms r join buildings b on b.id = r.building_id where r.id = ${room}`));
  return Number(row.id);
}

describe("the costliest rooms", () => {
  /**
   * Another entity, 47 rooms with an incident each, the period 15 January to 31 March 2026 (three months
   * of the roll-up). Material lines: rooms 1-10 one of 50.00 on 5 January (before the period) and one
   * of 1.00 on 20 January; rooms 11-35 one of 50.00 on 5 January; rooms 36-46 one of 15.00 on
   * 10 February; room 47 one of 12.00 on 1 March. The rooms' monthly costs put rooms 1-35 first
   * (50.00 or 51.00), whose costs in the period are 1.00 or nothing: the ten costliest are rooms 36-45
   * (15.00 each, in room order), found only by reading every room that can reach the tenth.
   */
  it("are the exact ten when the costliest months lie outside the period", async () => {
    const db = database.db;
    const entity = await createEntity(db);
    const e = entity.id;
    const admin = await createUser(db, { entityId: e, role: Role.ADMINISTRATOR });
    const facility = (await createFacility(db, { entityId: e, name: "F" })).id;
    const building = (await createBuilding(db, { entityId: e, facilityId: facility, name: "B" })).id;
    const records: number[] = [];
    for (let n = 1; n <= 47; n++) {
      const room = (await createRoom(db, { entityId: e, buildingId: building, name: `Room ${n}` })).id;
      records.push((await createIncident(db, { entityId: e, roomId: room })).id);
    }
    const line = (n: number, unitCost: string, at: string) => ({ entityId: e, incidentId: records[n - 1], description: "Part", quantity: "1", unitCost, createdAt: new Date(at) });
    const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);
    await db.insert(materialLines).values([
      ...range(1, 35).map((n) => line(n, "50.00", "2026-01-05T10:00Z")),
      ...range(1, 10).map((n) => line(n, "1.00", "2026-01-20T10:00Z")),
      ...range(36, 46).map((n) => line(n, "15.00", "2026-02-10T10:00Z")),
      line(47, "12.00", "2026-03-01T10:00Z"),
    ]);
    const costs = await getDashboardCosts(actorContext(db, admin), { facilityId: null, buildingId: null, incidentTypeId: null, from: "2026-01-15", to: "2026-03-31" });
    expect(costs.rooms.map((r) => [r.name, r.total])).toEqual(range(36, 45).map((n) => [`Room ${n}`, "15.00"]));
    expect(costs.total).toEqual({ minutes: 0, labour: "0.00", materials: "187.00", total: "187.00", unpricedEntries: 0, entries: 0, lines: 22 });
  });
});

