import { and, eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { PERMISSIONS, type PermissionTable, replacePermissionsForTest, type Subject, type Action } from "~/core/actor";
import type { Database } from "~/db/client.server";
import { Role } from "~/db/enums";
import { type Building, type Entity, type Incident, type Room, type User, users } from "~/db/schema";
import { assigneeCandidates, listIncidentAssignees } from "~/modules/incidents/queries.server";
import { openIncidentsOutOfReach } from "~/modules/incidents/writes.server";
import { createMaintenanceType } from "~/modules/maintenance/service.server";
import { taskDoneNotification } from "~/modules/maintenance/task-notifications.server";
import { listAssignees } from "~/modules/users/queries.server";
import { webhookDisabledNotification } from "~/modules/webhooks/notifications.server";
import { TimeMeasure } from "~/db/enums";
import { createBuilding, createEntity, createIncident, createPlannedMaintenance, createRoom, createUser, linkUserTo } from "#tests/factories";
import { actorContext, expectFieldError } from "#tests/service-helpers";
import { createTestDatabase } from "#tests/test-db";

/**
 * Roles are decided in the permission table alone (core/actor.ts): a test changes one role's rights in
 * the table and every query that picks people by their role follows (who reaches the whole entity, who
 * may be assigned incidents and tasks, who is told about a task done or a disabled webhook), with no
 * other code changed. The screens that follow the table: ./permission-table.test.tsx.
 */
let database: Database;
let entity: Entity;
let other: Entity;
let buildingA: Building;
let roomA: Room;
let admin: User;
/** Linked to facility A (the incident's). */
let technician: User;
/** Linked to facility A, told about what happens there. */
let managerA: User;
/** Linked to building B only: does not reach room A. */
let managerB: User;
let otherAdmin: User;
let otherManager: User;
let incident: Incident;
let restore: (() => void) | null = null;

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database?.close();
});
afterEach(() => {
  restore?.();
  restore = null;
});

beforeEach(async () => {
  const db = database.db;
  entity = await createEntity(db);
  other = await createEntity(db);
  buildingA = await createBuilding(db, { entityId: entity.id });
  const buildingB = await createBuilding(db, { entityId: entity.id });
  roomA = await createRoom(db, { entityId: entity.id, buildingId: buildingA.id });
  admin = await createUser(db, { entityId: entity.id, role: Role.ADMINISTRATOR, receiveNotification: true });
  technician = await createUser(db, { entityId: entity.id, role: Role.TECHNICIAN });
  managerA = await createUser(db, { entityId: entity.id, role: Role.FACILITY_MANAGER, receiveNotification: true });
  managerB = await createUser(db, { entityId: entity.id, role: Role.FACILITY_MANAGER, receiveNotification: true });
  await linkUserTo(db, { entityId: entity.id, userId: technician.id, facilityId: buildingA.facilityId });
  await linkUserTo(db, { entityId: entity.id, userId: managerA.id, facilityId: buildingA.facilityId });
  await linkUserTo(db, { entityId: entity.id, userId: managerB.id, buildingId: buildingB.id });
  // Another entity's people never appear, whatever the table says.
  otherAdmin = await createUser(db, { entityId: other.id, role: Role.ADMINISTRATOR, receiveNotification: true });
  otherManager = await createUser(db, { entityId: other.id, role: Role.FACILITY_MANAGER, receiveNotification: true });
  incident = await createIncident(db, { entityId: entity.id, roomId: roomA.id, assigneeId: technician.id });
});

/** The table with `holder`'s actions on `subject` replaced (in force until the test ends). */
function change(holder: keyof PermissionTable, subject: Subject, actions: readonly Action[]): void {
  const changed: PermissionTable = { ...PERMISSIONS, [holder]: { ...PERMISSIONS[holder], [subject]: actions } };
  restore = replacePermissionsForTest(changed);
}

const ctx = (user: User = admin) => actorContext(database.db, user);
const ids = (list: User[]) => list.map((u) => u.id).sort((a, b) => a - b);
const sortedIds = (rows: { id: number }[]) => rows.map((r) => r.id).sort((a, b) => a - b);

