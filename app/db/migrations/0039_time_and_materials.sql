CREATE TABLE "material_lines" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "material_lines_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"entity_id" integer NOT NULL,
	"incident_id" integer,
	"task_id" integer,
	"description" text NOT NULL,
	"quantity" numeric(12, 3) NOT NULL,
	"unit_cost" numeric(12, 2) NOT NULL,
	"created_by_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "material_lines_one_record_check" CHECK (num_nonnulls("material_lines"."incident_id", "material_lines"."task_id") = 1),
	CONSTRAINT "material_lines_quantity_check" CHECK ("material_lines"."quantity" > 0),
	CONSTRAINT "material_lines_unit_cost_check" CHECK ("material_lines"."unit_cost" >= 0)
);
--> statement-breakpoint
CREATE TABLE "time_entries" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "time_entries_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"entity_id" integer NOT NULL,
	"incident_id" integer,
	"task_id" integer,
	"user_id" integer NOT NULL,
	"worked_on" date NOT NULL,
	"started_at" timestamp with time zone,
	"minutes" integer NOT NULL,
	"note" text,
	"created_by_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "time_entries_one_record_check" CHECK (num_nonnulls("time_entries"."incident_id", "time_entries"."task_id") = 1),
	CONSTRAINT "time_entries_minutes_check" CHECK ("time_entries"."minutes" between 1 and 1440)
);
--> statement-breakpoint
ALTER TABLE "material_lines" ADD CONSTRAINT "material_lines_entity_id_entities_id_fk" FOREIGN KEY ("entity_id") REFERENCES "public"."entities"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "material_lines" ADD CONSTRAINT "material_lines_incident_id_incidents_id_fk" FOREIGN KEY ("incident_id") REFERENCES "public"."incidents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "material_lines" ADD CONSTRAINT "material_lines_task_id_tasks_id_fk" FOREIGN KEY ("task_id") REFERENCES "public"."tasks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "material_lines" ADD CONSTRAINT "material_lines_created_by_id_users_id_fk" FOREIGN KEY ("created_by_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "time_entries" ADD CONSTRAINT "time_entries_entity_id_entities_id_fk" FOREIGN KEY ("entity_id") REFERENCES "public"."entities"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "time_entries" ADD CONSTRAINT "time_entries_incident_id_incidents_id_fk" FOREIGN KEY ("incident_id") REFERENCES "public"."incidents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "time_entries" ADD CONSTRAINT "time_entries_task_id_tasks_id_fk" FOREIGN KEY ("task_id") REFERENCES "public"."tasks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "time_entries" ADD CONSTRAINT "time_entries_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "time_entries" ADD CONSTRAINT "time_entries_created_by_id_users_id_fk" FOREIGN KEY ("created_by_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "material_lines_entity_idx" ON "material_lines" USING btree ("entity_id");--> statement-breakpoint
CREATE INDEX "material_lines_incident_idx" ON "material_lines" USING btree ("incident_id","id") WHERE "material_lines"."incident_id" is not null;--> statement-breakpoint
CREATE INDEX "material_lines_task_idx" ON "material_lines" USING btree ("task_id","id") WHERE "material_lines"."task_id" is not null;--> statement-breakpoint
CREATE INDEX "time_entries_entity_idx" ON "time_entries" USING btree ("entity_id");--> statement-breakpoint
CREATE INDEX "time_entries_incident_idx" ON "time_entries" USING btree ("incident_id","worked_on") WHERE "time_entries"."incident_id" is not null;--> statement-breakpoint
CREATE INDEX "time_entries_task_idx" ON "time_entries" USING btree ("task_id","worked_on") WHERE "time_entries"."task_id" is not null;--> statement-breakpoint
CREATE INDEX "time_entries_entity_user_day_idx" ON "time_entries" USING btree ("entity_id","user_id","worked_on");