/**
 * What the benchmarks on the scale seed share (`bench/incidents.ts`, `bench/lists.ts`):
 * the production build started against the PostgreSQL database of DATABASE_URL with SERVER_TIMING=1,
 * signing in (cookie and bearer token), and timing a URL: one client, then N clients in a closed loop,
 * then N clients that each wait a think time between requests (BENCH_THINK_MS), reading the
 * `Server-Timing` header (`db;dur=<sql ms>;desc="<n> queries", app;dur=<server ms until the head>`).
 */
import { spawn } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";

export const SCALE_PASSWORD = "Demo-pass-1!";

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const srv = net.createServer().listen(0, "127.0.0.1", () => {
      const port = (srv.address() as net.AddressInfo).port;
      srv.close(() => resolve(port));
    });
  });
}

export interface ScaleServer {
  base: string;
  /** The server process's id (for its CPU time: `cpuMs`). */
  pid: number;
  /** The `cookie` header of a session signed in through POST /login. */
  signIn(email: string): Promise<string>;
  /** `{ authorization: "Bearer ..." }` from POST /api/authentication/login. */
  bearer(email: string): Promise<Record<string, string>>;
  stop(): Promise<void>;
}

/**
 * Starts the production build on `databaseUrl`; an empty one means the embedded database in a fresh data
 * folder (seeded with the demo data as it starts), as `bench/report.ts` runs it.
 */
export async function startScaleServer(databaseUrl: string, options: { startSeconds?: number; env?: Record<string, string> } = {}): Promise<ScaleServer> {
  if (!fs.existsSync("build/server/index.js") || !fs.existsSync("build/server.js")) throw new Error("run `npm run build` first");
  const port = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "caretaker-bench-scale-"));
  const base = `http://127.0.0.1:${port}`;
  const secret = () => crypto.randomBytes(32).toString("hex");
  // BENCH_NODE_ARGS: extra Node flags for the server, e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof" to profile it.
  const nodeArgs = (process.env.BENCH_NODE_ARGS ?? "").split(" ").filter(Boolean);
  const server = spawn(process.execPath, [...nodeArgs, "build/server.js"], {
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
      API_RATE_LIMIT_PER_PERSON: "1000000",
      API_RATE_LIMIT_PER_TOKEN: "1000000",
      SERVER_TIMING: "1",
      JOBS: "false",
      ...options.env,
    },
    stdio: ["ignore", "ignore", "inherit"],
  });
  const exited = new Promise((r) => server.once("exit", r));
  const stop = async () => {
    if (server.exitCode === null) server.kill("SIGTERM");
    await exited;
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    const started = Date.now();
    for (;;) {
      try {
        if ((await fetch(`${base}/readyz`)).ok) break;
      } catch {
        /* starting */
      }
      if (server.exitCode !== null) throw new Error("the server stopped while starting");
      if (Date.now() - started > (options.startSeconds ?? 120) * 1000) throw new Error("server did not start");
      await new Promise((r) => setTimeout(r, 200));
    }
  } catch (error) {
    await stop();
    throw error;
  }
  return {
    base,
    pid: server.pid!,
    async signIn(email) {
      const res = await fetch(`${base}/login`, { method: "POST", body: new URLSearchParams({ email, password: SCALE_PASSWORD }), redirect: "manual" });
      if (res.status !== 302 && res.status !== 303) throw new Error(`sign-in as ${email} answered ${res.status}`);
      return res.headers.getSetCookie().map((c) => c.split(";")[0]).join("; ");
    },
    async bearer(email) {
      const res = await fetch(`${base}/api/authentication/login`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ username: email, password: SCALE_PASSWORD }),
      });
      const { jwtToken } = (await res.json()) as { jwtToken?: string };
      if (!jwtToken) throw new Error(`could not sign in as ${email}: is the scale seed loaded?`);
      return { authorization: `Bearer ${jwtToken}` };
    },
    stop,
  };
}

/**
 * The CPU time a process has used so far (user + system, all its threads: libuv's pool, libvips), in ms,
 * from /proc (Linux). Divided by the requests of a phase, it is what a request costs whatever else the
 * machine is doing; null where /proc is missing.
 */
export function cpuMs(pid: number): number | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    // Fields 14 and 15 of stat(5) (utime, stime), in clock ticks of 10 ms; the slice starts at field 3.
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return null;
  }
}

// ---------------------------------------------------------------------------
// Timing
// ---------------------------------------------------------------------------

export interface Sample {
  ms: number;
  status: number;
  bytes: number;
  /** From Server-Timing: SQL time and query count, server time until the head of the answer. */
  sqlMs: number | null;
  queries: number | null;
  appMs: number | null;
}

