import { and, asc, eq, inArray, lt, notInArray, sql } from "drizzle-orm";
import type { ContextServices } from "~/core/context.server";
import type { JobDefinition, JobQueue, MailSender } from "~/core/jobs.server";
import type { ScheduleDefinition } from "~/core/schedules.server";
import type { Database, Db } from "~/db/client.server";
import { jobQueue } from "~/db/schema";
import { now } from "~/lib/clock.server";
import { logger } from "~/lib/logger.server";
import type { ChangeDispatcher } from "./changes.server";
import { createScheduler } from "./schedules.server";

/**
 * The job queue (decision 020): jobs are rows of `job_queue` in the app's own database, written by a
 * verb through its transaction (`send` with its `db`), so they exist only if the change commits.
 * Workers poll for due jobs and claim one at a time with `for update skip locked`, so any number of
 * processes on one PostgreSQL share the work, and PGlite's single connection is never held while a
 * handler runs. A failed job is tried again after 5 s, 10 s, 20 s ... until its attempts run out;
 * a claim is a short lease that its worker renews while the handler runs, so the claim of a process that
 * died (killed, its host gone) is free again within a minute and its job runs again. What each job does lives in its
 * definition (`defineJob`, app/core/jobs.server.ts); the list is app/jobs/registry.server.ts.
 * Recurring jobs are schedules (`defineSchedule`, decision 020): before each round the workers enqueue
 * the jobs of the schedules that are due (app/jobs/schedules.server.ts), then run them like any other.
 * The same rounds dispatch the change events (decision 048, app/jobs/changes.server.ts) before the jobs.
 */
/** The bus notice (to every process) that work is due: see `QueueOptions.wakeOthers`. */
export const QUEUE_WAKE = "queue.wake";

export interface QueueOptions {
  database: Database;
  jobs: readonly JobDefinition[];
  /** The schedules this process's workers (and `drain`) fire; their jobs must be among `jobs`. */
  schedules?: readonly ScheduleDefinition[];
  /** The clock schedules are due by (milliseconds since the epoch); tests move it. */
  clock?: () => number;
  /** Dispatches the change events at every round (before the jobs, which they may write). */
  changes?: ChangeDispatcher;
  /** The services handlers get (to build a system context and call verbs). */
  services: ContextServices & { mailer: MailSender };
  /** Run the workers in this process (JOBS=true); otherwise only send. */
  work: boolean;
  /** Poll interval of the workers; short in tests. */
  pollingIntervalSeconds?: number;
  /** How long a claim lasts unless its worker renews it (default LEASE_SECONDS); short in tests. */
  leaseSeconds?: number;
  /**
   * Tells the workers of the other processes that work is due (a job sent or a change emitted here),
   * so that a process without workers does not leave it waiting for their next poll.
   */
  wakeOthers?: () => void;
}

export interface StartedQueue extends JobQueue {
  /**
   * Fires the due schedules, dispatches the due change events, then runs every due job now, one after
   * the other, until none is left (a job may emit changes); returns how many jobs ran (tests, maintenance).
   */
  drain(): Promise<number>;
  wake(): void;
}

/**
 * A claim lasts this long unless renewed; its worker renews it every third of it while the handler
 * runs, and every worker frees the expired claims of others as often. A process that stops renewing
 * (killed, frozen, cut off from the database) loses its claims within about a lease and a third.
 */
export const LEASE_SECONDS = 30;
const RETRY_DELAY_SECONDS = 5;
const KEEP_DONE_DAYS = 7;
const KEEP_FAILED_DAYS = 30;
const HOUSEKEEPING_EVERY_MS = 60 * 60 * 1000;

