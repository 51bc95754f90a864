import { sql } from "drizzle-orm";
import {
  type AnyPgColumn,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  smallint,
  text,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import {
  QR_PRINT_STATUS_VALUES,
  QrPrintStatus,
  ROOM_LINK_TYPE_VALUES,
  type RoomLinkType,
  type UserLanguage,
} from "../enums";
import { addressColumns, archivedAt, createdAt, entityId, id, inValues, notArchived, tags, updatedAt } from "./columns";
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
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    archivedAt: archivedAt(),
  },
  (t) => [
    uniqueIndex("facilities_entity_short_id_key").on(t.entityId, t.shortId),
    index("facilities_entity_name_idx").on(t.entityId, t.name).where(notArchived(t.archivedAt)),
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
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    archivedAt: archivedAt(),
  },
  (t) => [
    uniqueIndex("buildings_entity_short_id_key").on(t.entityId, t.shortId),
    index("buildings_entity_name_idx").on(t.entityId, t.name).where(notArchived(t.archivedAt)),
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
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    archivedAt: archivedAt(),
  },
  (t) => [
    index("room_types_entity_name_idx").on(t.entityId, t.name).where(notArchived(t.archivedAt)),
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
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    archivedAt: archivedAt(),
  },
  (t) => [
    uniqueIndex("rooms_entity_short_id_key").on(t.entityId, t.shortId),
    index("rooms_entity_name_idx").on(t.entityId, t.name).where(notArchived(t.archivedAt)),
    index("rooms_building_idx").on(t.buildingId),
    index("rooms_room_type_idx").on(t.roomTypeId),
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
