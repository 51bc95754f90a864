import { and, asc, eq, inArray, lte, ne } from "drizzle-orm";
import type { JobDefinition } from "~/core/jobs.server";
import { nextDueTime, type ScheduleDefinition, scheduleSpec } from "~/core/schedules.server";
import type { Db } from "~/db/client.server";
import { jobSchedules } from "~/db/schema";
import { logger } from "~/lib/logger.server";

/**
 * Fires the schedules declared in code (decision 020) on the job queue: the queue's workers call
 * `fireDue` before each round, in every process. A due schedule is claimed with
 * `for update skip locked`; in that transaction its job is written with the key
 * `<schedule>@<due time>` (unique in `job_queue`) and its next due time is set, so one due time is
 * enqueued once however many processes look. A schedule that missed due times (no worker ran) fires
 * once, for the earliest, and goes on from the next due time after now.
 */
export interface Scheduler {
  /** Enqueues the job of every due schedule; returns how many fired. */
  fireDue(): Promise<number>;
}

/** Writes a schedule's job in the claim's transaction; returns its id, or null when the key exists. */
export type EnqueueKeyed = (tx: Db, job: JobDefinition, payload: unknown, key: string) => Promise<number | null>;

export interface SchedulerOptions {
  db: Db;
  schedules: readonly ScheduleDefinition[];
  /** Milliseconds since the epoch (app/lib/clock.server.ts; a test moves it). */
  clock: () => number;
  enqueue: EnqueueKeyed;
}

/** The key of the job a schedule enqueues for one due time. */
export function scheduleKey(name: string, due: Date): string {
  return `${name}@${due.toISOString()}`;
}

export function createScheduler(options: SchedulerOptions): Scheduler {
  const { db, schedules, clock, enqueue } = options;
  const log = logger();
  const byName = new Map<string, ScheduleDefinition>();
  for (const schedule of schedules) {
    if (byName.has(schedule.name)) throw new Error(`two schedules named ${schedule.name}`);
    byName.set(schedule.name, schedule);
  }
  const names = [...byName.keys()];

  /**
   * Once per process, before the first firing: adds the rows of new schedules, and computes the next due
   * time again for those whose cron, interval or time zone changed. Two processes starting at once agree:
   * the insert does nothing for the second, and the update applies only where the spec still differs.
   */
  async function sync(): Promise<void> {
    const now = clock();
    for (const schedule of schedules) {
      const spec = scheduleSpec(schedule);
      const nextRunAt = new Date(nextDueTime(schedule, now));
      await db.insert(jobSchedules).values({ name: schedule.name, job: schedule.job.name, spec, nextRunAt }).onConflictDoNothing({ target: jobSchedules.name });
      const changed = await db
        .update(jobSchedules)
        .set({ spec, job: schedule.job.name, nextRunAt })
        .where(and(eq(jobSchedules.name, schedule.name), ne(jobSchedules.spec, spec)))
        .returning({ name: jobSchedules.name });
      if (changed.length) log.info({ schedule: schedule.name, spec, next: nextRunAt }, "schedule changed; next due time computed again");
    }
  }

  const dueWhere = (now: number) => and(inArray(jobSchedules.name, names), lte(jobSchedules.nextRunAt, new Date(now)));

  /** Claims one due schedule and fires it; false when none is due or the due ones are being fired elsewhere. */
  async function fireOne(now: number): Promise<boolean> {
    return db.transaction(async (t) => {
      const tx = t as unknown as Db;
      const [row] = await tx
        .select()
        .from(jobSchedules)
        .where(dueWhere(now))
        .orderBy(asc(jobSchedules.nextRunAt))
        .limit(1)
        .for("update", { skipLocked: true });
      if (!row) return false;
      const schedule = byName.get(row.name)!;
      const due = row.nextRunAt.getTime();
      const next = nextDueTime(schedule, now, due);
      const jobId = await enqueue(tx, schedule.job, schedule.payload, scheduleKey(row.name, row.nextRunAt));
      await tx
        .update(jobSchedules)
        .set({ job: schedule.job.name, nextRunAt: new Date(next), lastDueAt: row.nextRunAt, lastRunAt: new Date(now), lastJobId: jobId ?? row.lastJobId })
        .where(eq(jobSchedules.name, row.name));
      const missed = nextDueTime(schedule, due, due) <= now;
      if (missed) log.info({ schedule: row.name, due: row.nextRunAt, next: new Date(next) }, "schedule fired once for due times missed while no worker ran");
      else log.debug({ schedule: row.name, due: row.nextRunAt, job: jobId }, "schedule fired");
      return true;
    });
  }

  let synced: Promise<void> | null = null;

  return {
    async fireDue() {
      if (names.length === 0) return 0;
      synced ??= sync().catch((error) => {
        synced = null; // tried again next round
        throw error;
      });
      await synced;
      let fired = 0;
      for (;;) {
        const now = clock();
        // A plain read first: most rounds find nothing due and open no transaction.
        const due = await db.select({ name: jobSchedules.name }).from(jobSchedules).where(dueWhere(now)).limit(1);
        if (due.length === 0 || !(await fireOne(now))) return fired;
        fired++;
      }
    },
  };
}