export async function startQueue(options: QueueOptions): Promise<StartedQueue> {
  const { database, jobs } = options;
  const db = database.db;
  const log = logger();
  const byName = new Map<string, JobDefinition>();
  for (const job of jobs) {
    if (byName.has(job.name)) throw new Error(`two job definitions named ${job.name}`);
    byName.set(job.name, job);
  }
  const names = [...byName.keys()];
  const schedules = options.schedules ?? [];
  for (const schedule of schedules) {
    if (!byName.has(schedule.job.name)) throw new Error(`schedule ${schedule.name}: its job ${schedule.job.name} is not in the registry`);
  }

  const maxAttempts = (job: JobDefinition) => 1 + (job.retryLimit ?? 3);
  const leaseSeconds = options.leaseSeconds ?? LEASE_SECONDS;
  const renewEveryMs = (leaseSeconds * 1000) / 3;
  /** The jobs this process's handlers are running: their claims are renewed, never freed here. */
  const holding = new Set<number>();
  const scheduler = createScheduler({
    db,
    schedules,
    clock: options.clock ?? now,
    async enqueue(tx: Db, job, payload, key) {
      const [row] = await tx
        .insert(jobQueue)
        .values({ name: job.name, payload: job.payload.parse(payload) as object, maxAttempts: maxAttempts(job), key })
        .onConflictDoNothing({ target: jobQueue.key, where: sql.raw(`"key" is not null`) })
        .returning({ id: jobQueue.id });
      return row?.id ?? null;
    },
  });

  /** Claims the oldest due job of a registered queue, or returns null. */
  async function claim() {
    if (names.length === 0) return null;
    const due = db
      .select({ id: jobQueue.id })
      .from(jobQueue)
      .where(and(eq(jobQueue.state, "pending"), sql`${jobQueue.runAfter} <= now()`, inArray(jobQueue.name, names)))
      .orderBy(asc(jobQueue.runAfter), asc(jobQueue.id))
      .limit(1)
      .for("update", { skipLocked: true });
    const [row] = await db
      .update(jobQueue)
      .set({ state: "active", attempts: sql`${jobQueue.attempts} + 1`, lockedUntil: sql`now() + make_interval(secs => ${leaseSeconds})` })
      .where(sql`${jobQueue.id} = (${due})`)
      .returning();
    return row ?? null;
  }

  async function runOne(): Promise<boolean> {
    const row = await claim();
    if (!row) return false;
    const job = byName.get(row.name)!;
    const parsed = job.payload.safeParse(row.payload);
    if (!parsed.success) {
      await finish(row.id, "failed", `invalid payload: ${parsed.error.message}`);
      log.error({ job: row.name, id: row.id }, "job payload does not fit its schema");
      return true;
    }
    holding.add(row.id);
    // The lease is renewed on a connection of its own while the handler works (on PostgreSQL the
    // handler's transaction holds another; on PGlite the renewal waits for it, and nothing else frees
    // a claim this process holds).
    const renewal = setInterval(() => {
      db.update(jobQueue)
        .set({ lockedUntil: sql`now() + make_interval(secs => ${leaseSeconds})` })
        .where(and(eq(jobQueue.id, row.id), eq(jobQueue.state, "active")))
        .catch((error: unknown) => log.warn({ err: error, job: row.name, id: row.id }, "renewing a job's claim failed"));
    }, renewEveryMs);
    renewal.unref?.();
    try {
      await job.handler(parsed.data, { id: String(row.id), attempt: row.attempts, maxAttempts: row.maxAttempts, services: options.services });
      await finish(row.id, "done", null);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      if (row.attempts < row.maxAttempts) {
        const delay = RETRY_DELAY_SECONDS * 2 ** (row.attempts - 1);
        await db
          .update(jobQueue)
          .set({ state: "pending", lockedUntil: null, lastError: message, runAfter: sql`now() + make_interval(secs => ${delay})` })
          .where(eq(jobQueue.id, row.id));
        log.warn({ err: error, job: row.name, id: row.id, attempt: row.attempts }, "job failed; it will be tried again");
      } else {
        await finish(row.id, "failed", message);
        log.error({ err: error, job: row.name, id: row.id, attempts: row.attempts }, "job failed for good");
      }
    } finally {
      clearInterval(renewal);
      holding.delete(row.id);
    }
    return true;
  }

  /** Claims whose lease ran out (their process stopped renewing) become due again at once. */
  async function freeExpiredClaims() {
    const conditions = [eq(jobQueue.state, "active"), lt(jobQueue.lockedUntil, sql`now()`)];
    if (holding.size > 0) conditions.push(notInArray(jobQueue.id, [...holding]));
    const freed = await db
      .update(jobQueue)
      .set({ state: "pending", lockedUntil: null, runAfter: sql`now()` })
      .where(and(...conditions))
      .returning({ id: jobQueue.id, name: jobQueue.name });
    for (const job of freed) log.warn({ job: job.name, id: job.id }, "a job's claim expired (its process stopped); it runs again");
  }

  async function finish(id: number, state: "done" | "failed", lastError: string | null) {
    await db.update(jobQueue).set({ state, lastError, lockedUntil: null, finishedAt: sql`now()` }).where(eq(jobQueue.id, id));
  }

  /** Old finished jobs are removed. */
  async function housekeeping() {
    await db
      .delete(jobQueue)
      .where(
        sql`(${jobQueue.state} = 'done' and ${jobQueue.finishedAt} < now() - make_interval(days => ${KEEP_DONE_DAYS}))
          or (${jobQueue.state} = 'failed' and ${jobQueue.finishedAt} < now() - make_interval(days => ${KEEP_FAILED_DAYS}))`,
      );
    await options.changes?.housekeeping();
  }

  let stopped = false;
  let running: Promise<unknown> = Promise.resolve();
  let timer: NodeJS.Timeout | undefined;
  let lastHousekeeping = 0;
  let lastFreeing = 0;
  // A round of the workers is under way; a wake during it asks for another round right after.
  let busy = false;
  let wakeAgain = false;

  async function drain(): Promise<number> {
    let count = 0;
    // A schedule that cannot be fired now (the database did not answer) is tried again next round.
    if (!stopped) await scheduler.fireDue().catch((error) => log.error({ err: error }, "firing the due schedules failed"));
    // Changes first (their handlers write jobs), then the jobs, again while jobs ran (they may emit changes).
    for (;;) {
      if (options.changes && !stopped) await options.changes.dispatchDue();
      let ran = 0;
      while (!stopped && (await runOne())) ran++;
      count += ran;
      if (stopped || ran === 0 || !options.changes) return count;
    }
  }

  function schedule(delayMs: number) {
    if (stopped) return;
    timer = setTimeout(() => {
      busy = true;
      running = (async () => {
        try {
          if (Date.now() - lastHousekeeping > HOUSEKEEPING_EVERY_MS) {
            lastHousekeeping = Date.now();
            await housekeeping();
          }
          if (Date.now() - lastFreeing > renewEveryMs) {
            lastFreeing = Date.now();
            await freeExpiredClaims();
          }
          await drain();
        } catch (error) {
          log.error({ err: error }, "job queue error");
        }
      })().finally(() => {
        busy = false;
        const again = wakeAgain;
        wakeAgain = false;
        schedule(again ? 0 : (options.pollingIntervalSeconds ?? 2) * 1000);
      });
    }, delayMs);
    timer.unref?.();
  }
  if (options.work) schedule(0);

  return {
    async send(job, payload, sendOptions = {}) {
      const definition = byName.get(job.name);
      if (!definition) throw new Error(`job ${job.name} is not in the registry`);
      const data = job.payload.parse(payload) as object;
      const [row] = await (sendOptions.db ?? db)
        .insert(jobQueue)
        .values({
          name: job.name,
          payload: data,
          maxAttempts: maxAttempts(definition),
          ...(sendOptions.startAfterSeconds ? { runAfter: sql`now() + make_interval(secs => ${sendOptions.startAfterSeconds})` } : {}),
        })
        .returning({ id: jobQueue.id });
      return String(row.id);
    },
    drain,
    wake() {
      if (stopped) return;
      if (!options.work) {
        options.wakeOthers?.();
        return;
      }
      if (busy) {
        wakeAgain = true;
        return;
      }
      if (timer) clearTimeout(timer);
      schedule(0);
    },
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      // Let the job in hand finish (its handler may be sending a mail), but not forever.
      await Promise.race([running, new Promise((resolve) => setTimeout(resolve, 10_000).unref())]);
    },
  };
}
