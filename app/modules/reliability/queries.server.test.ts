import { beforeAll, describe, expect, it } from "vitest";
import { IncidentStatus, TaskStatus } from "~/db/enums";
import type { EquipmentItem, User } from "~/db/schema";
import { ForbiddenError, NotFoundError } from "~/lib/errors";
import { dayIn } from "~/lib/dates";
import { createBuilding, createEquipmentItem, createEquipmentType, createIncident, createMaintenanceType, createPlannedMaintenance, createRoom, createTask, linkUserTo } from "#tests/factories";
import { actorContext, rejectionOf } from "#tests/service-helpers";
import { setupTestDatabase, setupTwoEntities } from "#tests/test-context";
import { failuresPerMonth, getEquipmentItemSummary, getReliability, listEquipmentItemIncidents, listEquipmentItemTasks, listLeastReliableEquipment } from "./queries.server";

/**
 * Figures written out by hand. Old incidents (UTC, far outside the last twelve months):
 *  item A (room A, building A, generic equipment G):
 *   a1 2020-01-01 00:00  Done 10 h later
 *   a2 2020-01-11 00:00  Done 20 h later
 *   a3 2020-01-21 00:00  Archived (workflow), done 60 h later
 *   a4 2020-01-31 00:00  Pending
 *   a5 2020-01-05 00:00  Rejected, done_at set 1 h later         (not a failure)
 *   a6 2020-01-06 00:00  Done 2 h later, duplicate of a1         (not a failure)
 *   a7 2020-01-07 00:00  Done 3 h later, archived_at set          (hidden)
 *  => failures 4, repaired 3, median 20 h, mean 30 h, MTBF 30 days / 3 = 240 h.
 *  item B (room A, another generic equipment): b1 2020-03-01 00:00 Pending => 1 failure, no MTBF, no repair.
 *  item C (room C, building C, generic equipment G): c1 2020-02-10 00:00 Done 4 h later.
 *  G: a1-a4 and c1: 5 failures, repair times 10, 20, 60, 4 => median 15 h, mean 23.5 h; MTBF 40 days / 4 = 240 h.
 *  Room A: a1-a4 and b1: 5 failures, median 20 h, mean 30 h, MTBF 60 days (2020 is a leap year) / 4 = 360 h.
 * Recent incidents (the last twelve months): item D (room A) failures 70, 40 and 10 days ago, Done 5 h,
 * Done 7 h, Pending, and one Rejected 2 days ago => 3 failures, median 6 h, mean 6 h, MTBF 60 days / 2 = 720 h;
 * item E (room C) one failure 5 days ago. A technician linked to building C only.
 */
const database = setupTestDatabase();
const people = setupTwoEntities(database);
let itemA: EquipmentItem;
let itemB: EquipmentItem;
let itemC: EquipmentItem;
let itemD: EquipmentItem;
let itemE: EquipmentItem;
let roomA: number;
let typeG: number;

const ctxOf = (user: User) => actorContext(database.db, user);
const at = (iso: string) => new Date(iso);
const hoursAfter = (iso: string, h: number) => new Date(Date.parse(iso) + h * 3600_000);
const DAY = 24 * 3600_000;

