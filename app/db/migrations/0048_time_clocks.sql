CREATE TABLE "time_clocks" (
	"user_id" integer PRIMARY KEY NOT NULL,
	"entity_id" integer NOT NULL,
	"incident_id" integer,
	"task_id" integer,
	"started_at" timestamp with time zone NOT NULL,
	CONSTRAINT "time_clocks_one_record_check" CHECK (num_nonnulls("time_clocks"."incident_id", "time_clocks"."task_id") = 1)
);
--> statement-breakpoint
ALTER TABLE "time_clocks" ADD CONSTRAINT "time_clocks_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "time_clocks" ADD CONSTRAINT "time_clocks_entity_id_entities_id_fk" FOREIGN KEY ("entity_id") REFERENCES "public"."entities"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "time_clocks" ADD CONSTRAINT "time_clocks_incident_id_incidents_id_fk" FOREIGN KEY ("incident_id") REFERENCES "public"."incidents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "time_clocks" ADD CONSTRAINT "time_clocks_task_id_tasks_id_fk" FOREIGN KEY ("task_id") REFERENCES "public"."tasks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "time_clocks_entity_idx" ON "time_clocks" USING btree ("entity_id");--> statement-breakpoint
CREATE INDEX "time_clocks_incident_idx" ON "time_clocks" USING btree ("incident_id") WHERE "time_clocks"."incident_id" is not null;--> statement-breakpoint
CREATE INDEX "time_clocks_task_idx" ON "time_clocks" USING btree ("task_id") WHERE "time_clocks"."task_id" is not null;