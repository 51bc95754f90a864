-- Tasks written at scale (issue 47, decision 050): each generated task pays for every index entry and
-- foreign-key check of its row, so the table keeps only what its reads need.
-- A task's plan and entity are checked together, against the plan's (id, entity_id): one check instead of
-- two, and a task can no longer name a plan of another entity (the plan's entity is checked against
-- entities already).
ALTER TABLE "planned_maintenances" ADD CONSTRAINT "planned_maintenances_id_entity_key" UNIQUE ("id","entity_id");--> statement-breakpoint
ALTER TABLE "tasks" ADD CONSTRAINT "tasks_planned_maintenance_entity_fk" FOREIGN KEY ("planned_maintenance_id","entity_id") REFERENCES "public"."planned_maintenances"("id","entity_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tasks" DROP CONSTRAINT IF EXISTS "tasks_planned_maintenance_id_planned_maintenances_id_fk";--> statement-breakpoint
ALTER TABLE "tasks" DROP CONSTRAINT IF EXISTS "tasks_entity_id_entities_id_fk";--> statement-breakpoint
-- A plan's tasks by day are read through the occurrence key (plan, room, item, due date), whose index
-- conditions test the day on the index entries.
DROP INDEX IF EXISTS "tasks_planned_maintenance_due_idx";--> statement-breakpoint
-- Generated tasks have no assignee of their own: only the tasks that name one are indexed by it.
DROP INDEX IF EXISTS "tasks_entity_assignee_status_idx";--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "tasks_entity_assignee_status_idx" ON "tasks" USING btree ("entity_id","assignee_id","status") WHERE "tasks"."assignee_id" is not null;
