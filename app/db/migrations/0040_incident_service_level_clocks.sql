ALTER TABLE "incidents" ADD COLUMN "response_target_minutes" integer;--> statement-breakpoint
ALTER TABLE "incidents" ADD COLUMN "response_clock" text;--> statement-breakpoint
ALTER TABLE "incidents" ADD COLUMN "response_due_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "incidents" ADD COLUMN "response_elapsed_minutes" double precision;--> statement-breakpoint
ALTER TABLE "incidents" ADD COLUMN "responded_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "incidents" ADD COLUMN "response_met" boolean;--> statement-breakpoint
ALTER TABLE "incidents" ADD COLUMN "response_warn_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "incidents" ADD COLUMN "resolution_target_minutes" integer;--> statement-breakpoint
ALTER TABLE "incidents" ADD COLUMN "resolution_clock" text;--> statement-breakpoint
ALTER TABLE "incidents" ADD COLUMN "resolution_due_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "incidents" ADD COLUMN "resolution_elapsed_minutes" double precision;--> statement-breakpoint
ALTER TABLE "incidents" ADD COLUMN "resolved_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "incidents" ADD COLUMN "resolution_met" boolean;--> statement-breakpoint
ALTER TABLE "incidents" ADD COLUMN "resolution_warn_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "incidents" ADD COLUMN "next_due_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "incidents" ADD COLUMN "next_warn_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "incidents_entity_next_due_idx" ON "incidents" USING btree ("entity_id","next_due_at","id") WHERE "incidents"."next_due_at" is not null and "incidents"."archived_at" is null;--> statement-breakpoint
CREATE INDEX "incidents_next_warn_idx" ON "incidents" USING btree ("next_warn_at") WHERE "incidents"."next_warn_at" is not null;--> statement-breakpoint
ALTER TABLE "incidents" ADD CONSTRAINT "incidents_response_clock_check" CHECK ("incidents"."response_clock" is null or "incidents"."response_clock" in ('working', 'calendar'));--> statement-breakpoint
ALTER TABLE "incidents" ADD CONSTRAINT "incidents_resolution_clock_check" CHECK ("incidents"."resolution_clock" is null or "incidents"."resolution_clock" in ('working', 'calendar'));