import { sql } from "drizzle-orm";
import { type AnyPgColumn, check, date, index, integer, pgTable, smallint, text, unique } from "drizzle-orm/pg-core";
import { PRIORITY_VALUES, type Priority } from "../enums";
import { createdAt, entityId, id, inValues, updatedAt } from "./columns";
import { entities } from "./entities";
import { incidentTypes } from "./incident-types";

/**
 * Service levels (issue 62, decision 064): when the entity works, the days it is closed, and how soon an
 * incident is to be answered and resolved. Administrators set them (modules/service-levels).
 */

/** The clocks a target counts with (the `ClockKind` of modules/service-levels/calendar.ts). */
export const CLOCK_KIND_VALUES = ["working", "calendar"] as const;

const clockCheck = (col: AnyPgColumn) => sql`${col} in (${sql.raw(CLOCK_KIND_VALUES.map((k) => `'${k}'`).join(", "))})`;

/** The longest target: a year, in minutes. */
export const MAX_TARGET_MINUTES = 366 * 24 * 60;

/**
 * The entity's opening hours: intervals of an ISO weekday (1 Monday .. 7 Sunday) in minutes after local
 * midnight, [opens_at, closes_at), in the entity's time zone. A weekday without a row is closed.
 */
export const serviceLevelOpeningHours = pgTable(
  "service_level_opening_hours",
  {
    id: id(),
    entityId: entityId(),
    weekday: smallint("weekday").notNull(),
    opensAt: smallint("opens_at").notNull(),
    closesAt: smallint("closes_at").notNull(),
  },
  (t) => [
    index("service_level_opening_hours_entity_idx").on(t.entityId, t.weekday, t.opensAt),
    check("service_level_opening_hours_weekday_check", sql`${t.weekday} between 1 and 7`),
    check("service_level_opening_hours_interval_check", sql`${t.opensAt} >= 0 and ${t.opensAt} < ${t.closesAt} and ${t.closesAt} <= 1440`),
  ],
);

/** Days the entity is closed whatever the weekday (public holidays), as local dates, one per day. */
export const serviceLevelClosedDays = pgTable(
  "service_level_closed_days",
  {
    id: id(),
    entityId: entityId(),
    day: date("day", { mode: "string" }).notNull(),
    name: text("name").notNull(),
    createdAt: createdAt(),
  },
  (t) => [unique("service_level_closed_days_entity_day_key").on(t.entityId, t.day), check("service_level_closed_days_name_check", sql`length(${t.name}) between 1 and 100`)],
);

/**
 * Targets: per priority (null: "Not Selected"), the entity's own (`incident_type_id` null) or an incident
 * type's override. Null minutes: no target (for an override: the entity's target applies). One row per
 * entity, type and priority, nulls included (NULLS NOT DISTINCT).
 */
export const serviceLevelTargets = pgTable(
  "service_level_targets",
  {
    id: id(),
    entityId: entityId(),
    incidentTypeId: integer("incident_type_id").references((): AnyPgColumn => incidentTypes.id, { onDelete: "cascade" }),
    priority: smallint("priority").$type<Priority>(),
    /** Until the incident is In Progress or assigned. */
    responseMinutes: integer("response_minutes"),
    responseClock: text("response_clock").$type<(typeof CLOCK_KIND_VALUES)[number]>().notNull().default("working"),
    /** Until the incident is Done. */
    resolutionMinutes: integer("resolution_minutes"),
    resolutionClock: text("resolution_clock").$type<(typeof CLOCK_KIND_VALUES)[number]>().notNull().default("working"),
    updatedAt: updatedAt(),
  },
  (t) => [
    unique("service_level_targets_entity_type_priority_key").on(t.entityId, t.incidentTypeId, t.priority).nullsNotDistinct(),
    index("service_level_targets_incident_type_idx").on(t.incidentTypeId),
    check("service_level_targets_priority_check", sql`${t.priority} is null or ${inValues(t.priority, PRIORITY_VALUES)}`),
    check("service_level_targets_response_clock_check", clockCheck(t.responseClock)),
    check("service_level_targets_resolution_clock_check", clockCheck(t.resolutionClock)),
    check("service_level_targets_response_minutes_check", sql`${t.responseMinutes} is null or ${t.responseMinutes} between 1 and ${sql.raw(String(MAX_TARGET_MINUTES))}`),
    check("service_level_targets_resolution_minutes_check", sql`${t.resolutionMinutes} is null or ${t.resolutionMinutes} between 1 and ${sql.raw(String(MAX_TARGET_MINUTES))}`),
  ],
);

/** The longest warning lead: a week, in minutes. */
export const MAX_WARNING_MINUTES = 7 * 24 * 60;

/** The entity's service-level settings that are one value: how long before a breach people are warned (null: not warned). */
export const serviceLevelSettings = pgTable(
  "service_level_settings",
  {
    entityId: integer("entity_id")
      .primaryKey()
      .references((): AnyPgColumn => entities.id),
    warnBeforeMinutes: integer("warn_before_minutes"),
    updatedAt: updatedAt(),
  },
  (t) => [check("service_level_settings_warn_before_check", sql`${t.warnBeforeMinutes} is null or ${t.warnBeforeMinutes} between 1 and ${sql.raw(String(MAX_WARNING_MINUTES))}`)],
);
