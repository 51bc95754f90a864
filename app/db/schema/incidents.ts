import { sql } from "drizzle-orm";
import { type AnyPgColumn, boolean, check, doublePrecision, index, integer, jsonb, pgTable, primaryKey, smallint, text, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { INCIDENT_EVENT_TYPE_VALUES, INCIDENT_STATUS_VALUES, type IncidentEventType, type IncidentPriority, IncidentStatus, PRIORITY_VALUES } from "../enums";
import { archivedAt, createdAt, entityId, id, inValues, notArchived, tags, timestamptz, updatedAt } from "./columns";
import { equipmentItems } from "./equipment";
import { rooms } from "./facilities";
import { storedFiles } from "./files";
import { incidentTypes } from "./incident-types";
import { CLOCK_KIND_VALUES } from "./service-levels";
import { users } from "./users";

/**
 * Incidents. Sized for 1,000,000 rows per entity: every list index leads with
 * entity_id and is partial on `archived_at is null` (lists always filter it).
 * `priority` null means "Not Selected". `done_at` is set when the status
 * becomes DONE (average handling time = done_at - created_at).
 * `archived_at` hides the row from lists (cascading archive of a facility,
 * building, room); `status = ARCHIVED` is the workflow state of the spec.
 */
export const incidents = pgTable(
  "incidents",
  {
    id: id(),
    entityId: entityId(),
    /** Per-entity number from entity_counters (kind 'incident'). */
    shortId: integer("short_id").notNull(),
    title: text("title").notNull(),
    description: text("description"),
    roomId: integer("room_id").references((): AnyPgColumn => rooms.id),
    equipmentItemId: integer("equipment_item_id").references((): AnyPgColumn => equipmentItems.id),
    /** Free-text location given by the reporter (or copied from the room). */
    location: text("location"),
    floor: text("floor"),
    occurrences: integer("occurrences").notNull().default(1),
    lastOccurrenceAt: timestamptz("last_occurrence_at").defaultNow().notNull(),
    priority: smallint("priority").$type<IncidentPriority>(),
    status: smallint("status").$type<IncidentStatus>().notNull().default(IncidentStatus.PENDING),
    assigneeId: integer("assignee_id").references((): AnyPgColumn => users.id),
    incidentTypeId: integer("incident_type_id").references((): AnyPgColumn => incidentTypes.id),
    tags: tags(),
    /** Set when the incident is marked as a duplicate of another one. */
    duplicateOfId: integer("duplicate_of_id").references((): AnyPgColumn => incidents.id),
    /**
     * The incident's equipment was out of service because of it (issue 62, decision 066): its downtime
     * runs from the report to Done, unless `downtime_minutes` says how long by hand.
     */
    equipmentDown: boolean("equipment_down").notNull().default(false),
    /** The downtime set by hand, in minutes (null: from the report to Done when `equipment_down`). */
    downtimeMinutes: integer("downtime_minutes"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    doneAt: timestamptz("done_at"),
    archivedAt: archivedAt(),
    // Service-level clocks (issue 62, decision 064), written by modules/service-levels/clocks.server.ts
    // in the incident verbs' transactions. Per target (response, resolution): the minutes and clock fixed
    // when reported (re-fixed on a priority or type change; null: no target), the due instant while the
    // clock runs (null: stopped, met or no target), the clock minutes counted before the current run (all
    // of them once stopped), when it was met and whether in time, and when to warn before the breach.
    responseTargetMinutes: integer("response_target_minutes"),
    responseClock: text("response_clock").$type<(typeof CLOCK_KIND_VALUES)[number]>(),
    responseDueAt: timestamptz("response_due_at"),
    responseElapsedMinutes: doublePrecision("response_elapsed_minutes"),
    respondedAt: timestamptz("responded_at"),
    responseMet: boolean("response_met"),
    responseWarnAt: timestamptz("response_warn_at"),
    resolutionTargetMinutes: integer("resolution_target_minutes"),
    resolutionClock: text("resolution_clock").$type<(typeof CLOCK_KIND_VALUES)[number]>(),
    resolutionDueAt: timestamptz("resolution_due_at"),
    resolutionElapsedMinutes: doublePrecision("resolution_elapsed_minutes"),
    resolvedAt: timestamptz("resolved_at"),
    resolutionMet: boolean("resolution_met"),
    resolutionWarnAt: timestamptz("resolution_warn_at"),
    /** The earlier running due instant of the two (null: no clock runs): the table's sort and filters. */
    nextDueAt: timestamptz("next_due_at"),
    /**
     * The next instant the breach pass looks at this incident: the earliest warning or due instant of its
     * running clocks not yet passed by the pass (null: nothing to alert). The pass moves it on.
     */
    nextWarnAt: timestamptz("next_warn_at"),
  },
  (t) => [
    uniqueIndex("incidents_entity_short_id_key").on(t.entityId, t.shortId),
    // The sorts of the incidents table and the board, each (entity, sort keys..., id) carrying the columns
    // the filters and the reach test, are written by hand in migration 0032 (drizzle declares no INCLUDE):
    // incidents_list_created_idx (also the dashboard's period reads), incidents_list_status_idx,
    // incidents_list_title_idx, incidents_list_priority_idx (coalesce(priority, -1)),
    // incidents_list_occurrences_idx, incidents_list_short_id_idx; and incidents_list_room_idx for the building and
    // facility filters. Migration 0034 adds incidents_list_type_title_idx for the type filter.
    index("incidents_entity_assignee_status_idx")
      .on(t.entityId, t.assigneeId, t.status)
      .where(notArchived(t.archivedAt)),
    // Also "incidents_entity_assignee_id_idx" (entity, assignee, id) INCLUDE (status), for the sort by
    // assignee: written by hand in migration 0012 (with rooms_building_reach_idx), as drizzle declares no INCLUDE.
    // Also "incidents_entity_status_priority_idx" (entity, status, coalesce(priority, -1), id) INCLUDE
    // (room_id, assignee_id), for a technician's or manager's list filtered by status and priority: by hand
    // in migration 0013.
    index("incidents_entity_incident_type_idx").on(t.entityId, t.incidentTypeId).where(notArchived(t.archivedAt)),
    index("incidents_entity_done_idx")
      .on(t.entityId, t.doneAt)
      .where(sql`${t.doneAt} is not null`),
    index("incidents_room_idx").on(t.roomId),
    // Active incidents per room (the counts of the facility, building and room lists).
    index("incidents_open_room_idx")
      .on(t.entityId, t.roomId)
      .where(sql`${t.status} in (0, 1) and ${t.archivedAt} is null`),
    // Open incidents per incident type (the incident types list, and archiving a type).
    index("incidents_open_type_idx")
      .on(t.entityId, t.incidentTypeId)
      .where(sql`${t.status} in (0, 1) and ${t.archivedAt} is null`),
    index("incidents_equipment_item_idx").on(t.equipmentItemId),
    // Sort and filter by due time ("breaching within", "breached") within the entity.
    // The dashboard's service levels: the period's incidents that have a target (none for an entity that
    // never set one, so its dashboard reads nothing more).
    index("incidents_entity_created_targets_idx")
      .on(t.entityId, t.createdAt)
      .where(sql`${t.archivedAt} is null and (${t.responseTargetMinutes} is not null or ${t.resolutionTargetMinutes} is not null)`),
    index("incidents_entity_next_due_idx")
      .on(t.entityId, t.nextDueAt, t.id)
      .where(sql`${t.nextDueAt} is not null and ${t.archivedAt} is null`),
    // The breach schedule: incidents whose warning time has come, across entities.
    index("incidents_next_warn_idx")
      .on(t.nextWarnAt)
      .where(sql`${t.nextWarnAt} is not null`),
    check("incidents_response_clock_check", sql`${t.responseClock} is null or ${t.responseClock} in (${sql.raw(CLOCK_KIND_VALUES.map((k) => `'${k}'`).join(", "))})`),
    check("incidents_resolution_clock_check", sql`${t.resolutionClock} is null or ${t.resolutionClock} in (${sql.raw(CLOCK_KIND_VALUES.map((k) => `'${k}'`).join(", "))})`),
    index("incidents_duplicate_of_idx")
      .on(t.duplicateOfId)
      .where(sql`${t.duplicateOfId} is not null`),
    index("incidents_tags_idx").using("gin", t.tags),
    // The text search (ILIKE on title or description), with pg_trgm (migration 0023).
    index("incidents_title_trgm_idx").using("gin", sql`${t.title} gin_trgm_ops`),
    index("incidents_description_trgm_idx").using("gin", sql`${t.description} gin_trgm_ops`),
    check("incidents_status_check", inValues(t.status, INCIDENT_STATUS_VALUES)),
    check("incidents_downtime_minutes_check", sql`${t.downtimeMinutes} is null or ${t.downtimeMinutes} between 0 and 527040`),
    check("incidents_priority_check", sql`${t.priority} is null or ${inValues(t.priority, PRIORITY_VALUES)}`),
    check("incidents_occurrences_check", sql`${t.occurrences} >= 1`),
    check("incidents_duplicate_of_check", sql`${t.duplicateOfId} <> ${t.id}`),
  ]
);

/** Emails of the occupiers who reported (or re-reported) the incident. */
export const incidentReporters = pgTable(
  "incident_reporters",
  {
    id: id(),
    entityId: entityId(),
    incidentId: integer("incident_id")
      .notNull()
      .references((): AnyPgColumn => incidents.id, { onDelete: "cascade" }),
    email: text("email").notNull(),
    /** The reporter's language (en, fr-BE, nl-BE): their emails are written in it. */
    locale: text("locale").notNull().default("en"),
    /**
     * SHA-256 (hex) of the token of the reporter's status page link (/report/status/{token}); the token
     * itself is only ever in the email. Null for reporters added by staff or recorded before migration 0009.
     */
    statusTokenHash: text("status_token_hash"),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("incident_reporters_incident_email_key").on(t.incidentId, sql`lower(${t.email})`),
    uniqueIndex("incident_reporters_status_token_key").on(t.statusTokenHash).where(sql`${t.statusTokenHash} is not null`),
    index("incident_reporters_entity_idx").on(t.entityId),
  ]
);

/** Images and files attached to the incident itself. */
export const incidentFiles = pgTable(
  "incident_files",
  {
    entityId: entityId(),
    incidentId: integer("incident_id")
      .notNull()
      .references((): AnyPgColumn => incidents.id, { onDelete: "cascade" }),
    fileId: uuid("file_id")
      .notNull()
      .references((): AnyPgColumn => storedFiles.id, { onDelete: "cascade" }),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ name: "incident_files_pkey", columns: [t.incidentId, t.fileId] }),
    index("incident_files_entity_idx").on(t.entityId),
    index("incident_files_file_idx").on(t.fileId),
  ]
);

