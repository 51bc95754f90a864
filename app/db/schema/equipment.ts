import { sql } from "drizzle-orm";
import { type AnyPgColumn, check, date, foreignKey, index, integer, pgTable, primaryKey, text, unique, uuid } from "drizzle-orm/pg-core";
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
 * code lives in report_identifiers (equipment_item_id). Its record (issue 63):
 * serial number, maker, model, dates, supplier, notes, and an optional parent
 * item of the same entity (a pump inside a boiler room's installation). The
 * parent chain never loops: the verb refuses a parent among the item's
 * descendants, the check below refuses an item its own parent.
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
    serialNumber: text("serial_number"),
    manufacturer: text("manufacturer"),
    model: text("model"),
    installedOn: date("installed_on", { mode: "string" }),
    warrantyEndsOn: date("warranty_ends_on", { mode: "string" }),
    /** Free text for now (issue 63). */
    supplier: text("supplier"),
    notes: text("notes"),
    /** An archived parent keeps its children (they stay in their rooms, visible). */
    parentItemId: integer("parent_item_id").references((): AnyPgColumn => equipmentItems.id),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    archivedAt: archivedAt(),
  },
  (t) => [
    check("equipment_items_parent_not_self_check", sql`${t.parentItemId} <> ${t.id}`),
    index("equipment_items_parent_idx").on(t.parentItemId).where(sql`${t.parentItemId} is not null`),
    // The warranty filter and the reminder pass: active items by warranty end.
    index("equipment_items_warranty_idx").on(t.entityId, t.warrantyEndsOn).where(sql`${t.warrantyEndsOn} is not null and ${t.archivedAt} is null`),
    // The list of items (GET /api/equipments): by room, then id; index-only for a page's ids.
    index("equipment_items_list_room_idx").on(t.entityId, t.roomId, t.id).where(notArchived(t.archivedAt)),
    index("equipment_items_room_idx").on(t.roomId),
    index("equipment_items_equipment_type_idx").on(t.equipmentTypeId),
    // Items in rooms per generic equipment (the count of the generic equipment list).
    index("equipment_items_active_type_idx").on(t.equipmentTypeId).where(notArchived(t.archivedAt)),
  ]
);

/** Documents and photos of one equipment item (its manual, its plate, its invoice). */
export const equipmentItemFiles = pgTable(
  "equipment_item_files",
  {
    entityId: entityId(),
    equipmentItemId: integer("equipment_item_id")
      .notNull()
      .references((): AnyPgColumn => equipmentItems.id, { onDelete: "cascade" }),
    fileId: uuid("file_id")
      .notNull()
      .references((): AnyPgColumn => storedFiles.id, { onDelete: "cascade" }),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ name: "equipment_item_files_pkey", columns: [t.equipmentItemId, t.fileId] }),
    index("equipment_item_files_entity_idx").on(t.entityId),
    index("equipment_item_files_file_idx").on(t.fileId),
  ]
);

/**
 * One warranty reminder sent (issue 63): the unique key makes the reminder pass tell the managers once per
 * item and warranty end date, even when two processes run it at once; a new warranty date reminds anew.
 */
export const equipmentWarrantyReminders = pgTable(
  "equipment_warranty_reminders",
  {
    id: id(),
    entityId: entityId(),
    equipmentItemId: integer("equipment_item_id").notNull(),
    warrantyEndsOn: date("warranty_ends_on", { mode: "string" }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    // Named by hand: the generated name passes PostgreSQL's 63 characters.
    foreignKey({ name: "equipment_warranty_reminders_item_fk", columns: [t.equipmentItemId], foreignColumns: [equipmentItems.id] }).onDelete("cascade"),
    unique("equipment_warranty_reminders_once_key").on(t.equipmentItemId, t.warrantyEndsOn),
    index("equipment_warranty_reminders_entity_idx").on(t.entityId, t.createdAt),
  ]
);

export type EquipmentCategory = typeof equipmentCategories.$inferSelect;
export type NewEquipmentCategory = typeof equipmentCategories.$inferInsert;
export type EquipmentType = typeof equipmentTypes.$inferSelect;
export type NewEquipmentType = typeof equipmentTypes.$inferInsert;
export type EquipmentItem = typeof equipmentItems.$inferSelect;
export type NewEquipmentItem = typeof equipmentItems.$inferInsert;
