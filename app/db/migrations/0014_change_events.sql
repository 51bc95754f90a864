-- The change-event outbox (decision 048).
CREATE TABLE "change_events" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "change_events_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"entity_id" integer NOT NULL,
	"type" text NOT NULL,
	"subject_id" integer,
	"actor" jsonb NOT NULL,
	"payload" jsonb NOT NULL,
	"request_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"dispatched_at" timestamp with time zone,
	"attempts" integer DEFAULT 0 NOT NULL,
	"run_after" timestamp with time zone DEFAULT now() NOT NULL,
	"locked_until" timestamp with time zone,
	"last_error" text
);
--> statement-breakpoint
ALTER TABLE "change_events" ADD CONSTRAINT "change_events_entity_id_entities_id_fk" FOREIGN KEY ("entity_id") REFERENCES "public"."entities"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "change_events_pending_idx" ON "change_events" USING btree ("id") WHERE "change_events"."dispatched_at" is null;--> statement-breakpoint
CREATE INDEX "change_events_entity_idx" ON "change_events" USING btree ("entity_id","subject_id","id");--> statement-breakpoint
CREATE INDEX "change_events_dispatched_idx" ON "change_events" USING btree ("dispatched_at") WHERE "change_events"."dispatched_at" is not null;
--> statement-breakpoint
-- Notifications waiting as `notify` jobs become the changes they announced: the dispatcher writes them.
INSERT INTO "change_events" ("entity_id", "type", "subject_id", "actor", "payload")
SELECT (j.payload->>'entityId')::int,
  CASE (j.payload->>'type')::int
    WHEN 0 THEN 'incident.created'
    WHEN 1 THEN 'incident.assigned'
    WHEN 2 THEN 'incident.assigned'
    WHEN 3 THEN 'incident.status-changed'
    WHEN 4 THEN 'incident.commented'
  END,
  (j.payload->>'incidentId')::int,
  jsonb_build_object('kind', CASE WHEN j.payload->>'actorId' IS NULL THEN 'system' ELSE 'person' END, 'id', (j.payload->>'actorId')::int, 'name', 'notify'),
  jsonb_strip_nulls(jsonb_build_object(
    'incidentId', (j.payload->>'incidentId')::int,
    'assigneeId', (j.payload->>'assigneeId')::int,
    'from', CASE (j.payload->>'type')::int WHEN 2 THEN (j.payload->>'previousAssigneeId')::int WHEN 1 THEN NULL END,
    'to', CASE (j.payload->>'type')::int WHEN 1 THEN (j.payload->>'assigneeId')::int WHEN 3 THEN (j.payload->>'status')::int END,
    'commentId', (j.payload->>'commentId')::int))
FROM "job_queue" j
WHERE j.name = 'notify' AND j.state IN ('pending', 'active') AND (j.payload->>'type')::int BETWEEN 0 AND 4
  AND EXISTS (SELECT 1 FROM "entities" e WHERE e.id = (j.payload->>'entityId')::int);
--> statement-breakpoint
DELETE FROM "job_queue" WHERE name = 'notify' AND state IN ('pending', 'active');
