import { sql } from "drizzle-orm";
import { type AnyPgColumn, index, integer, pgTable, primaryKey, text, uuid } from "drizzle-orm/pg-core";
import { archivedAt, counter, createdAt, entityId, id, notArchived, tags, updatedAt } from "./columns";
import { rooms } from "./facilities";
import { storedFiles } from "./files";

export const equipmentCategories = pgTable(
  "equipment_categories",
  {
    id: id(),
    entityId: entityId(),
    name: text("name").notNull(),
    tags: tags(),
    /** Active generic equipment of the category (counters.server.ts). */
    equipmentTypeCount: counter("equipment_type_count"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    archivedAt: archivedAt(),
  },
  (t) => [
    index("equipment_categories_list_name_idx").on(t.entityId, sql`lower(${t.name})`, t.id).where(notArchived(t.archivedAt)),
  ]
);

/**
 * Generic equipment ("equipment type"). Its status (EquipmentTypeStatus) is
 * derived: ARCHIVE when archived_at is set, ACTIVE otherwise.
 */
export const equipmentTypes = pgTable(
  "equipment_types",
  {
    id: id(),
    entityId: entityId(),
    categoryId: integer("category_id")
      .notNull()
      .references((): AnyPgColumn => equipmentCategories.id),
    name: text("name").notNull(),
    notes: text("notes"),
    tags: tags(),
    /** Active equipment items of this generic equipment (counters.server.ts). */
    itemCount: counter("item_count"),
    /** creationTimestamp */
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    archivedAt: archivedAt(),
  },
  (t) => [
    index("equipment_types_list_name_idx").on(t.entityId, sql`lower(${t.name})`, t.id).where(notArchived(t.archivedAt)),
    index("equipment_types_category_idx").on(t.categoryId),
  ]
);

/** Documentation files and images of a generic equipment. */
export const equipmentTypeFiles = pgTable(
  "equipment_type_files",
  {
    entityId: entityId(),
    equipmentTypeId: integer("equipment_type_id")
      .notNull()
      .references((): AnyPgColumn => equipmentTypes.id, { onDelete: "cascade" }),
    fileId: uuid("file_id")
      .notNull()
      .references((): AnyPgColumn => storedFiles.id, { onDelete: "cascade" }),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ name: "equipment_type_files_pkey", columns: [t.equipmentTypeId, t.fileId] }),
    index("equipment_type_files_entity_idx").on(t.entityId),
    index("equipment_type_files_file_idx").on(t.fileId),
  ]
);

/**
 * A specific piece of equipment of a generic type, placed in a room. Its QR
 * code lives in report_identifiers (equipment_item_id).
 */
export const equipmentItems = pgTable(
  "equipment_items",
  {
    id: id(),
    entityId: entityId(),
    roomId: integer("room_id")
      .notNull()
      .references((): AnyPgColumn => rooms.id),
    equipmentTypeId: integer("equipment_type_id")
      .notNull()
      .references((): AnyPgColumn => equipmentTypes.id),
    internalReference: text("internal_reference"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    archivedAt: archivedAt(),
  },
  (t) => [
    // The list of items (GET /api/equipments): by room, then id; index-only for a page's ids.
    index("equipment_items_list_room_idx").on(t.entityId, t.roomId, t.id).where(notArchived(t.archivedAt)),
    index("equipment_items_room_idx").on(t.roomId),
    index("equipment_items_equipment_type_idx").on(t.equipmentTypeId),
    // Items in rooms per generic equipment (the count of the generic equipment list).
    index("equipment_items_active_type_idx").on(t.equipmentTypeId).where(notArchived(t.archivedAt)),
  ]
);

export type EquipmentCategory = typeof equipmentCategories.$inferSelect;
export type NewEquipmentCategory = typeof equipmentCategories.$inferInsert;
export type EquipmentType = typeof equipmentTypes.$inferSelect;
export type NewEquipmentType = typeof equipmentTypes.$inferInsert;
export type EquipmentItem = typeof equipmentItems.$inferSelect;
export type NewEquipmentItem = typeof equipmentItems.$inferInsert;
