import { and, asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Database } from "~/db/client.server";
import { IncidentEventType, IncidentStatus, NotificationType, Role, TaskStatus, UserStatus } from "~/db/enums";
import { apiTokens, auditLog, type Building, type Entity, type Facility, incidentEvents, incidents, notificationDetails, notifications, plannedMaintenanceAssignees, refreshTokens, tasks, type User, userLinkedObjects, users } from "~/db/schema";
import { ConflictError, ForbiddenError, NotFoundError, type ValidationError } from "~/lib/errors";
import { authenticateApiToken } from "~/modules/api-tokens/authenticate.server";
import { createApiToken } from "~/modules/api-tokens/service.server";
import { isResetTokenUsable, resetPassword } from "~/modules/auth/password-reset.server";
import { calendarTokenOwner, issueCalendarToken } from "./calendar-token.server";
import { createBuilding, createEntity, createFacility, createIncident, createPlannedMaintenance, createRoom, createTask, createUser, linkUserTo } from "#tests/factories";
import { createTestDatabase } from "#tests/test-db";
import { createTestServices, type TestServices } from "#tests/test-context";
import { actorContext, expectFieldError, listQuery, rejectionOf } from "#tests/service-helpers";
import { getUser, listAssignees, listUserHistory, listUsers } from "./queries.server";
import { archiveUser, createUser as inviteUser, resendInvitation, setUserStatus, updateUser } from "./management.server";
import type { CreateUserInput } from "./schema";

let database: Database;
let services: TestServices;
let entityA: Entity;
let entityB: Entity;
let facilityA: Facility;
/** A facility of entity A without buildings: not offered for linking (SPEC.md section 6). */
let emptyFacility: Facility;
let buildingA: Building;
let buildingB: Building;
let admin: User;
let manager: User;
let technician: User;
let otherManager: User;

const ctxOf = (user: User) => ({ ...actorContext(database.db, user), files: services.files, queue: services.queue, events: services.events, appUrl: "https://caretaker.example" });
let seq = 0;
const newUser = (overrides: Partial<CreateUserInput> = {}): CreateUserInput => ({
  name: "Nina",
  surname: `Peeters ${++seq}`,
  email: `nina.${seq}.${Date.now()}@example.test`,
  role: Role.TECHNICIAN,
  language: 2,
  linkedObjects: { facilityIds: [facilityA.id], buildingIds: [] },
  ...overrides,
});
const tokenOf = (link: string | undefined) => new URL(link!).searchParams.get("token")!;

async function row(id: number) {
  const [found] = await database.db.select().from(users).where(eq(users.id, id));
  return found;
}
async function linksOf(id: number) {
  return database.db.select().from(userLinkedObjects).where(eq(userLinkedObjects.userId, id)).orderBy(asc(userLinkedObjects.id));
}
async function auditOf(id: number) {
  return database.db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.recordType, "user"), eq(auditLog.recordId, String(id))))
    .orderBy(asc(auditLog.id));
}

beforeAll(async () => {
  database = await createTestDatabase();
  services = await createTestServices(database);
  entityA = await createEntity(database.db);
  entityB = await createEntity(database.db);
  facilityA = await createFacility(database.db, { entityId: entityA.id, name: "Campus" });
  emptyFacility = await createFacility(database.db, { entityId: entityA.id, name: "Empty" });
  buildingA = await createBuilding(database.db, { entityId: entityA.id, facilityId: facilityA.id, name: "Main" });
  buildingB = await createBuilding(database.db, { entityId: entityB.id, name: "Elsewhere" });
  admin = await createUser(database.db, { entityId: entityA.id, role: Role.ADMINISTRATOR });
  manager = await createUser(database.db, { entityId: entityA.id, role: Role.FACILITY_MANAGER });
  technician = await createUser(database.db, { entityId: entityA.id, role: Role.TECHNICIAN });
  otherManager = await createUser(database.db, { entityId: entityB.id, role: Role.FACILITY_MANAGER });
  for (const u of [manager, technician]) await linkUserTo(database.db, { entityId: entityA.id, userId: u.id, facilityId: facilityA.id });
});
afterAll(async () => {
  await services?.close();
  await database?.close();
});
beforeEach(async () => {
  await services.clearJobs();
});

