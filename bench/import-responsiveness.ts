/**
 * Pages while an import runs (issue 49): the production build (`npm run build` first) on the embedded
 * database with the demo data (or on PostgreSQL: BENCH_PG_URL=postgres://postgres@127.0.0.1:5432, a
 * scratch database the bench migrates, seeds with the demo data and drops). Signed in as the demo
 * administrator, it asks for the list pages one after another and reads the server's CPU from /proc:
 *
 *   - idle: ROUND pages of each list;
 *   - during an import: POST /api/imports with a BENCH_ROWS-line (default 10,000) rooms workbook, then
 *     the same pages, one after another, until the job has finished;
 *
 * alternating idle and import rounds (side by side, BENCH_ROUNDS rounds, default 2), each import with
 * new room names. The server's CPU during an import also counts the import's own work, so the figure
 * that compares is each page's time as the person waits for it (median and p95), during the import
 * against idle. Target (issue 49): the list pages within 1.5 x their idle figure.
 *
 *   npm run build && npm run bench:import-pages
 */
import os from "node:os";
import ExcelJS from "exceljs";
import { openDatabase, runMigrations } from "~/db/client.server";
import { DataJobStatus } from "~/db/enums";
import { seedDemo } from "~/seed/seed.server";
import { pgAdmin } from "./lib/pg-admin";
import { cpuMs } from "./lib/proc";
import { demoAccounts, DEMO_PASSWORD, startServer } from "./lib/server";

const ROWS = Number(process.env.BENCH_ROWS ?? 10_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const IDLE_PAGES = 15;
const TARGET_RATIO = 1.5;
const PAGES = ["/facilities?tab=rooms", "/incidents", "/users"];
const pgServer = process.env.BENCH_PG_URL;
const PG_NAME = "caretaker_import_pages_bench";

const quantile = (values: number[], q: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
};

const admin = (statement: string) => pgAdmin(pgServer!, statement);

async function main() {
  let env: Record<string, string> = {};
  if (pgServer) {
    await admin(`drop database if exists ${PG_NAME} with (force)`);
    await admin(`create database ${PG_NAME}`);
    const database = await openDatabase({ url: `${pgServer}/${PG_NAME}`, poolMax: 2 });
    await runMigrations(database);
    await seedDemo(database.db);
    await database.close();
    env = { DATABASE_URL: `${pgServer}/${PG_NAME}` };
  }
  const server = await startServer({ env });
  try {
    const cookie = await server.signIn(demoAccounts.admin);
    const login = await fetch(`${server.base}/api/authentication/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ username: demoAccounts.admin, password: DEMO_PASSWORD }),
    });
    const bearer = { authorization: `Bearer ${((await login.json()) as { jwtToken: string }).jwtToken}` };
    const list = async <T>(path: string) => (await (await fetch(`${server.base}/api/${path}`, { headers: bearer })).json()) as T;
    const buildings = await list<{ name: string; facilityName?: string; facility?: { name: string } }[]>("facilities/buildings?size=100");
    const types = (await list<{ name?: string; roomTypeName?: string }[]>("facilities/rooms/roomtype?size=100")).map((t) => ({ name: t.roomTypeName ?? t.name ?? "" }));
    if (!buildings.length || !types.length) throw new Error("the demo data has no buildings or room types");

    const workbook = async (round: number) => {
      const book = new ExcelJS.Workbook();
      const sheet = book.addWorksheet("Data");
      sheet.addRow(["Name *", "Building *", "Room type *", "Floor *", "Description", "Facility"]);
      for (let i = 0; i < ROWS; i++) {
        const building = buildings[i % buildings.length];
        sheet.addRow([`Bench ${round}-${i + 1}`, building.name, types[i % types.length].name, String(i % 7), "", building.facilityName ?? building.facility?.name ?? ""]);
      }
      return new Blob([await book.xlsx.writeBuffer()]);
    };

    const page = async (path: string) => {
      const started = performance.now();
      const res = await fetch(`${server.base}${path}`, { headers: { cookie } });
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`${path}: ${res.status}`);
      return performance.now() - started;
    };
    for (const path of PAGES) for (let i = 0; i < 3; i++) await page(path); // warm-up

    const idle: Record<string, number[]> = Object.fromEntries(PAGES.map((p) => [p, []]));
    const busy: Record<string, number[]> = Object.fromEntries(PAGES.map((p) => [p, []]));
    const idleCpu: Record<string, number[]> = Object.fromEntries(PAGES.map((p) => [p, []]));
    const imports: number[] = [];
    for (let round = 1; round <= ROUNDS; round++) {
      for (const path of PAGES) {
        const before = cpuMs(server.pid).all;
        for (let i = 0; i < IDLE_PAGES; i++) idle[path].push(await page(path));
        idleCpu[path].push((cpuMs(server.pid).all - before) / IDLE_PAGES);
      }
      const form = new FormData();
      form.set("type", "rooms");
      form.set("file", await workbook(round), "rooms.xlsx");
      const started = performance.now();
      const res = await fetch(`${server.base}/api/imports`, { method: "POST", headers: bearer, body: form });
      if (res.status !== 202) throw new Error(`POST /api/imports: ${res.status} ${(await res.text()).slice(0, 300)}`);
      const job = (await res.json()) as { id: number };
      let done = false;
      let lastPoll = 0;
      while (!done) {
        for (const path of PAGES) busy[path].push(await page(path));
        if (performance.now() - lastPoll > 250) {
          lastPoll = performance.now();
          const view = (await (await fetch(`${server.base}/api/imports/${job.id}`, { headers: bearer })).json()) as { status: DataJobStatus };
          done = view.status !== DataJobStatus.QUEUED && view.status !== DataJobStatus.RUNNING;
          if (done && view.status !== DataJobStatus.SUCCEEDED) throw new Error(`the import ended as ${JSON.stringify(view)}`);
        }
      }
      imports.push(performance.now() - started);
    }

    console.log(`\n${pgServer ? "PostgreSQL" : "PGlite (embedded)"}, ${ROWS.toLocaleString("en")}-line rooms imports, ${ROUNDS} rounds, ${os.cpus().length} cores, load average ${os.loadavg()[0].toFixed(1)}`);
    console.log(`imports (202 to finished): ${imports.map((ms) => `${(ms / 1000).toFixed(1)} s`).join(", ")}`);
    console.log("\n| page | idle median / p95 | idle server CPU per page | during an import: pages, median / p95 | median ratio | p95 ratio | within 1.5 x |");
    console.log("|---|---:|---:|---:|---:|---:|---|");
    for (const path of PAGES) {
      const ratio50 = quantile(busy[path], 0.5) / quantile(idle[path], 0.5);
      const ratio95 = quantile(busy[path], 0.95) / quantile(idle[path], 0.95);
      console.log(
        `| ${path} | ${quantile(idle[path], 0.5).toFixed(0)} / ${quantile(idle[path], 0.95).toFixed(0)} ms | ${quantile(idleCpu[path], 0.5).toFixed(1)} ms | ${busy[path].length}, ${quantile(busy[path], 0.5).toFixed(0)} / ${quantile(busy[path], 0.95).toFixed(0)} ms | ${ratio50.toFixed(2)} | ${ratio95.toFixed(2)} | ${ratio50 <= TARGET_RATIO ? "yes" : "no"} |`,
      );
    }
  } finally {
    await server.stop();
    if (pgServer) await admin(`drop database if exists ${PG_NAME} with (force)`);
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
