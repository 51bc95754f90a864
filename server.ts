/**
 * The production (and development) server: Express 4 with security headers, compression, static
 * files, request logging, health probes and the Remix handler. `--dev` serves through Vite.
 */
import { spawn } from "node:child_process";
import cluster from "node:cluster";
import { randomBytes } from "node:crypto";
import path from "node:path";
import type { ServerBuild } from "@remix-run/node";
import express from "express";
import helmet from "helmet";
import pino from "pino";
import { accessLog } from "./server/access-log";
import { dynamicCompression } from "./server/compression";
import { bodyLimitErrors, bodyLimits } from "./server/body-limit";
import { limitHeapGrowth } from "./server/heap";
import { knownFilesOnly, listFiles } from "./server/known-files";
import { pageCache } from "./server/page-cache";
import { precompressed } from "./server/precompressed";
import { createTiers, tieredRateLimits } from "./server/rate-limit";
import type { LimitStore } from "./app/lib/rate-limit.server";
import { refuse } from "./server/messages";
import { isDatabaseUnavailableError, RETRY_AFTER_SECONDS } from "./app/lib/errors";
import { sameOriginWrites } from "./server/same-origin";
import { serverTiming } from "./server/server-timing";
import type { ServerSettings } from "./server/settings";
import { apiCors } from "./server/cors";

const dev = process.argv.includes("--dev");
const log = pino({ level: process.env.LOG_LEVEL ?? "info", base: { app: "caretaker" } });

interface EntryExports {
  needsPreparation(): boolean;
  prepareData(progress?: (step: string) => void): Promise<void>;
  boot(): Promise<{
    config: ServerSettings & {
      PORT: number;
      HOST: string;
      ANALYTICS_SCRIPT_URL?: string;
      databaseMode: string;
      SERVER_TIMING?: boolean;
      REPORT_PAGE_CACHE: boolean;
      SHUTDOWN_GRACE_SECONDS: number;
    };
  }>;
  shutdown(): Promise<void>;
  readiness(): Promise<{ ok: boolean; detail?: string }>;
  requestContext(cookieHeader: string | null, method?: string): Promise<{ runtime: unknown; auth: unknown; setCookie: string | null }>;
  secureBuild(build: ServerBuild): ServerBuild;
  publicPageKey(req: { url: string; cookie: string | null; acceptLanguage: string | null; clientAddress: string }): Promise<{ key: string; entityId: number } | null>;
  keptStamp(): number;
  keptIsFresh(entityId: number, stamp: number): boolean;
  limitStore(): LimitStore | undefined;
}

