-- Written by hand: drizzle declares no INCLUDE. The incidents of one type, by title: a type filter reads
-- its own incidents from this index, in title order (the title sort) or to sort them by another key,
-- instead of walking every incident of the entity in the sort's index and skipping the other types'.
CREATE INDEX IF NOT EXISTS "incidents_list_type_title_idx" ON "incidents" USING btree ("entity_id","incident_type_id","title","id") INCLUDE ("status","priority","assignee_id","room_id","created_at") WHERE "archived_at" IS NULL;
