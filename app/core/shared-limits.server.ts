import type { Pool } from "pg";
import { RateLimiterMemory, RateLimiterPostgres } from "rate-limiter-flexible";
import type { LimitStore } from "~/lib/rate-limit.server";

/**
 * Request limits shared by every process of a deployment on PostgreSQL (decision 015): counted by
 * rate-limiter-flexible's PostgreSQL store in its own table, one row per scope and hashed key, updated
 * by one upsert, so two processes behind one address refuse what one process would. The embedded
 * database serves one process, whose memory counters count alike.
 *
 * A counter whose query fails (the database restarting, the pool exhausted) counts in its memory
 * insurance meanwhile: requests go on being limited, per process, and are answered as the app answers
 * them, never refused for the store's fault.
 */
export const LIMIT_TABLE = "rate_limiter_flexible";

export function postgresLimitStore(pool: Pool): LimitStore {
  return {
    counter(scope, points, duration) {
      return new RateLimiterPostgres({
        storeClient: pool,
        storeType: "pool",
        tableName: LIMIT_TABLE,
        // Made once at boot by prepareLimitTable; its expired rows are cleared by that one instance.
        tableCreated: true,
        clearExpiredByTimeout: false,
        keyPrefix: scope,
        points,
        duration,
        insuranceLimiter: new RateLimiterMemory({ keyPrefix: scope, points, duration }),
      });
    },
  };
}

/**
 * Has the library create its table when missing (its own `create table if not exists`) and keeps one
 * instance that deletes rows expired for an hour, every five minutes, in the background. Processes
 * starting together may race on the creation: the loser tries once more and finds the table there.
 */
export async function prepareLimitTable(pool: Pool): Promise<void> {
  const create = () =>
    new Promise<void>((resolve, reject) => {
      new RateLimiterPostgres(
        { storeClient: pool, storeType: "pool", tableName: LIMIT_TABLE, keyPrefix: "housekeeping", points: 1, duration: 1 },
        (error?: Error) => (error ? reject(error) : resolve()),
      );
    });
  await create().catch(create);
}

const holder = globalThis as unknown as { __caretakerLimitStore?: LimitStore };

/** The store the process's limiters count in: the shared one when the runtime set it, memory otherwise. */
export function sharedLimitStore(): LimitStore | undefined {
  return holder.__caretakerLimitStore;
}

/** Set once at boot on PostgreSQL, before any limiter is made. */
export function setSharedLimitStore(store: LimitStore | undefined): void {
  holder.__caretakerLimitStore = store;
}
