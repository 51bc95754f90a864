import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "~/db/client.server";
import { IncidentStatus, Role } from "~/db/enums";
import { type Building, type Entity, type Facility, type User } from "~/db/schema";
import type { ServiceContext } from "~/core/context.server";
import { ForbiddenError, NotFoundError } from "~/lib/errors";
import { type ListQuery, parseListQuery } from "~/lib/list-query";
import { createBuilding, createEntity, createEquipmentItem, createFacility, createIncident, createRoom, createUser, linkUserTo } from "#tests/factories";
import { createTestDatabase } from "#tests/test-db";
import { actorContext, entityWithManager, listQuery as query, reachAll } from "#tests/service-helpers";
import { BUILDING_SORTS, type BuildingSort, FACILITY_SORTS, type FacilitySort, getBuilding, getBuildingForEdit, getFacility, getFacilityForEdit, searchBuildingOptions, getBuildingOption, listBuildings, listFacilities, listFacilityOptions } from "./queries.server";
import { archiveRoom } from "~/modules/rooms/service.server";
import { createFacility as addFacility } from "./service.server";

let database: Database;

const ctxOf = (user: User) => actorContext(database.db, user);

/**
 * A fresh entity with a manager, so that every list below holds exactly the rows a test made. The
 * manager reaches only linked facilities (decision 022): tests link them (`reachAll`) once their
 * facilities exist.
 */
const freshEntity = (name?: string) => entityWithManager(database.db, name);

async function addRooms(building: Building, n: number, extra: { archived?: number } = {}) {
  for (let i = 0; i < n; i++) await createRoom(database.db, { entityId: building.entityId, buildingId: building.id });
  for (let i = 0; i < (extra.archived ?? 0); i++) {
    await createRoom(database.db, { entityId: building.entityId, buildingId: building.id, archivedAt: new Date() });
  }
}

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database?.close();
});

// ---------------------------------------------------------------------------
// listFacilities
// ---------------------------------------------------------------------------

