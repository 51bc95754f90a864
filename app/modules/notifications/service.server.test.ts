import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Database } from "~/db/client.server";
import { NotificationType, Priority, Role, UserLanguage } from "~/db/enums";
import { type Building, changeEvents, type Entity, jobQueue, notificationDetails, notifications, type Room, type User } from "~/db/schema";
import { ForbiddenError, NotFoundError, ValidationError } from "~/lib/errors";
import { assignIncident, postIncidentComment, setIncidentStatus } from "~/modules/incidents/service.server";
import { createBuilding, createEntity, createIncident, createIncidentType, createNotification, createRoom, createUser, linkUserTo } from "#tests/factories";
import { rejectionOf } from "#tests/service-helpers";
import { createTestServices, type TestServices } from "#tests/test-context";
import { createTestDatabase } from "#tests/test-db";
import type { z } from "zod";
import { personActor } from "~/core/actor";
import type { ChangeDefinition } from "~/core/changes.server";
import { withTx } from "~/core/unit-of-work.server";
import { incidentAssigned, incidentCreated, incidentStatusChanged } from "~/modules/incidents/changes.server";
import { countNotifications, getNotification, listNotifications } from "./queries.server";
import { markAllNotificationsRead, markNotificationsRead, openNotification, purgeReadNotifications } from "./service.server";

let database: Database;
let services: TestServices;
let entity: Entity;
let other: Entity;
let admin: User;
let manager: User;
let technician: User;
let colleague: User;
let far: User;
let watcher: User;
let picky: User;
let stranger: User;
let building: Building;
let room: Room;

const ctxOf = (user: User) => services.ctx(user.entityId, { id: user.id, role: user.role });
const system = () => services.ctx(entity.id, null);
/** Emits a change as `actor` (null: an occupier) would, in a unit of work of its own, and dispatches it. */
async function emitAs<S extends z.ZodType>(actor: User | null, change: ChangeDefinition<S>, payload: z.input<S>) {
  await withTx(services.ctx(entity.id, actor ? personActor(actor) : null), (_tx, effects) => effects.emit(change, payload));
  await services.queue.drain();
}
const notified = async (incidentId: number, type: NotificationType) => {
  const rows = await database.db
    .select({ userId: notifications.userId })
    .from(notifications)
    .innerJoin(notificationDetails, eq(notificationDetails.id, notifications.detailsId))
    .where(and(eq(notificationDetails.incidentId, incidentId), eq(notificationDetails.type, type)));
  return rows.map((r) => r.userId).sort((a, b) => a - b);
};
const ids = (...users: User[]) => users.map((u) => u.id).sort((a, b) => a - b);

/** Every user's counters, compared with a recount (the triggers of migration 0010). */
async function countDrift(): Promise<unknown[]> {
  const result = await database.db.execute(sql`
    select coalesce(c.user_id, r.user_id) as user_id, c.total, c.unread, r.total as real_total, r.unread as real_unread
    from notification_counts c
    full join (select entity_id, user_id, count(*)::int as total, (count(*) filter (where read_at is null))::int as unread
               from notifications group by 1, 2) r on r.entity_id = c.entity_id and r.user_id = c.user_id
    where coalesce(c.total, 0) <> coalesce(r.total, 0) or coalesce(c.unread, 0) <> coalesce(r.unread, 0)`);
  return (result as unknown as { rows: unknown[] }).rows;
}

