import { spawn } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";

/** Starts the built app on a free port with a fresh data folder; returns the teardown. */
export default async function globalSetup() {
  if (process.env.E2E_BASE_URL) return; // an already running server was given
  const port = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "caretaker-e2e-"));
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: "production",
    PORT: String(port),
    HOST: "127.0.0.1",
    APP_URL: `http://127.0.0.1:${port}`,
    DATA_DIR: dataDir,
    LOG_LEVEL: process.env.E2E_LOG_LEVEL ?? "warn",
    // Tokens live 330 s, so a session enters the 5-minute refresh window 30 s after login: the suite
    // exercises silent refresh on every longer test.
    JWT_TTL_SECONDS: process.env.E2E_JWT_TTL_SECONDS ?? "330",
    LOGIN_MAX_PER_ADDRESS: "10000",
    LOGIN_MAX_PER_ACCOUNT: "50",
    // Every test logs in from 127.0.0.1: the server's per-address request limits are raised too.
    RATE_LIMIT_MULTIPLIER: "1000",
  };
  delete env.DATABASE_URL; // the e2e suite runs on the embedded database with its demo data
  const server = spawn(process.execPath, ["build/server.js"], { env, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  server.stdout.on("data", (chunk) => (output += chunk));
  server.stderr.on("data", (chunk) => (output += chunk));

  const baseURL = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (server.exitCode !== null) throw new Error(`the server stopped during start:\n${output}`);
    try {
      const res = await fetch(`${baseURL}/readyz`);
      if (res.ok) break;
    } catch {
      /* not listening yet */
    }
    if (Date.now() > deadline) {
      server.kill("SIGKILL");
      throw new Error(`the server did not become ready in 120 s:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  process.env.E2E_BASE_URL = baseURL;
  process.env.E2E_DATA_DIR = dataDir;

  return async () => {
    server.kill("SIGTERM");
    await new Promise((r) => server.once("exit", r));
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
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
