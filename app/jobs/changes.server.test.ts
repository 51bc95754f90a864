import { eq, sql } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { systemActor } from "~/core/actor";
import { changeOf, defineChange, defineChangeHandler, type StoredChange } from "~/core/changes.server";
import { createEventBus, type LiveEvent } from "~/core/events.server";
import { withStatement, withTx } from "~/core/unit-of-work.server";
import { openDatabase, type Database } from "~/db/client.server";
import { changeEvents } from "~/db/schema";
import { createEntity } from "#tests/factories";
import { createTestDatabase } from "#tests/test-db";
import { createChangeDispatcher, liveEventsHandler } from "./changes.server";
import { type StartedQueue, startQueue } from "./queue.server";

/**
 * The change-event outbox and its dispatcher (decision 048), on a real database with two "processes":
 * on PostgreSQL two queues with their own connection pools, on PGlite two queues on the one database.
 */
let database: Database;
let second: Database;
let entityId: number;

beforeAll(async () => {
  database = await createTestDatabase();
  second = database.url ? await openDatabase({ url: database.url, poolMax: 3 }) : database;
  entityId = (await createEntity(database.db)).id;
});
afterAll(async () => {
  if (second && second !== database) await second.close();
  await database?.close();
});

const thingHappened = defineChange({
  type: "test.thing-happened",
  payload: z.object({ n: z.number().int(), note: z.string().optional() }),
  subject: (p) => p.n,
});

/** What the handlers saw, per process. */
const handled: Array<{ n: number; process: string; changeId: number }> = [];
let failNext = 0;
const countingHandler = (process: string) =>
  defineChangeHandler({
    name: "counting",
    types: [thingHappened.type],
    async handle(ctx, change: StoredChange) {
      const { n } = changeOf(thingHappened, change);
      // Something the handler writes in the dispatch transaction: rolled back with it on a failure.
      await ctx.db.execute(sql`select 1`);
      if (failNext > 0) {
        failNext--;
        throw new Error("handler failed");
      }
      handled.push({ n, process, changeId: change.id });
    },
  });

const started: StartedQueue[] = [];
const published: LiveEvent[] = [];
async function processOn(db: Database, name: string, work = false): Promise<StartedQueue> {
  const bus = createEventBus();
  const events = { ...bus, publish: (e: LiveEvent) => (published.push(e), bus.publish(e)) };
  const services = { db: db.db, events, queue: null, mailer: { send: async () => undefined } };
  const queue = await startQueue({
    database: db,
    jobs: [],
    work,
    pollingIntervalSeconds: 0.02,
    changes: createChangeDispatcher({ db: db.db, handlers: [countingHandler(name), liveEventsHandler], services, batchSize: 7 }),
    services,
  });
  started.push(queue);
  return queue;
}
afterEach(async () => {
  await Promise.all(started.splice(0).map((q) => q.stop()));
});

const host = (db: Database) => ({ db: db.db, entityId, actor: systemActor("test"), locale: "en", queue: null, events: null });

async function emitMany(count: number, from: number) {
  for (let i = 0; i < count; i++) await withTx(host(database), (_tx, effects) => effects.emit(thingHappened, { n: from + i }));
}

