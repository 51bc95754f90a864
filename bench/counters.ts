/**
 * List counters benchmark (decision 017): what keeping the nine list counters costs the writes
 * that change many counted rows at once. It opens a fresh database (in-memory PGlite, or the PostgreSQL
 * database of DATABASE_URL, which it migrates), writes BENCH_FACILITIES (default 4) facilities of
 * BENCH_BUILDINGS (10) buildings holding BENCH_ROOMS (5,000) rooms each, two equipment items a room and
 * four incidents a room (half of them Pending or In Progress), set-based, then times:
 *   - `archiveFacility` of a whole facility (the verb: cascades to buildings, rooms, items, incidents);
 *   - `bulkChangeIncidents` of BULK_MAX open incidents to Done (the verb), and one `setIncidentStatus` /
 *     `setIncidentPriority` (a change that moves no counter), median of BENCH_REPEAT (30) runs;
 *   - writes made outside any verb, as an import would: every open incident of a facility set to Done,
 *     BENCH_ROOMS rooms inserted into a new building, then those rooms archived, each in one statement.
 * Where the database has no counter triggers (before migration 0016) a write outside the verbs must
 * call `recountCounters` for its entity (decision 017): it is timed with the write. With the triggers it
 * also times one incident's status change side by side, in turns of BENCH_REPEAT * 10 changes: its
 * counters kept by the trigger, or (the trigger disabled) by the statement the incident verbs ran before
 * 0016. It ends by checking that no counter drifted (`findCounterDrift`).
 *
 *   npm run bench:counters
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/caretaker_counters_bench npm run bench:counters
 */
import { performance } from "node:perf_hooks";
import { sql } from "drizzle-orm";
import { personActor } from "~/core/actor";
import type { ServiceContext } from "~/core/context.server";
import { openDatabase, runMigrations } from "~/db/client.server";
import { IncidentStatus, Role } from "~/db/enums";
import { BULK_MAX } from "~/modules/incidents/constants";
import { archiveFacility } from "~/modules/facilities/service.server";
import { findCounterDrift, recountCounters } from "~/modules/facilities/counters.server";
import { bulkChangeIncidents, setIncidentPriority, setIncidentStatus } from "~/modules/incidents/service.server";
import { createEntity, createEquipmentType, createFacility, createRoomType, createUser } from "~/seed/factories";

const url = process.env.DATABASE_URL;
const FACILITIES = Math.max(3, Number(process.env.BENCH_FACILITIES ?? 4));
const BUILDINGS = Number(process.env.BENCH_BUILDINGS ?? 10);
const ROOMS = Number(process.env.BENCH_ROOMS ?? 5000);
const REPEAT = Number(process.env.BENCH_REPEAT ?? 30);

const rowsOf = <T>(result: unknown): T[] => (Array.isArray(result) ? result : ((result as { rows: T[] }).rows ?? []));

