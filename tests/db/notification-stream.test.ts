import http from "node:http";
import type { AddressInfo } from "node:net";
import v8 from "node:v8";
import vm from "node:vm";
import type { EventSourceMessage } from "eventsource-parser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ClosableEventBus, createEventBus, createPgEventBus, type EventBus } from "~/core/events.server";
import { type Database, openDatabase } from "~/db/client.server";
import { Role, UserStatus } from "~/db/enums";
import type { User } from "~/db/schema";
import { notificationEventStream, openStreamCount } from "~/http/notification-stream.server";
import { readEventStream } from "~/lib/event-stream";
import { signAccessToken } from "~/modules/auth/tokens.server";
import { liveReads } from "~/modules/notifications/live.server";
import type { Runtime } from "~/runtime.server";
import { loader } from "~/routes/resources/notifications.stream";
import { createEntity, createNotification, createUser } from "#tests/factories";
import { createTestDatabase } from "#tests/test-db";
import { createTestServices } from "#tests/test-context";
import { setUserStatus } from "~/modules/users/management.server";

/**
 * The live notification stream (decision 028): its replay logic against the database (what a client
 * missed after its Last-Event-ID, exactly once, then the live ones), and the route served over real
 * HTTP connections: connect, receive, drop the connection, reconnect with the last event id and
 * receive what was missed exactly once, with a session cookie absent and a bearer token; on
 * PostgreSQL the same across two app instances (each with its own pool and LISTEN connection) on one
 * database, the notification published by the other one.
 */
const postgres = Boolean(process.env.DATABASE_URL);
const JWT_SECRET = "stream-test-secret-".padEnd(48, "x");

let database: Database;
let entityId: number;
let user: User;
let colleague: User;

beforeAll(async () => {
  database = await createTestDatabase();
  const entity = await createEntity(database.db);
  entityId = entity.id;
  user = await createUser(database.db, { entityId, role: Role.TECHNICIAN });
  colleague = await createUser(database.db, { entityId, role: Role.TECHNICIAN });
});
afterAll(async () => {
  await database?.close();
});

async function notify(bus: EventBus, userIds: number[], subject = "New incident") {
  const { notifications } = await createNotification(database.db, { entityId, userIds, subject });
  bus.publish({ entityId, type: "notification.created", userIds, data: { notificationIds: notifications.map((n) => n.id), subject } });
  return notifications;
}

/** Reads server-sent events from a byte stream into a list, until the stream ends. */
function reader(body: ReadableStream<Uint8Array>) {
  const messages: EventSourceMessage[] = [];
  let comments = 0;
  const done = readEventStream(body, { onEvent: (m) => messages.push(m), onComment: () => comments++ }).catch(() => {
    /* aborted */
  });
  return {
    messages,
    comments: () => comments,
    done,
    ids: () => messages.filter((m) => m.event === "notification").map((m) => Number(m.id)),
    counts: () => messages.filter((m) => m.event === "count").map((m) => (JSON.parse(m.data) as { unread: number }).unread),
  };
}