beforeAll(async () => {
  database = await createTestDatabase();
  services = await createTestServices(database);
  const db = database.db;
  entity = await createEntity(db);
  other = await createEntity(db);
  admin = await createUser(db, { entityId: entity.id, role: Role.ADMINISTRATOR });
  manager = await createUser(db, { entityId: entity.id, role: Role.FACILITY_MANAGER, receiveNotification: true, language: UserLanguage.FR });
  technician = await createUser(db, { entityId: entity.id, role: Role.TECHNICIAN });
  colleague = await createUser(db, { entityId: entity.id, role: Role.TECHNICIAN });
  far = await createUser(db, { entityId: entity.id, role: Role.TECHNICIAN, receiveNotification: true });
  watcher = await createUser(db, { entityId: entity.id, role: Role.TECHNICIAN, receiveNotification: true });
  picky = await createUser(db, { entityId: entity.id, role: Role.TECHNICIAN, receiveNotification: true, notificationSettings: { priorities: [Priority.CRITICAL], buildingIds: [] } });
  stranger = await createUser(db, { entityId: other.id, role: Role.ADMINISTRATOR, receiveNotification: true });
  building = await createBuilding(db, { entityId: entity.id });
  const farBuilding = await createBuilding(db, { entityId: entity.id });
  room = await createRoom(db, { entityId: entity.id, buildingId: building.id });
  for (const user of [manager, technician, colleague, watcher, picky]) await linkUserTo(db, { entityId: entity.id, userId: user.id, buildingId: building.id });
  await linkUserTo(db, { entityId: entity.id, userId: far.id, buildingId: farBuilding.id });
});

beforeEach(async () => {
  await services.clearJobs();
});

afterAll(async () => {
  await services?.close();
  await database?.close();
});

describe("notificationRecipients", () => {
  it("tells the new assignee of an assignment, the previous one of an unassignment, never the actor", async () => {
    const incident = await createIncident(database.db, { entityId: entity.id, roomId: room.id, assigneeId: colleague.id });
    await assignIncident(ctxOf(manager), incident.id, { assigneeId: technician.id });
    await services.queue.drain();
    expect(await notified(incident.id, NotificationType.INCIDENT_ASSIGNED)).toEqual(ids(technician));
    expect(await notified(incident.id, NotificationType.INCIDENT_UNASSIGNED)).toEqual(ids(colleague));

    // Taking it oneself: nobody is told of one's own act; the previous assignee is.
    await assignIncident(ctxOf(colleague), incident.id, { assigneeId: colleague.id });
    await services.queue.drain();
    expect(await notified(incident.id, NotificationType.INCIDENT_ASSIGNED)).toEqual(ids(technician));
    expect(await notified(incident.id, NotificationType.INCIDENT_UNASSIGNED)).toEqual(ids(colleague, technician));
  });

  it("tells the assignee of a status change and a comment, unless they made it", async () => {
    const incident = await createIncident(database.db, { entityId: entity.id, roomId: room.id, assigneeId: technician.id });
    await setIncidentStatus(ctxOf(manager), incident.id, { status: "1" });
    await postIncidentComment(ctxOf(manager), incident.id, { body: "On my way?" });
    await setIncidentStatus(ctxOf(technician), incident.id, { status: "2" });
    await postIncidentComment(ctxOf(technician), incident.id, { body: "Fixed" });
    await services.queue.drain();
    const [status] = await database.db.select().from(notificationDetails).where(and(eq(notificationDetails.incidentId, incident.id), eq(notificationDetails.type, NotificationType.INCIDENT_STATUS_UPDATED)));
    expect(status.message).toMatchObject({ status: 1, incidentShortId: incident.shortId });
    expect(await notified(incident.id, NotificationType.INCIDENT_STATUS_UPDATED)).toEqual(ids(technician));
    expect(await notified(incident.id, NotificationType.INCIDENT_NEW_COMMENT)).toEqual(ids(technician));
  });

  it("tells of a new incident its assignee, the type's default assignees and the matching watchers who reach it", async () => {
    const type = await createIncidentType(database.db, { entityId: entity.id, defaultAssigneeIds: [colleague.id, far.id] });
    const incident = await createIncident(database.db, { entityId: entity.id, roomId: room.id, assigneeId: technician.id, priority: Priority.HIGH, incidentTypeId: type.id });
    await emitAs(watcher, incidentCreated, { incidentId: incident.id, assigneeId: technician.id, source: "staff" });
    // far: a default assignee and a watcher, but out of reach; picky: only critical ones; watcher: the actor;
    // stranger: another entity; admin: does not receive notifications.
    expect(await notified(incident.id, NotificationType.INCIDENT_CREATED)).toEqual(ids(manager, technician, colleague));
    expect(await notified(incident.id, NotificationType.INCIDENT_CREATED)).not.toContain(admin.id);

    const critical = await createIncident(database.db, { entityId: entity.id, roomId: room.id, priority: Priority.CRITICAL });
    await emitAs(null, incidentCreated, { incidentId: critical.id, assigneeId: null, source: "occupier" });
    expect(await notified(critical.id, NotificationType.INCIDENT_CREATED)).toEqual(ids(manager, watcher, picky));
  });

  it("tells nobody about an incident the assignee no longer reaches, and nothing without an assignee", async () => {
    const incident = await createIncident(database.db, { entityId: entity.id, roomId: room.id });
    await emitAs(manager, incidentAssigned, { incidentId: incident.id, from: null, to: null });
    await emitAs(manager, incidentStatusChanged, { incidentId: incident.id, assigneeId: null, from: 0, to: 1 });
    await emitAs(manager, incidentAssigned, { incidentId: incident.id, from: null, to: far.id });
    const written = await database.db.select().from(notificationDetails).where(eq(notificationDetails.incidentId, incident.id));
    expect(written).toEqual([]);
  });
});

