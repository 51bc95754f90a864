import { createHash } from "node:crypto";

/**
 * A fixed-window counter per key, in process memory (one instance; a multi-instance deployment would
 * move it to the database or Redis). Used for login attempts (app/modules/auth) and for the server's
 * tiered request limits (server/rate-limit.ts).
 *
 * Memory stays bounded whatever keys are sent: a key is cut to its first KEY_PREFIX characters and
 * hashed (each entry costs the same ~100 bytes, a 10 MB user name included), and the store holds at
 * most `maxKeys` entries. Entries are kept in the order their window started, so expired ones are
 * always at the front: they are dropped first, then, when the store is still full, the oldest.
 */
const KEY_PREFIX = 1024;

export interface RateLimiterOptions {
  /** Most keys kept at once (default 10,000). */
  maxKeys?: number;
}

export function limiterKey(key: string): string {
  return createHash("sha256").update(key.slice(0, KEY_PREFIX)).digest("base64url").slice(0, 22);
}

export class RateLimiter {
  private readonly hits = new Map<string, { count: number; resetAt: number }>();
  private readonly maxKeys: number;

  constructor(
    readonly limit: number,
    readonly windowMs: number,
    options: RateLimiterOptions = {},
  ) {
    this.maxKeys = Math.max(1, options.maxKeys ?? 10_000);
  }

  /** Counts one attempt; false when the key is over its limit in the current window. */
  hit(key: string, now = Date.now()): boolean {
    const id = limiterKey(key);
    const entry = this.live(id, now);
    if (!entry) {
      this.sweep(now);
      while (this.hits.size >= this.maxKeys) this.hits.delete(this.hits.keys().next().value as string);
      this.hits.set(id, { count: 1, resetAt: now + this.windowMs });
      return 1 <= this.limit;
    }
    entry.count += 1;
    return entry.count <= this.limit;
  }

  /** Whether the key is currently blocked (its count has reached the limit), without counting. */
  blocked(key: string, now = Date.now()): boolean {
    const entry = this.live(limiterKey(key), now);
    return Boolean(entry && entry.count >= this.limit);
  }

  /** Seconds until the key's window ends (at least 1), for a Retry-After header. */
  retryAfterSeconds(key: string, now = Date.now()): number {
    const entry = this.live(limiterKey(key), now);
    return entry ? Math.max(1, Math.ceil((entry.resetAt - now) / 1000)) : 1;
  }

  reset(key: string): void {
    this.hits.delete(limiterKey(key));
  }

  /** How many keys are held (for tests and metrics). */
  get size(): number {
    return this.hits.size;
  }

  private live(id: string, now: number) {
    const entry = this.hits.get(id);
    if (entry && entry.resetAt <= now) {
      this.hits.delete(id);
      return undefined;
    }
    return entry;
  }

  /** Drops expired entries: they sit at the front, as every window has the same length. */
  private sweep(now: number) {
    for (const [id, entry] of this.hits) {
      if (entry.resetAt > now) return;
      this.hits.delete(id);
    }
  }
}
