CREATE TABLE "incident_checklist_answers" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "incident_checklist_answers_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"entity_id" integer NOT NULL,
	"incident_id" integer NOT NULL,
	"position" integer NOT NULL,
	"question" text NOT NULL,
	"content_type" smallint DEFAULT 0 NOT NULL,
	"answer" text,
	"file_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "incident_status_counts" (
	"entity_id" integer NOT NULL,
	"status" smallint NOT NULL,
	"count" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "incident_status_counts_pkey" PRIMARY KEY("entity_id","status")
);
--> statement-breakpoint
DROP INDEX "incidents_entity_priority_idx";--> statement-breakpoint
ALTER TABLE "incident_checklist_answers" ADD CONSTRAINT "incident_checklist_answers_entity_id_entities_id_fk" FOREIGN KEY ("entity_id") REFERENCES "public"."entities"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "incident_checklist_answers" ADD CONSTRAINT "incident_checklist_answers_incident_id_incidents_id_fk" FOREIGN KEY ("incident_id") REFERENCES "public"."incidents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "incident_checklist_answers" ADD CONSTRAINT "incident_checklist_answers_file_id_stored_files_id_fk" FOREIGN KEY ("file_id") REFERENCES "public"."stored_files"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "incident_status_counts" ADD CONSTRAINT "incident_status_counts_entity_id_entities_id_fk" FOREIGN KEY ("entity_id") REFERENCES "public"."entities"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "incident_checklist_answers_entity_idx" ON "incident_checklist_answers" USING btree ("entity_id");--> statement-breakpoint
CREATE INDEX "incident_checklist_answers_incident_idx" ON "incident_checklist_answers" USING btree ("incident_id","position");--> statement-breakpoint
CREATE INDEX "incidents_entity_occurrences_idx" ON "incidents" USING btree ("entity_id","occurrences","id") WHERE "incidents"."archived_at" is null;--> statement-breakpoint
CREATE INDEX "incidents_entity_priority_idx" ON "incidents" USING btree ("entity_id",coalesce("priority", -1),"id") WHERE "incidents"."archived_at" is null;--> statement-breakpoint
-- Decision 025: the per-status incident totals are kept by statement-level triggers, so every writer
-- (verbs, cascades, the seeds' set-based inserts) keeps them, in its own transaction. A change that
-- moves no incident between statuses (a title, an assignee) writes nothing.
CREATE FUNCTION "incident_status_counts_apply"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO incident_status_counts AS c (entity_id, status, count)
      SELECT entity_id, status, count(*)::int FROM new_rows WHERE archived_at IS NULL
      GROUP BY entity_id, status ORDER BY entity_id, status
      ON CONFLICT (entity_id, status) DO UPDATE SET count = c.count + excluded.count;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO incident_status_counts AS c (entity_id, status, count)
      SELECT entity_id, status, -count(*)::int FROM old_rows WHERE archived_at IS NULL
      GROUP BY entity_id, status ORDER BY entity_id, status
      ON CONFLICT (entity_id, status) DO UPDATE SET count = c.count + excluded.count;
  ELSE
    INSERT INTO incident_status_counts AS c (entity_id, status, count)
      SELECT entity_id, status, sum(d)::int FROM (
        SELECT entity_id, status, 1 AS d FROM new_rows WHERE archived_at IS NULL
        UNION ALL
        SELECT entity_id, status, -1 AS d FROM old_rows WHERE archived_at IS NULL
      ) AS changes
      GROUP BY entity_id, status HAVING sum(d) <> 0 ORDER BY entity_id, status
      ON CONFLICT (entity_id, status) DO UPDATE SET count = c.count + excluded.count;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "incidents_status_counts_insert" AFTER INSERT ON "incidents"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "incident_status_counts_apply"();
--> statement-breakpoint
CREATE TRIGGER "incidents_status_counts_update" AFTER UPDATE ON "incidents"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "incident_status_counts_apply"();
--> statement-breakpoint
CREATE TRIGGER "incidents_status_counts_delete" AFTER DELETE ON "incidents"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "incident_status_counts_apply"();
--> statement-breakpoint
INSERT INTO "incident_status_counts" ("entity_id", "status", "count")
  SELECT "entity_id", "status", count(*)::int FROM "incidents" WHERE "archived_at" IS NULL GROUP BY "entity_id", "status";
