ALTER TABLE "incidents" ADD COLUMN "equipment_down" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "incidents" ADD COLUMN "downtime_minutes" integer;--> statement-breakpoint
ALTER TABLE "incidents" ADD CONSTRAINT "incidents_downtime_minutes_check" CHECK ("incidents"."downtime_minutes" is null or "incidents"."downtime_minutes" between 0 and 527040);