import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { IncidentStatus, Role } from "~/db/enums";
import { auditLog, changeEvents, type Entity, type EquipmentItem, type Incident, incidents, type User } from "~/db/schema";
import { NotFoundError, ValidationError } from "~/lib/errors";
import { getReliability } from "~/modules/reliability/queries.server";
import { createBuilding, createEntity, createEquipmentItem, createIncident, createRoom, createUser, linkUserTo } from "#tests/factories";
import { createStaff } from "#tests/factories/staff";
import { actorContext } from "#tests/service-helpers";
import { setupTestDatabase } from "#tests/test-context";
import { setIncidentDowntime } from "./service.server";

/**
 * The equipment's downtime (decision 066): `setIncidentDowntime` marks an incident's equipment out of
 * service (downtime from the report to Done) or sets the downtime by hand, audited with a change event;
 * the reliability figures sum it. Figures written out by hand.
 */
const database = setupTestDatabase();
let entity: Entity;
let admin: User;
let technician: User;
let outsider: User;
let stranger: User;
let item: EquipmentItem;
let open: Incident;
let repaired: Incident;
let noEquipment: Incident;

const ctxOf = (user: User) => actorContext(database.db, user);
const rowOf = async (id: number) => (await database.db.select().from(incidents).where(eq(incidents.id, id)))[0];

beforeAll(async () => {
  const db = database.db;
  entity = await createEntity(db);
  const other = await createEntity(db);
  ({ admin, technician } = await createStaff(db, entity.id));
  outsider = await createUser(db, { entityId: entity.id, role: Role.TECHNICIAN });
  stranger = await createUser(db, { entityId: other.id, role: Role.ADMINISTRATOR });
  const building = await createBuilding(db, { entityId: entity.id });
  const elsewhere = await createBuilding(db, { entityId: entity.id });
  const room = await createRoom(db, { entityId: entity.id, buildingId: building.id });
  await linkUserTo(db, { entityId: entity.id, userId: technician.id, buildingId: building.id });
  await linkUserTo(db, { entityId: entity.id, userId: outsider.id, buildingId: elsewhere.id });
  item = await createEquipmentItem(db, { entityId: entity.id, roomId: room.id });
  // Reported 2020-03-01 08:00 UTC and Done 4 hours later; another still open; one on the room alone.
  repaired = await createIncident(db, {
    entityId: entity.id,
    equipmentItemId: item.id,
    roomId: room.id,
    createdAt: new Date("2020-03-01T08:00:00Z"),
    status: IncidentStatus.DONE,
    doneAt: new Date("2020-03-01T12:00:00Z"),
  });
  open = await createIncident(db, { entityId: entity.id, equipmentItemId: item.id, roomId: room.id, createdAt: new Date("2020-03-02T08:00:00Z") });
  noEquipment = await createIncident(db, { entityId: entity.id, roomId: room.id });
});

describe("setIncidentDowntime", () => {
  it("marks the equipment out of service from the report to Done, audited, with a change event", async () => {
    await setIncidentDowntime(ctxOf(technician), repaired.id, { equipmentDown: "on", downtimeHours: "" });
    expect(await rowOf(repaired.id)).toMatchObject({ equipmentDown: true, downtimeMinutes: null });
    const audits = await database.db.select().from(auditLog).where(and(eq(auditLog.entityId, entity.id), eq(auditLog.recordType, "incident")));
    expect(audits.map((a) => [a.action, a.recordId])).toEqual([["incident.set-downtime", String(repaired.id)]]);
    const changes = await database.db.select().from(changeEvents).where(and(eq(changeEvents.entityId, entity.id), eq(changeEvents.type, "incident.downtime-changed")));
    expect(changes.map((c) => c.payload)).toEqual([{ incidentId: repaired.id, shortId: repaired.shortId, equipmentDown: true, downtimeMinutes: null }]);
    // The same again writes nothing.
    await setIncidentDowntime(ctxOf(technician), repaired.id, { equipmentDown: true });
    expect(await database.db.select().from(auditLog).where(and(eq(auditLog.entityId, entity.id), eq(auditLog.recordType, "incident")))).toHaveLength(1);
  });

  it("takes the downtime by hand in hours, a comma or a point", async () => {
    await setIncidentDowntime(ctxOf(admin), open.id, { equipmentDown: "on", downtimeHours: "1,5" });
    expect(await rowOf(open.id)).toMatchObject({ equipmentDown: true, downtimeMinutes: 90 });
  });

  it("refuses hours that are not hours, and an incident without equipment, changing nothing", async () => {
    for (const bad of ["abc", "-1", "1.555", "9000"]) {
      await expect(setIncidentDowntime(ctxOf(admin), open.id, { equipmentDown: "on", downtimeHours: bad })).rejects.toBeInstanceOf(ValidationError);
    }
    await expect(setIncidentDowntime(ctxOf(admin), noEquipment.id, { equipmentDown: "on" })).rejects.toMatchObject({ code: "INCIDENT_HAS_NO_EQUIPMENT" });
    expect(await rowOf(open.id)).toMatchObject({ equipmentDown: true, downtimeMinutes: 90 });
    expect(await rowOf(noEquipment.id)).toMatchObject({ equipmentDown: false, downtimeMinutes: null });
  });

  it("is 'Incident not found' for another entity and for a technician out of reach", async () => {
    await expect(setIncidentDowntime(ctxOf(stranger), open.id, { equipmentDown: false })).rejects.toBeInstanceOf(NotFoundError);
    await expect(setIncidentDowntime(ctxOf(outsider), open.id, { equipmentDown: false })).rejects.toBeInstanceOf(NotFoundError);
    expect(await rowOf(open.id)).toMatchObject({ equipmentDown: true, downtimeMinutes: 90 });
  });
});

describe("the reliability figures' downtime", () => {
  it("sums the hand-set downtime and the report-to-Done spans of the incidents marked out of service", async () => {
    // repaired: 08:00 to 12:00 = 4 h; open: 1.5 h by hand. 5.5 h.
    expect((await getReliability(ctxOf(admin), { equipmentItemId: item.id })).downtimeHours).toBe(5.5);
    // Back in service: only the repaired one's 4 h.
    await setIncidentDowntime(ctxOf(admin), open.id, { equipmentDown: false, downtimeHours: "" });
    expect(await rowOf(open.id)).toMatchObject({ equipmentDown: false, downtimeMinutes: null });
    expect((await getReliability(ctxOf(admin), { equipmentItemId: item.id })).downtimeHours).toBe(4);
  });
});
