import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "~/db/client.server";
import { IncidentStatus, Priority, Role } from "~/db/enums";
import { type Entity, type Incident, type Room, type User } from "~/db/schema";
import { NotFoundError } from "~/lib/errors";
import type { ListQuery } from "~/lib/list-query";
import { createBuilding, createEntity, createIncident, createIncidentComment, createIncidentType, createRoom, createUser, linkUserTo } from "#tests/factories";
import { actorContext, rejectionOf } from "#tests/service-helpers";
import { createTestDatabase } from "#tests/test-db";
import type { IncidentSort } from "./constants";
import { type IncidentFilters, NO_FILTERS, parseIncidentFilters } from "./filters";
import { getIncident, getIncidentView, listBoard, listBoardColumn, listIncidentAssignees, listIncidentComments, listIncidentEvents, listIncidents } from "./queries.server";

let database: Database;
let entity: Entity;
let other: Entity;
let admin: User;
let technician: User;
let farTechnician: User;
let room: Room;
let farRoom: Room;
let made: Incident[] = [];

const query = (sort: IncidentSort, overrides: Partial<ListQuery<IncidentSort>> = {}): ListQuery<IncidentSort> => ({
  page: 1,
  size: 100,
  sort,
  dir: "asc",
  q: "",
  ...overrides,
});
const filters = (overrides: Partial<IncidentFilters> = {}): IncidentFilters => ({ ...NO_FILTERS, ...overrides });
const ctxOf = (user: User) => actorContext(database.db, user);

beforeAll(async () => {
  database = await createTestDatabase();
  entity = await createEntity(database.db);
  other = await createEntity(database.db);
  admin = await createUser(database.db, { entityId: entity.id, role: Role.ADMINISTRATOR, name: "Ada", surname: "Zed" });
  technician = await createUser(database.db, { entityId: entity.id, role: Role.TECHNICIAN, name: "Tom", surname: "Alpha" });
  farTechnician = await createUser(database.db, { entityId: entity.id, role: Role.TECHNICIAN, name: "Fay", surname: "Far" });
  const building = await createBuilding(database.db, { entityId: entity.id });
  const farBuilding = await createBuilding(database.db, { entityId: entity.id });
  room = await createRoom(database.db, { entityId: entity.id, buildingId: building.id, name: "Kitchen" });
  farRoom = await createRoom(database.db, { entityId: entity.id, buildingId: farBuilding.id, name: "Far hall" });
  await linkUserTo(database.db, { entityId: entity.id, userId: technician.id, buildingId: building.id });
  await linkUserTo(database.db, { entityId: entity.id, userId: farTechnician.id, buildingId: farBuilding.id });
  const type = await createIncidentType(database.db, { entityId: entity.id, nameEn: "Leak", nameNl: "Lek" });
  const day = 24 * 60 * 60 * 1000;
  const base = Date.UTC(2026, 5, 1, 10);
  made = [];
  const specs: Array<Partial<Incident> & { roomId: number }> = [
    { roomId: room.id, title: "Water leak", priority: Priority.HIGH, tags: ["water"], incidentTypeId: type.id, occurrences: 3 },
    { roomId: room.id, title: "Broken chair", priority: Priority.LOW, assigneeId: technician.id },
    { roomId: room.id, title: "Cold radiator", priority: null, status: IncidentStatus.IN_PROGRESS, assigneeId: admin.id },
    { roomId: room.id, title: "Lamp out", priority: Priority.CRITICAL, status: IncidentStatus.DONE, description: "The big lamp over the sink" },
    { roomId: farRoom.id, title: "Far door stuck", priority: Priority.MEDIUM, status: IncidentStatus.REJECTED },
    { roomId: farRoom.id, title: "Far window", priority: Priority.MEDIUM, status: IncidentStatus.ARCHIVED },
  ];
  for (const [i, spec] of specs.entries()) {
    made.push(await createIncident(database.db, { entityId: entity.id, createdAt: new Date(base + i * day), ...spec }));
  }
  const otherRoom = await createRoom(database.db, { entityId: other.id, buildingId: (await createBuilding(database.db, { entityId: other.id })).id });
  await createIncident(database.db, { entityId: other.id, roomId: otherRoom.id, title: "Water leak elsewhere" });
});

afterAll(async () => {
  await database?.close();
});

const titles = (page: { items: { title: string }[] }) => page.items.map((i) => i.title);

