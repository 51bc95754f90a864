/**
 * Export benchmark (issue 49, decision 055): how fast an export of incidents streams into a file and
 * how much memory it takes. It creates a scratch PostgreSQL database (BENCH_DATABASE, default
 * caretaker_exports_bench, on BENCH_PG_URL's server, default postgres://postgres@127.0.0.1:5432),
 * migrates it, writes one entity with 10 buildings, 200 rooms, 10 incident types, 20 assignees and
 * BENCH_ROWS incidents (default 1,000,000) with set-based SQL, then runs the export job's verb
 * (`runExport`, as the `export` job does, for the administrator: the list's query, keyset pages of
 * 500 rows) once as xlsx and once as csv, after a warm-up export of the entity's users in each format.
 * For each: rows per second, and the process's peak resident memory above its idle figure (sampled
 * every 10 ms; idle is measured after a full GC just before).
 * Targets (issue 49): at least 20,000 rows/s, at most 100 MB above idle. The database is dropped at
 * the end unless BENCH_KEEP=1; BENCH_REUSE=1 exports from the database a kept run left (no seeding).
 *
 *   npm run bench:exports
 *   BENCH_ROWS=200000 npm run bench:exports
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { and, count, eq, sql } from "drizzle-orm";
import { openDatabase, runMigrations } from "~/db/client.server";
import { DataJobKind, ExportType, Role } from "~/db/enums";
import { dataJobs, entities, incidents, users } from "~/db/schema";
import en from "~/locales/en/exports.json";
import { plainT } from "~/modules/exports/format";
import { runExport } from "~/modules/exports/service.server";
import { pgAdmin } from "./lib/pg-admin";
import { createEntity, createFacility, createIncidentType, createRoomType, createUser } from "~/seed/factories";

const server = process.env.BENCH_PG_URL ?? "postgres://postgres@127.0.0.1:5432";
const name = process.env.BENCH_DATABASE ?? "caretaker_exports_bench";
const ROWS = Number(process.env.BENCH_ROWS ?? 1_000_000);
const TARGET_ROWS_PER_SECOND = 20_000;
const TARGET_MB = 100;
const MB = 1024 * 1024;

const admin = (statement: string) => pgAdmin(server, statement);

type Db = Awaited<ReturnType<typeof openDatabase>>["db"];

/** The entity and administrator a kept run left. */
async function kept(db: Db) {
  const [entity] = await db.select({ id: entities.id }).from(entities).where(eq(entities.name, "Export bench"));
  if (!entity) throw new Error("BENCH_REUSE=1: no kept run (run once with BENCH_KEEP=1)");
  const [person] = await db.select({ id: users.id }).from(users).where(and(eq(users.entityId, entity.id), eq(users.role, Role.ADMINISTRATOR)));
  const [{ n }] = await db.select({ n: count() }).from(incidents).where(eq(incidents.entityId, entity.id));
  if (n !== ROWS) throw new Error(`BENCH_REUSE=1: the kept run has ${n} incidents, not BENCH_ROWS=${ROWS}`);
  return { e: entity.id, person };
}

/** One entity with its places, types, people and ROWS incidents, written with set-based SQL. */
async function seed(db: Db) {
  const entity = await createEntity(db, { name: "Export bench" });
  const e = entity.id;
  const person = await createUser(db, { entityId: e, role: Role.ADMINISTRATOR });
  const facility = await createFacility(db, { entityId: e, name: "Bench site" });
  const roomType = await createRoomType(db, { entityId: e, name: "Office" });
  for (let i = 0; i < 10; i++) await createIncidentType(db, { entityId: e, nameEn: `Type ${i}` });
  for (let i = 0; i < 20; i++) await createUser(db, { entityId: e, role: Role.TECHNICIAN, name: `Tech${i}`, surname: `Bench${i}` });
  await db.execute(sql`
    with b as (
      insert into buildings (entity_id, facility_id, short_id, name)
      select ${e}, ${facility.id}, g, 'Building ' || g from generate_series(1, 10) g returning id, short_id
    )
    insert into rooms (entity_id, building_id, room_type_id, short_id, name, floor)
    select ${e}, b.id, ${roomType.id}, b.short_id * 1000 + g, 'Room ' || (b.short_id * 1000 + g), (g % 5)::text
    from b cross join generate_series(1, 20) g`);
  // Incidents in batches of 100,000: a title, a description, a room, a type, an assignee for most,
  // statuses and priorities in turn, tags on some, creation times over two years.
  const BATCH = 100_000;
  for (let from = 1; from <= ROWS; from += BATCH) {
    const to = Math.min(ROWS, from + BATCH - 1);
    await db.execute(sql`
      with r as (select array_agg(id order by id) as ids from rooms where entity_id = ${e}),
      t as (select array_agg(id order by id) as ids from incident_types where entity_id = ${e}),
      u as (select array_agg(id order by id) as ids from users where entity_id = ${e} and role = ${Role.TECHNICIAN})
      insert into incidents (entity_id, short_id, title, description, room_id, incident_type_id, assignee_id, status, priority, tags, location, created_at, last_occurrence_at, updated_at)
      select ${e}, g, 'Incident ' || g || ': the tap of the kitchen drips', 'Reported by an occupier; water under the sink.',
        r.ids[1 + g % 200], t.ids[1 + g % 10], case when g % 4 = 0 then null else u.ids[1 + g % 20] end,
        (g % 4)::smallint, case when g % 5 = 4 then null else (g % 4)::smallint end,
        case when g % 3 = 0 then array['water', 'kitchen'] else '{}'::text[] end, 'Kitchen',
        timestamptz '2025-01-01 00:00:00+00' + (g * interval '63 seconds'), timestamptz '2025-01-01 00:00:00+00' + (g * interval '63 seconds'), now()
      from generate_series(${from}::int, ${to}::int) g, r, t, u`);
  }
  await db.execute(sql`analyze`);
  return { e, person };
}

