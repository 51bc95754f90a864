import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "~/db/client.server";
import { IncidentStatus, Priority, Role } from "~/db/enums";
import { entities, type Entity, type Incident, incidents, type User } from "~/db/schema";
import { ForbiddenError, NotFoundError } from "~/lib/errors";
import { createBuilding, createEntity, createIncident, createIncidentType, createRoom, createUser, linkUserTo } from "#tests/factories";
import { actorContext, rejectionOf } from "#tests/service-helpers";
import { createTestDatabase } from "#tests/test-db";
import { type DashboardFilters, incidentsHref, parseDashboardFilters } from "./filters";
import { type DashboardFigures, getDashboard } from "./queries.server";

/**
 * Hand-computed figures over a small fixed data set (entity in Europe/Brussels), period January to
 * June 2026. Incidents (UTC):
 *  1  2026-01-10 10:00  Leak   room A  High      Done 24 h later              Ann
 *  2  2026-03-28 12:00  Leak   room A  High      Done 2026-03-30 12:00 (48 h across the DST change)  Ann
 *  3  2026-03-31 22:30  Light  room B  none      Pending (00:30 on 1 April in Brussels: April)  unassigned
 *  4  2026-04-15 08:00  Light  room B  Low       Rejected, done_at set 100 h later (not handling time)  Bob
 *  5  2026-05-20 09:00  Leak   room B  Medium    In Progress                   Bob
 *  6  2026-06-30 21:30  Light  room A  Low       Done 6 h later (23:30 on 30 June in Brussels: June)  Bob
 *  7  2026-06-30 22:30  Leak   room A  High      Pending (1 July in Brussels: outside the period)
 *  8  2025-12-31 23:30  Light  room A  Critical  Archived (1 January in Brussels)   Ann
 *  9  2026-02-05 10:00  none   no room none      Pending                        Mia (the manager)
 * 10  2026-02-06 10:00  Leak   room A  Medium    Done, archived_at set (never counted)
 * and one incident of another entity in March.
 */
let database: Database;
let entity: Entity;
let other: Entity;
let admin: User;
let manager: User;
let technician: User;
let ann: User;
let bob: User;
let facilityB: number;
let otherFacility: number;
let leak: number;
let light: number;
const made: Incident[] = [];

const period: DashboardFilters = { facilityId: null, buildingId: null, incidentTypeId: null, from: "2026-01-01", to: "2026-06-30" };
const ctxOf = (user: User) => actorContext(database.db, user);
const at = (iso: string) => new Date(iso);
const hoursAfter = (iso: string, h: number) => new Date(Date.parse(iso) + h * 3600_000);

