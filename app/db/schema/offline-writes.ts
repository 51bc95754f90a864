import { index, integer, pgTable, primaryKey, uuid } from "drizzle-orm/pg-core";
import { createdAt, entityId } from "./columns";
import { users } from "./users";

/**
 * The form posts a person made offline and the service worker sent again (issue 64, decision 067): each
 * replay carries the id the worker gave the post when it queued it, and the unit of work that applies the
 * post records that id in its own transaction. A post whose answer was lost on the way back (applied, but
 * the worker never heard) is sent again with the same id and is answered as done without a second apply.
 * Kept 30 days, longer than the worker keeps a waiting post (7 days).
 */
export const offlineWrites = pgTable(
  "offline_writes",
  {
    entityId: entityId(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    writeId: uuid("write_id").notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ name: "offline_writes_pkey", columns: [t.userId, t.writeId] }), index("offline_writes_entity_idx").on(t.entityId, t.createdAt)],
);
