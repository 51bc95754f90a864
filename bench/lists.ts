/**
 * List-page benchmark on the large data set (issues #4 and #9): starts the production build against a
 * PostgreSQL database holding the scale seed (`npm run seed -- --scale 1`) with SERVER_TIMING=1, signs
 * in as the scale entity's administrator and times the list screens (sorted, searched, filtered, deep
 * pages), the room screens, the pickers and the list API calls. Prints a Markdown table for
 * docs/benchmarks.md.
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/caretaker_scale npm run seed -- --scale 1
 *   npm run build && DATABASE_URL=postgres://postgres@127.0.0.1:5432/caretaker_scale npm run bench:lists
 *
 * Per page: one user's latency (BENCH_REQUESTS sequential requests, default 20, after 3 warm-up
 * requests: p50 and p95 of the whole answer, the SQL time and query count the server reports in its
 * `Server-Timing` header, and the page/SQL ratio), then BENCH_CONCURRENCY clients (default 20) for
 * BENCH_SECONDS (default 5): requests per second and p95 under load. BENCH_ONLY=<text> runs the pages
 * whose name contains it; BENCH_JSON=<file> also writes the figures as JSON.
 */
import fs from "node:fs";
import os from "node:os";
import { startScaleServer } from "./lib/scale";

const requests = Number(process.env.BENCH_REQUESTS ?? 20);
const concurrency = Number(process.env.BENCH_CONCURRENCY ?? 20);
const seconds = Number(process.env.BENCH_SECONDS ?? 5);
const only = process.env.BENCH_ONLY ?? "";
const databaseUrl = process.env.DATABASE_URL;

interface Sample {
  ms: number;
  status: number;
  bytes: number;
  /** From Server-Timing: SQL time, query count, server time until the head of the answer. */
  sqlMs: number | null;
  queries: number | null;
  headMs: number | null;
}

/** `db;dur=1.23;desc="4 queries", app;dur=5.6` */
export function parseServerTiming(header: string | null): Pick<Sample, "sqlMs" | "queries" | "headMs"> {
  const db = header ? /(?:^|,)\s*db;dur=([\d.]+);desc="(\d+) queries"/.exec(header) : null;
  const app = header ? /(?:^|,)\s*app;dur=([\d.]+)/.exec(header) : null;
  return {
    sqlMs: db ? Number(db[1]) : null,
    queries: db ? Number(db[2]) : null,
    headMs: app ? Number(app[1]) : null,
  };
}

async function time(url: string, headers: Record<string, string>): Promise<Sample> {
  const started = performance.now();
  try {
    const res = await fetch(url, { headers, redirect: "manual" });
    const body = await res.arrayBuffer();
    return { ms: performance.now() - started, status: res.status, bytes: body.byteLength, ...parseServerTiming(res.headers.get("server-timing")) };
  } catch {
    return { ms: performance.now() - started, status: 599, bytes: 0, sqlMs: null, queries: null, headMs: null };
  }
}

function pct(values: number[], p: number) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

export interface Result {
  page: string;
  url: string;
  p50: number;
  p95: number;
  sqlP50: number | null;
  headP50: number | null;
  ratio: number | null;
  queries: number | null;
  bytes: number;
  rps: number;
  loadP95: number;
  errors: number;
  status: number;
}

async function measure(page: string, url: string, headers: Record<string, string>): Promise<Result> {
  for (let i = 0; i < 3; i++) await time(url, headers);
  const samples: Sample[] = [];
  for (let i = 0; i < requests; i++) samples.push(await time(url, headers));
  let errors = samples.filter((s) => s.status >= 400).length;
  const sql = samples.flatMap((s) => (s.sqlMs === null ? [] : [s.sqlMs]));
  const head = samples.flatMap((s) => (s.headMs === null ? [] : [s.headMs]));
  const queries = samples.flatMap((s) => (s.queries === null ? [] : [s.queries]));
  const p50 = pct(
    samples.map((s) => s.ms),
    50,
  );
  const sqlP50 = sql.length ? pct(sql, 50) : null;

  // Throughput: `concurrency` clients for `seconds`.
  const latencies: number[] = [];
  const end = performance.now() + seconds * 1000;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < end) {
        const r = await time(url, headers);
        latencies.push(r.ms);
        if (r.status >= 400) errors++;
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  return {
    page,
    url,
    p50,
    p95: pct(
      samples.map((s) => s.ms),
      95,
    ),
    sqlP50,
    headP50: head.length ? pct(head, 50) : null,
    ratio: sqlP50 ? p50 / Math.max(sqlP50, 0.01) : null,
    queries: queries.length ? pct(queries, 50) : null,
    bytes: samples[samples.length - 1]?.bytes ?? 0,
    rps: latencies.length / elapsed,
    loadP95: pct(latencies, 95),
    errors,
    status: samples[samples.length - 1]?.status ?? 0,
  };
}

const fmt = (n: number | null, digits = 0) => (n === null ? "–" : n.toFixed(digits));
const size = (bytes: number) => (bytes >= 10240 ? `${(bytes / 1024).toFixed(0)} KB` : `${(bytes / 1024).toFixed(1)} KB`);

export function tableOf(results: Result[]): string {
  const head =
    `| page | p50 ms | p95 ms | SQL ms | page/SQL | queries | size | req/s (${concurrency} clients) | p95 ms (${concurrency} clients) | errors |\n` +
    "|---|---|---|---|---|---|---|---|---|---|";
  const rows = results.map(
    (r) =>
      `| ${r.page} | ${fmt(r.p50)} | ${fmt(r.p95)} | ${fmt(r.sqlP50, 1)} | ${fmt(r.ratio, 1)} | ${fmt(r.queries)} | ${size(r.bytes)} | ${fmt(r.rps, 1)} | ${fmt(r.loadP95)} | ${r.errors}${r.status >= 400 ? ` (${r.status})` : ""} |`,
  );
  return [head, ...rows].join("\n");
}