describe("the notifications of a change (decision 048)", () => {
  it("are written when the change is dispatched, once even if it is dispatched again, and published once after commit", async () => {
    const incident = await createIncident(database.db, { entityId: entity.id, roomId: room.id, assigneeId: null });
    const before = services.events.published.length;
    await assignIncident(ctxOf(manager), incident.id, { assigneeId: technician.id });
    const [change] = await database.db.select().from(changeEvents).where(and(eq(changeEvents.subjectId, incident.id), eq(changeEvents.type, incidentAssigned.type)));
    expect(change).toMatchObject({ entityId: entity.id, payload: { incidentId: incident.id, from: null, to: technician.id }, actor: { kind: "person", id: manager.id }, dispatchedAt: null });
    // Nothing is written before it is dispatched.
    expect(await notified(incident.id, NotificationType.INCIDENT_ASSIGNED)).toEqual([]);

    await services.queue.drain();
    expect(await notified(incident.id, NotificationType.INCIDENT_ASSIGNED)).toEqual([technician.id]);
    // Dispatched again (as if its mark were lost): the notification's key keeps it single.
    await database.db.update(changeEvents).set({ dispatchedAt: null, attempts: 0 }).where(eq(changeEvents.id, change.id));
    await services.queue.drain();
    expect(await notified(incident.id, NotificationType.INCIDENT_ASSIGNED)).toEqual([technician.id]);

    const published = services.events.published.slice(before).filter((e) => e.type === "notification.created");
    expect(published).toHaveLength(1);
    const [rowId] = await database.db.select({ id: notifications.id }).from(notifications).innerJoin(notificationDetails, eq(notificationDetails.id, notifications.detailsId)).where(eq(notificationDetails.incidentId, incident.id));
    expect(published[0]).toMatchObject({
      entityId: entity.id,
      userIds: [technician.id],
      data: { notificationIds: [rowId.id], notificationType: NotificationType.INCIDENT_ASSIGNED, incidentId: incident.id, subject: `#${incident.shortId} ${incident.title}` },
    });
    expect(await countDrift()).toEqual([]);
  });

  it("are not written when the verb rolls back: it emits nothing", async () => {
    const incident = await createIncident(database.db, { entityId: entity.id, roomId: room.id, assigneeId: null });
    expect(await rejectionOf(assignIncident(ctxOf(manager), incident.id, { assigneeId: far.id }))).toBeInstanceOf(ValidationError);
    expect(await database.db.select().from(changeEvents).where(eq(changeEvents.subjectId, incident.id))).toEqual([]);
    await services.queue.drain();
    expect(await database.db.select().from(notificationDetails).where(eq(notificationDetails.incidentId, incident.id))).toEqual([]);
  });
});

