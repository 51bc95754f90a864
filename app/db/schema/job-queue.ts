import { sql } from "drizzle-orm";
import { bigint, check, index, integer, jsonb, pgTable, text, timestamp } from "drizzle-orm/pg-core";

/**
 * Background jobs, in the app's own database (decision 020). A verb writes its job through its
 * transaction, so the job exists only if the change commits; workers claim due jobs with
 * `for update skip locked`, so several processes on one PostgreSQL share the work.
 *
 * state: pending (waiting for `run_after`), active (claimed until `locked_until`; a worker that died
 * leaves it to be claimed again), done, failed (out of attempts or an invalid payload).
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
  },
  (t) => [
    check("job_queue_state_check", sql`${t.state} in ('pending', 'active', 'done', 'failed')`),
    /** Claiming: the due pending jobs, oldest first. */
    index("job_queue_due_idx").on(t.runAfter, t.id).where(sql`${t.state} = 'pending'`),
    /** Recovering claims of workers that stopped. */
    index("job_queue_active_idx").on(t.lockedUntil).where(sql`${t.state} = 'active'`),
    /** Retention: finished jobs by age. */
    index("job_queue_finished_idx").on(t.finishedAt).where(sql`${t.finishedAt} is not null`),
  ],
);

export type JobRow = typeof jobQueue.$inferSelect;
