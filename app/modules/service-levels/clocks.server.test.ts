import { and, eq } from "drizzle-orm";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { withTx } from "~/core/unit-of-work.server";
import { type IncidentPriority, IncidentStatus, Priority, Role } from "~/db/enums";
import { type Entity, type Incident, type IncidentType, incidents, type Room, type User } from "~/db/schema";
import { assignIncident, setIncidentPriority, setIncidentStatus } from "~/modules/incidents/service.server";
import { NO_FILTERS } from "~/modules/incidents/filters";
import { listIncidents } from "~/modules/incidents/queries.server";
import { createReportedIncident } from "~/modules/incidents/writes.server";
import { createEntity, createIncident, createIncidentType, createRoom, createUser } from "#tests/factories";
import { actorContext } from "#tests/service-helpers";
import { setupTestDatabase } from "#tests/test-context";
import { type ClockStep, replayIncidentClocks } from "./clocks.server";
import type { TargetsInput, WorkingWeekInput } from "./schema";
import { setTargets, setWarningLead, setWorkingWeek } from "./service.server";

/**
 * The incident's stored clocks (decision 064, "The incident's clocks"), through the incident verbs.
 * Entity A works 08:00–17:00 Monday to Friday in Europe/Brussels (UTC+1 in December 2026); its High
 * priority has a 4 working-hour response and a 16 working-hour resolution target, Low an 8 working-hour
 * response and no resolution target; it warns an hour before. Entity B has other targets, and a type of
 * A overrides the High response with 2 calendar hours. Times below are written out by hand.
 */
const database = setupTestDatabase();
let entityA: Entity;
let entityB: Entity;
let entityC: Entity;
let adminA: User;
let adminB: User;
let adminC: User;
let roomA: Room;
let roomB: Room;
let roomC: Room;
let typeA: IncidentType;
let typeOverridden: IncidentType;
let typeB: IncidentType;
let typeC: IncidentType;

const ctxOf = (user: User) => actorContext(database.db, user);
const closed = {};
const office = { open: "on" as const, opens: "08:00", closes: "17:00" };
const week: WorkingWeekInput = { monday: office, tuesday: office, wednesday: office, thursday: office, friday: office, saturday: closed, sunday: closed };
const noTargets: TargetsInput = { low: {}, medium: {}, high: {}, critical: {}, none: {} };

/** Friday 4 December 2026, 16:30 in Brussels. */
const FRIDAY_1630 = new Date("2026-12-04T15:30:00Z");

/** At `instant`, as the verbs see the time. */
function at(instant: string) {
  vi.setSystemTime(new Date(instant));
}

async function report(user: User, room: Room, type: IncidentType, priority: IncidentPriority, reportedAt = FRIDAY_1630, assigneeId: number | null = null): Promise<Incident> {
  return withTx(ctxOf(user), (tx, effects) =>
    createReportedIncident(tx, effects, {
      title: "Leak",
      description: null,
      roomId: room.id,
      equipmentItemId: null,
      location: null,
      floor: null,
      priority,
      incidentTypeId: type.id,
      assigneeId,
      at: reportedAt,
    }),
  );
}

async function clocksOf(incident: Incident) {
  const [row] = await database.db
    .select()
    .from(incidents)
    .where(and(eq(incidents.id, incident.id), eq(incidents.entityId, incident.entityId)));
  return row;
}

/** The clocks of an incident just reported, as its report fixed them. */
async function clocksOfNew(...reported: Parameters<typeof report>) {
  return clocksOf(await report(...reported));
}