/** Comments on an incident. Editing sets edited_at/edited_by_id; removing sets deleted_at. */
export const incidentComments = pgTable(
  "incident_comments",
  {
    id: id(),
    entityId: entityId(),
    incidentId: integer("incident_id")
      .notNull()
      .references((): AnyPgColumn => incidents.id, { onDelete: "cascade" }),
    authorId: integer("author_id")
      .notNull()
      .references((): AnyPgColumn => users.id),
    body: text("body").notNull(),
    createdAt: createdAt(),
    editedAt: timestamptz("edited_at"),
    editedById: integer("edited_by_id").references((): AnyPgColumn => users.id),
    deletedAt: timestamptz("deleted_at"),
  },
  (t) => [
    index("incident_comments_entity_idx").on(t.entityId),
    index("incident_comments_incident_idx").on(t.incidentId, t.createdAt),
  ]
);

/** Attachments of a comment. */
export const incidentCommentFiles = pgTable(
  "incident_comment_files",
  {
    entityId: entityId(),
    commentId: integer("comment_id")
      .notNull()
      .references((): AnyPgColumn => incidentComments.id, { onDelete: "cascade" }),
    fileId: uuid("file_id")
      .notNull()
      .references((): AnyPgColumn => storedFiles.id, { onDelete: "cascade" }),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ name: "incident_comment_files_pkey", columns: [t.commentId, t.fileId] }),
    index("incident_comment_files_entity_idx").on(t.entityId),
    index("incident_comment_files_file_idx").on(t.fileId),
  ]
);

