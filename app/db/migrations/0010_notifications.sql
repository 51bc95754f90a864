CREATE TABLE "notification_counts" (
	"entity_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"total" integer DEFAULT 0 NOT NULL,
	"unread" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "notification_counts_pkey" PRIMARY KEY("entity_id","user_id")
);
--> statement-breakpoint
ALTER TABLE "notification_details" ADD COLUMN "source_key" text;--> statement-breakpoint
ALTER TABLE "notifications" ADD COLUMN "emailed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "notification_counts" ADD CONSTRAINT "notification_counts_entity_id_entities_id_fk" FOREIGN KEY ("entity_id") REFERENCES "public"."entities"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notification_counts" ADD CONSTRAINT "notification_counts_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "notification_details_source_key" ON "notification_details" USING btree ("entity_id","source_key") WHERE "notification_details"."source_key" is not null;--> statement-breakpoint
CREATE INDEX "notifications_read_at_idx" ON "notifications" USING btree ("read_at") WHERE "notifications"."read_at" is not null;--> statement-breakpoint
-- Decision 028: each user's notification totals (the bell, GET /users/{id}/notifications/count) are kept by
-- statement-level triggers, so every writer (the notify job, marking as read, the retention job, the seeds'
-- set-based inserts) keeps them in its own transaction, and the count reads one row. Deletes and updates
-- only adjust existing rows (a user deleted with their notifications has no row left to adjust).
CREATE FUNCTION "notification_counts_apply"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO notification_counts AS c (entity_id, user_id, total, unread)
      SELECT entity_id, user_id, count(*)::int, (count(*) FILTER (WHERE read_at IS NULL))::int FROM new_rows
      GROUP BY entity_id, user_id ORDER BY entity_id, user_id
      ON CONFLICT (entity_id, user_id) DO UPDATE SET total = c.total + excluded.total, unread = c.unread + excluded.unread;
  ELSIF TG_OP = 'DELETE' THEN
    UPDATE notification_counts AS c SET total = c.total - d.total, unread = c.unread - d.unread
      FROM (SELECT entity_id, user_id, count(*)::int AS total, (count(*) FILTER (WHERE read_at IS NULL))::int AS unread
            FROM old_rows GROUP BY entity_id, user_id) AS d
      WHERE c.entity_id = d.entity_id AND c.user_id = d.user_id;
  ELSE
    UPDATE notification_counts AS c SET unread = c.unread + d.unread
      FROM (SELECT entity_id, user_id, sum(d)::int AS unread FROM (
              SELECT entity_id, user_id, 1 AS d FROM new_rows WHERE read_at IS NULL
              UNION ALL
              SELECT entity_id, user_id, -1 AS d FROM old_rows WHERE read_at IS NULL
            ) AS changes GROUP BY entity_id, user_id HAVING sum(d) <> 0) AS d
      WHERE c.entity_id = d.entity_id AND c.user_id = d.user_id;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "notifications_counts_insert" AFTER INSERT ON "notifications"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "notification_counts_apply"();
--> statement-breakpoint
CREATE TRIGGER "notifications_counts_update" AFTER UPDATE ON "notifications"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "notification_counts_apply"();
--> statement-breakpoint
CREATE TRIGGER "notifications_counts_delete" AFTER DELETE ON "notifications"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "notification_counts_apply"();
--> statement-breakpoint
INSERT INTO "notification_counts" ("entity_id", "user_id", "total", "unread")
  SELECT "entity_id", "user_id", count(*)::int, (count(*) FILTER (WHERE "read_at" IS NULL))::int FROM "notifications" GROUP BY "entity_id", "user_id";
