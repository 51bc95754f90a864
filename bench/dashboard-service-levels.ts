/**
 * The dashboard's service levels (issue 62; modules/dashboard/service-levels.server.ts) over a large entity:
 * a fresh database (in-memory PGlite, or the PostgreSQL database of DATABASE_URL, which it migrates) holding
 * one entity shaped as the scale seed at BENCH_SCALE (default 1: 50 facilities, 1,000 buildings, 50,000
 * rooms) and BENCH_INCIDENTS (200,000) incidents over the last twelve months, every one with a response and
 * a resolution target: most met in time or late, some still open past due, some rejected. It times
 * `getServiceLevelFigures` for a manager linked to every facility and for the administrator (the default
 * six months, then one facility), p50 and p95 of BENCH_REPEAT (20) calls one at a time after 3 warm-up
 * calls. Target: the manager's p95 <= 100 ms.
 *
 *   createdb -h 127.0.0.1 -U postgres caretaker_levels_bench
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/caretaker_levels_bench npm run bench:dashboard-levels
 */
import { performance } from "node:perf_hooks";
import { sql } from "drizzle-orm";
import { personActor } from "~/core/actor";
import type { ServiceContext } from "~/core/context.server";
import { openDatabase, runMigrations } from "~/db/client.server";
import { Role } from "~/db/enums";
import { rowsOf } from "~/lib/list-page.server";
import { getServiceLevelFigures } from "~/modules/dashboard/service-levels.server";
import type { DashboardFilters } from "~/modules/dashboard/filters";
import { createEntity, createRoomType, createUser } from "~/seed/factories";

const url = process.env.DATABASE_URL;
const SCALE = Number(process.env.BENCH_SCALE ?? 1);
const INCIDENTS = Number(process.env.BENCH_INCIDENTS ?? 200_000 * SCALE);
const REPEAT = Number(process.env.BENCH_REPEAT ?? 20);
const TARGET_MS = 100;
const FACILITIES = Math.max(1, Math.round(50 * SCALE));
const BUILDINGS = Math.max(FACILITIES, Math.round(1_000 * SCALE));
const ROOMS = Math.max(BUILDINGS, Math.round(50_000 * SCALE));

const percentile = (values: number[], p: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.ceil(p * values.length) - 1)];

async function main() {
  const database = await openDatabase(url ? { url, poolMax: 4 } : {});
  await runMigrations(database);
  const db = database.db;
  const entity = await createEntity(db);
  const e = entity.id;
  const admin = await createUser(db, { entityId: e, role: Role.ADMINISTRATOR });
  const manager = await createUser(db, { entityId: e, role: Role.FACILITY_MANAGER });
  const started = performance.now();
  await db.execute(sql`insert into facilities (entity_id, short_id, name) select ${e}, g, 'Facility ' || g from generate_series(1, ${FACILITIES}::int) g`);
  await db.execute(sql`insert into buildings (entity_id, short_id, facility_id, name)
    select ${e}, g, f.id, 'Building ' || g from generate_series(1, ${BUILDINGS}::int) g
    join (select id, row_number() over (order by id) - 1 as n from facilities where entity_id = ${e}) f on f.n = g % ${FACILITIES}`);
  const roomType = await createRoomType(db, { entityId: e });
  await db.execute(sql`insert into rooms (entity_id, building_id, room_type_id, short_id, name, floor)
    select ${e}, b.id, ${roomType.id}::int, g, 'Room ' || g, '0' from generate_series(1, ${ROOMS}::int) g
    join (select id, row_number() over (order by id) - 1 as n from buildings where entity_id = ${e}) b on b.n = g % ${BUILDINGS}`);
  await db.execute(sql`insert into user_linked_objects (entity_id, user_id, facility_id) select ${e}, ${manager.id}::int, id from facilities where entity_id = ${e}`);
  await db.execute(sql`create temporary table bench_rooms as select id, row_number() over (order by id) - 1 as n from rooms where entity_id = ${e}`);
  // Four in five done (met in time or late), one in ten open (half of them past due), one in ten rejected
  // (clocks stopped without an outcome). Response 4 h, resolution 3 days, in calendar hours.
  await db.execute(sql`insert into incidents (entity_id, short_id, title, room_id, status, created_at, last_occurrence_at,
      response_target_minutes, response_clock, response_due_at, response_elapsed_minutes, response_met,
      resolution_target_minutes, resolution_clock, resolution_due_at, resolution_elapsed_minutes, resolution_met)
    select ${e}, g, 'Incident ' || g, r.id, case when g % 10 = 0 then 1 when g % 10 = 1 then 3 else 2 end, c, c,
      240, 'calendar', c + interval '4 hours', case when g % 10 in (0, 1) then null else 10 + (g * 37) % 400 end,
        case when g % 10 in (0, 1) then null else (10 + (g * 37) % 400) <= 240 end,
      4320, 'calendar', c + interval '3 days', case when g % 10 in (0, 1) then null else 60 + (g * 53) % 6000 end,
        case when g % 10 in (0, 1) then null else (60 + (g * 53) % 6000) <= 4320 end
    from generate_series(1, ${INCIDENTS}::int) g
    join bench_rooms r on r.n = (g * 7) % ${ROOMS}
    cross join lateral (select now() - make_interval(mins => g % 525600) as c) t`);
  // As autovacuum leaves a table some time after a bulk write: statistics and visibility set.
  for (const table of ["facilities", "buildings", "rooms", "incidents", "user_linked_objects"]) await db.execute(sql.raw(`vacuum analyze ${table}`));
  console.log(`data written in ${((performance.now() - started) / 1000).toFixed(1)} s`);

  const ctxOf = (user: { id: number; role: number }): ServiceContext => ({ db, entityId: e, actor: personActor(user), locale: "en", timeZone: entity.timeZone });
  const filters: DashboardFilters = { facilityId: null, buildingId: null, incidentTypeId: null, from: null, to: null };
  const [facility] = rowsOf<{ id: number }>(await db.execute(sql`select id from facilities where entity_id = ${e} order by id limit 1`));
  const cases: [string, ServiceContext, DashboardFilters][] = [
    ["manager of every facility, last 6 months", ctxOf(manager), filters],
    ["administrator, last 6 months", ctxOf(admin), filters],
    ["administrator, one facility", ctxOf(admin), { ...filters, facilityId: facility?.id ?? null }],
  ];
  console.log(`\n${url ? "PostgreSQL" : "PGlite"}, ${ROOMS.toLocaleString("en")} rooms, ${INCIDENTS.toLocaleString("en")} incidents with targets; ${REPEAT} calls one at a time:`);
  console.log("| case | p50 | p95 |\n|---|---:|---:|");
  let managerP95 = Infinity;
  for (const [name, ctx, f] of cases) {
    for (let i = 0; i < 3; i++) await getServiceLevelFigures(ctx, f);
    const times: number[] = [];
    for (let i = 0; i < REPEAT; i++) {
      const t0 = performance.now();
      await getServiceLevelFigures(ctx, f);
      times.push(performance.now() - t0);
    }
    if (name.startsWith("manager")) managerP95 = percentile(times, 0.95);
    console.log(`| ${name} | ${percentile(times, 0.5).toFixed(1)} ms | ${percentile(times, 0.95).toFixed(1)} ms |`);
  }
  console.log(`\nmanager p95 target <= ${TARGET_MS} ms: ${managerP95 <= TARGET_MS ? "met" : "NOT met"}`);
  await database.close();
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
