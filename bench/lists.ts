/**
 * List-page benchmark on the large data set (issue #4): starts the production build against a
 * PostgreSQL database holding the scale seed (`npm run seed -- --scale 1`), signs in as the scale
 * entity's administrator and times the list screens (sorted, searched, filtered, deep pages), the room
 * screens and the list API calls. Prints a Markdown table for docs/benchmarks.md.
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/caretaker_scale npm run seed -- --scale 1
 *   npm run build && DATABASE_URL=postgres://postgres@127.0.0.1:5432/caretaker_scale npm run bench:lists
 *
 * Options (environment): BENCH_REQUESTS per scenario (default 20, after 3 warm-up requests), measured one at a
 * time (latency of one user), then BENCH_CONCURRENCY clients (default 4) for throughput.
 */
import { spawn } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";

const requests = Number(process.env.BENCH_REQUESTS ?? 20);
const concurrency = Number(process.env.BENCH_CONCURRENCY ?? 4);
const databaseUrl = process.env.DATABASE_URL;

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const srv = net.createServer().listen(0, "127.0.0.1", () => {
      const port = (srv.address() as net.AddressInfo).port;
      srv.close(() => resolve(port));
    });
  });
}

async function time(url: string, headers: Record<string, string>): Promise<{ ms: number; status: number; bytes: number }> {
  const started = performance.now();
  const res = await fetch(url, { headers, redirect: "manual" });
  const body = await res.arrayBuffer();
  return { ms: performance.now() - started, status: res.status, bytes: body.byteLength };
}

function pct(sorted: number[], p: number) {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

async function measure(url: string, headers: Record<string, string>) {
  for (let i = 0; i < 3; i++) await time(url, headers);
  const latencies: number[] = [];
  let errors = 0;
  let bytes = 0;
  for (let i = 0; i < requests; i++) {
    const r = await time(url, headers);
    latencies.push(r.ms);
    bytes = r.bytes;
    if (r.status >= 400) errors++;
  }
  latencies.sort((a, b) => a - b);
  // Throughput with several clients at once.
  const total = requests * 2;
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next++ < total) {
        const r = await time(url, headers);
        if (r.status >= 400) errors++;
      }
    }),
  );
  const rps = total / ((performance.now() - started) / 1000);
  return { p50: pct(latencies, 50), p95: pct(latencies, 95), max: latencies[latencies.length - 1] ?? 0, rps, errors, bytes };
}

async function main() {
  if (!databaseUrl) throw new Error("set DATABASE_URL to the database holding the scale seed");
  if (!fs.existsSync("build/server/index.js")) throw new Error("run `npm run build` first");
  const port = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "caretaker-bench-lists-"));
  const base = `http://127.0.0.1:${port}`;
  const secret = () => crypto.randomBytes(32).toString("hex");
  const server = spawn(process.execPath, ["build/server.js"], {
    env: {
      ...process.env,
      NODE_ENV: "production",
      PORT: String(port),
      HOST: "127.0.0.1",
      DATA_DIR: dataDir,
      DATABASE_URL: databaseUrl,
      SESSION_SECRET: secret(),
      JWT_SECRET: secret(),
      LOG_LEVEL: "warn",
      LOGIN_MAX_PER_ADDRESS: "100000",
      RATE_LIMIT_MULTIPLIER: "100000",
    },
    stdio: ["ignore", "ignore", "inherit"],
  });
  try {
    const started = Date.now();
    for (;;) {
      try {
        if ((await fetch(`${base}/readyz`)).ok) break;
      } catch {
        /* starting */
      }
      if (Date.now() - started > 120_000) throw new Error("server did not start");
      await new Promise((r) => setTimeout(r, 200));
    }
    const account = { email: "scale-admin@demo.test", password: "Demo-pass-1!" };
    const login = await fetch(`${base}/login`, { method: "POST", body: new URLSearchParams(account), redirect: "manual" });
    const cookie = login.headers.getSetCookie().map((c) => c.split(";")[0]).join("; ");
    const apiLogin = await fetch(`${base}/api/authentication/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ username: account.email, password: account.password }),
    });
    const { jwtToken } = (await apiLogin.json()) as { jwtToken: string };
    if (!jwtToken) throw new Error("could not sign in as scale-admin@demo.test: is the scale seed loaded?");
    const bearer = { authorization: `Bearer ${jwtToken}` };
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
      ["rooms search \"12\"", "/facilities?tab=rooms&q=12", { cookie }],
      ["rooms of one building", `/facilities?tab=rooms&buildingId=${building.id}`, { cookie }],
      ["/room-type", "/room-type", { cookie }],
      ["/equipments (generic)", "/equipments", { cookie }],
      ["generic equipment by items count", "/equipments?sort=itemCount&dir=desc", { cookie }],
      ["/equipments?tab=categories", "/equipments?tab=categories", { cookie }],
      ["/view-room/{id}", `/view-room/${room.id}`, { cookie }],
      ["/update-room/{id}", `/update-room/${room.id}`, { cookie }],
      ["GET /api/facilities", "/api/facilities", bearer],
      ["GET /api/facilities/rooms?buildingIds=", `/api/facilities/rooms?buildingIds=${building.id}`, bearer],
      ["GET /api/facilities/rooms?size=1000", "/api/facilities/rooms?size=1000", bearer],
      ["GET /api/equipments?roomIds=", `/api/equipments?roomIds=${room.id}`, bearer],
    ];
    const rows: string[] = [];
    for (const [name, url, headers] of scenarios) {
      const r = await measure(`${base}${url}`, headers);
      rows.push(
        `| ${name} | ${r.p50.toFixed(0)} | ${r.p95.toFixed(0)} | ${r.max.toFixed(0)} | ${r.rps.toFixed(1)} | ${(r.bytes / 1024).toFixed(0)} KB | ${r.errors} |`,
      );
      process.stderr.write(`${name}: p50 ${r.p50.toFixed(0)} ms\n`);
    }
    const mb = (n: number) => `${(n / 1024 / 1024).toFixed(0)} MB`;
    console.log(`Machine: ${os.cpus().length} cores, ${mb(os.totalmem())}; Node ${process.version}; PostgreSQL at ${new URL(databaseUrl).host}`);
    console.log(`Data: scale seed, ${allBuildings.total} buildings, ${allRooms.total} rooms in the entity.`);
    console.log(`${requests} sequential requests per scenario after 3 warm-up requests; throughput with ${concurrency} clients.\n`);
    console.log(`| page | p50 ms | p95 ms | max ms | req/s (${concurrency} clients) | size | errors |\n|---|---|---|---|---|---|---|`);
    for (const row of rows) console.log(row);
  } finally {
    server.kill("SIGTERM");
    await new Promise((r) => server.once("exit", r));
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
