/**
 * Benchmarks (never timed assertions in tests): starts the production build on a fresh embedded
 * database, measures start-up, memory and request throughput/latency of a few pages, and prints a
 * Markdown table for docs/benchmarks.md. Run with `npm run build && npm run bench`.
 *
 * Options (environment): BENCH_SECONDS per scenario (default 10), BENCH_CONCURRENCY (default 8),
 * DATABASE_URL to measure against PostgreSQL instead of PGlite (the database must hold the demo data:
 * `npm run seed`).
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";

const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const concurrency = Number(process.env.BENCH_CONCURRENCY ?? 8);

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const srv = net.createServer().listen(0, "127.0.0.1", () => {
      const port = (srv.address() as net.AddressInfo).port;
      srv.close(() => resolve(port));
    });
  });
}

function rssOf(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) * 1024;
}

async function load(url: string, headers: Record<string, string>) {
  const latencies: number[] = [];
  let errors = 0;
  const end = Date.now() + seconds * 1000;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (Date.now() < end) {
        const started = performance.now();
        try {
          const res = await fetch(url, { headers, redirect: "manual" });
          await res.arrayBuffer();
          if (res.status >= 400) errors++;
        } catch {
          errors++;
        }
        latencies.push(performance.now() - started);
      }
    }),
  );
  latencies.sort((a, b) => a - b);
  const pct = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))] ?? 0;
  return { requests: latencies.length, rps: latencies.length / seconds, p50: pct(50), p95: pct(95), p99: pct(99), errors };
}

async function main() {
  if (!fs.existsSync("build/server/index.js")) throw new Error("run `npm run build` first");
  const port = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "caretaker-bench-"));
  const base = `http://127.0.0.1:${port}`;
  const started = Date.now();
  const server = spawn(process.execPath, ["build/server.js"], {
    env: { ...process.env, NODE_ENV: "production", PORT: String(port), HOST: "127.0.0.1", DATA_DIR: dataDir, LOG_LEVEL: "warn", LOGIN_MAX_PER_ADDRESS: "100000", RATE_LIMIT_MULTIPLIER: "100000" },
    stdio: ["ignore", "ignore", "inherit"],
  });
  try {
    for (;;) {
      try {
        if ((await fetch(`${base}/readyz`)).ok) break;
      } catch {
        /* starting */
      }
      if (Date.now() - started > 120_000) throw new Error("server did not start");
      await new Promise((r) => setTimeout(r, 100));
    }
    const startupMs = Date.now() - started;
    const rssIdle = rssOf(server.pid!);

    // A signed-in session through the web login form.
    const login = await fetch(`${base}/login`, {
      method: "POST",
      body: new URLSearchParams({ email: "manager@demo.test", password: "Demo-pass-1!" }),
      redirect: "manual",
    });
    const cookie = login.headers.getSetCookie().map((c) => c.split(";")[0]).join("; ");
    const apiLogin = await fetch(`${base}/api/authentication/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ username: "manager@demo.test", password: "Demo-pass-1!" }),
    });
    const { jwtToken } = (await apiLogin.json()) as { jwtToken: string };

    const scenarios: [string, string, Record<string, string>][] = [
      ["GET /healthz", "/healthz", {}],
      ["GET /login (visitor page)", "/login", {}],
      ["GET /settings (signed-in page)", "/settings", { cookie }],
      ["GET /settings.data (client navigation)", "/settings.data", { cookie }],
      ["GET /api/entities/1 (REST, bearer)", "/api/entities/1", { authorization: `Bearer ${jwtToken}` }],
    ];
    const rows: string[] = [];
    for (const [name, url, headers] of scenarios) {
      const r = await load(`${base}${url}`, headers);
      rows.push(`| ${name} | ${r.rps.toFixed(0)} | ${r.p50.toFixed(1)} | ${r.p95.toFixed(1)} | ${r.p99.toFixed(1)} | ${r.errors} |`);
      process.stderr.write(`${name}: ${r.rps.toFixed(0)} req/s\n`);
    }
    const rssLoaded = rssOf(server.pid!);

    const mb = (n: number) => `${(n / 1024 / 1024).toFixed(0)} MB`;
    console.log(`Machine: ${os.cpus().length} cores, ${mb(os.totalmem())}; Node ${process.version}; database: ${process.env.DATABASE_URL ? "PostgreSQL" : "PGlite (embedded)"}`);
    console.log(`Load: ${concurrency} concurrent clients on loopback, ${seconds} s per scenario.\n`);
    console.log(`| measure | value |\n|---|---|`);
    console.log(`| start-up to /readyz (fresh data folder: migrations + demo seed) | ${(startupMs / 1000).toFixed(1)} s |`);
    console.log(`| resident memory after start | ${mb(rssIdle)} |`);
    console.log(`| resident memory after the load below | ${mb(rssLoaded)} |\n`);
    console.log(`| scenario | req/s | p50 ms | p95 ms | p99 ms | errors |\n|---|---|---|---|---|---|`);
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
