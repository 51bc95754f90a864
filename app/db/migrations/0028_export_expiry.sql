-- An export's result file expires (EXPORT_RETENTION_HOURS after it was written, decision 055): the
-- nightly `export-expiry` schedule deletes the files whose time has come, found by this index.
ALTER TABLE "data_jobs" ADD COLUMN "expires_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "data_jobs_export_expiry_idx" ON "data_jobs" USING btree ("expires_at") WHERE "data_jobs"."result_file_id" is not null;
