-- An entity's archived rooms, which are few: the maintenance calendar tests each task's room against
-- them (decision 063) and reads them here instead of testing every room of the entity.
CREATE INDEX IF NOT EXISTS "rooms_archived_idx" ON "rooms" USING btree ("entity_id") WHERE "rooms"."archived_at" is not null;
