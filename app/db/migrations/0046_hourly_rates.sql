ALTER TABLE "entities" ADD COLUMN "default_hourly_rate" numeric(10, 2);--> statement-breakpoint
ALTER TABLE "entities" ADD COLUMN "currency" text DEFAULT 'EUR' NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "hourly_rate" numeric(10, 2);--> statement-breakpoint
ALTER TABLE "time_entries" ADD COLUMN "hourly_rate" numeric(10, 2);--> statement-breakpoint
ALTER TABLE "entities" ADD CONSTRAINT "entities_default_hourly_rate_check" CHECK ("entities"."default_hourly_rate" >= 0);--> statement-breakpoint
ALTER TABLE "entities" ADD CONSTRAINT "entities_currency_check" CHECK ("entities"."currency" ~ '^[A-Z]{3}$');--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_hourly_rate_check" CHECK ("users"."hourly_rate" >= 0);--> statement-breakpoint
ALTER TABLE "time_entries" ADD CONSTRAINT "time_entries_hourly_rate_check" CHECK ("time_entries"."hourly_rate" >= 0);