beforeAll(async () => {
  const db = database.db;
  entityA = await createEntity(db, { timeZone: "Europe/Brussels" });
  entityB = await createEntity(db, { timeZone: "Europe/Brussels" });
  entityC = await createEntity(db, { timeZone: "Europe/Brussels" });
  adminA = await createUser(db, { entityId: entityA.id, role: Role.ADMINISTRATOR });
  adminB = await createUser(db, { entityId: entityB.id, role: Role.ADMINISTRATOR });
  adminC = await createUser(db, { entityId: entityC.id, role: Role.ADMINISTRATOR });
  roomA = await createRoom(db, { entityId: entityA.id });
  roomB = await createRoom(db, { entityId: entityB.id });
  roomC = await createRoom(db, { entityId: entityC.id });
  typeA = await createIncidentType(db, { entityId: entityA.id });
  typeOverridden = await createIncidentType(db, { entityId: entityA.id });
  typeB = await createIncidentType(db, { entityId: entityB.id });
  typeC = await createIncidentType(db, { entityId: entityC.id });

  await setWorkingWeek(ctxOf(adminA), week);
  await setTargets(ctxOf(adminA), null, {
    ...noTargets,
    high: { responseHours: "4", responseClock: "working", resolutionHours: "16", resolutionClock: "working" },
    low: { responseHours: "8", responseClock: "working" },
  });
  await setTargets(ctxOf(adminA), typeOverridden.id, { ...noTargets, high: { responseHours: "2", responseClock: "calendar" } });
  await setWarningLead(ctxOf(adminA), { warnBeforeMinutes: 60 });
  // Entity B: no opening hours, a calendar hour for everything High. Entity C: nothing at all.
  await setTargets(ctxOf(adminB), null, { ...noTargets, high: { responseHours: "1", responseClock: "calendar", resolutionHours: "1", resolutionClock: "calendar" } });
});

afterEach(() => {
  vi.useRealTimers();
});

