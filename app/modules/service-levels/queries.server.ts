import { and, asc, eq, isNull, or, sql } from "drizzle-orm";
import { assertCan } from "~/core/actor";
import type { ServiceContext } from "~/core/context.server";
import type { IncidentPriority } from "~/db/enums";
import { incidentTypes, serviceLevelClosedDays, serviceLevelOpeningHours, serviceLevelSettings, serviceLevelTargets } from "~/db/schema";
import { NotFoundError } from "~/lib/errors";
import { incidentTypeName } from "~/modules/incident-types/queries.server";
import type { ClockKind, OpeningInterval, WorkingCalendar } from "./calendar";
import { type IsoWeekday, TARGET_PRIORITIES, type TargetPriority, targetPriorityOf } from "./schema";

/**
 * Reads of the service levels (issue 62, decision 064).
 * - The settings screen's read (`getServiceLevelSettings`) is administrators' only, like the verbs.
 * - What other areas compute with (`workingCalendar`, `targetsFor`, `warningLead`) asks no permission:
 *   an incident's due times are shown to everyone who reaches the incident, and worked out by verbs and
 *   jobs of any actor of the entity. Every read is filtered by the entity.
 */

/** One target: how long, and which clock counts it. */
export interface Target {
  minutes: number;
  clock: ClockKind;
}

/** A priority's targets as stored: minutes null for none (for an override: the entity's own applies). */
export interface TargetRow {
  responseMinutes: number | null;
  responseClock: ClockKind;
  resolutionMinutes: number | null;
  resolutionClock: ClockKind;
}

const NO_TARGET: TargetRow = { responseMinutes: null, responseClock: "working", resolutionMinutes: null, resolutionClock: "working" };

export interface ClosedDayView {
  id: number;
  /** Local date "YYYY-MM-DD". */
  day: string;
  name: string;
}

export interface ServiceLevelSettingsView {
  timeZone: string;
  /** Opening intervals by ISO weekday (1 Monday .. 7 Sunday); an empty list: closed. */
  week: Record<IsoWeekday, OpeningInterval[]>;
  closedDays: ClosedDayView[];
  /** The entity's own targets, by priority. */
  targets: Record<TargetPriority, TargetRow>;
  /** Minutes before a breach people are warned; null: not warned. */
  warnBeforeMinutes: number | null;
}

export const serviceLevelsNotFound = () => new NotFoundError("serviceLevels:errors.incidentTypeNotFound", "INCIDENT_TYPE_NOT_FOUND");

async function openingHours(ctx: ServiceContext): Promise<Record<IsoWeekday, OpeningInterval[]>> {
  const rows = await ctx.db
    .select({ weekday: serviceLevelOpeningHours.weekday, opens: serviceLevelOpeningHours.opensAt, closes: serviceLevelOpeningHours.closesAt })
    .from(serviceLevelOpeningHours)
    .where(eq(serviceLevelOpeningHours.entityId, ctx.entityId))
    .orderBy(asc(serviceLevelOpeningHours.weekday), asc(serviceLevelOpeningHours.opensAt));
  const week = { 1: [], 2: [], 3: [], 4: [], 5: [], 6: [], 7: [] } as Record<IsoWeekday, OpeningInterval[]>;
  for (const row of rows) week[row.weekday as IsoWeekday].push({ opens: row.opens, closes: row.closes });
  return week;
}

async function closedDays(ctx: ServiceContext): Promise<ClosedDayView[]> {
  return ctx.db
    .select({ id: serviceLevelClosedDays.id, day: serviceLevelClosedDays.day, name: serviceLevelClosedDays.name })
    .from(serviceLevelClosedDays)
    .where(eq(serviceLevelClosedDays.entityId, ctx.entityId))
    .orderBy(asc(serviceLevelClosedDays.day));
}

