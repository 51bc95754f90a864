import { sql } from "drizzle-orm";
import { type AnyPgColumn, check, foreignKey, date, index, integer, pgTable, primaryKey, smallint, text, time, unique, uuid, boolean, numeric } from "drizzle-orm/pg-core";
import { OBJECT_TYPE_VALUES, ObjectType, TASK_STATUS_VALUES, TaskStatus, TIME_MEASURE_VALUES, TimeMeasure, INSPECTION_CHECK_KIND_VALUES, type InspectionCheckKind, PRIORITY_VALUES, type Priority } from "../enums";
import { archivedAt, createdAt, entityId, id, inValues, notArchived, tags, timestamptz, updatedAt } from "./columns";
import { equipmentItems } from "./equipment";
import { buildings, facilities, rooms } from "./facilities";
import { storedFiles } from "./files";
import { incidents } from "./incidents";
import { incidentTypes } from "./incident-types";
import { users } from "./users";

// Dates are `date` columns read as 'YYYY-MM-DD' strings (no time-zone shifts);
// times are `time` columns read as 'HH:MM:SS' strings.

/** Template for planned maintenance: name, tags, occurrence and default assignees/locations. */
export const maintenanceTypes = pgTable(
  "maintenance_types",
  {
    id: id(),
    entityId: entityId(),
    name: text("name").notNull(),
    tags: tags(),
    /** Every `occurrence_interval` `occurrence_unit`s (e.g. 2 WEEK). */
    occurrenceInterval: integer("occurrence_interval"),
    occurrenceUnit: smallint("occurrence_unit").$type<TimeMeasure>().notNull().default(TimeMeasure.UNSPECIFIED),
    /** What to do; the default instructions of the plans of this type. */
    instructions: text("instructions").notNull().default(""),
    /** How long one maintenance of this type takes, in minutes (optional). */
    estimatedDuration: integer("estimated_duration"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    archivedAt: archivedAt(),
  },
  (t) => [
    index("maintenance_types_entity_name_idx").on(t.entityId, t.name).where(notArchived(t.archivedAt)),
    check("maintenance_types_estimated_duration_check", sql`${t.estimatedDuration} is null or ${t.estimatedDuration} > 0`),
    check(
      "maintenance_types_occurrence_interval_check",
      sql`${t.occurrenceInterval} is null or ${t.occurrenceInterval} > 0`
    ),
    check("maintenance_types_occurrence_unit_check", inValues(t.occurrenceUnit, TIME_MEASURE_VALUES)),
  ]
);

export const maintenanceTypeAssignees = pgTable(
  "maintenance_type_assignees",
  {
    entityId: entityId(),
    maintenanceTypeId: integer("maintenance_type_id").notNull(),
    userId: integer("user_id")
      .notNull()
      .references((): AnyPgColumn => users.id, { onDelete: "cascade" }),
  },
  (t) => [
    foreignKey({
      name: "maintenance_type_assignees_maintenance_type_id_fk",
      columns: [t.maintenanceTypeId],
      foreignColumns: [maintenanceTypes.id],
    }).onDelete("cascade"),
    primaryKey({ name: "maintenance_type_assignees_pkey", columns: [t.maintenanceTypeId, t.userId] }),
    index("maintenance_type_assignees_entity_idx").on(t.entityId),
    index("maintenance_type_assignees_user_idx").on(t.userId),
  ]
);

export const maintenanceTypeRooms = pgTable(
  "maintenance_type_rooms",
  {
    entityId: entityId(),
    maintenanceTypeId: integer("maintenance_type_id").notNull(),
    roomId: integer("room_id")
      .notNull()
      .references((): AnyPgColumn => rooms.id, { onDelete: "cascade" }),
  },
  (t) => [
    foreignKey({
      name: "maintenance_type_rooms_maintenance_type_id_fk",
      columns: [t.maintenanceTypeId],
      foreignColumns: [maintenanceTypes.id],
    }).onDelete("cascade"),
    primaryKey({ name: "maintenance_type_rooms_pkey", columns: [t.maintenanceTypeId, t.roomId] }),
    index("maintenance_type_rooms_entity_idx").on(t.entityId),
    index("maintenance_type_rooms_room_idx").on(t.roomId),
  ]
);

export const maintenanceTypeEquipmentItems = pgTable(
  "maintenance_type_equipment_items",
  {
    entityId: entityId(),
    maintenanceTypeId: integer("maintenance_type_id").notNull(),
    equipmentItemId: integer("equipment_item_id").notNull(),
  },
  (t) => [
    foreignKey({
      name: "maintenance_type_equipment_items_equipment_item_id_fk",
      columns: [t.equipmentItemId],
      foreignColumns: [equipmentItems.id],
    }).onDelete("cascade"),
    foreignKey({
      name: "maintenance_type_equipment_items_maintenance_type_id_fk",
      columns: [t.maintenanceTypeId],
      foreignColumns: [maintenanceTypes.id],
    }).onDelete("cascade"),
    primaryKey({
      name: "maintenance_type_equipment_items_pkey",
      columns: [t.maintenanceTypeId, t.equipmentItemId],
    }),
    index("maintenance_type_equipment_items_entity_idx").on(t.entityId),
    index("maintenance_type_equipment_items_item_idx").on(t.equipmentItemId),
  ]
);

/** A recurring maintenance plan; it generates `tasks` between start_date and end_date. */
export const plannedMaintenances = pgTable(
  "planned_maintenances",
  {
    id: id(),
    entityId: entityId(),
    name: text("name").notNull(),
    maintenanceTypeId: integer("maintenance_type_id").notNull(),
    startDate: date("start_date", { mode: "string" }).notNull(),
    endDate: date("end_date", { mode: "string" }).notNull(),
    occurrenceInterval: integer("occurrence_interval"),
    occurrenceUnit: smallint("occurrence_unit").$type<TimeMeasure>().notNull().default(TimeMeasure.UNSPECIFIED),
    /** Local time of day of the tasks in the entity's time zone ('HH:MM:SS'); null = any time that day. */
    timeOfDay: time("time_of_day"),
    instructions: text("instructions").notNull().default(""),
    /** The last due date up to which the plan's tasks exist (the generation's rolling horizon). */
    generatedUntil: date("generated_until", { mode: "string" }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    archivedAt: archivedAt(),
  },
  (t) => [
    foreignKey({
      name: "planned_maintenances_maintenance_type_id_fk",
      columns: [t.maintenanceTypeId],
      foreignColumns: [maintenanceTypes.id],
    }),
    // What a task's composite foreign key references (its plan within its entity).
    unique("planned_maintenances_id_entity_key").on(t.id, t.entityId),
    index("planned_maintenances_entity_start_idx").on(t.entityId, t.startDate).where(notArchived(t.archivedAt)),
    index("planned_maintenances_maintenance_type_idx").on(t.maintenanceTypeId),
    check("planned_maintenances_dates_check", sql`${t.endDate} >= ${t.startDate}`),
    check(
      "planned_maintenances_occurrence_interval_check",
      sql`${t.occurrenceInterval} is null or ${t.occurrenceInterval} > 0`
    ),
    check("planned_maintenances_occurrence_unit_check", inValues(t.occurrenceUnit, TIME_MEASURE_VALUES)),
  ]
);

export const plannedMaintenanceAssignees = pgTable(
  "planned_maintenance_assignees",
  {
    entityId: entityId(),
    plannedMaintenanceId: integer("planned_maintenance_id").notNull(),
    userId: integer("user_id")
      .notNull()
      .references((): AnyPgColumn => users.id, { onDelete: "cascade" }),
  },
  (t) => [
    foreignKey({
      name: "planned_maintenance_assignees_planned_maintenance_id_fk",
      columns: [t.plannedMaintenanceId],
      foreignColumns: [plannedMaintenances.id],
    }).onDelete("cascade"),
    primaryKey({
      name: "planned_maintenance_assignees_pkey",
      columns: [t.plannedMaintenanceId, t.userId],
    }),
    index("planned_maintenance_assignees_entity_idx").on(t.entityId),
    index("planned_maintenance_assignees_user_idx").on(t.userId),
  ]
);

export const plannedMaintenanceRooms = pgTable(
  "planned_maintenance_rooms",
  {
    entityId: entityId(),
    plannedMaintenanceId: integer("planned_maintenance_id").notNull(),
    roomId: integer("room_id")
      .notNull()
      .references((): AnyPgColumn => rooms.id, { onDelete: "cascade" }),
  },
  (t) => [
    foreignKey({
      name: "planned_maintenance_rooms_planned_maintenance_id_fk",
      columns: [t.plannedMaintenanceId],
      foreignColumns: [plannedMaintenances.id],
    }).onDelete("cascade"),
    primaryKey({
      name: "planned_maintenance_rooms_pkey",
      columns: [t.plannedMaintenanceId, t.roomId],
    }),
    index("planned_maintenance_rooms_entity_idx").on(t.entityId),
    index("planned_maintenance_rooms_room_idx").on(t.roomId),
  ]
);

export const plannedMaintenanceEquipmentItems = pgTable(
  "planned_maintenance_equipment_items",
  {
    entityId: entityId(),
    plannedMaintenanceId: integer("planned_maintenance_id").notNull(),
    equipmentItemId: integer("equipment_item_id").notNull(),
  },
  (t) => [
    foreignKey({
      name: "planned_maintenance_equipment_items_equipment_item_id_fk",
      columns: [t.equipmentItemId],
      foreignColumns: [equipmentItems.id],
    }).onDelete("cascade"),
    foreignKey({
      name: "planned_maintenance_equipment_items_planned_maintenance_id_fk",
      columns: [t.plannedMaintenanceId],
      foreignColumns: [plannedMaintenances.id],
    }).onDelete("cascade"),
    primaryKey({
      name: "planned_maintenance_equipment_items_pkey",
      columns: [t.plannedMaintenanceId, t.equipmentItemId],
    }),
    index("planned_maintenance_equipment_items_entity_idx").on(t.entityId),
    index("planned_maintenance_equipment_items_item_idx").on(t.equipmentItemId),
  ]
);

/**
 * The location-tree selection of a planned maintenance: whole entity, or
 * facilities / buildings / rooms. The id column matching `object_type` is set,
 * the others are null (CHECK).
 */
export const plannedMaintenanceLocations = pgTable(
  "planned_maintenance_locations",
  {
    id: id(),
    entityId: entityId(),
    plannedMaintenanceId: integer("planned_maintenance_id").notNull(),
    objectType: smallint("object_type").$type<ObjectType>().notNull(),
    facilityId: integer("facility_id").references((): AnyPgColumn => facilities.id, {
      onDelete: "cascade",
    }),
    buildingId: integer("building_id").references((): AnyPgColumn => buildings.id, {
      onDelete: "cascade",
    }),
    roomId: integer("room_id").references((): AnyPgColumn => rooms.id, { onDelete: "cascade" }),
  },
  (t) => [
    foreignKey({
      name: "planned_maintenance_locations_planned_maintenance_id_fk",
      columns: [t.plannedMaintenanceId],
      foreignColumns: [plannedMaintenances.id],
    }).onDelete("cascade"),
    unique("planned_maintenance_locations_object_key")
      .on(t.plannedMaintenanceId, t.objectType, t.facilityId, t.buildingId, t.roomId)
      .nullsNotDistinct(),
    index("planned_maintenance_locations_entity_idx").on(t.entityId),
    index("planned_maintenance_locations_facility_idx").on(t.facilityId),
    index("planned_maintenance_locations_building_idx").on(t.buildingId),
    index("planned_maintenance_locations_room_idx").on(t.roomId),
    check("planned_maintenance_locations_object_type_check", inValues(t.objectType, OBJECT_TYPE_VALUES)),
    check(
      "planned_maintenance_locations_target_check",
      sql`case ${t.objectType}
        when ${sql.raw(String(ObjectType.ENTITY))} then num_nonnulls(${t.facilityId}, ${t.buildingId}, ${t.roomId}) = 0
        when ${sql.raw(String(ObjectType.FACILITY))} then ${t.facilityId} is not null and num_nonnulls(${
        t.buildingId
      }, ${t.roomId}) = 0
        when ${sql.raw(String(ObjectType.BUILDING))} then ${t.buildingId} is not null and num_nonnulls(${
        t.facilityId
      }, ${t.roomId}) = 0
        when ${sql.raw(String(ObjectType.ROOM))} then ${t.roomId} is not null and num_nonnulls(${t.facilityId}, ${
        t.buildingId
      }) = 0
        else false end`
    ),
  ]
);

/**
 * A maintenance task generated from a planned maintenance: one per room (or
 * equipment item in the room) and due date. The unique constraint uses
 * NULLS NOT DISTINCT so a room-level task (equipment_item_id null) is unique
 * too; generation can use `on conflict do nothing`.
 */
export const tasks = pgTable(
  "tasks",
  {
    id: id(),
    /** Checked with the plan (tasks_planned_maintenance_entity_fk): the plan's entity is an entity. */
    entityId: integer("entity_id").notNull(),
    plannedMaintenanceId: integer("planned_maintenance_id").notNull(),
    roomId: integer("room_id")
      .notNull()
      .references((): AnyPgColumn => rooms.id),
    equipmentItemId: integer("equipment_item_id").references((): AnyPgColumn => equipmentItems.id),
    dueDate: date("due_date", { mode: "string" }).notNull(),
    dueTime: time("due_time"),
    status: smallint("status").$type<TaskStatus>().notNull().default(TaskStatus.PENDING),
    assigneeId: integer("assignee_id").references((): AnyPgColumn => users.id),
    doneAt: timestamptz("done_at"),
    doneById: integer("done_by_id").references((): AnyPgColumn => users.id),
    /** What the person who did it noted, and their photo. */
    note: text("note"),
    photoFileId: uuid("photo_file_id"),
    /**
     * The sign-off of an inspection (a task whose type has checks, done with them answered): who signed,
     * their name as it was then (the printed report keeps it), and when. Null for other tasks and when pending.
     */
    signedOffById: integer("signed_off_by_id").references((): AnyPgColumn => users.id, { onDelete: "set null" }),
    signedOffName: text("signed_off_name"),
    signedOffAt: timestamptz("signed_off_at"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    // Named as PostgreSQL named it when migration 0018 added the column.
    foreignKey({ name: "tasks_photo_file_id_fkey", columns: [t.photoFileId], foreignColumns: [storedFiles.id] }).onDelete(
      "set null"
    ),
    // One foreign key for the plan and the entity: a task's plan is of its entity (migration 0031).
    foreignKey({
      name: "tasks_planned_maintenance_entity_fk",
      columns: [t.plannedMaintenanceId, t.entityId],
      foreignColumns: [plannedMaintenances.id, plannedMaintenances.entityId],
    }).onDelete("cascade"),
    // Also a plan's tasks by room and by day (the day tested on the index entries).
    unique("tasks_occurrence_key")
      .on(t.plannedMaintenanceId, t.roomId, t.equipmentItemId, t.dueDate)
      .nullsNotDistinct(),
    // The calendar's days, (entity, due day, time nulls first, plan) carrying room, status, assignee and
    // id, is written by hand in migration 0033 (drizzle declares no INCLUDE): tasks_entity_day_plan_idx.
    // The task list's default: pending tasks in due order (migration 0024).
    index("tasks_entity_pending_due_idx").on(t.entityId, t.dueDate, t.dueTime).where(sql`${t.status} = 0`),
    // Only tasks that name an assignee of their own (generated ones do not).
    index("tasks_entity_assignee_status_idx").on(t.entityId, t.assigneeId, t.status).where(sql`${t.assigneeId} is not null`),
    index("tasks_room_due_idx").on(t.roomId, t.dueDate),
    index("tasks_equipment_item_idx")
      .on(t.equipmentItemId)
      .where(sql`${t.equipmentItemId} is not null`),
    check("tasks_status_check", inValues(t.status, TASK_STATUS_VALUES)),
  ]
);

/**
 * The inspection checklist of a maintenance type (issue 63), in `position` order. The label in English,
 * French and Dutch: at least one of the three (like an incident type's questions). A number check may
 * bound its allowed range (`min_value`, `max_value`, both included). A failed pass/fail check or a
 * number outside its range opens an incident of `incident_type_id` (none: the incident has no type) at
 * `priority` on the task's room or equipment item.
 */
export const maintenanceTypeChecks = pgTable(
  "maintenance_type_checks",
  {
    id: id(),
    entityId: entityId(),
    maintenanceTypeId: integer("maintenance_type_id").notNull(),
    position: smallint("position").notNull().default(0),
    kind: smallint("kind").$type<InspectionCheckKind>().notNull(),
    label: text("label"),
    labelFr: text("label_fr"),
    labelNl: text("label_nl"),
    minValue: numeric("min_value", { mode: "number" }),
    maxValue: numeric("max_value", { mode: "number" }),
    photoRequired: boolean("photo_required").notNull().default(false),
    incidentTypeId: integer("incident_type_id").references((): AnyPgColumn => incidentTypes.id, { onDelete: "set null" }),
    priority: smallint("priority").$type<Priority>().notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    foreignKey({
      name: "maintenance_type_checks_maintenance_type_id_fk",
      columns: [t.maintenanceTypeId],
      foreignColumns: [maintenanceTypes.id],
    }).onDelete("cascade"),
    index("maintenance_type_checks_entity_idx").on(t.entityId),
    index("maintenance_type_checks_type_idx").on(t.maintenanceTypeId, t.position),
    index("maintenance_type_checks_incident_type_idx")
      .on(t.incidentTypeId)
      .where(sql`${t.incidentTypeId} is not null`),
    check("maintenance_type_checks_kind_check", inValues(t.kind, INSPECTION_CHECK_KIND_VALUES)),
    check("maintenance_type_checks_priority_check", inValues(t.priority, PRIORITY_VALUES)),
    check("maintenance_type_checks_label_check", sql`coalesce(${t.label}, ${t.labelFr}, ${t.labelNl}) is not null`),
    check(
      "maintenance_type_checks_range_check",
      sql`${t.minValue} is null or ${t.maxValue} is null or ${t.minValue} <= ${t.maxValue}`
    ),
  ]
);

/**
 * A task's answer to one check of its type's checklist. The label, kind and range are copied, so a later
 * edit of the checklist does not change what was answered (the check itself may be removed: null).
 * `answer`: "pass"/"fail", a number as text, a text; `passed` false for a failed check or a number out
 * of range, null for a text. `incident_id` is the incident the failed check opened (the link both ways).
 * One answer per task and check (unique): doing the same task twice opens no second incident.
 */
export const taskCheckAnswers = pgTable(
  "task_check_answers",
  {
    id: id(),
    entityId: entityId(),
    taskId: integer("task_id")
      .notNull()
      .references((): AnyPgColumn => tasks.id, { onDelete: "cascade" }),
    checkId: integer("check_id").references((): AnyPgColumn => maintenanceTypeChecks.id, { onDelete: "set null" }),
    position: smallint("position").notNull(),
    kind: smallint("kind").$type<InspectionCheckKind>().notNull(),
    label: text("label").notNull(),
    minValue: numeric("min_value", { mode: "number" }),
    maxValue: numeric("max_value", { mode: "number" }),
    answer: text("answer").notNull(),
    passed: boolean("passed"),
    photoFileId: uuid("photo_file_id").references((): AnyPgColumn => storedFiles.id, { onDelete: "set null" }),
    incidentId: integer("incident_id").references((): AnyPgColumn => incidents.id, { onDelete: "set null" }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    unique("task_check_answers_task_check_key").on(t.taskId, t.checkId),
    index("task_check_answers_entity_idx").on(t.entityId),
    index("task_check_answers_task_idx").on(t.taskId, t.position),
    index("task_check_answers_incident_idx")
      .on(t.incidentId)
      .where(sql`${t.incidentId} is not null`),
    check("task_check_answers_kind_check", inValues(t.kind, INSPECTION_CHECK_KIND_VALUES)),
  ]
);

export type MaintenanceType = typeof maintenanceTypes.$inferSelect;
export type NewMaintenanceType = typeof maintenanceTypes.$inferInsert;
export type PlannedMaintenance = typeof plannedMaintenances.$inferSelect;
export type NewPlannedMaintenance = typeof plannedMaintenances.$inferInsert;
export type PlannedMaintenanceLocation = typeof plannedMaintenanceLocations.$inferSelect;
export type Task = typeof tasks.$inferSelect;
export type NewTask = typeof tasks.$inferInsert;
export type MaintenanceTypeCheck = typeof maintenanceTypeChecks.$inferSelect;
export type TaskCheckAnswer = typeof taskCheckAnswers.$inferSelect;
