/**
 * Benchmarks (never timed assertions in tests). Starts the production build on the embedded database
 * (PGlite, demo data) and reports, as Markdown for docs/benchmarks.md:
 *   - start-up time on a fresh data folder and on an existing one, and resident memory at idle after each;
 *   - server CPU per page: the server process's CPU time (utime + stime from /proc) over sequential
 *     requests, divided by their number, with the response size, and the main thread's share of it (the
 *     rest is V8's compiler and garbage collector threads and libuv's pool);
 *   - throughput and latency with BENCH_CONCURRENCY clients per scenario;
 *   - memory under load: BENCH_LOAD_MINUTES (default 10) of mixed traffic, resident memory sampled every
 *     10 s, and its ratio to idle;
 *   - what compressing a page costs inside the server, through bench/compression.ts;
 *   - what the browser downloads and Lighthouse, through bench/js-weight.ts and bench/lighthouse.ts
 *     (skipped with BENCH_SKIP_BROWSER=1).
 * Run with `npm run build && npm run bench`. Options (environment): BENCH_SECONDS per throughput
 * scenario (default 8), BENCH_CONCURRENCY (default 8), BENCH_CPU_REQUESTS (default 200),
 * BENCH_LOAD_MINUTES (default 10; 0 skips), BENCH_WARMUP requests of a page before its CPU is measured
 * (default 200: V8 is still compiling the page's code through the first hundred or so, and that work runs
 * once in a server's life), DATABASE_URL to measure against PostgreSQL (demo data needed).
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import { cpuMs } from "./lib/proc";
import { DYNAMIC_COMPRESSION } from "../server/compression";

const seconds = Number(process.env.BENCH_SECONDS ?? 8);
const concurrency = Number(process.env.BENCH_CONCURRENCY ?? 8);
const cpuRequests = Number(process.env.BENCH_CPU_REQUESTS ?? 200);
const warmup = Number(process.env.BENCH_WARMUP ?? 200);
const loadMinutes = Number(process.env.BENCH_LOAD_MINUTES ?? 10);

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

const mb = (n: number) => `${(n / 1024 / 1024).toFixed(0)} MB`;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Server {
  child: ChildProcess;
  base: string;
  startupMs: number;
  stop(): Promise<void>;
}

async function startServer(dataDir: string): Promise<Server> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const started = Date.now();
  const child = spawn(process.execPath, ["build/server.js"], {
    env: {
      ...process.env,
      NODE_ENV: "production",
      PORT: String(port),
      HOST: "127.0.0.1",
      DATA_DIR: dataDir,
      APP_URL: base,
      LOG_LEVEL: "warn",
      LOGIN_MAX_PER_ADDRESS: "100000",
      LOGIN_MAX_PER_ACCOUNT: "100000",
      RATE_LIMIT_MULTIPLIER: "100000",
    },
    stdio: ["ignore", "ignore", "inherit"],
  });
  for (;;) {
    try {
      if ((await fetch(`${base}/readyz`)).ok) break;
    } catch {
      /* starting */
    }
    if (child.exitCode !== null) throw new Error("server exited while starting");
    if (Date.now() - started > 180_000) throw new Error("server did not start");
    await sleep(50);
  }
  return {
    child,
    base,
    startupMs: Date.now() - started,
    async stop() {
      child.kill("SIGTERM");
      await new Promise((r) => child.once("exit", r));
    },
  };
}

/** Idle memory: resident size once it has settled after start (sampled for 5 s, the last value). */
async function idleRss(pid: number): Promise<number> {
  let rss = 0;
  for (let i = 0; i < 10; i++) {
    await sleep(500);
    rss = rssOf(pid);
  }
  return rss;
}

