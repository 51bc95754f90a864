import { sql } from "drizzle-orm";
import { type AnyPgColumn, check, index, integer, jsonb, pgTable, primaryKey, smallint, text, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { QR_PRINT_STATUS_VALUES, QrPrintStatus, ROOM_LINK_TYPE_VALUES, type RoomLinkType, type UserLanguage } from "../enums";
import { addressColumns, archivedAt, counter, createdAt, entityId, id, inValues, notArchived, tags, timestamptz, updatedAt } from "./columns";
import { equipmentItems } from "./equipment";
import { storedFiles } from "./files";

export const facilities = pgTable(
  "facilities",
  {
    id: id(),
    entityId: entityId(),
    /** Per-entity number from entity_counters (kind 'facility'). */
    shortId: integer("short_id").notNull(),
    name: text("name").notNull(),
    description: text("description"),
    /** Active buildings (counters.server.ts). */
    buildingCount: counter("building_count"),
    /** Pending and In Progress incidents in the active rooms of its active buildings (counters.server.ts). */
    activeIncidentCount: counter("active_incident_count"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    archivedAt: archivedAt(),
  },
  (t) => [
    uniqueIndex("facilities_entity_short_id_key").on(t.entityId, t.shortId),
    // The list's default order (lower(name), id).
    index("facilities_list_name_idx").on(t.entityId, sql`lower(${t.name})`, t.id).where(notArchived(t.archivedAt)),
  ]
);

export const buildings = pgTable(
  "buildings",
  {
    id: id(),
    entityId: entityId(),
    facilityId: integer("facility_id")
      .notNull()
      .references((): AnyPgColumn => facilities.id),
    /** Per-entity number from entity_counters (kind 'building'). */
    shortId: integer("short_id").notNull(),
    name: text("name").notNull(),
    description: text("description"),
    ...addressColumns(),
    /** Active rooms (counters.server.ts). */
    roomCount: counter("room_count"),
    /** Pending and In Progress incidents in its active rooms (counters.server.ts). */
    activeIncidentCount: counter("active_incident_count"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    archivedAt: archivedAt(),
  },
  (t) => [
    uniqueIndex("buildings_entity_short_id_key").on(t.entityId, t.shortId),
    // The list's default order and the pickers' search and keyset (lower(name), id), index-only.
    index("buildings_list_name_idx")
      .on(t.entityId, sql`lower(${t.name})`, t.id, t.name, t.facilityId)
      .where(notArchived(t.archivedAt)),
    index("buildings_facility_idx").on(t.facilityId),
  ]
);

/** `room_types.rating_messages` item: message shown to occupiers, per language. */
export interface RoomTypeRatingMessage {
  language: UserLanguage;
  message: string;
}

export const roomTypes = pgTable(
  "room_types",
  {
    id: id(),
    entityId: entityId(),
    name: text("name").notNull(),
    tags: tags(),
    ratingMessages: jsonb("rating_messages").$type<RoomTypeRatingMessage[]>().notNull().default([]),
    /** Active rooms of the type (counters.server.ts). */
    roomCount: counter("room_count"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    archivedAt: archivedAt(),
  },
  (t) => [
    index("room_types_list_name_idx").on(t.entityId, sql`lower(${t.name})`, t.id).where(notArchived(t.archivedAt)),
    check("room_types_rating_messages_check", sql`jsonb_typeof(${t.ratingMessages}) = 'array'`),
  ]
);

export const rooms = pgTable(
  "rooms",
  {
    id: id(),
    entityId: entityId(),
    buildingId: integer("building_id")
      .notNull()
      .references((): AnyPgColumn => buildings.id),
    roomTypeId: integer("room_type_id")
      .notNull()
      .references((): AnyPgColumn => roomTypes.id),
    /** Per-entity number from entity_counters (kind 'room'). */
    shortId: integer("short_id").notNull(),
    name: text("name").notNull(),
    description: text("description"),
    floor: text("floor").notNull(),
    /** Pending and In Progress incidents of the room (counters.server.ts). */
    activeIncidentCount: counter("active_incident_count"),
    /** Active equipment items in the room (counters.server.ts). */
    equipmentCount: counter("equipment_count"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    archivedAt: archivedAt(),
  },
  (t) => [
    uniqueIndex("rooms_entity_short_id_key").on(t.entityId, t.shortId),
    index("rooms_building_idx").on(t.buildingId),
    index("rooms_room_type_idx").on(t.roomTypeId),
    // An entity's archived rooms (few): the rooms the maintenance calendar leaves out (migration 0035).
    index("rooms_archived_idx").on(t.entityId).where(sql`${t.archivedAt} is not null`),
    // The rooms list (decision 017): one covering index per sort of the room's own columns, so a page's
    // ids, and the rows an OFFSET skips, come from an index-only scan; the trailing columns are there
    // for the filters (building, room type) and the search (name). Sorts by a parent's name walk the
    // parents in order and take each one's rooms from the per-building / per-type indexes.
    index("rooms_list_name_idx")
      .on(t.entityId, sql`lower(${t.name})`, t.id, t.name, t.buildingId, t.roomTypeId)
      .where(notArchived(t.archivedAt)),
    index("rooms_list_short_id_idx")
      .on(t.entityId, t.shortId, t.id, t.name, t.buildingId, t.roomTypeId)
      .where(notArchived(t.archivedAt)),
    index("rooms_list_floor_idx")
      .on(t.entityId, sql`lower(${t.floor})`, t.id, t.floor, t.name, t.buildingId, t.roomTypeId)
      .where(notArchived(t.archivedAt)),
    index("rooms_list_building_idx")
      .on(t.buildingId, sql`lower(${t.name})`, t.id, t.name, t.entityId, t.roomTypeId)
      .where(notArchived(t.archivedAt)),
    index("rooms_list_room_type_idx")
      .on(t.roomTypeId, sql`lower(${t.name})`, t.id, t.name, t.entityId, t.buildingId)
      .where(notArchived(t.archivedAt)),
  ]
);

/** Links followed by occupiers from a room (assistance, booking, ..., wifi). */
export const roomLinks = pgTable(
  "room_links",
  {
    id: id(),
    entityId: entityId(),
    roomId: integer("room_id")
      .notNull()
      .references((): AnyPgColumn => rooms.id, { onDelete: "cascade" }),
    type: smallint("type").$type<RoomLinkType>().notNull(),
    url: text("url").notNull(),
    /** Display order within the room. */
    position: smallint("position").notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [
    index("room_links_entity_idx").on(t.entityId),
    index("room_links_room_idx").on(t.roomId, t.position),
    check("room_links_type_check", inValues(t.type, ROOM_LINK_TYPE_VALUES)),
  ]
);

/** Files and images of a room ("location" documentation). */
export const roomFiles = pgTable(
  "room_files",
  {
    entityId: entityId(),
    roomId: integer("room_id")
      .notNull()
      .references((): AnyPgColumn => rooms.id, { onDelete: "cascade" }),
    fileId: uuid("file_id")
      .notNull()
      .references((): AnyPgColumn => storedFiles.id, { onDelete: "cascade" }),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ name: "room_files_pkey", columns: [t.roomId, t.fileId] }),
    index("room_files_entity_idx").on(t.entityId),
    index("room_files_file_idx").on(t.fileId),
  ]
);

/**
 * The code behind a QR sticker, for a room or an equipment item (exactly one).
 * `code` is globally unique and URL-safe (it is the whole public URL path
 * segment). At most one non-archived identifier per room / equipment item.
 */
export const reportIdentifiers = pgTable(
  "report_identifiers",
  {
    id: id(),
    entityId: entityId(),
    code: text("code").notNull().unique("report_identifiers_code_key"),
    roomId: integer("room_id").references((): AnyPgColumn => rooms.id),
    equipmentItemId: integer("equipment_item_id").references((): AnyPgColumn => equipmentItems.id),
    qrPrintStatus: smallint("qr_print_status").$type<QrPrintStatus>().notNull().default(QrPrintStatus.NOT_PRINTED),
    /** When its QR code was last printed on a sticker sheet (modules/printing). */
    lastPrintedAt: timestamptz("last_printed_at"),
    createdAt: createdAt(),
    archivedAt: archivedAt(),
  },
  (t) => [
    index("report_identifiers_entity_print_idx").on(t.entityId, t.qrPrintStatus).where(notArchived(t.archivedAt)),
    uniqueIndex("report_identifiers_room_active_key").on(t.roomId).where(notArchived(t.archivedAt)),
    uniqueIndex("report_identifiers_equipment_item_active_key").on(t.equipmentItemId).where(notArchived(t.archivedAt)),
    check("report_identifiers_one_target_check", sql`num_nonnulls(${t.roomId}, ${t.equipmentItemId}) = 1`),
    check("report_identifiers_code_check", sql`${t.code} ~ '^[A-Za-z0-9_-]{4,32}$'`),
    check("report_identifiers_qr_print_status_check", inValues(t.qrPrintStatus, QR_PRINT_STATUS_VALUES)),
  ]
);

export type Facility = typeof facilities.$inferSelect;
export type NewFacility = typeof facilities.$inferInsert;
export type Building = typeof buildings.$inferSelect;
export type NewBuilding = typeof buildings.$inferInsert;
export type RoomType = typeof roomTypes.$inferSelect;
export type NewRoomType = typeof roomTypes.$inferInsert;
export type Room = typeof rooms.$inferSelect;
export type NewRoom = typeof rooms.$inferInsert;
export type RoomLink = typeof roomLinks.$inferSelect;
export type ReportIdentifier = typeof reportIdentifiers.$inferSelect;
