import { and, asc, eq, inArray } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { withTx } from "~/core/unit-of-work.server";
import { type Database, openDatabase } from "~/db/client.server";
import { IncidentStatus, NotificationType, Priority, Role } from "~/db/enums";
import { type Entity, type Incident, type IncidentType, incidents, notificationDetails, notifications, type Room, serviceLevelAlerts, type User } from "~/db/schema";
import { setIncidentStatus } from "~/modules/incidents/service.server";
import { createReportedIncident } from "~/modules/incidents/writes.server";
import { createBuilding, createEntity, createFacility, createIncidentType, createRoom, createUser, linkUserTo } from "#tests/factories";
import { actorContext } from "#tests/service-helpers";
import { setupTestDatabase } from "#tests/test-context";
import { runBreachPass } from "./alerts.server";
import type { TargetsInput } from "./schema";
import { setTargets, setWarningLead, setWorkingWeek } from "./service.server";

/**
 * The breach pass and its notifications (issue 62, decision 064 "Alerts"). Entity A works 08:00–17:00
 * Monday to Friday in Brussels (UTC+1 in December 2026); High has a 4 working-hour response and a 16
 * working-hour resolution target; people are warned an hour before. An incident reported on Friday
 * 4 December 16:30 is due for its response on Monday 11:30 (10:30 UTC), warned at 10:30 (09:30 UTC);
 * its resolution is due on Tuesday 14:30 (13:30 UTC), warned at 13:30 (12:30 UTC). Instants written out
 * by hand. Entity B has its own overdue incident and people.
 */
const database = setupTestDatabase({ services: true });
let second: Database;
let entityA: Entity;
let entityB: Entity;
let adminA: User;
let managerNorth: User;
let managerSouth: User;
let techNorth: User;
let otherTechNorth: User;
let adminB: User;
let roomNorth: Room;
let roomB: Room;
let typeA: IncidentType;
let typeB: IncidentType;

const office = { open: "on" as const, opens: "08:00", closes: "17:00" };
const closed = {};
const week = {
  monday: office,
  tuesday: office,
  wednesday: office,
  thursday: office,
  friday: office,
  saturday: closed,
  sunday: closed,
};
const high: TargetsInput = {
  low: {},
  medium: {},
  none: {},
  critical: {},
  high: {
    responseHours: "4",
    responseClock: "working",
    resolutionHours: "16",
    resolutionClock: "working",
  },
};
const FRIDAY_1630 = new Date("2026-12-04T15:30:00Z");

const ctxOf = (user: User) => actorContext(database.db, user);

async function report(user: User, room: Room, assigneeId: number | null = null, at = FRIDAY_1630): Promise<Incident> {
  vi.setSystemTime(at);
  return withTx(ctxOf(user), (tx, effects) =>
    createReportedIncident(tx, effects, {
      title: "Leak",
      description: null,
      roomId: room.id,
      equipmentItemId: null,
      location: null,
      floor: null,
      priority: Priority.HIGH,
      incidentTypeId: (room.entityId === entityA.id ? typeA : typeB).id,
      assigneeId,
      at,
    })
  );
}

/** The pass at `instant`, in the "process" given (its own connection pool on PostgreSQL). */
function passAt(instant: string, db = database.database) {
  return runBreachPass({ ...database.services.ctx(entityA.id, null), db: db.db }, new Date(instant));
}

/** Who was told what about `incident`, by type: the recipients' ids, once per notification. */
async function toldAbout(incident: Incident) {
  await database.services.queue.drain();
  const rows = await database.db
    .select({
      type: notificationDetails.type,
      userId: notifications.userId,
      message: notificationDetails.message,
    })
    .from(notifications)
    .innerJoin(notificationDetails, eq(notificationDetails.id, notifications.detailsId))
    .where(
      and(
        eq(notificationDetails.incidentId, incident.id),
        inArray(notificationDetails.type, [NotificationType.SERVICE_LEVEL_WARNING, NotificationType.SERVICE_LEVEL_BREACHED])
      )
    )
    .orderBy(asc(notifications.id));
  return rows.map((r) => ({
    type: r.type,
    userId: r.userId,
    side: r.message.serviceLevelSide,
  }));
}