describe("createUser (invite)", () => {
  it("creates a not-yet-validated user with their links, queues the invitation and records who did it", async () => {
    const input = newUser({ email: `  Invited.${Date.now()}@Example.TEST ` });
    const user = await inviteUser(ctxOf(manager), input);
    expect(user).toMatchObject({ name: "Nina", role: Role.TECHNICIAN, status: UserStatus.INACTIVE, validated: false, entityId: entityA.id });
    expect(user.email).toBe(input.email.trim().toLowerCase());
    expect(user.linkedObjects).toEqual({ facilityIds: [facilityA.id], buildingIds: [] });
    expect(user.linkedFacilities).toEqual([{ id: facilityA.id, name: "Campus" }]);

    const mails = await services.mails();
    expect(mails).toHaveLength(1);
    expect(mails[0].to).toBe(user.email);
    expect(mails[0].link).toMatch(/^https:\/\/caretaker\.example\/password\/reset\?token=.+&invitation=1$/);
    // In the user's language (Dutch).
    expect(mails[0].subject).toContain("uitgenodigd");
    const audit = await auditOf(user.id);
    expect(audit.map((a) => [a.action, a.actorId])).toEqual([["user.create", manager.id]]);

    // Following the link sets the password and activates the account.
    const token = tokenOf(mails[0].link);
    await resetPassword({ db: database.db }, { token, newPassword: "Welcome-1!" });
    expect((await row(user.id)).status).toBe(UserStatus.ACTIVE);
    expect(await isResetTokenUsable({ db: database.db }, token)).toBe(false);
  });

  it("answers 'Email Already exists...' for an address used in any entity, whatever its case", async () => {
    const error = await rejectionOf<ConflictError>(inviteUser(ctxOf(manager), newUser({ email: otherManager.email.toUpperCase() })));
    expect(error).toBeInstanceOf(ConflictError);
    expect(error.messageKey).toBe("users:errors.emailInUse");
    expect(error.fieldErrors?.email).toEqual(["users:errors.emailInUse"]);
    expect(await services.mails()).toHaveLength(0);
  });

  it("requires name, surname and a valid email", async () => {
    await expectFieldError(inviteUser(ctxOf(manager), newUser({ name: " " })), "name", "users:validation.nameRequired");
    await expectFieldError(inviteUser(ctxOf(manager), newUser({ surname: "" })), "surname", "users:validation.surnameRequired");
    await expectFieldError(inviteUser(ctxOf(manager), newUser({ email: "" })), "email", "users:validation.emailRequired");
    await expectFieldError(inviteUser(ctxOf(manager), newUser({ email: "not-an-address" })), "email", "users:validation.emailInvalid");
    await expectFieldError(inviteUser(ctxOf(manager), newUser({ name: "A\u0000" })), "name", "common:validation.controlCharacters");
  });

  it("requires a facility or building for technicians and managers, offers only facilities with buildings, never another entity's", async () => {
    for (const role of [Role.TECHNICIAN, Role.FACILITY_MANAGER]) {
      await expectFieldError(inviteUser(ctxOf(admin), newUser({ role, linkedObjects: { facilityIds: [], buildingIds: [] } })), "linkedObjects", "users:validation.linkRequired");
    }
    await expectFieldError(inviteUser(ctxOf(manager), newUser({ linkedObjects: { facilityIds: [emptyFacility.id] } })), "linkedObjects", "users:validation.linkNotFound");
    await expectFieldError(inviteUser(ctxOf(manager), newUser({ linkedObjects: { buildingIds: [buildingB.id] } })), "linkedObjects", "users:validation.linkNotFound");
    const byBuilding = await inviteUser(ctxOf(manager), newUser({ linkedObjects: { buildingIds: [buildingA.id] } }));
    expect(byBuilding.linkedBuildings).toEqual([{ id: buildingA.id, name: "Main", facilityName: "Campus" }]);
  });

  it("gives administrators no links (they reach the whole entity)", async () => {
    const created = await inviteUser(ctxOf(admin), newUser({ role: Role.ADMINISTRATOR }));
    expect(created.role).toBe(Role.ADMINISTRATOR);
    expect(await linksOf(created.id)).toEqual([]);
  });

  it("refuses technicians, managers giving the administrator role, and another entity as linkedEntityId", async () => {
    expect(await rejectionOf(inviteUser(ctxOf(technician), newUser()))).toBeInstanceOf(ForbiddenError);
    const adminOnly = await rejectionOf<ForbiddenError>(inviteUser(ctxOf(manager), newUser({ role: Role.ADMINISTRATOR })));
    expect(adminOnly).toBeInstanceOf(ForbiddenError);
    expect(adminOnly.code).toBe("ADMINISTRATOR_ONLY");
    await expectFieldError(inviteUser(ctxOf(manager), newUser({ linkedEntityId: entityB.id })), "linkedEntityId", "users:validation.entity");
    expect(await services.mails()).toHaveLength(0);
  });
});