describe("listIncidents", () => {
  it("lists the entity's incidents but Archived, with counted totals, for an administrator", async () => {
    const page = await listIncidents(ctxOf(admin), query("createdAt", { dir: "desc" }), filters());
    expect(titles(page)).toEqual(["Far door stuck", "Lamp out", "Cold radiator", "Broken chair", "Water leak"]);
    expect(page).toMatchObject({ total: 5, capped: false });
    expect(page.items[0].location).toMatchObject({ roomName: "Far hall" });
    expect(page.items[4].incidentType).toMatchObject({ name: "Leak" });
  });

  it("shows a technician only the incidents in reach or assigned to them", async () => {
    const page = await listIncidents(ctxOf(technician), query("createdAt"), filters());
    expect(titles(page)).toEqual(["Water leak", "Broken chair", "Cold radiator", "Lamp out"]);
    const far = await listIncidents(ctxOf(farTechnician), query("createdAt"), filters());
    expect(titles(far)).toEqual(["Far door stuck"]);
  });

  it("sorts by each of the seven fields, both ways", async () => {
    const ctx = ctxOf(admin);
    expect(titles(await listIncidents(ctx, query("title"), filters()))).toEqual(["Broken chair", "Cold radiator", "Far door stuck", "Lamp out", "Water leak"]);
    expect(titles(await listIncidents(ctx, query("priority", { dir: "desc" }), filters()))).toEqual([
      "Lamp out",
      "Water leak",
      "Far door stuck",
      "Broken chair",
      "Cold radiator",
    ]);
    expect(titles(await listIncidents(ctx, query("status"), filters())).slice(0, 2)).toEqual(["Water leak", "Broken chair"]);
    expect(titles(await listIncidents(ctx, query("assignee"), filters())).slice(0, 2)).toEqual(["Broken chair", "Cold radiator"]);
    expect(titles(await listIncidents(ctx, query("occurrences", { dir: "desc" }), filters()))[0]).toBe("Water leak");
    expect(titles(await listIncidents(ctx, query("shortId", { dir: "desc" }), filters()))[0]).toBe("Far door stuck");
  });

  it("filters by status, priority (with Not Selected), assignee, type, room, building, facility, tags, dates and text", async () => {
    const ctx = ctxOf(admin);
    const list = async (f: Partial<IncidentFilters>) => titles(await listIncidents(ctx, query("title"), filters(f)));
    expect(await list({ statuses: [IncidentStatus.ARCHIVED] })).toEqual(["Far window"]);
    expect(await list({ statuses: [0, 1] })).toEqual(["Broken chair", "Cold radiator", "Water leak"]);
    expect(await list({ priorities: [null, Priority.CRITICAL] })).toEqual(["Cold radiator", "Lamp out"]);
    expect(await list({ assignee: "none" })).toEqual(["Far door stuck", "Lamp out", "Water leak"]);
    expect(await list({ assignee: "me" })).toEqual(["Cold radiator"]);
    expect(await list({ assignee: technician.id })).toEqual(["Broken chair"]);
    expect(await list({ incidentTypeId: made[0].incidentTypeId })).toEqual(["Water leak"]);
    expect(await list({ roomId: farRoom.id })).toEqual(["Far door stuck"]);
    expect(await list({ buildingId: room.buildingId })).toHaveLength(4);
    expect(await list({ tags: ["water"] })).toEqual(["Water leak"]);
    expect(await list({ from: "2026-06-02", to: "2026-06-03" })).toEqual(["Broken chair", "Cold radiator"]);
    expect(await list({ q: "sink" })).toEqual(["Lamp out"]);
    expect(await list({ q: "LEAK" })).toEqual(["Water leak"]);
    expect(await list({ q: `#${made[1].shortId}` })).toContain("Broken chair");
    expect(await list({ q: "100%_" })).toEqual([]);
    const searched = await listIncidents(ctx, query("title"), filters({ q: "a" }));
    expect(searched.capped).toBe(false);
  });

  it("pages a search in every sort's order, matches in the title, the description and the short id alike", async () => {
    const ctx = ctxOf(admin);
    const ids = (p: { items: { id: number }[] }) => p.items.map((r) => r.id);
    for (const q of ["a", "o", "sink", "LEAK", `${made[1].shortId}`, "r"]) {
      for (const sort of ["createdAt", "title", "priority", "status", "occurrences", "shortId"] as const) {
        for (const dir of ["asc", "desc"] as const) {
          const everything = ids(await listIncidents(ctx, query(sort, { dir, size: 50 }), filters()));
          const found = await listIncidents(ctx, query(sort, { dir, size: 50 }), filters({ q }));
          // The search's rows in the list's own order.
          const matched = new Set(ids(found));
          expect(ids(found), `${q}, ${sort} ${dir}`).toEqual(everything.filter((id) => matched.has(id)));
          const paged: number[] = [];
          for (let page = 1; page <= Math.ceil(found.total / 2); page++) paged.push(...ids(await listIncidents(ctx, query(sort, { dir, size: 2, page }), filters({ q }))));
          expect(paged, `${q}, ${sort} ${dir}, 2 a page`).toEqual(ids(found));
          expect(found.total).toBe(found.items.length);
        }
      }
    }
  });

  it("serves the last page from the other end, the same rows as reading forwards", async () => {
    const ctx = ctxOf(admin);
    const all = titles(await listIncidents(ctx, query("title"), filters()));
    const pages = [];
    for (let page = 1; page <= 3; page++) pages.push(...titles(await listIncidents(ctx, query("title", { size: 2, page }), filters())));
    expect(pages).toEqual(all);
    const beyond = await listIncidents(ctx, query("title", { size: 2, page: 99 }), filters());
    expect(beyond.page).toBe(3);
    expect(titles(beyond)).toEqual([all[4]]);
  });

  it("sorts by assignee block by block: every page size gives the same order, unassigned last ascending and first descending", async () => {
    const ctx = ctxOf(admin);
    for (const dir of ["asc", "desc"] as const) {
      const all = (await listIncidents(ctx, query("assignee", { dir }), filters())).items;
      expect(all).toHaveLength(5);
      const assigned = all.filter((r) => r.assignee);
      const named = assigned.map((r) => r.assignee!.name.split(" ").reverse().join(" ").toLowerCase());
      expect(named).toEqual([...named].sort((a, b) => (dir === "asc" ? a.localeCompare(b) : b.localeCompare(a))));
      const unassigned = all.filter((r) => !r.assignee).map((r) => r.id);
      expect(unassigned).toEqual([...unassigned].sort((a, b) => (dir === "asc" ? a - b : b - a)));
      expect(all.findIndex((r) => !r.assignee)).toBe(dir === "asc" ? assigned.length : 0);
      for (const size of [1, 2, 3]) {
        const paged = [];
        for (let page = 1; page <= Math.ceil(5 / size); page++) paged.push(...(await listIncidents(ctx, query("assignee", { dir, size, page }), filters())).items);
        expect(paged.map((r) => r.id), `${dir}, ${size} a page`).toEqual(all.map((r) => r.id));
      }
    }
  });

  it("never shows another entity's incidents", async () => {
    const page = await listIncidents(ctxOf(admin), query("title"), filters({ q: "elsewhere" }));
    expect(page.items).toEqual([]);
  });
});