describe("an incident's clocks", () => {
  it("reported Friday 16:30 with a 4 working-hour response target is due Monday 11:30, its 16-hour resolution Tuesday 14:30", async () => {
    const incident = await report(adminA, roomA, typeA, Priority.HIGH);
    const row = await clocksOf(incident);
    expect(row).toMatchObject({
      responseTargetMinutes: 240,
      responseClock: "working",
      responseDueAt: new Date("2026-12-07T10:30:00Z"), // Monday 11:30 in Brussels
      responseElapsedMinutes: 0,
      respondedAt: null,
      responseMet: null,
      responseWarnAt: new Date("2026-12-07T09:30:00Z"), // an hour earlier
      resolutionTargetMinutes: 960,
      resolutionClock: "working",
      resolutionDueAt: new Date("2026-12-08T13:30:00Z"), // Tuesday 14:30: 0.5 h Friday, 9 h Monday, 6.5 h Tuesday
      resolutionElapsedMinutes: 0,
      resolvedAt: null,
      resolutionMet: null,
      resolutionWarnAt: new Date("2026-12-08T12:30:00Z"),
      nextDueAt: new Date("2026-12-07T10:30:00Z"),
      nextWarnAt: new Date("2026-12-07T09:30:00Z"),
    });
  });

  it("stops when rejected, keeping what it counted, and resumes with the remaining time when reopened", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const incident = await report(adminA, roomA, typeA, Priority.HIGH);

    at("2026-12-07T08:00:00Z"); // Monday 09:00: 0.5 h Friday and 1 h Monday counted
    await setIncidentStatus(ctxOf(adminA), incident.id, { status: IncidentStatus.REJECTED });
    expect(await clocksOf(incident)).toMatchObject({
      responseDueAt: null,
      responseElapsedMinutes: 90,
      responseWarnAt: null,
      responseMet: null,
      resolutionDueAt: null,
      resolutionElapsedMinutes: 90,
      nextDueAt: null,
      nextWarnAt: null,
    });

    at("2026-12-08T09:00:00Z"); // Tuesday 10:00: reopened
    await setIncidentStatus(ctxOf(adminA), incident.id, { status: IncidentStatus.PENDING });
    expect(await clocksOf(incident)).toMatchObject({
      responseDueAt: new Date("2026-12-08T11:30:00Z"), // 150 minutes left: Tuesday 12:30
      responseElapsedMinutes: 90,
      responseWarnAt: new Date("2026-12-08T10:30:00Z"),
      resolutionDueAt: new Date("2026-12-09T14:30:00Z"), // 870 minutes left: 7 h Tuesday, 7.5 h Wednesday: 15:30
      nextDueAt: new Date("2026-12-08T11:30:00Z"),
    });
  });

  it("meets the response when assigned and the resolution when Done, in time or not", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const incident = await report(adminA, roomA, typeA, Priority.HIGH);

    at("2026-12-07T09:00:00Z"); // Monday 10:00: 150 working minutes after the report, within 240
    await assignIncident(ctxOf(adminA), incident.id, { assigneeId: adminA.id });
    expect(await clocksOf(incident)).toMatchObject({
      respondedAt: new Date("2026-12-07T09:00:00Z"),
      responseMet: true,
      responseElapsedMinutes: 150,
      responseDueAt: null,
      responseWarnAt: null,
      resolutionDueAt: new Date("2026-12-08T13:30:00Z"),
      nextDueAt: new Date("2026-12-08T13:30:00Z"),
      nextWarnAt: new Date("2026-12-08T12:30:00Z"),
    });

    // In Progress later changes nothing more: the response was met once.
    at("2026-12-07T13:00:00Z");
    await setIncidentStatus(ctxOf(adminA), incident.id, { status: IncidentStatus.IN_PROGRESS });
    expect(await clocksOf(incident)).toMatchObject({ respondedAt: new Date("2026-12-07T09:00:00Z"), responseMet: true });

    at("2026-12-08T15:00:00Z"); // Tuesday 16:00, after the 14:30 due time: 1050 working minutes
    await setIncidentStatus(ctxOf(adminA), incident.id, { status: IncidentStatus.DONE });
    expect(await clocksOf(incident)).toMatchObject({
      resolvedAt: new Date("2026-12-08T15:00:00Z"),
      resolutionMet: false,
      resolutionElapsedMinutes: 1050,
      resolutionDueAt: null,
      nextDueAt: null,
      nextWarnAt: null,
    });
  });

  it("misses the response answered late, and meets a resolution done in time", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const incident = await report(adminA, roomA, typeA, Priority.HIGH);
    at("2026-12-07T11:00:00Z"); // Monday 12:00: 270 working minutes
    await setIncidentStatus(ctxOf(adminA), incident.id, { status: IncidentStatus.IN_PROGRESS });
    expect(await clocksOf(incident)).toMatchObject({ respondedAt: new Date("2026-12-07T11:00:00Z"), responseMet: false, responseElapsedMinutes: 270 });
    at("2026-12-07T15:00:00Z"); // Monday 16:00
    await setIncidentStatus(ctxOf(adminA), incident.id, { status: IncidentStatus.DONE });
    expect(await clocksOf(incident)).toMatchObject({ resolutionMet: true, resolutionElapsedMinutes: 510 });
  });

  it("meets the response at once for an incident reported with its first assignee", async () => {
    expect(await clocksOfNew(adminA, roomA, typeA, Priority.HIGH, FRIDAY_1630, adminA.id)).toMatchObject({ respondedAt: FRIDAY_1630, responseMet: true, responseDueAt: null, nextDueAt: new Date("2026-12-08T13:30:00Z") });
  });

  it("re-fixes the targets when the priority changes, keeping the time counted", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const incident = await report(adminA, roomA, typeA, Priority.HIGH);
    at("2026-12-07T08:00:00Z"); // Monday 09:00: 90 minutes counted
    await setIncidentPriority(ctxOf(adminA), incident.id, { priority: Priority.LOW });
    expect(await clocksOf(incident)).toMatchObject({
      responseTargetMinutes: 480,
      responseDueAt: new Date("2026-12-07T14:30:00Z"), // 390 minutes left from Monday 09:00: 15:30
      responseWarnAt: new Date("2026-12-07T13:30:00Z"),
      resolutionTargetMinutes: null, // Low has no resolution target
      resolutionDueAt: null,
      resolutionClock: null,
      nextDueAt: new Date("2026-12-07T14:30:00Z"),
    });
  });

  it("applies the incident type's override, in its own clock", async () => {
    expect(await clocksOfNew(adminA, roomA, typeOverridden, Priority.HIGH)).toMatchObject({
      responseTargetMinutes: 120,
      responseClock: "calendar",
      responseDueAt: new Date("2026-12-04T17:30:00Z"), // Friday 18:30: calendar hours
      resolutionTargetMinutes: 960, // the entity's own
      resolutionDueAt: new Date("2026-12-08T13:30:00Z"),
    });
  });

  it("uses only the incident's own entity's settings; an entity without targets stores nothing", async () => {
    expect(await clocksOfNew(adminB, roomB, typeB, Priority.HIGH)).toMatchObject({
      responseTargetMinutes: 60,
      responseClock: "calendar",
      responseDueAt: new Date("2026-12-04T16:30:00Z"), // an hour later: B's calendar clock, not A's working week
      responseWarnAt: null, // B warns nobody
      resolutionDueAt: new Date("2026-12-04T16:30:00Z"),
    });
    // A's Low has a target; C has none for any priority.
    const inC = await report(adminC, roomC, typeC, Priority.LOW);
    const row = await clocksOf(inC);
    for (const column of [
      "responseTargetMinutes",
      "responseClock",
      "responseDueAt",
      "responseElapsedMinutes",
      "respondedAt",
      "responseMet",
      "resolutionTargetMinutes",
      "resolutionDueAt",
      "resolutionMet",
      "nextDueAt",
      "nextWarnAt",
    ] as const) {
      expect(row[column], column).toBeNull();
    }
    await setIncidentStatus(ctxOf(adminC), inC.id, { status: IncidentStatus.DONE });
    expect(await clocksOf(inC)).toMatchObject({ resolvedAt: null, resolutionMet: null });
  });

  it("lists only the incidents whose clock runs past its due time under the \"breached\" filter", async () => {
    // Reported in 2020: long overdue. Reported in 2100: not due yet. Rejected in 2020: its clock stopped.
    const late = await report(adminA, roomA, typeA, Priority.HIGH, new Date("2020-01-06T08:00:00Z"));
    await report(adminA, roomA, typeA, Priority.HIGH, new Date("2100-01-04T08:00:00Z"));
    const stopped = await report(adminA, roomA, typeA, Priority.HIGH, new Date("2020-01-06T08:00:00Z"));
    await setIncidentStatus(ctxOf(adminA), stopped.id, { status: IncidentStatus.REJECTED });
    const page = await listIncidents(ctxOf(adminA), { page: 1, size: 100, sort: "createdAt", dir: "asc", q: "" }, { ...NO_FILTERS, statuses: [0, 1, 2, 3], due: "breached" });
    expect(page.items.map((row) => row.id)).toContain(late.id);
    expect(page.items.map((row) => row.id)).not.toContain(stopped.id);
    expect(page.items.every((row) => new Date(row.createdAt) < new Date("2099-01-01"))).toBe(true);
    // Entity B's overdue incidents are not A's.
    expect((await listIncidents(ctxOf(adminB), { page: 1, size: 100, sort: "createdAt", dir: "asc", q: "" }, { ...NO_FILTERS, due: "breached" })).items.map((row) => row.id)).not.toContain(late.id);
  });

  it("lists the incidents due within the next 4 working hours under the \"soon\" filter", async () => {
    // Reported now: a 2 calendar-hour response (the type's override) is due before 4 working hours
    // have passed, whenever now is; an 8 working-hour response (Low) is not.
    const soon = await report(adminA, roomA, typeOverridden, Priority.HIGH, new Date());
    const later = await report(adminA, roomA, typeA, Priority.LOW, new Date());
    const ids = (await listIncidents(ctxOf(adminA), { page: 1, size: 100, sort: "createdAt", dir: "asc", q: "" }, { ...NO_FILTERS, due: "soon" })).items.map((row) => row.id);
    expect(ids).toContain(soon.id);
    expect(ids).not.toContain(later.id);
  });
});

