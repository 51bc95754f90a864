import { sql } from "drizzle-orm";
import { bigint, index, integer, jsonb, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { entities } from "./entities";

/** Who made a change, as recorded beside it (core/actor.ts `describeActor`). */
export interface ChangeActorRecord {
  kind: "person" | "token" | "system" | "visitor";
  id: number | null;
  name?: string;
  tokenId?: number;
}

/**
 * The change-event outbox (decision 048): typed domain changes (an incident created, its status
 * changed, it was assigned ...) written by a verb in its own transaction (`effects.emit`), so a change
 * exists only if the verb commits. The dispatcher (app/jobs/changes.server.ts) claims them and turns each,
 * exactly once, into what follows from it (notifications, live events, reporters' mails), marking it
 * dispatched in the same transaction as those writes.
 */
export const changeEvents = pgTable(
  "change_events",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    entityId: integer("entity_id")
      .notNull()
      .references(() => entities.id),
    /** The change's name, e.g. "incident.status-changed" (its definition validates the payload). */
    type: text("type").notNull(),
    /** The record it is about (an incident's id), for reading a record's changes in order. */
    subjectId: integer("subject_id"),
    actor: jsonb("actor").$type<ChangeActorRecord>().notNull(),
    payload: jsonb("payload").$type<Record<string, unknown>>().notNull(),
    requestId: text("request_id"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    dispatchedAt: timestamp("dispatched_at", { withTimezone: true }),
    attempts: integer("attempts").notNull().default(0),
    /** Not before then (after a failed attempt). */
    runAfter: timestamp("run_after", { withTimezone: true }).notNull().defaultNow(),
    /** Claimed by a dispatcher until then; a dispatcher that stopped leaves it to be claimed again. */
    lockedUntil: timestamp("locked_until", { withTimezone: true }),
    lastError: text("last_error"),
  },
  (t) => [
    /** Claiming: what waits for dispatch, oldest first (a handful at any time). */
    index("change_events_pending_idx").on(t.id).where(sql`${t.dispatchedAt} is null`),
    index("change_events_entity_idx").on(t.entityId, t.subjectId, t.id),
    /** Retention: dispatched changes by age. */
    index("change_events_dispatched_idx").on(t.dispatchedAt).where(sql`${t.dispatchedAt} is not null`),
  ],
);

export type ChangeEventRow = typeof changeEvents.$inferSelect;
