-- Indexes of the incidents list (issue #12), written by hand: drizzle declares no INCLUDE.
-- The incidents table sorted by assignee reads block by block, each user's incidents by id (issue #12):
-- this index serves each block in order and counts a skipped block without visiting the table.
CREATE INDEX IF NOT EXISTS "incidents_entity_assignee_id_idx" ON "incidents" USING btree ("entity_id","assignee_id","id") INCLUDE ("status") WHERE "incidents"."archived_at" is null;
--> statement-breakpoint
-- The rooms of a technician's or manager's buildings, read from the index alone (the reach of every
-- incident list: `treeScope` in modules/facilities/policy.server.ts).
CREATE INDEX IF NOT EXISTS "rooms_building_reach_idx" ON "rooms" USING btree ("building_id") INCLUDE ("id","entity_id");
