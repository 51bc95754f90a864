import { and, eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { personActor } from "~/core/actor";
import type { LiveEvent } from "~/core/events.server";
import type { Database } from "~/db/client.server";
import { IncidentEventType, IncidentStatus, NotificationType, Priority, Role } from "~/db/enums";
import { type Building, type Entity, incidentEvents, incidentReporters, notificationDetails, notifications, reportIdentifiers, type RoomType, type User } from "~/db/schema";
import { archiveIncidentType } from "~/modules/incident-types/service.server";
import { reportIncident } from "~/modules/occupier-reports/service.server";
import { archiveRoom } from "~/modules/rooms/service.server";
import { createBuilding, createEntity, createIncident, createIncidentType, createRoom, createRoomType, createUser, linkUserTo } from "#tests/factories";
import { createTestServices, type TestServices } from "#tests/test-context";
import { createTestDatabase } from "#tests/test-db";
import { setIncidentStatus } from "./service.server";

/**
 * The incidents' writes for other areas (./writes.server.ts): an occupier's report, archiving a place
 * and archiving an incident type change incidents with exactly the notifications, live events and
 * reporters' mails that the same change made through the incidents' own verbs gives (decision 048).
 */
let database: Database;
let services: TestServices;
// Each test has an entity of its own: a mail is a digest once someone gets more than three a minute.
let entity: Entity;
let building: Building;
let roomType: RoomType;
let manager: User;
let technician: User;
let watcher: User;
let admin: User;

beforeAll(async () => {
  database = await createTestDatabase();
  services = await createTestServices(database);
});
beforeEach(async () => {
  const db = database.db;
  entity = await createEntity(db);
  building = await createBuilding(db, { entityId: entity.id });
  roomType = await createRoomType(db, { entityId: entity.id });
  manager = await createUser(db, { entityId: entity.id, role: Role.FACILITY_MANAGER });
  technician = await createUser(db, { entityId: entity.id, role: Role.TECHNICIAN, receiveNotification: true });
  watcher = await createUser(db, { entityId: entity.id, role: Role.TECHNICIAN, receiveNotification: true });
  admin = await createUser(db, { entityId: entity.id, role: Role.ADMINISTRATOR });
  for (const user of [manager, technician, watcher]) await linkUserTo(db, { entityId: entity.id, userId: user.id, facilityId: building.facilityId });
});
afterAll(async () => {
  await services?.close();
  await database?.close();
});

const ctxOf = (user: User) => services.ctx(entity.id, personActor(user));

/** Everything that followed from changes to `incidentId`: notifications (type, recipients), live events, mails. */
async function aftermath(incidentId: number, since: number, mailsBefore: number) {
  const told = await database.db
    .select({ type: notificationDetails.type, userId: notifications.userId })
    .from(notifications)
    .innerJoin(notificationDetails, eq(notificationDetails.id, notifications.detailsId))
    .where(eq(notificationDetails.incidentId, incidentId));
  const notifiedIds = new Set(
    (await database.db.select({ id: notifications.id }).from(notifications).innerJoin(notificationDetails, eq(notificationDetails.id, notifications.detailsId)).where(eq(notificationDetails.incidentId, incidentId))).map((r) => r.id),
  );
  const live = services.events.published
    .slice(since)
    .filter((e: LiveEvent) => e.data?.incidentId === incidentId || (e.type === "notification.created" && (e.data?.notificationIds as number[]).some((id) => notifiedIds.has(id))))
    .map((e) => (e.type === "notification.created" ? `${e.type}:${e.data?.notificationType}:${e.userIds?.join(",")}` : e.type))
    .sort();
  const mails = (await services.mails()).slice(mailsBefore).map((m) => m.to).sort();
  return { notifications: told.map((t) => `${t.type}:${t.userId}`).sort(), live, mails };
}

async function roomWithOpenIncident(reporter: string) {
  const room = await createRoom(database.db, { entityId: entity.id, buildingId: building.id, roomTypeId: roomType.id });
  const incident = await createIncident(database.db, { entityId: entity.id, roomId: room.id, assigneeId: technician.id, status: IncidentStatus.IN_PROGRESS, reporterEmails: [reporter] });
  // A reporter who left an email holds a status link (only they are told of the closing).
  await database.db.update(incidentReporters).set({ statusTokenHash: `hash-${incident.id}`, locale: "en" }).where(eq(incidentReporters.incidentId, incident.id));
  return { room, incident };
}

describe("the incidents' writes for other areas", () => {
  it("archiving a room rejects its open incidents with what rejecting one from the incidents screens gives", async () => {
    const byScreen = await roomWithOpenIncident("screen@example.test");
    const byArchive = await roomWithOpenIncident("archive@example.test");
    await services.queue.drain();

    let since = services.events.published.length;
    let mailsBefore = (await services.mails()).length;
    await setIncidentStatus(ctxOf(manager), byScreen.incident.id, { status: IncidentStatus.REJECTED });
    await services.queue.drain();
    const screen = await aftermath(byScreen.incident.id, since, mailsBefore);

    since = services.events.published.length;
    mailsBefore = (await services.mails()).length;
    await archiveRoom(ctxOf(manager), byArchive.room.id);
    await services.queue.drain();
    const archive = await aftermath(byArchive.incident.id, since, mailsBefore);

    expect(screen.notifications).toEqual([`${NotificationType.INCIDENT_STATUS_UPDATED}:${technician.id}`]);
    expect(archive.notifications).toEqual(screen.notifications);
    expect(screen.live).toEqual(["incident.status-changed", `notification.created:${NotificationType.INCIDENT_STATUS_UPDATED}:${technician.id}`]);
    expect(archive.live).toEqual(screen.live);
    // The assignee (who receives notifications by mail) and the reporter, each once.
    expect(screen.mails).toEqual(["screen@example.test", technician.email].sort());
    expect(archive.mails).toEqual(["archive@example.test", technician.email].sort());
    const [event] = await database.db.select().from(incidentEvents).where(and(eq(incidentEvents.incidentId, byArchive.incident.id), eq(incidentEvents.type, IncidentEventType.STATUS_UPDATE)));
    expect(event).toMatchObject({ actorId: manager.id, oldValue: IncidentStatus.IN_PROGRESS, newValue: IncidentStatus.REJECTED });
  });

  it("an occupier's report creates an incident with what a report made from the room view gives", async () => {
    const room = await createRoom(database.db, { entityId: entity.id, buildingId: building.id, roomTypeId: roomType.id });
    const [{ code }] = await database.db.select({ code: reportIdentifiers.code }).from(reportIdentifiers).where(eq(reportIdentifiers.roomId, room.id));
    const leak = await createIncidentType(database.db, { entityId: entity.id, nameEn: "Leak", defaultPriority: Priority.HIGH, roomTypeIds: [roomType.id], defaultAssigneeIds: [technician.id] });
    const smell = await createIncidentType(database.db, { entityId: entity.id, nameEn: "Smell", defaultPriority: Priority.HIGH, roomTypeIds: [roomType.id], defaultAssigneeIds: [technician.id] });
    await services.queue.drain();

    let since = services.events.published.length;
    let mailsBefore = (await services.mails()).length;
    const occupier = await reportIncident(services.ctx(0, null), code, { incidentTypeId: leak.id, description: "Water" } as never, { locale: "en", actor: null });
    await services.queue.drain();
    const fromSticker = await aftermath(occupier.incidentId, since, mailsBefore);

    since = services.events.published.length;
    mailsBefore = (await services.mails()).length;
    // The administrator reports (they receive no notifications, so both tell the same people).
    const staff = await reportIncident(services.ctx(0, null), code, { incidentTypeId: smell.id, description: "Gas" } as never, { locale: "en", actor: personActor(admin) });
    await services.queue.drain();
    const fromRoomView = await aftermath(staff.incidentId, since, mailsBefore);

    expect(fromSticker.notifications).toEqual([technician.id, watcher.id].sort((a, b) => a - b).map((id) => `${NotificationType.INCIDENT_CREATED}:${id}`));
    expect(fromRoomView.notifications).toEqual(fromSticker.notifications);
    expect(fromRoomView.live).toEqual(fromSticker.live);
    expect(fromSticker.live).toContain("incident.created");
    expect(fromRoomView.mails).toEqual(fromSticker.mails);

    // Reported again: an occurrence, its live event, nobody notified (as before).
    since = services.events.published.length;
    const again = await reportIncident(services.ctx(0, null), code, { incidentTypeId: leak.id, description: "More water" } as never, { locale: "en", actor: null });
    expect(again.outcome).toBe("folded");
    await services.queue.drain();
    const folded = services.events.published.slice(since).filter((e) => e.data?.incidentId === occupier.incidentId);
    expect(folded.map((e) => e.type)).toEqual(["incident.reported-again"]);
    expect(folded[0].data).toMatchObject({ occurrences: 2 });
  });

  it("archiving an incident type takes it off open incidents, each with its event and live event, telling nobody", async () => {
    const room = await createRoom(database.db, { entityId: entity.id, buildingId: building.id, roomTypeId: roomType.id });
    const type = await createIncidentType(database.db, { entityId: entity.id, nameEn: "Draught", roomTypeIds: [roomType.id] });
    const open = await createIncident(database.db, { entityId: entity.id, roomId: room.id, incidentTypeId: type.id, assigneeId: technician.id });
    const closed = await createIncident(database.db, { entityId: entity.id, roomId: room.id, incidentTypeId: type.id, status: IncidentStatus.DONE });
    await services.queue.drain();
    const since = services.events.published.length;
    const mailsBefore = (await services.mails()).length;
    expect(await archiveIncidentType(ctxOf(manager), type.id)).toEqual({ incidentsUpdated: 1 });
    await services.queue.drain();
    expect(await aftermath(open.id, since, mailsBefore)).toEqual({ notifications: [], live: ["incident.type-removed"], mails: [] });
    expect(await aftermath(closed.id, since, mailsBefore)).toEqual({ notifications: [], live: [], mails: [] });
    const events = await database.db.select().from(incidentEvents).where(and(inArray(incidentEvents.incidentId, [open.id, closed.id]), eq(incidentEvents.type, IncidentEventType.INCIDENT_TYPE_REMOVED)));
    expect(events).toEqual([expect.objectContaining({ incidentId: open.id, actorId: manager.id, oldValue: { id: type.id, name: "Draught" } })]);
  });
});
