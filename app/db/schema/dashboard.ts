import { sql } from "drizzle-orm";
import { bigint, date, index, integer, pgTable, primaryKey, smallint } from "drizzle-orm/pg-core";
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

/** The figures of the time and costs' roll-ups: minutes, amounts in whole cents, entries and lines. */
function costFigures() {
  return {
    minutes: bigint("minutes", { mode: "number" }).notNull().default(0),
    labourCents: bigint("labour_cents", { mode: "number" }).notNull().default(0),
    materialsCents: bigint("materials_cents", { mode: "number" }).notNull().default(0),
    unpriced: integer("unpriced").notNull().default(0),
    entries: integer("entries").notNull().default(0),
    lines: integer("lines").notNull().default(0),
  };
}

/**
 * The time and costs of the dashboard (issue 62, decision 065) per month, kept by statement-level
 * triggers on `time_entries`, `material_lines`, `incidents` and `tasks` in the writing transaction
 * (migration 0053). A row sums the work rows of one entity's month (a time entry's `worked_on`, a
 * material line's creation in the entity's time zone) by where the work sits now: the room (0: none) and
 * equipment item (0: none) of its incident or task, and `type_key` (the incident type; 0: an incident
 * without a type; -1: a maintenance task). Work on archived incidents is left out. Amounts are whole
 * cents, each entry and line rounded to the cent first as the record's view rounds it. A row whose
 * entries and lines fall to zero is deleted.
 */
export const workCostMonths = pgTable(
  "work_cost_months",
  {
    entityId: entityId(),
    month: date("month", { mode: "string" }).notNull(),
    roomId: integer("room_id").notNull().default(0),
    equipmentItemId: integer("equipment_item_id").notNull().default(0),
    typeKey: integer("type_key").notNull().default(0),
    ...costFigures(),
  },
  (t) => [
    primaryKey({ name: "work_cost_months_pkey", columns: [t.entityId, t.month, t.roomId, t.equipmentItemId, t.typeKey] }),
    // A room's or an item's months (the exact sums of the top's candidates).
    index("work_cost_months_room_idx").on(t.entityId, t.roomId, t.month),
    index("work_cost_months_item_idx").on(t.entityId, t.equipmentItemId, t.month),
    // The rows a change left without entries or lines, deleted after each change.
    index("work_cost_months_empty_idx").on(t.entityId).where(sql`${t.entries} = 0 and ${t.lines} = 0`),
  ]
);

/**
 * `work_cost_months` summed per building (0: no room) instead of room and equipment item: the months,
 * facilities, buildings and types of the section read these few rows. Kept by the same triggers, and by
 * a trigger on rooms moved to another building or deleted.
 */
export const workCostBuildingMonths = pgTable(
  "work_cost_building_months",
  {
    entityId: entityId(),
    month: date("month", { mode: "string" }).notNull(),
    buildingId: integer("building_id").notNull().default(0),
    typeKey: integer("type_key").notNull().default(0),
    ...costFigures(),
  },
  (t) => [
    primaryKey({ name: "work_cost_building_months_pkey", columns: [t.entityId, t.month, t.buildingId, t.typeKey] }),
    index("work_cost_building_months_empty_idx").on(t.entityId).where(sql`${t.entries} = 0 and ${t.lines} = 0`),
  ]
);

/**
 * The work of a room (`work_cost_room_months`) or an equipment item (`work_cost_item_months`) per month,
 * whatever its type, cost only: one row per key and month, so a key's total over a period is at most
 * its costliest month times the months. The section's tops read the costliest rows first and stop once
 * no key left unread can reach the tenth (decision 065). Kept with `work_cost_months`.
 */
function keyMonths(name: string, key: string) {
  return pgTable(
    name,
    {
      entityId: entityId(),
      month: date("month", { mode: "string" }).notNull(),
      key: integer(key).notNull(),
      costCents: bigint("cost_cents", { mode: "number" }).notNull().default(0),
      /** Entries and lines: the row is deleted at 0. */
      records: integer("records").notNull().default(0),
    },
    (t) => [
      primaryKey({ name: `${name}_pkey`, columns: [t.entityId, t.month, t.key] }),
      index(`${name}_cost_idx`).on(t.entityId, t.costCents.desc()),
      index(`${name}_empty_idx`).on(t.entityId).where(sql`${t.records} = 0`),
    ]
  );
}

export const workCostRoomMonths = keyMonths("work_cost_room_months", "room_id");
export const workCostItemMonths = keyMonths("work_cost_item_months", "equipment_item_id");