beforeAll(async () => {
  database = await createTestDatabase();
  const db = database.db;
  entity = await createEntity(db);
  other = await createEntity(db);
  admin = await createUser(db, { entityId: entity.id, role: Role.ADMINISTRATOR, name: "Ada", surname: "Admin" });
  manager = await createUser(db, { entityId: entity.id, role: Role.FACILITY_MANAGER, name: "Mia", surname: "Manager" });
  technician = await createUser(db, { entityId: entity.id, role: Role.TECHNICIAN, name: "Tom", surname: "Tech" });
  ann = await createUser(db, { entityId: entity.id, role: Role.TECHNICIAN, name: "Ann", surname: "Able" });
  bob = await createUser(db, { entityId: entity.id, role: Role.TECHNICIAN, name: "Bob", surname: "Baker" });
  const buildingA = await createBuilding(db, { entityId: entity.id });
  const buildingB = await createBuilding(db, { entityId: entity.id });
  facilityB = buildingB.facilityId;
  const roomA = await createRoom(db, { entityId: entity.id, buildingId: buildingA.id });
  const roomB = await createRoom(db, { entityId: entity.id, buildingId: buildingB.id });
  await linkUserTo(db, { entityId: entity.id, userId: manager.id, buildingId: buildingA.id });
  leak = (await createIncidentType(db, { entityId: entity.id, nameEn: "Leak", nameFr: "Fuite" })).id;
  light = (await createIncidentType(db, { entityId: entity.id, nameEn: "Light", nameFr: "Lumière" })).id;
  const e = entity.id;
  const specs: Parameters<typeof createIncident>[1][] = [
    { entityId: e, createdAt: at("2026-01-10T10:00Z"), incidentTypeId: leak, roomId: roomA.id, priority: Priority.HIGH, status: IncidentStatus.DONE, doneAt: hoursAfter("2026-01-10T10:00Z", 24), assigneeId: ann.id },
    { entityId: e, createdAt: at("2026-03-28T12:00Z"), incidentTypeId: leak, roomId: roomA.id, priority: Priority.HIGH, status: IncidentStatus.DONE, doneAt: at("2026-03-30T12:00Z"), assigneeId: ann.id },
    { entityId: e, createdAt: at("2026-03-31T22:30Z"), incidentTypeId: light, roomId: roomB.id, priority: null },
    { entityId: e, createdAt: at("2026-04-15T08:00Z"), incidentTypeId: light, roomId: roomB.id, priority: Priority.LOW, status: IncidentStatus.REJECTED, doneAt: hoursAfter("2026-04-15T08:00Z", 100), assigneeId: bob.id },
    { entityId: e, createdAt: at("2026-05-20T09:00Z"), incidentTypeId: leak, roomId: roomB.id, priority: Priority.MEDIUM, status: IncidentStatus.IN_PROGRESS, assigneeId: bob.id },
    { entityId: e, createdAt: at("2026-06-30T21:30Z"), incidentTypeId: light, roomId: roomA.id, priority: Priority.LOW, status: IncidentStatus.DONE, doneAt: hoursAfter("2026-06-30T21:30Z", 6), assigneeId: bob.id },
    { entityId: e, createdAt: at("2026-06-30T22:30Z"), incidentTypeId: leak, roomId: roomA.id, priority: Priority.HIGH },
    { entityId: e, createdAt: at("2025-12-31T23:30Z"), incidentTypeId: light, roomId: roomA.id, priority: Priority.CRITICAL, status: IncidentStatus.ARCHIVED, assigneeId: ann.id },
    { entityId: e, createdAt: at("2026-02-05T10:00Z"), priority: null, assigneeId: manager.id },
    { entityId: e, createdAt: at("2026-02-06T10:00Z"), incidentTypeId: leak, roomId: roomA.id, status: IncidentStatus.DONE, archivedAt: at("2026-02-07T10:00Z") },
  ];
  for (const spec of specs) made.push(await createIncident(db, spec));
  const otherBuilding = await createBuilding(db, { entityId: other.id });
  otherFacility = otherBuilding.facilityId;
  const otherRoom = await createRoom(db, { entityId: other.id, buildingId: otherBuilding.id });
  await createIncident(db, { entityId: other.id, createdAt: at("2026-03-10T10:00Z"), roomId: otherRoom.id, status: IncidentStatus.DONE });
});

afterAll(async () => {
  await database?.close();
});

/** The figures without the parts that name the source or the request. */
const figures = (d: DashboardFigures) => {
  const { fromCounters: _f, ...rest } = d;
  return rest;
};

