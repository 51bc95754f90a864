import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { ObjectType, Role, TaskStatus, TimeMeasure, UserStatus } from "~/db/enums";
import { auditLog, type Building, type EquipmentItem, maintenanceTypeRooms, maintenanceTypes, plannedMaintenanceLocations, plannedMaintenanceRooms, plannedMaintenances, type Room, tasks, type User } from "~/db/schema";
import { ForbiddenError, NotFoundError, ValidationError } from "~/lib/errors";
import { createBuilding, createEntity, createEquipmentItem, createFacility, createRoom, createUser, linkUserTo } from "#tests/factories";
import { setupTestDatabase, setupTwoEntities } from "#tests/test-context";
import { actorContext, expectFieldError, listQuery, rejectionOf } from "#tests/service-helpers";
import { getMaintenanceType, getPlannedMaintenance, listMaintenanceTypes, listPlannedMaintenances } from "./queries.server";
import type { MaintenanceTypeInput, PlannedMaintenanceInput } from "./schema";
import { archiveMaintenanceType, archivePlannedMaintenance, createMaintenanceType, createPlannedMaintenance, updateMaintenanceType, updatePlannedMaintenance } from "./service.server";

const database = setupTestDatabase();
const people = setupTwoEntities(database);
/** Linked to facility "Campus" only. */
let disabled: User;
let campusBuilding: Building;
let farBuilding: Building;
let room: Room;
let farRoom: Room;
let otherRoom: Room;
let item: EquipmentItem;
let farItem: EquipmentItem;

const ctxOf = (user: User) => actorContext(database.db, user);

const typeInput = (overrides: Partial<MaintenanceTypeInput> = {}): MaintenanceTypeInput => ({
  name: "Boiler check",
  tags: ["heating"],
  occurrenceUnit: TimeMeasure.MONTH,
  occurrenceInterval: 3,
  instructions: "Check the pressure.",
  ...overrides,
});

async function newType(overrides: Partial<MaintenanceTypeInput> = {}) {
  return createMaintenanceType(ctxOf(people.admin), typeInput(overrides));
}

async function planInput(overrides: Partial<PlannedMaintenanceInput> = {}): Promise<PlannedMaintenanceInput> {
  const typeId = overrides.maintenanceTypeId ?? (await newType()).id;
  return {
    name: "Boilers 2027",
    maintenanceTypeId: typeId,
    startDate: "2027-01-04",
    endDate: "2027-12-31",
    timeOfDay: "08:30",
    occurrenceUnit: TimeMeasure.WEEK,
    occurrenceInterval: 2,
    roomIds: [room.id],
    ...overrides,
  };
}

