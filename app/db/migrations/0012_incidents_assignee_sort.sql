-- The incidents table sorted by assignee reads block by block, each user's incidents by id (issue #12):
-- this index serves each block in order and counts a skipped block without visiting the table.
CREATE INDEX IF NOT EXISTS "incidents_entity_assignee_id_idx" ON "incidents" USING btree ("entity_id","assignee_id","id") INCLUDE ("status") WHERE "incidents"."archived_at" is null;
