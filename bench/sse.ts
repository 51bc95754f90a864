/**
 * Live notification streams (issue #14, decision 028): one production server (build/server.js) on
 * PostgreSQL holds BENCH_STREAMS open event streams (default 1,000: BENCH_USERS users, default 100,
 * with 10 each), and the bench measures
 * - the server's memory per stream: its resident memory (VmRSS) with the streams open minus before,
 *   after a pause; and the same after they are closed (freed at once?);
 * - the latency from commit to the client: the bench commits a notification row (a transaction of
 *   its own, as the dispatcher does), then publishes `notification.created` through a bus of its own
 *   (app/core/events.server.ts: NOTIFY, so it crosses processes like a second app instance), and
 *   times until the user's stream delivers it: BENCH_SAMPLES one-user notifications (default 200),
 *   then one notification to every user (all the streams at once);
 * - the latency from the change to the client, end to end: an administrator's REST call assigns an
 *   incident to a technician (PUT /api/incidents/{id}/assignee); the verb emits a change event in its
 *   transaction, and after the commit the dispatcher (decision 048) writes the notification and publishes
 *   it; the clock runs from sending the request (so it includes the change's own work: an upper bound
 *   of commit to client) until the technician's streams parse the notification. BENCH_SAMPLES
 *   assignments.
 *
 *   npm run build && DATABASE_URL=postgres://postgres@127.0.0.1:5432/caretaker_bench npm run bench:sse
 *
 * It migrates the database and adds an entity with its users (the server does not seed PostgreSQL).
 */
import { spawn } from "node:child_process";
import { randomBytes, randomUUID } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import { eq } from "drizzle-orm";
import { createPgEventBus } from "../app/core/events.server";
import { readEventStream } from "../app/lib/event-stream";
import { openDatabase, runMigrations } from "../app/db/client.server";
import { Role } from "../app/db/enums";
import { buildings, notificationDetails, notifications } from "../app/db/schema";
import { signAccessToken } from "../app/modules/auth/tokens.server";
import { createEntity, createIncident, createRoom, createUser, linkUserTo } from "../app/seed/factories";

const databaseUrl = process.env.DATABASE_URL;
const streamsWanted = Number(process.env.BENCH_STREAMS ?? 1000);
const userCount = Number(process.env.BENCH_USERS ?? 100);
const samples = Number(process.env.BENCH_SAMPLES ?? 200);
const port = Number(process.env.BENCH_PORT ?? 4291);

if (!databaseUrl) {
  console.error("bench:sse needs DATABASE_URL (a PostgreSQL database: the bench commits notifications beside the server)");
  process.exit(1);
}
if (!fs.existsSync("build/server.js")) {
  console.error("bench:sse needs the production build: npm run build");
  process.exit(1);
}

const pct = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
};
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const rssKb = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? NaN);

