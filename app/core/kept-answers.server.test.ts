import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "~/db/client.server";
import { facilities } from "~/db/schema";
import { createEntity } from "#tests/factories";
import { createTestServices, type TestServices } from "#tests/test-context";
import { createTestDatabase } from "#tests/test-db";
import { type ClosableEventBus, createEventBus, createPgEventBus, RESYNC_EVENT } from "./events.server";
import { createKeptAnswersState, EVERY_PROCESS, keptAnswers, keptAnswersState } from "./kept-answers.server";
import { withTx } from "./unit-of-work.server";

/**
 * The report page's kept answers (decision 019): kept per database and entity, stale once that entity
 * commits, in this process at once and in every other through the event bus (two buses on one PostgreSQL
 * database stand for two app processes; on the embedded database there is one process and one bus).
 */
const postgres = Boolean(process.env.DATABASE_URL);

let database: Database;
let services: TestServices;
const buses: ClosableEventBus[] = [];

beforeAll(async () => {
  database = await createTestDatabase();
  services = await createTestServices(database);
});
afterAll(async () => {
  // The process's state leaves the buses closed below.
  keptAnswersState().connect(createEventBus());
  for (const bus of buses) await bus.close();
  await services?.close();
  await database?.close();
});

async function newBus(): Promise<ClosableEventBus> {
  const bus = postgres ? createPgEventBus({ url: database.url! }) : createEventBus();
  buses.push(bus);
  await bus.ready;
  return bus;
}

async function until(check: () => boolean, what: string, ms = 1_000) {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`not within ${ms} ms: ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

/** A kept read that counts how often it really reads. */
function counted<V>(answer: () => V) {
  let reads = 0;
  const cache = keptAnswers<V>({ maxEntries: 10, ttlMs: 60_000 });
  return {
    get reads() {
      return reads;
    },
    get: (db: object, key: string, entityOf: (v: V) => number | null) =>
      cache.get(
        db,
        key,
        async () => {
          reads++;
          return answer();
        },
        entityOf,
      ),
  };
}

describe("kept answers", () => {
  it("are served again until their entity commits; another entity's commit leaves them", async () => {
    const state = keptAnswersState();
    const read = counted(() => ({ name: "kept" }));
    await read.get(database.db, "a", () => 101);
    await read.get(database.db, "b", () => 102);
    expect(await read.get(database.db, "a", () => 101)).toEqual({ name: "kept" });
    expect(read.reads).toBe(2);
    state.committed(102);
    await read.get(database.db, "a", () => 101);
    await read.get(database.db, "b", () => 102);
    expect(read.reads).toBe(3);
    state.committed(undefined); // a unit without an entity (sign-up): everything
    await read.get(database.db, "a", () => 101);
    expect(read.reads).toBe(4);
  });

  it("keep nothing read while their entity committed, nothing without an entity, nothing of another database", async () => {
    const state = keptAnswersState();
    let writeDuringRead = true;
    const read = counted(() => {
      if (writeDuringRead) state.committed(103);
      return 1;
    });
    await read.get(database.db, "k", () => 103);
    writeDuringRead = false;
    await read.get(database.db, "k", () => 103);
    await read.get(database.db, "k", () => 103);
    expect(read.reads).toBe(2);
    await read.get({}, "k", () => 103);
    expect(read.reads).toBe(3);
    await read.get(database.db, "none", () => null);
    await read.get(database.db, "none", () => null);
    expect(read.reads).toBe(5);
  });

  it("hand out a frozen value", async () => {
    const read = counted(() => ({ list: [{ id: 1 }] }));
    await read.get(database.db, "f", () => 104);
    const value = await read.get(database.db, "f", () => 104);
    expect(Object.isFrozen(value.list[0])).toBe(true);
  });

  it("are all dropped when the bus's listener comes back (notices may have been lost meanwhile)", async () => {
    const bus = createEventBus();
    const state = createKeptAnswersState();
    state.connect(bus);
    const stamp = state.stamp();
    expect(state.isFresh(105, stamp)).toBe(true);
    bus.publish({ entityId: EVERY_PROCESS, type: RESYNC_EVENT });
    expect(state.isFresh(105, stamp)).toBe(false);
  });

  it("keep nothing when turned off (REPORT_PAGE_CACHE=false)", async () => {
    const state = createKeptAnswersState();
    state.connect(createEventBus(), { enabled: false });
    expect(state.isFresh(106, state.stamp())).toBe(false);
  });
});

describe(postgres ? "across processes (two buses on one PostgreSQL database)" : "in the one process of the embedded database", () => {
  it("go stale everywhere when a unit of work commits for their entity, and only for it", async () => {
    const entity = await createEntity(database.db);
    const bystander = await createEntity(database.db);
    // This process: the one whose unit of work commits. The other: a second app process.
    keptAnswersState().connect(await newBus());
    const other = createKeptAnswersState();
    other.connect(postgres ? await newBus() : buses[0]);
    const stamp = other.stamp();
    expect(other.isFresh(entity.id, stamp)).toBe(true);

    await withTx(services.ctx(entity.id, null), async (tx) => {
      await tx.db.insert(facilities).values({ entityId: entity.id, shortId: 9301, name: "Written in one process" });
    });

    // The notice crosses processes asynchronously: wait for it (a bound for a hung bus, not a speed test).
    await until(() => !other.isFresh(entity.id, stamp), "the other process drops the entity's answers", 10_000);
    expect(keptAnswersState().isFresh(entity.id, stamp)).toBe(false);
    expect(other.isFresh(bystander.id, stamp)).toBe(true);
    expect(keptAnswersState().isFresh(bystander.id, keptAnswersState().stamp())).toBe(true);
  });
});