beforeAll(async () => {
  const db = database.db;
  const e = people.entity.id;
  const buildingA = await createBuilding(db, { entityId: e });
  const buildingC = await createBuilding(db, { entityId: e });
  roomA = (await createRoom(db, { entityId: e, buildingId: buildingA.id })).id;
  const roomC = (await createRoom(db, { entityId: e, buildingId: buildingC.id })).id;
  await linkUserTo(db, { entityId: e, userId: people.manager.id, buildingId: buildingA.id });
  await linkUserTo(db, { entityId: e, userId: people.technician.id, buildingId: buildingC.id });
  typeG = (await createEquipmentType(db, { entityId: e })).id;
  itemA = await createEquipmentItem(db, { entityId: e, roomId: roomA, equipmentTypeId: typeG });
  itemB = await createEquipmentItem(db, { entityId: e, roomId: roomA });
  itemC = await createEquipmentItem(db, { entityId: e, roomId: roomC, equipmentTypeId: typeG });
  itemD = await createEquipmentItem(db, { entityId: e, roomId: roomA });
  itemE = await createEquipmentItem(db, { entityId: e, roomId: roomC });

  const onA = { entityId: e, equipmentItemId: itemA.id };
  const a1 = await createIncident(db, { ...onA, title: "a1", createdAt: at("2020-01-01T00:00Z"), status: IncidentStatus.DONE, doneAt: hoursAfter("2020-01-01T00:00Z", 10) });
  await createIncident(db, { ...onA, title: "a2", createdAt: at("2020-01-11T00:00Z"), status: IncidentStatus.DONE, doneAt: hoursAfter("2020-01-11T00:00Z", 20) });
  await createIncident(db, { ...onA, title: "a3", createdAt: at("2020-01-21T00:00Z"), status: IncidentStatus.ARCHIVED, doneAt: hoursAfter("2020-01-21T00:00Z", 60) });
  await createIncident(db, { ...onA, title: "a4", createdAt: at("2020-01-31T00:00Z") });
  await createIncident(db, { ...onA, title: "a5", createdAt: at("2020-01-05T00:00Z"), status: IncidentStatus.REJECTED, doneAt: hoursAfter("2020-01-05T00:00Z", 1) });
  await createIncident(db, { ...onA, title: "a6", createdAt: at("2020-01-06T00:00Z"), status: IncidentStatus.DONE, doneAt: hoursAfter("2020-01-06T00:00Z", 2), duplicateOfId: a1.id });
  await createIncident(db, { ...onA, title: "a7", createdAt: at("2020-01-07T00:00Z"), status: IncidentStatus.DONE, doneAt: hoursAfter("2020-01-07T00:00Z", 3), archivedAt: at("2020-02-01T00:00Z") });
  await createIncident(db, { entityId: e, equipmentItemId: itemB.id, title: "b1", createdAt: at("2020-03-01T00:00Z") });
  await createIncident(db, { entityId: e, equipmentItemId: itemC.id, title: "c1", createdAt: at("2020-02-10T00:00Z"), status: IncidentStatus.DONE, doneAt: hoursAfter("2020-02-10T00:00Z", 4) });

  const ago = (days: number) => new Date(Date.now() - days * DAY);
  const onD = { entityId: e, equipmentItemId: itemD.id };
  const d70 = ago(70);
  const d40 = ago(40);
  await createIncident(db, { ...onD, title: "d1", createdAt: d70, status: IncidentStatus.DONE, doneAt: new Date(d70.getTime() + 5 * 3600_000) });
  await createIncident(db, { ...onD, title: "d2", createdAt: d40, status: IncidentStatus.DONE, doneAt: new Date(d40.getTime() + 7 * 3600_000) });
  await createIncident(db, { ...onD, title: "d3", createdAt: ago(10) });
  await createIncident(db, { ...onD, title: "d4", createdAt: ago(2), status: IncidentStatus.REJECTED });
  await createIncident(db, { entityId: e, equipmentItemId: itemE.id, title: "e1", createdAt: ago(5) });

  // Another entity's equipment with a failure: never counted here.
  const otherItem = await createEquipmentItem(db, { entityId: people.other.id });
  await createIncident(db, { entityId: people.other.id, equipmentItemId: otherItem.id, createdAt: ago(3) });

  // Maintenance tasks of item A: one done, one pending, and one due next year (not shown).
  const maintenanceType = await createMaintenanceType(db, { entityId: e });
  const plan = await createPlannedMaintenance(db, { entityId: e, maintenanceTypeId: maintenanceType.id, name: "Filter change" });
  await createTask(db, { entityId: e, plannedMaintenanceId: plan.id, roomId: roomA, equipmentItemId: itemA.id, dueDate: "2020-01-15", status: TaskStatus.DONE, doneAt: at("2020-01-15T10:00Z") });
  await createTask(db, { entityId: e, plannedMaintenanceId: plan.id, roomId: roomA, equipmentItemId: itemA.id, dueDate: "2020-02-15" });
  await createTask(db, { entityId: e, plannedMaintenanceId: plan.id, roomId: roomA, equipmentItemId: itemA.id, dueDate: dayIn(Date.now() + 400 * DAY, "Europe/Brussels") });
});

