-- Printing (issue 48, decision 053): when each report identifier was last printed on a sticker sheet, the
-- calibration offset of an entity's printer (millimetres, added to every label's position), and the
-- background print jobs whose PDF is stored as a file of the entity and announced by a notification.
ALTER TABLE "report_identifiers" ADD COLUMN IF NOT EXISTS "last_printed_at" timestamp with time zone;--> statement-breakpoint
CREATE TABLE IF NOT EXISTS "print_settings" (
	"entity_id" integer PRIMARY KEY NOT NULL REFERENCES "entities"("id"),
	"offset_x_mm" real DEFAULT 0 NOT NULL,
	"offset_y_mm" real DEFAULT 0 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "print_settings_offset_x_check" CHECK ("print_settings"."offset_x_mm" between -10 and 10),
	CONSTRAINT "print_settings_offset_y_check" CHECK ("print_settings"."offset_y_mm" between -10 and 10)
);--> statement-breakpoint
CREATE TABLE IF NOT EXISTS "print_jobs" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "print_jobs_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"entity_id" integer NOT NULL REFERENCES "entities"("id"),
	"requested_by_id" integer REFERENCES "users"("id"),
	"status" smallint DEFAULT 0 NOT NULL,
	"stickers" integer NOT NULL,
	"params" jsonb NOT NULL,
	"result_file_id" uuid REFERENCES "stored_files"("id"),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone,
	CONSTRAINT "print_jobs_status_check" CHECK ("print_jobs"."status" in (0, 1, 2)),
	CONSTRAINT "print_jobs_stickers_check" CHECK ("print_jobs"."stickers" > 0)
);--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "print_jobs_entity_created_idx" ON "print_jobs" ("entity_id", "created_at");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "print_jobs_result_file_idx" ON "print_jobs" ("result_file_id") WHERE "result_file_id" IS NOT NULL;
