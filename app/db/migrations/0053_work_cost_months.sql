CREATE TABLE "work_cost_building_months" (
	"entity_id" integer NOT NULL,
	"month" date NOT NULL,
	"building_id" integer DEFAULT 0 NOT NULL,
	"type_key" integer DEFAULT 0 NOT NULL,
	"minutes" bigint DEFAULT 0 NOT NULL,
	"labour_cents" bigint DEFAULT 0 NOT NULL,
	"materials_cents" bigint DEFAULT 0 NOT NULL,
	"unpriced" integer DEFAULT 0 NOT NULL,
	"entries" integer DEFAULT 0 NOT NULL,
	"lines" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "work_cost_building_months_pkey" PRIMARY KEY("entity_id","month","building_id","type_key")
);
--> statement-breakpoint
CREATE TABLE "work_cost_item_months" (
	"entity_id" integer NOT NULL,
	"month" date NOT NULL,
	"equipment_item_id" integer NOT NULL,
	"cost_cents" bigint DEFAULT 0 NOT NULL,
	"records" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "work_cost_item_months_pkey" PRIMARY KEY("entity_id","month","equipment_item_id")
);
--> statement-breakpoint
CREATE TABLE "work_cost_months" (
	"entity_id" integer NOT NULL,
	"month" date NOT NULL,
	"room_id" integer DEFAULT 0 NOT NULL,
	"equipment_item_id" integer DEFAULT 0 NOT NULL,
	"type_key" integer DEFAULT 0 NOT NULL,
	"minutes" bigint DEFAULT 0 NOT NULL,
	"labour_cents" bigint DEFAULT 0 NOT NULL,
	"materials_cents" bigint DEFAULT 0 NOT NULL,
	"unpriced" integer DEFAULT 0 NOT NULL,
	"entries" integer DEFAULT 0 NOT NULL,
	"lines" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "work_cost_months_pkey" PRIMARY KEY("entity_id","month","room_id","equipment_item_id","type_key")
);
--> statement-breakpoint
CREATE TABLE "work_cost_room_months" (
	"entity_id" integer NOT NULL,
	"month" date NOT NULL,
	"room_id" integer NOT NULL,
	"cost_cents" bigint DEFAULT 0 NOT NULL,
	"records" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "work_cost_room_months_pkey" PRIMARY KEY("entity_id","month","room_id")
);
--> statement-breakpoint
ALTER TABLE "work_cost_building_months" ADD CONSTRAINT "work_cost_building_months_entity_id_entities_id_fk" FOREIGN KEY ("entity_id") REFERENCES "public"."entities"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "work_cost_item_months" ADD CONSTRAINT "work_cost_item_months_entity_id_entities_id_fk" FOREIGN KEY ("entity_id") REFERENCES "public"."entities"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "work_cost_months" ADD CONSTRAINT "work_cost_months_entity_id_entities_id_fk" FOREIGN KEY ("entity_id") REFERENCES "public"."entities"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "work_cost_room_months" ADD CONSTRAINT "work_cost_room_months_entity_id_entities_id_fk" FOREIGN KEY ("entity_id") REFERENCES "public"."entities"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "work_cost_building_months_empty_idx" ON "work_cost_building_months" USING btree ("entity_id") WHERE "work_cost_building_months"."entries" = 0 and "work_cost_building_months"."lines" = 0;--> statement-breakpoint
CREATE INDEX "work_cost_item_months_cost_idx" ON "work_cost_item_months" USING btree ("entity_id","cost_cents" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "work_cost_item_months_empty_idx" ON "work_cost_item_months" USING btree ("entity_id") WHERE "work_cost_item_months"."records" = 0;--> statement-breakpoint
CREATE INDEX "work_cost_months_room_idx" ON "work_cost_months" USING btree ("entity_id","room_id","month");--> statement-breakpoint
CREATE INDEX "work_cost_months_item_idx" ON "work_cost_months" USING btree ("entity_id","equipment_item_id","month");--> statement-breakpoint
CREATE INDEX "work_cost_months_empty_idx" ON "work_cost_months" USING btree ("entity_id") WHERE "work_cost_months"."entries" = 0 and "work_cost_months"."lines" = 0;--> statement-breakpoint
CREATE INDEX "work_cost_room_months_cost_idx" ON "work_cost_room_months" USING btree ("entity_id","cost_cents" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "work_cost_room_months_empty_idx" ON "work_cost_room_months" USING btree ("entity_id") WHERE "work_cost_room_months"."records" = 0;--> statement-breakpoint
-- Decision 065: the dashboard's time and costs per month (work_cost_months) are kept by statement-level
-- triggers in the writer's transaction, like the incident counters of 0011: every verb, cascade and
-- set-based seed that writes a time entry, a material line, or where an incident or a task sits (room,
-- equipment item, type, archive state) moves its work between the keys. A row places the work where its
-- record sits now; work on archived incidents is left out. Amounts are whole cents, each entry and line
-- rounded to the cent first.
-- work_cost_building_months sums the same per building of the room, and also follows rooms moved to
-- another building or deleted; work_cost_room_months and work_cost_item_months the cost per room and per
-- equipment item (the tops' bounds).
-- Adds signed, placed figures to the keys (and to their buildings), then drops the rows left without
-- entries or lines.
CREATE FUNCTION "work_cost_months_add"(deltas work_cost_months[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO work_cost_months AS c (entity_id, month, room_id, equipment_item_id, type_key, minutes, labour_cents, materials_cents, unpriced, entries, lines)
    SELECT d.entity_id, d.month, d.room_id, d.equipment_item_id, d.type_key, sum(d.minutes), sum(d.labour_cents), sum(d.materials_cents),
      sum(d.unpriced), sum(d.entries), sum(d.lines)
    FROM unnest(deltas) d
    GROUP BY 1, 2, 3, 4, 5
    HAVING sum(d.entries) <> 0 OR sum(d.lines) <> 0 OR sum(d.minutes) <> 0 OR sum(d.labour_cents) <> 0 OR sum(d.materials_cents) <> 0 OR sum(d.unpriced) <> 0
    ORDER BY 1, 2, 3, 4, 5
    ON CONFLICT (entity_id, month, room_id, equipment_item_id, type_key) DO UPDATE
      SET minutes = c.minutes + excluded.minutes, labour_cents = c.labour_cents + excluded.labour_cents,
        materials_cents = c.materials_cents + excluded.materials_cents, unpriced = c.unpriced + excluded.unpriced,
        entries = c.entries + excluded.entries, lines = c.lines + excluded.lines;
  DELETE FROM work_cost_months WHERE entries = 0 AND lines = 0;
  -- The same per building of the room now. A room not found was deleted: its share left with it.
  INSERT INTO work_cost_building_months AS c (entity_id, month, building_id, type_key, minutes, labour_cents, materials_cents, unpriced, entries, lines)
    SELECT d.entity_id, d.month, coalesce(r.building_id, 0), d.type_key, sum(d.minutes), sum(d.labour_cents), sum(d.materials_cents),
      sum(d.unpriced), sum(d.entries), sum(d.lines)
    FROM unnest(deltas) d LEFT JOIN rooms r ON r.id = d.room_id
    WHERE d.room_id = 0 OR r.id IS NOT NULL
    GROUP BY 1, 2, 3, 4
    HAVING sum(d.entries) <> 0 OR sum(d.lines) <> 0 OR sum(d.minutes) <> 0 OR sum(d.labour_cents) <> 0 OR sum(d.materials_cents) <> 0 OR sum(d.unpriced) <> 0
    ORDER BY 1, 2, 3, 4
    ON CONFLICT (entity_id, month, building_id, type_key) DO UPDATE
      SET minutes = c.minutes + excluded.minutes, labour_cents = c.labour_cents + excluded.labour_cents,
        materials_cents = c.materials_cents + excluded.materials_cents, unpriced = c.unpriced + excluded.unpriced,
        entries = c.entries + excluded.entries, lines = c.lines + excluded.lines;
  DELETE FROM work_cost_building_months WHERE entries = 0 AND lines = 0;
  -- The cost per room and per equipment item and month, whatever the type.
  INSERT INTO work_cost_room_months AS c (entity_id, month, room_id, cost_cents, records)
    SELECT d.entity_id, d.month, d.room_id, sum(d.labour_cents + d.materials_cents), sum(d.entries + d.lines)
    FROM unnest(deltas) d WHERE d.room_id <> 0
    GROUP BY 1, 2, 3 HAVING sum(d.entries + d.lines) <> 0 OR sum(d.labour_cents + d.materials_cents) <> 0 ORDER BY 1, 2, 3
    ON CONFLICT (entity_id, month, room_id) DO UPDATE SET cost_cents = c.cost_cents + excluded.cost_cents, records = c.records + excluded.records;
  DELETE FROM work_cost_room_months WHERE records = 0;
  INSERT INTO work_cost_item_months AS c (entity_id, month, equipment_item_id, cost_cents, records)
    SELECT d.entity_id, d.month, d.equipment_item_id, sum(d.labour_cents + d.materials_cents), sum(d.entries + d.lines)
    FROM unnest(deltas) d WHERE d.equipment_item_id <> 0
    GROUP BY 1, 2, 3 HAVING sum(d.entries + d.lines) <> 0 OR sum(d.labour_cents + d.materials_cents) <> 0 ORDER BY 1, 2, 3
    ON CONFLICT (entity_id, month, equipment_item_id) DO UPDATE SET cost_cents = c.cost_cents + excluded.cost_cents, records = c.records + excluded.records;
  DELETE FROM work_cost_item_months WHERE records = 0;
END $$;
--> statement-breakpoint
-- The work rows of some incidents and tasks, with their month and amounts.
CREATE FUNCTION "work_cost_rows"(incident_ids integer[], task_ids integer[])
  RETURNS TABLE (entity_id integer, incident_id integer, task_id integer, month date, minutes bigint, labour_cents bigint,
    materials_cents bigint, unpriced integer, entries integer, lines integer)
  LANGUAGE sql STABLE AS $$
  SELECT te.entity_id, te.incident_id, te.task_id, date_trunc('month', te.worked_on)::date, te.minutes::bigint,
    (round(te.minutes * coalesce(te.hourly_rate, 0) / 60, 2) * 100)::bigint, 0::bigint, (te.hourly_rate IS NULL)::int, 1, 0
  FROM time_entries te
  WHERE te.incident_id = ANY (incident_ids) OR te.task_id = ANY (task_ids)
  UNION ALL
  SELECT ml.entity_id, ml.incident_id, ml.task_id, date_trunc('month', ml.created_at AT TIME ZONE e.time_zone)::date, 0::bigint,
    0::bigint, (round(ml.quantity * ml.unit_cost, 2) * 100)::bigint, 0, 0, 1
  FROM material_lines ml JOIN entities e ON e.id = ml.entity_id
  WHERE ml.incident_id = ANY (incident_ids) OR ml.task_id = ANY (task_ids)
$$;
--> statement-breakpoint
-- A time entry or material line written, changed or deleted: its old figures leave the key of its record,
-- the new ones join it. A record deleted with its work (a cascade) is gone by then: its BEFORE DELETE
-- trigger below took its work out already, so rows whose record is not found add nothing.
CREATE FUNCTION "work_cost_months_work_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  figures text := CASE TG_TABLE_NAME
    WHEN 'time_entries' THEN $f$date_trunc('month', w.worked_on)::date, w.minutes::bigint,
      (round(w.minutes * coalesce(w.hourly_rate, 0) / 60, 2) * 100)::bigint, 0::bigint, (w.hourly_rate IS NULL)::int, 1, 0$f$
    ELSE $f$date_trunc('month', w.created_at AT TIME ZONE e.time_zone)::date, 0::bigint,
      0::bigint, (round(w.quantity * w.unit_cost, 2) * 100)::bigint, 0, 0, 1$f$ END;
  source text := CASE TG_OP
    WHEN 'INSERT' THEN 'SELECT 1 AS sign, * FROM new_rows'
    WHEN 'DELETE' THEN 'SELECT -1 AS sign, * FROM old_rows'
    ELSE 'SELECT 1 AS sign, * FROM new_rows UNION ALL SELECT -1 AS sign, * FROM old_rows' END;
BEGIN
  EXECUTE format($q$
    SELECT work_cost_months_add(ARRAY(
      SELECT ROW(x.entity_id, x.month, x.room_id, x.equipment_item_id, x.type_key, x.sign * x.minutes, x.sign * x.labour_cents,
        x.sign * x.materials_cents, x.sign * x.unpriced, x.sign * x.entries, x.sign * x.lines)::work_cost_months
      FROM (
        SELECT w.sign, w.entity_id, coalesce(i.room_id, t.room_id, 0) AS room_id, coalesce(i.equipment_item_id, t.equipment_item_id, 0) AS equipment_item_id,
          CASE WHEN w.task_id IS NOT NULL THEN -1 ELSE coalesce(i.incident_type_id, 0) END AS type_key,
          f.month, f.minutes, f.labour_cents, f.materials_cents, f.unpriced, f.entries, f.lines
        FROM (%s) w
        JOIN entities e ON e.id = w.entity_id
        CROSS JOIN LATERAL (SELECT %s) AS f (month, minutes, labour_cents, materials_cents, unpriced, entries, lines)
        LEFT JOIN incidents i ON i.id = w.incident_id
        LEFT JOIN tasks t ON t.id = w.task_id
        WHERE (i.id IS NOT NULL AND i.archived_at IS NULL) OR t.id IS NOT NULL
      ) x))$q$, source, figures);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "time_entries_work_cost_insert" AFTER INSERT ON "time_entries"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "work_cost_months_work_changed"();
--> statement-breakpoint
CREATE TRIGGER "time_entries_work_cost_update" AFTER UPDATE ON "time_entries"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "work_cost_months_work_changed"();
--> statement-breakpoint
CREATE TRIGGER "time_entries_work_cost_delete" AFTER DELETE ON "time_entries"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "work_cost_months_work_changed"();
--> statement-breakpoint
CREATE TRIGGER "material_lines_work_cost_insert" AFTER INSERT ON "material_lines"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "work_cost_months_work_changed"();
--> statement-breakpoint
CREATE TRIGGER "material_lines_work_cost_update" AFTER UPDATE ON "material_lines"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "work_cost_months_work_changed"();
--> statement-breakpoint
CREATE TRIGGER "material_lines_work_cost_delete" AFTER DELETE ON "material_lines"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "work_cost_months_work_changed"();
--> statement-breakpoint
-- An incident or a task moved (room, equipment item, type, archived or restored): its work leaves the old
-- key and joins the new one. Other updates (a status, a title) move nothing.
CREATE FUNCTION "work_cost_months_record_moved"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_TABLE_NAME = 'incidents' THEN
    PERFORM work_cost_months_add(ARRAY(
      WITH moved AS (
        SELECT o.id, o.room_id AS old_room, o.equipment_item_id AS old_item, o.incident_type_id AS old_type, o.archived_at IS NULL AS old_counted,
          n.room_id AS new_room, n.equipment_item_id AS new_item, n.incident_type_id AS new_type, n.archived_at IS NULL AS new_counted
        FROM old_rows o JOIN new_rows n ON n.id = o.id
        WHERE (o.room_id, o.equipment_item_id, o.incident_type_id, o.archived_at IS NULL)
          IS DISTINCT FROM (n.room_id, n.equipment_item_id, n.incident_type_id, n.archived_at IS NULL)
      ), placed AS (
        SELECT -1 AS sign, id, old_room AS room_id, old_item AS item_id, old_type AS type_id FROM moved WHERE old_counted
        UNION ALL
        SELECT 1, id, new_room, new_item, new_type FROM moved WHERE new_counted
      )
      SELECT ROW(w.entity_id, w.month, coalesce(p.room_id, 0), coalesce(p.item_id, 0), coalesce(p.type_id, 0), p.sign * w.minutes,
        p.sign * w.labour_cents, p.sign * w.materials_cents, p.sign * w.unpriced, p.sign * w.entries, p.sign * w.lines)::work_cost_months
      FROM placed p JOIN work_cost_rows(ARRAY(SELECT id FROM moved), '{}') w ON w.incident_id = p.id));
  ELSE
    PERFORM work_cost_months_add(ARRAY(
      WITH moved AS (
        SELECT o.id, o.room_id AS old_room, o.equipment_item_id AS old_item, n.room_id AS new_room, n.equipment_item_id AS new_item
        FROM old_rows o JOIN new_rows n ON n.id = o.id
        WHERE (o.room_id, o.equipment_item_id) IS DISTINCT FROM (n.room_id, n.equipment_item_id)
      ), placed AS (
        SELECT -1 AS sign, id, old_room AS room_id, old_item AS item_id FROM moved
        UNION ALL
        SELECT 1, id, new_room, new_item FROM moved
      )
      SELECT ROW(w.entity_id, w.month, coalesce(p.room_id, 0), coalesce(p.item_id, 0), -1, p.sign * w.minutes,
        p.sign * w.labour_cents, p.sign * w.materials_cents, p.sign * w.unpriced, p.sign * w.entries, p.sign * w.lines)::work_cost_months
      FROM placed p JOIN work_cost_rows('{}', ARRAY(SELECT id FROM moved)) w ON w.task_id = p.id));
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "incidents_work_cost_update" AFTER UPDATE ON "incidents"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "work_cost_months_record_moved"();
--> statement-breakpoint
CREATE TRIGGER "tasks_work_cost_update" AFTER UPDATE ON "tasks"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "work_cost_months_record_moved"();
--> statement-breakpoint
-- An incident or a task deleted: its work leaves the figures before the cascade deletes it (once that has
-- run, the work's trigger no longer finds where the record sat). A row trigger with an index look-up each.
CREATE FUNCTION "work_cost_months_record_deleted"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF to_jsonb(OLD) ->> 'archived_at' IS NOT NULL THEN
    RETURN OLD;
  END IF;
  PERFORM work_cost_months_add(ARRAY(
    SELECT ROW(w.entity_id, w.month, coalesce(OLD.room_id, 0), coalesce(OLD.equipment_item_id, 0),
      CASE WHEN TG_TABLE_NAME = 'tasks' THEN -1 ELSE coalesce((to_jsonb(OLD) ->> 'incident_type_id')::int, 0) END,
      -w.minutes, -w.labour_cents, -w.materials_cents, -w.unpriced, -w.entries, -w.lines)::work_cost_months
    FROM work_cost_rows(CASE WHEN TG_TABLE_NAME = 'incidents' THEN ARRAY[OLD.id] ELSE '{}' END,
      CASE WHEN TG_TABLE_NAME = 'tasks' THEN ARRAY[OLD.id] ELSE '{}' END) w));
  RETURN OLD;
END $$;
--> statement-breakpoint
CREATE TRIGGER "incidents_work_cost_delete" BEFORE DELETE ON "incidents"
  FOR EACH ROW EXECUTE FUNCTION "work_cost_months_record_deleted"();
--> statement-breakpoint
CREATE TRIGGER "tasks_work_cost_delete" BEFORE DELETE ON "tasks"
  FOR EACH ROW EXECUTE FUNCTION "work_cost_months_record_deleted"();
--> statement-breakpoint
-- One entity's per-building, per-room and per-item figures from its per-room and item ones.
CREATE FUNCTION "work_cost_summaries_rebuild"(entity integer) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM work_cost_room_months WHERE entity_id = entity;
  INSERT INTO work_cost_room_months (entity_id, month, room_id, cost_cents, records)
    SELECT entity_id, month, room_id, sum(labour_cents + materials_cents), sum(entries + lines)
    FROM work_cost_months WHERE entity_id = entity AND room_id <> 0 GROUP BY 1, 2, 3;
  DELETE FROM work_cost_item_months WHERE entity_id = entity;
  INSERT INTO work_cost_item_months (entity_id, month, equipment_item_id, cost_cents, records)
    SELECT entity_id, month, equipment_item_id, sum(labour_cents + materials_cents), sum(entries + lines)
    FROM work_cost_months WHERE entity_id = entity AND equipment_item_id <> 0 GROUP BY 1, 2, 3;
  DELETE FROM work_cost_building_months WHERE entity_id = entity;
  INSERT INTO work_cost_building_months (entity_id, month, building_id, type_key, minutes, labour_cents, materials_cents, unpriced, entries, lines)
    SELECT c.entity_id, c.month, coalesce(r.building_id, 0), c.type_key, sum(c.minutes), sum(c.labour_cents), sum(c.materials_cents),
      sum(c.unpriced), sum(c.entries), sum(c.lines)
    FROM work_cost_months c LEFT JOIN rooms r ON r.id = c.room_id
    WHERE c.entity_id = entity
    GROUP BY 1, 2, 3, 4;
END $$;
--> statement-breakpoint
-- A room moved to another building: its figures leave the old building and join the new one. A room
-- deleted (its tasks and their work go with it): its figures leave its building first.
CREATE FUNCTION "work_cost_months_room_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO work_cost_building_months AS c (entity_id, month, building_id, type_key, minutes, labour_cents, materials_cents, unpriced, entries, lines)
    SELECT w.entity_id, w.month, m.building_id, w.type_key, m.sign * sum(w.minutes), m.sign * sum(w.labour_cents), m.sign * sum(w.materials_cents),
      m.sign * sum(w.unpriced), m.sign * sum(w.entries), m.sign * sum(w.lines)
    FROM (
      SELECT -1 AS sign, OLD.entity_id AS entity_id, OLD.id AS room_id, OLD.building_id AS building_id
      UNION ALL
      SELECT 1, NEW.entity_id, NEW.id, NEW.building_id WHERE TG_OP = 'UPDATE'
    ) m
    JOIN work_cost_months w ON w.entity_id = m.entity_id AND w.room_id = m.room_id
    GROUP BY m.sign, w.entity_id, w.month, m.building_id, w.type_key
    ORDER BY 2, 3, 4, 1
    ON CONFLICT (entity_id, month, building_id, type_key) DO UPDATE
      SET minutes = c.minutes + excluded.minutes, labour_cents = c.labour_cents + excluded.labour_cents,
        materials_cents = c.materials_cents + excluded.materials_cents, unpriced = c.unpriced + excluded.unpriced,
        entries = c.entries + excluded.entries, lines = c.lines + excluded.lines;
  DELETE FROM work_cost_building_months WHERE entries = 0 AND lines = 0;
  IF TG_OP = 'DELETE' THEN
    RETURN OLD;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "rooms_work_cost_move" AFTER UPDATE OF "building_id" ON "rooms"
  FOR EACH ROW WHEN (OLD.building_id IS DISTINCT FROM NEW.building_id) EXECUTE FUNCTION "work_cost_months_room_changed"();
--> statement-breakpoint
CREATE TRIGGER "rooms_work_cost_delete" BEFORE DELETE ON "rooms"
  FOR EACH ROW EXECUTE FUNCTION "work_cost_months_room_changed"();
--> statement-breakpoint
-- Recomputes one entity's figures from its work (the backfill below; a change of the entity's time zone,
-- which moves material lines between months).
CREATE FUNCTION "work_cost_months_rebuild"(entity integer) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM work_cost_months WHERE entity_id = entity;
  INSERT INTO work_cost_months (entity_id, month, room_id, equipment_item_id, type_key, minutes, labour_cents, materials_cents, unpriced, entries, lines)
    SELECT w.entity_id, w.month, coalesce(i.room_id, t.room_id, 0), coalesce(i.equipment_item_id, t.equipment_item_id, 0),
      CASE WHEN w.task_id IS NOT NULL THEN -1 ELSE coalesce(i.incident_type_id, 0) END,
      sum(w.minutes), sum(w.labour_cents), sum(w.materials_cents), sum(w.unpriced), sum(w.entries), sum(w.lines)
    FROM work_cost_rows(ARRAY(SELECT id FROM incidents WHERE entity_id = entity), ARRAY(SELECT id FROM tasks WHERE entity_id = entity)) w
    LEFT JOIN incidents i ON i.id = w.incident_id
    LEFT JOIN tasks t ON t.id = w.task_id
    WHERE (i.id IS NOT NULL AND i.archived_at IS NULL) OR t.id IS NOT NULL
    GROUP BY 1, 2, 3, 4, 5;
  PERFORM work_cost_summaries_rebuild(entity);
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "entities_time_zone_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM incident_month_counts_rebuild(NEW.id);
  PERFORM work_cost_months_rebuild(NEW.id);
  RETURN NULL;
END $$;
--> statement-breakpoint
SELECT work_cost_months_rebuild(id) FROM entities;
