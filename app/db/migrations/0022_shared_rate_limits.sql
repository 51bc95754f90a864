-- Request limits counted across every process of a deployment on PostgreSQL (app/core/shared-limits.server.ts):
-- one row per limiter scope and hashed key, its count in the running window and when the window ends.
-- Unlogged: a crash loses at most one window of counts.
CREATE UNLOGGED TABLE "rate_limits" (
  "scope" text NOT NULL,
  "key" text NOT NULL,
  "count" integer NOT NULL,
  "reset_at" timestamptz NOT NULL,
  CONSTRAINT "rate_limits_pkey" PRIMARY KEY ("scope", "key")
);--> statement-breakpoint
CREATE INDEX "rate_limits_reset_at_idx" ON "rate_limits" ("reset_at");
