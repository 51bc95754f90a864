/**
 * The production build for the browser benchmarks (`bench/js-weight.ts`, `bench/lighthouse.ts`): started on a
 * free port with a fresh data folder (PGlite, demo data), waited for until /readyz answers, and signed in
 * through the web login form like a browser.
 */
import { spawn } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";

export const DEMO_PASSWORD = "Demo-pass-1!";
export const demoAccounts = { admin: "admin@demo.test", manager: "manager@demo.test", technician: "technician@demo.test" } as const;

/** Debian's `chromium`, or its `chromium-headless-shell` where only that is installed (as for the e2e tests). */
export const chromiumPath =
  process.env.CHROMIUM_PATH ??
  process.env.CHROME_PATH ??
  (fs.existsSync("/usr/bin/chromium") || !fs.existsSync("/usr/bin/chromium-headless-shell") ? "/usr/bin/chromium" : "/usr/bin/chromium-headless-shell");
/** The flags the e2e tests use for Debian's Chromium: no sandbox, GPU, QUIC or background traffic. */
export const chromiumFlags = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--disable-dev-shm-usage",
];

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const srv = net.createServer().listen(0, "127.0.0.1", () => {
      const port = (srv.address() as net.AddressInfo).port;
      srv.close(() => resolve(port));
    });
  });
}

export interface BenchServer {
  base: string;
  /** The server process's id (its CPU is read from /proc). */
  pid: number;
  /** The `cookie` header of a session signed in as `email` (through POST /login). */
  signIn(email: string): Promise<string>;
  stop(): Promise<void>;
}

/** `cwd`: the folder whose `build/` is started (the side-by-side bench starts two builds). */
export async function startServer(options: { cwd?: string; env?: Record<string, string> } = {}): Promise<BenchServer> {
  const cwd = options.cwd ?? process.cwd();
  if (!fs.existsSync(path.join(cwd, "build/server/index.js")) || !fs.existsSync(path.join(cwd, "build/server.js"))) throw new Error("run `npm run build` first");
  const port = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "caretaker-bench-web-"));
  const base = `http://127.0.0.1:${port}`;
  const secret = () => crypto.randomBytes(32).toString("hex");
  const { DATABASE_URL: _ignored, ...parentEnv } = process.env; // always the embedded database, with the demo data
  // BENCH_NODE_ARGS: extra Node flags for the server, e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof" to profile it.
  const nodeArgs = (process.env.BENCH_NODE_ARGS ?? "").split(" ").filter(Boolean);
  const server = spawn(process.execPath, [...nodeArgs, "build/server.js"], {
    env: {
      ...parentEnv,
      NODE_ENV: "production",
      PORT: String(port),
      HOST: "127.0.0.1",
      DATA_DIR: dataDir,
      SESSION_SECRET: secret(),
      JWT_SECRET: secret(),
      LOG_LEVEL: "warn",
      LOGIN_MAX_PER_ADDRESS: "100000",
      RATE_LIMIT_MULTIPLIER: "100000",
      ...options.env,
    },
    cwd,
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
      if (Date.now() - started > 120_000) throw new Error("server did not start");
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
      const res = await fetch(`${base}/login`, {
        method: "POST",
        body: new URLSearchParams({ email, password: DEMO_PASSWORD }),
        redirect: "manual",
      });
      if (res.status !== 302 && res.status !== 303) throw new Error(`sign-in as ${email} answered ${res.status}`);
      return res.headers.getSetCookie().map((c) => c.split(";")[0]).join("; ");
    },
    stop,
  };
}

/** The first path in the page at `url` matching `pattern` (e.g. a room's /update-room/{id} link in a list). */
export async function firstLink(base: string, url: string, cookie: string, pattern: RegExp): Promise<string | null> {
  const html = await (await fetch(`${base}${url}`, { headers: { cookie } })).text();
  return pattern.exec(html)?.[0] ?? null;
}
