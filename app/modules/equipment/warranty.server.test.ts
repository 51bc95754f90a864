import { and, asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Database, openDatabase } from "~/db/client.server";
import { NotificationType, Role } from "~/db/enums";
import { changeEvents, type Entity, entities, type EquipmentItem, equipmentItems, equipmentWarrantyReminders, notificationDetails, notifications, type User } from "~/db/schema";
import { createBuilding, createEntity, createEquipmentItem, createEquipmentType, createFacility, createRoom, createUser, linkUserTo } from "#tests/factories";
import { setupTestDatabase } from "#tests/test-context";
import { runWarrantyPass } from "./warranty.server";

/**
 * The warranty pass and its notification (issue 63). Entity A reminds 30 days ahead (the default) in
 * Brussels time; on Monday 7 December 2026 at 10:00 UTC its window is 2026-12-07 to 2027-01-06. Entity B
 * reminds 10 days ahead. Dates written out by hand.
 */
const database = setupTestDatabase({ services: true });
let second: Database;
let [entityA, entityB] = [] as Entity[];
/** The people told or not: entity A's administrator, its North and South managers, its North technician; B's administrator. */
let [adminA, managerNorth, managerSouth, techNorth, adminB] = [] as User[];
/** Entity A's items ending on 2026-12-20, 2027-01-20, 2026-12-06 (ended) and an archived one; entity B's, 12-12 and 12-25. */
let [soon, later, ended, archived, itemB, farB] = [] as EquipmentItem[];

function passAt(instant: string, db = database.database) {
  return runWarrantyPass({ ...database.services.ctx(entityA.id, null), db: db.db }, new Date(instant));
}

/** Who was told about which item, in order. */
async function told() {
  await database.services.queue.drain();
  const rows = await database.db
    .select({ userId: notifications.userId, subject: notificationDetails.subject, message: notificationDetails.message })
    .from(notifications)
    .innerJoin(notificationDetails, eq(notificationDetails.id, notifications.detailsId))
    .where(eq(notificationDetails.type, NotificationType.WARRANTY_ENDING))
    .orderBy(asc(notifications.id));
  return rows.map((r) => ({ userId: r.userId, subject: r.subject, item: r.message.equipmentItemId, ends: r.message.warrantyEndsOn }));
}

beforeAll(async () => {
  const db = database.db;
  second = database.database.url ? await openDatabase({ url: database.database.url, poolMax: 3 }) : database.database;
  entityA = await createEntity(db, { timeZone: "Europe/Brussels" });
  entityB = await createEntity(db, { timeZone: "Europe/Brussels" });
  await db.update(entities).set({ warrantyReminderDays: 10 }).where(eq(entities.id, entityB.id));
  const north = await createFacility(db, { entityId: entityA.id, name: "North" });
  const south = await createFacility(db, { entityId: entityA.id, name: "South" });
  const northRoom = await createRoom(db, { entityId: entityA.id, buildingId: (await createBuilding(db, { entityId: entityA.id, facilityId: north.id })).id });
  await createBuilding(db, { entityId: entityA.id, facilityId: south.id });
  adminA = await createUser(db, { entityId: entityA.id, role: Role.ADMINISTRATOR, receiveNotification: true });
  managerNorth = await createUser(db, { entityId: entityA.id, role: Role.FACILITY_MANAGER, receiveNotification: true });
  managerSouth = await createUser(db, { entityId: entityA.id, role: Role.FACILITY_MANAGER, receiveNotification: true });
  techNorth = await createUser(db, { entityId: entityA.id, role: Role.TECHNICIAN, receiveNotification: true });
  adminB = await createUser(db, { entityId: entityB.id, role: Role.ADMINISTRATOR, receiveNotification: true });
  await linkUserTo(db, { entityId: entityA.id, userId: managerNorth.id, facilityId: north.id });
  await linkUserTo(db, { entityId: entityA.id, userId: managerSouth.id, facilityId: south.id });
  await linkUserTo(db, { entityId: entityA.id, userId: techNorth.id, facilityId: north.id });
  const boilerType = await createEquipmentType(db, { entityId: entityA.id, name: "Boiler" });
  const item = (reference: string, warrantyEndsOn: string) =>
    createEquipmentItem(db, { entityId: entityA.id, roomId: northRoom.id, equipmentTypeId: boilerType.id, internalReference: reference, warrantyEndsOn });
  soon = await item("B-SOON", "2026-12-20");
  later = await item("B-LATER", "2027-01-20");
  ended = await item("B-ENDED", "2026-12-06");
  archived = await item("B-ARCH", "2026-12-15");
  await db.update(equipmentItems).set({ archivedAt: new Date() }).where(eq(equipmentItems.id, archived.id));
  itemB = await createEquipmentItem(db, { entityId: entityB.id, internalReference: "B-ONE", warrantyEndsOn: "2026-12-12" });
  farB = await createEquipmentItem(db, { entityId: entityB.id, internalReference: "B-FAR", warrantyEndsOn: "2026-12-25" });
});

