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
import { openDatabase, runMigrations } from "~/db/client.server";
import { getServiceLevelFigures } from "~/modules/dashboard/service-levels.server";
import { seedTree, timeSection } from "./lib/dashboard-entity";

const url = process.env.DATABASE_URL;
const SCALE = Number(process.env.BENCH_SCALE ?? 1);
const INCIDENTS = Number(process.env.BENCH_INCIDENTS ?? 200_000 * SCALE);
const REPEAT = Number(process.env.BENCH_REPEAT ?? 20);
const TARGET_MS = 100;

async function main() {
  const database = await openDatabase(url ? { url, poolMax: 4 } : {});
  await runMigrations(database);
  const db = database.db;
  const started = performance.now();
  const { entity, admin, manager, sizes } = await seedTree(db, SCALE);
  const e = entity.id;
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
    join bench_rooms r on r.n = (g * 7) % ${sizes.rooms}
    cross join lateral (select now() - make_interval(mins => g % 525600) as c) t`);
  // As autovacuum leaves a table some time after a bulk write: statistics and visibility set.
  for (const table of ["facilities", "buildings", "rooms", "incidents", "user_linked_objects"]) await db.execute(sql.raw(`vacuum analyze ${table}`));
  console.log(`data written in ${((performance.now() - started) / 1000).toFixed(1)} s`);

  console.log(`\n${url ? "PostgreSQL" : "PGlite"}, ${sizes.rooms.toLocaleString("en")} rooms, ${INCIDENTS.toLocaleString("en")} incidents with targets; ${REPEAT} calls one at a time:`);
  const managerP95 = await timeSection(db, { entity, admin, manager }, getServiceLevelFigures, REPEAT);
  console.log(`\nmanager p95 target <= ${TARGET_MS} ms: ${managerP95 <= TARGET_MS ? "met" : "NOT met"}`);
  await database.close();
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
