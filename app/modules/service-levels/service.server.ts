import { and, eq, isNull } from "drizzle-orm";
import { assertCan } from "~/core/actor";
import { AUDIT } from "~/core/audit-actions";
import type { ServiceContext } from "~/core/context.server";
import { type Effects, withTx } from "~/core/unit-of-work.server";
import { incidentTypes, serviceLevelClosedDays, serviceLevelOpeningHours, serviceLevelSettings, serviceLevelTargets } from "~/db/schema";
import { now } from "~/lib/clock.server";
import { NotFoundError, ValidationError } from "~/lib/errors";
import { parseInput } from "~/lib/validation";
import { serviceLevelsChanged, type SERVICE_LEVEL_PARTS } from "./changes.server";
import { belgianPublicHolidays } from "./holidays.server";
import { serviceLevelsNotFound } from "./queries.server";
import { type ClosedDayInput, ClosedDaySchema, intervalsOf, minutesOfHours, PRIORITY_OF, type PublicHolidaysInput, PublicHolidaysSchema, RemoveClosedDaySchema, TARGET_PRIORITIES, type TargetsInput, TargetsSchema, timeOf, type WarningLeadInput, WarningLeadSchema, WEEKDAYS, type WorkingWeekInput, WorkingWeekSchema } from "./schema";

/**
 * Every write of the service levels (issue 62, decision 064): the working week, closed days (one by one,
 * or Belgium's public holidays of a year), the targets (the entity's own, or an incident type's override)
 * and the warning lead. Administrators only (`serviceLevel: manage`). Each verb runs in one unit of work
 * holding the entity's settings row locked (two administrators saving at once take turns), writes its
 * audit row (`serviceLevel.<verb>`, record: the entity) and a `serviceLevel.changed` change event.
 */

type Part = (typeof SERVICE_LEVEL_PARTS)[number];

/** Locks the entity's settings row (made on first use): the service levels' writes of one entity take turns. */
async function lockSettings(ctx: ServiceContext): Promise<{ warnBeforeMinutes: number | null }> {
  await ctx.db.insert(serviceLevelSettings).values({ entityId: ctx.entityId }).onConflictDoNothing();
  const [row] = await ctx.db
    .select({ warnBeforeMinutes: serviceLevelSettings.warnBeforeMinutes })
    .from(serviceLevelSettings)
    .where(eq(serviceLevelSettings.entityId, ctx.entityId))
    .for("update");
  return row;
}

type ServiceLevelAction = (typeof AUDIT.serviceLevel)[keyof typeof AUDIT.serviceLevel];

/** The audit row (record: the entity's service levels) and the change event of a write. */
async function changed(ctx: ServiceContext, effects: Effects, part: Part, auditAction: ServiceLevelAction, details: Record<string, unknown>, incidentTypeId: number | null = null) {
  await effects.audit({ action: auditAction, recordType: "serviceLevel", recordId: ctx.entityId, details: incidentTypeId === null ? details : { incidentTypeId, ...details } });
  await effects.emit(serviceLevelsChanged, { part, incidentTypeId });
}

/** The opening hours of each weekday (a closed day: none), replacing the week's. */
export async function setWorkingWeek(ctx: ServiceContext, input: WorkingWeekInput): Promise<void> {
  assertCan(ctx.actor, "manage", "serviceLevel");
  const week = parseInput(WorkingWeekSchema, input);
  const rows = WEEKDAYS.flatMap((name, index) => intervalsOf(week[name]).map((interval) => ({ entityId: ctx.entityId, weekday: index + 1, opensAt: interval.opens, closesAt: interval.closes })));
  await withTx(ctx, async (tx, effects) => {
    await lockSettings(tx);
    await tx.db.delete(serviceLevelOpeningHours).where(eq(serviceLevelOpeningHours.entityId, ctx.entityId));
    if (rows.length) await tx.db.insert(serviceLevelOpeningHours).values(rows);
    const summary = Object.fromEntries(WEEKDAYS.map((name) => [name, intervalsOf(week[name]).map((i) => `${timeOf(i.opens)}-${timeOf(i.closes)}`)]));
    await changed(tx, effects, "working-week", AUDIT.serviceLevel.setWorkingWeek, { week: summary });
  });
}

/** A closed day (a local date and its name); a day already closed is refused beside the date. */
export async function addClosedDay(ctx: ServiceContext, input: ClosedDayInput): Promise<{ id: number }> {
  assertCan(ctx.actor, "manage", "serviceLevel");
  const values = parseInput(ClosedDaySchema, input);
  return withTx(ctx, async (tx, effects) => {
    await lockSettings(tx);
    const [row] = await tx.db
      .insert(serviceLevelClosedDays)
      .values({ entityId: ctx.entityId, day: values.day, name: values.name })
      .onConflictDoNothing()
      .returning({ id: serviceLevelClosedDays.id });
    if (!row) throw new ValidationError({ day: ["serviceLevels:validation.dayTaken"] }, "serviceLevels:validation.dayTaken", "CLOSED_DAY_TAKEN");
    await changed(tx, effects, "closed-days", AUDIT.serviceLevel.addClosedDay, { day: values.day, name: values.name });
    return row;
  });
}

