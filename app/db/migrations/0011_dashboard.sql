CREATE TABLE "incident_month_assignee_counts" (
	"entity_id" integer NOT NULL,
	"month" date NOT NULL,
	"assignee_id" integer DEFAULT 0 NOT NULL,
	"status" smallint NOT NULL,
	"count" integer DEFAULT 0 NOT NULL,
	"handling_seconds" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "incident_month_assignee_counts_pkey" PRIMARY KEY("entity_id","month","assignee_id","status")
);
--> statement-breakpoint
CREATE TABLE "incident_month_counts" (
	"entity_id" integer NOT NULL,
	"month" date NOT NULL,
	"incident_type_id" integer DEFAULT 0 NOT NULL,
	"priority" smallint DEFAULT -1 NOT NULL,
	"status" smallint NOT NULL,
	"count" integer DEFAULT 0 NOT NULL,
	"handling_seconds" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "incident_month_counts_pkey" PRIMARY KEY("entity_id","month","incident_type_id","priority","status")
);
--> statement-breakpoint
ALTER TABLE "entities" ADD COLUMN "time_zone" text DEFAULT 'Europe/Brussels' NOT NULL;--> statement-breakpoint
ALTER TABLE "incident_month_assignee_counts" ADD CONSTRAINT "incident_month_assignee_counts_entity_id_entities_id_fk" FOREIGN KEY ("entity_id") REFERENCES "public"."entities"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "incident_month_counts" ADD CONSTRAINT "incident_month_counts_entity_id_entities_id_fk" FOREIGN KEY ("entity_id") REFERENCES "public"."entities"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
-- Decision 030: the dashboard's monthly counters are kept by statement-level triggers on incidents, in the
-- writer's transaction (verbs, cascades, the seeds' set-based inserts), like the status counters of 0008.
-- The month is the first day of the month of created_at in the entity's time zone (entities.time_zone);
-- handling_seconds sums creation to Done of the incidents whose status is Done. A change that moves no
-- incident between keys (a title, a tag) writes nothing.
CREATE FUNCTION "incident_month_counts_apply"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    WITH changes AS (
        SELECT r.entity_id, (date_trunc('month', r.created_at AT TIME ZONE e.time_zone))::date AS month,
          coalesce(r.incident_type_id, 0) AS incident_type_id, coalesce(r.priority, -1)::smallint AS priority,
          coalesce(r.assignee_id, 0) AS assignee_id, r.status, 1 AS d,
          CASE WHEN r.status = 2 AND r.done_at IS NOT NULL
            THEN round(extract(epoch FROM r.done_at - r.created_at))::bigint ELSE 0 END AS s
        FROM new_rows r JOIN entities e ON e.id = r.entity_id WHERE r.archived_at IS NULL
      ), by_type AS (
        INSERT INTO incident_month_counts AS c (entity_id, month, incident_type_id, priority, status, count, handling_seconds)
        SELECT entity_id, month, incident_type_id, priority, status, sum(d)::int, sum(s)::bigint FROM changes
        GROUP BY 1, 2, 3, 4, 5 HAVING sum(d) <> 0 OR sum(s) <> 0 ORDER BY 1, 2, 3, 4, 5
        ON CONFLICT (entity_id, month, incident_type_id, priority, status) DO UPDATE
          SET count = c.count + excluded.count, handling_seconds = c.handling_seconds + excluded.handling_seconds
      )
    INSERT INTO incident_month_assignee_counts AS c (entity_id, month, assignee_id, status, count, handling_seconds)
      SELECT entity_id, month, assignee_id, status, sum(d)::int, sum(s)::bigint FROM changes
      GROUP BY 1, 2, 3, 4 HAVING sum(d) <> 0 OR sum(s) <> 0 ORDER BY 1, 2, 3, 4
      ON CONFLICT (entity_id, month, assignee_id, status) DO UPDATE
        SET count = c.count + excluded.count, handling_seconds = c.handling_seconds + excluded.handling_seconds;
  ELSIF TG_OP = 'DELETE' THEN
    WITH changes AS (
        SELECT r.entity_id, (date_trunc('month', r.created_at AT TIME ZONE e.time_zone))::date AS month,
          coalesce(r.incident_type_id, 0) AS incident_type_id, coalesce(r.priority, -1)::smallint AS priority,
          coalesce(r.assignee_id, 0) AS assignee_id, r.status, -1 AS d,
          CASE WHEN r.status = 2 AND r.done_at IS NOT NULL
            THEN -round(extract(epoch FROM r.done_at - r.created_at))::bigint ELSE 0 END AS s
        FROM old_rows r JOIN entities e ON e.id = r.entity_id WHERE r.archived_at IS NULL
      ), by_type AS (
        INSERT INTO incident_month_counts AS c (entity_id, month, incident_type_id, priority, status, count, handling_seconds)
        SELECT entity_id, month, incident_type_id, priority, status, sum(d)::int, sum(s)::bigint FROM changes
        GROUP BY 1, 2, 3, 4, 5 HAVING sum(d) <> 0 OR sum(s) <> 0 ORDER BY 1, 2, 3, 4, 5
        ON CONFLICT (entity_id, month, incident_type_id, priority, status) DO UPDATE
          SET count = c.count + excluded.count, handling_seconds = c.handling_seconds + excluded.handling_seconds
      )
    INSERT INTO incident_month_assignee_counts AS c (entity_id, month, assignee_id, status, count, handling_seconds)
      SELECT entity_id, month, assignee_id, status, sum(d)::int, sum(s)::bigint FROM changes
      GROUP BY 1, 2, 3, 4 HAVING sum(d) <> 0 OR sum(s) <> 0 ORDER BY 1, 2, 3, 4
      ON CONFLICT (entity_id, month, assignee_id, status) DO UPDATE
        SET count = c.count + excluded.count, handling_seconds = c.handling_seconds + excluded.handling_seconds;
  ELSE
    WITH changes AS (
        SELECT r.entity_id, (date_trunc('month', r.created_at AT TIME ZONE e.time_zone))::date AS month,
          coalesce(r.incident_type_id, 0) AS incident_type_id, coalesce(r.priority, -1)::smallint AS priority,
          coalesce(r.assignee_id, 0) AS assignee_id, r.status, 1 AS d,
          CASE WHEN r.status = 2 AND r.done_at IS NOT NULL
            THEN round(extract(epoch FROM r.done_at - r.created_at))::bigint ELSE 0 END AS s
        FROM new_rows r JOIN entities e ON e.id = r.entity_id WHERE r.archived_at IS NULL
        UNION ALL
        SELECT r.entity_id, (date_trunc('month', r.created_at AT TIME ZONE e.time_zone))::date AS month,
          coalesce(r.incident_type_id, 0) AS incident_type_id, coalesce(r.priority, -1)::smallint AS priority,
          coalesce(r.assignee_id, 0) AS assignee_id, r.status, -1 AS d,
          CASE WHEN r.status = 2 AND r.done_at IS NOT NULL
            THEN -round(extract(epoch FROM r.done_at - r.created_at))::bigint ELSE 0 END AS s
        FROM old_rows r JOIN entities e ON e.id = r.entity_id WHERE r.archived_at IS NULL
      ), by_type AS (
        INSERT INTO incident_month_counts AS c (entity_id, month, incident_type_id, priority, status, count, handling_seconds)
        SELECT entity_id, month, incident_type_id, priority, status, sum(d)::int, sum(s)::bigint FROM changes
        GROUP BY 1, 2, 3, 4, 5 HAVING sum(d) <> 0 OR sum(s) <> 0 ORDER BY 1, 2, 3, 4, 5
        ON CONFLICT (entity_id, month, incident_type_id, priority, status) DO UPDATE
          SET count = c.count + excluded.count, handling_seconds = c.handling_seconds + excluded.handling_seconds
      )
    INSERT INTO incident_month_assignee_counts AS c (entity_id, month, assignee_id, status, count, handling_seconds)
      SELECT entity_id, month, assignee_id, status, sum(d)::int, sum(s)::bigint FROM changes
      GROUP BY 1, 2, 3, 4 HAVING sum(d) <> 0 OR sum(s) <> 0 ORDER BY 1, 2, 3, 4
      ON CONFLICT (entity_id, month, assignee_id, status) DO UPDATE
        SET count = c.count + excluded.count, handling_seconds = c.handling_seconds + excluded.handling_seconds;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "incidents_month_counts_insert" AFTER INSERT ON "incidents"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "incident_month_counts_apply"();