async function main() {
  limitHeapGrowth();
  const vite = dev
    ? await import("vite").then((v) => v.createServer({ server: { middlewareMode: true } }))
    : undefined;
  const loadBuild = async (): Promise<ServerBuild> =>
    vite
      ? ((await vite.ssrLoadModule("virtual:remix/server-build")) as ServerBuild)
      : ((await import(path.resolve("build/server/index.js"))) as ServerBuild);

  const entry = async () => (await loadBuild()).entry.module as unknown as EntryExports;
  // Every loader and action behind the access gate, decided from the matched route's id.
  const securedBuild = async () => {
    const build = await loadBuild();
    return (build.entry.module as unknown as EntryExports).secureBuild(build);
  };
  if (process.argv.includes("--prepare-data")) {
    // One plain line per step for the person at the terminal (the log keeps its own lines).
    await (await entry()).prepareData((step) => process.stdout.write(`  ${step}…\n`));
    process.exit(0);
  }
  // A new embedded data folder is created (initdb, migrations, demo data) in a child process, whose
  // memory is returned when it exits; the server then opens the finished folder (decision 019).
  if (!dev && (await entry()).needsPreparation()) await prepareInChildProcess();
  // Configuration errors, migrations and the seed happen here, before the port opens.
  const { config } = await (await entry()).boot();

  const app = express();
  app.disable("x-powered-by");
  // Set once SIGTERM or SIGINT arrives: answers then close their connection (no keep-alive to a process
  // that is going) and the live streams end with their reconnect hint.
  const shuttingDown = new AbortController();
  app.use((_req, res, next) => {
    if (shuttingDown.signal.aborted) res.setHeader("Connection", "close");
    next();
  });
  // The client address: X-Forwarded-For is read only as far back as TRUST_PROXY proxies.
  app.set("trust proxy", config.TRUST_PROXY);

  // Request id and access log (no tokens or personal data in the logged address).
  app.use(accessLog(log));

  // Probes: the process is up; the database answers.
  app.get("/healthz", (_req, res) => {
    res.json({ status: "ok" });
  });
  app.get("/readyz", async (_req, res) => {
    const ready = await (await entry()).readiness();
    res.status(ready.ok ? 200 : 503).json(ready.ok ? { status: "ready" } : { status: "unavailable", detail: ready.detail });
  });

  // Benchmarks only (SERVER_TIMING=1): the request's SQL time and query count in a Server-Timing header.
  if (config.SERVER_TIMING) app.use(serverTiming());

  app.use((_req, res, next) => {
    res.locals.cspNonce = randomBytes(16).toString("base64");
    next();
  });
  const analyticsOrigin = config.ANALYTICS_SCRIPT_URL ? new URL(config.ANALYTICS_SCRIPT_URL).origin : null;
  app.use(
    helmet({
      // Chromium sends `Origin: null` on form posts under `no-referrer`, which Remix refuses.
      referrerPolicy: { policy: "strict-origin-when-cross-origin" },
      crossOriginEmbedderPolicy: false,
      strictTransportSecurity: config.APP_URL.startsWith("https://"),
      contentSecurityPolicy: {
        useDefaults: true,
        directives: {
          "default-src": ["'self'"],
          "script-src": [
            "'self'",
            (_req, res) => `'nonce-${(res as express.Response).locals.cspNonce}'`,
            ...(analyticsOrigin ? [analyticsOrigin] : []),
            ...(dev ? ["'unsafe-inline'"] : []),
          ],
          "style-src": ["'self'", "'unsafe-inline'"],
          "img-src": ["'self'", "data:", "blob:"],
          "connect-src": ["'self'", ...(dev ? ["ws:"] : []), ...(analyticsOrigin ? [analyticsOrigin] : [])],
          "form-action": ["'self'"],
          "frame-ancestors": ["'none'"],
          "upgrade-insecure-requests": config.APP_URL.startsWith("https://") ? [] : null,
        },
      },
    }),
  );
  // Dynamic responses: brotli or gzip by the `compression` middleware at the levels of decision 019, unless
  // a proxy in front compresses (COMPRESSION=false). Server-sent events are not compressed.
  if (config.COMPRESSION) app.use(dynamicCompression());

  if (vite) {
    app.use(vite.middlewares);
  } else {
    // Static files go out as their precompressed copies, compressed once at build time.
    app.use(precompressed("build/client"));
    // Hashed build assets never change: cache them for a year.
    // Only requests for files of the build reach the static handlers (no file-system lookup per page).
    const buildFiles = listFiles("build/client");
    app.use("/assets", knownFilesOnly(buildFiles, express.static("build/client/assets", { immutable: true, maxAge: "1y", index: false })));
    // The service worker is checked for a new version at every visit (decision 067).
    const noCache = (res: express.Response, file: string) => {
      if (path.basename(file).startsWith("sw.js")) res.setHeader("Cache-Control", "no-cache");
    };
    app.use(knownFilesOnly(buildFiles, express.static("build/client", { maxAge: "1h", index: false, setHeaders: noCache })));
  }

  // Cross-origin calls to /api from the configured origins only (decision 056); their preflights end here.
  app.use(apiCors({ API_CORS_ORIGINS: config.API_CORS_ORIGINS ?? [] }));
  // Tiered rate limits, cross-site writes refused, body sizes limited while read.
  app.use(tieredRateLimits(config, createTiers(config.RATE_LIMIT_MULTIPLIER, { store: (await entry()).limitStore() })));
  app.use(sameOriginWrites(config));
  app.use(bodyLimits(config));
  // The report page every sticker opens, served again from memory until its entity writes (decision 019).
  // Not in development, where the code itself changes; REPORT_PAGE_CACHE=false turns it off.
  if (!vite && config.REPORT_PAGE_CACHE) {
    app.use(pageCache(async () => {
      const e = await entry();
      return { keyOf: (req) => e.publicPageKey(req), stamp: () => e.keptStamp(), isFresh: (entityId, stamp) => e.keptIsFresh(entityId, stamp) };
    }, { paths: /^\/report\/[^/]+$/ }));
  }

  const { createRequestHandler } = await import("@remix-run/express");
  app.all(
    "*",
    createRequestHandler({
      build: vite ? securedBuild : await securedBuild(),
      mode: dev ? "development" : "production",
      // The session is resolved (and refreshed when near expiry) once per request, before any loader.
      getLoadContext: async (req, res) => {
        const { runtime, auth, setCookie } = await (await entry()).requestContext(req.get("cookie") ?? null, req.method);
        if (setCookie) res.append("Set-Cookie", setCookie);
        const connection = new AbortController();
        res.once("close", () => connection.abort());
        return {
          // A live stream ends when its client goes or when this process stops (the client reconnects).
          connectionClosed: AbortSignal.any([connection.signal, shuttingDown.signal]),
          cspNonce: res.locals.cspNonce,
          requestId: res.locals.requestId,
          clientAddress: req.ip ?? "unknown",
          auth,
          runtime,
        } as never;
      },
    }),
  );

  app.use(bodyLimitErrors);
  // The database not answering (restarting, stopped, a cut connection) where the app could not answer
  // for itself (the session read before any route): 503 with a retry hint, never a 500.
  app.use((error: unknown, req: express.Request, res: express.Response, next: express.NextFunction) => {
    if (res.headersSent || !isDatabaseUnavailableError(error)) return next(error);
    log.warn({ err: error instanceof Error ? error.message : String(error), path: req.path }, "database unavailable");
    res.setHeader("Retry-After", String(RETRY_AFTER_SECONDS));
    refuse(req, res, 503, "temporarilyUnavailable");
  });

  const server = app.listen(config.PORT, config.HOST, () => {
    const address = server.address();
    const port = typeof address === "object" && address ? address.port : config.PORT;
    log.info({ port, database: config.databaseMode }, "listening");
    const url = config.APP_URL.replace(/:\d+$/, `:${port}`);
    // Under WEB_CONCURRENCY the first process alone says where the app runs.
    if (process.env.CARETAKER_BANNER === "0") return;
    process.stdout.write(
      `\nCaretaker is running at ${url}\n` +
        `Database: ${config.databaseMode === "pglite" ? "embedded PGlite" : "PostgreSQL"}\n` +
        (config.databaseMode === "pglite"
          ? `Log in as admin@demo.test, manager@demo.test or technician@demo.test with password Demo-pass-1!\n\n`
          : "\n"),
    );
  });

  // An idle keep-alive connection is kept longer than the clients and proxies in front keep theirs (often
  // 60 s): with Node's 5 s, a client reusing a connection just as the server closes it gets a reset.
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;

  // SIGTERM (or SIGINT): stop accepting, let the requests in flight finish within the grace, end the
  // live streams with their reconnect hint, stop the workers after their current job, then close the
  // database pool and exit 0. Past the grace, the connections left are cut and the process exits 1.
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    const graceMs = config.SHUTDOWN_GRACE_SECONDS * 1000;
    log.info({ signal, graceMs }, "shutting down");
    const force = setTimeout(() => {
      log.error("shutting down: requests still running after the grace; cutting them");
      server.closeAllConnections();
      process.exit(1);
    }, graceMs + 5_000);
    force.unref();
    shuttingDown.abort();
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    // Keep-alive connections between requests are closed now and whenever one falls idle again.
    server.closeIdleConnections();
    const idleSweep = setInterval(() => server.closeIdleConnections(), 250);
    const graceOver = new Promise<"grace">((resolve) => setTimeout(() => resolve("grace"), graceMs).unref());
    if ((await Promise.race([closed, graceOver])) === "grace") {
      log.warn("shutting down: the grace is over; closing the connections left");
      server.closeAllConnections();
    }
    clearInterval(idleSweep);
    await (await entry()).shutdown();
    await vite?.close();
    process.exit(0);
  };
  process.on("SIGTERM", () => void stop("SIGTERM"));
  process.on("SIGINT", () => void stop("SIGINT"));
}

