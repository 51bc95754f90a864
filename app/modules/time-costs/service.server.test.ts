import { asc, eq, inArray } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { Role, UserStatus } from "~/db/enums";
import { auditLog, changeEvents, type Entity, type Incident, materialLines, type Room, timeEntries, type User } from "~/db/schema";
import { dayIn } from "~/lib/dates";
import { ForbiddenError, NotFoundError, ValidationError } from "~/lib/errors";
import { createBuilding, createEntity, createIncident, createRoom, createStaff, createUser, linkUserTo } from "#tests/factories";
import { expectFieldError, rejectionOf } from "#tests/service-helpers";
import { setupTestDatabase } from "#tests/test-context";
import { getWork } from "./queries.server";
import { addMaterialLine, deleteMaterialLine, deleteTimeEntry, recordTime, updateMaterialLine, updateTimeEntry } from "./service.server";

const database = setupTestDatabase({ services: true });
let entityA: Entity;
let entityB: Entity;
let admin: User;
let manager: User;
let technician: User;
let colleague: User;
let farTechnician: User;
let disabled: User;
let otherManager: User;
let room: Room;
let farRoom: Room;
let otherRoom: Room;

const ctxOf = (user: User) => database.services.ctx(user.entityId, { id: user.id, role: user.role });
const incidentIn = (r: Room): Promise<Incident> => createIncident(database.db, { entityId: r.entityId, roomId: r.id });
const entriesOf = (incidentId: number) => database.db.select().from(timeEntries).where(eq(timeEntries.incidentId, incidentId)).orderBy(asc(timeEntries.id));
const linesOf = (incidentId: number) => database.db.select().from(materialLines).where(eq(materialLines.incidentId, incidentId)).orderBy(asc(materialLines.id));
const auditOf = (recordType: string, id: number) =>
  database.db.select().from(auditLog).where(eq(auditLog.recordId, String(id))).then((rows) => rows.filter((r) => r.recordType === recordType));
const changesOf = (incidentId: number) =>
  database.db
    .select()
    .from(changeEvents)
    .where(eq(changeEvents.subjectId, incidentId))
    .orderBy(asc(changeEvents.id))
    .then((rows) => rows.filter((r) => r.type === "incident.work-logged"));

/** Everything the verbs may write, for "nothing changed" checks. */
async function snapshot(incidentIds: number[]) {
  return {
    entries: await database.db.select().from(timeEntries).where(inArray(timeEntries.incidentId, incidentIds)).orderBy(asc(timeEntries.id)),
    lines: await database.db.select().from(materialLines).where(inArray(materialLines.incidentId, incidentIds)).orderBy(asc(materialLines.id)),
    audit: (await database.db.select({ id: auditLog.id }).from(auditLog)).length,
    changes: (await database.db.select({ id: changeEvents.id }).from(changeEvents)).length,
  };
}

const DAY = "2026-03-02";

beforeAll(async () => {
  entityA = await createEntity(database.db);
  entityB = await createEntity(database.db);
  ({ admin, manager, technician } = await createStaff(database.db, entityA.id, {
    admin: { name: "Ada", surname: "Admin" },
    manager: { name: "Mia", surname: "Manager" },
    technician: { name: "Tom", surname: "Tech" },
  }));
  colleague = await createUser(database.db, { entityId: entityA.id, role: Role.TECHNICIAN, name: "Cleo", surname: "Colleague" });
  farTechnician = await createUser(database.db, { entityId: entityA.id, role: Role.TECHNICIAN, name: "Fay", surname: "Far" });
  disabled = await createUser(database.db, { entityId: entityA.id, role: Role.TECHNICIAN, status: UserStatus.DISABLED });
  otherManager = await createUser(database.db, { entityId: entityB.id, role: Role.FACILITY_MANAGER });
  const building = await createBuilding(database.db, { entityId: entityA.id });
  const farBuilding = await createBuilding(database.db, { entityId: entityA.id });
  room = await createRoom(database.db, { entityId: entityA.id, buildingId: building.id });
  farRoom = await createRoom(database.db, { entityId: entityA.id, buildingId: farBuilding.id });
  otherRoom = await createRoom(database.db, { entityId: entityB.id, buildingId: (await createBuilding(database.db, { entityId: entityB.id })).id });
  await linkUserTo(database.db, { entityId: entityA.id, userId: manager.id, facilityId: building.facilityId });
  await linkUserTo(database.db, { entityId: entityA.id, userId: technician.id, buildingId: building.id });
  await linkUserTo(database.db, { entityId: entityA.id, userId: colleague.id, buildingId: building.id });
  await linkUserTo(database.db, { entityId: entityA.id, userId: farTechnician.id, buildingId: farBuilding.id });
  await linkUserTo(database.db, { entityId: entityA.id, userId: disabled.id, buildingId: building.id });
});

