CREATE TABLE "service_level_closed_days" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "service_level_closed_days_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"entity_id" integer NOT NULL,
	"day" date NOT NULL,
	"name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "service_level_closed_days_entity_day_key" UNIQUE("entity_id","day"),
	CONSTRAINT "service_level_closed_days_name_check" CHECK (length("service_level_closed_days"."name") between 1 and 100)
);
--> statement-breakpoint
CREATE TABLE "service_level_opening_hours" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "service_level_opening_hours_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"entity_id" integer NOT NULL,
	"weekday" smallint NOT NULL,
	"opens_at" smallint NOT NULL,
	"closes_at" smallint NOT NULL,
	CONSTRAINT "service_level_opening_hours_weekday_check" CHECK ("service_level_opening_hours"."weekday" between 1 and 7),
	CONSTRAINT "service_level_opening_hours_interval_check" CHECK ("service_level_opening_hours"."opens_at" >= 0 and "service_level_opening_hours"."opens_at" < "service_level_opening_hours"."closes_at" and "service_level_opening_hours"."closes_at" <= 1440)
);
--> statement-breakpoint
CREATE TABLE "service_level_settings" (
	"entity_id" integer PRIMARY KEY NOT NULL,
	"warn_before_minutes" integer,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "service_level_settings_warn_before_check" CHECK ("service_level_settings"."warn_before_minutes" is null or "service_level_settings"."warn_before_minutes" between 1 and 10080)
);
--> statement-breakpoint
CREATE TABLE "service_level_targets" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "service_level_targets_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"entity_id" integer NOT NULL,
	"incident_type_id" integer,
	"priority" smallint,
	"response_minutes" integer,
	"response_clock" text DEFAULT 'working' NOT NULL,
	"resolution_minutes" integer,
	"resolution_clock" text DEFAULT 'working' NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "service_level_targets_entity_type_priority_key" UNIQUE NULLS NOT DISTINCT("entity_id","incident_type_id","priority"),
	CONSTRAINT "service_level_targets_priority_check" CHECK ("service_level_targets"."priority" is null or "service_level_targets"."priority" in (0, 1, 2, 3)),
	CONSTRAINT "service_level_targets_response_clock_check" CHECK ("service_level_targets"."response_clock" in ('working', 'calendar')),
	CONSTRAINT "service_level_targets_resolution_clock_check" CHECK ("service_level_targets"."resolution_clock" in ('working', 'calendar')),
	CONSTRAINT "service_level_targets_response_minutes_check" CHECK ("service_level_targets"."response_minutes" is null or "service_level_targets"."response_minutes" between 1 and 527040),
	CONSTRAINT "service_level_targets_resolution_minutes_check" CHECK ("service_level_targets"."resolution_minutes" is null or "service_level_targets"."resolution_minutes" between 1 and 527040)
);
--> statement-breakpoint
ALTER TABLE "service_level_closed_days" ADD CONSTRAINT "service_level_closed_days_entity_id_entities_id_fk" FOREIGN KEY ("entity_id") REFERENCES "public"."entities"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service_level_opening_hours" ADD CONSTRAINT "service_level_opening_hours_entity_id_entities_id_fk" FOREIGN KEY ("entity_id") REFERENCES "public"."entities"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service_level_settings" ADD CONSTRAINT "service_level_settings_entity_id_entities_id_fk" FOREIGN KEY ("entity_id") REFERENCES "public"."entities"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service_level_targets" ADD CONSTRAINT "service_level_targets_entity_id_entities_id_fk" FOREIGN KEY ("entity_id") REFERENCES "public"."entities"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service_level_targets" ADD CONSTRAINT "service_level_targets_incident_type_id_incident_types_id_fk" FOREIGN KEY ("incident_type_id") REFERENCES "public"."incident_types"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "service_level_opening_hours_entity_idx" ON "service_level_opening_hours" USING btree ("entity_id","weekday","opens_at");--> statement-breakpoint
CREATE INDEX "service_level_targets_incident_type_idx" ON "service_level_targets" USING btree ("incident_type_id");