describe("the due sort", () => {
  // Six incidents of an entity of their own: four with a running clock (two due at the same instant), two
  // without. Expected orders written out: soonest first, ties by id, the ones without a due time last.
  const specs = [
    { title: "Due 3 June", nextDueAt: new Date("2026-06-03T09:00:00Z") },
    { title: "No clock A", nextDueAt: null },
    { title: "Due 1 June (first)", nextDueAt: new Date("2026-06-01T12:00:00Z") },
    { title: "Due 2 June", nextDueAt: new Date("2026-06-02T08:30:00Z") },
    { title: "No clock B", nextDueAt: null },
    { title: "Due 1 June (second)", nextDueAt: new Date("2026-06-01T12:00:00Z") },
  ];
  const ascending = ["Due 1 June (first)", "Due 1 June (second)", "Due 2 June", "Due 3 June", "No clock A", "No clock B"];
  const descending = ["Due 3 June", "Due 2 June", "Due 1 June (second)", "Due 1 June (first)", "No clock B", "No clock A"];

  async function dueEntity() {
    const own = await createEntity(database.db);
    const user = await createUser(database.db, { entityId: own.id, role: Role.ADMINISTRATOR });
    const place = await createRoom(database.db, { entityId: own.id, buildingId: (await createBuilding(database.db, { entityId: own.id })).id });
    for (const spec of specs) await createIncident(database.db, { entityId: own.id, roomId: place.id, ...spec });
    return ctxOf(user);
  }

  it("sorts by the stored due time, incidents without one last in both directions, ties by id", async () => {
    const ctx = await dueEntity();
    expect(titles(await listIncidents(ctx, query("due"), filters()))).toEqual(ascending);
    expect(titles(await listIncidents(ctx, query("due", { dir: "desc" }), filters()))).toEqual(descending);
  });

  it("gives the same order page by page (the pages past the middle read from the end) and with a search", async () => {
    const ctx = await dueEntity();
    for (const [dir, expected] of [
      ["asc", ascending],
      ["desc", descending],
    ] as const) {
      for (const size of [1, 2, 4, 5]) {
        const paged: string[] = [];
        for (let page = 1; page <= Math.ceil(6 / size); page++) paged.push(...titles(await listIncidents(ctx, query("due", { dir, size, page }), filters())));
        expect(paged, `${dir}, ${size} a page`).toEqual(expected);
      }
    }
    expect(titles(await listIncidents(ctx, query("due"), filters({ q: "June" })))).toEqual(["Due 1 June (first)", "Due 1 June (second)", "Due 2 June", "Due 3 June"]);
    expect(titles(await listIncidents(ctx, query("due", { size: 1, page: 2 }), filters({ q: "clock" })))).toEqual(["No clock B"]);
  });

  it("keeps to the viewer's entity", async () => {
    const ctx = await dueEntity();
    expect((await listIncidents(ctx, query("due"), filters())).total).toBe(6);
    expect(titles(await listIncidents(ctxOf(admin), query("due"), filters()))).not.toContain("Due 2 June");
  });
});

