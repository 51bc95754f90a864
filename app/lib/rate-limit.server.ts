import { createHash } from "node:crypto";
import { type RateLimiterAbstract, RateLimiterMemory, RateLimiterRes } from "rate-limiter-flexible";

/**
 * Fixed-window limits counted by rate-limiter-flexible (decision 015). Used for login attempts and
 * password resets (app/modules/auth), the occupier report page (app/http/report-limits.server.ts), the
 * REST calls (app/http/api.server.ts), used captcha answers and the server's tiered request limits
 * (server/rate-limit.ts).
 *
 * Where the counts live is a `LimitStore`: the limiter's own memory by default (one process, the
 * embedded database), or a store shared by every process of a deployment (the PostgreSQL one of
 * app/core/shared-limits.server.ts), so that several processes behind one address refuse what one
 * process would. Limiters sharing a store are told apart by their `scope` (the library's key prefix).
 *
 * Keys are cut to their first KEY_PREFIX characters and hashed before they are counted: each costs the
 * same few bytes, a 10 MB user name included, and fits the PostgreSQL store's key column.
 */
const KEY_PREFIX = 1024;

export interface LimitStore {
  /** A counter of at most `points` a window of `durationSeconds`, its keys prefixed with `scope`. */
  counter(scope: string, points: number, durationSeconds: number): RateLimiterAbstract;
}

export interface RateLimiterOptions {
  /** A store shared with other limiters (and other processes); the limiter's own memory otherwise. */
  store?: LimitStore;
  /** The limiter's name within a shared store (required with `store`). */
  scope?: string;
}

export function limiterKey(key: string): string {
  return createHash("sha256").update(key.slice(0, KEY_PREFIX)).digest("base64url").slice(0, 22);
}

/**
 * Counters in this process's memory; limiters of one scope and limit made from the same store count
 * together (as processes sharing the PostgreSQL store do).
 */
export function memoryLimitStore(): LimitStore {
  const counters = new Map<string, RateLimiterMemory>();
  return {
    counter(scope, points, duration) {
      const name = `${scope}\n${points}\n${duration}`;
      let counter = counters.get(name);
      if (!counter) counters.set(name, (counter = new RateLimiterMemory({ keyPrefix: scope, points, duration })));
      return counter;
    },
  };
}

const OWN_SCOPE = "own";

/** Where a key stands after a request was counted, for RateLimit headers. */
export interface LimitState {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the window ends, at least 1. */
  resetSeconds: number;
}

const seconds = (ms: number) => Math.max(1, Math.ceil(ms / 1000));

/** A running window: the memory store keeps an ended one until its timer drops it, PostgreSQL never answers one. */
const live = (res: RateLimiterRes | null): res is RateLimiterRes => res !== null && res.msBeforeNext > 0;

export class RateLimiter {
  private readonly counter: RateLimiterAbstract;

  constructor(
    readonly limit: number,
    readonly windowMs: number,
    options: RateLimiterOptions = {},
  ) {
    if (options.store && !options.scope) throw new Error("a limiter in a shared store needs a scope");
    const store = options.store ?? memoryLimitStore();
    this.counter = store.counter(options.scope ?? OWN_SCOPE, limit, seconds(windowMs));
  }

  /** Counts one attempt; false when the key is over its limit in the current window. */
  async hit(key: string, options: { windowMs?: number } = {}): Promise<boolean> {
    return (await this.take(key, options)).allowed;
  }

  /**
   * Counts one request and says where the key stands: whether it is allowed, how many remain in the
   * window and the seconds until the window ends. `windowMs` sets the window of a key that has none
   * running (a captcha answer is remembered as long as its challenge lives).
   */
  async take(key: string, options: { windowMs?: number } = {}): Promise<LimitState> {
    let res: RateLimiterRes;
    let allowed = true;
    try {
      res = await this.counter.consume(limiterKey(key), 1, options.windowMs ? { customDuration: seconds(options.windowMs) } : {});
    } catch (refusal) {
      // The library rejects with its result when the key is over the limit, with an error otherwise.
      if (!(refusal instanceof RateLimiterRes)) throw refusal;
      res = refusal;
      allowed = false;
    }
    return { allowed, limit: this.limit, remaining: res.remainingPoints, resetSeconds: seconds(res.msBeforeNext) };
  }

  /** Whether the key is currently blocked (its count has reached the limit), without counting. */
  async blocked(key: string): Promise<boolean> {
    const res = await this.counter.get(limiterKey(key));
    return live(res) && res.consumedPoints >= this.limit;
  }

  /** Seconds until the key's window ends (at least 1), for a Retry-After header. */
  async retryAfterSeconds(key: string): Promise<number> {
    const res = await this.counter.get(limiterKey(key));
    return live(res) ? seconds(res.msBeforeNext) : 1;
  }

  async reset(key: string): Promise<void> {
    await this.counter.delete(limiterKey(key));
  }
}