async function until(check: () => boolean, what: string, ms = 5_000) {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe("the stream's replay and live events", () => {
  it("replays what came after the last event id once, then the live ones, never one twice", async () => {
    const bus = createEventBus();
    const [first] = await notify(bus, [user.id]);
    const [second] = await notify(bus, [user.id]);
    await notify(bus, [colleague.id]);
    const [third] = await notify(bus, [user.id, colleague.id]);

    // The replay reads slowly; a live notification lands while it runs.
    const reads = liveReads(database.db, entityId, user.id);
    let slow = true;
    const slowReads = {
      ...reads,
      after: async (cursor: number, limit: number) => {
        const page = await reads.after(cursor, limit);
        if (slow) {
          slow = false;
          await notify(bus, [user.id]);
        }
        return page;
      },
    };
    const aborted = new AbortController();
    let closed = 0;
    const stream = reader(
      notificationEventStream({ reads: slowReads, events: bus, entityId, userId: user.id, lastEventId: first.id, signal: aborted.signal, onClose: () => closed++ }),
    );
    await until(() => stream.ids().length === 3, "the replay and the notification published during it");
    const [during] = (await reads.after(third.id, 10)).map((n) => n.id);
    expect(stream.ids()).toEqual([second.id, third.id, during]);

    const [live] = await notify(bus, [user.id]);
    await notify(bus, [colleague.id]);
    await until(() => stream.ids().length === 4, "the live notification");
    await until(() => stream.counts().at(-1) === 5, "the unread count");
    expect(stream.ids()).toEqual([second.id, third.id, during, live.id]);

    const notification = JSON.parse(stream.messages.find((m) => m.event === "notification")!.data);
    expect(notification).toMatchObject({ id: second.id, notificationDetailsId: second.detailsId, read: false, subject: "New incident" });
    expect(stream.messages[0]).toMatchObject({ event: "notification", id: String(second.id) });

    // A read elsewhere changes the count only; another user's read changes nothing.
    const countsBefore = stream.counts().length;
    bus.publish({ entityId, type: "notification.read", userIds: [colleague.id] });
    bus.publish({ entityId, type: "notification.read", userIds: [user.id] });
    await until(() => stream.counts().length === countsBefore + 1, "the count after a read");

    aborted.abort();
    await stream.done;
    expect(closed).toBe(1);
    await notify(bus, [user.id]);
    expect(stream.ids()).toHaveLength(4);
  });

  it("sends a notification committed out of id order, and follows publishers that name no ids", async () => {
    const bus = createEventBus();
    const aborted = new AbortController();
    const stream = reader(
      notificationEventStream({ reads: liveReads(database.db, entityId, user.id), events: bus, entityId, userId: user.id, lastEventId: null, signal: aborted.signal }),
    );
    await until(() => stream.counts().length === 1, "the first count");
    // Two writers: the lower id commits (and is announced) after the higher one.
    const { notifications: [low] } = await createNotification(database.db, { entityId, userIds: [user.id] });
    const { notifications: [high] } = await createNotification(database.db, { entityId, userIds: [user.id] });
    bus.publish({ entityId, type: "notification.created", userIds: [user.id], data: { notificationIds: [high.id] } });
    await until(() => stream.ids().length === 1, "the higher id");
    bus.publish({ entityId, type: "notification.created", userIds: [user.id], data: { notificationIds: [low.id] } });
    await until(() => stream.ids().length === 2, "the lower id");
    // The occupier report's event names the incident only: the stream reads after its last id.
    const { notifications: [plain] } = await createNotification(database.db, { entityId, userIds: [user.id] });
    bus.publish({ entityId, type: "notification.created", userIds: [user.id], data: { incidentId: 1, kind: "incident.created" } });
    await until(() => stream.ids().length === 3, "the notification of a publisher without ids");
    expect(stream.ids()).toEqual([high.id, low.id, plain.id]);
    aborted.abort();
    await stream.done;
  });

  it("starts after the newest notification on a first connection, and sends the count", async () => {
    const bus = createEventBus();
    await notify(bus, [user.id]);
    const aborted = new AbortController();
    const stream = reader(
      notificationEventStream({ reads: liveReads(database.db, entityId, user.id), events: bus, entityId, userId: user.id, lastEventId: null, signal: aborted.signal, heartbeatMs: 50 }),
    );
    await until(() => stream.counts().length === 1, "the first count");
    expect(stream.ids()).toEqual([]);
    await until(() => stream.comments() >= 3, "heartbeats");
    const [next] = await notify(bus, [user.id]);
    await until(() => stream.ids().length === 1, "the next notification");
    expect(stream.ids()).toEqual([next.id]);
    aborted.abort();
    await stream.done;
  });

  it("ends at once when its person is disabled or archived, and only theirs", async () => {
    const services = await createTestServices(database);
    try {
      const manager = await createUser(database.db, { entityId, role: Role.FACILITY_MANAGER });
      const leaving = await createUser(database.db, { entityId, role: Role.TECHNICIAN });
      const staying = await createUser(database.db, { entityId, role: Role.TECHNICIAN });
      const open = (who: User) => {
        let ended = false;
        const aborted = new AbortController();
        const stream = reader(
          notificationEventStream({ reads: liveReads(database.db, entityId, who.id), events: services.events, entityId, userId: who.id, lastEventId: null, signal: aborted.signal, heartbeatMs: 60_000 }),
        );
        void stream.done.then(() => (ended = true));
        return { stream, ended: () => ended, abort: () => aborted.abort() };
      };
      const theirs = open(leaving);
      const other = open(staying);
      await until(() => theirs.stream.counts().length === 1 && other.stream.counts().length === 1, "both streams started");
      await setUserStatus(services.ctx(entityId, { id: manager.id, role: manager.role }), leaving.id, { newStatus: UserStatus.DISABLED });
      await services.queue.drain();
      await until(theirs.ended, "the disabled person's stream to end");
      await new Promise((r) => setTimeout(r, 50));
      expect(other.ended()).toBe(false);
      other.abort();
      await other.stream.done;
    } finally {
      await services.close();
    }
  });
});

/** One app instance: the route's loader behind a real HTTP server, on its own database connection and bus. */
async function appInstance(db: Database, events: EventBus, streamsPerUser = 5) {
  const runtime = {
    config: { LIVE_STREAMS_PER_USER: streamsPerUser },
    database: db,
    events,
    auth: { db: db.db, jwtSecret: JWT_SECRET, accessTtlSeconds: 900, refreshTtlDays: 30 },
  } as unknown as Runtime;
  const server = http.createServer(async (req, res) => {
    // As @remix-run/express does: the request's signal aborts when the connection closes; server.ts
    // hands the same as the context's `connectionClosed`.
    const controller = new AbortController();
    const connection = new AbortController();
    res.on("close", () => {
      controller.abort();
      connection.abort();
    });
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) if (typeof value === "string") headers.set(name, value);
    const request = new Request(`http://localhost${req.url}`, { headers, signal: controller.signal });
    // As Remix does: the loader gets a copy of a copy (index and data parameters stripped), whose
    // signal follows the first only through weak references. And Remix never cancels the body.
    const copy = (r: Request) => new Request(r.url, { method: r.method, headers: r.headers, signal: r.signal });
    const context = { runtime, auth: { user: null }, connectionClosed: connection.signal };
    const response = (await loader({ request: copy(copy(request)), params: {}, context: context as never })) as Response;
    res.writeHead(response.status, Object.fromEntries(response.headers));
    if (!response.body) return res.end();
    const body = response.body.getReader();
    for (;;) {
      const { value, done } = await body.read().catch(() => ({ value: undefined, done: true }));
      if (done) break;
      res.write(value);
    }
    res.end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/resources/notifications/stream`;
  return {
    url,
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}

/** A full garbage collection (what a busy server does between a stream's start and its client leaving). */
function collectGarbage() {
  v8.setFlagsFromString("--expose-gc");
  (vm.runInNewContext("gc") as () => void)();
}

async function bearer(u: User) {
  return (await signAccessToken(JWT_SECRET, { userId: u.id, entityId: u.entityId, role: u.role, sessionId: crypto.randomUUID() }, 900)).token;
}

async function connect(url: string, token: string | null, lastEventId?: number) {
  const aborted = new AbortController();
  const headers: Record<string, string> = {};
  if (token) headers.authorization = `Bearer ${token}`;
  if (lastEventId) headers["last-event-id"] = String(lastEventId);
  const res = await fetch(url, { headers, signal: aborted.signal });
  return { res, stream: res.ok ? reader(res.body!) : null, drop: () => aborted.abort() };
}

describe("the stream over HTTP", () => {
  it("refuses a request without a session or token, and caps the streams of one user", async () => {
    const bus = createEventBus();
    const app = await appInstance(database, bus, 2);
    try {
      const token = await bearer(user);
      expect((await connect(app.url, null)).res.status).toBe(401);
      expect((await connect(app.url, "not-a-token")).res.status).toBe(401);
      const a = await connect(app.url, token);
      const b = await connect(app.url, token);
      const c = await connect(app.url, token);
      expect([a.res.status, b.res.status, c.res.status]).toEqual([200, 200, 429]);
      expect(a.res.headers.get("content-type")).toBe("text/event-stream; charset=utf-8");
      await until(() => a.stream!.counts().length === 1, "the first count");
      expect(a.stream!.messages.length).toBe(1);
      // A closed client frees its stream (and its subscription) at once.
      a.drop();
      await until(() => openStreamCount(user.id) === 1, "the stream freed");
      const d = await connect(app.url, token);
      expect(d.res.status).toBe(200);
      b.drop();
      d.drop();
      await until(() => openStreamCount(user.id) === 0, "every stream freed");
    } finally {
      await app.close();
    }
  });

  it("frees the stream of a closed connection even after the loader's copies of the request were garbage-collected", async () => {
    const bus = createEventBus();
    const app = await appInstance(database, bus);
    try {
      const token = await bearer(user);
      const streams = [await connect(app.url, token), await connect(app.url, token)];
      for (const s of streams) await until(() => s.stream!.counts().length === 1, "connected");
      expect(openStreamCount(user.id)).toBe(2);
      for (let i = 0; i < 3; i++) {
        collectGarbage();
        await new Promise((r) => setTimeout(r, 20));
      }
      for (const s of streams) s.drop();
      await until(() => openStreamCount(user.id) === 0, "every stream freed");
    } finally {
      await app.close();
    }
  });

  const resumes = async (publisherBus: EventBus, first: string, second: string) => {
    const token = await bearer(user);
    const one = await connect(first, token);
    await until(() => one.stream!.counts().length === 1, "connected");
    const [a] = await notify(publisherBus, [user.id]);
    await until(() => one.stream!.ids().length === 1, "the first notification");
    expect(one.stream!.ids()).toEqual([a.id]);
    one.drop();
    await one.stream!.done;
    // Missed while disconnected.
    const [b] = await notify(publisherBus, [user.id]);
    const [c] = await notify(publisherBus, [user.id]);
    const two = await connect(second, token, a.id);
    await until(() => two.stream!.ids().length === 2, "the missed notifications");
    const [d] = await notify(publisherBus, [user.id]);
    await until(() => two.stream!.ids().length === 3, "the live notification after the replay");
    await new Promise((r) => setTimeout(r, 100));
    expect(two.stream!.ids()).toEqual([b.id, c.id, d.id]);
    two.drop();
  };

  it("resumes after a dropped connection from the last event id: what was missed exactly once, then live", async () => {
    const bus = createEventBus();
    const app = await appInstance(database, bus);
    try {
      await resumes(bus, app.url, app.url);
    } finally {
      await app.close();
    }
  });

  it.skipIf(!postgres)("does the same across two app instances on one PostgreSQL database", async () => {
    const buses: ClosableEventBus[] = [];
    const instances: Database[] = [];
    const apps: Array<{ url: string; close(): Promise<void> }> = [];
    try {
      for (let i = 0; i < 2; i++) {
        const db = await openDatabase({ url: database.url!, poolMax: 2 });
        const bus = createPgEventBus({ url: database.url! });
        await bus.ready;
        buses.push(bus);
        instances.push(db);
        apps.push(await appInstance(db, bus));
      }
      // Connected to the first instance, then to the second; every notification is published by the second.
      await resumes(buses[1], apps[0].url, apps[1].url);
      // And the other way round.
      await resumes(buses[0], apps[1].url, apps[0].url);
    } finally {
      for (const app of apps) await app.close();
      for (const bus of buses) await bus.close();
      for (const db of instances) await db.close();
    }
  });
});
