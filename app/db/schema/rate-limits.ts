import { index, integer, pgTable, primaryKey, text } from "drizzle-orm/pg-core";
import { timestamptz } from "./columns";

/**
 * Request limits shared by the processes of a deployment (app/core/shared-limits.server.ts): a
 * limiter's scope, a hashed key, the count in the running window and when it ends. Not tenant-owned:
 * the keys are client addresses and login attempts, before anyone is known. Unlogged in SQL.
 */
export const rateLimits = pgTable(
  "rate_limits",
  {
    scope: text("scope").notNull(),
    key: text("key").notNull(),
    count: integer("count").notNull(),
    resetAt: timestamptz("reset_at").notNull(),
  },
  (t) => [primaryKey({ name: "rate_limits_pkey", columns: [t.scope, t.key] }), index("rate_limits_reset_at_idx").on(t.resetAt)],
);