async function main() {
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error("BENCH_DATABASE: letters, digits and _ only");
  const reuse = process.env.BENCH_REUSE === "1";
  if (!reuse) {
    await admin(`drop database if exists ${name} with (force)`);
    await admin(`create database ${name}`);
  }
  const database = await openDatabase({ url: `${server}/${name}`, poolMax: 4 });
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "caretaker-export-bench-"));
  try {
    if (!reuse) await runMigrations(database);
    const db = database.db;
    const seeded = performance.now();
    const { e, person } = reuse ? await kept(db) : await seed(db);
    const seedSeconds = (performance.now() - seeded) / 1000;
    console.log(`PostgreSQL, ${ROWS.toLocaleString("en")} incidents ${reuse ? "kept from a previous run" : `written in ${seedSeconds.toFixed(1)} s`}`);


    // Warm-up: one small export (the entity's users) in each format, so that "idle" is a process that has
    // loaded the export's code (exceljs, zlib) once, as a running server has after its first export.
    for (const format of ["xlsx", "csv"] as const) {
      const [warm] = await db
        .insert(dataJobs)
        .values({ entityId: e, kind: DataJobKind.EXPORT, exportType: ExportType.USERS, params: { format, filters: {} }, requestedById: person.id })
        .returning({ id: dataJobs.id });
      await runExport({ db, files: { root, maxBytes: 0 } }, { entityId: e, dataJobId: warm.id }, { texts: () => plainT(en), retentionHours: 72 });
    }

    const rows: string[] = [];
    for (const format of ["xlsx", "csv"] as const) {
      const [job] = await db
        .insert(dataJobs)
        .values({ entityId: e, kind: DataJobKind.EXPORT, exportType: ExportType.INCIDENTS, params: { format, filters: {} }, requestedById: person.id })
        .returning({ id: dataJobs.id });
      (globalThis as { gc?: () => void }).gc?.();
      await new Promise((resolve) => setTimeout(resolve, 200));
      const idle = process.memoryUsage().rss;
      let peak = idle;
      const sampler = setInterval(() => {
        peak = Math.max(peak, process.memoryUsage().rss);
      }, 10);
      const start = performance.now();
      const result = await runExport({ db, files: { root, maxBytes: 0 } }, { entityId: e, dataJobId: job.id }, { texts: () => plainT(en), retentionHours: 72 });
      const seconds = (performance.now() - start) / 1000;
      clearInterval(sampler);
      peak = Math.max(peak, process.memoryUsage().rss);
      if (result.rows !== ROWS) throw new Error(`${format}: ${result.rows} rows written, ${ROWS} expected`);
      const [file] = fs.readdirSync(path.join(root, String(e))).map((f) => fs.statSync(path.join(root, String(e), f))).sort((a, b) => b.mtimeMs - a.mtimeMs);
      const rate = ROWS / seconds;
      const over = (peak - idle) / MB;
      rows.push(
        `| ${format} | ${ROWS.toLocaleString("en")} | ${seconds.toFixed(1)} s | ${Math.round(rate).toLocaleString("en")} (>= ${TARGET_ROWS_PER_SECOND.toLocaleString("en")}) | ${(idle / MB).toFixed(0)} MB | ${(peak / MB).toFixed(0)} MB | ${over.toFixed(0)} MB (<= ${TARGET_MB}) | ${(file.size / MB).toFixed(0)} MB | ${rate >= TARGET_ROWS_PER_SECOND && over <= TARGET_MB ? "yes" : "no"} |`,
      );
      console.log(`${format}: ${ROWS} rows in ${seconds.toFixed(1)} s, ${Math.round(rate)} rows/s, peak RSS ${(peak / MB).toFixed(0)} MB (idle ${(idle / MB).toFixed(0)} MB, +${over.toFixed(0)} MB), file ${(file.size / MB).toFixed(1)} MB`);
    }
    console.log("\n| format | incidents | time | rows/s | idle RSS | peak RSS | peak above idle | file | within target |");
    console.log("|---|---:|---:|---:|---:|---:|---:|---:|---|");
    for (const row of rows) console.log(row);
    console.log(`\n${os.cpus().length} cores, Node ${process.version}, load average ${os.loadavg()[0].toFixed(1)} at the end.`);
  } finally {
    await database.close();
    fs.rmSync(root, { recursive: true, force: true });
    if (process.env.BENCH_KEEP !== "1" && !reuse) await admin(`drop database if exists ${name} with (force)`);
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
