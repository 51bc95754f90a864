DROP INDEX "buildings_entity_name_idx";--> statement-breakpoint
DROP INDEX "facilities_entity_name_idx";--> statement-breakpoint
DROP INDEX "room_types_entity_name_idx";--> statement-breakpoint
DROP INDEX "rooms_entity_name_idx";--> statement-breakpoint
DROP INDEX "equipment_categories_entity_name_idx";--> statement-breakpoint
DROP INDEX "equipment_items_entity_room_idx";--> statement-breakpoint
DROP INDEX "equipment_types_entity_name_idx";--> statement-breakpoint
ALTER TABLE "buildings" ADD COLUMN "room_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "buildings" ADD COLUMN "active_incident_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "facilities" ADD COLUMN "building_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "facilities" ADD COLUMN "active_incident_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "room_types" ADD COLUMN "room_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "rooms" ADD COLUMN "active_incident_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "rooms" ADD COLUMN "equipment_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "equipment_categories" ADD COLUMN "equipment_type_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "equipment_types" ADD COLUMN "item_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX "buildings_list_name_idx" ON "buildings" USING btree ("entity_id",lower("name"),"id","name","facility_id") WHERE "buildings"."archived_at" is null;--> statement-breakpoint
CREATE INDEX "facilities_list_name_idx" ON "facilities" USING btree ("entity_id",lower("name"),"id") WHERE "facilities"."archived_at" is null;--> statement-breakpoint
CREATE INDEX "room_types_list_name_idx" ON "room_types" USING btree ("entity_id",lower("name"),"id") WHERE "room_types"."archived_at" is null;--> statement-breakpoint
CREATE INDEX "rooms_list_name_idx" ON "rooms" USING btree ("entity_id",lower("name"),"id","name","building_id","room_type_id") WHERE "rooms"."archived_at" is null;--> statement-breakpoint
CREATE INDEX "rooms_list_short_id_idx" ON "rooms" USING btree ("entity_id","short_id","id","name","building_id","room_type_id") WHERE "rooms"."archived_at" is null;--> statement-breakpoint
CREATE INDEX "rooms_list_floor_idx" ON "rooms" USING btree ("entity_id",lower("floor"),"id","floor","name","building_id","room_type_id") WHERE "rooms"."archived_at" is null;--> statement-breakpoint
CREATE INDEX "rooms_list_building_idx" ON "rooms" USING btree ("building_id",lower("name"),"id","name","entity_id","room_type_id") WHERE "rooms"."archived_at" is null;--> statement-breakpoint
CREATE INDEX "rooms_list_room_type_idx" ON "rooms" USING btree ("room_type_id",lower("name"),"id","name","entity_id","building_id") WHERE "rooms"."archived_at" is null;--> statement-breakpoint
CREATE INDEX "equipment_categories_list_name_idx" ON "equipment_categories" USING btree ("entity_id",lower("name"),"id") WHERE "equipment_categories"."archived_at" is null;--> statement-breakpoint
CREATE INDEX "equipment_items_list_room_idx" ON "equipment_items" USING btree ("entity_id","room_id","id") WHERE "equipment_items"."archived_at" is null;--> statement-breakpoint
CREATE INDEX "equipment_types_list_name_idx" ON "equipment_types" USING btree ("entity_id",lower("name"),"id") WHERE "equipment_types"."archived_at" is null;--> statement-breakpoint
-- Backfill of the counters (app/modules/facilities/counters.server.ts keeps them from here on).
UPDATE "rooms" r SET "active_incident_count" = x.n FROM (
  SELECT "room_id", count(*)::int AS n FROM "incidents"
  WHERE "status" IN (0, 1) AND "archived_at" IS NULL AND "room_id" IS NOT NULL GROUP BY "room_id"
) x WHERE r."id" = x."room_id";--> statement-breakpoint
UPDATE "rooms" r SET "equipment_count" = x.n FROM (
  SELECT "room_id", count(*)::int AS n FROM "equipment_items" WHERE "archived_at" IS NULL GROUP BY "room_id"
) x WHERE r."id" = x."room_id";--> statement-breakpoint
UPDATE "buildings" b SET "room_count" = x.n, "active_incident_count" = x.inc FROM (
  SELECT "building_id", count(*)::int AS n, sum("active_incident_count")::int AS inc FROM "rooms"
  WHERE "archived_at" IS NULL GROUP BY "building_id"
) x WHERE b."id" = x."building_id";--> statement-breakpoint
UPDATE "facilities" f SET "building_count" = x.n, "active_incident_count" = x.inc FROM (
  SELECT "facility_id", count(*)::int AS n, sum("active_incident_count")::int AS inc FROM "buildings"
  WHERE "archived_at" IS NULL GROUP BY "facility_id"
) x WHERE f."id" = x."facility_id";--> statement-breakpoint
UPDATE "room_types" t SET "room_count" = x.n FROM (
  SELECT "room_type_id", count(*)::int AS n FROM "rooms" WHERE "archived_at" IS NULL GROUP BY "room_type_id"
) x WHERE t."id" = x."room_type_id";--> statement-breakpoint
UPDATE "equipment_types" t SET "item_count" = x.n FROM (
  SELECT "equipment_type_id", count(*)::int AS n FROM "equipment_items" WHERE "archived_at" IS NULL GROUP BY "equipment_type_id"
) x WHERE t."id" = x."equipment_type_id";--> statement-breakpoint
UPDATE "equipment_categories" c SET "equipment_type_count" = x.n FROM (
  SELECT "category_id", count(*)::int AS n FROM "equipment_types" WHERE "archived_at" IS NULL GROUP BY "category_id"
) x WHERE c."id" = x."category_id";