function prepareInChildProcess(): Promise<void> {
  const started = Date.now();
  log.info("creating the data folder");
  process.stdout.write("Creating the data folder (first start only; a minute or two):\n");
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...process.execArgv, process.argv[1], "--prepare-data"], { stdio: "inherit", env: process.env });
    child.once("error", reject);
    child.once("exit", (code) => {
      if (code === 0) {
        log.info({ ms: Date.now() - started }, "data folder created");
        resolve();
      } else reject(new Error(`preparing the data folder failed (exit code ${code})`));
    });
  });
}

/** The exit status of a process whose configuration is wrong (EX_CONFIG of sysexits.h). */
const CONFIG_ERROR_EXIT = 78;
const RESTART_DELAY_MS = 1_000;
const MAX_RESTART_DELAY_MS = 60_000;
const MAX_FAILED_STARTS = 10;
/** The primary's own wait for its processes after passing SIGTERM on (their grace, read from the environment). */
const SHUTDOWN_GRACE_MS = (Number(process.env.SHUTDOWN_GRACE_SECONDS) || 25) * 1000;

/**
 * WEB_CONCURRENCY=N (N > 1) serves with N processes on one port (node:cluster): the first process
 * starts them, replaces one that dies (at once when it had served, else after a back-off that doubles
 * up to a minute), and passes SIGTERM/SIGINT on. It never exits 0 unless it was told to stop: after
 * MAX_FAILED_STARTS processes in a row that died without serving, or a configuration error, it stops
 * with a failure status, so that a supervisor restarting on failure sees it. They share everything through
 * PostgreSQL (sessions, limits, jobs, live events; decision 052), so the embedded database, which one
 * process holds, refuses it.
 */
