import { sql } from "drizzle-orm";
import { bigint, check, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";

/**
 * Background jobs, in the app's own database (decision 020). A verb writes its job through its
 * transaction, so the job exists only if the change commits; workers claim due jobs with
 * `for update skip locked`, so several processes on one PostgreSQL share the work.
 *
 * state: pending (waiting for `run_after`), active (claimed until `locked_until`; a worker that died
 * leaves it to be claimed again), done, failed (out of attempts or an invalid payload).
 * key: set by a schedule (`<schedule>@<due time>`), unique, so one due time is enqueued at most once.
 */
export const jobQueue = pgTable(
  "job_queue",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    name: text("name").notNull(),
    payload: jsonb("payload").$type<unknown>().notNull(),
    state: text("state", { enum: ["pending", "active", "done", "failed"] }).notNull().default("pending"),
    attempts: integer("attempts").notNull().default(0),
    maxAttempts: integer("max_attempts").notNull(),
    runAfter: timestamp("run_after", { withTimezone: true }).notNull().defaultNow(),
    lockedUntil: timestamp("locked_until", { withTimezone: true }),
    lastError: text("last_error"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    finishedAt: timestamp("finished_at", { withTimezone: true }),
    key: text("key"),
  },
  (t) => [
    check("job_queue_state_check", sql`${t.state} in ('pending', 'active', 'done', 'failed')`),
    /** Claiming: the due pending jobs, oldest first. */
    index("job_queue_due_idx").on(t.runAfter, t.id).where(sql`${t.state} = 'pending'`),
    /** Recovering claims of workers that stopped. */
    index("job_queue_active_idx").on(t.lockedUntil).where(sql`${t.state} = 'active'`),
    /** Retention: finished jobs by age. */
    index("job_queue_finished_idx").on(t.finishedAt).where(sql`${t.finishedAt} is not null`),
    /** A schedule's due time enqueued once, whichever process fires it. */
    uniqueIndex("job_queue_key_idx").on(t.key).where(sql`${t.key} is not null`),
  ],
);

export type JobRow = typeof jobQueue.$inferSelect;

/**
 * The recurring jobs declared in code (`defineSchedule`, decision 020), one row per schedule: when it is
 * next due and what last fired. `spec` is what the due times are computed from (cron or interval, time
 * zone): a process starting with another spec recomputes `next_run_at`. A worker that finds a row due
 * locks it (`for update skip locked`), enqueues the job and moves `next_run_at` on in one transaction.
 * Rows of schedules no longer in code are left alone and never fire.
 */
export const jobSchedules = pgTable("job_schedules", {
  name: text("name").primaryKey(),
  /** The queue the schedule enqueues into (as defined when it last started or fired). */
  job: text("job").notNull(),
  spec: text("spec").notNull(),
  nextRunAt: timestamp("next_run_at", { withTimezone: true }).notNull(),
  /** The due time that last fired, when it fired, and the job it enqueued. */
  lastDueAt: timestamp("last_due_at", { withTimezone: true }),
  lastRunAt: timestamp("last_run_at", { withTimezone: true }),
  lastJobId: bigint("last_job_id", { mode: "number" }),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
});

export type JobScheduleRow = typeof jobSchedules.$inferSelect;
