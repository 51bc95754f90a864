ALTER TABLE "incident_events" DROP CONSTRAINT "incident_events_type_check";--> statement-breakpoint
ALTER TABLE "incident_reporters" ADD COLUMN "locale" text DEFAULT 'en' NOT NULL;--> statement-breakpoint
ALTER TABLE "incident_reporters" ADD COLUMN "status_token_hash" text;--> statement-breakpoint
CREATE UNIQUE INDEX "incident_reporters_status_token_key" ON "incident_reporters" USING btree ("status_token_hash") WHERE "incident_reporters"."status_token_hash" is not null;--> statement-breakpoint
ALTER TABLE "incident_events" ADD CONSTRAINT "incident_events_type_check" CHECK ("incident_events"."type" in (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10));