async function signIn(base: string) {
  const login = await fetch(`${base}/login`, {
    method: "POST",
    headers: { origin: base },
    body: new URLSearchParams({ email: "manager@demo.test", password: "Demo-pass-1!" }),
    redirect: "manual",
  });
  const cookie = login.headers.getSetCookie().map((c) => c.split(";")[0]).join("; ");
  if (!cookie) throw new Error(`web login failed (${login.status})`);
  const apiLogin = await fetch(`${base}/api/authentication/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ username: "manager@demo.test", password: "Demo-pass-1!" }),
  });
  const { jwtToken } = (await apiLogin.json()) as { jwtToken: string };
  return { cookie, bearer: `Bearer ${jwtToken}` };
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });

/** One GET with the raw bytes as sent (no decompression on this side). */
function fetchOnce(url: string, headers: Record<string, string>): Promise<{ status: number; bytes: number; encoding: string }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers, agent }, (res) => {
        let bytes = 0;
        res.on("data", (chunk: Buffer) => (bytes += chunk.byteLength));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, bytes, encoding: String(res.headers["content-encoding"] ?? "none") }));
        res.on("error", reject);
      })
      .on("error", reject);
  });
}

/**
 * What compressing a page costs the server, measured directly: the page's HTML compressed the way the
 * server does (decision 019's levels) in one call in this process, CPU per page over 200 rounds.
 * `bench/compression.ts` (run below) measures it inside the server as well.
 */
async function compressionCost(url: string, headers: Record<string, string>) {
  const html = Buffer.from(await (await fetch(url, { headers: { ...headers, "accept-encoding": "identity" } })).arrayBuffer());
  const measure = (compress: (b: Buffer) => Buffer) => {
    for (let i = 0; i < 20; i++) compress(html);
    const before = process.cpuUsage();
    for (let i = 0; i < 200; i++) compress(html);
    const used = process.cpuUsage(before);
    return (used.user + used.system) / 1000 / 200;
  };
  const br = measure((b) => zlib.brotliCompressSync(b, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: DYNAMIC_COMPRESSION.brotliQuality } }));
  const gzip = measure((b) => zlib.gzipSync(b, { level: DYNAMIC_COMPRESSION.gzipLevel }));
  return { bytes: html.byteLength, br, gzip };
}

/** Server CPU per request: sequential requests, the server's CPU time over them. */
async function cpuPerRequest(pid: number, url: string, headers: Record<string, string>) {
  for (let i = 0; i < warmup; i++) await fetchOnce(url, headers);
  const before = cpuMs(pid);
  const started = performance.now();
  let last = { status: 0, bytes: 0, encoding: "none" };
  let errors = 0;
  for (let i = 0; i < cpuRequests; i++) {
    last = await fetchOnce(url, headers);
    if (last.status >= 400) errors++;
  }
  const wall = (performance.now() - started) / cpuRequests;
  const after = cpuMs(pid);
  const mainMs = (after.main - before.main) / cpuRequests;
  return { cpuMs: (after.all - before.all) / cpuRequests, mainMs, wallMs: wall, ...last, errors };
}

async function load(urls: [string, Record<string, string>][], durationMs: number, clients: number) {
  const latencies: number[] = [];
  let errors = 0;
  const end = Date.now() + durationMs;
  let next = 0;
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (Date.now() < end) {
        const [url, headers] = urls[next++ % urls.length];
        const started = performance.now();
        try {
          const r = await fetchOnce(url, headers);
          if (r.status >= 400) errors++;
        } catch {
          errors++;
        }
        latencies.push(performance.now() - started);
      }
    }),
  );
  latencies.sort((a, b) => a - b);
  const pct = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))] ?? 0;
  return { requests: latencies.length, rps: latencies.length / (durationMs / 1000), p50: pct(50), p95: pct(95), p99: pct(99), errors };
}

async function firstRoomId(base: string, bearer: string): Promise<number | null> {
  const res = await fetch(`${base}/api/facilities/rooms?size=1`, { headers: { authorization: bearer } });
  if (!res.ok) return null;
  const rooms = (await res.json()) as { id: number }[];
  return rooms[0]?.id ?? null;
}

async function main() {
  if (!fs.existsSync("build/server/index.js") || !fs.existsSync("build/server.js")) throw new Error("run `npm run build` first");
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "caretaker-bench-"));
  const out: string[] = [];
  const print = (line = "") => {
    out.push(line);
    console.log(line);
  };
  try {
    // Start-up and idle memory: a fresh data folder, then the same folder again.
    let server = await startServer(dataDir);
    const freshStartup = server.startupMs;
    const freshIdle = await idleRss(server.child.pid!);
    await server.stop();
    server = await startServer(dataDir);
    const existingStartup = server.startupMs;
    const idle = await idleRss(server.child.pid!);
    const pid = server.child.pid!;
    const { base } = server;

    const { cookie, bearer } = await signIn(base);
    const roomId = await firstRoomId(base, bearer);
    const gzip = { "accept-encoding": "gzip, deflate, br" };
    const signedIn = { cookie, ...gzip };
    const pages: [string, string, Record<string, string>][] = [
      ["GET /login (visitor page)", "/login", gzip],
      ["GET /facilities (signed-in list)", "/facilities", signedIn],
      ["GET /facilities, uncompressed", "/facilities", { cookie }],
      ["GET /facilities?tab=rooms (signed-in list)", "/facilities?tab=rooms", signedIn],
      ["GET /equipments (signed-in list)", "/equipments", signedIn],
      ["GET /settings (signed-in form)", "/settings", signedIn],
      ...(roomId ? ([[`GET /view-room/{id}`, `/view-room/${roomId}`, signedIn], [`GET /update-room/{id} (form)`, `/update-room/${roomId}`, signedIn]] as [string, string, Record<string, string>][]) : []),
      ["GET /facilities.data (client navigation)", "/facilities.data", signedIn],
      ["GET /api/facilities (REST, bearer)", "/api/facilities", { authorization: bearer, ...gzip }],
      ["GET /healthz", "/healthz", {}],
    ];
    const entryScript = /\/assets\/entry\.client[^"]+\.js/.exec(await (await fetch(`${base}/login`)).text())?.[0];
    if (entryScript) pages.push(["GET the client entry script (precompressed)", entryScript, gzip]);

    // A warm-up round over every page before any is measured: otherwise the first signed-in page
    // measured would also pay for compiling the code every signed-in page shares (the JIT's work, mostly
    // on V8's helper threads). Each page still gets its own warm-up below.
    for (const [, url, headers] of pages) for (let i = 0; i < warmup; i++) await fetchOnce(`${base}${url}`, headers);

    const cpuRows: string[] = [];
    for (const [name, url, headers] of pages) {
      const r = await cpuPerRequest(pid, `${base}${url}`, headers);
      cpuRows.push(`| ${name} | ${r.cpuMs.toFixed(1)} | ${r.mainMs.toFixed(1)} | ${r.wallMs.toFixed(1)} | ${(r.bytes / 1024).toFixed(1)} KB ${r.encoding} | ${r.errors} |`);
      process.stderr.write(`${name}: ${r.cpuMs.toFixed(1)} ms CPU\n`);
    }
    const compressor = await compressionCost(`${base}/facilities`, { cookie });
    const loadRows: string[] = [];
    for (const [name, url, headers] of pages) {
      const r = await load([[`${base}${url}`, headers]], seconds * 1000, concurrency);
      loadRows.push(`| ${name} | ${r.rps.toFixed(0)} | ${r.p50.toFixed(1)} | ${r.p95.toFixed(1)} | ${r.p99.toFixed(1)} | ${r.errors} |`);
    }

    // Memory under a long mixed load.
    const samples: { t: number; rss: number }[] = [];
    let loadResult: Awaited<ReturnType<typeof load>> | null = null;
    if (loadMinutes > 0) {
      const mixed = pages.filter(([name]) => !name.includes("healthz")).map(([, url, headers]) => [`${base}${url}`, headers] as [string, Record<string, string>]);
      const started = Date.now();
      const sampler = setInterval(() => samples.push({ t: (Date.now() - started) / 1000, rss: rssOf(pid) }), 10_000);
      loadResult = await load(mixed, loadMinutes * 60_000, concurrency);
      clearInterval(sampler);
      samples.push({ t: (Date.now() - started) / 1000, rss: rssOf(pid) });
    }
    const settled = loadMinutes > 0 ? await idleRss(pid) : 0;
    await server.stop();

    print(`Machine: ${os.cpus().length} cores, ${mb(os.totalmem())}; Node ${process.version}; database: ${process.env.DATABASE_URL ? "PostgreSQL" : "PGlite (embedded)"}; ${new Date().toISOString().slice(0, 10)}`);
    print();
    print(`| start-up and memory | value |\n|---|---|`);
    print(`| start-up to /readyz, fresh data folder (migrations + demo seed) | ${(freshStartup / 1000).toFixed(1)} s |`);
    print(`| start-up to /readyz, existing data folder | ${(existingStartup / 1000).toFixed(1)} s |`);
    print(`| resident memory at idle, after the fresh start | ${mb(freshIdle)} |`);
    print(`| **resident memory at idle, existing data folder** | **${mb(idle)}** |`);
    if (loadMinutes > 0 && loadResult) {
      const peak = Math.max(...samples.map((s) => s.rss));
      const last = samples.at(-1)!.rss;
      print(`| resident memory after ${loadMinutes} min of mixed load (${concurrency} clients, ${loadResult.requests} requests, ${loadResult.rps.toFixed(0)} req/s, ${loadResult.errors} errors) | ${mb(last)} (${(last / idle).toFixed(2)} × idle; peak ${mb(peak)}) |`);
      print(`| resident memory 5 s after the load | ${mb(settled)} |`);
    }
    print();
    print(`Server CPU per request (${cpuRequests} sequential requests after a warm-up round of ${warmup} requests of every page and ${warmup} more of the page; CPU of the server process from /proc):\n`);
    print(`| page | server CPU ms | of it main thread | wall ms | response | errors |\n|---|---|---|---|---|---|`);
    for (const row of cpuRows) print(row);
    print();
    print(
      `The compressor's cost, measured directly on /facilities (${(compressor.bytes / 1024).toFixed(1)} KB of HTML, 200 rounds in this process): ` +
        `brotli quality ${DYNAMIC_COMPRESSION.brotliQuality} (what browsers get) ${compressor.br.toFixed(2)} ms, gzip level ${DYNAMIC_COMPRESSION.gzipLevel} ${compressor.gzip.toFixed(2)} ms of CPU a page.`,
    );
    print();
    print(`Throughput, ${concurrency} concurrent clients on loopback, ${seconds} s per scenario:\n`);
    print(`| scenario | req/s | p50 ms | p95 ms | p99 ms | errors |\n|---|---|---|---|---|---|`);
    for (const row of loadRows) print(row);
    if (samples.length) {
      print();
      print(`Memory during the load (every minute): ${samples.filter((_, i) => i % 6 === 5 || i === samples.length - 1).map((s) => `${(s.t / 60).toFixed(0)} min ${mb(s.rss)}`).join(", ")}`);
    }
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }

  const scripts = ["bench/compression.ts", ...(process.env.BENCH_SKIP_BROWSER === "1" ? [] : ["bench/js-weight.ts", "bench/lighthouse.ts"])];
  for (const script of scripts) {
    if (!fs.existsSync(script)) continue;
    print();
    const result = spawnSync(process.execPath, ["--import", "tsx", script], { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] });
    for (const line of result.stdout.trimEnd().split("\n")) print(line);
  }
  fs.mkdirSync("test-results", { recursive: true });
  fs.writeFileSync("test-results/bench.md", out.join("\n") + "\n");
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
