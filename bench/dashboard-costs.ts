/**
 * The dashboard's time and costs (issue 62; modules/dashboard/costs.server.ts) over a large entity: a
 * fresh database (in-memory PGlite, or the PostgreSQL database of DATABASE_URL, which it migrates) holding
 * one entity shaped as the scale seed at BENCH_SCALE (default 1: 50 facilities, 1,000 buildings, 50,000
 * rooms, 200,000 equipment items), BENCH_INCIDENTS (200,000) incidents over the last twelve months,
 * BENCH_ENTRIES (300,000) time entries (one in ten without a rate), BENCH_LINES (100,000) material lines
 * and BENCH_TASK_ENTRIES (30,000) entries on maintenance tasks. It times `getDashboardCosts` for a manager
 * linked to every facility and for the administrator (the default six months, then one facility), p50 and
 * p95 of BENCH_REPEAT (20) calls one at a time after 3 warm-up calls. Target: the manager's p95 <= 100 ms.
 * BENCH_ENTITY=<id> times an entity a previous run seeded instead (another build of the code, same data).
 *
 *   createdb -h 127.0.0.1 -U postgres caretaker_costs_bench
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/caretaker_costs_bench npm run bench:dashboard-costs
 */
import { performance } from "node:perf_hooks";
import { sql } from "drizzle-orm";
import { type Db, openDatabase, runMigrations } from "~/db/client.server";
import { Role } from "~/db/enums";
import { rowsOf } from "~/lib/list-page.server";
import { getDashboardCosts } from "~/modules/dashboard/costs.server";
import { createEquipmentType, createPlannedMaintenance, createUser } from "~/seed/factories";
import { seedTree, timeSection, treeSizes } from "./lib/dashboard-entity";

const url = process.env.DATABASE_URL;
const SCALE = Number(process.env.BENCH_SCALE ?? 1);
const INCIDENTS = Number(process.env.BENCH_INCIDENTS ?? 200_000 * SCALE);
const ENTRIES = Number(process.env.BENCH_ENTRIES ?? 300_000 * SCALE);
const LINES = Number(process.env.BENCH_LINES ?? 100_000 * SCALE);
const TASK_ENTRIES = Number(process.env.BENCH_TASK_ENTRIES ?? 30_000 * SCALE);
const REPEAT = Number(process.env.BENCH_REPEAT ?? 20);
const TARGET_MS = 100;
const ROOMS = treeSizes(SCALE).rooms;
const ITEMS = Math.round(200_000 * SCALE);

/** A fresh entity shaped as the scale seed, with its work. */
async function seed(db: Db) {
  const started = performance.now();
  // The tree, the incidents (the last twelve months), the work: set-based, as the scale seed writes them.
  const { entity, admin, manager } = await seedTree(db, SCALE, { defaultHourlyRate: "45.00" });
  const e = entity.id;
  const technician = await createUser(db, { entityId: e, role: Role.TECHNICIAN, hourlyRate: "38.00" });
  const equipmentType = await createEquipmentType(db, { entityId: e });
  await db.execute(sql`insert into equipment_items (entity_id, equipment_type_id, room_id, internal_reference)
    select ${e}, ${equipmentType.id}::int, r.id, 'EQ-' || g
    from generate_series(1, ${ITEMS}::int) g join bench_rooms r on r.n = g % ${ROOMS}`);
  await db.execute(sql`insert into incidents (entity_id, short_id, title, room_id, equipment_item_id, status, created_at, last_occurrence_at)
    select ${e}, g, 'Incident ' || g, r.id, case when g % 3 = 0 then (select i.id from equipment_items i where i.room_id = r.id limit 1) end, 2,
      now() - make_interval(mins => g % 525600), now() - make_interval(mins => g % 525600)
    from generate_series(1, ${INCIDENTS}::int) g join bench_rooms r on r.n = (g * 7) % ${ROOMS}`);
  await db.execute(sql`create temporary table bench_incidents as select id, row_number() over (order by id) - 1 as n from incidents where entity_id = ${e}`);
  await db.execute(sql`insert into time_entries (entity_id, incident_id, user_id, worked_on, minutes, hourly_rate)
    select ${e}, i.id, ${technician.id}::int, (now() - make_interval(days => g % 365))::date, 15 + g % 240, case when g % 10 = 0 then null else 38.00 end
    from generate_series(1, ${ENTRIES}::int) g join bench_incidents i on i.n = g % ${INCIDENTS}`);
  await db.execute(sql`insert into material_lines (entity_id, incident_id, description, quantity, unit_cost, created_at)
    select ${e}, i.id, 'Part', 1 + g % 5, 2.50 + g % 100, now() - make_interval(mins => g % 525600)
    from generate_series(1, ${LINES}::int) g join bench_incidents i on i.n = (g * 3) % ${INCIDENTS}`);
  const plan = await createPlannedMaintenance(db, { entityId: e });
  await db.execute(sql`insert into tasks (entity_id, planned_maintenance_id, room_id, due_date)
    select ${e}, ${plan.id}::int, r.id, (now() - make_interval(days => g % 365))::date
    from generate_series(1, ${TASK_ENTRIES}::int) g join bench_rooms r on r.n = (g * 11) % ${ROOMS}
    on conflict do nothing`);
  await db.execute(sql`insert into time_entries (entity_id, task_id, user_id, worked_on, minutes, hourly_rate)
    select ${e}, t.id, ${technician.id}::int, t.due_date, 60, 38.00 from tasks t where t.entity_id = ${e}`);
  for (const table of ["facilities", "buildings", "rooms", "equipment_items", "incidents", "tasks", "time_entries", "material_lines", "user_linked_objects", "work_cost_months", "work_cost_building_months", "work_cost_room_months", "work_cost_item_months"]) {
    await db.execute(sql.raw(`analyze ${table}`));
  }
  console.log(`data written in ${((performance.now() - started) / 1000).toFixed(1)} s`);

  return { entity, admin, manager };
}

/** An entity a previous run seeded (BENCH_ENTITY): the same data timed again, by another build of the code. */
async function benchEntity(db: Db, id: number) {
  const [entity] = rowsOf<{ id: number; timeZone: string }>(await db.execute(sql`select id, time_zone as "timeZone" from entities where id = ${id}`));
  const userOf = async (role: number) =>
    rowsOf<{ id: number; role: number }>(await db.execute(sql`select id, role from users where entity_id = ${id} and role = ${role} order by id limit 1`))[0];
  return { entity, admin: await userOf(Role.ADMINISTRATOR), manager: await userOf(Role.FACILITY_MANAGER) };
}

async function main() {
  const database = await openDatabase(url ? { url, poolMax: 4 } : {});
  await runMigrations(database);
  const db = database.db;
  const reuse = process.env.BENCH_ENTITY ? Number(process.env.BENCH_ENTITY) : null;
  const { entity, admin, manager } = reuse ? await benchEntity(db, reuse) : await seed(db);
  const e = entity.id;
  console.log(`entity ${e}`);
  console.log(`\n${url ? "PostgreSQL" : "PGlite"}, ${ROOMS.toLocaleString("en")} rooms, ${INCIDENTS.toLocaleString("en")} incidents, ${(ENTRIES + TASK_ENTRIES).toLocaleString("en")} time entries, ${LINES.toLocaleString("en")} lines; ${REPEAT} calls one at a time:`);
  const managerP95 = await timeSection(db, { entity, admin, manager }, getDashboardCosts, REPEAT);
  console.log(`\nmanager p95 target <= ${TARGET_MS} ms: ${managerP95 <= TARGET_MS ? "met" : "NOT met"}`);
  await database.close();
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