describe("the date filters follow the entity's time zone", () => {
  /** Four incidents around the start and the end of each day of a change of summer time in New York. */
  const around = [
    ["2026-03-08T04:30:00Z", "Sat 7 Mar 23:30 EST"],
    ["2026-03-08T05:30:00Z", "Sun 8 Mar 00:30 EST"],
    ["2026-03-09T03:30:00Z", "Sun 8 Mar 23:30 EDT"],
    ["2026-03-09T04:30:00Z", "Mon 9 Mar 00:30 EDT"],
    ["2026-11-01T03:30:00Z", "Sat 31 Oct 23:30 EDT"],
    ["2026-11-01T04:30:00Z", "Sun 1 Nov 00:30 EDT"],
    ["2026-11-02T04:30:00Z", "Sun 1 Nov 23:30 EST"],
    ["2026-11-02T05:30:00Z", "Mon 2 Nov 00:30 EST"],
  ] as const;

  async function entityIn(timeZone: string) {
    const zoned = await createEntity(database.db, { timeZone });
    const user = await createUser(database.db, { entityId: zoned.id, role: Role.ADMINISTRATOR });
    const building = await createBuilding(database.db, { entityId: zoned.id });
    const place = await createRoom(database.db, { entityId: zoned.id, buildingId: building.id });
    for (const [at, title] of around) await createIncident(database.db, { entityId: zoned.id, roomId: place.id, title, createdAt: new Date(at) });
    // The context carries the entity's zone, as the session check reads it (app/modules/auth).
    return actorContext(database.db, user, { timeZone: zoned.timeZone });
  }
  const between = async (ctx: Awaited<ReturnType<typeof entityIn>>, from: string, to: string) =>
    titles(await listIncidents(ctx, query("createdAt"), filters({ from, to })));

  it("counts New York's days, 23 and 25 hours long, from its midnight to its midnight", async () => {
    const ny = await entityIn("America/New_York");
    expect(ny.timeZone).toBe("America/New_York");
    expect(await between(ny, "2026-03-08", "2026-03-08")).toEqual(["Sun 8 Mar 00:30 EST", "Sun 8 Mar 23:30 EDT"]);
    expect(await between(ny, "2026-03-07", "2026-03-07")).toEqual(["Sat 7 Mar 23:30 EST"]);
    expect(await between(ny, "2026-11-01", "2026-11-01")).toEqual(["Sun 1 Nov 00:30 EDT", "Sun 1 Nov 23:30 EST"]);
    expect(await between(ny, "2026-10-31", "2026-11-02")).toEqual(["Sat 31 Oct 23:30 EDT", "Sun 1 Nov 00:30 EDT", "Sun 1 Nov 23:30 EST", "Mon 2 Nov 00:30 EST"]);
  });

  it("counts Brussels's days for an entity in Brussels: the same incidents fall on other days", async () => {
    const bxl = await entityIn("Europe/Brussels");
    // 04:30 and 05:30 UTC on 8 March are 05:30 and 06:30 in Brussels; 03:30 and 04:30 UTC on the 9th are the 9th.
    expect(await between(bxl, "2026-03-08", "2026-03-08")).toEqual(["Sat 7 Mar 23:30 EST", "Sun 8 Mar 00:30 EST"]);
    expect(await between(bxl, "2026-11-01", "2026-11-01")).toEqual(["Sat 31 Oct 23:30 EDT", "Sun 1 Nov 00:30 EDT"]);
  });
});

