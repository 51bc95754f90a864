import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "~/db/client.server";
import { createTestDatabase } from "#tests/test-db";
import { type ClosableEventBus, createEventBus, createPgEventBus, LISTENER_NAME, type LiveEvent, RESYNC_EVENT } from "./events.server";

/**
 * The live-event bus: in process on the embedded database; across processes through PostgreSQL
 * LISTEN/NOTIFY (two buses on one database stand for two app processes), surviving a dropped
 * listening connection.
 */
const postgres = Boolean(process.env.DATABASE_URL);

function collector(bus: ClosableEventBus, entityId: number) {
  const seen: LiveEvent[] = [];
  const stop = bus.subscribe(entityId, (event) => seen.push(event));
  return { seen, stop };
}

async function until(check: () => boolean, what: string, ms = 5_000) {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe("in-process bus", () => {
  it("delivers to the subscribers of the event's entity only, until they unsubscribe", () => {
    const bus = createEventBus();
    const mine = collector(bus, 1);
    const other = collector(bus, 2);
    bus.publish({ entityId: 1, type: "notification.created", userIds: [7] });
    expect(mine.seen).toEqual([{ entityId: 1, type: "notification.created", userIds: [7] }]);
    expect(other.seen).toEqual([]);
    mine.stop();
    bus.publish({ entityId: 1, type: "notification.read", userIds: [7] });
    expect(mine.seen).toHaveLength(1);
  });
});

describe.skipIf(!postgres)("PostgreSQL bus (LISTEN/NOTIFY)", () => {
  let database: Database;
  const buses: ClosableEventBus[] = [];
  const newBus = async (retryMs?: number) => {
    const bus = createPgEventBus({ url: database.url!, retryMs });
    buses.push(bus);
    await bus.ready;
    return bus;
  };

  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    for (const bus of buses) await bus.close();
    await database?.close();
  });

  it("delivers an event to both processes on one database, each exactly once", async () => {
    const a = await newBus();
    const b = await newBus();
    const onA = collector(a, 5);
    const onB = collector(b, 5);
    const elsewhere = collector(b, 6);
    const event = { entityId: 5, type: "notification.created", userIds: [1, 2], data: { notificationIds: [10, 11] } };
    a.publish(event);
    // The publisher's own subscribers get it at once, without the round trip.
    expect(onA.seen).toEqual([event]);
    await until(() => onB.seen.length === 1, "the other process");
    b.publish({ entityId: 5, type: "notification.read", userIds: [1] });
    await until(() => onA.seen.length === 2, "the first process");
    await new Promise((r) => setTimeout(r, 100));
    expect(onA.seen.map((e) => e.type)).toEqual(["notification.created", "notification.read"]);
    expect(onB.seen.map((e) => e.type)).toEqual(["notification.created", "notification.read"]);
    expect(onB.seen[0]).toEqual(event);
    expect(elsewhere.seen).toEqual([]);
  });

  it("delivers a burst of events to the other process all, in order, repeats included", async () => {
    const a = await newBus();
    const b = await newBus();
    const onB = collector(b, 9);
    for (let i = 0; i < 60; i++) a.publish({ entityId: 9, type: "incident.reported-again", data: { n: Math.floor(i / 2) } });
    await until(() => onB.seen.length >= 60, "the burst");
    await new Promise((r) => setTimeout(r, 100));
    expect(onB.seen.map((e) => e.data?.n)).toEqual(Array.from({ length: 60 }, (_, i) => Math.floor(i / 2)));
  });

  it("sends an event too large for NOTIFY without its data", async () => {
    const a = await newBus();
    const b = await newBus();
    const onB = collector(b, 8);
    a.publish({ entityId: 8, type: "notification.created", userIds: [1], data: { message: "x".repeat(9_000) } });
    await until(() => onB.seen.length === 1, "the large event");
    expect(onB.seen[0]).toEqual({ entityId: 8, type: "notification.created", userIds: [1] });
  });

  it("listens again after its connection drops, and tells its subscribers to re-read", async () => {
    const a = await newBus();
    const b = await newBus(20);
    const onB = collector(b, 9);
    const admin = new pg.Client({ connectionString: database.url });
    await admin.connect();
    try {
      const killed = await admin.query(
        "select pg_terminate_backend(pid) from pg_stat_activity where application_name = $1 and datname = current_database()",
        [LISTENER_NAME],
      );
      expect(killed.rowCount).toBeGreaterThanOrEqual(2);
    } finally {
      await admin.end();
    }
    await until(() => onB.seen.some((e) => e.type === RESYNC_EVENT), "the resync after reconnecting");
    a.publish({ entityId: 9, type: "notification.created", userIds: [3] });
    await until(() => onB.seen.some((e) => e.type === "notification.created"), "an event after reconnecting");
  });
});