async function incidentAssignees(asUser: User = admin) {
  return sortedIds((await listIncidentAssignees(ctx(asUser), incident.id, { size: 100 })).items);
}
async function withoutRoom() {
  return sortedIds(await database.db.select({ id: users.id }).from(users).where(assigneeCandidates(ctx(), null)));
}
async function pickable(successorsOf?: number) {
  return sortedIds((await listAssignees(ctx(), { size: 100, successorsOf })).items);
}
async function taskDoneRecipients() {
  const plan = await createPlannedMaintenance(database.db, { entityId: entity.id, roomIds: [roomA.id] });
  const content = await taskDoneNotification.compose(
    ctx(),
    { taskId: 1, plannedMaintenanceId: plan.id, roomId: roomA.id, dueDate: "2027-03-01", assigneeId: null, hasNote: false, hasPhoto: false },
    undefined as never,
  );
  return [...(content?.recipients ?? [])].sort((a, b) => a - b);
}
async function webhookRecipients() {
  const content = await webhookDisabledNotification.compose(ctx(), { endpointId: 1, name: "Hook", failedDeliveries: 5 }, undefined as never);
  return [...(content?.recipients ?? [])].sort((a, b) => a - b);
}

describe("who reaches the whole entity follows the table", () => {
  it("as it is: administrators; managers and technicians by their links", async () => {
    expect(await incidentAssignees()).toEqual(ids([admin, technician, managerA]));
    expect(await withoutRoom()).toEqual(ids([admin]));
    expect(await openIncidentsOutOfReach(ctx(), technician.id, managerB.id)).toBe(1);
    // Who may take over the technician's open incidents (the technician reaches them too).
    expect(await pickable(technician.id)).toEqual(ids([admin, technician, managerA]));
  });

  it("given to facility managers: every manager reaches every room, and may take over any incident", async () => {
    change("facilityManager", "wholeEntity", ["reach"]);
    expect(await incidentAssignees()).toEqual(ids([admin, technician, managerA, managerB]));
    expect(await withoutRoom()).toEqual(ids([admin, managerA, managerB]));
    expect(await openIncidentsOutOfReach(ctx(), technician.id, managerB.id)).toBe(0);
    expect(await pickable(technician.id)).toEqual(ids([admin, technician, managerA, managerB]));
  });

  it("taken from administrators: they reach only what they are linked to (none here)", async () => {
    change("administrator", "wholeEntity", []);
    expect(await incidentAssignees(managerA)).toEqual(ids([technician, managerA]));
    expect(await withoutRoom()).toEqual([]);
    expect(await openIncidentsOutOfReach(ctx(), technician.id, admin.id)).toBe(1);
  });
});

describe("who may be assigned follows the table", () => {
  it("technicians who may no longer handle incidents are no assignees of incidents", async () => {
    expect(await pickable()).toEqual(ids([admin, technician, managerA, managerB]));
    change("technician", "incident", ["read", "comment", "report"]);
    expect(await incidentAssignees()).toEqual(ids([admin, managerA]));
    expect(await pickable()).toEqual(ids([admin, managerA, managerB]));
    expect(await openIncidentsOutOfReach(ctx(), managerA.id, technician.id)).toBe(0); // managerA has none open
    const [mine] = await database.db.select({ id: users.id }).from(users).where(and(eq(users.id, technician.id), assigneeCandidates(ctx(), roomA.id)));
    expect(mine).toBeUndefined();
  });

  it("technicians who may no longer carry out tasks are refused as a maintenance type's assignees", async () => {
    const input = { name: "Boiler check", tags: [], occurrenceUnit: TimeMeasure.MONTH, occurrenceInterval: 3, instructions: "", assigneeIds: [technician.id], roomIds: [], equipmentItemIds: [] };
    expect((await createMaintenanceType(ctx(), input)).id).toBeGreaterThan(0);
    change("technician", "task", ["read"]);
    await expectFieldError(createMaintenanceType(ctx(), { ...input, name: "Boiler check 2" }), "assigneeIds", "maintenance:validation.assigneeNotFound");
  });
});

describe("who is told follows the table", () => {
  it("a task done: the people whose role manages tasks, within reach", async () => {
    expect(await taskDoneRecipients()).toEqual(ids([admin, managerA]));
    change("facilityManager", "task", ["read", "update"]);
    expect(await taskDoneRecipients()).toEqual(ids([admin]));
  });

  it("a webhook disabled: the people whose role manages webhooks, in the entity", async () => {
    expect(await webhookRecipients()).toEqual(ids([admin]));
    change("facilityManager", "webhook", ["read", "manage"]);
    expect(await webhookRecipients()).toEqual(ids([admin, managerA, managerB]));
    expect(await webhookRecipients()).not.toContain(otherManager.id);
    expect(await webhookRecipients()).not.toContain(otherAdmin.id);
  });
});