describe("listFacilities", () => {
  let ctx: ServiceContext;
  let entity: Entity;
  /** charlie(1 building), Alpha(3), bravo(0 + 1 archived), Delta(2), echo(1), in creation order. */
  let f: Record<"charlie" | "alpha" | "bravo" | "delta" | "echo", Facility>;

  beforeAll(async () => {
    ({ entity, ctx } = await freshEntity("Sorting Entity"));
    const db = database.db;
    const make = async (name: string, buildingCount: number, archivedBuildings = 0) => {
      const facility = await createFacility(db, { entityId: entity.id, name });
      for (let i = 0; i < buildingCount; i++) await createBuilding(db, { entityId: entity.id, facilityId: facility.id });
      for (let i = 0; i < archivedBuildings; i++) {
        await createBuilding(db, { entityId: entity.id, facilityId: facility.id, archivedAt: new Date() });
      }
      return facility;
    };
    f = {
      charlie: await make("charlie", 1),
      alpha: await make("Alpha", 3),
      bravo: await make("bravo", 0, 1),
      delta: await make("Delta", 2),
      echo: await make("echo", 1),
    };
    // Never listed: an archived facility of the entity and another entity's facilities.
    await createFacility(db, { entityId: entity.id, name: "aaa archived", archivedAt: new Date() });
    const other = await createEntity(db);
    await createFacility(db, { entityId: other.id, name: "Alpha" });
    await createFacility(db, { entityId: other.id, name: "aardvark" });
    await reachAll(ctx);
  });

  const namesOf = async (q: ListQuery<FacilitySort>) => (await listFacilities(ctx, q)).items.map((row) => row.name);

  it("returns every active facility of the entity with its counts", async () => {
    const page = await listFacilities(ctx, query("shortId"));
    expect(page).toMatchObject({ total: 5, page: 1, size: 100 });
    expect(page.items).toHaveLength(5);
    expect(page.items.map((r) => r.id)).toEqual([f.charlie.id, f.alpha.id, f.bravo.id, f.delta.id, f.echo.id]);
    expect(page.items[1]).toEqual({
      id: f.alpha.id,
      shortId: f.alpha.shortId,
      name: "Alpha",
      description: null,
      entityId: entity.id,
      entityName: "Sorting Entity",
      countBuildings: 3,
      activeIncidents: 0,
      status: 1,
    });
    expect(page.items.map((r) => r.countBuildings)).toEqual([1, 3, 0, 2, 1]);
  });

  it("sorts by name, case-insensitively, both ways", async () => {
    expect(await namesOf(query("name"))).toEqual(["Alpha", "bravo", "charlie", "Delta", "echo"]);
    expect(await namesOf(query("name", { dir: "desc" }))).toEqual(["echo", "Delta", "charlie", "bravo", "Alpha"]);
  });

  it("sorts by shortId both ways", async () => {
    const asc = (await listFacilities(ctx, query("shortId"))).items.map((r) => r.shortId);
    expect(asc).toEqual([...asc].sort((a, b) => a - b));
    expect(await namesOf(query("shortId"))).toEqual(["charlie", "Alpha", "bravo", "Delta", "echo"]);
    expect(await namesOf(query("shortId", { dir: "desc" }))).toEqual(["echo", "Delta", "bravo", "Alpha", "charlie"]);
  });

  it("sorts by countBuildings both ways, ties by creation", async () => {
    expect(await namesOf(query("countBuildings"))).toEqual(["bravo", "charlie", "echo", "Delta", "Alpha"]);
    expect(await namesOf(query("countBuildings", { dir: "desc" }))).toEqual(["Alpha", "Delta", "charlie", "echo", "bravo"]);
  });

  it("pages with page, size and total", async () => {
    const pageOf = (page: number) => listFacilities(ctx, query("name", { page, size: 2 }));
    expect(await pageOf(1)).toMatchObject({ total: 5, page: 1, size: 2 });
    expect((await pageOf(1)).items.map((r) => r.name)).toEqual(["Alpha", "bravo"]);
    expect((await pageOf(2)).items.map((r) => r.name)).toEqual(["charlie", "Delta"]);
    expect((await pageOf(3)).items.map((r) => r.name)).toEqual(["echo"]);
    expect(await pageOf(4)).toEqual({ items: [], total: 5, page: 4, size: 2 });
    const sized = await listFacilities(ctx, query("countBuildings", { page: 2, size: 3, dir: "desc" }));
    expect(sized).toMatchObject({ total: 5, page: 2, size: 3 });
    expect(sized.items.map((r) => r.name)).toEqual(["echo", "bravo"]);
  });

  it("accepts every declared sort key from the URL", async () => {
    for (const sort of FACILITY_SORTS) {
      for (const dir of ["asc", "desc"] as const) {
        const parsed = parseListQuery(new URLSearchParams({ sort, dir }), { sorts: FACILITY_SORTS, defaultSort: "name" });
        const page = await listFacilities(ctx, parsed);
        expect(page.total).toBe(5);
        expect(page.items).toHaveLength(5);
      }
    }
  });

  it("searches names case-insensitively, the total following the search", async () => {
    expect(await namesOf(query("name", { q: "ALP" }))).toEqual(["Alpha"]);
    expect(await namesOf(query("name", { q: "a" }))).toEqual(["Alpha", "bravo", "charlie", "Delta"]);
    const page = await listFacilities(ctx, query("name", { q: "A", size: 2 }));
    expect(page.total).toBe(4);
    expect(page.items.map((r) => r.name)).toEqual(["Alpha", "bravo"]);
    expect(await listFacilities(ctx, query("name", { q: "zzz" }))).toMatchObject({ items: [], total: 0 });
  });

  it("treats % _ and \\ in the search literally", async () => {
    const { ctx: own, entity: e } = await freshEntity();
    for (const name of ["100% Pure", "Pure", "A_B", "AxB", "C:\\dir", "Cdir"]) {
      await createFacility(database.db, { entityId: e.id, name });
    }
    await reachAll(own);
    const names = async (q: string) => (await listFacilities(own, query("name", { q }))).items.map((r) => r.name);
    expect(await names("%")).toEqual(["100% Pure"]);
    expect(await names("0% p")).toEqual(["100% Pure"]);
    expect(await names("pure")).toEqual(["100% Pure", "Pure"]);
    expect(await names("_")).toEqual(["A_B"]);
    expect(await names("a_b")).toEqual(["A_B"]);
    expect(await names("\\")).toEqual(["C:\\dir"]);
    expect(await names("%%")).toEqual([]);
    expect((await listFacilities(own, query("name", { q: "_" }))).total).toBe(1);
  });

  it("never shows another entity's rows", async () => {
    const other = await createEntity(database.db);
    const stranger = await createUser(database.db, { entityId: other.id, role: Role.ADMINISTRATOR });
    await createFacility(database.db, { entityId: other.id, name: "Theirs" });
    const theirs = await listFacilities(ctxOf(stranger), query("name"));
    expect(theirs).toMatchObject({ total: 1 });
    expect(theirs.items.map((r) => r.name)).toEqual(["Theirs"]);
    const mine = await listFacilities(ctx, query("name", { q: "theirs" }));
    expect(mine).toMatchObject({ items: [], total: 0 });
    expect((await listFacilities(ctx, query("name"))).items.every((r) => r.entityId === entity.id)).toBe(true);
  });

  it("lists options of active facilities only, by name", async () => {
    expect((await listFacilityOptions(ctx)).map((o) => o.name)).toEqual(["Alpha", "bravo", "charlie", "Delta", "echo"]);
  });

  it("lists a new facility at once, and never what another viewer reaches", async () => {
    const { entity: own, ctx: manager } = await freshEntity("Kept Options Entity");
    const admin = actorContext(database.db, await createUser(database.db, { entityId: own.id, role: Role.ADMINISTRATOR }));
    await createFacility(database.db, { entityId: own.id, name: "Linked" });
    await reachAll(manager);
    await createFacility(database.db, { entityId: own.id, name: "Unlinked" });
    expect((await listFacilityOptions(manager)).map((o) => o.name)).toEqual(["Linked"]);
    expect((await listFacilityOptions(admin)).map((o) => o.name)).toEqual(["Linked", "Unlinked"]);
    await addFacility(admin, { name: "Added" });
    expect((await listFacilityOptions(admin)).map((o) => o.name)).toEqual(["Added", "Linked", "Unlinked"]);
    expect((await listFacilityOptions(manager)).map((o) => o.name)).toEqual(["Linked"]);
  });
});