describe("updateUser", () => {
  it("saves details, role and links, and records the role change", async () => {
    const user = await inviteUser(ctxOf(manager), newUser());
    const saved = await updateUser(ctxOf(manager), user.id, {
      name: "Nora",
      surname: "Janssens",
      role: Role.FACILITY_MANAGER,
      language: 1,
      receiveNotification: true,
      linkedObjects: { facilityIds: [], buildingIds: [buildingA.id] },
      notificationSettings: { priorities: [3, 2], buildingIds: [buildingA.id] },
    });
    expect(saved).toMatchObject({ name: "Nora", surname: "Janssens", role: Role.FACILITY_MANAGER, language: 1, receiveNotification: true });
    expect(saved.notificationSettings).toEqual({ priorities: [2, 3], buildingIds: [buildingA.id] });
    expect(saved.linkedObjects).toEqual({ facilityIds: [], buildingIds: [buildingA.id] });
    const history = await listUserHistory(ctxOf(manager), user.id);
    expect(history[0]).toMatchObject({ action: "user.update", details: { role: [Role.TECHNICIAN, Role.FACILITY_MANAGER] } });
    expect(history[0].actorName).toBe(`${manager.name} ${manager.surname}`);
  });

  it("takes notification buildings only within the editor's reach, keeping those the user already had", async () => {
    const outOfReach = await createBuilding(database.db, { entityId: entityA.id, name: "Annex elsewhere" });
    const user = await inviteUser(ctxOf(manager), newUser());
    const input = (buildingIds: number[]) => ({
      name: "Nora",
      surname: "Janssens",
      role: Role.TECHNICIAN,
      language: 1 as const,
      receiveNotification: true,
      linkedObjects: { facilityIds: [facilityA.id], buildingIds: [] },
      notificationSettings: { priorities: [], buildingIds },
    });
    // The manager reaches facility A only: a building elsewhere is refused as if it did not exist.
    await expectFieldError(updateUser(ctxOf(manager), user.id, input([buildingA.id, outOfReach.id])), "notificationSettings", "settings:errors.buildingNotFound");
    expect((await row(user.id)).notificationSettings).toEqual({ priorities: [], buildingIds: [] });
    // An administrator reaches it; the manager's next save keeps it.
    await updateUser(ctxOf(admin), user.id, input([outOfReach.id]));
    const kept = await updateUser(ctxOf(manager), user.id, input([buildingA.id, outOfReach.id]));
    expect(kept.notificationSettings.buildingIds).toEqual([buildingA.id, outOfReach.id].sort((a, b) => a - b));
  });

  it("answers 'User not found' for another entity's user and changes nothing", async () => {
    const before = await row(otherManager.id);
    const error = await rejectionOf<NotFoundError>(
      updateUser(ctxOf(manager), otherManager.id, { name: "X", surname: "Y", role: Role.TECHNICIAN, language: 0, linkedObjects: { facilityIds: [facilityA.id] } }),
    );
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error.messageKey).toBe("users:errors.notFound");
    expect(await row(otherManager.id)).toEqual(before);
  });

  it("lets only administrators change an administrator", async () => {
    const error = await rejectionOf(updateUser(ctxOf(manager), admin.id, { name: "X", surname: "Y", role: Role.ADMINISTRATOR, language: 0 }));
    expect(error).toBeInstanceOf(ForbiddenError);
    expect((await row(admin.id)).name).toBe(admin.name);
  });

  it("refuses to change one's own role or status, but saves one's own name", async () => {
    const base = { surname: manager.surname, language: 0 as const, linkedObjects: { facilityIds: [facilityA.id] } };
    const self = await rejectionOf<ConflictError>(updateUser(ctxOf(manager), manager.id, { ...base, name: manager.name, role: Role.TECHNICIAN }));
    expect(self).toBeInstanceOf(ConflictError);
    expect(self.code).toBe("SELF");
    const disabling = await rejectionOf<ConflictError>(updateUser(ctxOf(manager), manager.id, { ...base, name: manager.name, role: Role.FACILITY_MANAGER, status: UserStatus.DISABLED }));
    expect(disabling.code).toBe("SELF");
    expect(await row(manager.id)).toMatchObject({ role: Role.FACILITY_MANAGER, status: UserStatus.ACTIVE });
    const renamed = await updateUser(ctxOf(manager), manager.id, { ...base, name: "Renamed", role: Role.FACILITY_MANAGER });
    expect(renamed.name).toBe("Renamed");
  });

  it("never leaves the entity without an active administrator", async () => {
    const entity = await createEntity(database.db);
    const only = await createUser(database.db, { entityId: entity.id, role: Role.ADMINISTRATOR });
    // An administrator whose own account was disabled meanwhile (a request already under way).
    const disabledAdmin = await createUser(database.db, { entityId: entity.id, role: Role.ADMINISTRATOR, status: UserStatus.DISABLED });
    const ctx = { ...actorContext(database.db, disabledAdmin), files: services.files };
    const demote = await rejectionOf<ConflictError>(updateUser(ctx, only.id, { name: only.name, surname: only.surname, role: Role.FACILITY_MANAGER, language: 0 }));
    expect(demote.code).toBe("LAST_ADMINISTRATOR");
    const disable = await rejectionOf<ConflictError>(setUserStatus(ctx, only.id, { newStatus: UserStatus.DISABLED }));
    expect(disable.code).toBe("LAST_ADMINISTRATOR");
    const archive = await rejectionOf<ConflictError>(archiveUser(ctx, only.id, {}));
    expect(archive.code).toBe("LAST_ADMINISTRATOR");
    expect(await row(only.id)).toMatchObject({ role: Role.ADMINISTRATOR, status: UserStatus.ACTIVE, archivedAt: null });
  });
});

