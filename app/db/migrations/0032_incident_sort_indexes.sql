-- Written by hand: drizzle declares no INCLUDE. Every sort of the incidents table (and of the board) has
-- an index whose keys are the sort's keys with the id last, so a page reads its rows in order without
-- sorting ties (a title shared by thousands of incidents no longer sorts them all), and whose entries
-- carry what the list's filters and a person's reach test (status, priority, assignee, type, room,
-- creation time): a filtered page is an index-only walk, not a heap fetch per skipped row.
-- The room index serves the building and facility filters (a building's rooms, then each room's incidents
-- from the index alone), which otherwise walk the creation-time index testing each incident's room.
-- The creation-time index also serves the dashboard's period reads (it replaces incidents_dashboard_idx,
-- same keys plus the id, same columns carried).
CREATE INDEX IF NOT EXISTS "incidents_list_created_idx" ON "incidents" USING btree ("entity_id","created_at","id") INCLUDE ("status","priority","assignee_id","incident_type_id","room_id","done_at") WHERE "archived_at" IS NULL;--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "incidents_list_status_idx" ON "incidents" USING btree ("entity_id","status","created_at","id") INCLUDE ("priority","assignee_id","incident_type_id","room_id") WHERE "archived_at" IS NULL;--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "incidents_list_title_idx" ON "incidents" USING btree ("entity_id","title","id") INCLUDE ("status","priority","assignee_id","incident_type_id","room_id","created_at") WHERE "archived_at" IS NULL;--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "incidents_list_priority_idx" ON "incidents" USING btree ("entity_id",coalesce("priority", -1),"id") INCLUDE ("status","assignee_id","incident_type_id","room_id","created_at") WHERE "archived_at" IS NULL;--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "incidents_list_occurrences_idx" ON "incidents" USING btree ("entity_id","occurrences","id") INCLUDE ("status","priority","assignee_id","incident_type_id","room_id","created_at") WHERE "archived_at" IS NULL;--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "incidents_list_short_id_idx" ON "incidents" USING btree ("entity_id","short_id") INCLUDE ("status","priority","assignee_id","incident_type_id","room_id","created_at") WHERE "archived_at" IS NULL;--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "incidents_list_room_idx" ON "incidents" USING btree ("entity_id","room_id") INCLUDE ("status","priority","assignee_id","incident_type_id","created_at","id") WHERE "archived_at" IS NULL;--> statement-breakpoint
DROP INDEX IF EXISTS "incidents_entity_created_idx";--> statement-breakpoint
DROP INDEX IF EXISTS "incidents_dashboard_idx";--> statement-breakpoint
DROP INDEX IF EXISTS "incidents_entity_status_created_idx";--> statement-breakpoint
DROP INDEX IF EXISTS "incidents_entity_title_idx";--> statement-breakpoint
DROP INDEX IF EXISTS "incidents_entity_priority_idx";--> statement-breakpoint
DROP INDEX IF EXISTS "incidents_entity_occurrences_idx";
