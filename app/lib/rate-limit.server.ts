import { createHash } from "node:crypto";

/**
 * A fixed-window counter per key. Used for login attempts and password resets (app/modules/auth), the
 * occupier report page (app/http/report-limits.server.ts) and the server's tiered request limits
 * (server/rate-limit.ts).
 *
 * Where the counts live is a `LimitStore`: process memory by default (one process, the embedded
 * database), or a store shared by every process of a deployment (the PostgreSQL one of
 * app/core/shared-limits.server.ts), so that several processes behind one address refuse what one
 * process would. Limiters sharing a store are told apart by their `scope`.
 *
 * Memory stays bounded whatever keys are sent: a key is cut to its first KEY_PREFIX characters and
 * hashed (each entry costs the same ~100 bytes, a 10 MB user name included). The memory store holds
 * at most `maxKeys` entries, kept in the order their window started, so expired ones are always at the
 * front: they are dropped first, then, when the store is still full, the oldest.
 */
const KEY_PREFIX = 1024;

export interface RateLimiterOptions {
  /** Most keys kept at once by the memory store (default 10,000). */
  maxKeys?: number;
  /** A store shared with other limiters (and other processes); a memory store of its own otherwise. */
  store?: LimitStore;
  /** The limiter's name within a shared store (required with `store`). */
  scope?: string;
}

/** A key's count in its current window, and when that window ends (epoch milliseconds). */
export interface LimitWindow {
  count: number;
  resetAt: number;
}

export interface LimitStore {
  /** Counts one hit of `id`, starting a window of `windowMs` when none is running. */
  hit(scope: string, id: string, windowMs: number, now: number): Promise<LimitWindow>;
  /** The running window of `id`, without counting; null when none runs. */
  peek(scope: string, id: string, now: number): Promise<LimitWindow | null>;
  reset(scope: string, id: string): Promise<void>;
}

export function limiterKey(key: string): string {
  return createHash("sha256").update(key.slice(0, KEY_PREFIX)).digest("base64url").slice(0, 22);
}

/** Counts in this process's memory: one bounded map per scope. */
export class MemoryLimitStore implements LimitStore {
  private readonly scopes = new Map<string, Map<string, LimitWindow>>();
  private readonly maxKeys: number;

  constructor(options: { maxKeys?: number } = {}) {
    this.maxKeys = Math.max(1, options.maxKeys ?? 10_000);
  }

  async hit(scope: string, id: string, windowMs: number, now: number): Promise<LimitWindow> {
    const hits = this.mapOf(scope);
    const entry = this.live(hits, id, now);
    if (entry) {
      entry.count += 1;
      return { ...entry };
    }
    this.sweep(hits, now);
    while (hits.size >= this.maxKeys) hits.delete(hits.keys().next().value as string);
    const started = { count: 1, resetAt: now + windowMs };
    hits.set(id, started);
    return { ...started };
  }

  async peek(scope: string, id: string, now: number): Promise<LimitWindow | null> {
    const entry = this.live(this.mapOf(scope), id, now);
    return entry ? { ...entry } : null;
  }

  async reset(scope: string, id: string): Promise<void> {
    this.scopes.get(scope)?.delete(id);
  }

  /** How many keys a scope holds (for tests and metrics). */
  size(scope: string): number {
    return this.scopes.get(scope)?.size ?? 0;
  }

  private mapOf(scope: string) {
    let hits = this.scopes.get(scope);
    if (!hits) this.scopes.set(scope, (hits = new Map()));
    return hits;
  }

  private live(hits: Map<string, LimitWindow>, id: string, now: number) {
    const entry = hits.get(id);
    if (entry && entry.resetAt <= now) {
      hits.delete(id);
      return undefined;
    }
    return entry;
  }

  /** Drops expired entries: they sit at the front, as every window of a scope has the same length. */
  private sweep(hits: Map<string, LimitWindow>, now: number) {
    for (const [id, entry] of hits) {
      if (entry.resetAt > now) return;
      hits.delete(id);
    }
  }
}

const OWN_SCOPE = "own";

export class RateLimiter {
  private readonly store: LimitStore;
  private readonly scope: string;

  constructor(
    readonly limit: number,
    readonly windowMs: number,
    options: RateLimiterOptions = {},
  ) {
    if (options.store && !options.scope) throw new Error("a limiter in a shared store needs a scope");
    this.store = options.store ?? new MemoryLimitStore({ maxKeys: options.maxKeys });
    this.scope = options.store ? options.scope! : OWN_SCOPE;
  }

  /** Counts one attempt; false when the key is over its limit in the current window. */
  async hit(key: string, now = Date.now()): Promise<boolean> {
    const window = await this.store.hit(this.scope, limiterKey(key), this.windowMs, now);
    return window.count <= this.limit;
  }

  /**
   * Counts one request and says where the key stands, for RateLimit headers: whether it is allowed,
   * how many remain in the window and the seconds until the window ends (at least 1).
   */
  async take(key: string, now = Date.now()): Promise<{ allowed: boolean; limit: number; remaining: number; resetSeconds: number }> {
    const window = await this.store.hit(this.scope, limiterKey(key), this.windowMs, now);
    return {
      allowed: window.count <= this.limit,
      limit: this.limit,
      remaining: Math.max(0, this.limit - window.count),
      resetSeconds: Math.max(1, Math.ceil((window.resetAt - now) / 1000)),
    };
  }

  /** Whether the key is currently blocked (its count has reached the limit), without counting. */
  async blocked(key: string, now = Date.now()): Promise<boolean> {
    const window = await this.store.peek(this.scope, limiterKey(key), now);
    return Boolean(window && window.count >= this.limit);
  }

  /** Seconds until the key's window ends (at least 1), for a Retry-After header. */
  async retryAfterSeconds(key: string, now = Date.now()): Promise<number> {
    const window = await this.store.peek(this.scope, limiterKey(key), now);
    return window ? Math.max(1, Math.ceil((window.resetAt - now) / 1000)) : 1;
  }

  async reset(key: string): Promise<void> {
    await this.store.reset(this.scope, limiterKey(key));
  }

  /** How many keys are held, when the limiter counts in its own memory (for tests and metrics). */
  get size(): number {
    return this.store instanceof MemoryLimitStore ? this.store.size(this.scope) : Number.NaN;
  }
}
