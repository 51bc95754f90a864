import { sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import type { LimitStore, LimitWindow } from "~/lib/rate-limit.server";
import { rowsOf } from "~/lib/list-page.server";

/**
 * Request limits shared by every process of a deployment on PostgreSQL: each count is a row of the
 * unlogged `rate_limits` table (losing the counts in a crash only lifts the limits for one window),
 * updated by one upsert, so two processes behind one address refuse what one process would.
 * The embedded database serves one process, whose memory store counts alike.
 */
export function databaseLimitStore(db: Db): LimitStore {
  let lastSweep = 0;
  const sweep = async (now: number) => {
    // Expired windows are dropped now and then by whichever process passes, at most once a minute each.
    if (now - lastSweep < 60_000) return;
    lastSweep = now;
    await db.execute(sql`delete from rate_limits where reset_at <= ${new Date(now)}`);
  };
  const windowOf = (row: { count: number; reset_at: Date | string } | undefined): LimitWindow | null =>
    row ? { count: Number(row.count), resetAt: new Date(row.reset_at).getTime() } : null;
  return {
    async hit(scope, id, windowMs, now) {
      const at = new Date(now);
      const result = await db.execute(sql`
        insert into rate_limits as r (scope, key, count, reset_at)
        values (${scope}, ${id}, 1, ${new Date(now + windowMs)})
        on conflict (scope, key) do update set
          count = case when r.reset_at <= ${at} then 1 else r.count + 1 end,
          reset_at = case when r.reset_at <= ${at} then excluded.reset_at else r.reset_at end
        returning count, reset_at`);
      await sweep(now);
      return windowOf(rowsOf<{ count: number; reset_at: Date | string }>(result)[0])!;
    },
    async peek(scope, id, now) {
      const result = await db.execute(sql`
        select count, reset_at from rate_limits where scope = ${scope} and key = ${id} and reset_at > ${new Date(now)}`);
      return windowOf(rowsOf<{ count: number; reset_at: Date | string }>(result)[0]);
    },
    async reset(scope, id) {
      await db.execute(sql`delete from rate_limits where scope = ${scope} and key = ${id}`);
    },
  };
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