beforeAll(async () => {
  const db = database.db;
  second = database.database.url ? await openDatabase({ url: database.database.url, poolMax: 3 }) : database.database;
  entityA = await createEntity(db, { timeZone: "Europe/Brussels" });
  entityB = await createEntity(db, { timeZone: "Europe/Brussels" });
  const north = await createFacility(db, {
    entityId: entityA.id,
    name: "North",
  });
  const south = await createFacility(db, {
    entityId: entityA.id,
    name: "South",
  });
  const northHall = await createBuilding(db, {
    entityId: entityA.id,
    facilityId: north.id,
  });
  await createBuilding(db, { entityId: entityA.id, facilityId: south.id });
  roomNorth = await createRoom(db, {
    entityId: entityA.id,
    buildingId: northHall.id,
  });
  roomB = await createRoom(db, { entityId: entityB.id });
  typeA = await createIncidentType(db, { entityId: entityA.id });
  typeB = await createIncidentType(db, { entityId: entityB.id });
  adminA = await createUser(db, {
    entityId: entityA.id,
    role: Role.ADMINISTRATOR,
    receiveNotification: true,
  });
  managerNorth = await createUser(db, {
    entityId: entityA.id,
    role: Role.FACILITY_MANAGER,
    receiveNotification: true,
  });
  managerSouth = await createUser(db, {
    entityId: entityA.id,
    role: Role.FACILITY_MANAGER,
    receiveNotification: true,
  });
  techNorth = await createUser(db, {
    entityId: entityA.id,
    role: Role.TECHNICIAN,
    receiveNotification: true,
  });
  otherTechNorth = await createUser(db, {
    entityId: entityA.id,
    role: Role.TECHNICIAN,
    receiveNotification: true,
  });
  adminB = await createUser(db, {
    entityId: entityB.id,
    role: Role.ADMINISTRATOR,
    receiveNotification: true,
  });
  await linkUserTo(db, {
    entityId: entityA.id,
    userId: managerNorth.id,
    facilityId: north.id,
  });
  await linkUserTo(db, {
    entityId: entityA.id,
    userId: managerSouth.id,
    facilityId: south.id,
  });
  await linkUserTo(db, {
    entityId: entityA.id,
    userId: techNorth.id,
    facilityId: north.id,
  });
  await linkUserTo(db, {
    entityId: entityA.id,
    userId: otherTechNorth.id,
    facilityId: north.id,
  });
  for (const admin of [adminA, adminB]) {
    await setWorkingWeek(ctxOf(admin), week);
    await setTargets(ctxOf(admin), null, high);
    await setWarningLead(ctxOf(admin), { warnBeforeMinutes: 60 });
  }
  vi.useFakeTimers({ toFake: ["Date"] });
});

afterEach(() => {
  vi.setSystemTime(new Date());
});

afterAll(async () => {
  vi.useRealTimers();
  if (second && second !== database.database) await second.close();
});