async function main() {
  const database = await openDatabase(url ? { url, poolMax: 2 } : {});
  await runMigrations(database);
  const db = database.db;
  const triggers = rowsOf<{ on: boolean }>(await db.execute(sql`select exists (select 1 from pg_trigger where tgname = 'rooms_list_counts_update') as on`))[0].on;
  const keptBy = triggers ? "triggers" : "recountCounters";
  const entity = await createEntity(db);
  const e = entity.id;
  const admin = await createUser(db, { entityId: e, role: Role.ADMINISTRATOR });
  const ctx: ServiceContext = { db, entityId: e, actor: personActor(admin), locale: "en", timeZone: "Europe/Brussels" };
  const roomType = await createRoomType(db, { entityId: e });
  const equipmentType = await createEquipmentType(db, { entityId: e });

  const started = performance.now();
  const facilityIds: number[] = [];
  let shortId = 1000;
  for (let f = 0; f < FACILITIES; f++) {
    const facility = await createFacility(db, { entityId: e, name: `Facility ${f + 1}` });
    facilityIds.push(facility.id);
    const perBuilding = Math.ceil(ROOMS / BUILDINGS);
    await db.execute(sql`
      with b as (
        insert into buildings (entity_id, facility_id, short_id, name)
        select ${e}, ${facility.id}, ${shortId} + g, 'Building ' || (${shortId} + g) from generate_series(1, ${BUILDINGS}) g
        returning id, short_id
      ), r as (
        insert into rooms (entity_id, building_id, room_type_id, short_id, name, floor)
        select ${e}, b.id, ${roomType.id}, b.short_id * 100000 + g, 'Room ' || (b.short_id * 100000 + g), '0'
        from b cross join generate_series(1, ${perBuilding}) g
        returning id, short_id
      ), i as (
        insert into equipment_items (entity_id, room_id, equipment_type_id, internal_reference)
        select ${e}, r.id, ${equipmentType.id}, 'EQ-' || r.short_id || '-' || k from r cross join generate_series(1, 2) k
      )
      insert into incidents (entity_id, short_id, title, room_id, status, created_at, last_occurrence_at, updated_at)
      select ${e}, r.short_id * 10 + k, 'Incident ' || r.short_id || '-' || k, r.id,
        (case k when 1 then ${IncidentStatus.PENDING} when 2 then ${IncidentStatus.IN_PROGRESS} else ${IncidentStatus.DONE} end)::smallint,
        now() - k * interval '1 day', now() - k * interval '1 day', now()
      from r cross join generate_series(1, 4) k`);
    shortId += BUILDINGS;
  }
  // Statistics first: the recount (needed where no trigger kept the counters) plans badly without them.
  await db.execute(sql`analyze`);
  await recountCounters(db, e);
  const rooms = FACILITIES * BUILDINGS * Math.ceil(ROOMS / BUILDINGS);
  console.log(
    `${url ? "PostgreSQL" : "PGlite"}, counters kept by ${keptBy}: ${FACILITIES} facilities, ${rooms.toLocaleString("en")} rooms, ` +
      `${(rooms * 2).toLocaleString("en")} items, ${(rooms * 4).toLocaleString("en")} incidents written in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );

  const results: { name: string; ms: number; note?: string }[] = [];
  const once = async (name: string, fn: () => Promise<unknown>, note?: string) => {
    const start = performance.now();
    await fn();
    results.push({ name, ms: performance.now() - start, note });
  };
  const median = async (name: string, runs: number, fn: (i: number) => Promise<unknown>) => {
    const times: number[] = [];
    for (let i = 0; i < runs; i++) {
      const start = performance.now();
      await fn(i);
      times.push(performance.now() - start);
    }
    times.sort((a, b) => a - b);
    results.push({ name, ms: times[Math.floor(times.length / 2)], note: `median of ${runs}` });
  };
  const openIncidentsOf = async (facilityId: number, limit: number) =>
    rowsOf<{ id: number }>(
      await db.execute(sql`
        select i.id from incidents i join rooms r on r.id = i.room_id join buildings b on b.id = r.building_id
        where i.entity_id = ${e} and b.facility_id = ${facilityId} and i.status = ${IncidentStatus.PENDING} and i.archived_at is null
        order by i.id limit ${limit}`),
    ).map((r) => Number(r.id));
  const [archived, statusFacility, importFacility] = facilityIds;
  const perFacility = `${BUILDINGS} buildings, ${ROOMS.toLocaleString("en")} rooms, ${(ROOMS * 2).toLocaleString("en")} items, ${(ROOMS * 2).toLocaleString("en")} open incidents`;

  // Verbs.
  await once("archiveFacility (verb)", () => archiveFacility(ctx, archived), perFacility);
  const singles = await openIncidentsOf(statusFacility, REPEAT * 2);
  await median("setIncidentStatus Pending -> Done (verb)", REPEAT, (i) => setIncidentStatus(ctx, singles[i], { status: IncidentStatus.DONE }));
  await median("setIncidentPriority (verb, no counter moves)", REPEAT, (i) => setIncidentPriority(ctx, singles[REPEAT + i], { priority: 2 }));
  const bulk = await openIncidentsOf(statusFacility, BULK_MAX);
  await once(`bulkChangeIncidents ${BULK_MAX} -> Done (verb)`, () => bulkChangeIncidents(ctx, { ids: bulk, change: "status", status: IncidentStatus.DONE }));

  // Writes outside the verbs (an import): one statement each, then whatever keeps the counters.
  const keep = () => (triggers ? Promise.resolve() : recountCounters(db, e));
  const opened = rowsOf<{ n: number }>(
    await db.execute(sql`
      select count(*)::int as n from incidents i join rooms r on r.id = i.room_id join buildings b on b.id = r.building_id
      where i.entity_id = ${e} and b.facility_id = ${statusFacility} and i.status in (0, 1) and i.archived_at is null`),
  )[0].n;
  await once(`statement: ${Number(opened).toLocaleString("en")} open incidents -> Done, + ${keptBy}`, async () => {
    await db.transaction(async (tx) => {
      await tx.execute(sql`
        update incidents i set status = ${IncidentStatus.DONE}, done_at = now(), updated_at = now()
        from rooms r join buildings b on b.id = r.building_id
        where r.id = i.room_id and i.entity_id = ${e} and b.facility_id = ${statusFacility} and i.status in (0, 1) and i.archived_at is null`);
      if (!triggers) await recountCounters(tx as never, e);
    });
  });
  const [building] = rowsOf<{ id: number }>(
    await db.execute(sql`insert into buildings (entity_id, facility_id, short_id, name) values (${e}, ${importFacility}, 999999, 'Imported') returning id`),
  );
  await keep();
  await once(`statement: ${ROOMS.toLocaleString("en")} rooms inserted, + ${keptBy}`, async () => {
    await db.transaction(async (tx) => {
      await tx.execute(sql`
        insert into rooms (entity_id, building_id, room_type_id, short_id, name, floor)
        select ${e}, ${building.id}, ${roomType.id}, 900000000 + g, 'Imported ' || g, '1' from generate_series(1, ${ROOMS}) g`);
      if (!triggers) await recountCounters(tx as never, e);
    });
  });
  await once(`statement: those ${ROOMS.toLocaleString("en")} rooms archived, + ${keptBy}`, async () => {
    await db.transaction(async (tx) => {
      await tx.execute(sql`update rooms set archived_at = now(), updated_at = now() where entity_id = ${e} and building_id = ${building.id}`);
      if (!triggers) await recountCounters(tx as never, e);
    });
  });
  await once(`recountCounters alone (the entity, nothing to change)`, () => recountCounters(db, e));

  if (triggers) {
    // One incident's status flipped in a transaction, its counters kept by the trigger or by the
    // application's statement of before 0016 (room, building and facility in one statement), in turns.
    const [incident] = rowsOf<{ id: number; room_id: number }>(
      await db.execute(sql`select i.id, i.room_id from incidents i join rooms r on r.id = i.room_id join buildings b on b.id = r.building_id
        where b.facility_id = ${importFacility} and i.status = 0 and i.archived_at is null order by i.id limit 1`),
    );
    type Runner = Pick<typeof db, "execute">;
    const flip = (tx: Runner) =>
      tx.execute(sql`update incidents set status = case when status = 0 then 2 else 0 end where id = ${incident.id} returning status`);
    const byApplication = (tx: Runner, delta: number) =>
      tx.execute(sql`
        with r as (
          update rooms set active_incident_count = active_incident_count + ${delta}::int where id = ${incident.room_id} and entity_id = ${e}
          returning building_id, archived_at is null as active
        ), b as (
          update buildings set active_incident_count = active_incident_count + ${delta}::int
          from r where buildings.id = r.building_id and r.active and buildings.entity_id = ${e}
          returning buildings.facility_id, buildings.archived_at is null as active
        )
        update facilities set active_incident_count = active_incident_count + ${delta}::int
        from b where facilities.id = b.facility_id and b.active and facilities.entity_id = ${e}`);
    const turns: Record<"application" | "trigger", number[]> = { application: [], trigger: [] };
    const n = REPEAT * 10;
    for (let turn = 0; turn < 6; turn++) {
      await db.execute(sql`alter table incidents disable trigger incidents_list_counts_update`);
      let start = performance.now();
      for (let i = 0; i < n; i++) {
        await db.transaction(async (tx) => {
          const [row] = rowsOf<{ status: number }>(await flip(tx));
          await byApplication(tx, Number(row.status) === 0 ? 1 : -1);
        });
      }
      turns.application.push((performance.now() - start) / n);
      await db.execute(sql`alter table incidents enable trigger incidents_list_counts_update`);
      start = performance.now();
      for (let i = 0; i < n; i++) await db.transaction((tx) => flip(tx));
      turns.trigger.push((performance.now() - start) / n);
    }
    for (const [by, times] of Object.entries(turns)) {
      times.sort((a, b) => a - b);
      results.push({ name: `one status change (transaction), counters by ${by}`, ms: times[3], note: `median of 6 turns of ${n}` });
    }
  }

  for (const r of results) console.log(`${r.name.padEnd(62)} ${r.ms.toFixed(1).padStart(9)} ms${r.note ? `   (${r.note})` : ""}`);
  const drift = await findCounterDrift(db, e);
  console.log(drift.length === 0 ? "counters: no drift" : `counters: ${drift.length} drifted, first ${JSON.stringify(drift[0])}`);
  await database.close();
  if (drift.length) process.exitCode = 1;
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
