CREATE TABLE "maintenance_type_checks" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "maintenance_type_checks_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"entity_id" integer NOT NULL,
	"maintenance_type_id" integer NOT NULL,
	"position" smallint DEFAULT 0 NOT NULL,
	"kind" smallint NOT NULL,
	"label" text,
	"label_fr" text,
	"label_nl" text,
	"min_value" numeric,
	"max_value" numeric,
	"photo_required" boolean DEFAULT false NOT NULL,
	"incident_type_id" integer,
	"priority" smallint NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "maintenance_type_checks_kind_check" CHECK ("maintenance_type_checks"."kind" in (0, 1, 2)),
	CONSTRAINT "maintenance_type_checks_priority_check" CHECK ("maintenance_type_checks"."priority" in (0, 1, 2, 3)),
	CONSTRAINT "maintenance_type_checks_label_check" CHECK (coalesce("maintenance_type_checks"."label", "maintenance_type_checks"."label_fr", "maintenance_type_checks"."label_nl") is not null),
	CONSTRAINT "maintenance_type_checks_range_check" CHECK ("maintenance_type_checks"."min_value" is null or "maintenance_type_checks"."max_value" is null or "maintenance_type_checks"."min_value" <= "maintenance_type_checks"."max_value")
);
--> statement-breakpoint
CREATE TABLE "task_check_answers" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "task_check_answers_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"entity_id" integer NOT NULL,
	"task_id" integer NOT NULL,
	"check_id" integer,
	"position" smallint NOT NULL,
	"kind" smallint NOT NULL,
	"label" text NOT NULL,
	"min_value" numeric,
	"max_value" numeric,
	"answer" text NOT NULL,
	"passed" boolean,
	"photo_file_id" uuid,
	"incident_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "task_check_answers_task_check_key" UNIQUE("task_id","check_id"),
	CONSTRAINT "task_check_answers_kind_check" CHECK ("task_check_answers"."kind" in (0, 1, 2))
);
--> statement-breakpoint
ALTER TABLE "tasks" ADD COLUMN "signed_off_by_id" integer;--> statement-breakpoint
ALTER TABLE "tasks" ADD COLUMN "signed_off_name" text;--> statement-breakpoint
ALTER TABLE "tasks" ADD COLUMN "signed_off_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "maintenance_type_checks" ADD CONSTRAINT "maintenance_type_checks_entity_id_entities_id_fk" FOREIGN KEY ("entity_id") REFERENCES "public"."entities"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "maintenance_type_checks" ADD CONSTRAINT "maintenance_type_checks_incident_type_id_incident_types_id_fk" FOREIGN KEY ("incident_type_id") REFERENCES "public"."incident_types"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "maintenance_type_checks" ADD CONSTRAINT "maintenance_type_checks_maintenance_type_id_fk" FOREIGN KEY ("maintenance_type_id") REFERENCES "public"."maintenance_types"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "task_check_answers" ADD CONSTRAINT "task_check_answers_entity_id_entities_id_fk" FOREIGN KEY ("entity_id") REFERENCES "public"."entities"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "task_check_answers" ADD CONSTRAINT "task_check_answers_task_id_tasks_id_fk" FOREIGN KEY ("task_id") REFERENCES "public"."tasks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "task_check_answers" ADD CONSTRAINT "task_check_answers_check_id_maintenance_type_checks_id_fk" FOREIGN KEY ("check_id") REFERENCES "public"."maintenance_type_checks"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "task_check_answers" ADD CONSTRAINT "task_check_answers_photo_file_id_stored_files_id_fk" FOREIGN KEY ("photo_file_id") REFERENCES "public"."stored_files"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "task_check_answers" ADD CONSTRAINT "task_check_answers_incident_id_incidents_id_fk" FOREIGN KEY ("incident_id") REFERENCES "public"."incidents"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "maintenance_type_checks_entity_idx" ON "maintenance_type_checks" USING btree ("entity_id");--> statement-breakpoint
CREATE INDEX "maintenance_type_checks_type_idx" ON "maintenance_type_checks" USING btree ("maintenance_type_id","position");--> statement-breakpoint
CREATE INDEX "maintenance_type_checks_incident_type_idx" ON "maintenance_type_checks" USING btree ("incident_type_id") WHERE "maintenance_type_checks"."incident_type_id" is not null;--> statement-breakpoint
CREATE INDEX "task_check_answers_entity_idx" ON "task_check_answers" USING btree ("entity_id");--> statement-breakpoint
CREATE INDEX "task_check_answers_task_idx" ON "task_check_answers" USING btree ("task_id","position");--> statement-breakpoint
CREATE INDEX "task_check_answers_incident_idx" ON "task_check_answers" USING btree ("incident_id") WHERE "task_check_answers"."incident_id" is not null;--> statement-breakpoint
ALTER TABLE "tasks" ADD CONSTRAINT "tasks_signed_off_by_id_users_id_fk" FOREIGN KEY ("signed_off_by_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;