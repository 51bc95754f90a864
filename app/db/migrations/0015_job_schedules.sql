-- Schedules on the job queue (decision 045): a job enqueued by a schedule carries a key unique per
-- (schedule, due time), and each schedule keeps its next due time and last run.
ALTER TABLE "job_queue" ADD COLUMN "key" text;
--> statement-breakpoint
CREATE UNIQUE INDEX "job_queue_key_idx" ON "job_queue" USING btree ("key") WHERE "job_queue"."key" is not null;
--> statement-breakpoint
CREATE TABLE "job_schedules" (
	"name" text PRIMARY KEY NOT NULL,
	"job" text NOT NULL,
	"spec" text NOT NULL,
	"next_run_at" timestamp with time zone NOT NULL,
	"last_due_at" timestamp with time zone,
	"last_run_at" timestamp with time zone,
	"last_job_id" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
-- Notification retention becomes a daily schedule: the waiting run of its old self-rescheduling chain goes.
DELETE FROM "job_queue" WHERE "name" = 'notification-retention' AND "state" = 'pending';
