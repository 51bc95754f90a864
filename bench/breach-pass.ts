/**
 * The service-level breach pass (issue 62; modules/service-levels/alerts.server.ts) over a large table:
 * a fresh database (in-memory PGlite, or the PostgreSQL database of DATABASE_URL, which it migrates)
 * holding one entity with BENCH_INCIDENTS (default 1,000,000) incidents, of which BENCH_OPEN (100,000)
 * are open with running clocks; BENCH_DUE (1,000) of those have an alert instant already come, the
 * others' instants are spread over the next 30 days. It times, median of BENCH_REPEAT (5) runs where it
 * can repeat:
 *   - the pass that raises the due alerts (their rows, change events and next instants): target < 2 s;
 *   - the pass a minute later, with nothing due (what almost every minute costs).
 * The due instants are set again before each timed raising pass, on fresh incidents, so each run raises
 * BENCH_DUE alerts.
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/caretaker_breach_bench npm run bench:breach
 */
import { performance } from "node:perf_hooks";
import { sql } from "drizzle-orm";
import type { ContextServices } from "~/core/context.server";
import { openDatabase, runMigrations } from "~/db/client.server";
import { Role } from "~/db/enums";
import { runBreachPass } from "~/modules/service-levels/alerts.server";
import { createBuilding, createEntity, createFacility, createRoom, createUser } from "~/seed/factories";

const url = process.env.DATABASE_URL;
const INCIDENTS = Number(process.env.BENCH_INCIDENTS ?? 1_000_000);
const OPEN = Number(process.env.BENCH_OPEN ?? 100_000);
const DUE = Number(process.env.BENCH_DUE ?? 1000);
const REPEAT = Number(process.env.BENCH_REPEAT ?? 5);
const TARGET_MS = 2000;
const NOW = new Date("2027-03-01T10:00:00Z");

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

async function main() {
  const database = await openDatabase(url ? { url, poolMax: 4 } : {});
  await runMigrations(database);
  const db = database.db;
  const entity = await createEntity(db);
  const e = entity.id;
  const facility = await createFacility(db, { entityId: e });
  const building = await createBuilding(db, { entityId: e, facilityId: facility.id });
  const room = await createRoom(db, { entityId: e, buildingId: building.id });
  await createUser(db, { entityId: e, role: Role.ADMINISTRATOR, receiveNotification: true });

  let started = performance.now();
  // Closed incidents first, then the open ones with their clocks (a 4-hour response, a 2-day resolution).
  const chunk = 100_000;
  for (let from = 1; from <= INCIDENTS; from += chunk) {
    const to = Math.min(INCIDENTS, from + chunk - 1);
    await db.execute(sql`
      insert into incidents (entity_id, short_id, title, room_id, status, created_at, last_occurrence_at,
        response_target_minutes, response_clock, resolution_target_minutes, resolution_clock,
        resolution_due_at, resolution_warn_at, next_due_at, next_warn_at)
      select ${e}, g, 'Incident ' || g, ${room.id},
        case when g > ${INCIDENTS - OPEN} then 0 else 2 end,
        ${NOW.toISOString()}::timestamptz - make_interval(mins => g % 50000),
        ${NOW.toISOString()}::timestamptz - make_interval(mins => g % 50000),
        240, 'calendar', 2880, 'calendar',
        case when g > ${INCIDENTS - OPEN} then ${NOW.toISOString()}::timestamptz + make_interval(mins => 60 + g % 43200) end,
        case when g > ${INCIDENTS - OPEN} then ${NOW.toISOString()}::timestamptz + make_interval(mins => g % 43200) end,
        case when g > ${INCIDENTS - OPEN} then ${NOW.toISOString()}::timestamptz + make_interval(mins => 60 + g % 43200) end,
        case when g > ${INCIDENTS - OPEN} then ${NOW.toISOString()}::timestamptz + make_interval(mins => 1 + g % 43200) end
      from generate_series(${from}::int, ${to}::int) g`);
  }
  await db.execute(sql`analyze incidents`);
  console.log(
    `${INCIDENTS.toLocaleString("en")} incidents (${OPEN.toLocaleString("en")} open) written in ${((performance.now() - started) / 1000).toFixed(1)} s`
  );

  const services: ContextServices = { db, events: null, queue: null } as unknown as ContextServices;
  const raising: number[] = [];
  const quiet: number[] = [];
  let raised = 0;
  for (let run = 0; run < REPEAT; run++) {
    // DUE open incidents not alerted before: their warning instant one minute ago.
    await db.execute(sql`
      update incidents set resolution_warn_at = ${NOW.toISOString()}::timestamptz - interval '1 minute',
        next_warn_at = ${NOW.toISOString()}::timestamptz - interval '1 minute'
      where entity_id = ${e} and short_id in (
        select short_id from incidents where entity_id = ${e} and status = 0
          and not exists (select 1 from service_level_alerts a where a.incident_id = incidents.id)
        order by short_id limit ${DUE})`);
    started = performance.now();
    const result = await runBreachPass(services, NOW);
    raising.push(performance.now() - started);
    raised += result.raised;
    started = performance.now();
    await runBreachPass(services, new Date(NOW.getTime() + 30_000));
    quiet.push(performance.now() - started);
  }
  const verdict = median(raising) < TARGET_MS ? "met" : "NOT met";
  console.log(`\n${url ? "PostgreSQL" : "PGlite"}, ${INCIDENTS.toLocaleString("en")} incidents, ${OPEN.toLocaleString("en")} open, median of ${REPEAT}:`);
  console.log(`| pass | median | worst |\n|---|---:|---:|`);
  console.log(`| raising ${DUE} alerts | ${median(raising).toFixed(0)} ms | ${Math.max(...raising).toFixed(0)} ms |`);
  console.log(`| nothing due | ${median(quiet).toFixed(1)} ms | ${Math.max(...quiet).toFixed(1)} ms |`);
  console.log(`\nalerts raised: ${raised} (expected ${DUE * REPEAT}); target < ${TARGET_MS} ms: ${verdict}`);
  await database.close();
  if (raised !== DUE * REPEAT) process.exitCode = 1;
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