function processCount(): number {
  const raw = process.env.WEB_CONCURRENCY?.trim();
  if (!raw) return 1;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1 || n > 64) {
    process.stderr.write(`\nWEB_CONCURRENCY must be a whole number from 1 to 64 (got "${raw}")\n\n`);
    process.exit(1);
  }
  return n;
}

function runProcesses(count: number) {
  if (!process.env.DATABASE_URL) {
    process.stderr.write(
      `\nWEB_CONCURRENCY=${count} needs PostgreSQL (DATABASE_URL): the embedded database serves one process.\n\n`,
    );
    process.exit(1);
  }
  let stopping = false;
  // Processes that died one after the other without serving: the next start waits longer each time.
  let failuresInARow = 0;
  const served = new Set<number>();
  const start = (banner: boolean) => cluster.fork({ CARETAKER_BANNER: banner ? "1" : "0" });
  for (let i = 0; i < count; i++) start(i === 0);
  cluster.on("listening", (worker) => {
    served.add(worker.id);
    failuresInARow = 0;
  });
  const giveUp = (code: number) => {
    stopping = true;
    log.fatal({ failuresInARow }, "the app processes keep failing to start; stopping");
    for (const other of Object.values(cluster.workers ?? {})) other?.process.kill("SIGTERM");
    process.exitCode = code || 1;
  };
  cluster.on("exit", (worker, code, signal) => {
    if (stopping) {
      // Exit 0 only when every process stopped on a signal given to the primary and ended cleanly.
      if (code !== 0 && code !== null) process.exitCode = process.exitCode || code;
      if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(process.exitCode ?? 0);
      return;
    }
    // A configuration error will not mend by itself.
    if (code === CONFIG_ERROR_EXIT) return giveUp(code);
    const hadServed = served.delete(worker.id);
    if (!hadServed) failuresInARow++;
    if (failuresInARow > MAX_FAILED_STARTS) return giveUp(code ?? 1);
    const delay = hadServed ? RESTART_DELAY_MS : Math.min(RESTART_DELAY_MS * 2 ** failuresInARow, MAX_RESTART_DELAY_MS);
    log.error({ pid: worker.process.pid, code, signal, restartInMs: delay }, "an app process stopped; starting another");
    // Not unref'd: with every app process gone this timer is all that keeps the primary alive.
    setTimeout(() => {
      if (!stopping) start(false);
    }, delay);
  });
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal, processes: count }, "shutting down");
    for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill(signal);
    setTimeout(() => process.exit(1), SHUTDOWN_GRACE_MS + 10_000).unref();
  };
  process.on("SIGTERM", () => stop("SIGTERM"));
  process.on("SIGINT", () => stop("SIGINT"));
}

const count = processCount();
const serving = !process.argv.includes("--dev") && !process.argv.includes("--prepare-data");
if (cluster.isPrimary && serving && count > 1) runProcesses(count);
else main().catch((error) => {
  // A configuration error names the variables; print it plainly and stop.
  if (error && error.name === "ConfigError") {
    process.stderr.write(`\n${error.message}\n\n`);
    process.exit(CONFIG_ERROR_EXIT);
  }
  log.fatal({ err: error }, "could not start");
  process.exit(1);
});