async function main() {
  const database = await openDatabase({ url: databaseUrl, poolMax: 4 });
  await runMigrations(database);
  const { db } = database;
  const entity = await createEntity(db, { name: `SSE bench ${Date.now()}` });
  const users: Awaited<ReturnType<typeof createUser>>[] = [];
  for (let i = 0; i < userCount; i++) users.push(await createUser(db, { entityId: entity.id, role: Role.TECHNICIAN, passwordHash: null }));
  // The end-to-end phase: an administrator assigns incidents of one room to the first ten technicians.
  const admin = await createUser(db, { entityId: entity.id, role: Role.ADMINISTRATOR, passwordHash: null });
  const room = await createRoom(db, { entityId: entity.id });
  const [{ facilityId }] = await db.select({ facilityId: buildings.facilityId }).from(buildings).where(eq(buildings.id, room.buildingId));
  const assignees = users.slice(0, Math.min(10, userCount));
  for (const u of assignees) await linkUserTo(db, { entityId: entity.id, userId: u.id, facilityId });
  const toAssign = [];
  for (let i = 0; i < samples; i++) toAssign.push(await createIncident(db, { entityId: entity.id, roomId: room.id }));
  const jwtSecret = randomBytes(32).toString("hex");
  const tokenOf = async (u: { id: number; role: Role }) => (await signAccessToken(jwtSecret, { userId: u.id, entityId: entity.id, role: u.role, sessionId: randomUUID() }, 3600)).token;
  const tokens = await Promise.all(users.map(tokenOf));
  const adminToken = await tokenOf(admin);

  const server = spawn(process.execPath, ["build/server.js"], {
    env: {
      ...process.env,
      NODE_ENV: "production",
      PORT: String(port),
      HOST: "127.0.0.1",
      APP_URL: `http://127.0.0.1:${port}`,
      DATABASE_URL: databaseUrl,
      SESSION_SECRET: randomBytes(32).toString("hex"),
      JWT_SECRET: jwtSecret,
      JOBS: "true",
      LOG_LEVEL: "warn",
      RATE_LIMIT_MULTIPLIER: "1000",
      LIVE_STREAMS_PER_USER: String(Math.ceil(streamsWanted / userCount)),
      DATA_DIR: fs.mkdtempSync(`${os.tmpdir()}/sse-bench-`),
    },
    stdio: ["ignore", "inherit", "inherit"],
  });
  const base = `http://127.0.0.1:${port}`;
  const bus = createPgEventBus({ url: databaseUrl! });
  try {
    for (const deadline = Date.now() + 60_000; ; ) {
      if (await fetch(`${base}/readyz`).then((r) => r.ok).catch(() => false)) break;
      if (Date.now() > deadline) throw new Error("the server did not start");
      await sleep(100);
    }
    await bus.ready;
    await sleep(1_000);
    const rssBefore = rssKb(server.pid!);

    // The streams: each resolves a waiter when its notification id arrives.
    const waiters = new Map<number, Array<{ userIndex: number; resolve: () => void }>>();
    const streamsOf = new Map<number, number>();
    const controllers: AbortController[] = [];
    /** End to end: the next notification any stream of a user parses (one waiter per user at a time). */
    const nextOf = new Map<number, () => void>();
    let countEvents = 0;
    const open = async (userIndex: number) => {
      const controller = new AbortController();
      controllers.push(controller);
      const res = await fetch(`${base}/resources/notifications/stream`, { headers: { authorization: `Bearer ${tokens[userIndex]}` }, signal: controller.signal });
      if (res.status !== 200) throw new Error(`stream: ${res.status}`);
      void readEventStream(res.body!, {
        onEvent(m) {
          if (m.event === "count") countEvents++;
          if (m.event !== "notification" || !m.id) return;
          const next = nextOf.get(userIndex);
          if (next) {
            nextOf.delete(userIndex);
            next();
          }
          const list = waiters.get(Number(m.id));
          const index = list?.findIndex((w) => w.userIndex === userIndex) ?? -1;
          if (list && index >= 0) list.splice(index, 1)[0].resolve();
        },
      }).catch(() => {
        /* closed by the bench */
      });
      streamsOf.set(userIndex, (streamsOf.get(userIndex) ?? 0) + 1);
    };
    const opening = performance.now();
    for (let i = 0; i < streamsWanted; i += 50) {
      await Promise.all(Array.from({ length: Math.min(50, streamsWanted - i) }, (_, k) => open((i + k) % userCount)));
    }
    const openMs = performance.now() - opening;
    for (const deadline = Date.now() + 30_000; countEvents < streamsWanted && Date.now() < deadline; ) await sleep(50);
    await sleep(2_000);
    const rssOpen = rssKb(server.pid!);

    /** Commits one notification for `recipients` (user indexes), publishes it, and times each stream's delivery. */
    const notify = async (recipients: number[]) => {
      const [details] = await db.insert(notificationDetails).values({ entityId: entity.id, type: 1, subject: "#1 Bench", message: {} }).returning();
      const rows = await db
        .insert(notifications)
        .values(recipients.map((r) => ({ entityId: entity.id, userId: users[r].id, detailsId: details.id })))
        .returning({ id: notifications.id, userId: notifications.userId });
      const committed = performance.now();
      const times: number[] = [];
      const arrivals = rows.flatMap((row) => {
        const userIndex = users.findIndex((u) => u.id === row.userId);
        return Array.from({ length: streamsOf.get(userIndex) ?? 0 }, () =>
          new Promise<void>((resolve) => {
            const list = waiters.get(row.id) ?? [];
            list.push({ userIndex, resolve: () => (times.push(performance.now() - committed), resolve()) });
            waiters.set(row.id, list);
          }),
        );
      });
      bus.publish({ entityId: entity.id, type: "notification.created", userIds: rows.map((r) => r.userId), data: { notificationIds: rows.map((r) => r.id), detailsId: details.id } });
      await Promise.race([Promise.all(arrivals), sleep(10_000)]);
      return { times, expected: arrivals.length };
    };

    const single: number[] = [];
    let lost = 0;
    for (let i = 0; i < samples; i++) {
      const { times, expected } = await notify([i % userCount]);
      single.push(...times);
      lost += expected - times.length;
      await sleep(20);
    }
    const fan = await notify(users.map((_, i) => i));
    lost += fan.expected - fan.times.length;

    // End to end: the change's request sent -> the assignee's first stream parses the notification.
    const endToEnd: number[] = [];
    let missed = 0;
    for (let i = 0; i < toAssign.length; i++) {
      const userIndex = i % assignees.length;
      const arrived = new Promise<number>((resolve) => nextOf.set(userIndex, () => resolve(performance.now())));
      const sent = performance.now();
      const res = await fetch(`${base}/api/incidents/${toAssign[i].id}/assignee`, {
        method: "PUT",
        headers: { authorization: `Bearer ${adminToken}`, "content-type": "application/json" },
        body: JSON.stringify({ assigneeId: assignees[userIndex].id }),
      });
      if (res.status !== 200) throw new Error(`assign: ${res.status} ${await res.text()}`);
      const at = await Promise.race([arrived, sleep(10_000).then(() => null)]);
      if (at === null) {
        missed++;
        nextOf.delete(userIndex);
      } else endToEnd.push(at - sent);
      await sleep(20);
    }

    for (const c of controllers) c.abort();
    await sleep(3_000);
    const rssClosed = rssKb(server.pid!);
    const perStreamKb = (rssOpen - rssBefore) / streamsWanted;

    const rows = [
      ["open streams", `${streamsWanted} (${userCount} users), opened in ${(openMs / 1000).toFixed(1)} s`],
      ["server memory (RSS) before / with the streams / after closing them", `${(rssBefore / 1024).toFixed(0)} / ${(rssOpen / 1024).toFixed(0)} / ${(rssClosed / 1024).toFixed(0)} MB`],
      ["memory per open stream", `${perStreamKb.toFixed(1)} KB`],
      [`commit to client, one user (${single.length} deliveries)`, `p50 ${pct(single, 50).toFixed(1)} ms, p95 ${pct(single, 95).toFixed(1)} ms, max ${Math.max(...single).toFixed(1)} ms`],
      [`commit to client, every user at once (${fan.times.length} streams)`, `p50 ${pct(fan.times, 50).toFixed(1)} ms, p95 ${pct(fan.times, 95).toFixed(1)} ms, last ${Math.max(...fan.times).toFixed(1)} ms`],
      ["deliveries lost", String(lost)],
      [`change to client, end to end (${endToEnd.length} REST assignments: request sent -> the assignee's stream parses the notification)`, `p50 ${pct(endToEnd, 50).toFixed(1)} ms, p95 ${pct(endToEnd, 95).toFixed(1)} ms, max ${Math.max(...endToEnd).toFixed(1)} ms`],
      ["assignments not delivered within 10 s", String(missed)],
    ];
    console.log(`\n| measure (${os.cpus().length} cores, Node ${process.version}) | value |\n|---|---|`);
    for (const [k, v] of rows) console.log(`| ${k} | ${v} |`);
  } finally {
    await bus.close();
    server.kill("SIGTERM");
    await new Promise((r) => server.once("exit", r));
    await database.close();
  }
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
