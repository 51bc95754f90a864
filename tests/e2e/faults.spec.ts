import { execFileSync } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import net from "node:net";
import { expect, test } from "@playwright/test";
import ExcelJS from "exceljs";
import pg from "pg";
import { DEMO_PASSWORD } from "../../app/seed/seed.server";
import { type StartedServer, startServer, tempDir } from "./server";

/**
 * What databases and servers routinely do, done to the production build (issue 61):
 * - the database goes away under a write load (its connections cut, then refused) and comes back: the
 *   process lives on, answers 503 (never a 500 or a reset) meanwhile, serves again within seconds of
 *   the database's return, and every write it acknowledged is in the database;
 * - SIGTERM with 20 requests in flight: each gets its normal answer and the process exits 0;
 * - WEB_CONCURRENCY=2 with both app processes killed: two new ones serve, the primary never exits;
 * - a process killed (SIGKILL) during an import or a webhook delivery: the next process on the same data
 *   frees the job within a minute (the dead process's lease expires) and runs it again.
 * The database tests need the PostgreSQL server of `npm test` (E2E_POSTGRES_URL); the SIGTERM test runs
 * on the embedded database too. HTTP only: once, not per JavaScript setting.
 */
const postgres = process.env.E2E_POSTGRES_URL;
/** A production server on PostgreSQL must be given its secrets. */
const SECRETS = { SESSION_SECRET: "e2e-faults-secret-0123456789abcdef", JWT_SECRET: "e2e-faults-secret-0123456789abcdef-jwt" };

test.describe.configure({ mode: "serial" });
test.skip(({ javaScriptEnabled }) => !javaScriptEnabled, "HTTP only: once");

const withDatabase = (url: string, name: string) => {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
};

async function adminQuery(sql: string, database = "postgres") {
  const admin = new pg.Client({ connectionString: withDatabase(postgres!, database) });
  await admin.connect();
  try {
    return await admin.query(sql);
  } finally {
    await admin.end();
  }
}

/** A database with the demo data, made as an operator would (`npm run seed`). */
async function seededDatabase(label: string): Promise<string> {
  const name = `caretaker_e2e_${label}_${process.pid}_${Date.now()}`;
  await adminQuery(`create database ${name}`);
  execFileSync(process.execPath, ["--import", "tsx", "app/seed/seed-cli.ts"], {
    env: { ...process.env, DATABASE_URL: withDatabase(postgres!, name), NODE_ENV: "development", LOG_LEVEL: "warn" },
    stdio: "pipe",
  });
  return name;
}

/**
 * A TCP relay between the app and PostgreSQL that the test can cut: `cut()` ends every relayed
 * connection at once and refuses new ones (the database is gone), `restore()` relays again.
 */