--> statement-breakpoint
CREATE TRIGGER "incidents_month_counts_update" AFTER UPDATE ON "incidents"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "incident_month_counts_apply"();
--> statement-breakpoint
CREATE TRIGGER "incidents_month_counts_delete" AFTER DELETE ON "incidents"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "incident_month_counts_apply"();
--> statement-breakpoint
-- Recounts one entity's counters from its incidents (the backfill below; a change of the entity's time zone).
CREATE FUNCTION "incident_month_counts_rebuild"(entity integer) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM incident_month_counts WHERE entity_id = entity;
  DELETE FROM incident_month_assignee_counts WHERE entity_id = entity;
  WITH changes AS (
    SELECT * FROM (SELECT r.entity_id, (date_trunc('month', r.created_at AT TIME ZONE e.time_zone))::date AS month,
          coalesce(r.incident_type_id, 0) AS incident_type_id, coalesce(r.priority, -1)::smallint AS priority,
          coalesce(r.assignee_id, 0) AS assignee_id, r.status, 1 AS d,
          CASE WHEN r.status = 2 AND r.done_at IS NOT NULL
            THEN round(extract(epoch FROM r.done_at - r.created_at))::bigint ELSE 0 END AS s
        FROM incidents r JOIN entities e ON e.id = r.entity_id WHERE r.archived_at IS NULL) AS x WHERE x.entity_id = entity
  ), by_type AS (
    INSERT INTO incident_month_counts (entity_id, month, incident_type_id, priority, status, count, handling_seconds)
    SELECT entity_id, month, incident_type_id, priority, status, sum(d)::int, sum(s)::bigint FROM changes GROUP BY 1, 2, 3, 4, 5
  )
  INSERT INTO incident_month_assignee_counts (entity_id, month, assignee_id, status, count, handling_seconds)
  SELECT entity_id, month, assignee_id, status, sum(d)::int, sum(s)::bigint FROM changes GROUP BY 1, 2, 3, 4;
END $$;
--> statement-breakpoint
CREATE FUNCTION "entities_time_zone_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM incident_month_counts_rebuild(NEW.id);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "entities_time_zone_update" AFTER UPDATE OF "time_zone" ON "entities"
  FOR EACH ROW WHEN (OLD.time_zone IS DISTINCT FROM NEW.time_zone) EXECUTE FUNCTION "entities_time_zone_changed"();
--> statement-breakpoint
-- The filtered figures (a facility, a building, a manager's reach, a custom range) read a period of one
-- entity's incidents from this index alone (drizzle cannot declare INCLUDE: it is not in the schema files).
CREATE INDEX "incidents_dashboard_idx" ON "incidents" USING btree ("entity_id", "created_at")
  INCLUDE ("status", "priority", "assignee_id", "incident_type_id", "room_id", "done_at") WHERE "archived_at" IS NULL;
--> statement-breakpoint
SELECT incident_month_counts_rebuild(id) FROM entities;
