-- Planned maintenance as the product uses it: a time of day for the generated tasks (local time in the
-- entity's time zone) and instructions (a maintenance type's are the default of its plans); how far the
-- plan's tasks are materialised; a task's completion note and photo; each person's secret calendar feed.
ALTER TABLE "maintenance_types" ADD COLUMN "instructions" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "planned_maintenances" ADD COLUMN "time_of_day" time;--> statement-breakpoint
ALTER TABLE "planned_maintenances" ADD COLUMN "instructions" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "planned_maintenances" ADD COLUMN "generated_until" date;--> statement-breakpoint
ALTER TABLE "tasks" ADD COLUMN "note" text;--> statement-breakpoint
ALTER TABLE "tasks" ADD COLUMN "photo_file_id" uuid REFERENCES "stored_files"("id") ON DELETE SET NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "calendar_token" text;--> statement-breakpoint
CREATE UNIQUE INDEX "users_calendar_token_key" ON "users" ("calendar_token") WHERE "calendar_token" IS NOT NULL;