describe("parseIncidentFilters", () => {
  it("reads the URL, ignores bad values on screens and refuses them for the API", () => {
    const params = new URLSearchParams("status=0&status=1,2&priority=none&priority=3&assignee=me&type=4&tag=a&from=2026-01-01&to=2026-02-30&q=%20x%20");
    expect(parseIncidentFilters(params)).toMatchObject({ statuses: [0, 1, 2], priorities: [null, 3], assignee: "me", incidentTypeId: 4, tags: ["a"], from: "2026-01-01", to: null, q: "x" });
    expect(() => parseIncidentFilters(params, { strict: true })).toThrow();
    expect(parseIncidentFilters(new URLSearchParams("status=9&facility=2147483648999&assignee=x"))).toMatchObject({ statuses: [], facilityId: null, assignee: null });
  });
});

describe("listBoardColumn", () => {
  it("pages a column by cursor, newest first", async () => {
    const ctx = ctxOf(admin);
    const first = await listBoardColumn(ctx, IncidentStatus.PENDING, filters(), { size: 1 });
    expect(titles(first)).toEqual(["Broken chair"]);
    expect(first.total).toBe(2);
    const second = await listBoardColumn(ctx, IncidentStatus.PENDING, filters(), { size: 1, after: first.next });
    expect(titles(second)).toEqual(["Water leak"]);
    expect(second.next).toBeNull();
    const garbage = await listBoardColumn(ctx, IncidentStatus.PENDING, filters(), { size: 1, after: "!!not-a-cursor" });
    expect(titles(garbage)).toEqual(["Broken chair"]);
  });
});

describe("listBoard", () => {
  it("answers each column as listBoardColumn does, its next page by its cursor, for every kind of reach and count", async () => {
    const db = database.db;
    const board = await createEntity(db);
    const boss = await createUser(db, { entityId: board.id, role: Role.ADMINISTRATOR });
    const near = await createUser(db, { entityId: board.id, role: Role.TECHNICIAN });
    const wide = await createUser(db, { entityId: board.id, role: Role.FACILITY_MANAGER });
    const here = await createBuilding(db, { entityId: board.id });
    const there = await createBuilding(db, { entityId: board.id });
    await linkUserTo(db, { entityId: board.id, userId: near.id, buildingId: here.id });
    await linkUserTo(db, { entityId: board.id, userId: wide.id, buildingId: here.id });
    await linkUserTo(db, { entityId: board.id, userId: wide.id, buildingId: there.id });
    const rooms = [await createRoom(db, { entityId: board.id, buildingId: here.id }), await createRoom(db, { entityId: board.id, buildingId: there.id })];
    const statuses = [...Array(23).fill(IncidentStatus.PENDING), IncidentStatus.IN_PROGRESS, IncidentStatus.IN_PROGRESS, IncidentStatus.DONE, IncidentStatus.ARCHIVED];
    for (const [i, status] of statuses.entries()) {
      await createIncident(db, {
        entityId: board.id,
        roomId: rooms[i % 2].id,
        status,
        priority: i % 3 === 0 ? Priority.HIGH : Priority.LOW,
        title: `Card ${i}`,
        createdAt: new Date(Date.UTC(2026, 0, 1 + i)),
      });
    }
    const summary = (c: { status: number; items: { id: number }[]; total: number; capped: boolean; next: string | null }) => ({
      status: c.status,
      ids: c.items.map((r) => r.id),
      total: c.total,
      capped: c.capped,
      next: c.next,
    });
    const cases: [User, Partial<IncidentFilters>][] = [
      [boss, {}],
      [boss, { priorities: [Priority.HIGH] }],
      [boss, { statuses: [IncidentStatus.PENDING, IncidentStatus.DONE] }],
      [near, {}],
      [wide, {}],
      [wide, { q: "Card 1" }],
    ];
    for (const [user, narrowed] of cases) {
      const ctx = ctxOf(user);
      const f = filters(narrowed);
      const columns = await listBoard(ctx, f);
      expect(columns.map((c) => c.status)).toEqual([IncidentStatus.PENDING, IncidentStatus.IN_PROGRESS, IncidentStatus.DONE, IncidentStatus.REJECTED]);
      for (const column of columns) {
        const shown = !f.statuses.length || f.statuses.includes(column.status);
        const alone = shown ? summary(await listBoardColumn(ctx, column.status, f)) : { status: column.status, ids: [], total: 0, capped: false, next: null };
        expect(summary(column), `${user.role} ${JSON.stringify(narrowed)} column ${column.status}`).toEqual(alone);
      }
      const pending = columns[0];
      if (pending.next) {
        const after = await listBoard(ctx, f, { [IncidentStatus.PENDING]: pending.next });
        expect(summary(after[0])).toEqual(summary(await listBoardColumn(ctx, IncidentStatus.PENDING, f, { after: pending.next })));
        expect(after[0].items.length).toBeGreaterThan(0);
      }
    }
    // The administrator's whole board: 20 of 23 pending cards, then the other 3.
    const whole = await listBoard(ctxOf(boss), filters());
    expect(whole[0]).toMatchObject({ total: 23, capped: false });
    expect(whole[0].items).toHaveLength(20);
    expect((await listBoard(ctxOf(boss), filters(), { [IncidentStatus.PENDING]: whole[0].next }))[0].items).toHaveLength(3);
  });
});

