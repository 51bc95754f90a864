CREATE TABLE "entities" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "entities_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"name" text NOT NULL,
	"vat_number" text,
	"street_name" text,
	"street_number" text,
	"suffix" text,
	"building_floor" text,
	"additional_info" text,
	"postal_code" text,
	"city" text,
	"country" text,
	"billing_street_name" text,
	"billing_street_number" text,
	"billing_suffix" text,
	"billing_building_floor" text,
	"billing_additional_info" text,
	"billing_postal_code" text,
	"billing_city" text,
	"billing_country" text,
	"billing_same_as_address" boolean DEFAULT false NOT NULL,
	"greeting_en" text,
	"greeting_fr" text,
	"greeting_nl" text,
	"logo_file_id" uuid,
	"template_color" text DEFAULT '#1e3a8a' NOT NULL,
	"template_text_color" text DEFAULT '#ffffff' NOT NULL,
	"explanatory_sticker_file_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"archived_at" timestamp with time zone,
	CONSTRAINT "entities_template_color_check" CHECK ("entities"."template_color" ~ '^#[0-9A-Fa-f]{6}$'),
	CONSTRAINT "entities_template_text_color_check" CHECK ("entities"."template_text_color" ~ '^#[0-9A-Fa-f]{6}$')
);
--> statement-breakpoint
CREATE TABLE "entity_counters" (
	"entity_id" integer NOT NULL,
	"kind" text NOT NULL,
	"value" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "entity_counters_pkey" PRIMARY KEY("entity_id","kind"),
	CONSTRAINT "entity_counters_kind_check" CHECK ("entity_counters"."kind" in ('facility', 'building', 'room', 'incident')),
	CONSTRAINT "entity_counters_value_check" CHECK ("entity_counters"."value" >= 0)
);
--> statement-breakpoint
CREATE TABLE "stored_files" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"entity_id" integer NOT NULL,
	"storage_key" text NOT NULL,
	"original_name" text NOT NULL,
	"mime_type" text NOT NULL,
	"size_bytes" integer NOT NULL,
	"created_by_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone,
	CONSTRAINT "stored_files_storage_key_key" UNIQUE("storage_key"),
	CONSTRAINT "stored_files_size_bytes_check" CHECK ("stored_files"."size_bytes" >= 0)
);
--> statement-breakpoint
CREATE TABLE "email_verification_tokens" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "email_verification_tokens_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"entity_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"email" text NOT NULL,
	"token_hash" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	CONSTRAINT "email_verification_tokens_token_hash_key" UNIQUE("token_hash"),
	CONSTRAINT "email_verification_tokens_expiry_check" CHECK ("email_verification_tokens"."expires_at" > "email_verification_tokens"."created_at")
);
--> statement-breakpoint
CREATE TABLE "password_reset_tokens" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "password_reset_tokens_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"entity_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"token_hash" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	CONSTRAINT "password_reset_tokens_token_hash_key" UNIQUE("token_hash"),
	CONSTRAINT "password_reset_tokens_expiry_check" CHECK ("password_reset_tokens"."expires_at" > "password_reset_tokens"."created_at")
);
--> statement-breakpoint
CREATE TABLE "refresh_tokens" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "refresh_tokens_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"entity_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"family_id" uuid NOT NULL,
	"token_hash" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"rotated_at" timestamp with time zone,
	"replaced_by_id" integer,
	"revoked_at" timestamp with time zone,
	CONSTRAINT "refresh_tokens_token_hash_key" UNIQUE("token_hash"),
	CONSTRAINT "refresh_tokens_expiry_check" CHECK ("refresh_tokens"."expires_at" > "refresh_tokens"."created_at")
);
--> statement-breakpoint
CREATE TABLE "user_linked_objects" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "user_linked_objects_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"entity_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"facility_id" integer,
	"building_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "user_linked_objects_user_object_key" UNIQUE NULLS NOT DISTINCT("user_id","facility_id","building_id"),
	CONSTRAINT "user_linked_objects_one_object_check" CHECK (num_nonnulls("user_linked_objects"."facility_id", "user_linked_objects"."building_id") = 1)
);
--> statement-breakpoint
CREATE TABLE "users" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "users_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"entity_id" integer NOT NULL,
	"email" text NOT NULL,
	"password_hash" text,
	"name" text NOT NULL,
	"surname" text NOT NULL,
	"role" smallint NOT NULL,
	"language" smallint DEFAULT 0 NOT NULL,
	"status" smallint DEFAULT 1 NOT NULL,
	"receive_notification" boolean DEFAULT false NOT NULL,
	"notification_settings" jsonb DEFAULT '{"priorities":[],"buildingIds":[]}'::jsonb NOT NULL,
	"picture_file_id" uuid,
	"last_login_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"archived_at" timestamp with time zone,
	CONSTRAINT "users_role_check" CHECK ("users"."role" in (1, 2, 3)),
	CONSTRAINT "users_language_check" CHECK ("users"."language" in (0, 1, 2)),
	CONSTRAINT "users_status_check" CHECK ("users"."status" in (1, 2, 3))
);
--> statement-breakpoint
CREATE TABLE "buildings" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "buildings_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"entity_id" integer NOT NULL,
	"facility_id" integer NOT NULL,
	"short_id" integer NOT NULL,
	"name" text NOT NULL,
	"description" text,
	"street_name" text,
	"street_number" text,
	"suffix" text,
	"building_floor" text,
	"additional_info" text,
	"postal_code" text,
	"city" text,
	"country" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"archived_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "facilities" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "facilities_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"entity_id" integer NOT NULL,
	"short_id" integer NOT NULL,
	"name" text NOT NULL,
	"description" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"archived_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "report_identifiers" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "report_identifiers_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"entity_id" integer NOT NULL,
	"code" text NOT NULL,
	"room_id" integer,
	"equipment_item_id" integer,
	"qr_print_status" smallint DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"archived_at" timestamp with time zone,
	CONSTRAINT "report_identifiers_code_key" UNIQUE("code"),
	CONSTRAINT "report_identifiers_one_target_check" CHECK (num_nonnulls("report_identifiers"."room_id", "report_identifiers"."equipment_item_id") = 1),
	CONSTRAINT "report_identifiers_code_check" CHECK ("report_identifiers"."code" ~ '^[A-Za-z0-9_-]{4,32}$'),
	CONSTRAINT "report_identifiers_qr_print_status_check" CHECK ("report_identifiers"."qr_print_status" in (0, 1, 2))
);
--> statement-breakpoint
CREATE TABLE "room_files" (
	"entity_id" integer NOT NULL,
	"room_id" integer NOT NULL,
	"file_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "room_files_pkey" PRIMARY KEY("room_id","file_id")
);
--> statement-breakpoint
CREATE TABLE "room_links" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "room_links_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"entity_id" integer NOT NULL,
	"room_id" integer NOT NULL,
	"type" smallint NOT NULL,
	"url" text NOT NULL,
	"position" smallint DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "room_links_type_check" CHECK ("room_links"."type" in (0, 1, 2, 3, 4, 5, 6, 7, 8, 9))
);
--> statement-breakpoint
CREATE TABLE "room_types" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "room_types_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"entity_id" integer NOT NULL,
	"name" text NOT NULL,
	"tags" text[] DEFAULT '{}'::text[] NOT NULL,
	"rating_messages" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"archived_at" timestamp with time zone,
	CONSTRAINT "room_types_rating_messages_check" CHECK (jsonb_typeof("room_types"."rating_messages") = 'array')
);
--> statement-breakpoint
CREATE TABLE "rooms" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "rooms_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"entity_id" integer NOT NULL,
	"building_id" integer NOT NULL,
	"room_type_id" integer NOT NULL,
	"short_id" integer NOT NULL,
	"name" text NOT NULL,
	"description" text,
	"floor" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"archived_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "equipment_categories" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "equipment_categories_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"entity_id" integer NOT NULL,
	"name" text NOT NULL,
	"tags" text[] DEFAULT '{}'::text[] NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"archived_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "equipment_items" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "equipment_items_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"entity_id" integer NOT NULL,
	"room_id" integer NOT NULL,
	"equipment_type_id" integer NOT NULL,
	"internal_reference" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"archived_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "equipment_type_files" (
	"entity_id" integer NOT NULL,
	"equipment_type_id" integer NOT NULL,
	"file_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "equipment_type_files_pkey" PRIMARY KEY("equipment_type_id","file_id")
);
--> statement-breakpoint
CREATE TABLE "equipment_types" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "equipment_types_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"entity_id" integer NOT NULL,
	"category_id" integer NOT NULL,
	"name" text NOT NULL,
	"notes" text,
	"tags" text[] DEFAULT '{}'::text[] NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"archived_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "incident_type_checklist_items" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "incident_type_checklist_items_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"entity_id" integer NOT NULL,
	"incident_type_id" integer NOT NULL,
	"position" smallint DEFAULT 0 NOT NULL,
	"question" text NOT NULL,
	"tutorial_link" text,
	"message" text,
	"content_type" smallint DEFAULT 0 NOT NULL,
	CONSTRAINT "incident_type_checklist_items_content_type_check" CHECK ("incident_type_checklist_items"."content_type" >= 0)
);
--> statement-breakpoint
CREATE TABLE "incident_type_default_assignees" (
	"entity_id" integer NOT NULL,
	"incident_type_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	CONSTRAINT "incident_type_default_assignees_pkey" PRIMARY KEY("incident_type_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "incident_type_equipment_types" (
	"entity_id" integer NOT NULL,
	"incident_type_id" integer NOT NULL,
	"equipment_type_id" integer NOT NULL,
	CONSTRAINT "incident_type_equipment_types_pkey" PRIMARY KEY("incident_type_id","equipment_type_id")
);
--> statement-breakpoint
CREATE TABLE "incident_type_room_types" (
	"entity_id" integer NOT NULL,
	"incident_type_id" integer NOT NULL,
	"room_type_id" integer NOT NULL,
	CONSTRAINT "incident_type_room_types_pkey" PRIMARY KEY("incident_type_id","room_type_id")
);
--> statement-breakpoint
CREATE TABLE "incident_type_rooms" (
	"entity_id" integer NOT NULL,
	"incident_type_id" integer NOT NULL,
	"room_id" integer NOT NULL,
	CONSTRAINT "incident_type_rooms_pkey" PRIMARY KEY("incident_type_id","room_id")
);
--> statement-breakpoint
CREATE TABLE "incident_types" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "incident_types_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"entity_id" integer NOT NULL,
	"name_en" text,
	"name_fr" text,
	"name_nl" text,
	"default_priority" smallint NOT NULL,
	"reporter_may_change_priority" boolean DEFAULT false NOT NULL,
	"status" smallint DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"archived_at" timestamp with time zone,
	CONSTRAINT "incident_types_name_check" CHECK (coalesce("incident_types"."name_en", "incident_types"."name_fr", "incident_types"."name_nl") is not null),
	CONSTRAINT "incident_types_default_priority_check" CHECK ("incident_types"."default_priority" in (0, 1, 2, 3)),
	CONSTRAINT "incident_types_status_check" CHECK ("incident_types"."status" in (0, 1, 2)),
	CONSTRAINT "incident_types_archived_status_check" CHECK (("incident_types"."status" = 2) = ("incident_types"."archived_at" is not null))
);
--> statement-breakpoint
CREATE TABLE "incident_comment_files" (
	"entity_id" integer NOT NULL,
	"comment_id" integer NOT NULL,
	"file_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "incident_comment_files_pkey" PRIMARY KEY("comment_id","file_id")
);
--> statement-breakpoint
CREATE TABLE "incident_comments" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "incident_comments_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"entity_id" integer NOT NULL,
	"incident_id" integer NOT NULL,
	"author_id" integer NOT NULL,
	"body" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"edited_at" timestamp with time zone,
	"edited_by_id" integer,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "incident_events" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "incident_events_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"entity_id" integer NOT NULL,
	"incident_id" integer NOT NULL,
	"type" smallint NOT NULL,
	"actor_id" integer,
	"old_value" jsonb,
	"new_value" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "incident_events_type_check" CHECK ("incident_events"."type" in (0, 1, 2, 3, 4, 5, 6, 7, 8))
);
--> statement-breakpoint
CREATE TABLE "incident_files" (
	"entity_id" integer NOT NULL,
	"incident_id" integer NOT NULL,
	"file_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "incident_files_pkey" PRIMARY KEY("incident_id","file_id")
);
--> statement-breakpoint
CREATE TABLE "incident_reporters" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "incident_reporters_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"entity_id" integer NOT NULL,
	"incident_id" integer NOT NULL,
	"email" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "incidents" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "incidents_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"entity_id" integer NOT NULL,
	"short_id" integer NOT NULL,
	"title" text NOT NULL,
	"description" text,
	"room_id" integer,
	"equipment_item_id" integer,
	"location" text,
	"floor" text,
	"occurrences" integer DEFAULT 1 NOT NULL,
	"last_occurrence_at" timestamp with time zone DEFAULT now() NOT NULL,
	"priority" smallint,
	"status" smallint DEFAULT 0 NOT NULL,
	"assignee_id" integer,
	"incident_type_id" integer,
	"tags" text[] DEFAULT '{}'::text[] NOT NULL,
	"duplicate_of_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"done_at" timestamp with time zone,
	"archived_at" timestamp with time zone,
	CONSTRAINT "incidents_status_check" CHECK ("incidents"."status" in (0, 1, 2, 3, 4)),
	CONSTRAINT "incidents_priority_check" CHECK ("incidents"."priority" is null or "incidents"."priority" in (0, 1, 2, 3)),
	CONSTRAINT "incidents_occurrences_check" CHECK ("incidents"."occurrences" >= 1),
	CONSTRAINT "incidents_duplicate_of_check" CHECK ("incidents"."duplicate_of_id" <> "incidents"."id")
);
--> statement-breakpoint
CREATE TABLE "maintenance_type_assignees" (
	"entity_id" integer NOT NULL,
	"maintenance_type_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	CONSTRAINT "maintenance_type_assignees_pkey" PRIMARY KEY("maintenance_type_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "maintenance_type_equipment_items" (
	"entity_id" integer NOT NULL,
	"maintenance_type_id" integer NOT NULL,
	"equipment_item_id" integer NOT NULL,
	CONSTRAINT "maintenance_type_equipment_items_pkey" PRIMARY KEY("maintenance_type_id","equipment_item_id")
);
--> statement-breakpoint
CREATE TABLE "maintenance_type_rooms" (
	"entity_id" integer NOT NULL,
	"maintenance_type_id" integer NOT NULL,
	"room_id" integer NOT NULL,
	CONSTRAINT "maintenance_type_rooms_pkey" PRIMARY KEY("maintenance_type_id","room_id")
);
--> statement-breakpoint
CREATE TABLE "maintenance_types" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "maintenance_types_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"entity_id" integer NOT NULL,
	"name" text NOT NULL,
	"tags" text[] DEFAULT '{}'::text[] NOT NULL,
	"occurrence_interval" integer,
	"occurrence_unit" smallint DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"archived_at" timestamp with time zone,
	CONSTRAINT "maintenance_types_occurrence_interval_check" CHECK ("maintenance_types"."occurrence_interval" is null or "maintenance_types"."occurrence_interval" > 0),
	CONSTRAINT "maintenance_types_occurrence_unit_check" CHECK ("maintenance_types"."occurrence_unit" in (0, 1, 2, 3, 4))
);
--> statement-breakpoint
CREATE TABLE "planned_maintenance_assignees" (
	"entity_id" integer NOT NULL,
	"planned_maintenance_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	CONSTRAINT "planned_maintenance_assignees_pkey" PRIMARY KEY("planned_maintenance_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "planned_maintenance_equipment_items" (
	"entity_id" integer NOT NULL,
	"planned_maintenance_id" integer NOT NULL,
	"equipment_item_id" integer NOT NULL,
	CONSTRAINT "planned_maintenance_equipment_items_pkey" PRIMARY KEY("planned_maintenance_id","equipment_item_id")
);
--> statement-breakpoint
CREATE TABLE "planned_maintenance_locations" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "planned_maintenance_locations_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"entity_id" integer NOT NULL,
	"planned_maintenance_id" integer NOT NULL,
	"object_type" smallint NOT NULL,
	"facility_id" integer,
	"building_id" integer,
	"room_id" integer,
	CONSTRAINT "planned_maintenance_locations_object_key" UNIQUE NULLS NOT DISTINCT("planned_maintenance_id","object_type","facility_id","building_id","room_id"),
	CONSTRAINT "planned_maintenance_locations_object_type_check" CHECK ("planned_maintenance_locations"."object_type" in (0, 1, 2, 3)),
	CONSTRAINT "planned_maintenance_locations_target_check" CHECK (case "planned_maintenance_locations"."object_type"
        when 0 then num_nonnulls("planned_maintenance_locations"."facility_id", "planned_maintenance_locations"."building_id", "planned_maintenance_locations"."room_id") = 0
        when 1 then "planned_maintenance_locations"."facility_id" is not null and num_nonnulls("planned_maintenance_locations"."building_id", "planned_maintenance_locations"."room_id") = 0
        when 2 then "planned_maintenance_locations"."building_id" is not null and num_nonnulls("planned_maintenance_locations"."facility_id", "planned_maintenance_locations"."room_id") = 0
        when 3 then "planned_maintenance_locations"."room_id" is not null and num_nonnulls("planned_maintenance_locations"."facility_id", "planned_maintenance_locations"."building_id") = 0
        else false end)
);
--> statement-breakpoint
CREATE TABLE "planned_maintenance_rooms" (
	"entity_id" integer NOT NULL,
	"planned_maintenance_id" integer NOT NULL,
	"room_id" integer NOT NULL,
	CONSTRAINT "planned_maintenance_rooms_pkey" PRIMARY KEY("planned_maintenance_id","room_id")
);
--> statement-breakpoint
CREATE TABLE "planned_maintenances" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "planned_maintenances_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"entity_id" integer NOT NULL,
	"name" text NOT NULL,
	"maintenance_type_id" integer NOT NULL,
	"start_date" date NOT NULL,
	"end_date" date NOT NULL,
	"occurrence_interval" integer,
	"occurrence_unit" smallint DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"archived_at" timestamp with time zone,
	CONSTRAINT "planned_maintenances_dates_check" CHECK ("planned_maintenances"."end_date" >= "planned_maintenances"."start_date"),
	CONSTRAINT "planned_maintenances_occurrence_interval_check" CHECK ("planned_maintenances"."occurrence_interval" is null or "planned_maintenances"."occurrence_interval" > 0),
	CONSTRAINT "planned_maintenances_occurrence_unit_check" CHECK ("planned_maintenances"."occurrence_unit" in (0, 1, 2, 3, 4))
);
--> statement-breakpoint
CREATE TABLE "tasks" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "tasks_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"entity_id" integer NOT NULL,
	"planned_maintenance_id" integer NOT NULL,
	"room_id" integer NOT NULL,
	"equipment_item_id" integer,
	"due_date" date NOT NULL,
	"due_time" time,
	"status" smallint DEFAULT 0 NOT NULL,
	"assignee_id" integer,
	"done_at" timestamp with time zone,
	"done_by_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "tasks_occurrence_key" UNIQUE NULLS NOT DISTINCT("planned_maintenance_id","room_id","equipment_item_id","due_date"),
	CONSTRAINT "tasks_status_check" CHECK ("tasks"."status" in (0, 1))
);
--> statement-breakpoint
CREATE TABLE "notification_details" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "notification_details_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"entity_id" integer NOT NULL,
	"type" smallint NOT NULL,
	"subject" text NOT NULL,
	"message" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"incident_id" integer,
	"data_job_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "notification_details_type_check" CHECK ("notification_details"."type" in (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24))
);
--> statement-breakpoint
CREATE TABLE "notifications" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "notifications_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"entity_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"details_id" integer NOT NULL,
	"read_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "reports" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "reports_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"entity_id" integer NOT NULL,
	"user_id" integer,
	"type" smallint NOT NULL,
	"message" text NOT NULL,
	"file_id" uuid,
	"page_url" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "reports_type_check" CHECK ("reports"."type" in (0, 1)),
	CONSTRAINT "reports_message_check" CHECK (length("reports"."message") > 0)
);
--> statement-breakpoint
CREATE TABLE "data_jobs" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "data_jobs_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"entity_id" integer NOT NULL,
	"kind" smallint NOT NULL,
	"import_type" smallint,
	"export_type" smallint,
	"status" smallint DEFAULT 0 NOT NULL,
	"progress" smallint DEFAULT 0 NOT NULL,
	"total_rows" integer,
	"processed_rows" integer DEFAULT 0 NOT NULL,
	"failed_rows" integer DEFAULT 0 NOT NULL,
	"error_code" smallint DEFAULT 0 NOT NULL,
	"error_message" text,
	"errors" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"params" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"source_file_id" uuid,
	"result_file_id" uuid,
	"requested_by_id" integer,
	"queue_job_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone,
	CONSTRAINT "data_jobs_kind_check" CHECK ("data_jobs"."kind" in (0, 1)),
	CONSTRAINT "data_jobs_type_check" CHECK (("data_jobs"."kind" = 0 and "data_jobs"."export_type" is null and "data_jobs"."import_type" in (0, 1, 2, 3, 4, 5, 6, 7))
        or ("data_jobs"."kind" = 1 and "data_jobs"."import_type" is null and "data_jobs"."export_type" in (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11))),
	CONSTRAINT "data_jobs_status_check" CHECK ("data_jobs"."status" in (0, 1, 2, 3)),
	CONSTRAINT "data_jobs_progress_check" CHECK ("data_jobs"."progress" between 0 and 100),
	CONSTRAINT "data_jobs_counts_check" CHECK ("data_jobs"."processed_rows" >= 0 and "data_jobs"."failed_rows" >= 0 and ("data_jobs"."total_rows" is null or "data_jobs"."total_rows" >= 0)),
	CONSTRAINT "data_jobs_error_code_check" CHECK ("data_jobs"."error_code" in (0, 1, 2))
);
--> statement-breakpoint
ALTER TABLE "entities" ADD CONSTRAINT "entities_logo_file_id_stored_files_id_fk" FOREIGN KEY ("logo_file_id") REFERENCES "public"."stored_files"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "entities" ADD CONSTRAINT "entities_explanatory_sticker_file_id_stored_files_id_fk" FOREIGN KEY ("explanatory_sticker_file_id") REFERENCES "public"."stored_files"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "entity_counters" ADD CONSTRAINT "entity_counters_entity_id_entities_id_fk" FOREIGN KEY ("entity_id") REFERENCES "public"."entities"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stored_files" ADD CONSTRAINT "stored_files_entity_id_entities_id_fk" FOREIGN KEY ("entity_id") REFERENCES "public"."entities"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stored_files" ADD CONSTRAINT "stored_files_created_by_id_users_id_fk" FOREIGN KEY ("created_by_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "email_verification_tokens" ADD CONSTRAINT "email_verification_tokens_entity_id_entities_id_fk" FOREIGN KEY ("entity_id") REFERENCES "public"."entities"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "email_verification_tokens" ADD CONSTRAINT "email_verification_tokens_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "password_reset_tokens" ADD CONSTRAINT "password_reset_tokens_entity_id_entities_id_fk" FOREIGN KEY ("entity_id") REFERENCES "public"."entities"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "password_reset_tokens" ADD CONSTRAINT "password_reset_tokens_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "refresh_tokens" ADD CONSTRAINT "refresh_tokens_entity_id_entities_id_fk" FOREIGN KEY ("entity_id") REFERENCES "public"."entities"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "refresh_tokens" ADD CONSTRAINT "refresh_tokens_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "refresh_tokens" ADD CONSTRAINT "refresh_tokens_replaced_by_id_refresh_tokens_id_fk" FOREIGN KEY ("replaced_by_id") REFERENCES "public"."refresh_tokens"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_linked_objects" ADD CONSTRAINT "user_linked_objects_entity_id_entities_id_fk" FOREIGN KEY ("entity_id") REFERENCES "public"."entities"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_linked_objects" ADD CONSTRAINT "user_linked_objects_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_linked_objects" ADD CONSTRAINT "user_linked_objects_facility_id_facilities_id_fk" FOREIGN KEY ("facility_id") REFERENCES "public"."facilities"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_linked_objects" ADD CONSTRAINT "user_linked_objects_building_id_buildings_id_fk" FOREIGN KEY ("building_id") REFERENCES "public"."buildings"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_entity_id_entities_id_fk" FOREIGN KEY ("entity_id") REFERENCES "public"."entities"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_picture_file_id_stored_files_id_fk" FOREIGN KEY ("picture_file_id") REFERENCES "public"."stored_files"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "buildings" ADD CONSTRAINT "buildings_entity_id_entities_id_fk" FOREIGN KEY ("entity_id") REFERENCES "public"."entities"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "buildings" ADD CONSTRAINT "buildings_facility_id_facilities_id_fk" FOREIGN KEY ("facility_id") REFERENCES "public"."facilities"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "facilities" ADD CONSTRAINT "facilities_entity_id_entities_id_fk" FOREIGN KEY ("entity_id") REFERENCES "public"."entities"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "report_identifiers" ADD CONSTRAINT "report_identifiers_entity_id_entities_id_fk" FOREIGN KEY ("entity_id") REFERENCES "public"."entities"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "report_identifiers" ADD CONSTRAINT "report_identifiers_room_id_rooms_id_fk" FOREIGN KEY ("room_id") REFERENCES "public"."rooms"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "report_identifiers" ADD CONSTRAINT "report_identifiers_equipment_item_id_equipment_items_id_fk" FOREIGN KEY ("equipment_item_id") REFERENCES "public"."equipment_items"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "room_files" ADD CONSTRAINT "room_files_entity_id_entities_id_fk" FOREIGN KEY ("entity_id") REFERENCES "public"."entities"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "room_files" ADD CONSTRAINT "room_files_room_id_rooms_id_fk" FOREIGN KEY ("room_id") REFERENCES "public"."rooms"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "room_files" ADD CONSTRAINT "room_files_file_id_stored_files_id_fk" FOREIGN KEY ("file_id") REFERENCES "public"."stored_files"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "room_links" ADD CONSTRAINT "room_links_entity_id_entities_id_fk" FOREIGN KEY ("entity_id") REFERENCES "public"."entities"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "room_links" ADD CONSTRAINT "room_links_room_id_rooms_id_fk" FOREIGN KEY ("room_id") REFERENCES "public"."rooms"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "room_types" ADD CONSTRAINT "room_types_entity_id_entities_id_fk" FOREIGN KEY ("entity_id") REFERENCES "public"."entities"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rooms" ADD CONSTRAINT "rooms_entity_id_entities_id_fk" FOREIGN KEY ("entity_id") REFERENCES "public"."entities"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rooms" ADD CONSTRAINT "rooms_building_id_buildings_id_fk" FOREIGN KEY ("building_id") REFERENCES "public"."buildings"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rooms" ADD CONSTRAINT "rooms_room_type_id_room_types_id_fk" FOREIGN KEY ("room_type_id") REFERENCES "public"."room_types"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "equipment_categories" ADD CONSTRAINT "equipment_categories_entity_id_entities_id_fk" FOREIGN KEY ("entity_id") REFERENCES "public"."entities"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "equipment_items" ADD CONSTRAINT "equipment_items_entity_id_entities_id_fk" FOREIGN KEY ("entity_id") REFERENCES "public"."entities"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "equipment_items" ADD CONSTRAINT "equipment_items_room_id_rooms_id_fk" FOREIGN KEY ("room_id") REFERENCES "public"."rooms"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "equipment_items" ADD CONSTRAINT "equipment_items_equipment_type_id_equipment_types_id_fk" FOREIGN KEY ("equipment_type_id") REFERENCES "public"."equipment_types"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "equipment_type_files" ADD CONSTRAINT "equipment_type_files_entity_id_entities_id_fk" FOREIGN KEY ("entity_id") REFERENCES "public"."entities"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "equipment_type_files" ADD CONSTRAINT "equipment_type_files_equipment_type_id_equipment_types_id_fk" FOREIGN KEY ("equipment_type_id") REFERENCES "public"."equipment_types"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "equipment_type_files" ADD CONSTRAINT "equipment_type_files_file_id_stored_files_id_fk" FOREIGN KEY ("file_id") REFERENCES "public"."stored_files"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "equipment_types" ADD CONSTRAINT "equipment_types_entity_id_entities_id_fk" FOREIGN KEY ("entity_id") REFERENCES "public"."entities"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "equipment_types" ADD CONSTRAINT "equipment_types_category_id_equipment_categories_id_fk" FOREIGN KEY ("category_id") REFERENCES "public"."equipment_categories"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "incident_type_checklist_items" ADD CONSTRAINT "incident_type_checklist_items_entity_id_entities_id_fk" FOREIGN KEY ("entity_id") REFERENCES "public"."entities"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "incident_type_checklist_items" ADD CONSTRAINT "incident_type_checklist_items_incident_type_id_fk" FOREIGN KEY ("incident_type_id") REFERENCES "public"."incident_types"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "incident_type_default_assignees" ADD CONSTRAINT "incident_type_default_assignees_entity_id_entities_id_fk" FOREIGN KEY ("entity_id") REFERENCES "public"."entities"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "incident_type_default_assignees" ADD CONSTRAINT "incident_type_default_assignees_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "incident_type_default_assignees" ADD CONSTRAINT "incident_type_default_assignees_incident_type_id_fk" FOREIGN KEY ("incident_type_id") REFERENCES "public"."incident_types"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "incident_type_equipment_types" ADD CONSTRAINT "incident_type_equipment_types_entity_id_entities_id_fk" FOREIGN KEY ("entity_id") REFERENCES "public"."entities"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "incident_type_equipment_types" ADD CONSTRAINT "incident_type_equipment_types_equipment_type_id_fk" FOREIGN KEY ("equipment_type_id") REFERENCES "public"."equipment_types"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "incident_type_equipment_types" ADD CONSTRAINT "incident_type_equipment_types_incident_type_id_fk" FOREIGN KEY ("incident_type_id") REFERENCES "public"."incident_types"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "incident_type_room_types" ADD CONSTRAINT "incident_type_room_types_entity_id_entities_id_fk" FOREIGN KEY ("entity_id") REFERENCES "public"."entities"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "incident_type_room_types" ADD CONSTRAINT "incident_type_room_types_incident_type_id_incident_types_id_fk" FOREIGN KEY ("incident_type_id") REFERENCES "public"."incident_types"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "incident_type_room_types" ADD CONSTRAINT "incident_type_room_types_room_type_id_room_types_id_fk" FOREIGN KEY ("room_type_id") REFERENCES "public"."room_types"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "incident_type_rooms" ADD CONSTRAINT "incident_type_rooms_entity_id_entities_id_fk" FOREIGN KEY ("entity_id") REFERENCES "public"."entities"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "incident_type_rooms" ADD CONSTRAINT "incident_type_rooms_incident_type_id_incident_types_id_fk" FOREIGN KEY ("incident_type_id") REFERENCES "public"."incident_types"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "incident_type_rooms" ADD CONSTRAINT "incident_type_rooms_room_id_rooms_id_fk" FOREIGN KEY ("room_id") REFERENCES "public"."rooms"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "incident_types" ADD CONSTRAINT "incident_types_entity_id_entities_id_fk" FOREIGN KEY ("entity_id") REFERENCES "public"."entities"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "incident_comment_files" ADD CONSTRAINT "incident_comment_files_entity_id_entities_id_fk" FOREIGN KEY ("entity_id") REFERENCES "public"."entities"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "incident_comment_files" ADD CONSTRAINT "incident_comment_files_comment_id_incident_comments_id_fk" FOREIGN KEY ("comment_id") REFERENCES "public"."incident_comments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "incident_comment_files" ADD CONSTRAINT "incident_comment_files_file_id_stored_files_id_fk" FOREIGN KEY ("file_id") REFERENCES "public"."stored_files"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "incident_comments" ADD CONSTRAINT "incident_comments_entity_id_entities_id_fk" FOREIGN KEY ("entity_id") REFERENCES "public"."entities"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "incident_comments" ADD CONSTRAINT "incident_comments_incident_id_incidents_id_fk" FOREIGN KEY ("incident_id") REFERENCES "public"."incidents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "incident_comments" ADD CONSTRAINT "incident_comments_author_id_users_id_fk" FOREIGN KEY ("author_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "incident_comments" ADD CONSTRAINT "incident_comments_edited_by_id_users_id_fk" FOREIGN KEY ("edited_by_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "incident_events" ADD CONSTRAINT "incident_events_entity_id_entities_id_fk" FOREIGN KEY ("entity_id") REFERENCES "public"."entities"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "incident_events" ADD CONSTRAINT "incident_events_incident_id_incidents_id_fk" FOREIGN KEY ("incident_id") REFERENCES "public"."incidents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "incident_events" ADD CONSTRAINT "incident_events_actor_id_users_id_fk" FOREIGN KEY ("actor_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "incident_files" ADD CONSTRAINT "incident_files_entity_id_entities_id_fk" FOREIGN KEY ("entity_id") REFERENCES "public"."entities"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "incident_files" ADD CONSTRAINT "incident_files_incident_id_incidents_id_fk" FOREIGN KEY ("incident_id") REFERENCES "public"."incidents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "incident_files" ADD CONSTRAINT "incident_files_file_id_stored_files_id_fk" FOREIGN KEY ("file_id") REFERENCES "public"."stored_files"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "incident_reporters" ADD CONSTRAINT "incident_reporters_entity_id_entities_id_fk" FOREIGN KEY ("entity_id") REFERENCES "public"."entities"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "incident_reporters" ADD CONSTRAINT "incident_reporters_incident_id_incidents_id_fk" FOREIGN KEY ("incident_id") REFERENCES "public"."incidents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "incidents" ADD CONSTRAINT "incidents_entity_id_entities_id_fk" FOREIGN KEY ("entity_id") REFERENCES "public"."entities"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "incidents" ADD CONSTRAINT "incidents_room_id_rooms_id_fk" FOREIGN KEY ("room_id") REFERENCES "public"."rooms"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "incidents" ADD CONSTRAINT "incidents_equipment_item_id_equipment_items_id_fk" FOREIGN KEY ("equipment_item_id") REFERENCES "public"."equipment_items"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "incidents" ADD CONSTRAINT "incidents_assignee_id_users_id_fk" FOREIGN KEY ("assignee_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "incidents" ADD CONSTRAINT "incidents_incident_type_id_incident_types_id_fk" FOREIGN KEY ("incident_type_id") REFERENCES "public"."incident_types"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "incidents" ADD CONSTRAINT "incidents_duplicate_of_id_incidents_id_fk" FOREIGN KEY ("duplicate_of_id") REFERENCES "public"."incidents"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "maintenance_type_assignees" ADD CONSTRAINT "maintenance_type_assignees_entity_id_entities_id_fk" FOREIGN KEY ("entity_id") REFERENCES "public"."entities"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "maintenance_type_assignees" ADD CONSTRAINT "maintenance_type_assignees_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "maintenance_type_assignees" ADD CONSTRAINT "maintenance_type_assignees_maintenance_type_id_fk" FOREIGN KEY ("maintenance_type_id") REFERENCES "public"."maintenance_types"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "maintenance_type_equipment_items" ADD CONSTRAINT "maintenance_type_equipment_items_entity_id_entities_id_fk" FOREIGN KEY ("entity_id") REFERENCES "public"."entities"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "maintenance_type_equipment_items" ADD CONSTRAINT "maintenance_type_equipment_items_equipment_item_id_fk" FOREIGN KEY ("equipment_item_id") REFERENCES "public"."equipment_items"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "maintenance_type_equipment_items" ADD CONSTRAINT "maintenance_type_equipment_items_maintenance_type_id_fk" FOREIGN KEY ("maintenance_type_id") REFERENCES "public"."maintenance_types"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "maintenance_type_rooms" ADD CONSTRAINT "maintenance_type_rooms_entity_id_entities_id_fk" FOREIGN KEY ("entity_id") REFERENCES "public"."entities"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "maintenance_type_rooms" ADD CONSTRAINT "maintenance_type_rooms_room_id_rooms_id_fk" FOREIGN KEY ("room_id") REFERENCES "public"."rooms"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "maintenance_type_rooms" ADD CONSTRAINT "maintenance_type_rooms_maintenance_type_id_fk" FOREIGN KEY ("maintenance_type_id") REFERENCES "public"."maintenance_types"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "maintenance_types" ADD CONSTRAINT "maintenance_types_entity_id_entities_id_fk" FOREIGN KEY ("entity_id") REFERENCES "public"."entities"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "planned_maintenance_assignees" ADD CONSTRAINT "planned_maintenance_assignees_entity_id_entities_id_fk" FOREIGN KEY ("entity_id") REFERENCES "public"."entities"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "planned_maintenance_assignees" ADD CONSTRAINT "planned_maintenance_assignees_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "planned_maintenance_assignees" ADD CONSTRAINT "planned_maintenance_assignees_planned_maintenance_id_fk" FOREIGN KEY ("planned_maintenance_id") REFERENCES "public"."planned_maintenances"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "planned_maintenance_equipment_items" ADD CONSTRAINT "planned_maintenance_equipment_items_entity_id_entities_id_fk" FOREIGN KEY ("entity_id") REFERENCES "public"."entities"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "planned_maintenance_equipment_items" ADD CONSTRAINT "planned_maintenance_equipment_items_equipment_item_id_fk" FOREIGN KEY ("equipment_item_id") REFERENCES "public"."equipment_items"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "planned_maintenance_equipment_items" ADD CONSTRAINT "planned_maintenance_equipment_items_planned_maintenance_id_fk" FOREIGN KEY ("planned_maintenance_id") REFERENCES "public"."planned_maintenances"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "planned_maintenance_locations" ADD CONSTRAINT "planned_maintenance_locations_entity_id_entities_id_fk" FOREIGN KEY ("entity_id") REFERENCES "public"."entities"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "planned_maintenance_locations" ADD CONSTRAINT "planned_maintenance_locations_facility_id_facilities_id_fk" FOREIGN KEY ("facility_id") REFERENCES "public"."facilities"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "planned_maintenance_locations" ADD CONSTRAINT "planned_maintenance_locations_building_id_buildings_id_fk" FOREIGN KEY ("building_id") REFERENCES "public"."buildings"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "planned_maintenance_locations" ADD CONSTRAINT "planned_maintenance_locations_room_id_rooms_id_fk" FOREIGN KEY ("room_id") REFERENCES "public"."rooms"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "planned_maintenance_locations" ADD CONSTRAINT "planned_maintenance_locations_planned_maintenance_id_fk" FOREIGN KEY ("planned_maintenance_id") REFERENCES "public"."planned_maintenances"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "planned_maintenance_rooms" ADD CONSTRAINT "planned_maintenance_rooms_entity_id_entities_id_fk" FOREIGN KEY ("entity_id") REFERENCES "public"."entities"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "planned_maintenance_rooms" ADD CONSTRAINT "planned_maintenance_rooms_room_id_rooms_id_fk" FOREIGN KEY ("room_id") REFERENCES "public"."rooms"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "planned_maintenance_rooms" ADD CONSTRAINT "planned_maintenance_rooms_planned_maintenance_id_fk" FOREIGN KEY ("planned_maintenance_id") REFERENCES "public"."planned_maintenances"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "planned_maintenances" ADD CONSTRAINT "planned_maintenances_entity_id_entities_id_fk" FOREIGN KEY ("entity_id") REFERENCES "public"."entities"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "planned_maintenances" ADD CONSTRAINT "planned_maintenances_maintenance_type_id_fk" FOREIGN KEY ("maintenance_type_id") REFERENCES "public"."maintenance_types"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tasks" ADD CONSTRAINT "tasks_entity_id_entities_id_fk" FOREIGN KEY ("entity_id") REFERENCES "public"."entities"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tasks" ADD CONSTRAINT "tasks_planned_maintenance_id_planned_maintenances_id_fk" FOREIGN KEY ("planned_maintenance_id") REFERENCES "public"."planned_maintenances"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tasks" ADD CONSTRAINT "tasks_room_id_rooms_id_fk" FOREIGN KEY ("room_id") REFERENCES "public"."rooms"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tasks" ADD CONSTRAINT "tasks_equipment_item_id_equipment_items_id_fk" FOREIGN KEY ("equipment_item_id") REFERENCES "public"."equipment_items"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tasks" ADD CONSTRAINT "tasks_assignee_id_users_id_fk" FOREIGN KEY ("assignee_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tasks" ADD CONSTRAINT "tasks_done_by_id_users_id_fk" FOREIGN KEY ("done_by_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notification_details" ADD CONSTRAINT "notification_details_entity_id_entities_id_fk" FOREIGN KEY ("entity_id") REFERENCES "public"."entities"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notification_details" ADD CONSTRAINT "notification_details_incident_id_incidents_id_fk" FOREIGN KEY ("incident_id") REFERENCES "public"."incidents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notification_details" ADD CONSTRAINT "notification_details_data_job_id_data_jobs_id_fk" FOREIGN KEY ("data_job_id") REFERENCES "public"."data_jobs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_entity_id_entities_id_fk" FOREIGN KEY ("entity_id") REFERENCES "public"."entities"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_details_id_notification_details_id_fk" FOREIGN KEY ("details_id") REFERENCES "public"."notification_details"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reports" ADD CONSTRAINT "reports_entity_id_entities_id_fk" FOREIGN KEY ("entity_id") REFERENCES "public"."entities"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reports" ADD CONSTRAINT "reports_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reports" ADD CONSTRAINT "reports_file_id_stored_files_id_fk" FOREIGN KEY ("file_id") REFERENCES "public"."stored_files"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "data_jobs" ADD CONSTRAINT "data_jobs_entity_id_entities_id_fk" FOREIGN KEY ("entity_id") REFERENCES "public"."entities"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "data_jobs" ADD CONSTRAINT "data_jobs_source_file_id_stored_files_id_fk" FOREIGN KEY ("source_file_id") REFERENCES "public"."stored_files"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "data_jobs" ADD CONSTRAINT "data_jobs_result_file_id_stored_files_id_fk" FOREIGN KEY ("result_file_id") REFERENCES "public"."stored_files"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "data_jobs" ADD CONSTRAINT "data_jobs_requested_by_id_users_id_fk" FOREIGN KEY ("requested_by_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "stored_files_entity_created_idx" ON "stored_files" USING btree ("entity_id","created_at");--> statement-breakpoint
CREATE INDEX "email_verification_tokens_entity_idx" ON "email_verification_tokens" USING btree ("entity_id");--> statement-breakpoint
CREATE INDEX "email_verification_tokens_user_idx" ON "email_verification_tokens" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "email_verification_tokens_expires_idx" ON "email_verification_tokens" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "password_reset_tokens_entity_idx" ON "password_reset_tokens" USING btree ("entity_id");--> statement-breakpoint
CREATE INDEX "password_reset_tokens_user_idx" ON "password_reset_tokens" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "password_reset_tokens_expires_idx" ON "password_reset_tokens" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "refresh_tokens_entity_idx" ON "refresh_tokens" USING btree ("entity_id");--> statement-breakpoint
CREATE INDEX "refresh_tokens_user_idx" ON "refresh_tokens" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "refresh_tokens_family_idx" ON "refresh_tokens" USING btree ("family_id");--> statement-breakpoint
CREATE INDEX "refresh_tokens_expires_idx" ON "refresh_tokens" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "user_linked_objects_entity_idx" ON "user_linked_objects" USING btree ("entity_id");--> statement-breakpoint
CREATE INDEX "user_linked_objects_facility_idx" ON "user_linked_objects" USING btree ("facility_id");--> statement-breakpoint
CREATE INDEX "user_linked_objects_building_idx" ON "user_linked_objects" USING btree ("building_id");--> statement-breakpoint
CREATE UNIQUE INDEX "users_email_lower_key" ON "users" USING btree (lower("email"));--> statement-breakpoint
CREATE INDEX "users_entity_list_idx" ON "users" USING btree ("entity_id","surname","name") WHERE "users"."archived_at" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "buildings_entity_short_id_key" ON "buildings" USING btree ("entity_id","short_id");--> statement-breakpoint
CREATE INDEX "buildings_entity_name_idx" ON "buildings" USING btree ("entity_id","name") WHERE "buildings"."archived_at" is null;--> statement-breakpoint
CREATE INDEX "buildings_facility_idx" ON "buildings" USING btree ("facility_id");--> statement-breakpoint
CREATE UNIQUE INDEX "facilities_entity_short_id_key" ON "facilities" USING btree ("entity_id","short_id");--> statement-breakpoint
CREATE INDEX "facilities_entity_name_idx" ON "facilities" USING btree ("entity_id","name") WHERE "facilities"."archived_at" is null;--> statement-breakpoint
CREATE INDEX "report_identifiers_entity_print_idx" ON "report_identifiers" USING btree ("entity_id","qr_print_status") WHERE "report_identifiers"."archived_at" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "report_identifiers_room_active_key" ON "report_identifiers" USING btree ("room_id") WHERE "report_identifiers"."archived_at" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "report_identifiers_equipment_item_active_key" ON "report_identifiers" USING btree ("equipment_item_id") WHERE "report_identifiers"."archived_at" is null;--> statement-breakpoint
CREATE INDEX "room_files_entity_idx" ON "room_files" USING btree ("entity_id");--> statement-breakpoint
CREATE INDEX "room_files_file_idx" ON "room_files" USING btree ("file_id");--> statement-breakpoint
CREATE INDEX "room_links_entity_idx" ON "room_links" USING btree ("entity_id");--> statement-breakpoint
CREATE INDEX "room_links_room_idx" ON "room_links" USING btree ("room_id","position");--> statement-breakpoint
CREATE INDEX "room_types_entity_name_idx" ON "room_types" USING btree ("entity_id","name") WHERE "room_types"."archived_at" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "rooms_entity_short_id_key" ON "rooms" USING btree ("entity_id","short_id");--> statement-breakpoint
CREATE INDEX "rooms_entity_name_idx" ON "rooms" USING btree ("entity_id","name") WHERE "rooms"."archived_at" is null;--> statement-breakpoint
CREATE INDEX "rooms_building_idx" ON "rooms" USING btree ("building_id");--> statement-breakpoint
CREATE INDEX "rooms_room_type_idx" ON "rooms" USING btree ("room_type_id");--> statement-breakpoint
CREATE INDEX "equipment_categories_entity_name_idx" ON "equipment_categories" USING btree ("entity_id","name") WHERE "equipment_categories"."archived_at" is null;--> statement-breakpoint
CREATE INDEX "equipment_items_entity_room_idx" ON "equipment_items" USING btree ("entity_id","room_id") WHERE "equipment_items"."archived_at" is null;--> statement-breakpoint
CREATE INDEX "equipment_items_room_idx" ON "equipment_items" USING btree ("room_id");--> statement-breakpoint
CREATE INDEX "equipment_items_equipment_type_idx" ON "equipment_items" USING btree ("equipment_type_id");--> statement-breakpoint
CREATE INDEX "equipment_type_files_entity_idx" ON "equipment_type_files" USING btree ("entity_id");--> statement-breakpoint
CREATE INDEX "equipment_type_files_file_idx" ON "equipment_type_files" USING btree ("file_id");--> statement-breakpoint
CREATE INDEX "equipment_types_entity_name_idx" ON "equipment_types" USING btree ("entity_id","name") WHERE "equipment_types"."archived_at" is null;--> statement-breakpoint
CREATE INDEX "equipment_types_category_idx" ON "equipment_types" USING btree ("category_id");--> statement-breakpoint
CREATE INDEX "incident_type_checklist_items_entity_idx" ON "incident_type_checklist_items" USING btree ("entity_id");--> statement-breakpoint
CREATE INDEX "incident_type_checklist_items_type_idx" ON "incident_type_checklist_items" USING btree ("incident_type_id","position");--> statement-breakpoint
CREATE INDEX "incident_type_default_assignees_entity_idx" ON "incident_type_default_assignees" USING btree ("entity_id");--> statement-breakpoint
CREATE INDEX "incident_type_default_assignees_user_idx" ON "incident_type_default_assignees" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "incident_type_equipment_types_entity_idx" ON "incident_type_equipment_types" USING btree ("entity_id");--> statement-breakpoint
CREATE INDEX "incident_type_equipment_types_equipment_type_idx" ON "incident_type_equipment_types" USING btree ("equipment_type_id");--> statement-breakpoint
CREATE INDEX "incident_type_room_types_entity_idx" ON "incident_type_room_types" USING btree ("entity_id");--> statement-breakpoint
CREATE INDEX "incident_type_room_types_room_type_idx" ON "incident_type_room_types" USING btree ("room_type_id");--> statement-breakpoint
CREATE INDEX "incident_type_rooms_entity_idx" ON "incident_type_rooms" USING btree ("entity_id");--> statement-breakpoint
CREATE INDEX "incident_type_rooms_room_idx" ON "incident_type_rooms" USING btree ("room_id");--> statement-breakpoint
CREATE INDEX "incident_types_entity_idx" ON "incident_types" USING btree ("entity_id") WHERE "incident_types"."archived_at" is null;--> statement-breakpoint
CREATE INDEX "incident_comment_files_entity_idx" ON "incident_comment_files" USING btree ("entity_id");--> statement-breakpoint
CREATE INDEX "incident_comment_files_file_idx" ON "incident_comment_files" USING btree ("file_id");--> statement-breakpoint
CREATE INDEX "incident_comments_entity_idx" ON "incident_comments" USING btree ("entity_id");--> statement-breakpoint
CREATE INDEX "incident_comments_incident_idx" ON "incident_comments" USING btree ("incident_id","created_at");--> statement-breakpoint
CREATE INDEX "incident_events_entity_created_idx" ON "incident_events" USING btree ("entity_id","created_at");--> statement-breakpoint
CREATE INDEX "incident_events_incident_created_idx" ON "incident_events" USING btree ("incident_id","created_at");--> statement-breakpoint
CREATE INDEX "incident_files_entity_idx" ON "incident_files" USING btree ("entity_id");--> statement-breakpoint
CREATE INDEX "incident_files_file_idx" ON "incident_files" USING btree ("file_id");--> statement-breakpoint
CREATE UNIQUE INDEX "incident_reporters_incident_email_key" ON "incident_reporters" USING btree ("incident_id",lower("email"));--> statement-breakpoint
CREATE INDEX "incident_reporters_entity_idx" ON "incident_reporters" USING btree ("entity_id");--> statement-breakpoint
CREATE UNIQUE INDEX "incidents_entity_short_id_key" ON "incidents" USING btree ("entity_id","short_id");--> statement-breakpoint
CREATE INDEX "incidents_entity_created_idx" ON "incidents" USING btree ("entity_id","created_at" DESC NULLS FIRST) WHERE "incidents"."archived_at" is null;--> statement-breakpoint
CREATE INDEX "incidents_entity_status_created_idx" ON "incidents" USING btree ("entity_id","status","created_at" DESC NULLS FIRST) WHERE "incidents"."archived_at" is null;--> statement-breakpoint
CREATE INDEX "incidents_entity_assignee_status_idx" ON "incidents" USING btree ("entity_id","assignee_id","status") WHERE "incidents"."archived_at" is null;--> statement-breakpoint
CREATE INDEX "incidents_entity_incident_type_idx" ON "incidents" USING btree ("entity_id","incident_type_id") WHERE "incidents"."archived_at" is null;--> statement-breakpoint
CREATE INDEX "incidents_entity_priority_idx" ON "incidents" USING btree ("entity_id","priority") WHERE "incidents"."archived_at" is null;--> statement-breakpoint
CREATE INDEX "incidents_entity_title_idx" ON "incidents" USING btree ("entity_id","title") WHERE "incidents"."archived_at" is null;--> statement-breakpoint
CREATE INDEX "incidents_entity_done_idx" ON "incidents" USING btree ("entity_id","done_at") WHERE "incidents"."done_at" is not null;--> statement-breakpoint
CREATE INDEX "incidents_room_idx" ON "incidents" USING btree ("room_id");--> statement-breakpoint
CREATE INDEX "incidents_equipment_item_idx" ON "incidents" USING btree ("equipment_item_id");--> statement-breakpoint
CREATE INDEX "incidents_duplicate_of_idx" ON "incidents" USING btree ("duplicate_of_id") WHERE "incidents"."duplicate_of_id" is not null;--> statement-breakpoint
CREATE INDEX "incidents_tags_idx" ON "incidents" USING gin ("tags");--> statement-breakpoint
CREATE INDEX "maintenance_type_assignees_entity_idx" ON "maintenance_type_assignees" USING btree ("entity_id");--> statement-breakpoint
CREATE INDEX "maintenance_type_assignees_user_idx" ON "maintenance_type_assignees" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "maintenance_type_equipment_items_entity_idx" ON "maintenance_type_equipment_items" USING btree ("entity_id");--> statement-breakpoint
CREATE INDEX "maintenance_type_equipment_items_item_idx" ON "maintenance_type_equipment_items" USING btree ("equipment_item_id");--> statement-breakpoint
CREATE INDEX "maintenance_type_rooms_entity_idx" ON "maintenance_type_rooms" USING btree ("entity_id");--> statement-breakpoint
CREATE INDEX "maintenance_type_rooms_room_idx" ON "maintenance_type_rooms" USING btree ("room_id");--> statement-breakpoint
CREATE INDEX "maintenance_types_entity_name_idx" ON "maintenance_types" USING btree ("entity_id","name") WHERE "maintenance_types"."archived_at" is null;--> statement-breakpoint
CREATE INDEX "planned_maintenance_assignees_entity_idx" ON "planned_maintenance_assignees" USING btree ("entity_id");--> statement-breakpoint
CREATE INDEX "planned_maintenance_assignees_user_idx" ON "planned_maintenance_assignees" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "planned_maintenance_equipment_items_entity_idx" ON "planned_maintenance_equipment_items" USING btree ("entity_id");--> statement-breakpoint
CREATE INDEX "planned_maintenance_equipment_items_item_idx" ON "planned_maintenance_equipment_items" USING btree ("equipment_item_id");--> statement-breakpoint
CREATE INDEX "planned_maintenance_locations_entity_idx" ON "planned_maintenance_locations" USING btree ("entity_id");--> statement-breakpoint
CREATE INDEX "planned_maintenance_locations_facility_idx" ON "planned_maintenance_locations" USING btree ("facility_id");--> statement-breakpoint
CREATE INDEX "planned_maintenance_locations_building_idx" ON "planned_maintenance_locations" USING btree ("building_id");--> statement-breakpoint
CREATE INDEX "planned_maintenance_locations_room_idx" ON "planned_maintenance_locations" USING btree ("room_id");--> statement-breakpoint
CREATE INDEX "planned_maintenance_rooms_entity_idx" ON "planned_maintenance_rooms" USING btree ("entity_id");--> statement-breakpoint
CREATE INDEX "planned_maintenance_rooms_room_idx" ON "planned_maintenance_rooms" USING btree ("room_id");--> statement-breakpoint
CREATE INDEX "planned_maintenances_entity_start_idx" ON "planned_maintenances" USING btree ("entity_id","start_date") WHERE "planned_maintenances"."archived_at" is null;--> statement-breakpoint
CREATE INDEX "planned_maintenances_maintenance_type_idx" ON "planned_maintenances" USING btree ("maintenance_type_id");--> statement-breakpoint
CREATE INDEX "tasks_entity_due_idx" ON "tasks" USING btree ("entity_id","due_date");--> statement-breakpoint
CREATE INDEX "tasks_entity_assignee_status_idx" ON "tasks" USING btree ("entity_id","assignee_id","status");--> statement-breakpoint
CREATE INDEX "tasks_planned_maintenance_due_idx" ON "tasks" USING btree ("planned_maintenance_id","due_date");--> statement-breakpoint
CREATE INDEX "tasks_room_idx" ON "tasks" USING btree ("room_id");--> statement-breakpoint
CREATE INDEX "tasks_equipment_item_idx" ON "tasks" USING btree ("equipment_item_id") WHERE "tasks"."equipment_item_id" is not null;--> statement-breakpoint
CREATE INDEX "notification_details_entity_created_idx" ON "notification_details" USING btree ("entity_id","created_at" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "notification_details_incident_idx" ON "notification_details" USING btree ("incident_id") WHERE "notification_details"."incident_id" is not null;--> statement-breakpoint
CREATE INDEX "notification_details_data_job_idx" ON "notification_details" USING btree ("data_job_id") WHERE "notification_details"."data_job_id" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "notifications_user_details_key" ON "notifications" USING btree ("user_id","details_id");--> statement-breakpoint
CREATE INDEX "notifications_user_created_idx" ON "notifications" USING btree ("user_id","created_at" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "notifications_user_unread_idx" ON "notifications" USING btree ("user_id","created_at" DESC NULLS FIRST) WHERE "notifications"."read_at" is null;--> statement-breakpoint
CREATE INDEX "notifications_entity_idx" ON "notifications" USING btree ("entity_id");--> statement-breakpoint
CREATE INDEX "notifications_details_idx" ON "notifications" USING btree ("details_id");--> statement-breakpoint
CREATE INDEX "reports_entity_created_idx" ON "reports" USING btree ("entity_id","created_at" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "data_jobs_entity_created_idx" ON "data_jobs" USING btree ("entity_id","created_at" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "data_jobs_entity_active_idx" ON "data_jobs" USING btree ("entity_id","kind") WHERE "data_jobs"."status" in (0, 1);