beforeAll(async () => {
  const db = database.db;
  disabled = await createUser(db, { entityId: people.entity.id, role: Role.TECHNICIAN, status: UserStatus.DISABLED });
  const campus = await createFacility(db, { entityId: people.entity.id, name: "Campus" });
  campusBuilding = await createBuilding(db, { entityId: people.entity.id, facilityId: campus.id, name: "Main" });
  farBuilding = await createBuilding(db, { entityId: people.entity.id, name: "Far" });
  await linkUserTo(db, { entityId: people.entity.id, userId: people.manager.id, facilityId: campus.id });
  room = await createRoom(db, { entityId: people.entity.id, buildingId: campusBuilding.id, name: "Boiler room" });
  farRoom = await createRoom(db, { entityId: people.entity.id, buildingId: farBuilding.id, name: "Far room" });
  otherRoom = await createRoom(db, { entityId: people.other.id, name: "Elsewhere" });
  item = await createEquipmentItem(db, { entityId: people.entity.id, roomId: room.id });
  farItem = await createEquipmentItem(db, { entityId: people.entity.id, roomId: farRoom.id });
});
describe("maintenance types", () => {
  it("creates a type with its defaults, and reads it back", async () => {
    const type = await createMaintenanceType(ctxOf(people.manager), typeInput({ assigneeIds: [people.technician.id], roomIds: [room.id], equipmentItemIds: [item.id], tags: ["Heating", "heating", " gas "] }));
    expect(type).toMatchObject({
      name: "Boiler check",
      tags: ["Heating", "gas"],
      occurrenceUnit: TimeMeasure.MONTH,
      occurrenceInterval: 3,
      instructions: "Check the pressure.",
      assignees: [{ id: people.technician.id }],
      rooms: [{ id: room.id, buildingName: "Main", facilityName: "Campus" }],
      equipmentItems: [{ id: item.id, roomId: room.id }],
      plansCount: 0,
    });
    const audit = await database.db.select().from(auditLog).where(eq(auditLog.recordId, String(type.id)));
    expect(audit.map((a) => a.action)).toContain("maintenanceType.create");
  });

  it("stores once without an interval, and a repeat without one as every 1", async () => {
    expect(await newType({ occurrenceUnit: TimeMeasure.UNSPECIFIED, occurrenceInterval: 4 })).toMatchObject({ occurrenceUnit: 0, occurrenceInterval: null });
    expect(await newType({ occurrenceUnit: TimeMeasure.DAY, occurrenceInterval: null })).toMatchObject({ occurrenceUnit: 1, occurrenceInterval: 1 });
  });

  it("keeps a type's estimated duration in minutes, or none, and refuses one that is not a whole number above 0", async () => {
    const type = await newType({ estimatedDuration: 30 });
    expect(type).toMatchObject({ estimatedDuration: 30 });
    expect(await getMaintenanceType(ctxOf(people.manager), type.id)).toMatchObject({ estimatedDuration: 30 });
    const updated = await updateMaintenanceType(ctxOf(people.manager), type.id, typeInput({ estimatedDuration: 120 }));
    expect(updated).toMatchObject({ estimatedDuration: 120 });
    expect(await updateMaintenanceType(ctxOf(people.manager), type.id, typeInput({ estimatedDuration: null }))).toMatchObject({ estimatedDuration: null });
    expect(await newType({})).toMatchObject({ estimatedDuration: null });
    for (const bad of [0, -5, 2.5]) await expectFieldError(newType({ estimatedDuration: bad }), "estimatedDuration", "maintenance:validation.estimatedDuration");
  });

  it("refuses a missing name, bad tags and a bad interval with their messages", async () => {
    await expectFieldError(newType({ name: "  " }), "name", "maintenance:validation.typeNameRequired");
    await expectFieldError(newType({ tags: ["a", "b", "c", "d"] }), "tags", "common:tags.tooMany");
    await expectFieldError(newType({ tags: [""] }), "tags.0", "common:tags.empty");
    await expectFieldError(newType({ tags: ["x".repeat(21)] }), "tags.0", "common:tags.tooLong");
    await expectFieldError(newType({ occurrenceInterval: 0 }), "occurrenceInterval", "maintenance:validation.occurrenceInterval");
    await expectFieldError(newType({ occurrenceUnit: 9 as never }), "occurrenceUnit", "maintenance:validation.occurrenceUnit");
  });

  it("refuses assignees and rooms of another entity, disabled users, and a room outside a manager's reach", async () => {
    await expectFieldError(newType({ assigneeIds: [people.otherAdmin.id] }), "assigneeIds", "maintenance:validation.assigneeNotFound");
    await expectFieldError(newType({ assigneeIds: [disabled.id] }), "assigneeIds", "maintenance:validation.assigneeNotFound");
    await expectFieldError(newType({ roomIds: [otherRoom.id] }), "roomIds", "maintenance:validation.locationNotFound");
    await expectFieldError(createMaintenanceType(ctxOf(people.manager), typeInput({ roomIds: [farRoom.id] })), "roomIds", "maintenance:validation.locationNotFound");
    await expectFieldError(createMaintenanceType(ctxOf(people.manager), typeInput({ equipmentItemIds: [farItem.id] })), "selection", "maintenance:validation.locationNotFound");
  });

  it("updates a type; a manager's update keeps the rooms outside their reach", async () => {
    const type = await newType({ roomIds: [room.id, farRoom.id] });
    const updated = await updateMaintenanceType(ctxOf(people.manager), type.id, typeInput({ name: "Boiler service", roomIds: [], occurrenceUnit: TimeMeasure.YEAR, occurrenceInterval: 1 }));
    expect(updated).toMatchObject({ name: "Boiler service", occurrenceUnit: TimeMeasure.YEAR, rooms: [] });
    const stored = await database.db.select().from(maintenanceTypeRooms).where(eq(maintenanceTypeRooms.maintenanceTypeId, type.id));
    expect(stored.map((r) => r.roomId)).toEqual([farRoom.id]);
  });

  it("archives a type with the retyped name, and its plans with it", async () => {
    const type = await newType({ name: "Filters" });
    const plan = await createPlannedMaintenance(ctxOf(people.admin), await planInput({ maintenanceTypeId: type.id }));
    await expectFieldError(archiveMaintenanceType(ctxOf(people.admin), type.id, { confirmName: "Filter" }), "confirmName", "common:archive.wrongName");
    expect(await archiveMaintenanceType(ctxOf(people.admin), type.id, { confirmName: " Filters " })).toEqual({ plannedMaintenancesArchived: 1 });
    const [row] = await database.db.select().from(maintenanceTypes).where(eq(maintenanceTypes.id, type.id));
    expect(row.archivedAt).not.toBeNull();
    const [planRow] = await database.db.select().from(plannedMaintenances).where(eq(plannedMaintenances.id, plan.id));
    expect(planRow.archivedAt).not.toBeNull();
    expect(await rejectionOf(getMaintenanceType(ctxOf(people.admin), type.id))).toBeInstanceOf(NotFoundError);
    expect(await rejectionOf(archiveMaintenanceType(ctxOf(people.admin), type.id))).toBeInstanceOf(NotFoundError);
  });

  it("answers Maintenance type not found for another entity's type, and changes nothing", async () => {
    const type = await newType({ name: "Mine" });
    const other = actorContext(database.db, people.otherAdmin);
    for (const call of [() => getMaintenanceType(other, type.id), () => updateMaintenanceType(other, type.id, typeInput()), () => archiveMaintenanceType(other, type.id, { confirmName: "Mine" })]) {
      const error = await rejectionOf(call());
      expect(error).toBeInstanceOf(NotFoundError);
      expect((error as NotFoundError).messageKey).toBe("maintenance:errors.typeNotFound");
    }
    expect((await getMaintenanceType(ctxOf(people.admin), type.id)).name).toBe("Mine");
  });

  it("refuses a technician every verb and read (Forbidden)", async () => {
    const type = await newType();
    const tech = ctxOf(people.technician);
    for (const call of [
      () => createMaintenanceType(tech, typeInput()),
      () => updateMaintenanceType(tech, type.id, typeInput()),
      () => archiveMaintenanceType(tech, type.id, { confirmName: type.name }),
      () => getMaintenanceType(tech, type.id),
      () => listMaintenanceTypes(tech, listQuery("name")),
    ]) {
      expect(await rejectionOf(call())).toBeInstanceOf(ForbiddenError);
    }
  });

  it("lists types with search on name or tag, sorted and paged", async () => {
    const db = database.db;
    const { ctx } = await (async () => {
      const entity = await createEntity(db);
      const boss = await createUser(db, { entityId: entity.id, role: Role.ADMINISTRATOR });
      return { ctx: actorContext(db, boss) };
    })();
    await createMaintenanceType(ctx, typeInput({ name: "Windows", tags: ["glass"], occurrenceUnit: TimeMeasure.YEAR, occurrenceInterval: 1 }));
    await createMaintenanceType(ctx, typeInput({ name: "Air filters", tags: [], occurrenceUnit: TimeMeasure.WEEK, occurrenceInterval: 1 }));
    await createMaintenanceType(ctx, typeInput({ name: "Lifts", tags: ["safety"], occurrenceUnit: TimeMeasure.MONTH, occurrenceInterval: 1 }));
    expect((await listMaintenanceTypes(ctx, listQuery("name"))).items.map((t) => t.name)).toEqual(["Air filters", "Lifts", "Windows"]);
    expect((await listMaintenanceTypes(ctx, listQuery("occurrence", { dir: "desc" }))).items.map((t) => t.name)).toEqual(["Windows", "Lifts", "Air filters"]);
    expect((await listMaintenanceTypes(ctx, listQuery("name", { q: "GLASS" }))).items.map((t) => t.name)).toEqual(["Windows"]);
    const page2 = await listMaintenanceTypes(ctx, listQuery("name", { size: 2, page: 2 }));
    expect(page2).toMatchObject({ total: 3, items: [{ name: "Windows" }] });
  });

  it("counts each type's own active plans in the list and in the type", async () => {
    const db = database.db;
    const entity = await createEntity(db);
    const boss = await createUser(db, { entityId: entity.id, role: Role.ADMINISTRATOR });
    const bossRoom = await createRoom(db, { entityId: entity.id, name: "Plant room" });
    const ctx = actorContext(db, boss);
    const lifts = await createMaintenanceType(ctx, typeInput({ name: "Lifts" }));
    const roofs = await createMaintenanceType(ctx, typeInput({ name: "Roofs" }));
    const wells = await createMaintenanceType(ctx, typeInput({ name: "Wells" }));
    const plan = (typeId: number, name: string) =>
      createPlannedMaintenance(ctx, { name, maintenanceTypeId: typeId, startDate: "2027-01-04", endDate: "2027-03-31", timeOfDay: "08:30", occurrenceUnit: TimeMeasure.MONTH, occurrenceInterval: 1, roomIds: [bossRoom.id] });
    await plan(lifts.id, "Lifts A");
    await plan(lifts.id, "Lifts B");
    const gone = await plan(lifts.id, "Lifts C");
    await archivePlannedMaintenance(ctx, gone.id);
    await plan(wells.id, "Wells A");
    const listed = await listMaintenanceTypes(ctx, listQuery("name"));
    expect(listed.items.map((t) => [t.name, t.plansCount])).toEqual([
      ["Lifts", 2],
      ["Roofs", 0],
      ["Wells", 1],
    ]);
    expect((await getMaintenanceType(ctx, lifts.id)).plansCount).toBe(2);
    expect((await getMaintenanceType(ctx, roofs.id)).plansCount).toBe(0);
    expect((await getMaintenanceType(ctx, wells.id)).plansCount).toBe(1);
  });
});

