-- Tasks read at scale: the task list's default (pending tasks, soonest first) in due order from an index
-- of the pending tasks only, instead of sorting every pending task of the entity; and a person's
-- calendar (the rooms they reach, a range of days) from an index of each room's tasks by day, which also
-- serves what the room's index served.
CREATE INDEX IF NOT EXISTS "tasks_entity_pending_due_idx" ON "tasks" ("entity_id", "due_date", "due_time") WHERE "status" = 0;--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "tasks_room_due_idx" ON "tasks" ("room_id", "due_date");--> statement-breakpoint
DROP INDEX IF EXISTS "tasks_room_idx";