describe("the breach pass", () => {
  it("warns before the response is due and tells of its breach, once each though two processes run it, and only people who reach the incident", async () => {
    const incident = await report(adminA, roomNorth);
    const [row] = await database.db.select().from(incidents).where(eq(incidents.id, incident.id));
    expect(row.responseDueAt).toEqual(new Date("2026-12-07T10:30:00Z"));
    expect(row.nextWarnAt).toEqual(new Date("2026-12-07T09:30:00Z"));

    // Monday 10:00 local: nothing yet.
    await passAt("2026-12-07T09:00:00Z");
    expect(await toldAbout(incident)).toEqual([]);

    // Monday 10:31 local, two processes at once: one warning, told to the managers who reach it (the
    // administrator and the North manager; not the South manager, not the unassigned technicians).
    const [one, two] = await Promise.all([passAt("2026-12-07T09:31:00Z"), passAt("2026-12-07T09:31:00Z", second)]);
    expect(one.raised + two.raised).toBe(1);
    expect(await toldAbout(incident)).toEqual([
      {
        type: NotificationType.SERVICE_LEVEL_WARNING,
        userId: adminA.id,
        side: "response",
      },
      {
        type: NotificationType.SERVICE_LEVEL_WARNING,
        userId: managerNorth.id,
        side: "response",
      },
    ]);
    // The next instant is the response's due time.
    const [moved] = await database.db.select({ next: incidents.nextWarnAt }).from(incidents).where(eq(incidents.id, incident.id));
    expect(moved.next).toEqual(new Date("2026-12-07T10:30:00Z"));

    // Monday 11:31 local, twice over in two processes: one breach.
    await Promise.all([passAt("2026-12-07T10:31:00Z"), passAt("2026-12-07T10:31:00Z", second)]);
    await passAt("2026-12-07T10:32:00Z");
    const told = await toldAbout(incident);
    expect(told.filter((t) => t.type === NotificationType.SERVICE_LEVEL_BREACHED)).toEqual([
      {
        type: NotificationType.SERVICE_LEVEL_BREACHED,
        userId: adminA.id,
        side: "response",
      },
      {
        type: NotificationType.SERVICE_LEVEL_BREACHED,
        userId: managerNorth.id,
        side: "response",
      },
    ]);

    // Rejected and reopened: the clock resumes past its due time; the breach is not told again.
    vi.setSystemTime(new Date("2026-12-07T10:40:00Z"));
    await setIncidentStatus(ctxOf(adminA), incident.id, {
      status: IncidentStatus.REJECTED,
    });
    vi.setSystemTime(new Date("2026-12-07T10:45:00Z"));
    await setIncidentStatus(ctxOf(adminA), incident.id, {
      status: IncidentStatus.PENDING,
    });
    await passAt("2026-12-07T10:50:00Z");
    expect(await toldAbout(incident)).toEqual(told);
    const alerts = await database.db
      .select({
        side: serviceLevelAlerts.side,
        stage: serviceLevelAlerts.stage,
      })
      .from(serviceLevelAlerts)
      .where(eq(serviceLevelAlerts.incidentId, incident.id))
      .orderBy(asc(serviceLevelAlerts.id));
    expect(alerts).toEqual([
      { side: "response", stage: "warning" },
      { side: "response", stage: "breach" },
    ]);
  });

  it("tells the assignee of the resolution's warning and breach", async () => {
    const incident = await report(adminA, roomNorth, techNorth.id);
    await passAt("2026-12-08T12:31:00Z");
    expect(await toldAbout(incident)).toEqual([
      {
        type: NotificationType.SERVICE_LEVEL_WARNING,
        userId: adminA.id,
        side: "resolution",
      },
      {
        type: NotificationType.SERVICE_LEVEL_WARNING,
        userId: managerNorth.id,
        side: "resolution",
      },
      {
        type: NotificationType.SERVICE_LEVEL_WARNING,
        userId: techNorth.id,
        side: "resolution",
      },
    ]);
    // Done before the breach: nothing more.
    vi.setSystemTime(new Date("2026-12-08T13:00:00Z"));
    await setIncidentStatus(ctxOf(techNorth), incident.id, {
      status: IncidentStatus.DONE,
    });
    await passAt("2026-12-08T13:31:00Z");
    expect(await toldAbout(incident)).toHaveLength(3);
  });

  it("records an alert whose instant passed more than a day ago without telling anyone", async () => {
    const incident = await report(adminA, roomNorth, null, new Date("2026-11-02T09:00:00Z"));
    await passAt("2026-12-07T09:00:00Z");
    expect(await toldAbout(incident)).toEqual([]);
    const alerts = await database.db
      .select({
        side: serviceLevelAlerts.side,
        stage: serviceLevelAlerts.stage,
        notified: serviceLevelAlerts.notified,
      })
      .from(serviceLevelAlerts)
      .where(eq(serviceLevelAlerts.incidentId, incident.id))
      .orderBy(asc(serviceLevelAlerts.side));
    expect(alerts).toEqual([
      { side: "resolution", stage: "breach", notified: false },
      { side: "response", stage: "breach", notified: false },
    ]);
    const [row] = await database.db.select({ next: incidents.nextWarnAt }).from(incidents).where(eq(incidents.id, incident.id));
    expect(row.next).toBeNull();
  });

  it("keeps each entity's alerts to its own people", async () => {
    const incidentB = await report(adminB, roomB, null, new Date("2026-12-07T08:00:00Z"));
    // Monday 09:00 local + 4 working hours: due 13:00 local (12:00 UTC).
    await passAt("2026-12-07T12:01:00Z");
    const told = await toldAbout(incidentB);
    expect(told).toEqual([
      {
        type: NotificationType.SERVICE_LEVEL_BREACHED,
        userId: adminB.id,
        side: "response",
      },
    ]);
  });
});