describe("recordTime", () => {
  it("records a technician's own time, with its audit row and change, and totals it", async () => {
    const incident = await incidentIn(room);
    const { id } = await recordTime(ctxOf(technician), { incidentId: incident.id }, { workedOn: DAY, hours: "1", minutes: "30", note: "Replaced the seal" });
    const { id: second } = await recordTime(ctxOf(technician), { incidentId: incident.id }, { workedOn: DAY, hours: "", minutes: "45" });
    const rows = await entriesOf(incident.id);
    expect(rows.map((r) => [r.userId, r.workedOn, r.minutes, r.note, r.createdById, r.taskId])).toEqual([
      [technician.id, "2026-03-02", 90, "Replaced the seal", technician.id, null],
      [technician.id, "2026-03-02", 45, null, technician.id, null],
    ]);
    expect(rows.map((r) => r.id)).toEqual([id, second]);
    expect((await auditOf("timeEntry", id)).map((a) => [a.action, a.actorId, a.entityId])).toEqual([["timeEntry.record", technician.id, entityA.id]]);
    expect((await changesOf(incident.id)).map((c) => c.payload)).toEqual([
      { incidentId: incident.id, shortId: incident.shortId, kind: "time", id, action: "added" },
      { incidentId: incident.id, shortId: incident.shortId, kind: "time", id: second, action: "added" },
    ]);
    const work = await getWork(ctxOf(technician), { incidentId: incident.id });
    expect(work.totals).toEqual({ minutes: 135, labour: "0.00", materials: "0.00", total: "0.00", unpricedEntries: 2, entries: 2, lines: 0 });
    expect(work.entries.map((e) => [e.person.name, e.minutes, e.editable])).toEqual([
      ["Tom Tech", 90, true],
      ["Tom Tech", 45, true],
    ]);
    expect(work.people).toEqual([]);
  });

  it("lets a manager record time for a person the incident may be assigned to, and refuses anyone else", async () => {
    const incident = await incidentIn(room);
    await recordTime(ctxOf(manager), { incidentId: incident.id }, { workedOn: DAY, hours: 2, minutes: 0, userId: String(colleague.id) });
    expect((await entriesOf(incident.id)).map((r) => [r.userId, r.minutes, r.createdById])).toEqual([[colleague.id, 120, manager.id]]);
    const before = await snapshot([incident.id]);
    // Linked elsewhere, disabled, or of another entity: not a person of this incident.
    for (const person of [farTechnician, disabled, otherManager]) {
      await expectFieldError(recordTime(ctxOf(manager), { incidentId: incident.id }, { workedOn: DAY, hours: 1, minutes: 0, userId: person.id }), "userId", "timeCosts:validation.personOutOfReach");
    }
    expect(await snapshot([incident.id])).toEqual(before);
    const work = await getWork(ctxOf(manager), { incidentId: incident.id });
    expect(work.people.map((p) => p.name)).toEqual(["Ada Admin", "Cleo Colleague", "Mia Manager", "Tom Tech"]);
  });

  it("refuses a technician recording time for someone else, and changes nothing", async () => {
    const incident = await incidentIn(room);
    const before = await snapshot([incident.id]);
    const error = await rejectionOf(recordTime(ctxOf(technician), { incidentId: incident.id }, { workedOn: DAY, hours: 1, minutes: 0, userId: colleague.id }));
    expect(error).toBeInstanceOf(ForbiddenError);
    expect(await snapshot([incident.id])).toEqual(before);
  });

  it("answers Incident not found for another entity's incident and one outside the technician's reach", async () => {
    const mine = await incidentIn(room);
    const far = await incidentIn(farRoom);
    const other = await incidentIn(otherRoom);
    const before = await snapshot([mine.id, far.id, other.id]);
    expect(await rejectionOf(recordTime(ctxOf(manager), { incidentId: other.id }, { workedOn: DAY, hours: 1, minutes: 0 }))).toBeInstanceOf(NotFoundError);
    expect(await rejectionOf(recordTime(ctxOf(technician), { incidentId: far.id }, { workedOn: DAY, hours: 1, minutes: 0 }))).toBeInstanceOf(NotFoundError);
    expect(await rejectionOf(addMaterialLine(ctxOf(technician), { incidentId: far.id }, { description: "Seal", quantity: "1", unitCost: "1" }))).toBeInstanceOf(NotFoundError);
    expect(await rejectionOf(getWork(ctxOf(otherManager), { incidentId: mine.id }))).toBeInstanceOf(NotFoundError);
    expect(await snapshot([mine.id, far.id, other.id])).toEqual(before);
  });

  it("refuses the system and nobody (no person worked)", async () => {
    const incident = await incidentIn(room);
    const system = database.services.ctx(entityA.id, { kind: "system", id: null, role: null, name: "test" });
    expect(await rejectionOf(recordTime(system, { incidentId: incident.id }, { workedOn: DAY, hours: 1, minutes: 0 }))).toBeInstanceOf(ForbiddenError);
    expect(await rejectionOf(recordTime(database.services.ctx(entityA.id, null), { incidentId: incident.id }, { workedOn: DAY, hours: 1, minutes: 0 }))).toBeInstanceOf(ForbiddenError);
    expect(await entriesOf(incident.id)).toEqual([]);
  });

  it("refuses a duration of nothing or over a day, a bad or future day, a NUL byte and huge numbers", async () => {
    const incident = await incidentIn(room);
    const ctx = ctxOf(technician);
    const at = { incidentId: incident.id };
    await expectFieldError(recordTime(ctx, at, { workedOn: DAY, hours: "0", minutes: "0" }), "minutes", "timeCosts:validation.duration");
    await expectFieldError(recordTime(ctx, at, { workedOn: DAY, hours: "24", minutes: "1" }), "minutes", "timeCosts:validation.duration");
    await expectFieldError(recordTime(ctx, at, { workedOn: DAY, hours: "99999999999999999999", minutes: "0" }), "hours", "timeCosts:validation.hours");
    await expectFieldError(recordTime(ctx, at, { workedOn: DAY, hours: "-1", minutes: "0" }), "hours", "timeCosts:validation.hours");
    await expectFieldError(recordTime(ctx, at, { workedOn: DAY, hours: "1.5", minutes: "0" }), "hours", "timeCosts:validation.hours");
    await expectFieldError(recordTime(ctx, at, { workedOn: "2026-02-30", hours: 1, minutes: 0 }), "workedOn", "timeCosts:validation.workedOn");
    await expectFieldError(recordTime(ctx, at, { workedOn: "2999-01-01", hours: 1, minutes: 0 }), "workedOn", "timeCosts:validation.future");
    const nul = await rejectionOf<ValidationError>(recordTime(ctx, at, { workedOn: DAY, hours: 1, minutes: 0, note: "bad\u0000note" }));
    expect(nul).toBeInstanceOf(ValidationError);
    expect(Object.keys(nul.fieldErrors ?? {})).toEqual(["note"]);
    // Today, in the entity's time zone, is accepted.
    await recordTime(ctx, at, { workedOn: dayIn(new Date(), "Europe/Brussels"), hours: 0, minutes: 1 });
    expect((await entriesOf(incident.id)).map((r) => r.minutes)).toEqual([1]);
  });
});

