-- The incidents' text search (title or description containing the words, ILIKE) served by trigram
-- indexes instead of reading every incident of the entity.
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "incidents_title_trgm_idx" ON "incidents" USING gin ("title" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "incidents_description_trgm_idx" ON "incidents" USING gin ("description" gin_trgm_ops);