describe(`dashboard figures (${process.env.DATABASE_URL ? "PostgreSQL" : "PGlite"})`, () => {
  it("counts the administrator's six months by the months of Brussels, from the counters and from the incidents alike", async () => {
    const d = await getDashboard(ctxOf(admin), period);
    expect(d.fromCounters).toBe(true);
    expect(d.timeZone).toBe("Europe/Brussels");
    expect(d.months.map((m) => [m.month, m.created, m.done, m.rejected, m.open])).toEqual([
      ["2026-01", 2, 1, 0, 0],
      ["2026-02", 1, 0, 0, 1],
      ["2026-03", 1, 1, 0, 0],
      ["2026-04", 2, 0, 1, 1],
      ["2026-05", 1, 0, 0, 1],
      ["2026-06", 1, 1, 0, 0],
    ]);
    expect(d.total).toBe(8);
    expect(d.types).toEqual([
      { id: light, name: "Light", count: 4, share: 0.5 },
      { id: leak, name: "Leak", count: 3, share: 0.375 },
      { id: null, name: null, count: 1, share: 0.125 },
    ]);
    expect(d.assignees).toEqual([
      { id: ann.id, name: "Ann Able", open: 0, done: 2, averageHours: 36 },
      { id: bob.id, name: "Bob Baker", open: 1, done: 1, averageHours: 6 },
      { id: null, name: null, open: 1, done: 0, averageHours: null },
      { id: manager.id, name: "Mia Manager", open: 1, done: 0, averageHours: null },
    ]);
    // (24 + 48 + 6) / 3; the rejected incident's 100 h are not handling time.
    expect(d.handling).toEqual({ done: 3, averageHours: 26 });
    expect(d.handlingByPriority).toEqual([
      { priority: null, done: 0, averageHours: null },
      { priority: 0, done: 1, averageHours: 6 },
      { priority: 1, done: 0, averageHours: null },
      { priority: 2, done: 2, averageHours: 36 },
      { priority: 3, done: 0, averageHours: null },
    ]);
    expect(d.byStatus.map((s) => s.count)).toEqual([2, 1, 3, 1, 1]);
    expect(d.byPriority.map((p) => [p.priority, p.count])).toEqual([[null, 2], [0, 2], [1, 1], [2, 2], [3, 1]]);

    const counted = await getDashboard(ctxOf(admin), period, { countIncidents: true });
    expect(counted.fromCounters).toBe(false);
    expect(figures(counted)).toEqual(figures(d));
  });

  it("keeps the counters in the writing transaction: a status change, an archive, a new time zone", async () => {
    const db = database.db;
    const five = made[4];
    await db.update(incidents).set({ status: IncidentStatus.DONE, doneAt: hoursAfter("2026-05-20T09:00Z", 10) }).where(eq(incidents.id, five.id));
    await db.update(incidents).set({ archivedAt: new Date() }).where(eq(incidents.id, made[0].id));
    try {
      const d = await getDashboard(ctxOf(admin), period);
      expect(d.months.map((m) => [m.created, m.done, m.open])).toEqual([[1, 0, 0], [1, 0, 1], [1, 1, 0], [2, 0, 1], [1, 1, 0], [1, 1, 0]]);
      expect(d.handling).toEqual({ done: 3, averageHours: 21.3 }); // (48 + 10 + 6) / 3
      expect(figures(await getDashboard(ctxOf(admin), period, { countIncidents: true }))).toEqual(figures(d));

      // In UTC, incident 3 falls in March, incident 7 in June and incident 8 in December.
      // (The request's context carries the zone read with its session: the next request's is UTC.)
      await db.update(entities).set({ timeZone: "UTC" }).where(eq(entities.id, entity.id));
      const inUtc = actorContext(db, admin, { timeZone: "UTC" });
      const utc = await getDashboard(inUtc, period);
      expect(utc.timeZone).toBe("UTC");
      expect(utc.months.map((m) => m.created)).toEqual([0, 1, 2, 1, 1, 2]);
      expect(figures(await getDashboard(inUtc, period, { countIncidents: true }))).toEqual(figures(utc));
    } finally {
      await db.update(entities).set({ timeZone: "Europe/Brussels" }).where(eq(entities.id, entity.id));
      await db.update(incidents).set({ status: IncidentStatus.IN_PROGRESS, doneAt: null }).where(eq(incidents.id, five.id));
      await db.update(incidents).set({ archivedAt: null }).where(eq(incidents.id, made[0].id));
    }
  });

  it("limits a facility manager to their reach: the rooms of their building and what is assigned to them", async () => {
    const d = await getDashboard(ctxOf(manager), period);
    // One building of two: the entity's counters less what lies outside the reach.
    expect(d.fromCounters).toBe(true);
    expect(d.months.map((m) => [m.created, m.done, m.rejected, m.open])).toEqual([[2, 1, 0, 0], [1, 0, 0, 1], [1, 1, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [1, 1, 0, 0]]);
    expect(d.assignees.map((a) => [a.name, a.open, a.done, a.averageHours])).toEqual([
      ["Ann Able", 0, 2, 36],
      ["Bob Baker", 0, 1, 6],
      ["Mia Manager", 1, 0, null],
    ]);
    expect(figures(await getDashboard(ctxOf(manager), period, { countIncidents: true }))).toEqual(figures(d));
    // The facility of building B is outside the manager's reach.
    expect(await rejectionOf(getDashboard(ctxOf(manager), { ...period, facilityId: facilityB }))).toBeInstanceOf(NotFoundError);
  });

  it("counts a manager's reach the same way from the counters less the outside and from their incidents, with a type, a cut period, a narrower reach", async () => {
    const cases: [DashboardFilters, boolean][] = [
      [{ ...period, incidentTypeId: leak }, true],
      [{ ...period, incidentTypeId: light }, true],
      [{ ...period, to: "2026-05-31" }, true],
      [{ ...period, from: "2026-03-15" }, false],
    ];
    for (const [filters, fromCounters] of cases) {
      const d = await getDashboard(ctxOf(manager), filters);
      expect(d.fromCounters).toBe(fromCounters);
      expect(figures(await getDashboard(ctxOf(manager), filters, { countIncidents: true }))).toEqual(figures(d));
    }
    const leaks = await getDashboard(ctxOf(manager), { ...period, incidentTypeId: leak });
    expect(leaks.months.map((m) => m.created)).toEqual([1, 0, 1, 0, 0, 0]);
    expect(leaks.assignees.map((a) => [a.name, a.open, a.done])).toEqual([["Ann Able", 0, 2]]);

    // Two more buildings: one of four is less than half, so the reach's incidents are counted.
    await createBuilding(database.db, { entityId: entity.id });
    await createBuilding(database.db, { entityId: entity.id });
    const narrow = await getDashboard(ctxOf(manager), period);
    expect(narrow.fromCounters).toBe(false);
    expect(narrow.months.map((m) => m.created)).toEqual([2, 1, 1, 0, 0, 1]);
  });

  it("filters by facility and by incident type", async () => {
    const b = await getDashboard(ctxOf(admin), { ...period, facilityId: facilityB });
    expect(b.months.map((m) => m.created)).toEqual([0, 0, 0, 2, 1, 0]);
    expect(b.types.map((t) => [t.name, t.count])).toEqual([["Light", 2], ["Leak", 1]]);
    const t = await getDashboard(ctxOf(admin), { ...period, incidentTypeId: leak });
    expect(t.fromCounters).toBe(true);
    expect(t.months.map((m) => m.created)).toEqual([1, 0, 1, 0, 1, 0]);
    expect(t.assignees.map((a) => [a.name, a.open, a.done, a.averageHours])).toEqual([["Ann Able", 0, 2, 36], ["Bob Baker", 1, 0, null]]);
    expect(figures(await getDashboard(ctxOf(admin), { ...period, incidentTypeId: leak }, { countIncidents: true }))).toEqual(figures(t));
  });

  it("counts a period that cuts months from the incidents, by the days of Brussels", async () => {
    const d = await getDashboard(ctxOf(admin), { ...period, from: "2026-04-01", to: "2026-06-30" });
    expect(d.months.map((m) => m.created)).toEqual([2, 1, 1]);
    const cut = await getDashboard(ctxOf(admin), { ...period, from: "2026-03-15", to: "2026-04-10" });
    expect(cut.fromCounters).toBe(false);
    expect(cut.months.map((m) => [m.month, m.from, m.to, m.created])).toEqual([["2026-03", "2026-03-15", "2026-03-31", 1], ["2026-04", "2026-04-01", "2026-04-10", 1]]);
  });

  it("never counts another entity's incidents, and refuses another entity's filters and technicians", async () => {
    const d = await getDashboard(ctxOf(admin), { ...period, from: "2026-03-01", to: "2026-03-31" });
    expect(d.total).toBe(1);
    expect(await rejectionOf(getDashboard(ctxOf(admin), { ...period, facilityId: otherFacility }))).toBeInstanceOf(NotFoundError);
    expect(await rejectionOf(getDashboard(ctxOf(technician), period))).toBeInstanceOf(ForbiddenError);
  });

  it("shows the last six months by default and links figures to the incidents table", async () => {
    const d = await getDashboard(ctxOf(admin), parseDashboardFilters(new URLSearchParams()));
    expect(d.months).toHaveLength(6);
    expect(d.period.custom).toBe(false);
    expect(d.period.from.endsWith("-01")).toBe(true);
    const href = incidentsHref({ ...period, facilityId: 7 }, { from: "2026-01-01", to: "2026-06-30", custom: true }, { statuses: [IncidentStatus.DONE], assignee: "none" });
    expect(href).toBe("/incidents?view=table&status=2&assignee=none&facility=7&from=2026-01-01&to=2026-06-30");
  });
});

describe("an entity in New York: the dashboard's months and days are New York's", () => {
  /**
   * Incidents an hour either side of New York's month ends (UTC): in Brussels time every one of them is
   * already in the next month.
   *  a  2026-03-01 04:30  28 Feb 23:30 EST   February
   *  b  2026-03-01 05:30   1 Mar 00:30 EST   March
   *  c  2026-04-01 03:30  31 Mar 23:30 EDT   March (after the change of 8 March)
   *  d  2026-11-01 03:30  31 Oct 23:30 EDT   October
   *  e  2026-11-01 04:30   1 Nov 00:30 EDT   November (the change is later that night)
   *  f  2026-12-01 04:30  30 Nov 23:30 EST   November
   */
  const nyPeriod: DashboardFilters = { facilityId: null, buildingId: null, incidentTypeId: null, from: "2026-02-01", to: "2026-12-31" };
  let ny: Entity;
  let nyAdmin: User;
  const nyCtx = () => actorContext(database.db, nyAdmin, { timeZone: ny.timeZone });

  beforeAll(async () => {
    const db = database.db;
    ny = await createEntity(db, { timeZone: "America/New_York" });
    nyAdmin = await createUser(db, { entityId: ny.id, role: Role.ADMINISTRATOR });
    const building = await createBuilding(db, { entityId: ny.id });
    const place = await createRoom(db, { entityId: ny.id, buildingId: building.id });
    for (const at of ["2026-03-01T04:30Z", "2026-03-01T05:30Z", "2026-04-01T03:30Z", "2026-11-01T03:30Z", "2026-11-01T04:30Z", "2026-12-01T04:30Z"]) {
      await createIncident(db, { entityId: ny.id, roomId: place.id, createdAt: new Date(at) });
    }
  });

  it("counts by New York's months, from the counters and from the incidents alike", async () => {
    const d = await getDashboard(nyCtx(), nyPeriod);
    expect(d.timeZone).toBe("America/New_York");
    expect(d.fromCounters).toBe(true);
    const created = Object.fromEntries(d.months.map((m) => [m.month, m.created]));
    expect(created).toMatchObject({ "2026-02": 1, "2026-03": 2, "2026-04": 0, "2026-10": 1, "2026-11": 2, "2026-12": 0 });
    expect(d.total).toBe(6);
    expect(figures(await getDashboard(nyCtx(), nyPeriod, { countIncidents: true }))).toEqual(figures(d));
  });

  it("cuts a period at New York's midnights, on both sides of each change", async () => {
    const days = async (from: string, to: string) => (await getDashboard(nyCtx(), { ...nyPeriod, from, to })).total;
    expect(await days("2026-02-28", "2026-02-28")).toBe(1);
    expect(await days("2026-03-01", "2026-03-31")).toBe(2);
    expect(await days("2026-03-31", "2026-03-31")).toBe(1);
    expect(await days("2026-10-31", "2026-10-31")).toBe(1);
    expect(await days("2026-11-01", "2026-11-01")).toBe(1);
    expect(await days("2026-11-30", "2026-11-30")).toBe(1);
  });

  it("ends the default six months on New York's today", async () => {
    const holder = globalThis as unknown as { __caretakerClockOffsetMs?: number };
    // 03:30 UTC on 1 December: 30 November, 22:30 in New York; 1 December, 04:30 in Brussels.
    holder.__caretakerClockOffsetMs = Date.parse("2026-12-01T03:30:00Z") - Date.now();
    try {
      const d = await getDashboard(nyCtx(), parseDashboardFilters(new URLSearchParams()));
      expect(d.period).toEqual({ from: "2026-06-01", to: "2026-11-30", custom: false });
      expect(d.months.map((m) => m.month)).toEqual(["2026-06", "2026-07", "2026-08", "2026-09", "2026-10", "2026-11"]);
      expect(d.months.at(-1)).toMatchObject({ month: "2026-11", created: 2 });
      // The same moment read in Brussels time is already 1 December.
      const inBrussels = await getDashboard(actorContext(database.db, nyAdmin), parseDashboardFilters(new URLSearchParams()));
      expect(inBrussels.period.to).toBe("2026-12-01");
    } finally {
      holder.__caretakerClockOffsetMs = 0;
    }
  });
});