// ---------------------------------------------------------------------------
// listBuildings
// ---------------------------------------------------------------------------

describe("listBuildings", () => {
  let ctx: ServiceContext;
  let entity: Entity;
  let zulu: Facility;
  let yankee: Facility;
  let xray: Facility;
  /** Created in order b1..b4. */
  let b: Record<"delta" | "alpha" | "charlie" | "bravo", Building>;
  let theirAardvark: Building;

  beforeAll(async () => {
    ({ entity, ctx } = await freshEntity());
    const db = database.db;
    zulu = await createFacility(db, { entityId: entity.id, name: "Zulu" });
    yankee = await createFacility(db, { entityId: entity.id, name: "yankee" });
    xray = await createFacility(db, { entityId: entity.id, name: "xray" });
    b = {
      delta: await createBuilding(db, { entityId: entity.id, facilityId: zulu.id, name: "delta", city: "Antwerp" }),
      alpha: await createBuilding(db, { entityId: entity.id, facilityId: yankee.id, name: "alpha", city: null }),
      charlie: await createBuilding(db, { entityId: entity.id, facilityId: zulu.id, name: "Charlie", city: "brussels" }),
      bravo: await createBuilding(db, { entityId: entity.id, facilityId: xray.id, name: "Bravo", city: "Charleroi" }),
    };
    await addRooms(b.delta, 2);
    await addRooms(b.charlie, 1, { archived: 2 });
    await addRooms(b.bravo, 3, { archived: 1 });
    // Never listed: an archived building and another entity's buildings.
    await createBuilding(db, { entityId: entity.id, facilityId: zulu.id, name: "aaa archived", archivedAt: new Date() });
    const other = await createEntity(db);
    await createBuilding(db, { entityId: other.id, name: "alpha" });
    theirAardvark = await createBuilding(db, { entityId: other.id, name: "aardvark", city: "Aalst" });
    await reachAll(ctx);
  });

  const namesOf = async (q: ListQuery<BuildingSort>, filter?: { facilityIds: number[] | null }) =>
    (await listBuildings(ctx, q, filter)).items.map((row) => row.name);

  it("returns every active building of the entity with its facility and counts", async () => {
    const page = await listBuildings(ctx, query("shortId"));
    expect(page).toMatchObject({ total: 4, page: 1, size: 100 });
    expect(page.items.map((r) => r.name)).toEqual(["delta", "alpha", "Charlie", "Bravo"]);
    expect(page.items.map((r) => r.countRooms)).toEqual([2, 0, 1, 3]);
    expect(page.items[3]).toEqual({
      id: b.bravo.id,
      shortId: b.bravo.shortId,
      name: "Bravo",
      description: null,
      streetName: "Avenue Louise",
      streetNumber: String(b.bravo.shortId),
      suffix: null,
      buildingFloor: null,
      additionalInfo: null,
      postalCode: "1050",
      city: "Charleroi",
      country: "BE",
      facilityId: xray.id,
      facilityName: "xray",
      countRooms: 3,
      activeIncidents: 0,
      status: 1,
    });
  });

  it("sorts by name both ways", async () => {
    expect(await namesOf(query("name"))).toEqual(["alpha", "Bravo", "Charlie", "delta"]);
    expect(await namesOf(query("name", { dir: "desc" }))).toEqual(["delta", "Charlie", "Bravo", "alpha"]);
  });

  it("sorts by shortId both ways", async () => {
    expect(await namesOf(query("shortId"))).toEqual(["delta", "alpha", "Charlie", "Bravo"]);
    expect(await namesOf(query("shortId", { dir: "desc" }))).toEqual(["Bravo", "Charlie", "alpha", "delta"]);
  });

  it("sorts by facilityName both ways, ties by creation", async () => {
    expect(await namesOf(query("facilityName"))).toEqual(["Bravo", "alpha", "delta", "Charlie"]);
    expect(await namesOf(query("facilityName", { dir: "desc" }))).toEqual(["delta", "Charlie", "alpha", "Bravo"]);
  });

  it("sorts by city both ways, buildings without a city last", async () => {
    expect(await namesOf(query("city"))).toEqual(["delta", "Charlie", "Bravo", "alpha"]);
    expect(await namesOf(query("city", { dir: "desc" }))).toEqual(["Bravo", "Charlie", "delta", "alpha"]);
  });

  it("sorts by countRooms both ways (archived rooms not counted)", async () => {
    expect(await namesOf(query("countRooms"))).toEqual(["alpha", "Charlie", "delta", "Bravo"]);
    expect(await namesOf(query("countRooms", { dir: "desc" }))).toEqual(["Bravo", "delta", "Charlie", "alpha"]);
  });

  it("accepts every declared sort key from the URL", async () => {
    for (const sort of BUILDING_SORTS) {
      for (const dir of ["asc", "desc"] as const) {
        const parsed = parseListQuery(new URLSearchParams({ sort, dir }), { sorts: BUILDING_SORTS, defaultSort: "name" });
        const page = await listBuildings(ctx, parsed);
        expect(page.total).toBe(4);
        expect(page.items).toHaveLength(4);
      }
    }
  });

  it("pages with page, size and total", async () => {
    const pageOf = (page: number) => listBuildings(ctx, query("name", { page, size: 3 }));
    expect(await pageOf(1)).toMatchObject({ total: 4, page: 1, size: 3 });
    expect((await pageOf(1)).items.map((r) => r.name)).toEqual(["alpha", "Bravo", "Charlie"]);
    expect((await pageOf(2)).items.map((r) => r.name)).toEqual(["delta"]);
    expect(await pageOf(3)).toEqual({ items: [], total: 4, page: 3, size: 3 });
  });

  it("filters by facilityIds: some, none (empty list) or every facility (null)", async () => {
    expect(await namesOf(query("name"), { facilityIds: [zulu.id] })).toEqual(["Charlie", "delta"]);
    expect(await namesOf(query("name"), { facilityIds: [zulu.id, xray.id] })).toEqual(["Bravo", "Charlie", "delta"]);
    expect(await listBuildings(ctx, query("name"), { facilityIds: [] })).toEqual({ items: [], total: 0, page: 1, size: 100 });
    expect(await namesOf(query("name"), { facilityIds: null })).toEqual(["alpha", "Bravo", "Charlie", "delta"]);
    const paged = await listBuildings(ctx, query("name", { size: 1, page: 2 }), { facilityIds: [zulu.id] });
    expect(paged).toMatchObject({ total: 2, page: 2, size: 1 });
    expect(paged.items.map((r) => r.name)).toEqual(["delta"]);
  });

  it("ignores another entity's facility in the filter", async () => {
    const other = await createEntity(database.db);
    const theirs = await createBuilding(database.db, { entityId: other.id, name: "Foreign" });
    expect(await listBuildings(ctx, query("name"), { facilityIds: [theirs.facilityId] })).toMatchObject({ items: [], total: 0 });
    expect(await namesOf(query("name"), { facilityIds: [theirs.facilityId, yankee.id] })).toEqual(["alpha"]);
  });

  it("searches names case-insensitively, with the filter, % and _ literal", async () => {
    expect(await namesOf(query("name", { q: "CHAR" }))).toEqual(["Charlie"]);
    expect(await namesOf(query("name", { q: "a" }))).toEqual(["alpha", "Bravo", "Charlie", "delta"]);
    expect(await namesOf(query("name", { q: "a" }), { facilityIds: [zulu.id] })).toEqual(["Charlie", "delta"]);
    expect((await listBuildings(ctx, query("name", { q: "l" }))).total).toBe(3);
    expect(await listBuildings(ctx, query("name", { q: "%" }))).toMatchObject({ items: [], total: 0 });
    expect(await listBuildings(ctx, query("name", { q: "_" }))).toMatchObject({ items: [], total: 0 });

    const { ctx: own, entity: e } = await freshEntity();
    for (const name of ["50% off", "Off", "B_1", "BX1"]) await createBuilding(database.db, { entityId: e.id, name });
    await reachAll(own);
    const names = async (q: string) => (await listBuildings(own, query("name", { q }))).items.map((r) => r.name);
    expect(await names("%")).toEqual(["50% off"]);
    expect(await names("OFF")).toEqual(["50% off", "Off"]);
    expect(await names("b_1")).toEqual(["B_1"]);
  });

  it("never shows another entity's rows", async () => {
    const all = await listBuildings(ctx, query("name"));
    expect(all.items.map((r) => r.name)).not.toContain("aardvark");
    expect(await listBuildings(ctx, query("name", { q: "aardvark" }))).toMatchObject({ items: [], total: 0 });
  });

  it("gives the picker's options of active buildings by name, a page at a time, searched and by facility", async () => {
    const all = await searchBuildingOptions(ctx);
    expect(all.options.map((o) => [o.name, o.facilityName])).toEqual([
      ["alpha", "yankee"],
      ["Bravo", "xray"],
      ["Charlie", "Zulu"],
      ["delta", "Zulu"],
    ]);
    expect(all.next).toBeNull();
    const first = await searchBuildingOptions(ctx, { limit: 3 });
    expect(first.options.map((o) => o.name)).toEqual(["alpha", "Bravo", "Charlie"]);
    expect(first.next).toEqual(expect.any(String));
    const second = await searchBuildingOptions(ctx, { limit: 3, after: first.next });
    expect(second).toEqual({ options: [expect.objectContaining({ name: "delta" })], next: null });
    expect((await searchBuildingOptions(ctx, { q: "A" })).options.map((o) => o.name)).toEqual(["alpha", "Bravo", "Charlie", "delta"]);
    expect((await searchBuildingOptions(ctx, { q: "LT" })).options.map((o) => o.name)).toEqual(["delta"]);
    expect((await searchBuildingOptions(ctx, { facilityId: zulu.id })).options.map((o) => o.name)).toEqual(["Charlie", "delta"]);
    // A cursor that is not one starts from the first page.
    expect((await searchBuildingOptions(ctx, { limit: 3, after: "garbage" })).options.map((o) => o.name)).toEqual(["alpha", "Bravo", "Charlie"]);
    // Another entity's buildings are never offered, nor found.
    expect((await searchBuildingOptions(ctx, { q: "aardvark" })).options).toEqual([]);
    expect(await getBuildingOption(ctx, theirAardvark.id)).toBeNull();
    expect(await getBuildingOption(ctx, first.options[0].id)).toMatchObject({ name: "alpha", facilityName: "yankee" });
  });
});

