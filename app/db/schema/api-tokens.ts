import { sql } from "drizzle-orm";
import { type AnyPgColumn, index, integer, pgTable, smallint, text } from "drizzle-orm/pg-core";
import type { Role } from "../enums";
import { createdAt, entityId, id, timestamptz } from "./columns";
import { users } from "./users";

/**
 * API tokens for integrations (issue 50, decision 056): made by an administrator of the entity, each
 * acts as its own actor with its own role (never above its maker's) and, optionally, a reach limited to
 * some facilities. Only the SHA-256 of the secret is kept (`token_hash`); the secret is shown once.
 * Tokens are never deleted: a revoked or expired one stays listed and named in the audit trail.
 */
export const apiTokens = pgTable(
  "api_tokens",
  {
    id: id(),
    entityId: entityId(),
    name: text("name").notNull(),
    role: smallint("role").$type<Role>().notNull(),
    /** The facilities the token reaches; empty: its role's whole reach (the entity, for an administrator's role). */
    facilityIds: integer("facility_ids").array().notNull().default(sql`'{}'::integer[]`),
    /** SHA-256 (hex) of the whole secret, "ct_" included. */
    tokenHash: text("token_hash").notNull().unique("api_tokens_token_hash_key"),
    /** The secret's first characters, shown in the list so a holder recognises their token. */
    tokenPrefix: text("token_prefix").notNull(),
    createdById: integer("created_by_id")
      .notNull()
      .references((): AnyPgColumn => users.id),
    createdAt: createdAt(),
    expiresAt: timestamptz("expires_at").notNull(),
    /** The last call made with it (written at most once a minute). */
    lastUsedAt: timestamptz("last_used_at"),
    revokedAt: timestamptz("revoked_at"),
    revokedById: integer("revoked_by_id").references((): AnyPgColumn => users.id),
  },
  (t) => [index("api_tokens_entity_idx").on(t.entityId, t.createdAt.desc())],
);

export type ApiTokenRow = typeof apiTokens.$inferSelect;