describe("planned maintenance", () => {
  it("creates a plan with its selection and reads it back", async () => {
    const type = await newType({ name: "Heating" });
    const plan = await createPlannedMaintenance(
      ctxOf(people.manager),
      await planInput({
        maintenanceTypeId: type.id,
        assigneeIds: [people.technician.id],
        facilityIds: [campusBuilding.facilityId],
        buildingIds: [campusBuilding.id],
        roomIds: [room.id],
        equipmentItemIds: [item.id],
        instructions: "Bleed the radiators",
      }),
    );
    expect(plan).toMatchObject({
      name: "Boilers 2027",
      maintenanceTypeId: type.id,
      maintenanceTypeName: "Heating",
      startDate: "2027-01-04",
      endDate: "2027-12-31",
      timeOfDay: "08:30",
      occurrenceUnit: TimeMeasure.WEEK,
      occurrenceInterval: 2,
      instructions: "Bleed the radiators",
      assignees: [{ id: people.technician.id }],
      facilities: [{ id: campusBuilding.facilityId, name: "Campus" }],
      buildings: [{ id: campusBuilding.id, name: "Main" }],
      rooms: [{ id: room.id }],
      equipmentItems: [{ id: item.id }],
      hiddenLocations: 0,
    });
    const locations = await database.db.select().from(plannedMaintenanceLocations).where(eq(plannedMaintenanceLocations.plannedMaintenanceId, plan.id));
    expect(locations.map((l) => l.objectType).sort()).toEqual([ObjectType.FACILITY, ObjectType.BUILDING]);
  });

  it("refuses missing fields with SPEC section 5's messages, all at once", async () => {
    const error = await rejectionOf<ValidationError>(createPlannedMaintenance(ctxOf(people.admin), { name: "", startDate: "", endDate: "" } as PlannedMaintenanceInput));
    expect(error).toBeInstanceOf(ValidationError);
    expect(error.fieldErrors).toMatchObject({
      name: ["maintenance:validation.planNameRequired"],
      maintenanceTypeId: ["maintenance:validation.typeRequired"],
      startDate: ["maintenance:validation.startDateRequired"],
      endDate: ["maintenance:validation.endDateRequired"],
      selection: ["maintenance:validation.selection"],
    });
  });

  it("refuses an end before the start, an impossible date and a bad time", async () => {
    await expectFieldError(createPlannedMaintenance(ctxOf(people.admin), await planInput({ startDate: "2027-05-02", endDate: "2027-05-01" })), "endDate", "maintenance:validation.endBeforeStart");
    await expectFieldError(createPlannedMaintenance(ctxOf(people.admin), await planInput({ startDate: "2027-02-30" })), "startDate", "maintenance:validation.date");
    await expectFieldError(createPlannedMaintenance(ctxOf(people.admin), await planInput({ timeOfDay: "25:00" })), "timeOfDay", "maintenance:validation.time");
  });

  it("refuses another entity's type or an archived one, and locations of another entity", async () => {
    const foreignType = await createMaintenanceType(actorContext(database.db, people.otherAdmin), typeInput());
    await expectFieldError(createPlannedMaintenance(ctxOf(people.admin), await planInput({ maintenanceTypeId: foreignType.id })), "maintenanceTypeId", "maintenance:errors.typeNotFound");
    await expectFieldError(createPlannedMaintenance(ctxOf(people.admin), await planInput({ roomIds: [otherRoom.id] })), "selection", "maintenance:validation.locationNotFound");
  });

  it("refuses a manager locations outside their reach: a far room, building, item, or a facility they do not reach whole", async () => {
    const ctx = ctxOf(people.manager);
    await expectFieldError(createPlannedMaintenance(ctx, await planInput({ roomIds: [farRoom.id] })), "roomIds", "maintenance:validation.locationNotFound");
    await expectFieldError(createPlannedMaintenance(ctx, await planInput({ roomIds: [], buildingIds: [farBuilding.id] })), "buildingIds", "maintenance:validation.locationNotFound");
    await expectFieldError(createPlannedMaintenance(ctx, await planInput({ roomIds: [], facilityIds: [farBuilding.facilityId] })), "facilityIds", "maintenance:validation.locationNotFound");
    await expectFieldError(createPlannedMaintenance(ctx, await planInput({ equipmentItemIds: [farItem.id] })), "equipmentItemIds", "maintenance:validation.locationNotFound");
    // The administrator reaches the whole entity.
    expect((await createPlannedMaintenance(ctxOf(people.admin), await planInput({ roomIds: [farRoom.id] }))).rooms).toMatchObject([{ id: farRoom.id }]);
  });

  it("updates a plan; a manager sees and replaces only the selection within reach", async () => {
    const plan = await createPlannedMaintenance(ctxOf(people.admin), await planInput({ roomIds: [room.id, farRoom.id] }));
    const seen = await getPlannedMaintenance(ctxOf(people.manager), plan.id);
    expect(seen.rooms.map((r) => r.id)).toEqual([room.id]);
    expect(seen.hiddenLocations).toBe(1);
    expect((await getPlannedMaintenance(ctxOf(people.admin), plan.id)).hiddenLocations).toBe(0);
    const updated = await updatePlannedMaintenance(ctxOf(people.manager), plan.id, await planInput({ maintenanceTypeId: plan.maintenanceTypeId, name: "Renamed", roomIds: [], buildingIds: [campusBuilding.id], timeOfDay: null, occurrenceUnit: TimeMeasure.UNSPECIFIED }));
    expect(updated).toMatchObject({ name: "Renamed", timeOfDay: null, occurrenceUnit: 0, occurrenceInterval: null, rooms: [], buildings: [{ id: campusBuilding.id }] });
    const rooms = await database.db.select().from(plannedMaintenanceRooms).where(eq(plannedMaintenanceRooms.plannedMaintenanceId, plan.id));
    expect(rooms.map((r) => r.roomId)).toEqual([farRoom.id]);
  });

  it("archives a plan with the retyped name only", async () => {
    const plan = await createPlannedMaintenance(ctxOf(people.admin), await planInput({ name: "Gutters" }));
    await expectFieldError(archivePlannedMaintenance(ctxOf(people.manager), plan.id, { confirmName: "gutters" }), "confirmName", "common:archive.wrongName");
    expect((await getPlannedMaintenance(ctxOf(people.admin), plan.id)).name).toBe("Gutters");
    // Its tasks were generated; one is done, and stays when the plan is archived with its pending ones gone.
    const generated = await database.db.select().from(tasks).where(eq(tasks.plannedMaintenanceId, plan.id));
    expect(generated.length).toBeGreaterThan(1);
    await database.db.update(tasks).set({ status: TaskStatus.DONE, doneAt: new Date() }).where(eq(tasks.id, generated[0].id));
    expect(await archivePlannedMaintenance(ctxOf(people.manager), plan.id, { confirmName: "Gutters" })).toEqual({ tasksRemoved: generated.length - 1 });
    const left = await database.db.select().from(tasks).where(eq(tasks.plannedMaintenanceId, plan.id));
    expect(left.map((task) => [task.id, task.status])).toEqual([[generated[0].id, TaskStatus.DONE]]);
    const error = await rejectionOf(getPlannedMaintenance(ctxOf(people.admin), plan.id));
    expect(error).toBeInstanceOf(NotFoundError);
    expect((error as NotFoundError).messageKey).toBe("maintenance:errors.planNotFound");
  });

  it("answers Planned maintenance not found for another entity's plan, and changes nothing", async () => {
    const plan = await createPlannedMaintenance(ctxOf(people.admin), await planInput({ name: "Ours" }));
    const other = actorContext(database.db, people.otherAdmin);
    const body = await planInput();
    for (const call of [() => getPlannedMaintenance(other, plan.id), () => updatePlannedMaintenance(other, plan.id, body), () => archivePlannedMaintenance(other, plan.id, { confirmName: "Ours" })]) {
      const error = await rejectionOf(call());
      expect(error).toBeInstanceOf(NotFoundError);
      expect((error as NotFoundError).messageKey).toBe("maintenance:errors.planNotFound");
    }
    expect((await getPlannedMaintenance(ctxOf(people.admin), plan.id)).name).toBe("Ours");
  });

  it("refuses a technician every verb and read (Forbidden)", async () => {
    const plan = await createPlannedMaintenance(ctxOf(people.admin), await planInput());
    const tech = ctxOf(people.technician);
    const body = await planInput();
    for (const call of [
      () => createPlannedMaintenance(tech, body),
      () => updatePlannedMaintenance(tech, plan.id, body),
      () => archivePlannedMaintenance(tech, plan.id, { confirmName: plan.name }),
      () => getPlannedMaintenance(tech, plan.id),
      () => listPlannedMaintenances(tech, listQuery("name")),
    ]) {
      expect(await rejectionOf(call())).toBeInstanceOf(ForbiddenError);
    }
  });

  it("lists plans with search, filters by type, facility and assignee, sorted and paged", async () => {
    const db = database.db;
    const entity = await createEntity(db);
    const boss = await createUser(db, { entityId: entity.id, role: Role.ADMINISTRATOR });
    const worker = await createUser(db, { entityId: entity.id, role: Role.TECHNICIAN });
    const ctx = actorContext(db, boss);
    const north = await createBuilding(db, { entityId: entity.id, name: "North" });
    const south = await createBuilding(db, { entityId: entity.id, name: "South" });
    const northRoom = await createRoom(db, { entityId: entity.id, buildingId: north.id });
    const southItem = await createEquipmentItem(db, { entityId: entity.id, roomId: (await createRoom(db, { entityId: entity.id, buildingId: south.id })).id });
    const lifts = await createMaintenanceType(ctx, typeInput({ name: "Lifts" }));
    const roofs = await createMaintenanceType(ctx, typeInput({ name: "Roofs" }));
    const base = { startDate: "2027-01-01", endDate: "2027-12-31", occurrenceUnit: TimeMeasure.MONTH, occurrenceInterval: 1 };
    await createPlannedMaintenance(ctx, { ...base, name: "B lift north", maintenanceTypeId: lifts.id, roomIds: [northRoom.id], assigneeIds: [worker.id], startDate: "2027-03-01" });
    await createPlannedMaintenance(ctx, { ...base, name: "A roof south", maintenanceTypeId: roofs.id, equipmentItemIds: [southItem.id] });
    await createPlannedMaintenance(ctx, { ...base, name: "C whole north", maintenanceTypeId: roofs.id, facilityIds: [north.facilityId], startDate: "2027-02-01" });
    const names = async (...args: Parameters<typeof listPlannedMaintenances>) => (await listPlannedMaintenances(...args)).items.map((p) => p.name);
    expect(await names(ctx, listQuery("name"))).toEqual(["A roof south", "B lift north", "C whole north"]);
    expect(await names(ctx, listQuery("startDate", { dir: "desc" }))).toEqual(["B lift north", "C whole north", "A roof south"]);
    expect(await names(ctx, listQuery("name", { q: "lifts" }))).toEqual(["B lift north"]);
    expect(await names(ctx, listQuery("name"), { maintenanceTypeId: roofs.id })).toEqual(["A roof south", "C whole north"]);
    expect(await names(ctx, listQuery("name"), { facilityId: north.facilityId })).toEqual(["B lift north", "C whole north"]);
    expect(await names(ctx, listQuery("name"), { facilityId: south.facilityId })).toEqual(["A roof south"]);
    expect(await names(ctx, listQuery("name"), { assigneeId: worker.id })).toEqual(["B lift north"]);
    const page = await listPlannedMaintenances(ctx, listQuery("name", { size: 1, page: 2 }));
    expect(page).toMatchObject({ total: 3, items: [{ name: "B lift north", maintenanceTypeName: "Lifts", assignees: [{ id: worker.id }] }] });
  });

  it("shows a manager only the plans with a location in their reach, in the list and one by one", async () => {
    const db = database.db;
    const entity = await createEntity(db);
    const boss = await createUser(db, { entityId: entity.id, role: Role.ADMINISTRATOR });
    const north = await createBuilding(db, { entityId: entity.id, name: "North" });
    const south = await createBuilding(db, { entityId: entity.id, name: "South" });
    const northManager = await createUser(db, { entityId: entity.id, role: Role.FACILITY_MANAGER });
    await linkUserTo(db, { entityId: entity.id, userId: northManager.id, facilityId: north.facilityId });
    const northRoom = await createRoom(db, { entityId: entity.id, buildingId: north.id });
    const southRoom = await createRoom(db, { entityId: entity.id, buildingId: south.id });
    const southItem = await createEquipmentItem(db, { entityId: entity.id, roomId: southRoom.id });
    const ctx = actorContext(db, boss);
    const type = await createMaintenanceType(ctx, typeInput({ name: "Lifts" }));
    const base = { maintenanceTypeId: type.id, startDate: "2027-01-01", endDate: "2027-12-31", occurrenceUnit: TimeMeasure.MONTH, occurrenceInterval: 1 };
    const mixed = await createPlannedMaintenance(ctx, { ...base, name: "Both", roomIds: [northRoom.id, southRoom.id] });
    const southOnly = await createPlannedMaintenance(ctx, { ...base, name: "South room", roomIds: [southRoom.id] });
    const southItemOnly = await createPlannedMaintenance(ctx, { ...base, name: "South item", equipmentItemIds: [southItem.id] });
    const southWhole = await createPlannedMaintenance(ctx, { ...base, name: "South facility", facilityIds: [south.facilityId] });
    await createPlannedMaintenance(ctx, { ...base, name: "North building", buildingIds: [north.id] });
    const seen = actorContext(db, northManager);
    const list = await listPlannedMaintenances(seen, listQuery("name"));
    expect(list.items.map((p) => p.name)).toEqual(["Both", "North building"]);
    expect(list.total).toBe(2);
    expect((await getPlannedMaintenance(seen, mixed.id)).rooms.map((r) => r.id)).toEqual([northRoom.id]);
    for (const plan of [southOnly, southItemOnly, southWhole]) {
      const error = await rejectionOf(getPlannedMaintenance(seen, plan.id));
      expect(error).toBeInstanceOf(NotFoundError);
      expect((error as NotFoundError).messageKey).toBe("maintenance:errors.planNotFound");
    }
    // The administrator still reads them all.
    expect((await listPlannedMaintenances(ctx, listQuery("name"))).total).toBe(5);
  });
});
