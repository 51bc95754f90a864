import { sql } from "drizzle-orm";
import { type AnyPgColumn, boolean, check, foreignKey, index, integer, pgTable, primaryKey, smallint, text } from "drizzle-orm/pg-core";
import { CHECKLIST_CONTENT_TYPE_VALUES, INCIDENT_TYPE_STATUS_VALUES, IncidentTypeStatus, PRIORITY_VALUES, type Priority } from "../enums";
import { archivedAt, createdAt, entityId, id, inValues, notArchived, updatedAt } from "./columns";
import { equipmentTypes } from "./equipment";
import { rooms, roomTypes } from "./facilities";
import { users } from "./users";

/**
 * Incident types. The name is multi-language: at least one of name_en /
 * name_fr / name_nl is set. `status` mirrors `archived_at` for ARCHIVED
 * (enforced by a CHECK): archiving sets both.
 */
export const incidentTypes = pgTable(
  "incident_types",
  {
    id: id(),
    entityId: entityId(),
    nameEn: text("name_en"),
    nameFr: text("name_fr"),
    nameNl: text("name_nl"),
    defaultPriority: smallint("default_priority").$type<Priority>().notNull(),
    reporterMayChangePriority: boolean("reporter_may_change_priority").notNull().default(false),
    /** Reportable in every room of the entity (besides the room types, rooms and equipment linked). */
    appliesEverywhere: boolean("applies_everywhere").notNull().default(false),
    /** Languages ("en", "fr", "nl") whose name is a copy of another language's, waiting for a translation. */
    untranslated: text("untranslated").array().$type<("en" | "fr" | "nl")[]>().notNull().default(sql`'{}'::text[]`),
    status: smallint("status").$type<IncidentTypeStatus>().notNull().default(IncidentTypeStatus.ACTIVE),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    archivedAt: archivedAt(),
  },
  (t) => [
    index("incident_types_entity_idx").on(t.entityId).where(notArchived(t.archivedAt)),
    check("incident_types_name_check", sql`coalesce(${t.nameEn}, ${t.nameFr}, ${t.nameNl}) is not null`),
    check("incident_types_default_priority_check", inValues(t.defaultPriority, PRIORITY_VALUES)),
    check("incident_types_status_check", inValues(t.status, INCIDENT_TYPE_STATUS_VALUES)),
    check(
      "incident_types_archived_status_check",
      sql`(${t.status} = ${sql.raw(String(IncidentTypeStatus.ARCHIVED))}) = (${t.archivedAt} is not null)`
    ),
  ]
);

/** Users assigned by default to new incidents of the type. */
export const incidentTypeDefaultAssignees = pgTable(
  "incident_type_default_assignees",
  {
    entityId: entityId(),
    incidentTypeId: integer("incident_type_id").notNull(),
    userId: integer("user_id")
      .notNull()
      .references((): AnyPgColumn => users.id, { onDelete: "cascade" }),
  },
  (t) => [
    foreignKey({
      name: "incident_type_default_assignees_incident_type_id_fk",
      columns: [t.incidentTypeId],
      foreignColumns: [incidentTypes.id],
    }).onDelete("cascade"),
    primaryKey({ name: "incident_type_default_assignees_pkey", columns: [t.incidentTypeId, t.userId] }),
    index("incident_type_default_assignees_entity_idx").on(t.entityId),
    index("incident_type_default_assignees_user_idx").on(t.userId),
  ]
);

/** Room types the incident type applies to. */
export const incidentTypeRoomTypes = pgTable(
  "incident_type_room_types",
  {
    entityId: entityId(),
    incidentTypeId: integer("incident_type_id")
      .notNull()
      .references((): AnyPgColumn => incidentTypes.id, { onDelete: "cascade" }),
    roomTypeId: integer("room_type_id")
      .notNull()
      .references((): AnyPgColumn => roomTypes.id, { onDelete: "cascade" }),
  },
  (t) => [
    primaryKey({ name: "incident_type_room_types_pkey", columns: [t.incidentTypeId, t.roomTypeId] }),
    index("incident_type_room_types_entity_idx").on(t.entityId),
    index("incident_type_room_types_room_type_idx").on(t.roomTypeId),
  ]
);

/** Generic equipments (equipment types) the incident type applies to. */
export const incidentTypeEquipmentTypes = pgTable(
  "incident_type_equipment_types",
  {
    entityId: entityId(),
    incidentTypeId: integer("incident_type_id").notNull(),
    equipmentTypeId: integer("equipment_type_id").notNull(),
  },
  (t) => [
    foreignKey({
      name: "incident_type_equipment_types_equipment_type_id_fk",
      columns: [t.equipmentTypeId],
      foreignColumns: [equipmentTypes.id],
    }).onDelete("cascade"),
    foreignKey({
      name: "incident_type_equipment_types_incident_type_id_fk",
      columns: [t.incidentTypeId],
      foreignColumns: [incidentTypes.id],
    }).onDelete("cascade"),
    primaryKey({
      name: "incident_type_equipment_types_pkey",
      columns: [t.incidentTypeId, t.equipmentTypeId],
    }),
    index("incident_type_equipment_types_entity_idx").on(t.entityId),
    index("incident_type_equipment_types_equipment_type_idx").on(t.equipmentTypeId),
  ]
);

/** Rooms the incident type applies to. */
export const incidentTypeRooms = pgTable(
  "incident_type_rooms",
  {
    entityId: entityId(),
    incidentTypeId: integer("incident_type_id")
      .notNull()
      .references((): AnyPgColumn => incidentTypes.id, { onDelete: "cascade" }),
    roomId: integer("room_id")
      .notNull()
      .references((): AnyPgColumn => rooms.id, { onDelete: "cascade" }),
  },
  (t) => [
    primaryKey({ name: "incident_type_rooms_pkey", columns: [t.incidentTypeId, t.roomId] }),
    index("incident_type_rooms_entity_idx").on(t.entityId),
    index("incident_type_rooms_room_idx").on(t.roomId),
  ]
);

/**
 * Checklist form of an incident type, ordered by `position`.
 * `content_type` has no values in the spec; it is a free smallint (>= 0).
 */
export const incidentTypeChecklistItems = pgTable(
  "incident_type_checklist_items",
  {
    id: id(),
    entityId: entityId(),
    incidentTypeId: integer("incident_type_id").notNull(),
    position: smallint("position").notNull().default(0),
    /** The question in English, French and Dutch: at least one of the three (the name's rule). */
    question: text("question"),
    questionFr: text("question_fr"),
    questionNl: text("question_nl"),
    tutorialLink: text("tutorial_link"),
    message: text("message"),
    contentType: smallint("content_type").notNull().default(0),
  },
  (t) => [
    foreignKey({
      name: "incident_type_checklist_items_incident_type_id_fk",
      columns: [t.incidentTypeId],
      foreignColumns: [incidentTypes.id],
    }).onDelete("cascade"),
    index("incident_type_checklist_items_entity_idx").on(t.entityId),
    index("incident_type_checklist_items_type_idx").on(t.incidentTypeId, t.position),
    check("incident_type_checklist_items_content_type_check", inValues(t.contentType, CHECKLIST_CONTENT_TYPE_VALUES)),
  ]
);

export type IncidentType = typeof incidentTypes.$inferSelect;
export type NewIncidentType = typeof incidentTypes.$inferInsert;
export type IncidentTypeChecklistItem = typeof incidentTypeChecklistItems.$inferSelect;