describe("getIncident and its comments, events and assignees", () => {
  it("reads an incident in reach with its location, and answers not found otherwise", async () => {
    const detail = await getIncident(ctxOf(technician), made[0].id);
    expect(detail).toMatchObject({ title: "Water leak", occurrences: 3, tags: ["water"], location: { roomName: "Kitchen" } });
    expect(await rejectionOf(getIncident(ctxOf(farTechnician), made[0].id))).toBeInstanceOf(NotFoundError);
    expect(await rejectionOf(getIncident(ctxOf(admin), made[5].id + 1000))).toBeInstanceOf(NotFoundError);
    const outsider = await createUser(database.db, { entityId: other.id, role: Role.ADMINISTRATOR });
    expect(await rejectionOf(getIncident(ctxOf(outsider), made[0].id))).toBeInstanceOf(NotFoundError);
  });

  it("lists comments oldest first with their author, and events newest first", async () => {
    await createIncidentComment(database.db, { entityId: entity.id, incidentId: made[1].id, authorId: technician.id, body: "First", createdAt: new Date(Date.UTC(2026, 5, 3)) });
    await createIncidentComment(database.db, { entityId: entity.id, incidentId: made[1].id, authorId: admin.id, body: "Second", createdAt: new Date(Date.UTC(2026, 5, 4)) });
    const comments = await listIncidentComments(ctxOf(technician), made[1].id);
    expect(comments.items.map((c) => [c.body, c.author.name, c.own])).toEqual([
      ["First", "Tom Alpha", true],
      ["Second", "Ada Zed", false],
    ]);
    const events = await listIncidentEvents(ctxOf(technician), made[1].id);
    expect(events.items[0].type).toBe(0);
    expect(events.total).toBe(1);
  });

  it("reads the incident view's page after one reach check: the same details, comments and events", async () => {
    const view = await getIncidentView(ctxOf(technician), made[1].id, { comments: 1, events: 10 });
    expect(view.incident).toEqual(await getIncident(ctxOf(technician), made[1].id));
    expect(view.comments).toEqual(await listIncidentComments(ctxOf(technician), made[1].id, { limit: 1 }));
    expect(view.comments.items.map((c) => c.body)).toEqual(["Second"]);
    expect(view.comments.total).toBe(2);
    expect(view.events).toEqual(await listIncidentEvents(ctxOf(technician), made[1].id, { limit: 10 }));
    expect(await rejectionOf(getIncidentView(ctxOf(farTechnician), made[1].id))).toBeInstanceOf(NotFoundError);
    const outsider = await createUser(database.db, { entityId: other.id, role: Role.ADMINISTRATOR });
    expect(await rejectionOf(getIncidentView(ctxOf(outsider), made[1].id))).toBeInstanceOf(NotFoundError);
    expect(await rejectionOf(getIncidentView(ctxOf(admin), 2 ** 31))).toBeInstanceOf(NotFoundError);
  });

  it("offers as assignees the active users who reach the incident's room", async () => {
    const page = await listIncidentAssignees(ctxOf(admin), made[0].id);
    expect(page.items.map((u) => u.name)).toEqual(["Tom Alpha", "Ada Zed"]);
    const searched = await listIncidentAssignees(ctxOf(admin), made[0].id, { q: "tom" });
    expect(searched.items.map((u) => u.name)).toEqual(["Tom Alpha"]);
  });
});