describe("getReliability", () => {
  it("counts failures, the median and mean time to repair and the MTBF of an equipment item", async () => {
    expect(await getReliability(ctxOf(people.admin), { equipmentItemId: itemA.id })).toEqual({
      failures: 4,
      repaired: 3,
      medianRepairHours: 20,
      meanRepairHours: 30,
      mtbfHours: 240,
      downtimeHours: 0,
    });
  });

  it("leaves out rejected incidents, duplicates and archived rows (a6 alone would make the median 15 h)", async () => {
    const figures = await getReliability(ctxOf(people.admin), { equipmentItemId: itemA.id });
    expect(figures.failures).toBe(4);
    expect(figures.medianRepairHours).not.toBe(15);
  });

  it("counts only the failures reported in a period", async () => {
    const period = { from: at("2020-01-10T00:00Z"), to: at("2020-02-01T00:00Z") };
    expect(await getReliability(ctxOf(people.admin), { equipmentItemId: itemA.id }, period)).toEqual({
      failures: 3,
      repaired: 2,
      medianRepairHours: 40,
      meanRepairHours: 40,
      mtbfHours: 240,
      downtimeHours: 0,
    });
  });

  it("has no MTBF under two failures and no time to repair before a Done", async () => {
    expect(await getReliability(ctxOf(people.admin), { equipmentItemId: itemB.id })).toEqual({
      failures: 1,
      repaired: 0,
      medianRepairHours: null,
      meanRepairHours: null,
      mtbfHours: null,
      downtimeHours: 0,
    });
  });

  it("works per generic equipment and per room", async () => {
    expect(await getReliability(ctxOf(people.admin), { equipmentTypeId: typeG }, { from: at("2019-01-01T00:00Z"), to: at("2021-01-01T00:00Z") })).toEqual({
      failures: 5,
      repaired: 4,
      medianRepairHours: 15,
      meanRepairHours: 23.5,
      mtbfHours: 240,
      downtimeHours: 0,
    });
    expect(await getReliability(ctxOf(people.admin), { roomId: roomA }, { from: at("2019-01-01T00:00Z"), to: at("2021-01-01T00:00Z") })).toEqual({
      failures: 5,
      repaired: 3,
      medianRepairHours: 20,
      meanRepairHours: 30,
      mtbfHours: 360,
      downtimeHours: 0,
    });
  });

  it("counts only what lies within the viewer's reach", async () => {
    const none = { failures: 0, repaired: 0, medianRepairHours: null, meanRepairHours: null, mtbfHours: null, downtimeHours: 0 };
    expect(await getReliability(ctxOf(people.technician), { equipmentItemId: itemA.id })).toEqual(none);
    // Of G, the technician reaches item C alone.
    expect(await getReliability(ctxOf(people.technician), { equipmentTypeId: typeG }, { from: at("2019-01-01T00:00Z"), to: at("2021-01-01T00:00Z") })).toEqual({
      failures: 1,
      repaired: 1,
      medianRepairHours: 4,
      meanRepairHours: 4,
      mtbfHours: null,
      downtimeHours: 0,
    });
  });

  it("counts nothing of another entity's equipment", async () => {
    expect((await getReliability(ctxOf(people.otherAdmin), { equipmentItemId: itemA.id })).failures).toBe(0);
  });
});

describe("an equipment item's history", () => {
  it("reads the item, its incidents newest first (duplicates marked) and its tasks due so far", async () => {
    const ctx = ctxOf(people.manager);
    const item = await getEquipmentItemSummary(ctx, itemA.id);
    expect(item).toMatchObject({ id: itemA.id, roomId: roomA, equipmentTypeId: typeG });
    const page = await listEquipmentItemIncidents(ctx, itemA.id, { page: 1, size: 4 });
    expect(page.total).toBe(6);
    expect(page.items.map((i) => i.title)).toEqual(["a4", "a3", "a2", "a6"]);
    expect(page.items.find((i) => i.title === "a6")?.duplicate).toBe(true);
    const second = await listEquipmentItemIncidents(ctx, itemA.id, { page: 2, size: 4 });
    expect(second.items.map((i) => i.title)).toEqual(["a5", "a1"]);
    const tasks = await listEquipmentItemTasks(ctx, itemA.id);
    expect(tasks.map((t) => [t.name, t.dueDate, t.status])).toEqual([
      ["Filter change", "2020-02-15", TaskStatus.PENDING],
      ["Filter change", "2020-01-15", TaskStatus.DONE],
    ]);
  });

  it("is not found for a technician outside the item's reach, nor for another entity", async () => {
    expect(await rejectionOf(getEquipmentItemSummary(ctxOf(people.technician), itemA.id))).toBeInstanceOf(NotFoundError);
    expect(await rejectionOf(getEquipmentItemSummary(ctxOf(people.otherAdmin), itemA.id))).toBeInstanceOf(NotFoundError);
    expect((await getEquipmentItemSummary(ctxOf(people.technician), itemC.id)).id).toBe(itemC.id);
  });

  it("counts the failures of the last twelve months per month", async () => {
    const months = await failuresPerMonth(ctxOf(people.admin), { equipmentItemId: itemD.id });
    expect(months).toHaveLength(12);
    expect(months.at(-1)?.month).toBe(dayIn(Date.now(), "Europe/Brussels").slice(0, 7));
    expect(months.reduce((s, m) => s + m.failures, 0)).toBe(3);
    expect((await failuresPerMonth(ctxOf(people.admin), { equipmentItemId: itemA.id })).every((m) => m.failures === 0)).toBe(true);
  });
});

describe("listLeastReliableEquipment", () => {
  it("lists the items with the most failures over the last twelve months", async () => {
    const rows = await listLeastReliableEquipment(ctxOf(people.admin));
    expect(rows.map((r) => [r.id, r.failures, r.medianRepairHours, r.meanRepairHours, r.mtbfHours])).toEqual([
      [itemD.id, 3, 6, 6, 720],
      [itemE.id, 1, null, null, null],
    ]);
  });

  it("keeps to the viewer's reach", async () => {
    expect((await listLeastReliableEquipment(ctxOf(people.manager))).map((r) => r.id)).toEqual([itemD.id]);
  });

  it("is the dashboard's: a technician is refused", async () => {
    expect(await rejectionOf(listLeastReliableEquipment(ctxOf(people.technician)))).toBeInstanceOf(ForbiddenError);
  });
});
