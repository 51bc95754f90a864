import { and, desc, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { IncidentTypeStatus, Priority } from "~/db/enums";
import { auditLog, changeEvents, type IncidentType, serviceLevelClosedDays, serviceLevelOpeningHours, serviceLevelSettings, serviceLevelTargets, type User } from "~/db/schema";
import { CLOCK_KIND_VALUES } from "~/db/schema/service-levels";
import { ForbiddenError, NotFoundError } from "~/lib/errors";
import { createIncidentType } from "#tests/factories";
import { actorContext, expectFieldError, rejectionOf } from "#tests/service-helpers";
import { setupTestDatabase, setupTwoEntities } from "#tests/test-context";
import { getIncidentTypeServiceLevels, getServiceLevelSettings, getTargetOverride, listTargetOverrides, targetsFor, warningLead, workingCalendar } from "./queries.server";
import { CLOCK_KINDS, type TargetsInput, TargetsSchema, type WorkingWeekInput, WorkingWeekSchema } from "./schema";
import { addClosedDay, addPublicHolidays, clearTargetOverride, removeClosedDay, setTargets, setWarningLead, setWorkingWeek } from "./service.server";

const database = setupTestDatabase();
const people = setupTwoEntities(database);
let typeA: IncidentType;
let typeB: IncidentType;

const ctxOf = (user: User, extra: { timeZone?: string } = {}) => actorContext(database.db, user, extra);

const closedWeek: WorkingWeekInput = { monday: {}, tuesday: {}, wednesday: {}, thursday: {}, friday: {}, saturday: {}, sunday: {} };
const officeWeek: WorkingWeekInput = {
  ...closedWeek,
  monday: { open: "on", opens: "08:00", closes: "17:00" },
  tuesday: { open: "on", opens: "08:00", closes: "17:00" },
  wednesday: { open: "on", opens: "08:30", closes: "12:00" },
  thursday: { open: "on", opens: "08:00", closes: "17:00" },
  friday: { open: "on", opens: "08:00", closes: "16:00" },
  saturday: { opens: "09:00", closes: "12:00" }, // not ticked: closed, times ignored
};
const noTargets: TargetsInput = { low: {}, medium: {}, high: {}, critical: {}, none: {} };

/** Every row the service levels keep for an entity, to show that a refused verb changed nothing. */
async function snapshot(entityId: number) {
  const db = database.db;
  return {
    hours: await db.select().from(serviceLevelOpeningHours).where(eq(serviceLevelOpeningHours.entityId, entityId)),
    days: await db.select().from(serviceLevelClosedDays).where(eq(serviceLevelClosedDays.entityId, entityId)),
    targets: await db.select().from(serviceLevelTargets).where(eq(serviceLevelTargets.entityId, entityId)),
    settings: await db.select().from(serviceLevelSettings).where(eq(serviceLevelSettings.entityId, entityId)),
    audit: await db.select().from(auditLog).where(and(eq(auditLog.entityId, entityId), eq(auditLog.recordType, "serviceLevel"))),
    changes: await db.select().from(changeEvents).where(and(eq(changeEvents.entityId, entityId), eq(changeEvents.type, "serviceLevel.changed"))),
  };
}

async function auditActions(entityId: number) {
  const rows = await database.db
    .select({ action: auditLog.action })
    .from(auditLog)
    .where(and(eq(auditLog.entityId, entityId), eq(auditLog.recordType, "serviceLevel")))
    .orderBy(auditLog.id);
  return rows.map((row) => row.action);
}

beforeAll(async () => {
  const db = database.db;
  typeA = await createIncidentType(db, { entityId: people.entity.id });
  typeB = await createIncidentType(db, { entityId: people.other.id });
});

describe("the working week", () => {
  it("keeps each weekday's opening hours, closed days without, in the entity's time zone", async () => {
    await setWorkingWeek(ctxOf(people.admin), officeWeek);
    const calendar = await workingCalendar(ctxOf(people.technician, { timeZone: "Europe/Brussels" }));
    expect(calendar.timeZone).toBe("Europe/Brussels");
    expect(calendar.week).toEqual({
      1: [{ opens: 480, closes: 1020 }],
      2: [{ opens: 480, closes: 1020 }],
      3: [{ opens: 510, closes: 720 }],
      4: [{ opens: 480, closes: 1020 }],
      5: [{ opens: 480, closes: 960 }],
      6: [],
      7: [],
    });
    expect(await auditActions(people.entity.id)).toContain("serviceLevel.set-working-week");
  });

  it("reads a closing time of 00:00 as midnight: open all day", async () => {
    await setWorkingWeek(ctxOf(people.admin), { ...officeWeek, sunday: { open: "on", opens: "00:00", closes: "00:00" } });
    expect((await workingCalendar(ctxOf(people.admin))).week[7]).toEqual([{ opens: 0, closes: 1440 }]);
    await setWorkingWeek(ctxOf(people.admin), officeWeek);
  });

  it("refuses an open day without times, a closing time before the opening one and a time that is not one", async () => {
    await expectFieldError(setWorkingWeek(ctxOf(people.admin), { ...officeWeek, monday: { open: "on", opens: "", closes: "17:00" } }), "monday.opens", "common:validation.required");
    await expectFieldError(setWorkingWeek(ctxOf(people.admin), { ...officeWeek, tuesday: { open: "on", opens: "17:00", closes: "08:00" } }), "tuesday.closes", "serviceLevels:validation.closesAfterOpens");
    await expectFieldError(setWorkingWeek(ctxOf(people.admin), { ...officeWeek, friday: { open: "on", opens: "25:00", closes: "26:00" } }), "friday.opens", "serviceLevels:validation.time");
    expect((await workingCalendar(ctxOf(people.admin))).week[1]).toEqual([{ opens: 480, closes: 1020 }]);
  });
});

describe("closed days", () => {
  it("adds and removes a closed day, refusing the same day twice beside the date", async () => {
    const { id } = await addClosedDay(ctxOf(people.admin), { day: "2027-12-24", name: "Christmas Eve" });
    await expectFieldError(addClosedDay(ctxOf(people.admin), { day: "2027-12-24", name: "Again" }), "day", "serviceLevels:validation.dayTaken");
    await expectFieldError(addClosedDay(ctxOf(people.admin), { day: "2027-02-30", name: "No such day" }), "day", "serviceLevels:validation.date");
    expect((await workingCalendar(ctxOf(people.admin))).closedDays.has("2027-12-24")).toBe(true);
    await removeClosedDay(ctxOf(people.admin), { closedDayId: id });
    expect((await workingCalendar(ctxOf(people.admin))).closedDays.has("2027-12-24")).toBe(false);
    expect(await rejectionOf(removeClosedDay(ctxOf(people.admin), { closedDayId: id }))).toBeInstanceOf(NotFoundError);
    const actions = await auditActions(people.entity.id);
    expect(actions).toContain("serviceLevel.add-closed-day");
    expect(actions).toContain("serviceLevel.remove-closed-day");
  });

  it("adds Belgium's ten public holidays of a year in the language chosen, skipping days already closed", async () => {
    await addClosedDay(ctxOf(people.admin), { day: "2027-07-21", name: "Our own name" });
    expect(await addPublicHolidays(ctxOf(people.admin), { year: 2027, language: "nl" })).toEqual({ added: 9 });
    const { closedDays } = await getServiceLevelSettings(ctxOf(people.admin));
    const of2027 = closedDays.filter((d) => d.day.startsWith("2027"));
    // Belgium's public holidays of 2027 (Easter on 28 March).
    expect(of2027.map((d) => [d.day, d.name])).toEqual([
      ["2027-01-01", "Nieuwjaar"],
      ["2027-03-29", "Paasmaandag"],
      ["2027-05-01", "Dag van de Arbeid"],
      ["2027-05-06", "Hemelvaartsdag"],
      ["2027-05-17", "Pinkstermaandag"],
      ["2027-07-21", "Our own name"],
      ["2027-08-15", "Tenhemelopneming"],
      ["2027-11-01", "Allerheiligen"],
      ["2027-11-11", "Wapenstilstand"],
      ["2027-12-25", "Kerstmis"],
    ]);
    expect(await addPublicHolidays(ctxOf(people.admin), { year: 2027, language: "fr" })).toEqual({ added: 0 });
    expect(await addPublicHolidays(ctxOf(people.admin), { year: 2028, language: "fr" })).toEqual({ added: 10 });
    const names2028 = (await getServiceLevelSettings(ctxOf(people.admin))).closedDays.filter((d) => d.day.startsWith("2028")).map((d) => d.name);
    expect(names2028).toContain("Fête nationale");
    await expectFieldError(addPublicHolidays(ctxOf(people.admin), { year: 1800, language: "fr" }), "year", "serviceLevels:validation.year");
  });
});

describe("targets", () => {
  it("keeps the entity's targets per priority in minutes with their clocks; empty hours: no target", async () => {
    await setTargets(ctxOf(people.admin), null, {
      ...noTargets,
      critical: { responseHours: "1", responseClock: "calendar", resolutionHours: "4", resolutionClock: "calendar" },
      high: { responseHours: "2,5", resolutionHours: "16" },
      none: { resolutionHours: "40" },
    });
    const { targets } = await getServiceLevelSettings(ctxOf(people.admin));
    expect(targets.critical).toEqual({ responseMinutes: 60, responseClock: "calendar", resolutionMinutes: 240, resolutionClock: "calendar" });
    expect(targets.high).toEqual({ responseMinutes: 150, responseClock: "working", resolutionMinutes: 960, resolutionClock: "working" });
    expect(targets.low).toEqual({ responseMinutes: null, responseClock: "working", resolutionMinutes: null, resolutionClock: "working" });
    expect(await targetsFor(ctxOf(people.technician), null, Priority.CRITICAL)).toEqual({ response: { minutes: 60, clock: "calendar" }, resolution: { minutes: 240, clock: "calendar" } });
    expect(await targetsFor(ctxOf(people.technician), typeA.id, null)).toEqual({ response: null, resolution: { minutes: 2400, clock: "working" } });
    expect(await targetsFor(ctxOf(people.technician), null, Priority.LOW)).toEqual({ response: null, resolution: null });
    expect(await auditActions(people.entity.id)).toContain("serviceLevel.set-targets");
  });

  it("lets an incident type override a target, the entity's applying where the override sets none", async () => {
    await setTargets(ctxOf(people.admin), typeA.id, { ...noTargets, critical: { responseHours: "0.5", responseClock: "working" } });
    expect(await targetsFor(ctxOf(people.admin), typeA.id, Priority.CRITICAL)).toEqual({ response: { minutes: 30, clock: "working" }, resolution: { minutes: 240, clock: "calendar" } });
    expect(await targetsFor(ctxOf(people.admin), null, Priority.CRITICAL)).toEqual({ response: { minutes: 60, clock: "calendar" }, resolution: { minutes: 240, clock: "calendar" } });
    expect((await getTargetOverride(ctxOf(people.admin), typeA.id)).critical.responseMinutes).toBe(30);
    await clearTargetOverride(ctxOf(people.admin), typeA.id);
    expect(await targetsFor(ctxOf(people.admin), typeA.id, Priority.CRITICAL)).toEqual({ response: { minutes: 60, clock: "calendar" }, resolution: { minutes: 240, clock: "calendar" } });
  });

  it("refuses hours that are not a positive number of at most a year", async () => {
    await expectFieldError(setTargets(ctxOf(people.admin), null, { ...noTargets, low: { responseHours: "-1" } }), "low.responseHours", "serviceLevels:validation.hours");
    await expectFieldError(setTargets(ctxOf(people.admin), null, { ...noTargets, low: { responseHours: "0" } }), "low.responseHours", "serviceLevels:validation.hours");
    await expectFieldError(setTargets(ctxOf(people.admin), null, { ...noTargets, low: { resolutionHours: "9000" } }), "low.resolutionHours", "serviceLevels:validation.hoursTooMany");
    await expectFieldError(setTargets(ctxOf(people.admin), null, { ...noTargets, low: { responseClock: "sometimes" as never, responseHours: "1" } }), "low.responseClock", "common:validation.invalid");
  });

  it("parses a parsed form to itself (the form's action parses it, then the verb)", () => {
    const targets = { ...noTargets, high: { responseHours: "2,5", resolutionHours: "16", resolutionClock: "calendar" as const } };
    const once = TargetsSchema.parse(targets);
    expect(TargetsSchema.parse(once)).toEqual(once);
    const week = WorkingWeekSchema.parse(officeWeek);
    expect(WorkingWeekSchema.parse(week)).toEqual(week);
  });

  it("names the clocks as the table's CHECK does", () => {
    expect([...CLOCK_KINDS]).toEqual([...CLOCK_KIND_VALUES]);
  });
});

describe("an incident type's own targets (its screen)", () => {
  // The entity's targets here are those the "targets" tests above saved: Critical 1 h response and 4 h
  // resolution on the calendar clock, High 2.5 h and 16 h working, Not Selected 40 h resolution.
  const none = { responseMinutes: null, responseClock: "working", resolutionMinutes: null, resolutionClock: "working" };

  it("lets the type's target win over the entity's, priority by priority, and lists the type", async () => {
    const leak = await createIncidentType(database.db, { entityId: people.entity.id, nameEn: "Leak", nameFr: "Fuite", nameNl: "Lek" });
    await setTargets(ctxOf(people.admin), leak.id, { ...noTargets, critical: { responseHours: "0,5", responseClock: "working" }, low: { resolutionHours: "72", resolutionClock: "calendar" } });
    // The type's response wins; its resolution is left to the entity's.
    expect(await targetsFor(ctxOf(people.technician), leak.id, Priority.CRITICAL)).toEqual({ response: { minutes: 30, clock: "working" }, resolution: { minutes: 240, clock: "calendar" } });
    expect(await targetsFor(ctxOf(people.technician), leak.id, Priority.LOW)).toEqual({ response: null, resolution: { minutes: 4320, clock: "calendar" } });
    expect(await targetsFor(ctxOf(people.technician), leak.id, Priority.HIGH)).toEqual({ response: { minutes: 150, clock: "working" }, resolution: { minutes: 960, clock: "working" } });
    // Another type and incidents without a type keep the entity's.
    expect(await targetsFor(ctxOf(people.technician), null, Priority.CRITICAL)).toEqual({ response: { minutes: 60, clock: "calendar" }, resolution: { minutes: 240, clock: "calendar" } });

    const view = await getIncidentTypeServiceLevels(ctxOf(people.admin), leak.id);
    expect(view).toMatchObject({ id: leak.id, name: "Leak", overrides: true });
    expect(view.override.critical).toEqual({ responseMinutes: 30, responseClock: "working", resolutionMinutes: null, resolutionClock: "working" });
    expect(view.override.low).toEqual({ responseMinutes: null, responseClock: "working", resolutionMinutes: 4320, resolutionClock: "calendar" });
    expect(view.override.high).toEqual(none);
    expect(view.entity.critical).toEqual({ responseMinutes: 60, responseClock: "calendar", resolutionMinutes: 240, resolutionClock: "calendar" });
    expect((await getIncidentTypeServiceLevels(actorContext(database.db, people.admin, { locale: "fr-BE" }), leak.id)).name).toBe("Fuite");
    expect((await listTargetOverrides(ctxOf(people.admin))).find((row) => row.id === leak.id)).toEqual({ id: leak.id, name: "Leak", priorities: 2 });

    // Its audit row and change event name the type.
    const [audit] = await database.db
      .select({ details: auditLog.details })
      .from(auditLog)
      .where(and(eq(auditLog.entityId, people.entity.id), eq(auditLog.action, "serviceLevel.set-targets")))
      .orderBy(desc(auditLog.id))
      .limit(1);
    expect(audit.details).toMatchObject({ incidentTypeId: leak.id, minutes: { critical: { response: 30, responseClock: "working", resolution: null } } });
    const changes = await database.db.select({ payload: changeEvents.payload }).from(changeEvents).where(and(eq(changeEvents.entityId, people.entity.id), eq(changeEvents.type, "serviceLevel.changed")));
    expect(changes.map((c) => c.payload)).toContainEqual({ part: "targets", incidentTypeId: leak.id });
  });

  it("falls back to the entity's targets once the override is removed", async () => {
    const [{ id: leakId }] = (await listTargetOverrides(ctxOf(people.admin))).filter((row) => row.name === "Leak");
    await clearTargetOverride(ctxOf(people.admin), leakId);
    expect(await targetsFor(ctxOf(people.technician), leakId, Priority.CRITICAL)).toEqual({ response: { minutes: 60, clock: "calendar" }, resolution: { minutes: 240, clock: "calendar" } });
    expect(await targetsFor(ctxOf(people.technician), leakId, Priority.LOW)).toEqual({ response: null, resolution: null });
    const view = await getIncidentTypeServiceLevels(ctxOf(people.admin), leakId);
    expect(view.overrides).toBe(false);
    expect(view.override.critical).toEqual(none);
    expect((await listTargetOverrides(ctxOf(people.admin))).map((row) => row.id)).not.toContain(leakId);
    // Saving every hour empty removes it too: the entity's targets apply.
    await setTargets(ctxOf(people.admin), leakId, { ...noTargets, high: { responseHours: "1" } });
    await setTargets(ctxOf(people.admin), leakId, noTargets);
    expect((await getIncidentTypeServiceLevels(ctxOf(people.admin), leakId)).overrides).toBe(false);
  });

  it("does not find another entity's incident type, nor an archived one, changing nothing", async () => {
    const archived = await createIncidentType(database.db, { entityId: people.entity.id, status: IncidentTypeStatus.ARCHIVED, archivedAt: new Date("2026-01-01T00:00:00Z") });
    const before = await snapshot(people.entity.id);
    expect(await rejectionOf(getIncidentTypeServiceLevels(ctxOf(people.admin), typeB.id))).toBeInstanceOf(NotFoundError);
    expect(await rejectionOf(getIncidentTypeServiceLevels(ctxOf(people.admin), archived.id))).toBeInstanceOf(NotFoundError);
    expect(await rejectionOf(getIncidentTypeServiceLevels(ctxOf(people.admin), 2147483647))).toBeInstanceOf(NotFoundError);
    expect(await rejectionOf(setTargets(ctxOf(people.admin), typeB.id, { ...noTargets, high: { responseHours: "1" } }))).toBeInstanceOf(NotFoundError);
    expect(await rejectionOf(clearTargetOverride(ctxOf(people.admin), typeB.id))).toBeInstanceOf(NotFoundError);
    expect(await snapshot(people.entity.id)).toEqual(before);
    expect((await listTargetOverrides(ctxOf(people.otherAdmin))).map((row) => row.id)).not.toContain(typeA.id);
  });

  it("refuses facility managers and technicians the type's screen and its two writes, changing nothing", async () => {
    await setTargets(ctxOf(people.admin), typeA.id, { ...noTargets, medium: { responseHours: "8" } });
    const before = await snapshot(people.entity.id);
    for (const user of [people.manager, people.technician]) {
      const ctx = ctxOf(user);
      for (const attempt of [
        getIncidentTypeServiceLevels(ctx, typeA.id),
        listTargetOverrides(ctx),
        setTargets(ctx, typeA.id, { ...noTargets, medium: { responseHours: "1" } }),
        clearTargetOverride(ctx, typeA.id),
      ]) {
        expect(await rejectionOf(attempt)).toBeInstanceOf(ForbiddenError);
      }
    }
    expect(await snapshot(people.entity.id)).toEqual(before);
    expect(await targetsFor(ctxOf(people.technician), typeA.id, Priority.MEDIUM)).toEqual({ response: { minutes: 480, clock: "working" }, resolution: null });
    await clearTargetOverride(ctxOf(people.admin), typeA.id);
  });
});

describe("the warning before a breach", () => {
  it("keeps the lead in minutes, or none", async () => {
    expect(await warningLead(ctxOf(people.admin))).toBeNull();
    await setWarningLead(ctxOf(people.admin), { warnBeforeMinutes: 30 });
    expect(await warningLead(ctxOf(people.technician))).toBe(30);
    expect((await getServiceLevelSettings(ctxOf(people.admin))).warnBeforeMinutes).toBe(30);
    await expectFieldError(setWarningLead(ctxOf(people.admin), { warnBeforeMinutes: 0 }), "warnBeforeMinutes", "serviceLevels:validation.warnBefore");
    await setWarningLead(ctxOf(people.admin), { warnBeforeMinutes: null });
    expect(await warningLead(ctxOf(people.admin))).toBeNull();
    await setWarningLead(ctxOf(people.admin), { warnBeforeMinutes: 30 });
  });

  it("emits a change event with every write", async () => {
    const changes = await database.db.select({ payload: changeEvents.payload }).from(changeEvents).where(and(eq(changeEvents.entityId, people.entity.id), eq(changeEvents.type, "serviceLevel.changed")));
    const parts = new Set(changes.map((c) => (c.payload as { part: string }).part));
    expect([...parts].sort()).toEqual(["closed-days", "targets", "warning-lead", "working-week"]);
  });
});

describe("refusals", () => {
  it("refuses another entity's closed day and incident type, changing nothing", async () => {
    const { id: dayOfB } = await addClosedDay(ctxOf(people.otherAdmin), { day: "2027-06-01", name: "B's day" });
    const beforeA = await snapshot(people.entity.id);
    const beforeB = await snapshot(people.other.id);
    expect(await rejectionOf(removeClosedDay(ctxOf(people.admin), { closedDayId: dayOfB }))).toBeInstanceOf(NotFoundError);
    expect(await rejectionOf(setTargets(ctxOf(people.admin), typeB.id, { ...noTargets, low: { responseHours: "1" } }))).toBeInstanceOf(NotFoundError);
    expect(await rejectionOf(clearTargetOverride(ctxOf(people.admin), typeB.id))).toBeInstanceOf(NotFoundError);
    expect(await rejectionOf(getTargetOverride(ctxOf(people.admin), typeB.id))).toBeInstanceOf(NotFoundError);
    expect(await snapshot(people.entity.id)).toEqual(beforeA);
    expect(await snapshot(people.other.id)).toEqual(beforeB);
    // And B's settings stay B's: A's calendar does not hold B's day.
    expect((await workingCalendar(ctxOf(people.admin))).closedDays.has("2027-06-01")).toBe(false);
  });

  it("refuses facility managers and technicians, changing nothing", async () => {
    const before = await snapshot(people.entity.id);
    const { closedDays } = await getServiceLevelSettings(ctxOf(people.admin));
    for (const user of [people.manager, people.technician]) {
      const ctx = ctxOf(user);
      const attempts = [
        setWorkingWeek(ctx, closedWeek),
        addClosedDay(ctx, { day: "2029-01-02", name: "x" }),
        removeClosedDay(ctx, { closedDayId: closedDays[0].id }),
        addPublicHolidays(ctx, { year: 2029, language: "en" }),
        setTargets(ctx, null, noTargets),
        setTargets(ctx, typeA.id, noTargets),
        clearTargetOverride(ctx, typeA.id),
        setWarningLead(ctx, { warnBeforeMinutes: 5 }),
        getServiceLevelSettings(ctx),
        getTargetOverride(ctx, typeA.id),
      ];
      for (const attempt of attempts) expect(await rejectionOf(attempt)).toBeInstanceOf(ForbiddenError);
    }
    expect(await snapshot(people.entity.id)).toEqual(before);
  });
});
