import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { CLOCK_SET } from "../../app/lib/clock.server";

/**
 * The built app (build/server.js) as the end-to-end tests run it: a production server on a free port
 * of 127.0.0.1, on the embedded database in a data folder of its own. Global setup starts one on an
 * empty folder to create the demo data, then stops it; each Playwright worker starts its own on a copy
 * of that folder (tests/e2e/fixtures.ts), so workers never share data.
 */
export interface AppServer {
  url: string;
  dataDir: string;
  /** Moves the server's clock `offsetMs` ahead of the real time (0: back to it). */
  setClockOffset(offsetMs: number): Promise<void>;
  stop(): Promise<void>;
}

/** A server this process started: its process (tests/e2e/faults.spec.ts signals it) and exit status. */
export interface StartedServer extends AppServer {
  child: ChildProcess;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** What the server printed so far. */
  output(): string;
}

export async function startServer({
  dataDir,
  env = {},
  databaseUrl,
}: {
  dataDir: string;
  env?: Record<string, string>;
  /** A PostgreSQL database instead of the embedded one (tests/e2e/processes.spec.ts). */
  databaseUrl?: string;
}): Promise<StartedServer> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const serverEnv: Record<string, string | undefined> = {
    ...process.env,
    NODE_ENV: "production",
    PORT: String(port),
    HOST: "127.0.0.1",
    APP_URL: url,
    DATA_DIR: dataDir,
    LOG_LEVEL: process.env.E2E_LOG_LEVEL ?? "warn",
    // Tokens live 330 s, so a session enters the 5-minute refresh window 30 s after login: the tests
    // that run longer exercise the silent refresh too (auth.spec.ts moves the clock to test it).
    JWT_TTL_SECONDS: process.env.E2E_JWT_TTL_SECONDS ?? "330",
    LOGIN_MAX_PER_ADDRESS: "10000",
    LOGIN_MAX_PER_ACCOUNT: "50",
    // Every test signs in from 127.0.0.1: the server's per-address request limits are raised too.
    RATE_LIMIT_MULTIPLIER: "1000",
    // The API's per-person limit (decision 056): the specs of a worker share the demo accounts.
    API_RATE_LIMIT_PER_PERSON: "100000",
    // The tests move the server's clock through the IPC channel below (never through a request).
    TEST_CLOCK_IPC: "1",
    // Webhooks may reach the receivers the tests start on loopback, over plain http (decision 057).
    WEBHOOKS_ALLOW_PRIVATE: "1",
    ...env,
  };
  // The e2e suite runs on the embedded database with its demo data, unless a test asks for PostgreSQL.
  if (databaseUrl) serverEnv.DATABASE_URL = databaseUrl;
  else delete serverEnv.DATABASE_URL;
  const child = spawn(process.execPath, ["build/server.js"], { env: serverEnv as NodeJS.ProcessEnv, stdio: ["ignore", "pipe", "pipe", "ipc"] });
  let output = "";
  child.stdout!.on("data", (chunk) => (output += chunk));
  child.stderr!.on("data", (chunk) => (output += chunk));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once("exit", (code, signal) => resolve({ code, signal })),
  );

  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server stopped during start:\n${output}`);
    try {
      const res = await fetch(`${url}/readyz`);
      if (res.ok) break;
    } catch {
      /* not listening yet */
    }
    if (Date.now() > deadline) {
      child.kill("SIGKILL");
      throw new Error(`the server did not become ready in 120 s:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }

  return {
    url,
    dataDir,
    child,
    exited,
    output: () => output,
    setClockOffset: (offsetMs) => setClock(child, offsetMs),
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill("SIGTERM");
        await exited;
      }
    },
  };
}

function setClock(child: ChildProcess, offsetMs: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.off("message", onMessage);
      reject(new Error("the server did not confirm the clock change (is TEST_CLOCK_IPC on?)"));
    }, 5_000);
    const onMessage = (message: unknown) => {
      const m = message as { type?: string; offsetMs?: number };
      if (m?.type !== CLOCK_SET || m.offsetMs !== offsetMs) return;
      clearTimeout(timer);
      child.off("message", onMessage);
      resolve();
    };
    child.on("message", onMessage);
    child.send({ type: CLOCK_SET, offsetMs });
  });
}

/** A new empty folder under the system's temporary folder. */
export function tempDir(prefix: string): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const address = srv.address();
      const port = typeof address === "object" && address ? address.port : 0;
      srv.close(() => resolve(port));
    });
  });
}
