import { execFileSync } from "node:child_process";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { expect, request as playwrightRequest, test } from "@playwright/test";
import type { EventSourceMessage } from "eventsource-parser";
import pg from "pg";
import { readEventStream } from "../../app/lib/event-stream";
import { DEMO_PASSWORD } from "../../app/seed/seed.server";
import { type AppServer, startServer, tempDir } from "./server";

/**
 * Two app processes on one PostgreSQL database behind a round-robin proxy (written here), as a load
 * balancer without sticky sessions would run them (decision 052): a person stays signed in while every
 * request refreshes the session on either process, two requests in flight across a refresh included;
 * the request limits count across both; a change made through one is served by the other at once;
 * a live notification written by one reaches a stream held by the other.
 *
 * It needs the PostgreSQL server of `npm test` (E2E_POSTGRES_URL, set from DATABASE_URL); without it
 * the test is skipped. It makes its own database and removes it.
 */
const postgres = process.env.E2E_POSTGRES_URL;
const SECRET = "e2e-processes-secret-0123456789abcdef";

test.describe.configure({ mode: "serial" });
test.skip(!postgres, "needs the PostgreSQL server (E2E_POSTGRES_URL)");
test.skip(({ javaScriptEnabled }) => !javaScriptEnabled, "HTTP only: once");

const withDatabase = (url: string, name: string) => {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
};

interface Proxy {
  url: string;
  /** Which process answered each request, in order ("a" or "b"). */
  answered: string[];
  close(): Promise<void>;
}

/**
 * Sends each request to the next process in turn. The client address the app sees is the
 * `X-Test-Client` header's (the app trusts one proxy), so that tests count as different clients.
 */