// ---------------------------------------------------------------------------
// Counts
// ---------------------------------------------------------------------------

describe("active incidents and counts", () => {
  it("counts Pending and In Progress incidents that are not archived, in rooms that are not archived", async () => {
    const { entity, ctx } = await freshEntity();
    const db = database.db;
    const facility = await createFacility(db, { entityId: entity.id });
    const main = await createBuilding(db, { entityId: entity.id, facilityId: facility.id });
    const annex = await createBuilding(db, { entityId: entity.id, facilityId: facility.id });
    const quiet = await createBuilding(db, { entityId: entity.id, facilityId: facility.id });
    const room = await createRoom(db, { entityId: entity.id, buildingId: main.id });
    const archivedRoom = await createRoom(db, { entityId: entity.id, buildingId: main.id, archivedAt: new Date() });
    const annexRoom = await createRoom(db, { entityId: entity.id, buildingId: annex.id });
    const quietRoom = await createRoom(db, { entityId: entity.id, buildingId: quiet.id });

    const on = (roomId: number, status: IncidentStatus, extra: { archivedAt?: Date; equipmentItemId?: number } = {}) =>
      createIncident(db, { entityId: entity.id, roomId, status, ...extra });
    await on(room.id, IncidentStatus.PENDING);
    await on(room.id, IncidentStatus.IN_PROGRESS);
    await on(room.id, IncidentStatus.DONE);
    await on(room.id, IncidentStatus.REJECTED);
    await on(room.id, IncidentStatus.ARCHIVED);
    await on(room.id, IncidentStatus.PENDING, { archivedAt: new Date() });
    await on(room.id, IncidentStatus.IN_PROGRESS, { archivedAt: new Date() });
    await on(archivedRoom.id, IncidentStatus.PENDING);
    await on(archivedRoom.id, IncidentStatus.IN_PROGRESS);
    const item = await createEquipmentItem(db, { entityId: entity.id, roomId: room.id });
    await on(room.id, IncidentStatus.IN_PROGRESS, { equipmentItemId: item.id });
    await on(annexRoom.id, IncidentStatus.PENDING);
    await on(quietRoom.id, IncidentStatus.DONE);
    await reachAll(ctx);

    expect(await getBuilding(ctx, main.id)).toMatchObject({ countRooms: 1, activeIncidents: 3 });
    expect(await getBuilding(ctx, annex.id)).toMatchObject({ countRooms: 1, activeIncidents: 1 });
    expect(await getBuilding(ctx, quiet.id)).toMatchObject({ countRooms: 1, activeIncidents: 0 });
    expect(await getFacility(ctx, facility.id)).toMatchObject({ countBuildings: 3, activeIncidents: 4 });

    const listed = await listBuildings(ctx, query("shortId"), { facilityIds: [facility.id] });
    expect(listed.items.map((r) => [r.countRooms, r.activeIncidents])).toEqual([
      [1, 3],
      [1, 1],
      [1, 0],
    ]);
    expect((await listFacilities(ctx, query("name"))).items.map((r) => r.activeIncidents)).toEqual([4]);

    // Archiving the room (the verb: its open incidents are rejected) removes it and its incidents from the counts.
    await archiveRoom(ctx, annexRoom.id);
    expect(await getBuilding(ctx, annex.id)).toMatchObject({ countRooms: 0, activeIncidents: 0 });
    expect(await getFacility(ctx, facility.id)).toMatchObject({ activeIncidents: 3 });
  });

  it("never counts another entity's buildings, rooms or incidents", async () => {
    const { entity, ctx } = await freshEntity();
    const facility = await createFacility(database.db, { entityId: entity.id });
    const building = await createBuilding(database.db, { entityId: entity.id, facilityId: facility.id });
    const other = await createEntity(database.db);
    const theirRoom = await createRoom(database.db, { entityId: other.id });
    await createIncident(database.db, { entityId: other.id, roomId: theirRoom.id });
    await reachAll(ctx);
    expect(await getFacility(ctx, facility.id)).toMatchObject({ countBuildings: 1, activeIncidents: 0 });
    expect(await getBuilding(ctx, building.id)).toMatchObject({ countRooms: 0, activeIncidents: 0 });
  });
});

