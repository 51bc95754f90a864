CREATE TABLE "job_queue" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "job_queue_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"name" text NOT NULL,
	"payload" jsonb NOT NULL,
	"state" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"max_attempts" integer NOT NULL,
	"run_after" timestamp with time zone DEFAULT now() NOT NULL,
	"locked_until" timestamp with time zone,
	"last_error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone,
	CONSTRAINT "job_queue_state_check" CHECK ("job_queue"."state" in ('pending', 'active', 'done', 'failed'))
);
--> statement-breakpoint
CREATE INDEX "job_queue_due_idx" ON "job_queue" USING btree ("run_after","id") WHERE "job_queue"."state" = 'pending';--> statement-breakpoint
CREATE INDEX "job_queue_active_idx" ON "job_queue" USING btree ("locked_until") WHERE "job_queue"."state" = 'active';--> statement-breakpoint
CREATE INDEX "job_queue_finished_idx" ON "job_queue" USING btree ("finished_at") WHERE "job_queue"."finished_at" is not null;
--> statement-breakpoint
-- Jobs move from pg-boss (decision 020): copy its waiting jobs, then drop its schema.
DO $$
BEGIN
  IF to_regclass('pgboss.job') IS NOT NULL THEN
    INSERT INTO "job_queue" ("name", "payload", "max_attempts", "run_after")
      SELECT "name", coalesce("data", '{}'::jsonb), 3, greatest("start_after", now())
      FROM pgboss.job WHERE "state"::text IN ('created', 'retry');
  END IF;
  DROP SCHEMA IF EXISTS pgboss CASCADE;
END $$;
