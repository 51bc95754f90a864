import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { limiterKey, memoryLimitStore, RateLimiter } from "./rate-limit.server";

beforeEach(() => {
  vi.useFakeTimers();
  vi.setSystemTime(1_700_000_000_000);
});
afterEach(() => vi.useRealTimers());

describe("RateLimiter", () => {
  it("counts per key in a fixed window, then forgets", async () => {
    const limiter = new RateLimiter(2, 1000);
    expect(await limiter.hit("a")).toBe(true);
    vi.advanceTimersByTime(10);
    expect(await limiter.hit("a")).toBe(true);
    expect(await limiter.blocked("a")).toBe(true);
    vi.advanceTimersByTime(10);
    expect(await limiter.hit("a")).toBe(false);
    expect(await limiter.hit("b")).toBe(true);
    expect(await limiter.retryAfterSeconds("a")).toBe(1);
    vi.advanceTimersByTime(980);
    expect(await limiter.hit("a")).toBe(true); // a new window
    await limiter.reset("a");
    expect(await limiter.blocked("a")).toBe(false);
  });

  it("says what remains and when the window ends", async () => {
    const limiter = new RateLimiter(3, 60_000);
    expect(await limiter.take("k")).toEqual({ allowed: true, limit: 3, remaining: 2, resetSeconds: 60 });
    vi.advanceTimersByTime(15_000);
    await limiter.take("k");
    await limiter.take("k");
    expect(await limiter.take("k")).toEqual({ allowed: false, limit: 3, remaining: 0, resetSeconds: 45 });
  });

  it("counts limiters of one scope in one store together, other scopes apart", async () => {
    const store = memoryLimitStore();
    const one = new RateLimiter(2, 60_000, { store, scope: "test" });
    const two = new RateLimiter(2, 60_000, { store, scope: "test" });
    const other = new RateLimiter(2, 60_000, { store, scope: "other" });
    expect(await one.hit("k")).toBe(true);
    expect(await two.hit("k")).toBe(true);
    expect(await one.hit("k")).toBe(false);
    expect(await other.hit("k")).toBe(true);
  });

  it("stores a short hash, never the key itself", async () => {
    const huge = "x".repeat(10_000_000);
    expect(limiterKey(huge)).toHaveLength(22);
    expect(limiterKey("a")).not.toBe(limiterKey("b"));
    const limiter = new RateLimiter(1, 60_000);
    const before = process.memoryUsage().heapUsed;
    // Distinct 5 MB keys (flat strings, sharing nothing): kept, 20 of them would be 100 MB.
    for (let i = 0; i < 20; i++) expect(await limiter.hit(Buffer.alloc(5_000_000, String.fromCharCode(97 + i)).toString("latin1"))).toBe(true);
    expect(process.memoryUsage().heapUsed - before).toBeLessThan(40 * 1024 * 1024);
  });
});
