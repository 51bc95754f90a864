import { asc, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { Role } from "~/db/enums";
import { auditLog, entities, type Entity, type Room, timeEntries, type User, users } from "~/db/schema";
import { ForbiddenError, ValidationError } from "~/lib/errors";
import { createBuilding, createEntity, createIncident, createRoom, createStaff, createUser, linkUserTo } from "#tests/factories";
import { rejectionOf } from "#tests/service-helpers";
import { setupTestDatabase } from "#tests/test-context";
import { getHourlyRates, getWork } from "./queries.server";
import { addMaterialLine, recordTime, setHourlyRates, updateTimeEntry } from "./service.server";

/**
 * Hourly rates (issue 62): administrators set the currency, the entity's default rate and each person's
 * rate; an entry captures the rate of the moment (the person's, else the default, else none), so a later
 * change leaves past costs as they were; costs and totals are computed in SQL. Expected amounts are
 * worked out by hand in the comments.
 */
const database = setupTestDatabase({ services: true });
let entity: Entity;
let other: Entity;
let admin: User;
let manager: User;
let technician: User;
let colleague: User;
let stranger: User;
let room: Room;

const ctxOf = (user: User) => database.services.ctx(user.entityId, { id: user.id, role: user.role });
const DAY = "2026-03-02";
const rateOf = async (id: number) => (await database.db.select({ rate: users.hourlyRate }).from(users).where(eq(users.id, id)))[0].rate;
const entityRow = async (id: number) => (await database.db.select({ currency: entities.currency, rate: entities.defaultHourlyRate }).from(entities).where(eq(entities.id, id)))[0];

beforeAll(async () => {
  entity = await createEntity(database.db);
  other = await createEntity(database.db);
  ({ admin, manager, technician } = await createStaff(database.db, entity.id, {
    admin: { name: "Ada", surname: "Admin" },
    manager: { name: "Mia", surname: "Manager" },
    technician: { name: "Tom", surname: "Tech" },
  }));
  colleague = await createUser(database.db, { entityId: entity.id, role: Role.TECHNICIAN, name: "Cleo", surname: "Colleague" });
  stranger = await createUser(database.db, { entityId: other.id, role: Role.TECHNICIAN, name: "Sam", surname: "Stranger" });
  const building = await createBuilding(database.db, { entityId: entity.id });
  room = await createRoom(database.db, { entityId: entity.id, buildingId: building.id });
  await linkUserTo(database.db, { entityId: entity.id, userId: manager.id, facilityId: building.facilityId });
  await linkUserTo(database.db, { entityId: entity.id, userId: technician.id, buildingId: building.id });
  await linkUserTo(database.db, { entityId: entity.id, userId: colleague.id, buildingId: building.id });
});

describe("setHourlyRates", () => {
  it("starts in EUR without rates", async () => {
    const rates = await getHourlyRates(ctxOf(admin));
    expect(rates.currency).toBe("EUR");
    expect(rates.defaultRate).toBeNull();
    expect(rates.people.map((p) => [p.name, p.rate])).toEqual([
      ["Ada Admin", null],
      ["Cleo Colleague", null],
      ["Mia Manager", null],
      ["Tom Tech", null],
    ]);
  });

  it("is refused to managers and technicians, changing nothing", async () => {
    for (const user of [manager, technician]) {
      expect(await rejectionOf(setHourlyRates(ctxOf(user), { currency: "USD", defaultRate: "10", rates: [{ userId: technician.id, rate: "99" }] }))).toBeInstanceOf(ForbiddenError);
      expect(await rejectionOf(getHourlyRates(ctxOf(user)))).toBeInstanceOf(ForbiddenError);
    }
    expect(await entityRow(entity.id)).toEqual({ currency: "EUR", rate: null });
    expect(await rateOf(technician.id)).toBeNull();
  });

  it("refuses another entity's person, changing nothing", async () => {
    const error = await rejectionOf<ValidationError>(
      setHourlyRates(ctxOf(admin), { currency: "CHF", defaultRate: "30", rates: [{ userId: technician.id, rate: "40" }, { userId: stranger.id, rate: "50" }] }),
    );
    expect(error).toBeInstanceOf(ValidationError);
    expect(error.fieldErrors).toEqual({ rates: ["timeCosts:validation.ratePerson"] });
    expect(await entityRow(entity.id)).toEqual({ currency: "EUR", rate: null });
    expect(await rateOf(technician.id)).toBeNull();
    expect(await rateOf(stranger.id)).toBeNull();
  });

  it("refuses a currency not offered and a negative rate", async () => {
    expect(await rejectionOf(setHourlyRates(ctxOf(admin), { currency: "XYZ" as "EUR", defaultRate: "" }))).toBeInstanceOf(ValidationError);
    expect(await rejectionOf(setHourlyRates(ctxOf(admin), { currency: "EUR", defaultRate: "-5" }))).toBeInstanceOf(ValidationError);
  });

  it("sets the currency, the default and a person's rate, with one audit row", async () => {
    await setHourlyRates(ctxOf(admin), { currency: "EUR", defaultRate: "30", rates: [{ userId: technician.id, rate: "40,00" }, { userId: colleague.id, rate: "" }] });
    expect(await entityRow(entity.id)).toEqual({ currency: "EUR", rate: "30.00" });
    expect(await rateOf(technician.id)).toBe("40.00");
    expect(await rateOf(colleague.id)).toBeNull();
    const audit = await database.db.select().from(auditLog).where(eq(auditLog.action, "rate.set"));
    expect(audit.map((a) => [a.entityId, a.actorId, a.recordType, a.details])).toEqual([
      [entity.id, admin.id, "rate", { defaultRate: { from: null, to: "30" }, people: [{ userId: technician.id, from: null, to: "40.00" }] }],
    ]);
    // The same again changes nothing and writes no row.
    await setHourlyRates(ctxOf(admin), { currency: "EUR", defaultRate: "30.00", rates: [{ userId: technician.id, rate: "40" }] });
    expect(await database.db.select().from(auditLog).where(eq(auditLog.action, "rate.set"))).toHaveLength(1);
  });
});

describe("costs", () => {
  it("captures the rate when time is recorded: a later change does not rewrite it; the default serves people without one", async () => {
    const incident = await createIncident(database.db, { entityId: entity.id, roomId: room.id });
    const target = { incidentId: incident.id };
    // Tom at 40.00: 90 min = 60.00. Cleo has none: the default 30.00, 45 min = 22.50.
    const first = await recordTime(ctxOf(technician), target, { workedOn: DAY, hours: "1", minutes: "30" });
    await recordTime(ctxOf(colleague), target, { workedOn: DAY, hours: "0", minutes: "45" });
    // Tom's rate becomes 50.00, the default 36.00: Tom's next 20 min = 16.67 (16.666...), Cleo's 10 min = 6.00.
    await setHourlyRates(ctxOf(admin), { currency: "EUR", defaultRate: "36", rates: [{ userId: technician.id, rate: "50" }] });
    await recordTime(ctxOf(technician), target, { workedOn: DAY, hours: "0", minutes: "20" });
    await recordTime(ctxOf(colleague), target, { workedOn: DAY, hours: "0", minutes: "10" });
    // Material: 2.5 × 12.40 = 31.00.
    await addMaterialLine(ctxOf(technician), target, { description: "Copper pipe", quantity: "2,5", unitCost: "12.40" });

    const work = await getWork(ctxOf(manager), target);
    expect(work.entries.map((e) => [e.person.name, e.minutes, e.hourlyRate, e.cost])).toEqual([
      ["Tom Tech", 90, "40.00", "60.00"],
      ["Cleo Colleague", 45, "30.00", "22.50"],
      ["Tom Tech", 20, "50.00", "16.67"],
      ["Cleo Colleague", 10, "36.00", "6.00"],
    ]);
    // 60.00 + 22.50 + 16.67 + 6.00 = 105.17; + 31.00 = 136.17.
    expect(work.totals).toEqual({ minutes: 165, labour: "105.17", materials: "31.00", total: "136.17", unpricedEntries: 0, entries: 4, lines: 1 });
    expect(work.currency).toBe("EUR");

    // A correction keeps the entry's rate (40.00, not today's 50.00): 60 min = 40.00.
    await updateTimeEntry(ctxOf(manager), target, first.id, { workedOn: DAY, hours: "1", minutes: "0", note: "Shorter" });
    // Given to Cleo, it takes her rate of today (the default 36.00): 60 min = 36.00.
    const [kept] = await database.db.select({ rate: timeEntries.hourlyRate }).from(timeEntries).where(eq(timeEntries.id, first.id));
    expect(kept.rate).toBe("40.00");
    await updateTimeEntry(ctxOf(manager), target, first.id, { workedOn: DAY, hours: "1", minutes: "0", note: "Shorter", userId: String(colleague.id) });
    const after = await getWork(ctxOf(manager), target);
    expect(after.entries.find((e) => e.id === first.id)).toMatchObject({ hourlyRate: "36.00", cost: "36.00" });
    // 36.00 + 22.50 + 16.67 + 6.00 = 81.17; + 31.00 = 112.17.
    expect(after.totals).toEqual({ minutes: 135, labour: "81.17", materials: "31.00", total: "112.17", unpricedEntries: 0, entries: 4, lines: 1 });
  });

  it("shows no cost for an entry without a rate, counts it, and uses the entity's currency", async () => {
    const incident = await createIncident(database.db, { entityId: entity.id, roomId: room.id });
    const target = { incidentId: incident.id };
    // No default, Tom keeps 50.00, Cleo none; the currency becomes CHF.
    await setHourlyRates(ctxOf(admin), { currency: "CHF", defaultRate: "", rates: [{ userId: technician.id, rate: "50" }] });
    await recordTime(ctxOf(colleague), target, { workedOn: DAY, hours: "2", minutes: "0" });
    await recordTime(ctxOf(technician), target, { workedOn: DAY, hours: "0", minutes: "6" });
    const work = await getWork(ctxOf(technician), target);
    expect(work.entries.map((e) => [e.minutes, e.hourlyRate, e.cost])).toEqual([
      [120, null, null],
      [6, "50.00", "5.00"],
    ]);
    // Cleo's time counts in the labour: Tom, a technician, is not given it; the administrator is.
    expect(work.totals).toEqual({ minutes: 126, labour: null, materials: "0.00", total: null, unpricedEntries: 1, entries: 2, lines: 0 });
    expect((await getWork(ctxOf(admin), target)).totals).toEqual({ minutes: 126, labour: "5.00", materials: "0.00", total: "5.00", unpricedEntries: 1, entries: 2, lines: 0 });
    expect(work.currency).toBe("CHF");
    // Another entity's view of its own is untouched: EUR.
    expect((await entityRow(other.id)).currency).toBe("EUR");
  });
});

describe("the entity's entries", () => {
  it("keeps every captured rate of the entity in its rows", async () => {
    const rows = await database.db.select({ rate: timeEntries.hourlyRate }).from(timeEntries).where(eq(timeEntries.entityId, entity.id)).orderBy(asc(timeEntries.id));
    expect(rows.map((r) => r.rate)).toEqual(["36.00", "30.00", "50.00", "36.00", null, "50.00"]);
  });
});