afterAll(async () => {
  if (second && second !== database.database) await second.close();
});

describe("the warranty pass", () => {
  it("reminds the managers who reach an item once, though two processes run it twice, within each entity's days", async () => {
    const [one, two] = await Promise.all([passAt("2026-12-07T10:00:00Z"), passAt("2026-12-07T10:00:00Z", second)]);
    // Entity A: the boiler ending on 2026-12-20; entity B (10 days): the one ending on 2026-12-12.
    expect(one + two).toBe(2);
    await passAt("2026-12-07T11:00:00Z");
    const reminders = await database.db.select().from(equipmentWarrantyReminders).orderBy(equipmentWarrantyReminders.id);
    expect(reminders.map((r) => [r.entityId, r.equipmentItemId, r.warrantyEndsOn])).toEqual([
      [entityA.id, soon.id, "2026-12-20"],
      [entityB.id, itemB.id, "2026-12-12"],
    ]);
    const changes = await database.db.select().from(changeEvents).where(eq(changeEvents.type, "equipmentItem.warranty-ending")).orderBy(changeEvents.id);
    expect(changes.map((c) => c.subjectId)).toEqual([soon.id, itemB.id]);
    // The administrator and the North manager; not the South manager, not the technician; B's administrator of B's item.
    expect(await told()).toEqual([
      { userId: adminA.id, subject: "Boiler B-SOON", item: soon.id, ends: "2026-12-20" },
      { userId: managerNorth.id, subject: "Boiler B-SOON", item: soon.id, ends: "2026-12-20" },
      { userId: adminB.id, subject: expect.stringContaining("B-ONE"), item: itemB.id, ends: "2026-12-12" },
    ]);
    // Neither the ended, the archived nor the later item reminded anyone.
    expect(reminders.some((r) => [ended.id, archived.id, later.id].includes(r.equipmentItemId))).toBe(false);
  });

  it("reminds anew for a new warranty date, and the later item when its day comes", async () => {
    await database.db.update(equipmentItems).set({ warrantyEndsOn: "2026-12-28" }).where(eq(equipmentItems.id, soon.id));
    // 2026-12-22 local: B-SOON's new date, and B-LATER (2027-01-20) is within 30 days.
    expect(await passAt("2026-12-22T10:00:00Z")).toBe(3);
    const rows = await database.db
      .select({ item: equipmentWarrantyReminders.equipmentItemId, ends: equipmentWarrantyReminders.warrantyEndsOn })
      .from(equipmentWarrantyReminders)
      .where(eq(equipmentWarrantyReminders.entityId, entityA.id))
      .orderBy(equipmentWarrantyReminders.id);
    expect(rows).toEqual([
      { item: soon.id, ends: "2026-12-20" },
      { item: soon.id, ends: "2026-12-28" },
      { item: later.id, ends: "2027-01-20" },
    ]);
    const bRows = await database.db.select().from(equipmentWarrantyReminders).where(and(eq(equipmentWarrantyReminders.entityId, entityB.id), eq(equipmentWarrantyReminders.equipmentItemId, farB.id)));
    expect(bRows.map((r) => r.warrantyEndsOn)).toEqual(["2026-12-25"]);
  });
});
