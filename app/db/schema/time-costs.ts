import { sql } from "drizzle-orm";
import { type AnyPgColumn, check, date, index, integer, numeric, pgTable, text } from "drizzle-orm/pg-core";
import { createdAt, entityId, id, timestamptz, updatedAt } from "./columns";
import { incidents } from "./incidents";
import { tasks } from "./maintenance";
import { users } from "./users";

/**
 * Time and costs (issue 62): the time people spent on an incident or a maintenance task, and the
 * material used. Each row belongs to exactly one incident or one task (`num_nonnulls(...) = 1`), so
 * one pair of tables serves both; the reads of a record go through the partial per-record indexes.
 * Amounts are `numeric` (exact): quantities with up to 3 decimals, unit costs in the entity's
 * currency with 2.
 */

/** The record a row belongs to: an incident or a maintenance task (exactly one, see the check). */
const workRecord = () => ({
  incidentId: integer("incident_id").references((): AnyPgColumn => incidents.id, { onDelete: "cascade" }),
  taskId: integer("task_id").references((): AnyPgColumn => tasks.id, { onDelete: "cascade" }),
});

/** Who wrote the row, and when it was written and last changed. */
const writtenBy = () => ({
  createdById: integer("created_by_id").references((): AnyPgColumn => users.id),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

/**
 * The entity's index, the partial per-record indexes (a record's rows in `order`), and the check that a
 * row belongs to exactly one record, named after `table`.
 */
function workRecordIndexes(table: string, t: { entityId: AnyPgColumn; incidentId: AnyPgColumn; taskId: AnyPgColumn }, order: AnyPgColumn) {
  return [
    index(`${table}_entity_idx`).on(t.entityId),
    index(`${table}_incident_idx`)
      .on(t.incidentId, order)
      .where(sql`${t.incidentId} is not null`),
    index(`${table}_task_idx`)
      .on(t.taskId, order)
      .where(sql`${t.taskId} is not null`),
    check(`${table}_one_record_check`, sql`num_nonnulls(${t.incidentId}, ${t.taskId}) = 1`),
  ];
}

export const timeEntries = pgTable(
  "time_entries",
  {
    id: id(),
    entityId: entityId(),
    ...workRecord(),
    /** Who worked. */
    userId: integer("user_id")
      .notNull()
      .references((): AnyPgColumn => users.id),
    /** The day the work was done, in the entity's time zone. */
    workedOn: date("worked_on", { mode: "string" }).notNull(),
    /** When the work started, for entries made by starting and stopping a clock; null for a duration typed in. */
    startedAt: timestamptz("started_at"),
    minutes: integer("minutes").notNull(),
    /**
     * The worker's hourly rate when the entry was recorded (theirs, else the entity's default; null: none),
     * so a later change of rates does not rewrite past costs. Kept on corrections unless the person changes.
     */
    hourlyRate: numeric("hourly_rate", { precision: 10, scale: 2 }),
    note: text("note"),
    // Written by the worker, or by a manager for them.
    ...writtenBy(),
  },
  (t) => [
    ...workRecordIndexes("time_entries", t, t.workedOn),
    // A person's time over a period (their timesheet, the costs per person).
    index("time_entries_entity_user_day_idx").on(t.entityId, t.userId, t.workedOn),
    // The entity's time over a period (the dashboard's time and costs).
    index("time_entries_entity_day_idx").on(t.entityId, t.workedOn),
    // At most a day per entry.
    check("time_entries_minutes_check", sql`${t.minutes} between 1 and 1440`),
    check("time_entries_hourly_rate_check", sql`${t.hourlyRate} >= 0`),
  ]
);

export const materialLines = pgTable(
  "material_lines",
  {
    id: id(),
    entityId: entityId(),
    ...workRecord(),
    description: text("description").notNull(),
    quantity: numeric("quantity", { precision: 12, scale: 3 }).notNull(),
    unitCost: numeric("unit_cost", { precision: 12, scale: 2 }).notNull(),
    ...writtenBy(),
  },
  (t) => [
    ...workRecordIndexes("material_lines", t, t.id),
    // The entity's material over a period (the dashboard's time and costs).
    index("material_lines_entity_created_idx").on(t.entityId, t.createdAt),
    check("material_lines_quantity_check", sql`${t.quantity} > 0`),
    check("material_lines_unit_cost_check", sql`${t.unitCost} >= 0`),
  ]
);

/**
 * A running clock (start and stop, issue 62): a person started timing their work on an incident or a
 * task; stopping it records a time entry from `started_at` and deletes the row. The person is the key:
 * at most one running clock per person.
 */
export const timeClocks = pgTable(
  "time_clocks",
  {
    userId: integer("user_id")
      .primaryKey()
      .references((): AnyPgColumn => users.id, { onDelete: "cascade" }),
    entityId: entityId(),
    ...workRecord(),
    startedAt: timestamptz("started_at").notNull(),
  },
  (t) => [
    index("time_clocks_entity_idx").on(t.entityId),
    index("time_clocks_incident_idx")
      .on(t.incidentId)
      .where(sql`${t.incidentId} is not null`),
    index("time_clocks_task_idx")
      .on(t.taskId)
      .where(sql`${t.taskId} is not null`),
    check("time_clocks_one_record_check", sql`num_nonnulls(${t.incidentId}, ${t.taskId}) = 1`),
  ]
);

export type TimeEntry = typeof timeEntries.$inferSelect;
export type MaterialLine = typeof materialLines.$inferSelect;
export type TimeClock = typeof timeClocks.$inferSelect;