// ---------------------------------------------------------------------------
// getFacility / getBuilding
// ---------------------------------------------------------------------------

describe("getFacility and getBuilding", () => {
  it("read a row of the entity", async () => {
    const { entity, ctx } = await freshEntity("Reader");
    const facility = await createFacility(database.db, { entityId: entity.id, name: "Site", description: "About" });
    const building = await createBuilding(database.db, { entityId: entity.id, facilityId: facility.id, name: "Hall" });
    await reachAll(ctx);
    expect(await getFacility(ctx, facility.id)).toMatchObject({
      id: facility.id,
      name: "Site",
      description: "About",
      entityName: "Reader",
      countBuildings: 1,
      status: 1,
    });
    expect(await getBuilding(ctx, building.id)).toMatchObject({
      id: building.id,
      name: "Hall",
      facilityId: facility.id,
      facilityName: "Site",
      status: 1,
    });
  });

  it("answer not found for another entity's, archived or unknown rows", async () => {
    const { entity, ctx } = await freshEntity();
    const other = await createEntity(database.db);
    const theirs = await createBuilding(database.db, { entityId: other.id });
    const archivedFacility = await createFacility(database.db, { entityId: entity.id, archivedAt: new Date() });
    const archivedBuilding = await createBuilding(database.db, { entityId: entity.id, archivedAt: new Date() });
    await reachAll(ctx);
    for (const id of [theirs.facilityId, archivedFacility.id, 2_000_000_000]) {
      const error = await getFacility(ctx, id).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(NotFoundError);
      expect(error).toMatchObject({ code: "FACILITY_NOT_FOUND", messageKey: "facilities:errors.facilityNotFound" });
    }
    for (const id of [theirs.id, archivedBuilding.id, 2_000_000_000]) {
      const error = await getBuilding(ctx, id).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(NotFoundError);
      expect(error).toMatchObject({ code: "BUILDING_NOT_FOUND", messageKey: "facilities:errors.buildingNotFound" });
    }
  });
});

