-- A checklist question in the three languages, like the type's name: `question` in English, `question_fr`
-- and `question_nl`; at least one of them (the schema checks it). Questions typed before stay in `question`.
ALTER TABLE "incident_type_checklist_items" ALTER COLUMN "question" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "incident_type_checklist_items" ADD COLUMN "question_fr" text;--> statement-breakpoint
ALTER TABLE "incident_type_checklist_items" ADD COLUMN "question_nl" text;