/**
 * Incident history (events tab). old_value/new_value hold the changed value:
 * status/priority numbers, `{ id, name }` of an assignee, a tag, a title, the
 * id of the incident duplicated into, ... `actor_id` null: the system or an occupier.
 */
export const incidentEvents = pgTable(
  "incident_events",
  {
    id: id(),
    entityId: entityId(),
    incidentId: integer("incident_id")
      .notNull()
      .references((): AnyPgColumn => incidents.id, { onDelete: "cascade" }),
    type: smallint("type").$type<IncidentEventType>().notNull(),
    actorId: integer("actor_id").references((): AnyPgColumn => users.id),
    oldValue: jsonb("old_value"),
    newValue: jsonb("new_value"),
    createdAt: createdAt(),
  },
  (t) => [
    index("incident_events_entity_created_idx").on(t.entityId, t.createdAt),
    index("incident_events_incident_created_idx").on(t.incidentId, t.createdAt),
    check("incident_events_type_check", inValues(t.type, INCIDENT_EVENT_TYPE_VALUES)),
  ]
);

/**
 * The answers an occupier gave to the incident type's checklist when reporting. The
 * question, its content type and position are copied, so later edits of the type do not change what
 * was answered. `answer`: "yes"/"no", a text, a number as text; a photo is `file_id`.
 */