/** Removes a closed day of the entity (another entity's, or one already removed: not found). */
export async function removeClosedDay(ctx: ServiceContext, input: { closedDayId: number }): Promise<void> {
  assertCan(ctx.actor, "manage", "serviceLevel");
  const { closedDayId } = parseInput(RemoveClosedDaySchema, input);
  await withTx(ctx, async (tx, effects) => {
    await lockSettings(tx);
    const [row] = await tx.db
      .delete(serviceLevelClosedDays)
      .where(and(eq(serviceLevelClosedDays.entityId, ctx.entityId), eq(serviceLevelClosedDays.id, closedDayId)))
      .returning({ day: serviceLevelClosedDays.day, name: serviceLevelClosedDays.name });
    if (!row) throw new NotFoundError("serviceLevels:errors.closedDayNotFound", "CLOSED_DAY_NOT_FOUND");
    await changed(tx, effects, "closed-days", AUDIT.serviceLevel.removeClosedDay, { day: row.day, name: row.name });
  });
}

/**
 * Belgium's public holidays of a year as closed days, named in the language chosen (a start the
 * administrator edits); days already closed are kept as they are. Returns how many were added.
 */
export async function addPublicHolidays(ctx: ServiceContext, input: PublicHolidaysInput): Promise<{ added: number }> {
  assertCan(ctx.actor, "manage", "serviceLevel");
  const { year, language } = parseInput(PublicHolidaysSchema, input);
  const holidays = belgianPublicHolidays(year, language);
  return withTx(ctx, async (tx, effects) => {
    await lockSettings(tx);
    const added = await tx.db
      .insert(serviceLevelClosedDays)
      .values(holidays.map((holiday) => ({ entityId: ctx.entityId, day: holiday.day, name: holiday.name })))
      .onConflictDoNothing()
      .returning({ day: serviceLevelClosedDays.day });
    if (added.length) await changed(tx, effects, "closed-days", AUDIT.serviceLevel.addPublicHolidays, { year, language, days: added.map((row) => row.day).sort() });
    return { added: added.length };
  });
}

/**
 * The targets of each priority: the entity's own (`incidentTypeId` null; empty hours: no target) or an
 * incident type's override (empty hours: the entity's target applies). A priority with neither target
 * keeps no row.
 */
export async function setTargets(ctx: ServiceContext, incidentTypeId: number | null, input: TargetsInput): Promise<void> {
  assertCan(ctx.actor, "manage", "serviceLevel");
  const targets = parseInput(TargetsSchema, input);
  await withTx(ctx, async (tx, effects) => {
    await lockSettings(tx);
    if (incidentTypeId !== null) {
      const [type] = await tx.db
        .select({ id: incidentTypes.id })
        .from(incidentTypes)
        .where(and(eq(incidentTypes.entityId, ctx.entityId), eq(incidentTypes.id, incidentTypeId)))
        .for("share");
      if (!type) throw serviceLevelsNotFound();
    }
    const ofType = incidentTypeId === null ? isNull(serviceLevelTargets.incidentTypeId) : eq(serviceLevelTargets.incidentTypeId, incidentTypeId);
    await tx.db.delete(serviceLevelTargets).where(and(eq(serviceLevelTargets.entityId, ctx.entityId), ofType));
    const rows = TARGET_PRIORITIES.filter((key) => targets[key].responseHours !== null || targets[key].resolutionHours !== null).map((key) => ({
      entityId: ctx.entityId,
      incidentTypeId,
      priority: PRIORITY_OF[key],
      responseMinutes: minutesOrNull(targets[key].responseHours),
      responseClock: targets[key].responseClock,
      resolutionMinutes: minutesOrNull(targets[key].resolutionHours),
      resolutionClock: targets[key].resolutionClock,
      updatedAt: new Date(now()),
    }));
    if (rows.length) await tx.db.insert(serviceLevelTargets).values(rows);
    const summary = Object.fromEntries(
      TARGET_PRIORITIES.map((key) => [
        key,
        {
          response: minutesOrNull(targets[key].responseHours),
          responseClock: targets[key].responseClock,
          resolution: minutesOrNull(targets[key].resolutionHours),
          resolutionClock: targets[key].resolutionClock,
        },
      ]),
    );
    await changed(tx, effects, "targets", AUDIT.serviceLevel.setTargets, { minutes: summary }, incidentTypeId);
  });
}

const minutesOrNull = (hours: string | null) => (hours === null ? null : minutesOfHours(hours));

/** Removes an incident type's override: the entity's targets apply to it again. */
export async function clearTargetOverride(ctx: ServiceContext, incidentTypeId: number): Promise<void> {
  assertCan(ctx.actor, "manage", "serviceLevel");
  await withTx(ctx, async (tx, effects) => {
    await lockSettings(tx);
    const [type] = await tx.db
      .select({ id: incidentTypes.id })
      .from(incidentTypes)
      .where(and(eq(incidentTypes.entityId, ctx.entityId), eq(incidentTypes.id, incidentTypeId)));
    if (!type) throw serviceLevelsNotFound();
    await tx.db.delete(serviceLevelTargets).where(and(eq(serviceLevelTargets.entityId, ctx.entityId), eq(serviceLevelTargets.incidentTypeId, incidentTypeId)));
    await changed(tx, effects, "targets", AUDIT.serviceLevel.setTargets, { minutes: null }, incidentTypeId);
  });
}

/** How long before a breach people are warned, in minutes (null: nobody is warned). */
export async function setWarningLead(ctx: ServiceContext, input: WarningLeadInput): Promise<void> {
  assertCan(ctx.actor, "manage", "serviceLevel");
  const { warnBeforeMinutes } = parseInput(WarningLeadSchema, input);
  await withTx(ctx, async (tx, effects) => {
    const before = await lockSettings(tx);
    await tx.db.update(serviceLevelSettings).set({ warnBeforeMinutes, updatedAt: new Date(now()) }).where(eq(serviceLevelSettings.entityId, ctx.entityId));
    await changed(tx, effects, "warning-lead", AUDIT.serviceLevel.setWarningLead, { from: before.warnBeforeMinutes, to: warnBeforeMinutes });
  });
}