describe("updateTimeEntry and deleteTimeEntry", () => {
  it("let a technician correct and delete their own entry, with audit rows and changes", async () => {
    const incident = await incidentIn(room);
    const at = { incidentId: incident.id };
    const { id } = await recordTime(ctxOf(technician), at, { workedOn: DAY, hours: 1, minutes: 0 });
    await updateTimeEntry(ctxOf(technician), at, id, { workedOn: "2026-03-03", hours: "0", minutes: "50", note: "Less than thought" });
    expect((await entriesOf(incident.id)).map((r) => [r.userId, r.workedOn, r.minutes, r.note])).toEqual([[technician.id, "2026-03-03", 50, "Less than thought"]]);
    await deleteTimeEntry(ctxOf(technician), at, id);
    expect(await entriesOf(incident.id)).toEqual([]);
    expect((await auditOf("timeEntry", id)).map((a) => a.action).sort()).toEqual(["timeEntry.delete", "timeEntry.record", "timeEntry.update"]);
    expect((await changesOf(incident.id)).map((c) => (c.payload as { action: string }).action)).toEqual(["added", "updated", "deleted"]);
  });

  it("refuses a technician correcting or deleting a colleague's entry, and changes nothing", async () => {
    const incident = await incidentIn(room);
    const at = { incidentId: incident.id };
    const { id } = await recordTime(ctxOf(colleague), at, { workedOn: DAY, hours: 1, minutes: 0 });
    const before = await snapshot([incident.id]);
    expect(await rejectionOf(updateTimeEntry(ctxOf(technician), at, id, { workedOn: DAY, hours: 3, minutes: 0 }))).toBeInstanceOf(ForbiddenError);
    expect(await rejectionOf(deleteTimeEntry(ctxOf(technician), at, id))).toBeInstanceOf(ForbiddenError);
    expect(await snapshot([incident.id])).toEqual(before);
    const work = await getWork(ctxOf(technician), at);
    expect(work.entries.map((e) => e.editable)).toEqual([false]);
  });

  it("let a manager or an administrator correct and delete anyone's entry within reach", async () => {
    const incident = await incidentIn(room);
    const at = { incidentId: incident.id };
    const { id } = await recordTime(ctxOf(technician), at, { workedOn: DAY, hours: 1, minutes: 0 });
    await updateTimeEntry(ctxOf(manager), at, id, { workedOn: DAY, hours: 1, minutes: 15, userId: colleague.id });
    expect((await entriesOf(incident.id)).map((r) => [r.userId, r.minutes, r.createdById])).toEqual([[colleague.id, 75, technician.id]]);
    await deleteTimeEntry(ctxOf(admin), at, id);
    expect(await entriesOf(incident.id)).toEqual([]);
  });

  it("answers Entry not found for an entry of another incident, an unknown or a malformed id", async () => {
    const incident = await incidentIn(room);
    const elsewhere = await incidentIn(room);
    const { id } = await recordTime(ctxOf(technician), { incidentId: elsewhere.id }, { workedOn: DAY, hours: 1, minutes: 0 });
    const before = await snapshot([incident.id, elsewhere.id]);
    for (const entryId of [id, 0, -1, 2 ** 40, Number.NaN]) {
      expect(await rejectionOf(deleteTimeEntry(ctxOf(manager), { incidentId: incident.id }, entryId))).toBeInstanceOf(NotFoundError);
    }
    expect(await snapshot([incident.id, elsewhere.id])).toEqual(before);
  });
});