export function parseServerTiming(header: string | null): Pick<Sample, "sqlMs" | "queries" | "appMs"> {
  const db = header ? /(?:^|,)\s*db;dur=([\d.]+);desc="(\d+) queries"/.exec(header) : null;
  const app = header ? /(?:^|,)\s*app;dur=([\d.]+)/.exec(header) : null;
  return { sqlMs: db ? Number(db[1]) : null, queries: db ? Number(db[2]) : null, appMs: app ? Number(app[1]) : null };
}

export async function time(url: string, headers: Record<string, string>): Promise<Sample> {
  const started = performance.now();
  try {
    const res = await fetch(url, { headers, redirect: "manual" });
    const body = await res.arrayBuffer();
    return { ms: performance.now() - started, status: res.status, bytes: body.byteLength, ...parseServerTiming(res.headers.get("server-timing")) };
  } catch {
    return { ms: performance.now() - started, status: 599, bytes: 0, sqlMs: null, queries: null, appMs: null };
  }
}

export function pct(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

const known = (values: (number | null)[]) => values.filter((v): v is number => v !== null);

export interface Measured {
  page: string;
  url: string;
  status: number;
  bytes: number;
  queries: number | null;
  /** One client, sequential requests: server time (Server-Timing app) and SQL time, p50 and p95. */
  serverP50: number | null;
  serverP95: number | null;
  sqlP50: number | null;
  sqlP95: number | null;
  /** `concurrency` clients: requests per second, whole-answer p95, server and SQL p95. */
  rps: number;
  loadP95: number;
  loadServerP95: number | null;
  loadSqlP95: number | null;
  /**
   * `concurrency` people at work rather than in a queue: each waits a think time of about `thinkMs`
   * (half to one and a half times, at random) between two requests. Null when `thinkMs` is 0.
   */
  paced: { rps: number; p95: number; serverP95: number | null; sqlP95: number | null } | null;
  errors: number;
}

/**
 * The think time of the paced phase, ms (BENCH_THINK_MS, default 1000; 0 leaves the phase out): 20
 * clients that each wait about a second between two pages are twenty people clicking through the
 * screens briskly, where the closed loop before it (no wait) is a queue that keeps both cores busy.
 */
export const thinkMs = Number(process.env.BENCH_THINK_MS ?? 1000);
export const pacedSeconds = Number(process.env.BENCH_PACED_SECONDS ?? 8);

/** The paced phase as the benches' header line tells it ("" when it is left out). */
export function pacedLine(concurrency: number): string {
  return thinkMs > 0 && pacedSeconds > 0 ? `, then ${concurrency} clients each about ${thinkMs} ms apart for ${pacedSeconds} s (paced)` : "";
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * `concurrency` clients requesting `url` for `seconds`: back to back when `think` is 0 (a closed loop),
 * otherwise each starting at a random point of its first think time and waiting 0.5-1.5 x `think` ms
 * between two requests. Requests per second, p95 of the whole answer, of the server and of the SQL time.
 */
export async function clients(url: string, headers: Record<string, string>, concurrency: number, seconds: number, think: number) {
  const done: Sample[] = [];
  const started = performance.now();
  const end = started + seconds * 1000;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      if (think > 0) await sleep(Math.random() * think);
      while (performance.now() < end) {
        done.push(await time(url, headers));
        if (think > 0) await sleep(think * (0.5 + Math.random()));
      }
    }),
  );
  const server = known(done.map((s) => s.appMs));
  const sql = known(done.map((s) => s.sqlMs));
  return {
    rps: done.length / ((performance.now() - started) / 1000),
    p95: pct(
      done.map((s) => s.ms),
      95,
    ),
    serverP95: server.length ? pct(server, 95) : null,
    sqlP95: sql.length ? pct(sql, 95) : null,
    errors: done.filter((s) => s.status >= 400).length,
  };
}

export async function measure(
  page: string,
  url: string,
  headers: Record<string, string>,
  options: { requests: number; concurrency: number; seconds: number; thinkMs?: number },
): Promise<Measured> {
  for (let i = 0; i < 3; i++) await time(url, headers);
  const samples: Sample[] = [];
  for (let i = 0; i < options.requests; i++) samples.push(await time(url, headers));
  let errors = samples.filter((s) => s.status >= 400).length;
  const server = known(samples.map((s) => s.appMs));
  const sql = known(samples.map((s) => s.sqlMs));
  const queries = known(samples.map((s) => s.queries));

  const loaded = await clients(url, headers, options.concurrency, options.seconds, 0);
  errors += loaded.errors;

  let paced: Measured["paced"] = null;
  const think = options.thinkMs ?? thinkMs;
  if (think > 0 && pacedSeconds > 0) {
    const done = await clients(url, headers, options.concurrency, pacedSeconds, think);
    errors += done.errors;
    paced = { rps: done.rps, p95: done.p95, serverP95: done.serverP95, sqlP95: done.sqlP95 };
  }
  return {
    page,
    url,
    status: samples[samples.length - 1]?.status ?? 0,
    bytes: samples[samples.length - 1]?.bytes ?? 0,
    queries: queries.length ? pct(queries, 50) : null,
    serverP50: server.length ? pct(server, 50) : null,
    serverP95: server.length ? pct(server, 95) : null,
    sqlP50: sql.length ? pct(sql, 50) : null,
    sqlP95: sql.length ? pct(sql, 95) : null,
    rps: loaded.rps,
    loadP95: loaded.p95,
    loadServerP95: loaded.serverP95,
    loadSqlP95: loaded.sqlP95,
    paced,
    errors,
  };
}