async function main() {
  if (!databaseUrl) throw new Error("set DATABASE_URL to the database holding the scale seed");
  const server = await startScaleServer(databaseUrl);
  const base = server.base;
  try {
    const cookie = await server.signIn("scale-admin@demo.test");
    const bearer = await server.bearer("scale-admin@demo.test");
    const first = async (url: string) => {
      const res = await fetch(`${base}${url}`, { headers: bearer });
      const rows = (await res.json()) as { id: number }[];
      if (!res.ok || !rows[0]) throw new Error(`no data from ${url}`);
      return { id: rows[0].id, total: res.headers.get("x-total-count") };
    };
    const facility = await first("/api/facilities?size=1");
    const building = await first(`/api/facilities/buildings?facilityIds=${facility.id}&size=1`);
    const room = await first(`/api/facilities/rooms?buildingIds=${building.id}&size=1`);
    const allRooms = await first("/api/facilities/rooms?size=1");
    const allBuildings = await first("/api/facilities/buildings?size=1");
    const lastRoomPage = Math.ceil(Number(allRooms.total ?? 25) / 25);

    const scenarios: [string, string, Record<string, string>][] = [
      ["/facilities (by name)", "/facilities", { cookie }],
      ["/facilities by buildings count, desc", "/facilities?sort=countBuildings&dir=desc", { cookie }],
      ["/facilities?tab=buildings", "/facilities?tab=buildings", { cookie }],
      ["buildings by rooms count, desc", "/facilities?tab=buildings&sort=countRooms&dir=desc", { cookie }],
      ["buildings of one facility", `/facilities?tab=buildings&facilityId=${facility.id}`, { cookie }],
      ["/facilities?tab=rooms", "/facilities?tab=rooms", { cookie }],
      ["rooms, 100 per page", "/facilities?tab=rooms&size=100", { cookie }],
      ["rooms, last page", `/facilities?tab=rooms&page=${lastRoomPage}`, { cookie }],
      ["rooms by building name", "/facilities?tab=rooms&sort=buildingName", { cookie }],
      ["rooms by building name, last page", `/facilities?tab=rooms&sort=buildingName&page=${lastRoomPage}`, { cookie }],
      ['rooms search "12"', "/facilities?tab=rooms&q=12", { cookie }],
      ["rooms of one building", `/facilities?tab=rooms&buildingId=${building.id}`, { cookie }],
      ["rooms of one facility", `/facilities?tab=rooms&facilityId=${facility.id}`, { cookie }],
      ["/room-type", "/room-type", { cookie }],
      ["/room-type by rooms count", "/room-type?sort=linkedRoomsCount&dir=desc", { cookie }],
      ["/equipments (generic)", "/equipments", { cookie }],
      ["generic equipment by items count", "/equipments?sort=itemCount&dir=desc", { cookie }],
      ["/equipments?tab=categories", "/equipments?tab=categories", { cookie }],
      ["/view-room/{id}", `/view-room/${room.id}`, { cookie }],
      ["/update-room/{id}", `/update-room/${room.id}`, { cookie }],
      ["/add-room", "/add-room", { cookie }],
      ['building picker, search "12"', "/building-options?q=12", { cookie }],
      ["GET /api/facilities", "/api/facilities", bearer],
      ["GET /api/facilities/buildings", "/api/facilities/buildings", bearer],
      ["GET /api/facilities/rooms (no size)", "/api/facilities/rooms", bearer],
      ["GET /api/facilities/rooms?buildingIds=", `/api/facilities/rooms?buildingIds=${building.id}`, bearer],
      ["GET /api/facilities/rooms?size=100&page=500", "/api/facilities/rooms?size=100&page=500", bearer],
      ["GET /api/equipments?roomIds=", `/api/equipments?roomIds=${room.id}`, bearer],
      ["GET /api/equipments (no roomIds)", "/api/equipments", bearer],
    ];
    const results: Result[] = [];
    for (const [name, url, headers] of scenarios) {
      if (only && !name.includes(only)) continue;
      const r = await measure(name, `${base}${url}`, headers);
      results.push(r);
      process.stderr.write(
        `${name}: p50 ${fmt(r.p50)} ms, SQL ${fmt(r.sqlP50, 1)} ms in ${fmt(r.queries)} queries, ${size(r.bytes)}, ` +
          `${fmt(r.rps, 1)} req/s (p95 ${fmt(r.loadP95)} ms) with ${concurrency} clients${r.status >= 400 ? `, status ${r.status}` : ""}\n`,
      );
    }
    const mb = (n: number) => `${(n / 1024 / 1024).toFixed(0)} MB`;
    console.log(`Machine: ${os.cpus().length} cores, ${mb(os.totalmem())}; Node ${process.version}; PostgreSQL at ${new URL(databaseUrl).host}`);
    console.log(`Data: scale seed, ${allBuildings.total} buildings, ${allRooms.total} rooms in the entity.`);
    console.log(
      `${requests} sequential requests per page after 3 warm-up requests (p50, p95, SQL time and queries from Server-Timing); ` +
        `then ${concurrency} clients for ${seconds} s.\n`,
    );
    console.log(tableOf(results));
    if (process.env.BENCH_JSON) fs.writeFileSync(process.env.BENCH_JSON, JSON.stringify(results, null, 2));
  } finally {
    await server.stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
