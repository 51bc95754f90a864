-- Two notification kinds outside SPEC.md's list: a background sticker print is ready (type 26, issue 48) and
-- a webhook endpoint was disabled after repeated failed deliveries (type 27, issue 50).
ALTER TABLE "notification_details" DROP CONSTRAINT "notification_details_type_check";--> statement-breakpoint
ALTER TABLE "notification_details" ADD CONSTRAINT "notification_details_type_check" CHECK ("notification_details"."type" in (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27));
