-- Written by hand: drizzle declares no INCLUDE. The maintenance calendar reads each day's entries (a plan's
-- tasks at one time of day) in this index's order and stops after the day's last shown entry; the entries
-- carry what its filters test (room, status, assignee) and the task's id, so a day is read from the index
-- alone. It replaces tasks_entity_due_idx (entity, due day), whose reads it serves with the same keys first.
CREATE INDEX IF NOT EXISTS "tasks_entity_day_plan_idx" ON "tasks" USING btree ("entity_id","due_date","due_time" NULLS FIRST,"planned_maintenance_id") INCLUDE ("room_id","status","assignee_id","id");--> statement-breakpoint
DROP INDEX IF EXISTS "tasks_entity_due_idx";
