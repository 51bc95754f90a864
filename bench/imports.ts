/**
 * Import benchmark (decision 054): a BENCH_ROWS (default 10,000) line rooms workbook (.xlsx, as the
 * template is filled), 20 buildings and 5 room types named by name, on a fresh database (in-memory
 * PGlite, or the PostgreSQL database of DATABASE_URL, created when missing, migrated, dropped at the end).
 * It times, as an administrator:
 *   - the preview (`previewImport`: the file read and every line checked; nothing written);
 *   - starting the import (`startImport`: the check again, the file stored, the job queued);
 *   - the import job (`runImport`: the check inside the transaction, the rooms, their report
 *     identifiers and audit rows written, one transaction);
 * and samples the process's resident memory every 10 ms, against its idle figure (after the database is
 * open and populated, after a garbage collection). Targets: each at most 10 s, peak at most 150 MB above
 * idle. It then checks the rooms and the list counters.
 *
 *   npm run bench:imports
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/caretaker_imports_bench npm run bench:imports
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import ExcelJS from "exceljs";
import pg from "pg";
import { sql } from "drizzle-orm";
import { personActor } from "~/core/actor";
import { openDatabase, runMigrations } from "~/db/client.server";
import { BulkUploadType, DataJobStatus, Role } from "~/db/enums";
import { findCounterDrift } from "~/modules/facilities/counters.server";
import type { FilesContext } from "~/modules/files/uploads.server";
import { runImport } from "~/modules/imports/run.server";
import { previewImport, startImport } from "~/modules/imports/service.server";
import { createBuilding, createEntity, createFacility, createRoomType, createUser } from "~/seed/factories";

const url = process.env.DATABASE_URL;
const ROWS = Number(process.env.BENCH_ROWS ?? 10_000);
const TARGET_MS = 10_000;
const TARGET_MB = 150;
const MB = 1024 * 1024;

/** Creates the database of `url` when it does not exist (a scratch database for the bench). */
async function ensureDatabase(target: string): Promise<string> {
  const parsed = new URL(target);
  const name = parsed.pathname.slice(1);
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`bad database name ${name}`);
  const admin = new pg.Client({ connectionString: Object.assign(new URL(target), { pathname: "/postgres" }).toString() });
  await admin.connect();
  await admin.query(`drop database if exists ${name} with (force)`);
  await admin.query(`create database ${name}`);
  await admin.end();
  return name;
}

async function dropDatabase(target: string, name: string) {
  const admin = new pg.Client({ connectionString: Object.assign(new URL(target), { pathname: "/postgres" }).toString() });
  await admin.connect();
  await admin.query(`drop database if exists ${name} with (force)`);
  await admin.end();
}

/** Samples the resident memory while `work` runs; answers its time and the peak. */
async function measured<T>(work: () => Promise<T>): Promise<{ result: T; ms: number; peak: number }> {
  let peak = process.memoryUsage().rss;
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 10);
  const start = performance.now();
  try {
    const result = await work();
    return { result, ms: performance.now() - start, peak: Math.max(peak, process.memoryUsage().rss) };
  } finally {
    clearInterval(timer);
  }
}

const gc = () => (globalThis as { gc?: () => void }).gc?.();