describe("links and the editor's reach", () => {
  it("a manager gives only what they reach, and keeps the links another editor gave", async () => {
    const farFacility = await createFacility(database.db, { entityId: entityA.id, name: "Far" });
    await createBuilding(database.db, { entityId: entityA.id, facilityId: farFacility.id, name: "Far building" });
    // The manager reaches facility A only; an administrator links the user to the far facility.
    const user = await inviteUser(ctxOf(admin), newUser({ linkedObjects: { facilityIds: [farFacility.id] } }));
    await expectFieldError(
      inviteUser(ctxOf(manager), newUser({ linkedObjects: { facilityIds: [farFacility.id] } })),
      "linkedObjects",
      "users:validation.linkNotFound",
    );
    const base = { name: user.name, surname: user.surname, role: Role.TECHNICIAN, language: 0 as const };
    const both = await updateUser(ctxOf(manager), user.id, { ...base, linkedObjects: { facilityIds: [farFacility.id, facilityA.id] } });
    expect(both.linkedObjects.facilityIds).toEqual([facilityA.id, farFacility.id].sort((a, b) => a - b));
    // Dropping the kept link is allowed; adding it back is not (it is outside the manager's reach).
    await updateUser(ctxOf(manager), user.id, { ...base, linkedObjects: { facilityIds: [facilityA.id] } });
    await expectFieldError(
      updateUser(ctxOf(manager), user.id, { ...base, linkedObjects: { facilityIds: [facilityA.id, farFacility.id] } }),
      "linkedObjects",
      "users:validation.linkNotFound",
    );
  });

  it("a manager linked to one building cannot hand out its whole facility", async () => {
    const buildingManager = await createUser(database.db, { entityId: entityA.id, role: Role.FACILITY_MANAGER });
    await linkUserTo(database.db, { entityId: entityA.id, userId: buildingManager.id, buildingId: buildingA.id });
    await expectFieldError(
      inviteUser(ctxOf(buildingManager), newUser({ linkedObjects: { facilityIds: [facilityA.id] } })),
      "linkedObjects",
      "users:validation.linkNotFound",
    );
    const created = await inviteUser(ctxOf(buildingManager), newUser({ linkedObjects: { buildingIds: [buildingA.id] } }));
    expect(created.linkedObjects).toEqual({ facilityIds: [], buildingIds: [buildingA.id] });
  });
});

