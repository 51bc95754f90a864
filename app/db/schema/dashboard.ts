import { bigint, date, integer, pgTable, primaryKey, smallint } from "drizzle-orm/pg-core";
import { entityId } from "./columns";

/**
 * The dashboard's monthly counters (migration 0011, decision 030), kept by statement-level
 * triggers on `incidents` in the writing transaction. A row counts the incidents (not archived) created
 * in `month` (the first day of the month in the entity's time zone) by their current incident type,
 * priority and status; `handling_seconds` sums creation to Done of those that are Done.
 * `incident_type_id` 0: no type; `priority` -1: Not Selected.
 */
export const incidentMonthCounts = pgTable(
  "incident_month_counts",
  {
    entityId: entityId(),
    month: date("month", { mode: "string" }).notNull(),
    incidentTypeId: integer("incident_type_id").notNull().default(0),
    priority: smallint("priority").notNull().default(-1),
    status: smallint("status").notNull(),
    count: integer("count").notNull().default(0),
    handlingSeconds: bigint("handling_seconds", { mode: "number" }).notNull().default(0),
  },
  (t) => [primaryKey({ name: "incident_month_counts_pkey", columns: [t.entityId, t.month, t.incidentTypeId, t.priority, t.status] })]
);

/** The same per assignee (`assignee_id` 0: unassigned) and status. */
export const incidentMonthAssigneeCounts = pgTable(
  "incident_month_assignee_counts",
  {
    entityId: entityId(),
    month: date("month", { mode: "string" }).notNull(),
    assigneeId: integer("assignee_id").notNull().default(0),
    status: smallint("status").notNull(),
    count: integer("count").notNull().default(0),
    handlingSeconds: bigint("handling_seconds", { mode: "number" }).notNull().default(0),
  },
  (t) => [primaryKey({ name: "incident_month_assignee_counts_pkey", columns: [t.entityId, t.month, t.assigneeId, t.status] })]
);
