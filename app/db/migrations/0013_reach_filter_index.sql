-- Written by hand: drizzle declares no INCLUDE. The incidents list filtered by status and priority for a
-- technician or a manager (issue #12): their reach (`assignee = me or room in my rooms`) cannot drive an
-- index, so the planner walked every incident of the priority (170,000 at the scale seed) and tested each;
-- this index narrows to the status and priority first and tests the reach on the index entry (room,
-- assignee): 146 -> 11 ms of SQL for the capped count, 190 -> 27 ms for the whole call.
CREATE INDEX IF NOT EXISTS "incidents_entity_status_priority_idx" ON "incidents" USING btree ("entity_id","status",coalesce("priority", -1),"id") INCLUDE ("room_id","assignee_id") WHERE "incidents"."archived_at" is null;
