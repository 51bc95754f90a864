-- Decision 047: the nine list counters of decision 017 are kept by statement-level triggers, like the
-- incident totals (0008), the notification counts (0010) and the dashboard's monthly counts (0011), so that
-- every writer (the verbs, the set-based cascades, imports, the seeds, SQL by hand) keeps them in its own
-- transaction without calling anything (app/modules/facilities/counters.server.ts has the table of what
-- each counts).
--
-- One rule for every counted table: a statement adds to each parent what its rows bring in (their new
-- versions) and takes away what they took out (their old versions). A row brings something only while it
-- is active (archived_at is null), and it brings its own counter along (a room brings its open incidents
-- to its building, a building its rooms' incidents to its facility). So a creation, an archive, a
-- restore, a move to another parent and a change of the row's own counter are the same case, and a
-- statement of any size is one grouped update per parent table. The changes climb level by level: an
-- incident changes its room's counter, the room's trigger then its building's, the building's trigger
-- its facility's. Every update is relative (count = count + n) and takes the parent rows' locks until
-- commit, so concurrent writers add up. Parents are matched on id and entity.
--
-- A function's plans are made once per session, with the sizes of the transition tables of the statement
-- that first ran it. A hash join planned for a statement of thousands of rows would then read a whole
-- parent table for every later one-row statement (a room's equipment count read all the rooms), so the
-- functions plan without hash or merge joins: the parents are always reached by primary key, once per
-- changed parent, which suits one row and a hundred thousand alike. For the same reason they never join the
-- two transition tables to each other: they group them.
--
-- incidents -> rooms.active_incident_count: Pending (0) or In Progress (1), not archived, with a room.
CREATE FUNCTION "incident_list_counts_apply"() RETURNS trigger LANGUAGE plpgsql
  SET enable_hashjoin = off SET enable_mergejoin = off AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    UPDATE rooms AS t SET active_incident_count = t.active_incident_count + d.n
      FROM (SELECT entity_id, room_id, count(*)::int AS n FROM new_rows
            WHERE room_id IS NOT NULL AND status IN (0, 1) AND archived_at IS NULL GROUP BY entity_id, room_id) AS d
      WHERE t.id = d.room_id AND t.entity_id = d.entity_id;
  ELSIF TG_OP = 'DELETE' THEN
    UPDATE rooms AS t SET active_incident_count = t.active_incident_count - d.n
      FROM (SELECT entity_id, room_id, count(*)::int AS n FROM old_rows
            WHERE room_id IS NOT NULL AND status IN (0, 1) AND archived_at IS NULL GROUP BY entity_id, room_id) AS d
      WHERE t.id = d.room_id AND t.entity_id = d.entity_id;
  ELSE
    -- A statement that changed no row (a child's trigger updating no parent) stops here.
    IF NOT EXISTS (SELECT 1 FROM new_rows) THEN
      RETURN NULL;
    END IF;
    UPDATE rooms AS t SET active_incident_count = t.active_incident_count + d.n
      FROM (SELECT entity_id, room_id, sum(n)::int AS n FROM (
              SELECT entity_id, room_id, 1 AS n FROM new_rows WHERE room_id IS NOT NULL AND status IN (0, 1) AND archived_at IS NULL
              UNION ALL
              SELECT entity_id, room_id, -1 AS n FROM old_rows WHERE room_id IS NOT NULL AND status IN (0, 1) AND archived_at IS NULL
            ) AS c GROUP BY entity_id, room_id HAVING sum(n) <> 0) AS d
      WHERE t.id = d.room_id AND t.entity_id = d.entity_id;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "incidents_list_counts_insert" AFTER INSERT ON "incidents"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "incident_list_counts_apply"();
--> statement-breakpoint
CREATE TRIGGER "incidents_list_counts_update" AFTER UPDATE ON "incidents"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "incident_list_counts_apply"();
--> statement-breakpoint
CREATE TRIGGER "incidents_list_counts_delete" AFTER DELETE ON "incidents"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "incident_list_counts_apply"();
--> statement-breakpoint
-- Active rooms -> buildings.room_count and buildings.active_incident_count (the rooms' own counters),
-- room_types.room_count.
CREATE FUNCTION "room_list_counts_apply"() RETURNS trigger LANGUAGE plpgsql
  SET enable_hashjoin = off SET enable_mergejoin = off AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    WITH c AS (
      SELECT entity_id, building_id, room_type_id, 1 AS n, active_incident_count AS inc FROM new_rows WHERE archived_at IS NULL
    ), b AS (
      UPDATE buildings AS t SET room_count = t.room_count + d.n, active_incident_count = t.active_incident_count + d.inc
      FROM (SELECT entity_id, building_id, sum(n)::int AS n, sum(inc)::int AS inc FROM c GROUP BY 1, 2) AS d
      WHERE t.id = d.building_id AND t.entity_id = d.entity_id
    )
    UPDATE room_types AS t SET room_count = t.room_count + d.n
      FROM (SELECT entity_id, room_type_id, sum(n)::int AS n FROM c GROUP BY 1, 2) AS d
      WHERE t.id = d.room_type_id AND t.entity_id = d.entity_id;
  ELSIF TG_OP = 'DELETE' THEN
    WITH c AS (
      SELECT entity_id, building_id, room_type_id, -1 AS n, -active_incident_count AS inc FROM old_rows WHERE archived_at IS NULL
    ), b AS (
      UPDATE buildings AS t SET room_count = t.room_count + d.n, active_incident_count = t.active_incident_count + d.inc
      FROM (SELECT entity_id, building_id, sum(n)::int AS n, sum(inc)::int AS inc FROM c GROUP BY 1, 2) AS d
      WHERE t.id = d.building_id AND t.entity_id = d.entity_id
    )
    UPDATE room_types AS t SET room_count = t.room_count + d.n
      FROM (SELECT entity_id, room_type_id, sum(n)::int AS n FROM c GROUP BY 1, 2) AS d
      WHERE t.id = d.room_type_id AND t.entity_id = d.entity_id;
  ELSE
    -- A statement that changed no row (a child's trigger updating no parent) stops here.
    IF NOT EXISTS (SELECT 1 FROM new_rows) THEN
      RETURN NULL;
    END IF;
    WITH c AS (
      SELECT entity_id, building_id, room_type_id, 1 AS n, active_incident_count AS inc FROM new_rows WHERE archived_at IS NULL
      UNION ALL
      SELECT entity_id, building_id, room_type_id, -1 AS n, -active_incident_count AS inc FROM old_rows WHERE archived_at IS NULL
    ), b AS (
      UPDATE buildings AS t SET room_count = t.room_count + d.n, active_incident_count = t.active_incident_count + d.inc
      FROM (SELECT entity_id, building_id, sum(n)::int AS n, sum(inc)::int AS inc FROM c GROUP BY 1, 2
            HAVING sum(n) <> 0 OR sum(inc) <> 0) AS d
      WHERE t.id = d.building_id AND t.entity_id = d.entity_id
    )
    UPDATE room_types AS t SET room_count = t.room_count + d.n
      FROM (SELECT entity_id, room_type_id, sum(n)::int AS n FROM c GROUP BY 1, 2 HAVING sum(n) <> 0) AS d
      WHERE t.id = d.room_type_id AND t.entity_id = d.entity_id;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "rooms_list_counts_insert" AFTER INSERT ON "rooms"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "room_list_counts_apply"();
--> statement-breakpoint
CREATE TRIGGER "rooms_list_counts_update" AFTER UPDATE ON "rooms"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "room_list_counts_apply"();
--> statement-breakpoint
CREATE TRIGGER "rooms_list_counts_delete" AFTER DELETE ON "rooms"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "room_list_counts_apply"();
--> statement-breakpoint
-- Active buildings -> facilities.building_count and facilities.active_incident_count (the buildings' own).
CREATE FUNCTION "building_list_counts_apply"() RETURNS trigger LANGUAGE plpgsql
  SET enable_hashjoin = off SET enable_mergejoin = off AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    UPDATE facilities AS t SET building_count = t.building_count + d.n, active_incident_count = t.active_incident_count + d.inc
      FROM (SELECT entity_id, facility_id, count(*)::int AS n, sum(active_incident_count)::int AS inc FROM new_rows
            WHERE archived_at IS NULL GROUP BY 1, 2) AS d
      WHERE t.id = d.facility_id AND t.entity_id = d.entity_id;
  ELSIF TG_OP = 'DELETE' THEN
    UPDATE facilities AS t SET building_count = t.building_count - d.n, active_incident_count = t.active_incident_count - d.inc
      FROM (SELECT entity_id, facility_id, count(*)::int AS n, sum(active_incident_count)::int AS inc FROM old_rows
            WHERE archived_at IS NULL GROUP BY 1, 2) AS d
      WHERE t.id = d.facility_id AND t.entity_id = d.entity_id;
  ELSE
    -- A statement that changed no row (a child's trigger updating no parent) stops here.
    IF NOT EXISTS (SELECT 1 FROM new_rows) THEN
      RETURN NULL;
    END IF;
    UPDATE facilities AS t SET building_count = t.building_count + d.n, active_incident_count = t.active_incident_count + d.inc
      FROM (SELECT entity_id, facility_id, sum(n)::int AS n, sum(inc)::int AS inc FROM (
              SELECT entity_id, facility_id, 1 AS n, active_incident_count AS inc FROM new_rows WHERE archived_at IS NULL
              UNION ALL
              SELECT entity_id, facility_id, -1 AS n, -active_incident_count AS inc FROM old_rows WHERE archived_at IS NULL
            ) AS c GROUP BY 1, 2 HAVING sum(n) <> 0 OR sum(inc) <> 0) AS d
      WHERE t.id = d.facility_id AND t.entity_id = d.entity_id;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "buildings_list_counts_insert" AFTER INSERT ON "buildings"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "building_list_counts_apply"();
--> statement-breakpoint
CREATE TRIGGER "buildings_list_counts_update" AFTER UPDATE ON "buildings"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "building_list_counts_apply"();
--> statement-breakpoint
CREATE TRIGGER "buildings_list_counts_delete" AFTER DELETE ON "buildings"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "building_list_counts_apply"();
--> statement-breakpoint
-- Active equipment items -> rooms.equipment_count, equipment_types.item_count.
CREATE FUNCTION "equipment_item_list_counts_apply"() RETURNS trigger LANGUAGE plpgsql
  SET enable_hashjoin = off SET enable_mergejoin = off AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    WITH c AS (
      SELECT entity_id, room_id, equipment_type_id, 1 AS n FROM new_rows WHERE archived_at IS NULL
    ), r AS (
      UPDATE rooms AS t SET equipment_count = t.equipment_count + d.n
      FROM (SELECT entity_id, room_id, sum(n)::int AS n FROM c GROUP BY 1, 2) AS d
      WHERE t.id = d.room_id AND t.entity_id = d.entity_id
    )
    UPDATE equipment_types AS t SET item_count = t.item_count + d.n
      FROM (SELECT entity_id, equipment_type_id, sum(n)::int AS n FROM c GROUP BY 1, 2) AS d
      WHERE t.id = d.equipment_type_id AND t.entity_id = d.entity_id;
  ELSIF TG_OP = 'DELETE' THEN
    WITH c AS (
      SELECT entity_id, room_id, equipment_type_id, -1 AS n FROM old_rows WHERE archived_at IS NULL
    ), r AS (
      UPDATE rooms AS t SET equipment_count = t.equipment_count + d.n
      FROM (SELECT entity_id, room_id, sum(n)::int AS n FROM c GROUP BY 1, 2) AS d
      WHERE t.id = d.room_id AND t.entity_id = d.entity_id
    )
    UPDATE equipment_types AS t SET item_count = t.item_count + d.n
      FROM (SELECT entity_id, equipment_type_id, sum(n)::int AS n FROM c GROUP BY 1, 2) AS d
      WHERE t.id = d.equipment_type_id AND t.entity_id = d.entity_id;
  ELSE
    -- A statement that changed no row (a child's trigger updating no parent) stops here.
    IF NOT EXISTS (SELECT 1 FROM new_rows) THEN
      RETURN NULL;
    END IF;
    WITH c AS (
      SELECT entity_id, room_id, equipment_type_id, 1 AS n FROM new_rows WHERE archived_at IS NULL
      UNION ALL
      SELECT entity_id, room_id, equipment_type_id, -1 AS n FROM old_rows WHERE archived_at IS NULL
    ), r AS (
      UPDATE rooms AS t SET equipment_count = t.equipment_count + d.n
      FROM (SELECT entity_id, room_id, sum(n)::int AS n FROM c GROUP BY 1, 2 HAVING sum(n) <> 0) AS d
      WHERE t.id = d.room_id AND t.entity_id = d.entity_id
    )
    UPDATE equipment_types AS t SET item_count = t.item_count + d.n
      FROM (SELECT entity_id, equipment_type_id, sum(n)::int AS n FROM c GROUP BY 1, 2 HAVING sum(n) <> 0) AS d
      WHERE t.id = d.equipment_type_id AND t.entity_id = d.entity_id;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "equipment_items_list_counts_insert" AFTER INSERT ON "equipment_items"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "equipment_item_list_counts_apply"();
--> statement-breakpoint
CREATE TRIGGER "equipment_items_list_counts_update" AFTER UPDATE ON "equipment_items"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "equipment_item_list_counts_apply"();
--> statement-breakpoint
CREATE TRIGGER "equipment_items_list_counts_delete" AFTER DELETE ON "equipment_items"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "equipment_item_list_counts_apply"();
--> statement-breakpoint
-- Active generic equipment -> equipment_categories.equipment_type_count.
CREATE FUNCTION "equipment_type_list_counts_apply"() RETURNS trigger LANGUAGE plpgsql
  SET enable_hashjoin = off SET enable_mergejoin = off AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    UPDATE equipment_categories AS t SET equipment_type_count = t.equipment_type_count + d.n
      FROM (SELECT entity_id, category_id, count(*)::int AS n FROM new_rows WHERE archived_at IS NULL GROUP BY 1, 2) AS d
      WHERE t.id = d.category_id AND t.entity_id = d.entity_id;
  ELSIF TG_OP = 'DELETE' THEN
    UPDATE equipment_categories AS t SET equipment_type_count = t.equipment_type_count - d.n
      FROM (SELECT entity_id, category_id, count(*)::int AS n FROM old_rows WHERE archived_at IS NULL GROUP BY 1, 2) AS d
      WHERE t.id = d.category_id AND t.entity_id = d.entity_id;
  ELSE
    -- A statement that changed no row (a child's trigger updating no parent) stops here.
    IF NOT EXISTS (SELECT 1 FROM new_rows) THEN
      RETURN NULL;
    END IF;
    UPDATE equipment_categories AS t SET equipment_type_count = t.equipment_type_count + d.n
      FROM (SELECT entity_id, category_id, sum(n)::int AS n FROM (
              SELECT entity_id, category_id, 1 AS n FROM new_rows WHERE archived_at IS NULL
              UNION ALL
              SELECT entity_id, category_id, -1 AS n FROM old_rows WHERE archived_at IS NULL
            ) AS c GROUP BY 1, 2 HAVING sum(n) <> 0) AS d
      WHERE t.id = d.category_id AND t.entity_id = d.entity_id;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "equipment_types_list_counts_insert" AFTER INSERT ON "equipment_types"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "equipment_type_list_counts_apply"();
--> statement-breakpoint
CREATE TRIGGER "equipment_types_list_counts_update" AFTER UPDATE ON "equipment_types"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "equipment_type_list_counts_apply"();
--> statement-breakpoint
CREATE TRIGGER "equipment_types_list_counts_delete" AFTER DELETE ON "equipment_types"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "equipment_type_list_counts_apply"();
--> statement-breakpoint
-- Recount: every counter of every entity from its rows, once (only rows that differ are written), so the
-- triggers start from right values. Children before parents: the triggers fired by a level's corrections
-- are overwritten by the next level's recount.
UPDATE "rooms" AS t SET "active_incident_count" = x.incidents, "equipment_count" = x.items FROM (
  SELECT r.id, coalesce(i.n, 0) AS incidents, coalesce(e.n, 0) AS items FROM "rooms" r
  LEFT JOIN (SELECT entity_id, room_id, count(*)::int AS n FROM "incidents"
             WHERE room_id IS NOT NULL AND status IN (0, 1) AND archived_at IS NULL GROUP BY 1, 2) i
    ON i.room_id = r.id AND i.entity_id = r.entity_id
  LEFT JOIN (SELECT entity_id, room_id, count(*)::int AS n FROM "equipment_items" WHERE archived_at IS NULL GROUP BY 1, 2) e
    ON e.room_id = r.id AND e.entity_id = r.entity_id
) x WHERE t.id = x.id AND (t.active_incident_count <> x.incidents OR t.equipment_count <> x.items);--> statement-breakpoint
UPDATE "buildings" AS t SET "room_count" = x.rooms, "active_incident_count" = x.incidents FROM (
  SELECT b.id, coalesce(r.n, 0) AS rooms, coalesce(r.inc, 0) AS incidents FROM "buildings" b
  LEFT JOIN (SELECT entity_id, building_id, count(*)::int AS n, sum(active_incident_count)::int AS inc FROM "rooms"
             WHERE archived_at IS NULL GROUP BY 1, 2) r
    ON r.building_id = b.id AND r.entity_id = b.entity_id
) x WHERE t.id = x.id AND (t.room_count <> x.rooms OR t.active_incident_count <> x.incidents);--> statement-breakpoint
UPDATE "facilities" AS t SET "building_count" = x.buildings, "active_incident_count" = x.incidents FROM (
  SELECT f.id, coalesce(b.n, 0) AS buildings, coalesce(b.inc, 0) AS incidents FROM "facilities" f
  LEFT JOIN (SELECT entity_id, facility_id, count(*)::int AS n, sum(active_incident_count)::int AS inc FROM "buildings"
             WHERE archived_at IS NULL GROUP BY 1, 2) b
    ON b.facility_id = f.id AND b.entity_id = f.entity_id
) x WHERE t.id = x.id AND (t.building_count <> x.buildings OR t.active_incident_count <> x.incidents);--> statement-breakpoint
UPDATE "room_types" AS t SET "room_count" = x.rooms FROM (
  SELECT rt.id, coalesce(r.n, 0) AS rooms FROM "room_types" rt
  LEFT JOIN (SELECT entity_id, room_type_id, count(*)::int AS n FROM "rooms" WHERE archived_at IS NULL GROUP BY 1, 2) r
    ON r.room_type_id = rt.id AND r.entity_id = rt.entity_id
) x WHERE t.id = x.id AND t.room_count <> x.rooms;--> statement-breakpoint
UPDATE "equipment_types" AS t SET "item_count" = x.items FROM (
  SELECT et.id, coalesce(e.n, 0) AS items FROM "equipment_types" et
  LEFT JOIN (SELECT entity_id, equipment_type_id, count(*)::int AS n FROM "equipment_items" WHERE archived_at IS NULL GROUP BY 1, 2) e
    ON e.equipment_type_id = et.id AND e.entity_id = et.entity_id
) x WHERE t.id = x.id AND t.item_count <> x.items;--> statement-breakpoint
UPDATE "equipment_categories" AS t SET "equipment_type_count" = x.types FROM (
  SELECT c.id, coalesce(et.n, 0) AS types FROM "equipment_categories" c
  LEFT JOIN (SELECT entity_id, category_id, count(*)::int AS n FROM "equipment_types" WHERE archived_at IS NULL GROUP BY 1, 2) et
    ON et.category_id = c.id AND et.entity_id = c.entity_id
) x WHERE t.id = x.id AND t.equipment_type_count <> x.types;
