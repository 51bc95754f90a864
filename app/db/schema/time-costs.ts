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
export const timeEntries = pgTable(
  "time_entries",
  {
    id: id(),
    entityId: entityId(),
    incidentId: integer("incident_id").references((): AnyPgColumn => incidents.id, { onDelete: "cascade" }),
    taskId: integer("task_id").references((): AnyPgColumn => tasks.id, { onDelete: "cascade" }),
    /** Who worked. */
    userId: integer("user_id")
      .notNull()
      .references((): AnyPgColumn => users.id),
    /** The day the work was done, in the entity's time zone. */
    workedOn: date("worked_on", { mode: "string" }).notNull(),
    /** When the work started, for entries made by starting and stopping a clock; null for a duration typed in. */
    startedAt: timestamptz("started_at"),
    minutes: integer("minutes").notNull(),
    note: text("note"),
    /** Who wrote the entry (the worker, or a manager for them). */
    createdById: integer("created_by_id").references((): AnyPgColumn => users.id),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index("time_entries_entity_idx").on(t.entityId),
    index("time_entries_incident_idx")
      .on(t.incidentId, t.workedOn)
      .where(sql`${t.incidentId} is not null`),
    index("time_entries_task_idx")
      .on(t.taskId, t.workedOn)
      .where(sql`${t.taskId} is not null`),
    // A person's time over a period (their timesheet, the costs per person).
    index("time_entries_entity_user_day_idx").on(t.entityId, t.userId, t.workedOn),
    check("time_entries_one_record_check", sql`num_nonnulls(${t.incidentId}, ${t.taskId}) = 1`),
    // At most a day per entry.
    check("time_entries_minutes_check", sql`${t.minutes} between 1 and 1440`),
  ]
);

export const materialLines = pgTable(
  "material_lines",
  {
    id: id(),
    entityId: entityId(),
    incidentId: integer("incident_id").references((): AnyPgColumn => incidents.id, { onDelete: "cascade" }),
    taskId: integer("task_id").references((): AnyPgColumn => tasks.id, { onDelete: "cascade" }),
    description: text("description").notNull(),
    quantity: numeric("quantity", { precision: 12, scale: 3 }).notNull(),
    unitCost: numeric("unit_cost", { precision: 12, scale: 2 }).notNull(),
    createdById: integer("created_by_id").references((): AnyPgColumn => users.id),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index("material_lines_entity_idx").on(t.entityId),
    index("material_lines_incident_idx")
      .on(t.incidentId, t.id)
      .where(sql`${t.incidentId} is not null`),
    index("material_lines_task_idx")
      .on(t.taskId, t.id)
      .where(sql`${t.taskId} is not null`),
    check("material_lines_one_record_check", sql`num_nonnulls(${t.incidentId}, ${t.taskId}) = 1`),
    check("material_lines_quantity_check", sql`${t.quantity} > 0`),
    check("material_lines_unit_cost_check", sql`${t.unitCost} >= 0`),
  ]
);

export type TimeEntry = typeof timeEntries.$inferSelect;
export type MaterialLine = typeof materialLines.$inferSelect;