describe("replaying an incident's clocks from its history (rows written without the verbs)", () => {
  const CLOCK_COLUMNS = [
    "responseTargetMinutes",
    "responseClock",
    "responseDueAt",
    "responseElapsedMinutes",
    "respondedAt",
    "responseMet",
    "responseWarnAt",
    "resolutionTargetMinutes",
    "resolutionClock",
    "resolutionDueAt",
    "resolutionElapsedMinutes",
    "resolvedAt",
    "resolutionMet",
    "resolutionWarnAt",
    "nextDueAt",
    "nextWarnAt",
  ] as const;
  const clockColumns = (row: Incident) => Object.fromEntries(CLOCK_COLUMNS.map((key) => [key, row[key]]));

  it("gives the clocks the verbs would have given, through a priority change, a rejection, a reopening and Done", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const history: ClockStep[] = [
      { at: new Date("2026-12-07T08:00:00Z"), priority: Priority.LOW }, // Monday 09:00
      { at: new Date("2026-12-07T10:00:00Z"), status: IncidentStatus.REJECTED },
      { at: new Date("2026-12-08T09:00:00Z"), status: IncidentStatus.PENDING }, // Tuesday 10:00
      { at: new Date("2026-12-08T12:00:00Z"), assigneeId: adminA.id },
      { at: new Date("2026-12-09T10:00:00Z"), status: IncidentStatus.IN_PROGRESS },
      { at: new Date("2026-12-10T15:00:00Z"), status: IncidentStatus.DONE }, // Thursday 16:00
    ];
    const byVerbs = await report(adminA, roomA, typeA, Priority.HIGH);
    for (const step of history) {
      at(step.at.toISOString());
      if (step.priority !== undefined) await setIncidentPriority(ctxOf(adminA), byVerbs.id, { priority: step.priority });
      if (step.status !== undefined) await setIncidentStatus(ctxOf(adminA), byVerbs.id, { status: step.status });
      if (step.assigneeId !== undefined) await assignIncident(ctxOf(adminA), byVerbs.id, { assigneeId: step.assigneeId });
    }
    vi.useRealTimers();

    const written = await createIncident(database.db, {
      entityId: entityA.id,
      roomId: roomA.id,
      incidentTypeId: typeA.id,
      priority: Priority.LOW,
      status: IncidentStatus.DONE,
      assigneeId: adminA.id,
      createdAt: FRIDAY_1630,
      doneAt: new Date("2026-12-10T15:00:00Z"),
    });
    expect(written.responseTargetMinutes).toBeNull();
    // Out of order on purpose: the steps are replayed in time order.
    await replayIncidentClocks(ctxOf(adminA), written, Priority.HIGH, [...history].reverse());

    const expected = clockColumns(await clocksOf(byVerbs));
    expect(expected).toMatchObject({ responseTargetMinutes: 480, respondedAt: new Date("2026-12-08T12:00:00Z") });
    expect(clockColumns(await clocksOf(written))).toEqual(expected);
  });

  it("leaves an open incident's clock running from its report, overdue once past its due time", async () => {
    const written = await createIncident(database.db, {
      entityId: entityA.id,
      roomId: roomA.id,
      incidentTypeId: typeA.id,
      priority: Priority.HIGH,
      status: IncidentStatus.PENDING,
      createdAt: FRIDAY_1630,
    });
    await replayIncidentClocks(ctxOf(adminA), written, Priority.HIGH, []);
    expect(await clocksOf(written)).toMatchObject({
      responseDueAt: new Date("2026-12-07T10:30:00Z"),
      responseWarnAt: new Date("2026-12-07T09:30:00Z"),
      resolutionDueAt: new Date("2026-12-08T13:30:00Z"),
      nextDueAt: new Date("2026-12-07T10:30:00Z"),
    });
  });
});