// ---------------------------------------------------------------------------
// Reach: technicians read their linked facilities and buildings; the forms are for managers
// ---------------------------------------------------------------------------

describe("reach of getFacility, getBuilding and their form read models", () => {
  it("shows a technician only the facilities and buildings they are linked to, others not found", async () => {
    const { entity } = await freshEntity();
    const db = database.db;
    const linkedFacility = await createFacility(db, { entityId: entity.id });
    const inLinked = await createBuilding(db, { entityId: entity.id, facilityId: linkedFacility.id });
    const viaBuilding = await createFacility(db, { entityId: entity.id });
    const linkedBuilding = await createBuilding(db, { entityId: entity.id, facilityId: viaBuilding.id });
    const sibling = await createBuilding(db, { entityId: entity.id, facilityId: viaBuilding.id });
    const elsewhere = await createBuilding(db, { entityId: entity.id });
    const technician = await createUser(db, { entityId: entity.id, role: Role.TECHNICIAN });
    await linkUserTo(db, { entityId: entity.id, userId: technician.id, facilityId: linkedFacility.id });
    await linkUserTo(db, { entityId: entity.id, userId: technician.id, buildingId: linkedBuilding.id });
    const ctx = ctxOf(technician);

    expect((await getFacility(ctx, linkedFacility.id)).id).toBe(linkedFacility.id);
    expect((await getFacility(ctx, viaBuilding.id)).id).toBe(viaBuilding.id);
    expect((await getBuilding(ctx, inLinked.id)).id).toBe(inLinked.id);
    expect((await getBuilding(ctx, linkedBuilding.id)).id).toBe(linkedBuilding.id);
    await expect(getFacility(ctx, elsewhere.facilityId)).rejects.toBeInstanceOf(NotFoundError);
    await expect(getBuilding(ctx, sibling.id)).rejects.toBeInstanceOf(NotFoundError);
    await expect(getBuilding(ctx, elsewhere.id)).rejects.toBeInstanceOf(NotFoundError);
    // No actor (never a request): nothing.
    await expect(getFacility({ ...ctx, actor: null }, linkedFacility.id)).rejects.toBeInstanceOf(NotFoundError);
  });

  it("gives the form read models to managers and administrators only (Forbidden to a technician, even linked)", async () => {
    const { entity, ctx } = await freshEntity();
    const db = database.db;
    const building = await createBuilding(db, { entityId: entity.id });
    const admin = ctxOf(await createUser(db, { entityId: entity.id, role: Role.ADMINISTRATOR }));
    await reachAll(ctx);
    for (const manager of [ctx, admin]) {
      expect((await getFacilityForEdit(manager, building.facilityId)).id).toBe(building.facilityId);
      expect((await getBuildingForEdit(manager, building.id)).id).toBe(building.id);
    }
    const technician = await createUser(db, { entityId: entity.id, role: Role.TECHNICIAN });
    await linkUserTo(db, { entityId: entity.id, userId: technician.id, facilityId: building.facilityId });
    await expect(getFacilityForEdit(ctxOf(technician), building.facilityId)).rejects.toBeInstanceOf(ForbiddenError);
    await expect(getBuildingForEdit(ctxOf(technician), building.id)).rejects.toBeInstanceOf(ForbiddenError);
  });

  it("answers not found to another entity's manager", async () => {
    const { entity } = await freshEntity();
    const building = await createBuilding(database.db, { entityId: entity.id });
    const { ctx: stranger } = await freshEntity();
    await expect(getFacilityForEdit(stranger, building.facilityId)).rejects.toBeInstanceOf(NotFoundError);
    await expect(getBuildingForEdit(stranger, building.id)).rejects.toBeInstanceOf(NotFoundError);
  });
});
