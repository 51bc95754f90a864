import { and, asc, eq, inArray, isNull, lt, or, sql } from "drizzle-orm";
import type { ChangeHandler, StoredChange } from "~/core/changes.server";
import { type ContextServices, systemContext } from "~/core/context.server";
import { defineChangeHandler } from "~/core/changes.server";
import { withTx } from "~/core/unit-of-work.server";
import type { Db } from "~/db/client.server";
import { changeEvents, entities } from "~/db/schema";
import { DEFAULT_TIME_ZONE } from "~/lib/dates";
import { logger } from "~/lib/logger.server";

/**
 * The change dispatcher (decision 048): turns the rows of the `change_events` outbox into what follows
 * from them, by the handlers of app/jobs/registry.server.ts.
 *
 * - It claims a batch of due changes, oldest first, with `for update skip locked` and a lock time, so
 *   any number of processes share the work without taking the same change twice at once.
 * - Each change is then dispatched in a transaction of its own that first marks it dispatched (only if
 *   nobody has) and then runs every handler of its type: what the handlers write (notifications, mail
 *   jobs) commits with the mark, or nothing does. So each change is dispatched exactly once, even
 *   when a dispatcher dies half-way (its lock expires, another takes the change; what the first wrote
 *   was rolled back) or two take it after a lock expired (the second finds it marked).
 * - A failed change is tried again after 5 s, 10 s, 20 s ... (at most an hour apart), and set aside
 *   after MAX_ATTEMPTS, logged each time; later changes do not wait for it.
 * - Live events of the handlers are published after their commit, by the unit of work.
 *
 * The job queue's workers run it (app/jobs/queue.server.ts): at every round, when a unit of work that
 * emitted commits in this process (`queue.wake()`), and in `drain()`.
 */
export interface ChangeDispatcher {
  /** Dispatches what is due now; returns how many changes it dispatched. */
  dispatchDue(): Promise<number>;
  /** Removes dispatched changes older than the retention. */
  housekeeping(): Promise<void>;
}

export interface DispatcherOptions {
  db: Db;
  handlers: readonly ChangeHandler[];
  /** The process services the handlers' contexts are built from. */
  services: ContextServices;
  batchSize?: number;
}

const LOCK_SECONDS = 5 * 60;
const RETRY_DELAY_SECONDS = 5;
const MAX_RETRY_DELAY_SECONDS = 3600;
export const MAX_ATTEMPTS = 12;
const KEEP_DISPATCHED_DAYS = 30;

export function createChangeDispatcher(options: DispatcherOptions): ChangeDispatcher {
  const { db, handlers } = options;
  const log = logger();
  const batchSize = options.batchSize ?? 100;

  async function claim(): Promise<Array<StoredChange & { attempts: number }>> {
    const due = db
      .select({ id: changeEvents.id })
      .from(changeEvents)
      .where(
        and(
          isNull(changeEvents.dispatchedAt),
          sql`${changeEvents.runAfter} <= now()`,
          or(isNull(changeEvents.lockedUntil), lt(changeEvents.lockedUntil, sql`now()`)),
          lt(changeEvents.attempts, MAX_ATTEMPTS),
        ),
      )
      .orderBy(asc(changeEvents.id))
      .limit(batchSize)
      .for("update", { skipLocked: true });
    const rows = await db
      .update(changeEvents)
      .set({ attempts: sql`${changeEvents.attempts} + 1`, lockedUntil: sql`now() + make_interval(secs => ${LOCK_SECONDS})` })
      .where(sql`${changeEvents.id} in (${due})`)
      .returning();
    return rows
      .sort((a, b) => a.id - b.id)
      .map((r) => ({
        id: r.id,
        entityId: r.entityId,
        type: r.type,
        subjectId: r.subjectId,
        actor: r.actor,
        payload: r.payload,
        requestId: r.requestId,
        createdAt: r.createdAt,
        attempts: r.attempts,
      }));
  }

  /** The time zones of the entities of a batch (handlers write dates in the entity's). */
  async function timeZonesOf(batch: readonly StoredChange[]): Promise<Map<number, string>> {
    const ids = [...new Set(batch.map((c) => c.entityId))];
    if (ids.length === 0) return new Map();
    const rows = await db.select({ id: entities.id, timeZone: entities.timeZone }).from(entities).where(inArray(entities.id, ids));
    return new Map(rows.map((r) => [r.id, r.timeZone]));
  }

  async function dispatch(change: StoredChange & { attempts: number }, timeZone: string): Promise<boolean> {
    const ctx = { ...systemContext(options.services, change.entityId, "change-dispatcher", { timeZone }), requestId: change.requestId ?? undefined };
    try {
      return await withTx(ctx, async (tx, effects) => {
        const [mine] = await tx.db
          .update(changeEvents)
          .set({ dispatchedAt: sql`now()`, lockedUntil: null, lastError: null })
          .where(and(eq(changeEvents.id, change.id), isNull(changeEvents.dispatchedAt)))
          .returning({ id: changeEvents.id });
        if (!mine) return false; // dispatched meanwhile by another dispatcher
        for (const handler of handlers) {
          if (!handler.types || handler.types.includes(change.type)) await handler.handle(tx, change, effects);
        }
        return true;
      });
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      const delay = Math.min(RETRY_DELAY_SECONDS * 2 ** (change.attempts - 1), MAX_RETRY_DELAY_SECONDS);
      await db
        .update(changeEvents)
        .set({ lockedUntil: null, lastError: message.slice(0, 2000), runAfter: sql`now() + make_interval(secs => ${delay})` })
        .where(and(eq(changeEvents.id, change.id), isNull(changeEvents.dispatchedAt)));
      const final = change.attempts >= MAX_ATTEMPTS;
      log[final ? "error" : "warn"]({ err: error, change: change.type, id: change.id, attempt: change.attempts }, final ? "change dispatch failed for good" : "change dispatch failed; it will be tried again");
      return false;
    }
  }

  return {
    async dispatchDue() {
      let count = 0;
      for (;;) {
        const batch = await claim();
        const zones = await timeZonesOf(batch);
        for (const change of batch) if (await dispatch(change, zones.get(change.entityId) ?? DEFAULT_TIME_ZONE)) count++;
        if (batch.length < batchSize) return count;
      }
    },
    async housekeeping() {
      await db.delete(changeEvents).where(and(sql`${changeEvents.dispatchedAt} is not null`, lt(changeEvents.dispatchedAt, sql`now() - make_interval(days => ${KEEP_DISPATCHED_DAYS})`)));
    },
  };
}

/**
 * Every change as a live event of the same name for the entity's open streams (`data`: the payload, the
 * change's id and the acting person's id), after the dispatch commits.
 */
export const liveEventsHandler = defineChangeHandler({
  name: "live-events",
  async handle(ctx, change, effects) {
    effects.publish({
      entityId: change.entityId,
      type: change.type,
      data: { ...(change.payload as Record<string, unknown>), changeId: change.id, actorId: change.actor.id },
    });
  },
});
