CREATE TABLE "service_level_alerts" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "service_level_alerts_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"entity_id" integer NOT NULL,
	"incident_id" integer NOT NULL,
	"side" text NOT NULL,
	"stage" text NOT NULL,
	"target_minutes" integer NOT NULL,
	"due_at" timestamp with time zone NOT NULL,
	"notified" boolean NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "service_level_alerts_once_key" UNIQUE("incident_id","side","stage","target_minutes"),
	CONSTRAINT "service_level_alerts_side_check" CHECK ("service_level_alerts"."side" in ('response', 'resolution')),
	CONSTRAINT "service_level_alerts_stage_check" CHECK ("service_level_alerts"."stage" in ('warning', 'breach'))
);
--> statement-breakpoint
ALTER TABLE "service_level_alerts" ADD CONSTRAINT "service_level_alerts_entity_id_entities_id_fk" FOREIGN KEY ("entity_id") REFERENCES "public"."entities"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service_level_alerts" ADD CONSTRAINT "service_level_alerts_incident_id_incidents_id_fk" FOREIGN KEY ("incident_id") REFERENCES "public"."incidents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "service_level_alerts_entity_idx" ON "service_level_alerts" USING btree ("entity_id","created_at");--> statement-breakpoint
-- next_warn_at now holds the next alert instant of either kind (a warning or a breach), not only warnings.
UPDATE "incidents" SET "next_warn_at" = least("response_warn_at", "response_due_at", "resolution_warn_at", "resolution_due_at") WHERE "response_due_at" IS NOT NULL OR "resolution_due_at" IS NOT NULL;
