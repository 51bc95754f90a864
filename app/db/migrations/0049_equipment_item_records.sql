CREATE TABLE "equipment_item_files" (
	"entity_id" integer NOT NULL,
	"equipment_item_id" integer NOT NULL,
	"file_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "equipment_item_files_pkey" PRIMARY KEY("equipment_item_id","file_id")
);
--> statement-breakpoint
CREATE TABLE "equipment_warranty_reminders" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "equipment_warranty_reminders_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"entity_id" integer NOT NULL,
	"equipment_item_id" integer NOT NULL,
	"warranty_ends_on" date NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "equipment_warranty_reminders_once_key" UNIQUE("equipment_item_id","warranty_ends_on")
);
--> statement-breakpoint
ALTER TABLE "notification_details" DROP CONSTRAINT "notification_details_type_check";--> statement-breakpoint
ALTER TABLE "data_jobs" DROP CONSTRAINT "data_jobs_type_check";--> statement-breakpoint
ALTER TABLE "entities" ADD COLUMN "warranty_reminder_days" integer DEFAULT 30 NOT NULL;--> statement-breakpoint
ALTER TABLE "equipment_items" ADD COLUMN "serial_number" text;--> statement-breakpoint
ALTER TABLE "equipment_items" ADD COLUMN "manufacturer" text;--> statement-breakpoint
ALTER TABLE "equipment_items" ADD COLUMN "model" text;--> statement-breakpoint
ALTER TABLE "equipment_items" ADD COLUMN "installed_on" date;--> statement-breakpoint
ALTER TABLE "equipment_items" ADD COLUMN "warranty_ends_on" date;--> statement-breakpoint
ALTER TABLE "equipment_items" ADD COLUMN "supplier" text;--> statement-breakpoint
ALTER TABLE "equipment_items" ADD COLUMN "notes" text;--> statement-breakpoint
ALTER TABLE "equipment_items" ADD COLUMN "parent_item_id" integer;--> statement-breakpoint
ALTER TABLE "equipment_item_files" ADD CONSTRAINT "equipment_item_files_entity_id_entities_id_fk" FOREIGN KEY ("entity_id") REFERENCES "public"."entities"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "equipment_item_files" ADD CONSTRAINT "equipment_item_files_equipment_item_id_equipment_items_id_fk" FOREIGN KEY ("equipment_item_id") REFERENCES "public"."equipment_items"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "equipment_item_files" ADD CONSTRAINT "equipment_item_files_file_id_stored_files_id_fk" FOREIGN KEY ("file_id") REFERENCES "public"."stored_files"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "equipment_warranty_reminders" ADD CONSTRAINT "equipment_warranty_reminders_entity_id_entities_id_fk" FOREIGN KEY ("entity_id") REFERENCES "public"."entities"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "equipment_warranty_reminders" ADD CONSTRAINT "equipment_warranty_reminders_item_fk" FOREIGN KEY ("equipment_item_id") REFERENCES "public"."equipment_items"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "equipment_item_files_entity_idx" ON "equipment_item_files" USING btree ("entity_id");--> statement-breakpoint
CREATE INDEX "equipment_item_files_file_idx" ON "equipment_item_files" USING btree ("file_id");--> statement-breakpoint
CREATE INDEX "equipment_warranty_reminders_entity_idx" ON "equipment_warranty_reminders" USING btree ("entity_id","created_at");--> statement-breakpoint
ALTER TABLE "equipment_items" ADD CONSTRAINT "equipment_items_parent_item_id_equipment_items_id_fk" FOREIGN KEY ("parent_item_id") REFERENCES "public"."equipment_items"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "equipment_items_parent_idx" ON "equipment_items" USING btree ("parent_item_id") WHERE "equipment_items"."parent_item_id" is not null;--> statement-breakpoint
CREATE INDEX "equipment_items_warranty_idx" ON "equipment_items" USING btree ("entity_id","warranty_ends_on") WHERE "equipment_items"."warranty_ends_on" is not null and "equipment_items"."archived_at" is null;--> statement-breakpoint
ALTER TABLE "entities" ADD CONSTRAINT "entities_warranty_reminder_days_check" CHECK ("entities"."warranty_reminder_days" between 1 and 365);--> statement-breakpoint
ALTER TABLE "equipment_items" ADD CONSTRAINT "equipment_items_parent_not_self_check" CHECK ("equipment_items"."parent_item_id" <> "equipment_items"."id");--> statement-breakpoint
ALTER TABLE "notification_details" ADD CONSTRAINT "notification_details_type_check" CHECK ("notification_details"."type" in (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33));--> statement-breakpoint
ALTER TABLE "data_jobs" ADD CONSTRAINT "data_jobs_type_check" CHECK (("data_jobs"."kind" = 0 and "data_jobs"."export_type" is null and "data_jobs"."import_type" in (0, 1, 2, 3, 4, 5, 6, 7))
        or ("data_jobs"."kind" = 1 and "data_jobs"."import_type" is null and "data_jobs"."export_type" in (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14)));