import { sql } from "drizzle-orm";
import { type AnyPgColumn, boolean, check, index, integer, pgTable, text, unique } from "drizzle-orm/pg-core";
import { createdAt, entityId, id, timestamptz } from "./columns";
import { incidents } from "./incidents";

/** The sides of an incident's service level: its response and its resolution target. */
export const SERVICE_LEVEL_SIDES = ["response", "resolution"] as const;
/** The alerts of one target: before its breach (the entity's warning lead) and at its breach. */
export const SERVICE_LEVEL_ALERT_STAGES = ["warning", "breach"] as const;

/**
 * The service-level alerts raised (issue 62, decision 064 "Alerts"): one row per incident, side, stage and
 * target, written by the breach pass when the instant comes. The unique key is what makes each alert go
 * out once, however many processes run the pass and however often a clock is rewritten; `notified` is
 * false for an alert recorded without telling anyone (its instant had long passed when the pass saw it).
 */
export const serviceLevelAlerts = pgTable(
  "service_level_alerts",
  {
    id: id(),
    entityId: entityId(),
    incidentId: integer("incident_id")
      .notNull()
      .references((): AnyPgColumn => incidents.id, { onDelete: "cascade" }),
    side: text("side").$type<(typeof SERVICE_LEVEL_SIDES)[number]>().notNull(),
    stage: text("stage").$type<(typeof SERVICE_LEVEL_ALERT_STAGES)[number]>().notNull(),
    targetMinutes: integer("target_minutes").notNull(),
    /** The target's due instant when the alert was raised. */
    dueAt: timestamptz("due_at").notNull(),
    notified: boolean("notified").notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    unique("service_level_alerts_once_key").on(t.incidentId, t.side, t.stage, t.targetMinutes),
    index("service_level_alerts_entity_idx").on(t.entityId, t.createdAt),
    check("service_level_alerts_side_check", sql`${t.side} in ('response', 'resolution')`),
    check("service_level_alerts_stage_check", sql`${t.stage} in ('warning', 'breach')`),
  ],
);

export type ServiceLevelAlert = typeof serviceLevelAlerts.$inferSelect;