describe("setUserStatus", () => {
  it("disables a user and ends their sessions; enabling restores active, or not-yet-validated without a password", async () => {
    const user = await createUser(database.db, { entityId: entityA.id, role: Role.TECHNICIAN });
    await database.db.insert(refreshTokens).values({
      entityId: entityA.id,
      userId: user.id,
      familyId: crypto.randomUUID(),
      tokenHash: `hash-${user.id}`,
      expiresAt: new Date(Date.now() + 3600_000),
    });
    const disabled = await setUserStatus(ctxOf(manager), user.id, { newStatus: UserStatus.DISABLED });
    expect(disabled.status).toBe(UserStatus.DISABLED);
    const tokens = await database.db.select().from(refreshTokens).where(eq(refreshTokens.userId, user.id));
    expect(tokens.every((t) => t.revokedAt !== null)).toBe(true);
    expect((await setUserStatus(ctxOf(manager), user.id, { newStatus: UserStatus.ACTIVE })).status).toBe(UserStatus.ACTIVE);

    const invited = await inviteUser(ctxOf(manager), newUser());
    await setUserStatus(ctxOf(manager), invited.id, { newStatus: UserStatus.DISABLED });
    expect((await setUserStatus(ctxOf(manager), invited.id, { newStatus: UserStatus.ACTIVE })).status).toBe(UserStatus.INACTIVE);
    const actions = (await auditOf(user.id)).map((a) => [a.action, a.details]);
    expect(actions).toEqual([
      ["user.set-status", { status: [UserStatus.ACTIVE, UserStatus.DISABLED] }],
      ["user.set-status", { status: [UserStatus.DISABLED, UserStatus.ACTIVE] }],
    ]);
  });

  it("ends the API tokens a person made and their calendar address when disabled; enabling them again revives neither", async () => {
    const maker = await createUser(database.db, { entityId: entityA.id, role: Role.ADMINISTRATOR });
    const { secret, token } = await createApiToken(ctxOf(maker), { name: "Their integration", role: Role.FACILITY_MANAGER, facilityIds: [facilityA.id], expiresInDays: 30 });
    const feed = await issueCalendarToken(ctxOf(maker), { reset: false });
    const others = await createApiToken(ctxOf(admin), { name: "Someone else's", role: Role.FACILITY_MANAGER, facilityIds: [facilityA.id], expiresInDays: 30 });
    expect(await authenticateApiToken(database.db, secret)).not.toBeNull();
    expect(await calendarTokenOwner(database.db, feed)).not.toBeNull();

    await setUserStatus(ctxOf(admin), maker.id, { newStatus: UserStatus.DISABLED });
    expect(await authenticateApiToken(database.db, secret)).toBeNull();
    expect(await calendarTokenOwner(database.db, feed)).toBeNull();
    const [row] = await database.db.select().from(apiTokens).where(eq(apiTokens.id, token.id));
    expect(row.revokedAt).not.toBeNull();
    expect(row.revokedById).toBe(admin.id);

    expect((await setUserStatus(ctxOf(admin), maker.id, { newStatus: UserStatus.ACTIVE })).status).toBe(UserStatus.ACTIVE);
    expect(await authenticateApiToken(database.db, secret)).toBeNull();
    expect(await calendarTokenOwner(database.db, feed)).toBeNull();
    // Another person's token lives on.
    expect(await authenticateApiToken(database.db, others.secret)).not.toBeNull();

    // Disabled through the edit form too.
    const second = await createUser(database.db, { entityId: entityA.id, role: Role.ADMINISTRATOR });
    const made = await createApiToken(ctxOf(second), { name: "Second", role: Role.TECHNICIAN, facilityIds: [facilityA.id], expiresInDays: 30 });
    const secondFeed = await issueCalendarToken(ctxOf(second), { reset: false });
    await updateUser(ctxOf(admin), second.id, { name: second.name, surname: second.surname, role: Role.ADMINISTRATOR, language: second.language, status: UserStatus.DISABLED, linkedObjects: { facilityIds: [], buildingIds: [] } });
    await setUserStatus(ctxOf(admin), second.id, { newStatus: UserStatus.ACTIVE });
    expect(await authenticateApiToken(database.db, made.secret)).toBeNull();
    expect(await calendarTokenOwner(database.db, secondFeed)).toBeNull();
  });

  it("refuses oneself, technicians, another entity's user and statuses other than active or disabled", async () => {
    expect((await rejectionOf<ConflictError>(setUserStatus(ctxOf(manager), manager.id, { newStatus: UserStatus.DISABLED }))).code).toBe("SELF");
    expect(await rejectionOf(setUserStatus(ctxOf(technician), manager.id, { newStatus: UserStatus.DISABLED }))).toBeInstanceOf(ForbiddenError);
    expect(await rejectionOf(setUserStatus(ctxOf(manager), otherManager.id, { newStatus: UserStatus.DISABLED }))).toBeInstanceOf(NotFoundError);
    await expectFieldError(setUserStatus(ctxOf(manager), technician.id, { newStatus: UserStatus.INACTIVE as 2 }), "newStatus", "users:validation.status");
    expect((await row(otherManager.id)).status).toBe(UserStatus.ACTIVE);
    expect((await row(technician.id)).status).toBe(UserStatus.ACTIVE);
  });
});

