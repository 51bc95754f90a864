import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../app/db/client.server";
import { databaseLimitStore } from "../../app/core/shared-limits.server";
import { createLoginLimits } from "../../app/modules/auth/service.server";
import { RateLimiter } from "../../app/lib/rate-limit.server";
import { createTestDatabase } from "../test-db";

let database: Database;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database?.close();
});

// Two processes of one deployment: each makes its own store on the same database.
const processes = () => [databaseLimitStore(database.db), databaseLimitStore(database.db)];

describe(`request limits shared by processes (${process.env.DATABASE_URL ? "PostgreSQL" : "PGlite"})`, () => {
  it("counts the hits of both processes against one limit, and refuses as one process would", async () => {
    const [a, b] = processes();
    const one = new RateLimiter(10, 60_000, { store: a, scope: "test.shared" });
    const two = new RateLimiter(10, 60_000, { store: b, scope: "test.shared" });
    const t0 = Date.now();
    const answers = [];
    for (let i = 0; i < 14; i++) answers.push(await (i % 2 ? one : two).hit("203.0.113.5", t0 + i));
    expect(answers.filter(Boolean)).toHaveLength(10);
    expect(answers.slice(10)).toEqual([false, false, false, false]);
    expect(await one.blocked("203.0.113.5", t0 + 20)).toBe(true);
    expect(await two.retryAfterSeconds("203.0.113.5", t0 + 20)).toBe(60);
    // Another address and another scope count apart.
    expect(await one.hit("203.0.113.6", t0 + 20)).toBe(true);
    expect(await new RateLimiter(10, 60_000, { store: a, scope: "test.other" }).hit("203.0.113.5", t0 + 20)).toBe(true);
    // A new window starts after the last one ended.
    expect(await two.hit("203.0.113.5", t0 + 60_001)).toBe(true);
    expect(await one.blocked("203.0.113.5", t0 + 60_002)).toBe(false);
  });

  it("loses no hit when both processes count at the same moment", async () => {
    const [a, b] = processes();
    const limiters = [a, b].map((store) => new RateLimiter(1000, 60_000, { store, scope: "test.concurrent" }));
    const t0 = Date.now();
    await Promise.all(Array.from({ length: 60 }, (_, i) => limiters[i % 2].hit("198.51.100.1", t0)));
    const window = await a.peek("test.concurrent", (await import("../../app/lib/rate-limit.server")).limiterKey("198.51.100.1"), t0);
    expect(window?.count).toBe(60);
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
