import { sql } from "drizzle-orm";
import { type AnyPgColumn, bigint, boolean, check, index, integer, jsonb, pgTable, text, uuid } from "drizzle-orm/pg-core";
import { createdAt, entityId, id, timestamptz, updatedAt } from "./columns";
import { users } from "./users";

/**
 * Webhooks (decision 057): endpoints an administrator registered, each told of the change events it
 * subscribed to by signed POSTs, and the deliveries made to them with the endpoint's last answer.
 *
 * `secret` is kept as it was generated (the signature needs it; it is shown once, when made or rotated).
 * `disabled_reason` is "manual" (an administrator disabled it) or "failures" (the deliveries failed
 * `consecutive_failures` times in a row, decision 057); null while enabled.
 */
export const webhookEndpoints = pgTable(
  "webhook_endpoints",
  {
    id: id(),
    entityId: entityId(),
    name: text("name").notNull(),
    url: text("url").notNull(),
    /** The change event types it is told of ("incident.created", "import.finished", ...). */
    events: text("events").array().notNull().default(sql`'{}'::text[]`),
    secret: text("secret").notNull(),
    enabled: boolean("enabled").notNull().default(true),
    disabledReason: text("disabled_reason"),
    disabledAt: timestamptz("disabled_at"),
    /** Deliveries failed for good in a row since the last success (decision 057). */
    consecutiveFailures: integer("consecutive_failures").notNull().default(0),
    createdById: integer("created_by_id").references((): AnyPgColumn => users.id, { onDelete: "set null" }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index("webhook_endpoints_entity_idx").on(t.entityId, t.id),
    check("webhook_endpoints_disabled_reason_check", sql`${t.disabledReason} is null or ${t.disabledReason} in ('manual', 'failures')`),
  ],
);

/**
 * One event sent to one endpoint: its body (`payload`, the same on every attempt), where it stands
 * (`pending`, `succeeded`, `failed`) and the endpoint's last answer (status code, the start of its body,
 * how long it took) or the reason no answer came (`last_error`). Removed with their endpoint.
 */
export const webhookDeliveries = pgTable(
  "webhook_deliveries",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    entityId: entityId(),
    endpointId: integer("endpoint_id")
      .notNull()
      .references((): AnyPgColumn => webhookEndpoints.id, { onDelete: "cascade" }),
    /** The delivery's id as the receiver sees it (body `id`, header Caretaker-Delivery). */
    publicId: uuid("public_id").notNull().defaultRandom(),
    eventType: text("event_type").notNull(),
    /** The change event it tells of; null for a test ping. */
    changeId: bigint("change_id", { mode: "number" }),
    payload: jsonb("payload").$type<Record<string, unknown>>().notNull(),
    status: text("status").notNull().default("pending"),
    attempts: integer("attempts").notNull().default(0),
    maxAttempts: integer("max_attempts").notNull(),
    nextAttemptAt: timestamptz("next_attempt_at"),
    lastStatusCode: integer("last_status_code"),
    lastResponse: text("last_response"),
    lastDurationMs: integer("last_duration_ms"),
    lastError: text("last_error"),
    createdAt: createdAt(),
    finishedAt: timestamptz("finished_at"),
  },
  (t) => [
    index("webhook_deliveries_endpoint_idx").on(t.entityId, t.endpointId, t.id.desc()),
    check("webhook_deliveries_status_check", sql`${t.status} in ('pending', 'succeeded', 'failed')`),
  ],
);

export type WebhookEndpoint = typeof webhookEndpoints.$inferSelect;
export type WebhookDelivery = typeof webhookDeliveries.$inferSelect;
