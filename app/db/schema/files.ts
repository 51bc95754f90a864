import { sql } from "drizzle-orm";
import { type AnyPgColumn, check, index, integer, pgTable, text, uuid } from "drizzle-orm/pg-core";
import { createdAt, entityId, timestamptz } from "./columns";
import { users } from "./users";

/**
 * Uploaded or generated files (logos, pictures, room/equipment documentation,
 * incident attachments, import sources, export results). The bytes live in
 * storage under `storage_key`; the uuid id appears in download URLs.
 * Deleting a file sets `deleted_at`; a cleanup job removes the bytes later.
 */
export const storedFiles = pgTable(
  "stored_files",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    entityId: entityId(),
    storageKey: text("storage_key").notNull().unique("stored_files_storage_key_key"),
    originalName: text("original_name").notNull(),
    mimeType: text("mime_type").notNull(),
    sizeBytes: integer("size_bytes").notNull(),
    createdById: integer("created_by_id").references((): AnyPgColumn => users.id),
    createdAt: createdAt(),
    deletedAt: timestamptz("deleted_at"),
  },
  (t) => [
    index("stored_files_entity_created_idx").on(t.entityId, t.createdAt),
    check("stored_files_size_bytes_check", sql`${t.sizeBytes} >= 0`),
  ]
);

export type StoredFile = typeof storedFiles.$inferSelect;
export type NewStoredFile = typeof storedFiles.$inferInsert;
