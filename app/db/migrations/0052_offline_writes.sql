CREATE TABLE "offline_writes" (
	"entity_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"write_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "offline_writes_pkey" PRIMARY KEY("user_id","write_id")
);
--> statement-breakpoint
ALTER TABLE "offline_writes" ADD CONSTRAINT "offline_writes_entity_id_entities_id_fk" FOREIGN KEY ("entity_id") REFERENCES "public"."entities"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "offline_writes" ADD CONSTRAINT "offline_writes_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;