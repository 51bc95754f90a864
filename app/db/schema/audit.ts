import { type AnyPgColumn, bigint, index, integer, jsonb, pgTable, text } from "drizzle-orm/pg-core";
import { apiTokens } from "./api-tokens";
import { createdAt, entityId } from "./columns";

/**
 * The audit trail: who did what to which record, written by service verbs in the same transaction as
 * the change (`effects.audit` of the unit of work), so a rolled-back verb leaves no row.
 * `actor_id` is null for the system (jobs, seed); `request_id` ties the row to the access log.
 */
export const auditLog = pgTable(
  "audit_log",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    entityId: entityId(),
    actorId: integer("actor_id"),
    /**
     * The API token that made the call (decision 056), whose name the trail shows; `actor_id` is then
     * the person who made the token.
     */
    actorTokenId: integer("actor_token_id").references((): AnyPgColumn => apiTokens.id),
    /** A verb name, e.g. "facility.archive". */
    action: text("action").notNull(),
    /** The record's kind ("facility", "room", ...) and id. */
    recordType: text("record_type").notNull(),
    recordId: text("record_id").notNull(),
    requestId: text("request_id"),
    details: jsonb("details").$type<Record<string, unknown>>(),
    createdAt: createdAt(),
  },
  (t) => [
    index("audit_log_entity_created_idx").on(t.entityId, t.createdAt.desc()),
    index("audit_log_record_idx").on(t.entityId, t.recordType, t.recordId),
  ],
);

export type AuditRow = typeof auditLog.$inferSelect;