describe("reading", () => {
  it("lists newest first with the unread filter, pages, and counts from the counters", async () => {
    const user = await createUser(database.db, { entityId: entity.id, role: Role.TECHNICIAN });
    const old = await createNotification(database.db, { entityId: entity.id, userIds: [user.id], subject: "old", createdAt: new Date(Date.now() - 60_000) });
    await createNotification(database.db, { entityId: entity.id, userIds: [user.id], subject: "read", readAt: new Date() });
    const latest = await createNotification(database.db, { entityId: entity.id, userIds: [user.id], subject: "latest" });
    const page = await listNotifications(ctxOf(user), user.id);
    expect(page.items.map((i) => i.subject)).toEqual(["latest", "read", "old"]);
    expect(page.total).toBe(3);
    const unread = await listNotifications(ctxOf(user), user.id, { unreadOnly: true, size: 1, page: 2 });
    expect(unread).toMatchObject({ total: 2, size: 1, page: 2 });
    expect(unread.items.map((i) => i.subject)).toEqual(["old"]);
    const chosen = await listNotifications(ctxOf(user), user.id, { detailsIds: [latest.details.id, old.details.id] });
    expect(chosen.items.map((i) => i.notificationDetailsId)).toEqual([latest.details.id, old.details.id]);
    expect(await countNotifications(database.db, entity.id, user.id)).toEqual({ total: 3, unread: 2 });
  });

  it("marks as read one way: a read notification keeps its first reading time and the counters follow", async () => {
    const user = await createUser(database.db, { entityId: entity.id, role: Role.TECHNICIAN });
    const a = await createNotification(database.db, { entityId: entity.id, userIds: [user.id] });
    const b = await createNotification(database.db, { entityId: entity.id, userIds: [user.id] });
    const c = await createNotification(database.db, { entityId: entity.id, userIds: [user.id] });
    const published = services.events.published.length;
    expect(await markNotificationsRead(ctxOf(user), user.id, [a.details.id])).toEqual({ responseCode: 0, marked: 1 });
    const [first] = await database.db.select({ readAt: notifications.readAt }).from(notifications).where(eq(notifications.id, a.notifications[0].id));
    expect(await markNotificationsRead(ctxOf(user), user.id, { notificationDetailsIds: [a.details.id] })).toEqual({ responseCode: 0, marked: 0 });
    const [again] = await database.db.select({ readAt: notifications.readAt }).from(notifications).where(eq(notifications.id, a.notifications[0].id));
    expect(again.readAt).toEqual(first.readAt);
    expect(services.events.published.slice(published)).toEqual([{ entityId: entity.id, type: "notification.read", userIds: [user.id], data: { notificationIds: [a.notifications[0].id] } }]);

    const opened = await openNotification(ctxOf(user), b.notifications[0].id);
    expect(opened.read).toBe(true);
    expect(await countNotifications(database.db, entity.id, user.id)).toEqual({ total: 3, unread: 1 });
    expect(await markAllNotificationsRead(ctxOf(user))).toEqual({ marked: 1 });
    expect((await getNotification(ctxOf(user), c.notifications[0].id)).read).toBe(true);
    expect(await countNotifications(database.db, entity.id, user.id)).toEqual({ total: 3, unread: 0 });
    expect(await rejectionOf(markNotificationsRead(ctxOf(user), user.id, []))).toBeInstanceOf(ValidationError);
    expect(await countDrift()).toEqual([]);
  });

  it("refuses another user's notifications (403) and finds none of another entity (404)", async () => {
    const mine = await createNotification(database.db, { entityId: entity.id, userIds: [technician.id] });
    for (const attempt of [
      () => listNotifications(ctxOf(colleague), technician.id),
      () => markNotificationsRead(ctxOf(colleague), technician.id, [mine.details.id]),
    ]) {
      expect(await rejectionOf(attempt())).toBeInstanceOf(ForbiddenError);
    }
    // Wrong role: no signed-in user at all.
    expect(await rejectionOf(listNotifications(system(), technician.id))).toBeInstanceOf(ForbiddenError);
    expect(await rejectionOf(markAllNotificationsRead(system()))).toBeInstanceOf(ForbiddenError);
    // Wrong entity: the user, the notification and the details are not found.
    expect(await rejectionOf(listNotifications(ctxOf(stranger), technician.id))).toBeInstanceOf(NotFoundError);
    expect(await rejectionOf(getNotification(ctxOf(stranger), mine.notifications[0].id))).toBeInstanceOf(NotFoundError);
    expect(await rejectionOf(openNotification(ctxOf(colleague), mine.notifications[0].id))).toBeInstanceOf(NotFoundError);
    expect(await markNotificationsRead(ctxOf(stranger), stranger.id, [mine.details.id])).toMatchObject({ marked: 0 });
    expect((await getNotification(ctxOf(technician), mine.notifications[0].id)).read).toBe(false);
  });
});