/** A target row's two targets, each its minutes and its clock. */
const targetColumns = {
  responseMinutes: serviceLevelTargets.responseMinutes,
  responseClock: serviceLevelTargets.responseClock,
  resolutionMinutes: serviceLevelTargets.resolutionMinutes,
  resolutionClock: serviceLevelTargets.resolutionClock,
};

/** The targets of the entity (`incidentTypeId` null) or of a type's override, by priority (none set: no target). */
async function targetRows(ctx: ServiceContext, incidentTypeId: number | null): Promise<Record<TargetPriority, TargetRow>> {
  const rows = await ctx.db
    .select({ priority: serviceLevelTargets.priority, ...targetColumns })
    .from(serviceLevelTargets)
    .where(
      and(
        eq(serviceLevelTargets.entityId, ctx.entityId),
        incidentTypeId === null ? isNull(serviceLevelTargets.incidentTypeId) : eq(serviceLevelTargets.incidentTypeId, incidentTypeId),
      ),
    );
  const targets = Object.fromEntries(TARGET_PRIORITIES.map((key) => [key, { ...NO_TARGET }])) as Record<TargetPriority, TargetRow>;
  for (const { priority, ...row } of rows) targets[targetPriorityOf(priority)] = row;
  return targets;
}

async function warnBefore(ctx: ServiceContext): Promise<number | null> {
  const [row] = await ctx.db
    .select({ minutes: serviceLevelSettings.warnBeforeMinutes })
    .from(serviceLevelSettings)
    .where(eq(serviceLevelSettings.entityId, ctx.entityId));
  return row?.minutes ?? null;
}

/** The service levels' screen: the working week, the closed days, the entity's targets and the warning lead. */
export async function getServiceLevelSettings(ctx: ServiceContext): Promise<ServiceLevelSettingsView> {
  assertCan(ctx.actor, "read", "serviceLevel");
  const [week, days, targets, warnBeforeMinutes] = await Promise.all([openingHours(ctx), closedDays(ctx), targetRows(ctx, null), warnBefore(ctx)]);
  return { timeZone: ctx.timeZone, week, closedDays: days, targets, warnBeforeMinutes };
}

/** An incident type's override of the targets (no row: the entity's targets apply); another entity's type is not found. */
export async function getTargetOverride(ctx: ServiceContext, incidentTypeId: number): Promise<Record<TargetPriority, TargetRow>> {
  assertCan(ctx.actor, "read", "serviceLevel");
  const [type] = await ctx.db
    .select({ id: incidentTypes.id })
    .from(incidentTypes)
    .where(and(eq(incidentTypes.entityId, ctx.entityId), eq(incidentTypes.id, incidentTypeId)));
  if (!type) throw serviceLevelsNotFound();
  return targetRows(ctx, incidentTypeId);
}

/** An incident type's service levels as its screen shows them. */
export interface IncidentTypeServiceLevelsView {
  id: number;
  /** The type's name in the viewer's language (another language's when it has none). */
  name: string;
  /** The type's own targets, by priority; minutes null: the entity's target applies. */
  override: Record<TargetPriority, TargetRow>;
  /** The entity's own targets, shown beside each target the type leaves to them. */
  entity: Record<TargetPriority, TargetRow>;
  /** Whether the type sets any target of its own. */
  overrides: boolean;
}

/** An active incident type's name in the viewer's language; another entity's, or an archived one, is not found. */
async function activeTypeName(ctx: ServiceContext, incidentTypeId: number): Promise<string> {
  const [type] = await ctx.db
    .select({ name: incidentTypeName(ctx.locale) })
    .from(incidentTypes)
    .where(and(eq(incidentTypes.entityId, ctx.entityId), eq(incidentTypes.id, incidentTypeId), isNull(incidentTypes.archivedAt)));
  if (!type) throw serviceLevelsNotFound();
  return type.name;
}

/**
 * An incident type's screen of service levels: its own targets and the entity's. Administrators only, as
 * the settings; another entity's type, or an archived one, is not found.
 */