export const fmt = (n: number | null, digits = 0) => (n === null ? "–" : n.toFixed(digits));
export const size = (bytes: number) => (bytes >= 10240 ? `${(bytes / 1024).toFixed(0)} KB` : `${(bytes / 1024).toFixed(1)} KB`);

export type Scenario = [name: string, url: string, headers: Record<string, string>];

/**
 * Measures each scenario (those whose name contains `only`, when set) against `base`, telling its
 * figures on stderr as it goes.
 */
export async function measureScenarios(base: string, scenarios: Scenario[], options: { requests: number; concurrency: number; seconds: number; only?: string }): Promise<Measured[]> {
  const results: Measured[] = [];
  for (const [name, url, headers] of scenarios) {
    if (options.only && !name.includes(options.only)) continue;
    const r = await measure(name, `${base}${url}`, headers, options);
    results.push(r);
    process.stderr.write(
      `${name}: ${r.status}, server p95 ${fmt(r.serverP95, 1)} ms, SQL p95 ${fmt(r.sqlP95, 1)} ms in ${fmt(r.queries)} queries, ${size(r.bytes)}; ` +
        `${fmt(r.rps, 1)} req/s with ${options.concurrency} clients (answer p95 ${fmt(r.loadP95)} ms, server p95 ${fmt(r.loadServerP95)} ms)` +
        (r.paced ? `; paced ${fmt(r.paced.rps, 1)} req/s (answer p95 ${fmt(r.paced.p95)} ms, server p95 ${fmt(r.paced.serverP95)} ms)` : "") +
        "\n",
    );
  }
  return results;
}

/** The Markdown table of docs/benchmarks.md: one row a URL, with the server/SQL ratio column when asked. */
export function measuredTable(results: Measured[], concurrency: number, options: { ratio?: boolean } = {}): string {
  const ratioHead = options.ratio ? " server/SQL (p95) |" : "";
  const paced = results.some((r) => r.paced);
  const pacedHead = paced ? ` paced: req/s, p95 ms answer, server / SQL (${concurrency} clients, ~${thinkMs} ms apart) |` : "";
  const head =
    `| URL | status | queries | size | server p50 / p95 ms (1 client) | SQL p50 / p95 ms |${ratioHead} req/s (${concurrency} clients) | p95 ms answer (${concurrency} clients) | p95 ms server / SQL (${concurrency} clients) |${pacedHead}\n` +
    `|---|---|---|---|---|---|${options.ratio ? "---|" : ""}---|---|---|${paced ? "---|" : ""}`;
  const rows = results.map((r) => {
    const ratio = r.serverP95 !== null && r.sqlP95 ? r.serverP95 / Math.max(r.sqlP95, 0.01) : null;
    return (
      `| ${r.page} | ${r.status}${r.errors ? ` (${r.errors} errors)` : ""} | ${fmt(r.queries)} | ${size(r.bytes)} | ${fmt(r.serverP50, 1)} / ${fmt(r.serverP95, 1)} | ` +
      `${fmt(r.sqlP50, 1)} / ${fmt(r.sqlP95, 1)} |${options.ratio ? ` ${fmt(ratio, 1)} |` : ""} ${fmt(r.rps, 1)} | ${fmt(r.loadP95)} | ${fmt(r.loadServerP95)} / ${fmt(r.loadSqlP95, 1)} |` +
      (paced ? (r.paced ? ` ${fmt(r.paced.rps, 1)}, ${fmt(r.paced.p95)}, ${fmt(r.paced.serverP95)} / ${fmt(r.paced.sqlP95, 1)} |` : " – |") : "")
    );
  });
  return [head, ...rows].join("\n");
}

/** The machine line that heads every table: cores, memory, Node and the load average while measuring. */
export function machineLine(): string {
  const mb = (n: number) => `${(n / 1024 / 1024).toFixed(0)} MB`;
  return `Machine: ${os.cpus().length} cores, ${mb(os.totalmem())}; Node ${process.version}; load average ${os.loadavg().map((l) => l.toFixed(1)).join(" ")}`;
}

/** Writes the results as JSON where BENCH_JSON names a file. */
export function writeJsonResults(results: unknown): void {
  if (process.env.BENCH_JSON) fs.writeFileSync(process.env.BENCH_JSON, JSON.stringify(results, null, 2));
}

/** Runs a bench's main function; a failure prints its error and exits 1. */
export function runBench(main: () => Promise<void>): void {
  main().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