async function cuttableRelay(target: URL) {
  let open = true;
  const pairs = new Set<net.Socket>();
  const server = net.createServer((client) => {
    if (!open) return client.destroy();
    const upstream = net.connect(Number(target.port || 5432), target.hostname);
    pairs.add(client).add(upstream);
    const end = () => {
      client.destroy();
      upstream.destroy();
      pairs.delete(client);
      pairs.delete(upstream);
    };
    client.on("error", end).on("close", end);
    upstream.on("error", end).on("close", end);
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as net.AddressInfo).port;
  return {
    port,
    cut() {
      open = false;
      for (const socket of pairs) socket.destroy();
      pairs.clear();
    },
    restore() {
      open = true;
    },
    close: () =>
      new Promise<void>((resolve) => {
        open = false;
        for (const socket of pairs) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

async function apiToken(baseUrl: string, email = "admin@demo.test"): Promise<string> {
  const res = await fetch(`${baseUrl}/api/authentication/login`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ username: email, password: DEMO_PASSWORD }),
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { jwtToken: string }).jwtToken;
}

/** The session cookie of a sign-in through the login form, as a browser without JavaScript gets it. */
async function sessionCookie(baseUrl: string, email = "admin@demo.test"): Promise<string> {
  const login = await fetch(`${baseUrl}/login`, {
    method: "POST",
    redirect: "manual",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: baseUrl },
    body: new URLSearchParams({ email, password: DEMO_PASSWORD }),
  });
  expect(login.status).toBe(302);
  return login.headers.getSetCookie().map((c) => c.split(";")[0]).join("; ");
}

interface Answer {
  status: number | "reset";
  name: string;
  at: number;
}

test("a database that goes away under a write load: 503 meanwhile, never a 500, and every acknowledged write kept", async () => {
  test.skip(!postgres, "needs the PostgreSQL server (E2E_POSTGRES_URL)");
  test.setTimeout(240_000);
  const database = await seededDatabase("faults");
  const relay = await cuttableRelay(new URL(postgres!));
  const relayed = new URL(withDatabase(postgres!, database));
  relayed.hostname = "127.0.0.1";
  relayed.port = String(relay.port);
  let app: StartedServer | undefined;
  try {
    app = await startServer({ dataDir: tempDir("caretaker-faults-"), databaseUrl: relayed.toString(), env: { ...SECRETS, DATABASE_POOL_MAX: "4" } });
    const token = await apiToken(app.url);
    const answers: Answer[] = [];
    let writing = true;
    const client = async (n: number) => {
      for (let i = 0; writing; i++) {
        const name = `Load ${n}-${i}`;
        try {
          const res = await fetch(`${app!.url}/api/facilities`, {
            method: "POST",
            headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json", "X-Language": "en" },
            body: JSON.stringify({ name }),
          });
          answers.push({ status: res.status, name, at: Date.now() });
          if (res.status === 503) {
            const body = (await res.json()) as { code: string; message: string };
            expect(body).toMatchObject({ code: "SERVICE_UNAVAILABLE", message: "The service is temporarily unavailable. Please try again in a moment." });
            expect(res.headers.get("retry-after")).toBe("5");
            await new Promise((r) => setTimeout(r, 100));
          } else await res.arrayBuffer();
        } catch {
          answers.push({ status: "reset", name, at: Date.now() });
        }
      }
    };
    const clients = Array.from({ length: 5 }, (_, n) => client(n));

    // Backends terminated by an administrator (as a restart does): 57P01 on every connection.
    await new Promise((r) => setTimeout(r, 1_500));
    await adminQuery(`select pg_terminate_backend(pid) from pg_stat_activity where datname = '${database}' and pid <> pg_backend_pid()`);
    await new Promise((r) => setTimeout(r, 1_500));

    // The database gone for 4 s: every connection cut, new ones refused.
    relay.cut();
    const cutAt = Date.now();
    await new Promise((r) => setTimeout(r, 1_000));
    const ready = await fetch(`${app.url}/readyz`);
    expect(ready.status).toBe(503);
    const page = await fetch(`${app.url}/login`, { headers: { Accept: "text/html", "Accept-Language": "fr-BE" } });
    expect([200, 503]).toContain(page.status);
    await new Promise((r) => setTimeout(r, 3_000));
    relay.restore();
    const restoredAt = Date.now();
    // Writing goes on until a write succeeds again (at most 20 s), then a little longer.
    const deadline = Date.now() + 20_000;
    while (!answers.some((a) => a.at > restoredAt && a.status === 201) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    await new Promise((r) => setTimeout(r, 500));
    writing = false;
    await Promise.all(clients);

    expect(app.child.exitCode, app.output()).toBeNull();
    const statuses = new Set(answers.map((a) => a.status));
    expect([...statuses].filter((s) => s !== 201 && s !== 503), "only 201 and 503").toEqual([]);
    expect(answers.filter((a) => a.at > cutAt && a.at < restoredAt && a.status === 503).length).toBeGreaterThan(0);
    const firstAfter = answers.filter((a) => a.at > restoredAt && a.status === 201).map((a) => a.at)[0];
    expect(firstAfter, "a write succeeded after the database came back").toBeDefined();
    expect(firstAfter! - restoredAt, "served again within 5 s of the database's return").toBeLessThanOrEqual(5_000);
    expect((await fetch(`${app.url}/readyz`)).status).toBe(200);

    const acknowledged = answers.filter((a) => a.status === 201).map((a) => a.name);
    const stored = await adminQuery(`select name from facilities where name like 'Load %'`, database);
    const names = new Set(stored.rows.map((r: { name: string }) => r.name));
    expect(acknowledged.filter((name) => !names.has(name)), "acknowledged writes missing").toEqual([]);
  } finally {
    await app?.stop();
    await relay.close();
    await adminQuery(`drop database if exists ${database} with (force)`).catch(() => undefined);
  }
});

/**
 * A POST whose body arrives in two halves `gapMs` apart: a request in flight for that long. It asks for
 * "100 Continue" and sends its body only once the server answers it, so `sent` means the server has read
 * the request's headers and is handling it (not a connection still waiting in the listen queue).
 */
function slowPost(url: string, token: string, body: string, gapMs: number): { sent: Promise<void>; answer: Promise<{ status: number; body: string }> } {
  let markSent: () => void = () => undefined;
  const sent = new Promise<void>((resolve) => (markSent = resolve));
  const answer = new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = http.request(url, {
      method: "POST",
      headers: {
        Authorization: `Bearer ${token}`,
        "Content-Type": "application/json",
        "Content-Length": Buffer.byteLength(body),
        "X-Language": "en",
        Expect: "100-continue",
      },
    });
    req.on("response", (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (chunk) => (text += chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body: text }));
    });
    req.on("error", reject);
    const half = Math.floor(body.length / 2);
    req.on("continue", () => {
      req.write(body.slice(0, half), () => markSent());
      setTimeout(() => req.end(body.slice(half)), gapMs);
    });
    req.flushHeaders();
  });
  return { sent, answer };
}