describe(`change events (${process.env.DATABASE_URL ? "PostgreSQL, two pools" : "PGlite"})`, () => {
  it("are written in the unit of work and nothing is emitted when it rolls back", async () => {
    await expect(
      withTx(host(database), async (_tx, effects) => {
        await effects.emit(thingHappened, { n: -1 });
        throw new Error("the verb fails");
      }),
    ).rejects.toThrow("the verb fails");
    await expect(
      withStatement(host(database), async (c, effects) => {
        await c.db.execute(sql`${effects.changesSql(thingHappened, sql`select -2 as subject_id, '{"n": -2}'::jsonb as payload`)}`);
        throw new Error("after the statement");
      }),
    ).rejects.toThrow("after the statement");
    // The statement itself committed (no transaction): its change is there, as its write would be.
    const rows = await database.db.select().from(changeEvents).where(eq(changeEvents.type, thingHappened.type));
    expect(rows.map((r) => r.subjectId)).toEqual([-2]);
    await database.db.delete(changeEvents);

    const one = await processOn(database, "one");
    await one.drain();
    expect(handled.filter((h) => h.n < 0)).toEqual([]);
  });

  it("refuses a payload its definition does not accept, before anything is written", async () => {
    await expect(withTx(host(database), (_tx, effects) => effects.emit(thingHappened, { n: "x" } as never))).rejects.toThrow();
    expect(await database.db.select().from(changeEvents)).toEqual([]);
  });

  it("are dispatched exactly once when two processes drain at the same moment", async () => {
    handled.length = 0;
    await emitMany(60, 1000);
    const one = await processOn(database, "one");
    const two = await processOn(second, "two");
    await Promise.all([one.drain(), two.drain(), one.drain(), two.drain()]);
    const seen = handled.filter((h) => h.n >= 1000).map((h) => h.n).sort((a, b) => a - b);
    expect(seen).toEqual(Array.from({ length: 60 }, (_, i) => 1000 + i));
    const rows = await database.db.select().from(changeEvents).where(sql`${changeEvents.subjectId} >= 1000`);
    expect(rows.every((r) => r.dispatchedAt !== null && r.lockedUntil === null)).toBe(true);
    // One live event per change, with its payload.
    const live = published.filter((e) => e.type === thingHappened.type && Number(e.data?.n) >= 1000);
    expect(live).toHaveLength(60);
    expect(live[0]).toMatchObject({ entityId, data: { n: expect.any(Number), changeId: expect.any(Number), actorId: null } });
  });

  it("are dispatched exactly once while both processes' workers poll", async () => {
    handled.length = 0;
    await processOn(database, "one", true);
    await processOn(second, "two", true);
    await emitMany(40, 2000);
    const deadline = Date.now() + 10_000;
    while (handled.filter((h) => h.n >= 2000).length < 40 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    await new Promise((r) => setTimeout(r, 200)); // more polls of both: nothing more may run
    const seen = handled.filter((h) => h.n >= 2000).map((h) => h.n).sort((a, b) => a - b);
    expect(seen).toEqual(Array.from({ length: 40 }, (_, i) => 2000 + i));
  });

  it("try a failed change again later, with nothing of the failed attempt kept, and later changes do not wait", async () => {
    handled.length = 0;
    await emitMany(3, 3000);
    failNext = 1;
    const one = await processOn(database, "one");
    await one.drain();
    expect(handled.map((h) => h.n).sort()).toEqual([3001, 3002]);
    const [failed] = await database.db.select().from(changeEvents).where(eq(changeEvents.subjectId, 3000));
    expect(failed).toMatchObject({ dispatchedAt: null, attempts: 1, lastError: "handler failed", lockedUntil: null });
    expect(failed.runAfter.getTime()).toBeGreaterThan(Date.now());
    await database.db.update(changeEvents).set({ runAfter: sql`now()` }).where(eq(changeEvents.id, failed.id));
    await one.drain();
    expect(handled.map((h) => h.n).sort()).toEqual([3000, 3001, 3002]);
  });

  it("take a change again once the lock of a dispatcher that stopped has expired, and only then", async () => {
    handled.length = 0;
    await emitMany(1, 4000);
    const [row] = await database.db.select().from(changeEvents).where(eq(changeEvents.subjectId, 4000));
    // A dispatcher claimed it and died: locked, not dispatched.
    await database.db.update(changeEvents).set({ lockedUntil: sql`now() + interval '5 minutes'`, attempts: 1 }).where(eq(changeEvents.id, row.id));
    const two = await processOn(second, "two");
    await two.drain();
    expect(handled).toEqual([]);
    await database.db.update(changeEvents).set({ lockedUntil: sql`now() - interval '1 second'` }).where(eq(changeEvents.id, row.id));
    await two.drain();
    expect(handled).toEqual([{ n: 4000, process: "two", changeId: row.id }]);
  });
});
