import { describe, expect, it } from "vitest";
import { limiterKey, RateLimiter } from "./rate-limit.server";

describe("RateLimiter", () => {
  it("counts per key in a fixed window, then forgets", async () => {
    const limiter = new RateLimiter(2, 1000);
    expect(await limiter.hit("a", 0)).toBe(true);
    expect(await limiter.hit("a", 10)).toBe(true);
    expect(await limiter.blocked("a", 10)).toBe(true);
    expect(await limiter.hit("a", 20)).toBe(false);
    expect(await limiter.hit("b", 20)).toBe(true);
    expect(await limiter.retryAfterSeconds("a", 20)).toBe(1);
    expect(await limiter.hit("a", 1000)).toBe(true); // a new window
    await limiter.reset("a");
    expect(await limiter.blocked("a", 1001)).toBe(false);
  });

  it("holds at most maxKeys entries, dropping expired ones first, then the oldest", async () => {
    const limiter = new RateLimiter(1, 1000, { maxKeys: 3 });
    await limiter.hit("old", 0);
    await limiter.hit("k1", 600);
    await limiter.hit("k2", 700);
    await limiter.hit("k3", 1100); // "old" expired: dropped
    expect(limiter.size).toBe(3);
    expect(await limiter.blocked("k1", 1100)).toBe(true);
    await limiter.hit("k4", 1200); // full of live keys: the oldest (k1) goes
    expect(limiter.size).toBe(3);
    expect(await limiter.blocked("k1", 1200)).toBe(false);
    expect(await limiter.blocked("k2", 1200)).toBe(true);
  });

  it("stores a short hash, never the key itself", async () => {
    const huge = "x".repeat(10_000_000);
    expect(limiterKey(huge)).toHaveLength(22);
    expect(limiterKey("a")).not.toBe(limiterKey("b"));
    const limiter = new RateLimiter(1, 60_000, { maxKeys: 1000 });
    const before = process.memoryUsage().heapUsed;
    // Distinct 5 MB keys (flat strings, sharing nothing): kept, 20 of them would be 100 MB.
    for (let i = 0; i < 20; i++) await limiter.hit(Buffer.alloc(5_000_000, String.fromCharCode(97 + i)).toString("latin1"));
    expect(limiter.size).toBe(20);
    expect(process.memoryUsage().heapUsed - before).toBeLessThan(40 * 1024 * 1024);
  });
});
