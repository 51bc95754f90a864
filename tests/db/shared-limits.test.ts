import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../app/db/client.server";
import { LIMIT_TABLE, postgresLimitStore, prepareLimitTable } from "../../app/core/shared-limits.server";
import { createLoginLimits } from "../../app/modules/auth/service.server";
import { RateLimiter } from "../../app/lib/rate-limit.server";
import { createTestDatabase } from "../test-db";

// The shared store exists on PostgreSQL only; the embedded database serves one process, counting in memory.
describe.runIf(process.env.DATABASE_URL)("request limits shared by processes (PostgreSQL)", () => {
  let database: Database;
  beforeAll(async () => {
    database = await createTestDatabase();
    await prepareLimitTable(database.pool!);
    // A second process starting finds the table there.
    await prepareLimitTable(database.pool!);
  });
  afterAll(async () => {
    await database?.close();
  });

  // Two processes of one deployment: each makes its own store on the same database.
  const processes = () => [postgresLimitStore(database.pool!), postgresLimitStore(database.pool!)];

  it("counts the hits of both processes against one limit, and refuses as one process would", async () => {
    const [a, b] = processes();
    const one = new RateLimiter(10, 60_000, { store: a, scope: "test.shared" });
    const two = new RateLimiter(10, 60_000, { store: b, scope: "test.shared" });
    const answers = [];
    for (let i = 0; i < 14; i++) answers.push(await (i % 2 ? one : two).hit("203.0.113.5"));
    expect(answers.filter(Boolean)).toHaveLength(10);
    expect(answers.slice(10)).toEqual([false, false, false, false]);
    expect(await one.blocked("203.0.113.5")).toBe(true);
    const wait = await two.retryAfterSeconds("203.0.113.5");
    expect(wait).toBeGreaterThan(55);
    expect(wait).toBeLessThanOrEqual(60);
    // Another address and another scope count apart.
    expect(await one.hit("203.0.113.6")).toBe(true);
    expect(await new RateLimiter(10, 60_000, { store: a, scope: "test.other" }).hit("203.0.113.5")).toBe(true);
    // The counts are rows of the library's table, keyed by scope and hashed key.
    const rows = await database.pool!.query(`select key, points from ${LIMIT_TABLE} where key like 'test.shared:%' order by points desc`);
    expect(rows.rows.map((r: { points: number }) => r.points)).toEqual([14, 1]);
  });

  it("starts a new window after the last one ended", async () => {
    const [a, b] = processes();
    const one = new RateLimiter(1, 1000, { store: a, scope: "test.window" });
    const two = new RateLimiter(1, 1000, { store: b, scope: "test.window" });
    expect(await one.hit("198.51.100.9")).toBe(true);
    expect(await two.hit("198.51.100.9")).toBe(false);
    await new Promise((resolve) => setTimeout(resolve, 1100));
    expect(await two.blocked("198.51.100.9")).toBe(false);
    expect(await two.hit("198.51.100.9")).toBe(true);
  });

  it("loses no hit when both processes count at the same moment", async () => {
    const [a, b] = processes();
    const limiters = [a, b].map((store) => new RateLimiter(1000, 60_000, { store, scope: "test.concurrent" }));
    await Promise.all(Array.from({ length: 60 }, (_, i) => limiters[i % 2].hit("198.51.100.1")));
    expect(await limiters[0].take("198.51.100.1")).toMatchObject({ allowed: true, remaining: 1000 - 61 });
  });

  it("locks a failing login out across processes: the second process sees the first one's failures", async () => {
    const [a, b] = processes();
    const first = createLoginLimits(3, 100, { store: a });
    const second = createLoginLimits(3, 100, { store: b });
    const key = "someone@example.test\n192.0.2.7";
    await first.perAccount.hit(key);
    await second.perAccount.hit(key);
    expect(await second.perAccount.blocked(key)).toBe(false);
    await first.perAccount.hit(key);
    expect(await second.perAccount.blocked(key)).toBe(true);
    await second.perAccount.reset(key);
    expect(await first.perAccount.blocked(key)).toBe(false);
  });
});