export const incidentChecklistAnswers = pgTable(
  "incident_checklist_answers",
  {
    id: id(),
    entityId: entityId(),
    incidentId: integer("incident_id")
      .notNull()
      .references((): AnyPgColumn => incidents.id, { onDelete: "cascade" }),
    position: integer("position").notNull(),
    question: text("question").notNull(),
    contentType: smallint("content_type").notNull().default(0),
    answer: text("answer"),
    fileId: uuid("file_id").references((): AnyPgColumn => storedFiles.id, { onDelete: "set null" }),
    createdAt: createdAt(),
  },
  (t) => [
    index("incident_checklist_answers_entity_idx").on(t.entityId),
    index("incident_checklist_answers_incident_idx").on(t.incidentId, t.position),
  ]
);

/**
 * How many incidents of an entity are in each status (not archived), kept by a trigger on
 * `incidents` (migration 0008; decision 025): the totals of the incidents table and the kanban
 * columns without counting a million rows per view.
 */
export const incidentStatusCounts = pgTable(
  "incident_status_counts",
  {
    entityId: entityId(),
    status: smallint("status").notNull(),
    count: integer("count").notNull().default(0),
  },
  (t) => [primaryKey({ name: "incident_status_counts_pkey", columns: [t.entityId, t.status] })]
);

export type Incident = typeof incidents.$inferSelect;
export type NewIncident = typeof incidents.$inferInsert;
export type IncidentReporter = typeof incidentReporters.$inferSelect;
export type IncidentComment = typeof incidentComments.$inferSelect;
export type NewIncidentComment = typeof incidentComments.$inferInsert;
export type IncidentEvent = typeof incidentEvents.$inferSelect;
export type NewIncidentEvent = typeof incidentEvents.$inferInsert;