describe("resendInvitation", () => {
  it("sends a new link to a user who has not set a password; the old link stops working", async () => {
    const user = await inviteUser(ctxOf(manager), newUser());
    const first = tokenOf((await services.mails())[0].link);
    await resendInvitation(ctxOf(manager), user.id);
    const mails = await services.mails();
    expect(mails).toHaveLength(2);
    expect(await isResetTokenUsable({ db: database.db }, first)).toBe(false);
    expect(await isResetTokenUsable({ db: database.db }, tokenOf(mails[1].link))).toBe(true);
  });

  it("refuses a user who is already validated", async () => {
    expect((await rejectionOf<ConflictError>(resendInvitation(ctxOf(manager), technician.id))).code).toBe("ALREADY_VALIDATED");
  });
});

describe("archiveUser", () => {
  async function busyTechnician() {
    const user = await createUser(database.db, { entityId: entityA.id, role: Role.TECHNICIAN });
    await linkUserTo(database.db, { entityId: entityA.id, userId: user.id, facilityId: facilityA.id });
    const room = await createRoom(database.db, { entityId: entityA.id, buildingId: buildingA.id });
    const open = [
      await createIncident(database.db, { entityId: entityA.id, roomId: room.id, assigneeId: user.id, status: IncidentStatus.PENDING }),
      await createIncident(database.db, { entityId: entityA.id, roomId: room.id, assigneeId: user.id, status: IncidentStatus.IN_PROGRESS }),
    ];
    const done = await createIncident(database.db, { entityId: entityA.id, roomId: room.id, assigneeId: user.id, status: IncidentStatus.DONE });
    const plan = await createPlannedMaintenance(database.db, { entityId: entityA.id, assigneeIds: [user.id], roomIds: [room.id] });
    const pending = await createTask(database.db, { entityId: entityA.id, plannedMaintenanceId: plan.id, roomId: room.id, assigneeId: user.id });
    const finished = await createTask(database.db, {
      entityId: entityA.id,
      plannedMaintenanceId: plan.id,
      roomId: room.id,
      assigneeId: user.id,
      status: TaskStatus.DONE,
      dueDate: "2026-01-01",
    });
    return { user, open, done, plan, pending, finished };
  }

  it("moves open incidents to one user and maintenance to another, with an 'assigned' event each, and archives the user", async () => {
    const { user, open, done, plan, pending, finished } = await busyTechnician();
    const result = await archiveUser(ctxOf(manager), user.id, {
      incidentsUserId: technician.id,
      plannedMaintenanceUserId: manager.id,
      confirmName: `${user.name} ${user.surname}`,
    });
    expect(result).toEqual({ incidentsReassigned: 2, tasksReassigned: 1, plannedMaintenancesReassigned: 1 });
    for (const incident of open) {
      const [after] = await database.db.select().from(incidents).where(eq(incidents.id, incident.id));
      expect(after.assigneeId).toBe(technician.id);
      const events = await database.db.select().from(incidentEvents).where(eq(incidentEvents.incidentId, incident.id));
      expect(events.filter((e) => e.type === IncidentEventType.ASSIGNED)).toEqual([
        expect.objectContaining({
          actorId: manager.id,
          oldValue: { id: user.id, name: `${user.name} ${user.surname}` },
          newValue: { id: technician.id, name: `${technician.name} ${technician.surname}` },
        }),
      ]);
    }
    const [doneAfter] = await database.db.select().from(incidents).where(eq(incidents.id, done.id));
    expect(doneAfter.assigneeId).toBe(user.id);
    const taskAssignees = await database.db.select({ id: tasks.id, assigneeId: tasks.assigneeId }).from(tasks).where(eq(tasks.plannedMaintenanceId, plan.id));
    expect(Object.fromEntries(taskAssignees.map((t) => [t.id, t.assigneeId]))).toEqual({ [pending.id]: manager.id, [finished.id]: user.id });
    const planAssignees = await database.db.select().from(plannedMaintenanceAssignees).where(eq(plannedMaintenanceAssignees.plannedMaintenanceId, plan.id));
    expect(planAssignees.map((a) => a.userId)).toEqual([manager.id]);

    expect((await row(user.id)).archivedAt).not.toBeNull();
    expect(await rejectionOf(getUser(ctxOf(manager), user.id))).toBeInstanceOf(NotFoundError);
    const listed = await listUsers(ctxOf(manager), listQuery("surname"));
    expect(listed.items.map((u) => u.id)).not.toContain(user.id);
    const assignees = await listAssignees(ctxOf(technician), { size: 100 });
    expect(assignees.items.map((u) => u.id)).not.toContain(user.id);
    expect((await auditOf(user.id)).at(-1)).toMatchObject({ action: "user.archive", actorId: manager.id });
  });

  it("leaves the work unassigned with 0 (the default)", async () => {
    const { user, open, pending } = await busyTechnician();
    await archiveUser(ctxOf(manager), user.id, {});
    const [first] = await database.db.select().from(incidents).where(eq(incidents.id, open[0].id));
    expect(first.assigneeId).toBeNull();
    const [event] = await database.db
      .select()
      .from(incidentEvents)
      .where(and(eq(incidentEvents.incidentId, open[0].id), eq(incidentEvents.type, IncidentEventType.ASSIGNED)));
    expect(event.newValue).toBeNull();
    const [task] = await database.db.select().from(tasks).where(eq(tasks.id, pending.id));
    expect(task.assigneeId).toBeNull();
  });

  it("refuses a wrong name, a successor of another entity, oneself and technicians, changing nothing", async () => {
    const { user, open } = await busyTechnician();
    const wrong = await rejectionOf<ValidationError>(archiveUser(ctxOf(manager), user.id, { confirmName: "Someone else" }));
    expect(wrong.fieldErrors?.confirmName).toEqual(["common:archive.wrongName"]);
    await expectFieldError(archiveUser(ctxOf(manager), user.id, { incidentsUserId: otherManager.id }), "incidentsUserId", "users:validation.successor");
    await expectFieldError(archiveUser(ctxOf(manager), user.id, { plannedMaintenanceUserId: user.id }), "plannedMaintenanceUserId", "users:validation.successor");
    expect((await rejectionOf<ConflictError>(archiveUser(ctxOf(manager), manager.id, {}))).code).toBe("SELF");
    expect(await rejectionOf(archiveUser(ctxOf(technician), user.id, {}))).toBeInstanceOf(ForbiddenError);
    expect(await rejectionOf(archiveUser(ctxOf(otherManager), user.id, {}))).toBeInstanceOf(NotFoundError);
    expect((await row(user.id)).archivedAt).toBeNull();
    const [still] = await database.db.select().from(incidents).where(eq(incidents.id, open[0].id));
    expect(still.assigneeId).toBe(user.id);
  });

  it("tells each successor of the incidents handed to them: in the bell, live, and by email when they receive notifications", async () => {
    const { user: first, open: firstOpen } = await busyTechnician();
    const { user: second, open: secondOpen } = await busyTechnician();
    const mailed = await createUser(database.db, { entityId: entityA.id, role: Role.TECHNICIAN, receiveNotification: true });
    const quiet = await createUser(database.db, { entityId: entityA.id, role: Role.TECHNICIAN, receiveNotification: false });
    for (const u of [mailed, quiet]) await linkUserTo(database.db, { entityId: entityA.id, userId: u.id, facilityId: facilityA.id });
    await services.queue.drain();
    const published = services.events.published.length;

    await archiveUser(ctxOf(manager), first.id, { incidentsUserId: mailed.id });
    await archiveUser(ctxOf(manager), second.id, { incidentsUserId: quiet.id });
    await services.queue.drain();

    const told = async (userId: number) =>
      (
        await database.db
          .select({ incidentId: notificationDetails.incidentId, type: notificationDetails.type })
          .from(notifications)
          .innerJoin(notificationDetails, eq(notificationDetails.id, notifications.detailsId))
          .where(eq(notifications.userId, userId))
      ).sort((a, b) => a.incidentId! - b.incidentId!);
    expect(await told(mailed.id)).toEqual(firstOpen.map((i) => ({ incidentId: i.id, type: NotificationType.INCIDENT_ASSIGNED })));
    expect(await told(quiet.id)).toEqual(secondOpen.map((i) => ({ incidentId: i.id, type: NotificationType.INCIDENT_ASSIGNED })));
    // Archived, they are told nothing of losing them.
    expect(await told(first.id)).toEqual([]);

    const live = services.events.published.slice(published);
    const liveFor = (userId: number) => live.filter((e) => e.type === "notification.created" && e.userIds?.includes(userId));
    expect(liveFor(mailed.id)).toHaveLength(2);
    expect(liveFor(quiet.id)).toHaveLength(2);
    expect(live.filter((e) => e.type === "incident.assigned").map((e) => e.data?.incidentId).sort()).toEqual([...firstOpen, ...secondOpen].map((i) => i.id).sort());

    const mails = await services.mails();
    expect(mails.filter((m) => m.to === mailed.email)).toHaveLength(2);
    expect(mails.filter((m) => m.to === quiet.email)).toEqual([]);
  });

  it("refuses a successor who does not reach every incident that would move to them, changing nothing", async () => {
    const { user, open } = await busyTechnician();
    const elsewhere = await createBuilding(database.db, { entityId: entityA.id, name: "Annex" });
    const outsider = await createUser(database.db, { entityId: entityA.id, role: Role.TECHNICIAN });
    await linkUserTo(database.db, { entityId: entityA.id, userId: outsider.id, buildingId: elsewhere.id });
    // The archive dialog offers only who reaches them all.
    const offered = (await listAssignees(ctxOf(manager), { successorsOf: user.id, excludeId: user.id, size: 100 })).items.map((u) => u.id);
    expect(offered).toEqual(expect.arrayContaining([admin.id, technician.id]));
    expect(offered).not.toContain(outsider.id);
    await expectFieldError(archiveUser(ctxOf(manager), user.id, { incidentsUserId: outsider.id }), "incidentsUserId", "users:validation.successorOutOfReach");
    expect((await row(user.id)).archivedAt).toBeNull();
    const [still] = await database.db.select().from(incidents).where(eq(incidents.id, open[0].id));
    expect(still.assigneeId).toBe(user.id);
    // An administrator reaches everything: accepted.
    await archiveUser(ctxOf(manager), user.id, { incidentsUserId: admin.id });
    const [moved] = await database.db.select().from(incidents).where(eq(incidents.id, open[0].id));
    expect(moved.assigneeId).toBe(admin.id);
  });

  it("frees the address: an archived user's email can be invited again", async () => {
    const user = await inviteUser(ctxOf(manager), newUser());
    await archiveUser(ctxOf(manager), user.id, {});
    const again = await inviteUser(ctxOf(manager), newUser({ email: user.email }));
    expect(again.id).not.toBe(user.id);
  });
});