describe("material lines", () => {
  it("adds lines with exact amounts (a comma or a point) and totals them to the cent", async () => {
    const incident = await incidentIn(room);
    const at = { incidentId: incident.id };
    const { id } = await addMaterialLine(ctxOf(technician), at, { description: "Copper pipe (m)", quantity: "2,5", unitCost: "12,40" });
    await addMaterialLine(ctxOf(technician), at, { description: "Seal", quantity: "3", unitCost: "0.33" });
    await addMaterialLine(ctxOf(manager), at, { description: "Labour-free part", quantity: 1, unitCost: 0 });
    expect((await linesOf(incident.id)).map((l) => [l.description, l.quantity, l.unitCost, l.createdById])).toEqual([
      ["Copper pipe (m)", "2.500", "12.40", technician.id],
      ["Seal", "3.000", "0.33", technician.id],
      ["Labour-free part", "1.000", "0.00", manager.id],
    ]);
    const work = await getWork(ctxOf(technician), at);
    // 2.5 × 12.40 = 31.00; 3 × 0.33 = 0.99; 1 × 0 = 0.00.
    expect(work.lines.map((l) => [l.total, l.editable])).toEqual([
      ["31.00", true],
      ["0.99", true],
      ["0.00", false],
    ]);
    expect(work.totals).toEqual({ minutes: 0, labour: "0.00", materials: "31.99", total: "31.99", unpricedEntries: 0, entries: 0, lines: 3 });
    expect((await auditOf("materialLine", id)).map((a) => a.action)).toEqual(["materialLine.add"]);
    expect((await changesOf(incident.id)).map((c) => (c.payload as { kind: string }).kind)).toEqual(["material", "material", "material"]);
  });

  it("refuses an empty description, a NUL byte, a zero or negative quantity, more decimals, huge numbers and exponents", async () => {
    const incident = await incidentIn(room);
    const ctx = ctxOf(technician);
    const at = { incidentId: incident.id };
    const line = (values: Record<string, unknown>) => addMaterialLine(ctx, at, { description: "Seal", quantity: "1", unitCost: "1", ...values } as never);
    await expectFieldError(line({ description: "  " }), "description", "timeCosts:validation.description");
    const nul = await rejectionOf<ValidationError>(line({ description: "Se\u0000al" }));
    expect(Object.keys(nul.fieldErrors ?? {})).toEqual(["description"]);
    for (const quantity of ["0", "-1", "1.2345", "1e3", "100001", "99999999999999999999", "1.000.000", "", "abc"]) {
      await expectFieldError(line({ quantity }), "quantity", "timeCosts:validation.quantity");
    }
    for (const unitCost of ["-0.01", "1.001", "1000000.01", "1e9", "Infinity", ""]) {
      await expectFieldError(line({ unitCost }), "unitCost", "timeCosts:validation.unitCost");
    }
    await expectFieldError(line({ quantity: Number.POSITIVE_INFINITY }), "quantity", "timeCosts:validation.quantity");
    expect(await linesOf(incident.id)).toEqual([]);
  });

  it("lets the one who added a line correct and delete it, a manager any, a colleague none", async () => {
    const incident = await incidentIn(room);
    const at = { incidentId: incident.id };
    const { id } = await addMaterialLine(ctxOf(technician), at, { description: "Seal", quantity: "1", unitCost: "2" });
    const before = await snapshot([incident.id]);
    expect(await rejectionOf(updateMaterialLine(ctxOf(colleague), at, id, { description: "Seal", quantity: "9", unitCost: "2" }))).toBeInstanceOf(ForbiddenError);
    expect(await rejectionOf(deleteMaterialLine(ctxOf(colleague), at, id))).toBeInstanceOf(ForbiddenError);
    expect(await rejectionOf(deleteMaterialLine(ctxOf(farTechnician), at, id))).toBeInstanceOf(NotFoundError);
    expect(await rejectionOf(deleteMaterialLine(ctxOf(otherManager), at, id))).toBeInstanceOf(NotFoundError);
    expect(await snapshot([incident.id])).toEqual(before);
    await updateMaterialLine(ctxOf(technician), at, id, { description: "Seals", quantity: "2", unitCost: "2.5" });
    expect((await linesOf(incident.id)).map((l) => [l.description, l.quantity, l.unitCost])).toEqual([["Seals", "2.000", "2.50"]]);
    await updateMaterialLine(ctxOf(manager), at, id, { description: "Seals", quantity: "4", unitCost: "2.5" });
    expect((await getWork(ctxOf(manager), at)).totals.materials).toBe("10.00");
    await deleteMaterialLine(ctxOf(admin), at, id);
    expect(await linesOf(incident.id)).toEqual([]);
    expect((await auditOf("materialLine", id)).map((a) => a.action).sort()).toEqual([
      "materialLine.add",
      "materialLine.delete",
      "materialLine.update",
      "materialLine.update",
    ]);
  });
});