test("SIGTERM with 20 requests in flight: each gets its normal answer, then the process exits 0", async () => {
  test.setTimeout(180_000);
  const template = process.env.E2E_TEMPLATE_DIR!;
  const dataDir = tempDir("caretaker-sigterm-");
  fs.cpSync(template, dataDir, { recursive: true });
  const app = await startServer({ dataDir, env: { SHUTDOWN_GRACE_SECONDS: "20" } });
  try {
    const token = await apiToken(app.url);
    const requests = Array.from({ length: 20 }, (_, i) => slowPost(`${app.url}/api/facilities`, token, JSON.stringify({ name: `In flight ${i}` }), 1_500));
    // Every request is being handled: the server answered its "100 Continue" and has half its body.
    await Promise.all(requests.map((r) => r.sent));
    app.child.kill("SIGTERM");
    const answers = await Promise.all(requests.map((r) => r.answer));
    expect(answers.map((a) => a.status)).toEqual(Array(20).fill(201));
    expect(answers.map((a) => (JSON.parse(a.body) as { name: string }).name).sort()).toEqual(
      Array.from({ length: 20 }, (_, i) => `In flight ${i}`).sort(),
    );
    expect(await app.exited).toEqual({ code: 0, signal: null });
    // A new connection is refused once the process stopped accepting.
    await expect(fetch(`${app.url}/healthz`)).rejects.toThrow();
  } finally {
    await app.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
});

function childPids(parent: number): number[] {
  try {
    return execFileSync("pgrep", ["-P", String(parent)], { encoding: "utf8" })
      .split("\n")
      .filter(Boolean)
      .map(Number);
  } catch {
    return [];
  }
}

test("WEB_CONCURRENCY=2: both app processes killed, two new ones serve and the primary lives on", async () => {
  test.skip(!postgres, "needs the PostgreSQL server (E2E_POSTGRES_URL)");
  test.setTimeout(240_000);
  const database = await seededDatabase("workers");
  let app: StartedServer | undefined;
  try {
    app = await startServer({ dataDir: tempDir("caretaker-workers-"), databaseUrl: withDatabase(postgres!, database), env: { ...SECRETS, WEB_CONCURRENCY: "2" } });
    const primary = app.child.pid!;
    let first: number[] = [];
    await expect.poll(() => (first = childPids(primary)).length, { timeout: 60_000 }).toBe(2);
    for (const pid of first) process.kill(pid, "SIGKILL");
    await expect
      .poll(() => childPids(primary).filter((pid) => !first.includes(pid)).length, { timeout: 60_000, message: "two new app processes" })
      .toBe(2);
    await expect.poll(async () => (await fetch(`${app!.url}/readyz`).catch(() => null))?.status, { timeout: 90_000 }).toBe(200);
    expect(app.child.exitCode, app.output()).toBeNull();
    // Stopped on purpose, the primary passes SIGTERM on and ends with 0.
    app.child.kill("SIGTERM");
    expect(await app.exited).toEqual({ code: 0, signal: null });
  } finally {
    await app?.stop();
    await adminQuery(`drop database if exists ${database} with (force)`).catch(() => undefined);
  }
});

test("pages asked for while an import writes on the embedded database wait and answer, never a reset", async () => {
  test.setTimeout(240_000);
  const dataDir = tempDir("caretaker-import-pages-");
  fs.cpSync(process.env.E2E_TEMPLATE_DIR!, dataDir, { recursive: true });
  const app = await startServer({ dataDir });
  try {
    const token = await apiToken(app.url);
    const bearer = { Authorization: `Bearer ${token}` };
    const cookie = await sessionCookie(app.url);
    const form = await roomsImport(app.url, bearer, 10_000, "Imported");
    const started = await fetch(`${app.url}/api/imports`, { method: "POST", headers: bearer, body: form });
    expect(started.status).toBe(202);
    const job = (await started.json()) as { id: number };

    const answers: (number | string)[] = [];
    let importing = true;
    const reader = async (n: number) => {
      const pages = ["/facilities?tab=rooms", "/incidents", "/users"];
      for (let i = n; importing; i++) {
        try {
          const res = await fetch(`${app.url}${pages[i % pages.length]}`, { headers: { cookie } });
          await res.arrayBuffer();
          answers.push(res.status);
        } catch (error) {
          answers.push(`failed: ${error instanceof Error ? ((error.cause as Error | undefined)?.message ?? error.message) : String(error)}`);
        }
      }
    };
    const readers = Array.from({ length: 6 }, (_, n) => reader(n));
    let status = "";
    const deadline = Date.now() + 180_000;
    while (Date.now() < deadline) {
      status = ((await (await fetch(`${app.url}/api/imports/${job.id}`, { headers: bearer })).json()) as { status: string | number }).status.toString();
      if (!["0", "1", "queued", "running"].includes(status.toLowerCase())) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    importing = false;
    await Promise.all(readers);
    expect(answers.length).toBeGreaterThan(6);
    expect(answers.filter((a) => a !== 200)).toEqual([]);
    expect(app.child.exitCode, app.output()).toBeNull();
  } finally {
    await app.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
});

/** A rooms import form of `lines` lines on the demo data's buildings and room types. */
async function roomsImport(baseUrl: string, bearer: Record<string, string>, lines: number, prefix: string): Promise<FormData> {
  const buildings = (await (await fetch(`${baseUrl}/api/facilities/buildings?size=100`, { headers: bearer })).json()) as { name: string; facilityName?: string }[];
  const types = (await (await fetch(`${baseUrl}/api/facilities/rooms/roomtype?size=100`, { headers: bearer })).json()) as { roomTypeName?: string; name?: string }[];
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet("Data");
  sheet.addRow(["Name *", "Building *", "Room type *", "Floor *", "Description", "Facility"]);
  for (let i = 0; i < lines; i++) {
    const building = buildings[i % buildings.length];
    sheet.addRow([`${prefix} ${i + 1}`, building.name, types[i % types.length].roomTypeName ?? types[i % types.length].name, String(i % 7), "", building.facilityName ?? ""]);
  }
  const form = new FormData();
  form.set("type", "rooms");
  form.set("file", new Blob([await book.xlsx.writeBuffer()]), "rooms.xlsx");
  return form;
}

async function importStatus(baseUrl: string, bearer: Record<string, string>, id: number): Promise<number> {
  const view = (await (await fetch(`${baseUrl}/api/imports/${id}`, { headers: bearer })).json()) as { status: number };
  return Number(view.status);
}

/** DataJobStatus: QUEUED 0, RUNNING 1; then finished (succeeded or failed). */
const QUEUED_OR_RUNNING = [0, 1];

test("a process killed during an import: the next process frees the job within a minute, and a new import is accepted", async () => {
  test.setTimeout(300_000);
  const dataDir = tempDir("caretaker-killed-import-");
  fs.cpSync(process.env.E2E_TEMPLATE_DIR!, dataDir, { recursive: true });
  let app = await startServer({ dataDir });
  try {
    const bearer = { Authorization: `Bearer ${await apiToken(app.url)}` };
    const started = await fetch(`${app.url}/api/imports`, { method: "POST", headers: bearer, body: await roomsImport(app.url, bearer, 10_000, "Killed") });
    expect(started.status).toBe(202);
    const job = ((await started.json()) as { id: number }).id;
    await expect.poll(() => importStatus(app.url, bearer, job), { timeout: 60_000, intervals: [50] }).toBe(1);
    app.child.kill("SIGKILL");
    await app.exited;

    app = await startServer({ dataDir });
    const restarted = Date.now();
    const bearer2 = { Authorization: `Bearer ${await apiToken(app.url)}` };
    // While the dead process's claim holds, a new import is refused as "in progress".
    const refused = await fetch(`${app.url}/api/imports`, { method: "POST", headers: bearer2, body: await roomsImport(app.url, bearer2, 10, "Second") });
    expect(refused.status).toBe(409);
    await expect
      .poll(async () => QUEUED_OR_RUNNING.includes(await importStatus(app.url, bearer2, job)), {
        timeout: 90_000,
        intervals: [500],
        message: "the killed import is run again or failed",
      })
      .toBe(false);
    expect(Date.now() - restarted, "freed within a minute of the new process").toBeLessThanOrEqual(60_000);
    const again = await fetch(`${app.url}/api/imports`, { method: "POST", headers: bearer2, body: await roomsImport(app.url, bearer2, 10, "Second") });
    expect(again.status).toBe(202);
    expect(app.child.exitCode, app.output()).toBeNull();
  } finally {
    await app.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
});

/** A webhook receiver on loopback that holds every request it gets until the test answers it. */
async function holdingReceiver() {
  const requests: { deliveryId: string; bodyId: string; answer: (status: number) => void }[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as { id: string };
      requests.push({
        deliveryId: String(req.headers["caretaker-delivery"]),
        bodyId: body.id,
        answer: (status) => res.writeHead(status, { "Content-Type": "text/plain" }).end("received by the test"),
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as net.AddressInfo).port}/hooks`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The deliveries listed on an endpoint's page, each row as its text. */
async function deliveryRows(baseUrl: string, cookie: string, endpointId: number): Promise<string[]> {
  const res = await fetch(`${baseUrl}/administration/webhooks/${endpointId}`, { headers: { cookie, "Accept-Language": "en" } });
  expect(res.status).toBe(200);
  const html = await res.text();
  return html
    .split('data-testid="webhook-delivery"')
    .slice(1)
    .map((row) =>
      row
        .split("</tr>")[0]
        .replaceAll("<!-- -->", "")
        .replace(/<[^>]*>/g, " ")
        .replace(/\s+/g, " ")
        .trim(),
    );
}

test("a process killed during a webhook delivery: the next process sends the same delivery again within a minute, delivered once", async () => {
  test.setTimeout(180_000);
  const dataDir = tempDir("caretaker-killed-webhook-");
  fs.cpSync(process.env.E2E_TEMPLATE_DIR!, dataDir, { recursive: true });
  const receiver = await holdingReceiver();
  let app = await startServer({ dataDir });
  try {
    // An administrator registers a webhook for status changes through its form (there is no API for it).
    const cookie = await sessionCookie(app.url);
    const created = await fetch(`${app.url}/administration/webhooks`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: app.url, cookie, "Accept-Language": "en" },
      body: new URLSearchParams({ intent: "create", name: "Killed delivery", url: receiver.url, events: "incident.status-changed" }),
    });
    expect(created.status).toBe(200);
    const endpointId = Number(/href="\/administration\/webhooks\/(\d+)"/.exec(await created.text())?.[1]);
    expect(endpointId, "the new webhook's page is linked").toBeGreaterThan(0);

    // An incident's status changes; the receiver gets the delivery and holds it: the attempt is in flight.
    const bearer = { Authorization: `Bearer ${await apiToken(app.url)}`, "Content-Type": "application/json" };
    const incidents = (await (await fetch(`${app.url}/api/incidents`, { headers: bearer })).json()) as { id: number; status: number }[];
    const incident = incidents.find((i) => i.status === 0 || i.status === 1);
    expect(incident, "a pending or in-progress demo incident").toBeTruthy();
    const changed = await fetch(`${app.url}/api/incidents/${incident!.id}/status`, {
      method: "PUT",
      headers: bearer,
      body: JSON.stringify({ status: incident!.status === 0 ? 1 : 0 }),
    });
    expect(changed.status).toBe(200);
    await expect.poll(() => receiver.requests.length, { timeout: 30_000, intervals: [50] }).toBe(1);
    const [first] = receiver.requests;
    expect(first.deliveryId).toBe(first.bodyId);

    app.child.kill("SIGKILL");
    await app.exited;
    app = await startServer({ dataDir });
    const restarted = Date.now();
    const cookie2 = await sessionCookie(app.url);

    // The delivery is not lost: listed, still to be made.
    const kept = await deliveryRows(app.url, cookie2, endpointId);
    expect(kept).toHaveLength(1);
    expect(kept[0]).toContain(first.deliveryId);
    expect(kept[0]).toContain("Pending");

    // The dead process's claim expires and the same delivery is sent again (decision 057: a receiver
    // de-duplicates by id), within a minute of the new process.
    await expect
      .poll(() => receiver.requests.length, { timeout: 60_000, intervals: [200], message: "the killed delivery is sent again" })
      .toBe(2);
    expect(Date.now() - restarted, "sent again within a minute of the new process").toBeLessThanOrEqual(60_000);
    const second = receiver.requests[1];
    expect(second.deliveryId).toBe(first.deliveryId);
    expect(second.bodyId).toBe(first.bodyId);

    // Answered 200 this time: the one delivery is recorded as delivered, with that answer.
    second.answer(200);
    await expect
      .poll(async () => (await deliveryRows(app.url, cookie2, endpointId)).map((row) => /\b(Pending|Delivered|Failed)\b/.exec(row)?.[1]), {
        timeout: 30_000,
        intervals: [200],
      })
      .toEqual(["Delivered"]);
    const [done] = await deliveryRows(app.url, cookie2, endpointId);
    expect(done).toContain(first.deliveryId);
    expect(done).toContain("HTTP 200");
    expect(done).toContain("received by the test");
    expect(receiver.requests).toHaveLength(2);
    expect(app.child.exitCode, app.output()).toBeNull();
  } finally {
    await app.stop();
    await receiver.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
});