describe("listUsers and listAssignees", () => {
  it("lists the entity's users only, searches, filters and sorts", async () => {
    const page = await listUsers(ctxOf(manager), listQuery("surname"));
    expect(page.items.length).toBeGreaterThan(0);
    expect(page.items.map((u) => u.id)).not.toContain(otherManager.id);
    const found = await listUsers(ctxOf(manager), listQuery("surname", { q: technician.email.slice(0, 12) }));
    expect(found.items.map((u) => u.id)).toContain(technician.id);
    const admins = await listUsers(ctxOf(manager), listQuery("surname"), { role: Role.ADMINISTRATOR });
    expect(admins.items.every((u) => u.role === Role.ADMINISTRATOR)).toBe(true);
    const byEmailDesc = await listUsers(ctxOf(manager), listQuery("email", { dir: "desc" }));
    const emails = byEmailDesc.items.map((u) => u.email.toLowerCase());
    expect(emails).toEqual([...emails].sort().reverse());
    const tech = page.items.find((u) => u.id === technician.id)!;
    expect(tech.linkedFacilities).toEqual([{ id: facilityA.id, name: "Campus" }]);
    expect(await rejectionOf(listUsers(ctxOf(technician), listQuery("surname")))).toBeInstanceOf(ForbiddenError);
  });

  it("offers active and not-yet-validated users of the caller's entity as assignees, never another entity's", async () => {
    const disabled = await createUser(database.db, { entityId: entityA.id, role: Role.TECHNICIAN, status: UserStatus.DISABLED });
    const mine = await listAssignees(ctxOf(technician), { entityIds: [entityA.id], size: 100 });
    const ids = mine.items.map((u) => u.id);
    expect(ids).toContain(manager.id);
    expect(ids).not.toContain(disabled.id);
    expect(ids).not.toContain(otherManager.id);
    expect((await listAssignees(ctxOf(technician), { entityIds: [entityB.id] })).items).toEqual([]);
  });
});