async function roundRobin(): Promise<Proxy & { route(targets: Record<string, string>): void }> {
  let targets: [string, URL][] = [];
  let next = 0;
  const answered: string[] = [];
  const server = http.createServer((req, res) => {
    const [name, target] = targets[next++ % targets.length];
    answered.push(name);
    const { "x-test-client": testClient, ...rest } = req.headers;
    const headers = { ...rest, "x-forwarded-for": String(testClient ?? "198.51.100.10") };
    const upstream = http.request({ host: target.hostname, port: target.port, method: req.method, path: req.url, headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on("error", () => {
      if (!res.headersSent) res.writeHead(502);
      res.end();
    });
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    answered,
    route(next: Record<string, string>) {
      targets = Object.entries(next).map(([name, url]) => [name, new URL(url)]);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

let database = "";
let proxy: Awaited<ReturnType<typeof roundRobin>>;
let a: AppServer;
let b: AppServer;

test.beforeAll(async () => {
  test.setTimeout(180_000);
  database = `caretaker_e2e_processes_${process.pid}_${Date.now()}`;
  const admin = new pg.Client({ connectionString: withDatabase(postgres!, "postgres") });
  await admin.connect();
  await admin.query(`create database ${database}`);
  await admin.end();
  const url = withDatabase(postgres!, database);
  // The demo data, made the way an operator would: `npm run seed` against the database.
  execFileSync(process.execPath, ["--import", "tsx", "app/seed/seed-cli.ts"], {
    env: { ...process.env, DATABASE_URL: url, NODE_ENV: "development", LOG_LEVEL: "warn" },
    stdio: "pipe",
  });
  proxy = await roundRobin();
  const shared = tempDir("caretaker-processes-");
  const env = {
    APP_URL: proxy.url,
    SESSION_SECRET: SECRET,
    JWT_SECRET: `${SECRET}-jwt`,
    // Every access token is inside the 5-minute refresh window: every request with a session refreshes it.
    JWT_TTL_SECONDS: "120",
    TRUST_PROXY: "1",
    // The real limits (10 authentication posts a minute per client), as one process applies them.
    RATE_LIMIT_MULTIPLIER: "1",
    LOGIN_MAX_PER_ADDRESS: "10000",
  };
  [a, b] = await Promise.all([
    startServer({ dataDir: path.join(shared), databaseUrl: url, env }),
    startServer({ dataDir: path.join(shared), databaseUrl: url, env }),
  ]);
  proxy.route({ a: a.url, b: b.url });
});

test.afterAll(async () => {
  await proxy?.close();
  await Promise.all([a?.stop(), b?.stop()]);
  if (database) {
    const admin = new pg.Client({ connectionString: withDatabase(postgres!, "postgres") });
    await admin.connect();
    await admin.query(`drop database if exists ${database} with (force)`);
    await admin.end();
  }
});

test("a person stays signed in while each request refreshes the session on either process", async () => {
  test.setTimeout(120_000);
  const client = { "X-Test-Client": "198.51.100.21" };
  const web = await playwrightRequest.newContext({ baseURL: proxy.url, maxRedirects: 0, extraHTTPHeaders: client });
  try {
    const login = await web.post("/login", { form: { email: "manager@demo.test", password: DEMO_PASSWORD }, headers: { Origin: proxy.url } });
    expect(login.status()).toBe(302);
    const start = proxy.answered.length;
    let refreshed = 0;
    for (let i = 0; i < 60; i++) {
      const page = await web.get("/settings");
      expect(page.status(), `request ${i} on ${proxy.answered.at(-1)}`).toBe(200);
      if (page.headers()["set-cookie"]?.includes("__session=")) refreshed++;
      // Every fifth round, two requests leave with the same cookie and both refresh it, on both processes.
      if (i % 5 === 4) {
        const pair = await Promise.all([web.get("/notifications"), web.get("/settings")]);
        for (const res of pair) expect(res.status(), `a request in flight across a refresh (${i})`).toBe(200);
      }
    }
    const answered = proxy.answered.slice(start);
    expect(answered).toContain("a");
    expect(answered).toContain("b");
    expect(refreshed).toBeGreaterThanOrEqual(60);
    // Still signed in at the end.
    expect((await web.get("/settings")).status()).toBe(200);
  } finally {
    await web.dispose();
  }
});

test("the request limits count across both processes", async () => {
  const client = { "X-Test-Client": "198.51.100.22" };
  const api = await playwrightRequest.newContext({ baseURL: proxy.url, extraHTTPHeaders: client });
  try {
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) {
      const res = await api.post("/api/authentication/login", { data: { username: "nobody@demo.test", password: "wrong" } });
      statuses.push(res.status());
    }
    // Ten authentication posts a minute from one client, whichever process answers: the 11th is refused.
    expect(statuses.slice(0, 10).every((s) => s !== 429)).toBe(true);
    expect(statuses.slice(10)).toEqual([429, 429]);
  } finally {
    await api.dispose();
  }
});

test("a change made through one process is served by the other within a second", async () => {
  const api = await playwrightRequest.newContext({ baseURL: a.url, extraHTTPHeaders: { "X-Test-Client": "198.51.100.23" } });
  const visitor = await playwrightRequest.newContext({ baseURL: b.url });
  try {
    const login = await api.post("/api/authentication/login", { data: { username: "admin@demo.test", password: DEMO_PASSWORD } });
    expect(login.status()).toBe(200);
    const { jwtToken, entityId } = (await login.json()) as { jwtToken: string; entityId: number };
    const headers = { Authorization: `Bearer ${jwtToken}` };
    const entity = (await (await api.get(`/api/entities/${entityId}`, { headers })).json()) as Record<string, unknown> & {
      greetingsMessages: { language: number; message: string }[];
    };
    const db = new pg.Client({ connectionString: withDatabase(postgres!, database) });
    await db.connect();
    const { rows } = await db.query<{ code: string }>(
      `select ri.code from report_identifiers ri join rooms r on r.id = ri.room_id where r.entity_id = $1 and r.archived_at is null limit 1`,
      [entityId],
    );
    await db.end();
    const page = `/report/${rows[0].code}`;
    // The other process serves the page, and keeps it.
    expect((await visitor.get(page)).status()).toBe(200);
    expect((await visitor.get(page)).status()).toBe(200);

    const greeting = `Welcome from process A ${Date.now()}`;
    const { id: _id, logo, updatedAt: _updatedAt, ...fields } = entity;
    const saved = await api.put(`/api/entities/${entityId}`, {
      headers,
      data: { ...fields, greetingsMessages: entity.greetingsMessages.map((g, i) => (i === 0 ? { ...g, message: greeting } : g)), updateLogo: logo === null, newLogo: null },
    });
    expect(saved.status(), await saved.text()).toBe(200);
    // The other process keeps its answers for a minute (ttlMs 60_000): the new greeting shows there before
    // that only because the save's notice made it drop them. The wait bounds a hung bus; it measures nothing.
    await expect.poll(async () => (await (await visitor.get(page)).text()).includes(greeting), { timeout: 15_000, intervals: [50] }).toBe(true);
  } finally {
    await api.dispose();
    await visitor.dispose();
  }
});

test("a live notification written by one process reaches a stream held by the other", async () => {
  const api = await playwrightRequest.newContext({ baseURL: a.url, extraHTTPHeaders: { "X-Test-Client": "198.51.100.24" } });
  const aborted = new AbortController();
  try {
    const login = async (username: string) => {
      const res = await api.post("/api/authentication/login", { data: { username, password: DEMO_PASSWORD } });
      expect(res.status()).toBe(200);
      const body = (await res.json()) as { jwtToken: string; userId: number };
      return { headers: { Authorization: `Bearer ${body.jwtToken}` }, userId: body.userId };
    };
    const manager = await login("manager@demo.test");
    const stream = await fetch(`${b.url}/resources/notifications/stream`, { headers: manager.headers, signal: aborted.signal });
    expect(stream.status).toBe(200);
    const messages: EventSourceMessage[] = [];
    readEventStream(stream.body!, { onEvent: (m) => messages.push(m) }).catch(() => undefined);
    await expect.poll(() => messages.some((m) => m.event === "count")).toBe(true);

    // An incident the manager reaches is assigned to them by the administrator, through process A.
    const admin = await login("admin@demo.test");
    const [incident] = (await (await api.get("/api/incidents?size=1", { headers: manager.headers })).json()) as { id: number }[];
    await api.put(`/api/incidents/${incident.id}/assignee`, { headers: admin.headers, data: { assigneeId: null } });
    const assigned = await api.put(`/api/incidents/${incident.id}/assignee`, { headers: admin.headers, data: { assigneeId: manager.userId } });
    expect(assigned.status(), await assigned.text()).toBe(200);
    await expect.poll(() => messages.some((m) => m.event === "notification"), { timeout: 5_000 }).toBe(true);
  } finally {
    aborted.abort();
    await api.dispose();
  }
});