describe("emails and retention", () => {
  it("mails each notification in the reader's language, then one digest when more than 3 arrive in a minute", async () => {
    // A reader of their own: the other tests' notifications to the manager count in the same minute.
    const reader = await createUser(database.db, { entityId: entity.id, role: Role.FACILITY_MANAGER, receiveNotification: true, language: UserLanguage.FR });
    await linkUserTo(database.db, { entityId: entity.id, userId: reader.id, buildingId: building.id });
    const incident = await createIncident(database.db, { entityId: entity.id, roomId: room.id, assigneeId: reader.id, title: "Leak" });
    for (let i = 0; i < 5; i++) {
      await postIncidentComment(ctxOf(technician), incident.id, { body: `note ${i}` });
    }
    await services.queue.drain();
    const mails = (await services.mails()).filter((m) => m.to === reader.email);
    expect(mails).toHaveLength(3);
    expect(mails[0].subject).toBe(`Nouveau commentaire sur l'incident #${incident.shortId} : Leak`);
    expect(mails[0].text).toContain(`/incident/${incident.id}`);
    const [digest] = await services.queued((await import("./jobs.server")).notificationDigestJob);
    expect(digest.data).toMatchObject({ userId: reader.id, entityId: entity.id });
    await database.db.update(jobQueue).set({ runAfter: sql`now()` }).where(eq(jobQueue.id, Number(digest.id)));
    await services.queue.drain();
    const after = (await services.mails()).filter((m) => m.to === reader.email);
    expect(after).toHaveLength(4);
    expect(after[3].subject).toBe("2 nouvelles notifications");
    // Nobody is mailed twice: everything is marked.
    const unmailed = await database.db.select().from(notifications).where(and(eq(notifications.userId, reader.id), sql`${notifications.emailedAt} is null`));
    expect(unmailed.filter((n) => n.createdAt.getTime() > Date.now() - 60_000)).toEqual([]);
  });

  it("removes read notifications older than the retention age, keeps unread and recent ones", async () => {
    const user = await createUser(database.db, { entityId: entity.id, role: Role.TECHNICIAN });
    const long = new Date(Date.now() - 100 * 86_400_000);
    const oldRead = await createNotification(database.db, { entityId: entity.id, userIds: [user.id], readAt: long, createdAt: long });
    const oldUnread = await createNotification(database.db, { entityId: entity.id, userIds: [user.id], createdAt: long });
    const recentRead = await createNotification(database.db, { entityId: entity.id, userIds: [user.id], readAt: new Date() });
    const { removed } = await purgeReadNotifications(database, 90);
    expect(removed).toBeGreaterThanOrEqual(1);
    const left = await database.db.select({ detailsId: notifications.detailsId }).from(notifications).where(eq(notifications.userId, user.id));
    expect(left.map((l) => l.detailsId).sort()).toEqual([oldUnread.details.id, recentRead.details.id].sort());
    expect(await database.db.select().from(notificationDetails).where(eq(notificationDetails.id, oldRead.details.id))).toEqual([]);
    expect(await countNotifications(database.db, entity.id, user.id)).toEqual({ total: 2, unread: 1 });
    expect(await countDrift()).toEqual([]);
  });
});