async function main() {
  const scratch = url ? await ensureDatabase(url) : null;
  const database = await openDatabase(url ? { url, poolMax: 4 } : {});
  await runMigrations(database);
  const db = database.db;
  const entity = await createEntity(db);
  const admin = await createUser(db, { entityId: entity.id, role: Role.ADMINISTRATOR });
  const facility = await createFacility(db, { entityId: entity.id, name: "Bench campus" });
  const buildingNames: string[] = [];
  for (let i = 1; i <= 20; i++) buildingNames.push((await createBuilding(db, { entityId: entity.id, facilityId: facility.id, name: `Building ${i}` })).name);
  const typeNames: string[] = [];
  for (const name of ["Office", "Meeting room", "Classroom", "Storage", "Toilets"]) typeNames.push((await createRoomType(db, { entityId: entity.id, name })).name);

  const root = fs.mkdtempSync(path.join(os.tmpdir(), "caretaker-imports-bench-"));
  const files = { root, maxBytes: 10 * MB };
  const ctx: FilesContext = { db, entityId: entity.id, actor: personActor(admin), locale: "en", timeZone: "Europe/Brussels", files, queue: null };

  // The workbook, as the template is filled: the data sheet first, its header, then the lines.
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet("Data");
  sheet.addRow(["Name *", "Building *", "Room type *", "Floor *", "Description"]);
  for (let i = 0; i < ROWS; i++) {
    sheet.addRow([`Room ${i + 1}`, buildingNames[i % buildingNames.length], typeNames[i % typeNames.length], String(i % 7), i % 3 === 0 ? `Imported room number ${i + 1}` : ""]);
  }
  const bytes = new Uint8Array(await workbook.xlsx.writeBuffer());
  const file = { bytes, name: "rooms.xlsx" };

  gc();
  await new Promise((r) => setTimeout(r, 200));
  gc();
  const idle = process.memoryUsage().rss;

  const preview = await measured(() => previewImport(ctx, { type: BulkUploadType.ROOMS, file }));
  if (preview.result.errors.length) throw new Error(`the file has faults: ${JSON.stringify(preview.result.errors.slice(0, 3))}`);
  gc();
  // Without a queue the job is only written; the bench runs it itself, as a worker would.
  const queued: Array<{ dataJobId: number; entityId: number }> = [];
  const queue = {
    async send(_job: unknown, payload: { dataJobId: number; entityId: number }) {
      queued.push(payload);
      return String(queued.length);
    },
    async stop() {},
  };
  const start = await measured(() => startImport({ ...ctx, queue: queue as never }, { type: BulkUploadType.ROOMS, file }));
  gc();
  const job = await measured(() => runImport({ db, files, queue: null, events: null }, queued[0], { attempt: 1, maxAttempts: 3 }));

  const answer = await db.execute(
    sql`select (select count(*)::int from rooms where entity_id = ${entity.id}) as n, (select status from data_jobs where id = ${start.result.id}) as status`,
  );
  const result = (Array.isArray(answer) ? answer : (answer as unknown as { rows: unknown[] }).rows)[0] as { n: number; status: number };
  const drift = await findCounterDrift(db, entity.id);

  const mode = url ? "PostgreSQL" : "PGlite";
  const lines = [
    [`preview (${ROWS.toLocaleString("en")} lines read and checked)`, preview],
    ["start (checked again, file stored, job queued)", start],
    ["import job (checked in the transaction, rooms written)", job],
  ] as const;
  console.log(`\nrooms import, ${ROWS.toLocaleString("en")} lines, ${(bytes.byteLength / 1024).toFixed(0)} KB workbook, ${mode}; idle ${(idle / MB).toFixed(0)} MB`);
  console.log(`| step (${mode}) | ms | peak MB above idle | ≤ ${TARGET_MS / 1000} s and ≤ ${TARGET_MB} MB |`);
  console.log("|---|---|---|---|");
  let ok = true;
  for (const [name, m] of lines) {
    const above = (m.peak - idle) / MB;
    const pass = m.ms <= TARGET_MS && above <= TARGET_MB;
    ok &&= pass;
    console.log(`| ${name} | ${Math.round(m.ms).toLocaleString("en")} | ${above.toFixed(0)} | ${pass ? "pass" : "MISS"} |`);
  }
  const rooms = Number(result.n);
  console.log(`rooms in the entity: ${rooms.toLocaleString("en")}; job status ${result.status === DataJobStatus.SUCCEEDED ? "succeeded" : result.status}; counter drift: ${drift.length ? JSON.stringify(drift) : "none"}`);
  if (rooms !== ROWS || drift.length) ok = false;
  console.log(`targets: ${ok ? "pass" : "MISS"}`);

  await database.close();
  fs.rmSync(root, { recursive: true, force: true });
  if (url && scratch) await dropDatabase(url, scratch);
  if (!ok) process.exitCode = 1;
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
