ALTER TABLE "incident_type_checklist_items" DROP CONSTRAINT "incident_type_checklist_items_content_type_check";--> statement-breakpoint
ALTER TABLE "incident_events" DROP CONSTRAINT "incident_events_type_check";--> statement-breakpoint
ALTER TABLE "incident_types" ADD COLUMN "applies_everywhere" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "incident_types" ADD COLUMN "untranslated" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
CREATE INDEX "incidents_open_type_idx" ON "incidents" USING btree ("entity_id","incident_type_id") WHERE "incidents"."status" in (0, 1) and "incidents"."archived_at" is null;--> statement-breakpoint
ALTER TABLE "incident_type_checklist_items" ADD CONSTRAINT "incident_type_checklist_items_content_type_check" CHECK ("incident_type_checklist_items"."content_type" in (0, 1, 2, 3));--> statement-breakpoint
ALTER TABLE "incident_events" ADD CONSTRAINT "incident_events_type_check" CHECK ("incident_events"."type" in (0, 1, 2, 3, 4, 5, 6, 7, 8, 9));