export async function getIncidentTypeServiceLevels(ctx: ServiceContext, incidentTypeId: number): Promise<IncidentTypeServiceLevelsView> {
  assertCan(ctx.actor, "read", "serviceLevel");
  const name = await activeTypeName(ctx, incidentTypeId);
  const [override, entity] = await Promise.all([targetRows(ctx, incidentTypeId), targetRows(ctx, null)]);
  const overrides = TARGET_PRIORITIES.some((key) => override[key].responseMinutes !== null || override[key].resolutionMinutes !== null);
  return { id: incidentTypeId, name, override, entity, overrides };
}

/** An incident type that sets targets of its own: its name and how many priorities it sets one for. */
export interface TargetOverrideView {
  id: number;
  name: string;
  priorities: number;
}

/** The entity's active incident types that override targets, by name (the settings screen lists them). */
export async function listTargetOverrides(ctx: ServiceContext): Promise<TargetOverrideView[]> {
  assertCan(ctx.actor, "read", "serviceLevel");
  const name = incidentTypeName(ctx.locale);
  return ctx.db
    .select({ id: incidentTypes.id, name, priorities: sql<number>`count(*)::int` })
    .from(serviceLevelTargets)
    .innerJoin(incidentTypes, and(eq(incidentTypes.id, serviceLevelTargets.incidentTypeId), eq(incidentTypes.entityId, ctx.entityId), isNull(incidentTypes.archivedAt)))
    .where(eq(serviceLevelTargets.entityId, ctx.entityId))
    .groupBy(incidentTypes.id, name)
    .orderBy(asc(sql`lower(${name})`), asc(incidentTypes.id));
}

/** When the entity's working clock runs: its opening hours and closed days, in its time zone. */
export async function workingCalendar(ctx: ServiceContext): Promise<WorkingCalendar> {
  const [week, days] = await Promise.all([openingHours(ctx), closedDays(ctx)]);
  return { timeZone: ctx.timeZone, week, closedDays: new Set(days.map((d) => d.day)) };
}

/**
 * The targets of an incident of `incidentTypeId` (null: none) and `priority` (null: Not Selected): the
 * type's override where it sets one, else the entity's own; null where neither sets one.
 */
export async function targetsFor(ctx: ServiceContext, incidentTypeId: number | null, priority: IncidentPriority): Promise<{ response: Target | null; resolution: Target | null }> {
  const rows = await ctx.db
    .select({ incidentTypeId: serviceLevelTargets.incidentTypeId, ...targetColumns })
    .from(serviceLevelTargets)
    .where(
      and(
        eq(serviceLevelTargets.entityId, ctx.entityId),
        priority === null ? isNull(serviceLevelTargets.priority) : eq(serviceLevelTargets.priority, priority),
        incidentTypeId === null ? isNull(serviceLevelTargets.incidentTypeId) : or(isNull(serviceLevelTargets.incidentTypeId), eq(serviceLevelTargets.incidentTypeId, incidentTypeId)),
      ),
    );
  const own = rows.find((row) => row.incidentTypeId === null) ?? NO_TARGET;
  const override = rows.find((row) => row.incidentTypeId !== null) ?? NO_TARGET;
  const pick = (minutes: number | null, clock: ClockKind, fallbackMinutes: number | null, fallbackClock: ClockKind): Target | null =>
    minutes !== null ? { minutes, clock } : fallbackMinutes !== null ? { minutes: fallbackMinutes, clock: fallbackClock } : null;
  return {
    response: pick(override.responseMinutes, override.responseClock, own.responseMinutes, own.responseClock),
    resolution: pick(override.resolutionMinutes, override.resolutionClock, own.resolutionMinutes, own.resolutionClock),
  };
}

/** Minutes before a breach people are warned, or null when the entity warns nobody. */
export async function warningLead(ctx: ServiceContext): Promise<number | null> {
  return warnBefore(ctx);
}

