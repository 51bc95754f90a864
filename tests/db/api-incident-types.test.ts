import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { IncidentEventType, IncidentStatus, IncidentTypeStatus, Role, UserStatus } from "~/db/enums";
import {
  type Building,
  type Entity,
  type EquipmentItem,
  type EquipmentType,
  incidentEvents,
  incidents,
  incidentTypeChecklistItems,
  incidentTypeDefaultAssignees,
  incidentTypeRoomTypes,
  incidentTypes,
  type Room,
  type RoomType,
  type User,
} from "~/db/schema";
import * as typeRoute from "~/routes/api/incident-types.$id";
import * as reportableRoute from "~/routes/api/incident-types.reportable";
import * as translateRoute from "~/routes/api/incident-types.translate";
import * as typesRoute from "~/routes/api/incident-types";
import {
  createBuilding,
  createEntity,
  createEquipmentCategory,
  createEquipmentItem,
  createEquipmentType,
  createFacility,
  createIncident,
  createIncidentType,
  createRoom,
  createRoomType,
  createUser,
  linkUserTo,
} from "#tests/factories";
import { type ApiHarness, callApi, startApiRuntime } from "#tests/api-helpers";

/**
 * REST calls of incident types (issue #11 point 5; designed like the equipment calls of SPEC.md
 * section 7), called through the route modules with a bearer token: answers, statuses, JSON errors,
 * and that a refused call changes nothing.
 */
let api: ApiHarness;
let entityA: Entity;
let entityB: Entity;
let buildingA: Building;
/** A building of entity A in another facility: outside the technician's reach. */
let farBuilding: Building;
let admin: User;
let manager: User;
let technician: User;
let disabled: User;
let otherAdmin: User;
let office: RoomType;
let lab: RoomType;
let foreignRoomType: RoomType;
let officeRoom: Room;
let labRoom: Room;
let farRoom: Room;
let foreignRoom: Room;
let projector: EquipmentType;
let foreignEquipment: EquipmentType;
let projectorItem: EquipmentItem;
let farItem: EquipmentItem;
let foreignItem: EquipmentItem;
let adminToken: string;
let managerToken: string;
let technicianToken: string;
let otherToken: string;

const VALIDATION_MESSAGE = "Please correct the highlighted fields.";
const NOT_FOUND = { code: "INCIDENT_TYPE_NOT_FOUND", message: "Incident type not found" };
const CONTROL = "This text contains characters that are not allowed";
const typesUrl = "/api/incident-types";
const one = (id: number | string) => ({ url: `${typesUrl}/${id}`, params: { id: String(id) } });
const ids = (rows: { id: number }[]) => rows.map((r) => r.id);

function typeBody(extra: Record<string, unknown> = {}) {
  return { nameEn: "Water leak", defaultPriority: 3, roomTypeIds: [office.id], ...extra };
}

/** The stored type with its assignees, room types and checklist: a "nothing changed" snapshot. */
async function snapshot(id: number) {
  const db = api.database.db;
  const [row] = await db.select().from(incidentTypes).where(eq(incidentTypes.id, id));
  const assignees = await db.select({ userId: incidentTypeDefaultAssignees.userId }).from(incidentTypeDefaultAssignees).where(eq(incidentTypeDefaultAssignees.incidentTypeId, id));
  const roomTypes = await db.select({ roomTypeId: incidentTypeRoomTypes.roomTypeId }).from(incidentTypeRoomTypes).where(eq(incidentTypeRoomTypes.incidentTypeId, id));
  const checklist = await db.select().from(incidentTypeChecklistItems).where(eq(incidentTypeChecklistItems.incidentTypeId, id));
  return { row, assignees, roomTypes, checklist };
}

async function typeCount(entityId = entityA.id) {
  return (await api.database.db.select({ id: incidentTypes.id }).from(incidentTypes).where(eq(incidentTypes.entityId, entityId))).length;
}

beforeAll(async () => {
  api = await startApiRuntime();
  const db = api.database.db;
  entityA = await createEntity(db, { name: "Entity A" });
  entityB = await createEntity(db, { name: "Entity B" });
  const facilityA = await createFacility(db, { entityId: entityA.id, name: "Campus A" });
  buildingA = await createBuilding(db, { entityId: entityA.id, facilityId: facilityA.id, name: "Block A" });
  farBuilding = await createBuilding(db, { entityId: entityA.id, name: "Far block" });
  admin = await createUser(db, { entityId: entityA.id, role: Role.ADMINISTRATOR, name: "Ada", surname: "Admin" });
  manager = await createUser(db, { entityId: entityA.id, role: Role.FACILITY_MANAGER, name: "Max", surname: "Manager" });
  technician = await createUser(db, { entityId: entityA.id, role: Role.TECHNICIAN, name: "Ted", surname: "Tech" });
  disabled = await createUser(db, { entityId: entityA.id, role: Role.TECHNICIAN, status: UserStatus.DISABLED });
  otherAdmin = await createUser(db, { entityId: entityB.id, role: Role.ADMINISTRATOR });
  await linkUserTo(db, { entityId: entityA.id, userId: manager.id, facilityId: facilityA.id });
  await linkUserTo(db, { entityId: entityA.id, userId: manager.id, facilityId: farBuilding.facilityId });
  await linkUserTo(db, { entityId: entityA.id, userId: technician.id, facilityId: facilityA.id });
  office = await createRoomType(db, { entityId: entityA.id, name: "Office" });
  lab = await createRoomType(db, { entityId: entityA.id, name: "Lab" });
  foreignRoomType = await createRoomType(db, { entityId: entityB.id, name: "Elsewhere" });
  officeRoom = await createRoom(db, { entityId: entityA.id, buildingId: buildingA.id, roomTypeId: office.id, name: "Office 1" });
  labRoom = await createRoom(db, { entityId: entityA.id, buildingId: buildingA.id, roomTypeId: lab.id, name: "Lab 1" });
  farRoom = await createRoom(db, { entityId: entityA.id, buildingId: farBuilding.id, roomTypeId: office.id, name: "Far office" });
  foreignRoom = await createRoom(db, { entityId: entityB.id, roomTypeId: foreignRoomType.id });
  const category = await createEquipmentCategory(db, { entityId: entityA.id });
  projector = await createEquipmentType(db, { entityId: entityA.id, categoryId: category.id, name: "Projector" });
  foreignEquipment = await createEquipmentType(db, { entityId: entityB.id });
  projectorItem = await createEquipmentItem(db, { entityId: entityA.id, roomId: labRoom.id, equipmentTypeId: projector.id });
  farItem = await createEquipmentItem(db, { entityId: entityA.id, roomId: farRoom.id, equipmentTypeId: projector.id });
  foreignItem = await createEquipmentItem(db, { entityId: entityB.id, roomId: foreignRoom.id, equipmentTypeId: foreignEquipment.id });
  [adminToken, managerToken, technicianToken, otherToken] = await Promise.all([
    api.token(admin),
    api.token(manager),
    api.token(technician),
    api.token(otherAdmin),
  ]);
});
afterAll(async () => {
  await api?.close();
});

describe("every /api/incident-types call", () => {
  it("answers 401 without a token or with a bad one", async () => {
    const calls: [Parameters<typeof callApi>[0], string, string, Record<string, string>][] = [
      [typesRoute, typesUrl, "GET", {}],
      [typesRoute, typesUrl, "POST", {}],
      [typeRoute, `${typesUrl}/1`, "GET", { id: "1" }],
      [typeRoute, `${typesUrl}/1`, "PUT", { id: "1" }],
      [typeRoute, `${typesUrl}/1`, "DELETE", { id: "1" }],
      [translateRoute, `${typesUrl}/translate`, "POST", {}],
      [reportableRoute, `${typesUrl}/reportable?roomId=1`, "GET", {}],
    ];
    for (const [route, url, method, params] of calls) {
      const body = method === "GET" || method === "DELETE" ? undefined : {};
      const none = await callApi(route, url, { method, params, body });
      expect(none.status, `${method} ${url}`).toBe(401);
      expect(none.body).toMatchObject({ code: "UNAUTHORIZED", message: "User session expired" });
      expect((await callApi(route, url, { method, params, body, token: "not-a-jwt" })).status, `${method} ${url}`).toBe(401);
    }
  });

  it("answers 405 for a method the address does not take", async () => {
    const cases: [Parameters<typeof callApi>[0], string, string, Record<string, string>, string][] = [
      [typesRoute, typesUrl, "DELETE", {}, "GET, POST"],
      [typesRoute, typesUrl, "PUT", {}, "GET, POST"],
      [typeRoute, `${typesUrl}/1`, "POST", { id: "1" }, "GET, PUT, DELETE"],
      [typeRoute, `${typesUrl}/1`, "PATCH", { id: "1" }, "GET, PUT, DELETE"],
      [translateRoute, `${typesUrl}/translate`, "GET", {}, "POST"],
      [translateRoute, `${typesUrl}/translate`, "PUT", {}, "POST"],
      [reportableRoute, `${typesUrl}/reportable`, "POST", {}, "GET"],
    ];
    for (const [route, url, method, params, allow] of cases) {
      const res = await callApi(route, url, { method, params, token: managerToken });
      expect(res.status, `${method} ${url}`).toBe(405);
      expect(res.body.code).toBe("METHOD_NOT_ALLOWED");
      expect(res.headers.get("Allow")).toBe(allow);
    }
  });
});

describe("POST /api/incident-types", () => {
  it("creates a type with a name in one language, links, default assignees and an ordered checklist: 201", async () => {
    const res = await callApi(typesRoute, typesUrl, {
      method: "POST",
      token: managerToken,
      body: typeBody({
        nameEn: "  Broken light ",
        defaultPriority: 1,
        reporterMayChangePriority: true,
        defaultAssigneeIds: [technician.id, technician.id],
        roomTypeIds: [office.id, lab.id],
        equipmentTypeIds: [projector.id],
        roomIds: [labRoom.id],
        checklist: [
          { question: "How many lamps are out?", contentType: 2 },
          { question: "Take a photo of the lamp", contentType: 3, tutorialLink: "https://help.example.test/lamps", message: "Do not touch broken glass." },
          { question: "Is the switch on?" },
        ],
      }),
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      id: expect.any(Number),
      name: "Broken light",
      nameEn: "Broken light",
      nameFr: null,
      nameNl: null,
      untranslated: [],
      defaultPriority: 1,
      reporterMayChangePriority: true,
      appliesEverywhere: false,
      status: IncidentTypeStatus.ACTIVE,
      roomTypes: [
        { id: lab.id, name: "Lab" },
        { id: office.id, name: "Office" },
      ],
      equipmentTypes: [{ id: projector.id, name: "Projector" }],
      rooms: [{ id: labRoom.id, name: "Lab 1" }],
      openIncidents: 0,
      defaultAssignees: [{ id: technician.id, name: "Ted", surname: "Tech" }],
    });
    expect(res.body.checklist.map((c: { position: number; question: string; contentType: number; tutorialLink: string | null; message: string | null }) => [c.position, c.question, c.contentType, c.tutorialLink, c.message])).toEqual([
      [0, "How many lamps are out?", 2, null, null],
      [1, "Take a photo of the lamp", 3, "https://help.example.test/lamps", "Do not touch broken glass."],
      [2, "Is the switch on?", 0, null, null],
    ]);
    // An administrator too; a draft (status 0) that applies everywhere, copies marked untranslated.
    const draft = await callApi(typesRoute, typesUrl, {
      method: "POST",
      token: adminToken,
      body: { nameFr: "Incendie", nameEn: "Incendie", nameNl: "Brand", untranslated: ["en"], defaultPriority: 3, status: 0, appliesEverywhere: true },
    });
    expect(draft.status).toBe(201);
    expect(draft.body).toMatchObject({ name: "Incendie", status: IncidentTypeStatus.NONE, appliesEverywhere: true, untranslated: ["en"], roomTypes: [], checklist: [] });
  });

  it("is 403 for a technician, before the body is read; nothing is created", async () => {
    const before = await typeCount();
    for (const body of [typeBody(), "{not json", { defaultPriority: 9 }, "x".repeat(100)]) {
      const res = await callApi(typesRoute, typesUrl, { method: "POST", token: technicianToken, body });
      expect(res.status).toBe(403);
      expect(res.body).toMatchObject({ code: "FORBIDDEN", message: "You are not allowed to do this." });
    }
    expect(await typeCount()).toBe(before);
  });

  it("refuses bad bodies with 400 and field errors, never 500, and creates nothing", async () => {
    const before = await typeCount();
    const post = (body: unknown) => callApi(typesRoute, typesUrl, { method: "POST", token: managerToken, body });

    expect((await post("{not json")).body).toMatchObject({ code: "INVALID_JSON", message: "The request body is not valid JSON." });
    expect((await callApi(typesRoute, typesUrl, { method: "POST", token: managerToken })).status).toBe(415);

    const nameless = await post({ defaultPriority: 1 });
    expect(nameless.status).toBe(400);
    expect(nameless.body).toMatchObject({ code: "VALIDATION", message: VALIDATION_MESSAGE, fieldErrors: { nameEn: ["Give a name in at least one language"] } });
    expect((await post(typeBody({ nameEn: "   ", nameFr: "", nameNl: null }))).body.fieldErrors).toEqual({ nameEn: ["Give a name in at least one language"] });
    expect((await post(typeBody({ defaultPriority: undefined }))).body.fieldErrors).toEqual({ defaultPriority: ["Choose a default priority"] });
    expect((await post(typeBody({ nameEn: "Wa\u0000ter" }))).body.fieldErrors).toEqual({ nameEn: [CONTROL] });
    expect((await post(typeBody({ checklist: [{ question: "Why?", tutorialLink: "javascript:alert(1)" }] }))).body.fieldErrors).toEqual({
      "checklist.0.tutorialLink": ["This is not a valid URL"],
    });
    const tooMany = Array.from({ length: 21 }, (_, i) => ({ question: `Question ${i + 1}` }));
    expect((await post(typeBody({ checklist: tooMany }))).body.fieldErrors).toEqual({ checklist: ["A checklist holds at most 20 items"] });
    expect((await post(typeBody({ checklist: [{ question: " " }] }))).body.fieldErrors).toEqual({ "checklist.0.question": ["Write the question"] });
    expect((await post(typeBody({ checklist: [{ question: "Q", contentType: 4 }] }))).body.fieldErrors).toEqual({
      "checklist.0.contentType": ["Choose what the reporter answers"],
    });
    expect((await post(typeBody({ defaultAssigneeIds: [2 ** 31] }))).body.fieldErrors).toEqual({ "defaultAssigneeIds.0": ["This value is not valid"] });

    const many = Array.from({ length: 10_000 }, (_, i) => i + 1);
    const cases: [string, unknown][] = [
      ["array body", [1, 2]],
      ["null body", null],
      ["a string body", "\"Water leak\""],
      ["name as a number", typeBody({ nameEn: 12 })],
      ["names as an object", typeBody({ nameFr: { fr: "Fuite" } })],
      ["name too long", typeBody({ nameEn: "x".repeat(201) })],
      ["NUL byte in a French name", typeBody({ nameFr: "\u0000" })],
      ["NUL byte in a question", typeBody({ checklist: [{ question: "Wh\u0000y?" }] })],
      ["NUL byte in a message", typeBody({ checklist: [{ question: "Why?", message: "a\u0000" }] })],
      ["priority 4", typeBody({ defaultPriority: 4 })],
      ["priority -1", typeBody({ defaultPriority: -1 })],
      ["priority as a string", typeBody({ defaultPriority: "3" })],
      ["status 2 (archived is its own call)", typeBody({ status: 2 })],
      ["status as a string", typeBody({ status: "active" })],
      ["reporterMayChangePriority as a number", typeBody({ reporterMayChangePriority: 1 })],
      ["untranslated language de", typeBody({ untranslated: ["de"] })],
      ["untranslated as a string", typeBody({ untranslated: "fr" })],
      ["checklist as an object", typeBody({ checklist: { question: "Why?" } })],
      ["checklist item as a string", typeBody({ checklist: ["Why?"] })],
      ["21 checklist items", typeBody({ checklist: Array.from({ length: 21 }, () => ({ question: "Q" })) })],
      ["a javascript: tutorial link", typeBody({ checklist: [{ question: "Q", tutorialLink: "javascript:alert(1)" }] })],
      ["a data: tutorial link", typeBody({ checklist: [{ question: "Q", tutorialLink: "data:text/html,<b>x</b>" }] })],
      ["a tutorial link that is no URL", typeBody({ checklist: [{ question: "Q", tutorialLink: "help page" }] })],
      ["content type as a string", typeBody({ checklist: [{ question: "Q", contentType: "photo" }] })],
      ["question too long", typeBody({ checklist: [{ question: "q".repeat(501) }] })],
      ["room type id 2^31", typeBody({ roomTypeIds: [2 ** 31] })],
      ["room type id 2^53", typeBody({ roomTypeIds: [2 ** 53] })],
      ["room id 2^53", typeBody({ roomIds: [2 ** 53] })],
      ["assignee id 2^53", typeBody({ defaultAssigneeIds: [2 ** 53] })],
      ["equipment id 2^31", typeBody({ equipmentTypeIds: [2 ** 31] })],
      ["negative room type id", typeBody({ roomTypeIds: [-1] })],
      ["fractional room id", typeBody({ roomIds: [1.5] })],
      ["room type id as a string", typeBody({ roomTypeIds: [String(office.id)] })],
      ["room type ids as a string", typeBody({ roomTypeIds: String(office.id) })],
      ["10,000 room type ids", typeBody({ roomTypeIds: many })],
      ["10,000 assignee ids", typeBody({ defaultAssigneeIds: many })],
      ["10,000 room ids", typeBody({ roomIds: many })],
      ["10,000 equipment ids", typeBody({ equipmentTypeIds: many })],
      ["another entity's room type", typeBody({ roomTypeIds: [foreignRoomType.id] })],
      ["another entity's room", typeBody({ roomIds: [foreignRoom.id] })],
      ["another entity's equipment", typeBody({ equipmentTypeIds: [foreignEquipment.id] })],
      ["another entity's user as default assignee", typeBody({ defaultAssigneeIds: [otherAdmin.id] })],
      ["a disabled user as default assignee", typeBody({ defaultAssigneeIds: [disabled.id] })],
      ["no name in any language", typeBody({ nameEn: null })],
    ];
    for (const [label, body] of cases) {
      const res = await post(body);
      expect(res.status, label).toBe(400);
      expect(typeof res.body.code, label).toBe("string");
      expect(typeof res.body.message, label).toBe("string");
    }
    expect(await typeCount()).toBe(before);
  });

  it("refuses default assignees, room types, equipment and rooms of another entity, field by field", async () => {
    const before = await typeCount();
    const res = await callApi(typesRoute, typesUrl, {
      method: "POST",
      token: managerToken,
      body: typeBody({ defaultAssigneeIds: [technician.id, otherAdmin.id], roomTypeIds: [foreignRoomType.id], equipmentTypeIds: [foreignEquipment.id], roomIds: [foreignRoom.id] }),
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      code: "REFERENCE_NOT_FOUND",
      message: "Some choices no longer exist",
      fieldErrors: {
        defaultAssigneeIds: ["Choose active users of your entity"],
        roomTypeIds: ["Choose a room type"],
        equipmentTypeIds: ["Choose an equipment"],
        roomIds: ["Choose rooms of your entity"],
      },
      fieldErrorKeys: { defaultAssigneeIds: ["incidentTypes:validation.assigneeNotFound"] },
    });
    const onlyAssignee = await callApi(typesRoute, typesUrl, { method: "POST", token: managerToken, body: typeBody({ defaultAssigneeIds: [otherAdmin.id] }) });
    expect(onlyAssignee.body.fieldErrors).toEqual({ defaultAssigneeIds: ["Choose active users of your entity"] });
    // Entity B's administrator cannot link entity A's things either.
    const fromB = await callApi(typesRoute, typesUrl, { method: "POST", token: otherToken, body: typeBody({ defaultAssigneeIds: [manager.id] }) });
    expect(fromB.status).toBe(400);
    expect(fromB.body.fieldErrors).toEqual({ defaultAssigneeIds: ["Choose active users of your entity"], roomTypeIds: ["Choose a room type"] });
    expect(await typeCount()).toBe(before);
    expect(await typeCount(entityB.id)).toBe(0);
  });
});

describe("GET /api/incident-types", () => {
  let entity: Entity;
  let token: string;
  let leak: number;
  let light: number;
  let draft: number;
  let room: Room;
  beforeAll(async () => {
    const db = api.database.db;
    entity = await createEntity(db);
    token = await api.token(await createUser(db, { entityId: entity.id, role: Role.ADMINISTRATOR }));
    const roomType = await createRoomType(db, { entityId: entity.id, name: "Kitchen" });
    room = await createRoom(db, { entityId: entity.id, roomTypeId: roomType.id, name: "Kitchen 1" });
    leak = (await createIncidentType(db, { entityId: entity.id, nameEn: "Water leak", nameFr: "Fuite d'eau", nameNl: "Waterlek", defaultPriority: 3, roomTypeIds: [roomType.id], roomIds: [room.id] })).id;
    light = (await createIncidentType(db, { entityId: entity.id, nameEn: "broken light", nameNl: "Defecte lamp", defaultPriority: 1 })).id;
    draft = (await createIncidentType(db, { entityId: entity.id, nameFr: "Chaise cassée", defaultPriority: 0, status: IncidentTypeStatus.NONE })).id;
    await createIncidentType(db, { entityId: entity.id, nameEn: "Gone", status: IncidentTypeStatus.ARCHIVED, archivedAt: new Date() });
    for (const status of [IncidentStatus.PENDING, IncidentStatus.IN_PROGRESS, IncidentStatus.DONE, IncidentStatus.REJECTED]) {
      await createIncident(db, { entityId: entity.id, roomId: room.id, incidentTypeId: leak, status });
    }
  });

  it("lists the entity's types with X-Total-Count, where each applies and its open incidents; archived and other entities' types left out", async () => {
    const all = await callApi(typesRoute, typesUrl, { token });
    expect(all.status).toBe(200);
    expect(all.headers.get("X-Total-Count")).toBe("3");
    expect(all.body.map((t: { name: string }) => t.name)).toEqual(["broken light", "Chaise cassée", "Water leak"]);
    expect(all.body[2]).toEqual({
      id: leak,
      name: "Water leak",
      nameEn: "Water leak",
      nameFr: "Fuite d'eau",
      nameNl: "Waterlek",
      defaultPriority: 3,
      reporterMayChangePriority: false,
      appliesEverywhere: false,
      status: IncidentTypeStatus.ACTIVE,
      untranslated: [],
      roomTypes: [{ id: expect.any(Number), name: "Kitchen" }],
      equipmentTypes: [],
      rooms: [{ id: room.id, name: "Kitchen 1" }],
      openIncidents: 2,
    });
    const a = await callApi(typesRoute, `${typesUrl}?size=100`, { token: managerToken });
    expect(ids(a.body)).not.toContain(leak);
  });

  it("sorts, pages and searches the three names; names follow the caller's language", async () => {
    const byPriority = await callApi(typesRoute, `${typesUrl}?sort=priority&dir=desc`, { token });
    expect(ids(byPriority.body)).toEqual([leak, light, draft]);
    const byStatus = await callApi(typesRoute, `${typesUrl}?sort=status`, { token });
    expect(ids(byStatus.body)).toEqual([draft, light, leak]);
    const page = await callApi(typesRoute, `${typesUrl}?size=1&page=2&sort=name&dir=desc`, { token });
    expect(page.headers.get("X-Total-Count")).toBe("3");
    expect(ids(page.body)).toEqual([draft]);
    expect(ids((await callApi(typesRoute, `${typesUrl}?q=fuite`, { token })).body)).toEqual([leak]);
    expect(ids((await callApi(typesRoute, `${typesUrl}?q=LAMP`, { token })).body)).toEqual([light]);
    expect((await callApi(typesRoute, `${typesUrl}?q=%00x`, { token })).status).toBe(200);
  });

  it("filters by status: 0 none (drafts), 1 active", async () => {
    const drafts = await callApi(typesRoute, `${typesUrl}?status=0`, { token });
    expect(ids(drafts.body)).toEqual([draft]);
    expect(drafts.headers.get("X-Total-Count")).toBe("1");
    const active = await callApi(typesRoute, `${typesUrl}?status=1&sort=name`, { token });
    expect(ids(active.body)).toEqual([light, leak]);
  });

  it("refuses bad list parameters and filters with 400", async () => {
    for (const [params, field] of [
      ["status=2", "status"],
      ["status=-1", "status"],
      ["status=abc", "status"],
      ["status=", "status"],
      ["status=1.0", "status"],
      ["status=0&status=1", "status"],
      ["size=101", "size"],
      ["size=abc", "size"],
      ["page=0", "page"],
      [`page=${2 ** 53}`, "page"],
      ["sort=openIncidents", "sort"],
      ["dir=sideways", "dir"],
    ] as const) {
      const res = await callApi(typesRoute, `${typesUrl}?${params}`, { token });
      expect(res.status, params).toBe(400);
      expect(res.body).toMatchObject({ code: "INVALID_LIST_QUERY", message: "The list parameters are not valid.", fieldErrors: { [field]: [expect.any(String)] } });
    }
  });

  it("is 403 for a technician", async () => {
    const res = await callApi(typesRoute, typesUrl, { token: technicianToken });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe("FORBIDDEN");
  });
});

describe("GET /api/incident-types/{id}", () => {
  it("answers the type; another entity's, an archived, a malformed or an out-of-range id is 404 INCIDENT_TYPE_NOT_FOUND", async () => {
    const db = api.database.db;
    const type = await createIncidentType(db, {
      entityId: entityA.id,
      nameEn: "Heating",
      nameNl: "Verwarming",
      defaultAssigneeIds: [manager.id],
      roomTypeIds: [office.id],
      checklist: [{ question: "Is the radiator cold?", contentType: 0 }],
    });
    const { url, params } = one(type.id);
    const res = await callApi(typeRoute, url, { token: managerToken, params });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: type.id,
      name: "Heating",
      nameNl: "Verwarming",
      defaultAssignees: [{ id: manager.id, name: "Max", surname: "Manager" }],
      roomTypes: [{ id: office.id, name: "Office" }],
      checklist: [{ id: expect.any(Number), position: 0, question: "Is the radiator cold?", tutorialLink: null, message: null, contentType: 0 }],
    });
    const foreign = await callApi(typeRoute, url, { token: otherToken, params });
    expect(foreign.status).toBe(404);
    expect(foreign.body).toMatchObject(NOT_FOUND);
    const archived = await createIncidentType(db, { entityId: entityA.id, status: IncidentTypeStatus.ARCHIVED, archivedAt: new Date() });
    expect((await callApi(typeRoute, one(archived.id).url, { token: managerToken, params: one(archived.id).params })).body).toMatchObject(NOT_FOUND);
    for (const id of ["abc", "0", "-1", "1.5", String(2 ** 31), String(2 ** 53), "999999999"]) {
      const bad = await callApi(typeRoute, `${typesUrl}/${id}`, { token: managerToken, params: { id } });
      expect(bad.status, id).toBe(404);
      expect(bad.body, id).toMatchObject(NOT_FOUND);
    }
  });

  it("is 403 for a technician", async () => {
    const type = await createIncidentType(api.database.db, { entityId: entityA.id });
    const res = await callApi(typeRoute, one(type.id).url, { token: technicianToken, params: one(type.id).params });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe("FORBIDDEN");
  });
});

describe("PUT /api/incident-types/{id}", () => {
  it("replaces names, priority, links and checklist; answers the type", async () => {
    const db = api.database.db;
    const type = await createIncidentType(db, {
      entityId: entityA.id,
      nameEn: "Old",
      defaultAssigneeIds: [manager.id],
      roomTypeIds: [office.id],
      checklist: [{ question: "Old question" }],
    });
    const { url, params } = one(type.id);
    const res = await callApi(typeRoute, url, {
      method: "PUT",
      token: managerToken,
      params,
      body: {
        nameEn: "Leak",
        nameFr: "Leak",
        nameNl: "Lek",
        untranslated: ["fr"],
        defaultPriority: 2,
        status: 0,
        reporterMayChangePriority: true,
        defaultAssigneeIds: [technician.id],
        roomTypeIds: [lab.id],
        equipmentTypeIds: [projector.id],
        roomIds: [officeRoom.id],
        checklist: [{ question: "Take a photo of the damage", contentType: 3 }, { question: "How many drops a minute?", contentType: 2 }],
      },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: type.id,
      nameEn: "Leak",
      nameFr: "Leak",
      nameNl: "Lek",
      untranslated: ["fr"],
      defaultPriority: 2,
      status: IncidentTypeStatus.NONE,
      reporterMayChangePriority: true,
      defaultAssignees: [{ id: technician.id }],
      roomTypes: [{ id: lab.id }],
      equipmentTypes: [{ id: projector.id }],
      rooms: [{ id: officeRoom.id }],
    });
    expect(res.body.checklist.map((c: { question: string; contentType: number }) => [c.question, c.contentType])).toEqual([
      ["Take a photo of the damage", 3],
      ["How many drops a minute?", 2],
    ]);
    // Editing the copy clears its "untranslated" mark.
    const edited = await callApi(typeRoute, url, { method: "PUT", token: adminToken, params, body: typeBody({ nameEn: "Leak", nameFr: "Fuite", untranslated: ["fr"] }) });
    expect(edited.body).toMatchObject({ nameFr: "Fuite", untranslated: [], status: IncidentTypeStatus.ACTIVE, checklist: [], defaultAssignees: [] });
  });

  it("another entity's id is 404 and nothing changes; a technician is 403 before the body is read", async () => {
    const type = await createIncidentType(api.database.db, { entityId: entityA.id, nameEn: "Keep me", defaultAssigneeIds: [manager.id], roomTypeIds: [office.id], checklist: [{ question: "Q" }] });
    const { url, params } = one(type.id);
    const before = await snapshot(type.id);
    const foreign = await callApi(typeRoute, url, { method: "PUT", token: otherToken, params, body: typeBody({ nameEn: "Taken" }) });
    expect(foreign.status).toBe(404);
    expect(foreign.body).toMatchObject(NOT_FOUND);
    for (const body of [typeBody({ nameEn: "Taken" }), "{not json", { defaultPriority: 9 }]) {
      const tech = await callApi(typeRoute, url, { method: "PUT", token: technicianToken, params, body });
      expect(tech.status).toBe(403);
      expect(tech.body.code).toBe("FORBIDDEN");
    }
    const missing = await callApi(typeRoute, one(999_999_999).url, { method: "PUT", token: managerToken, params: one(999_999_999).params, body: typeBody() });
    expect(missing.body).toMatchObject(NOT_FOUND);
    expect(await snapshot(type.id)).toEqual(before);
  });

  it("refuses bad bodies and another entity's default assignees with 400; nothing changes", async () => {
    const type = await createIncidentType(api.database.db, { entityId: entityA.id, nameEn: "Stay", defaultAssigneeIds: [manager.id], roomTypeIds: [office.id], checklist: [{ question: "Q" }] });
    const { url, params } = one(type.id);
    const before = await snapshot(type.id);
    const put = (body: unknown) => callApi(typeRoute, url, { method: "PUT", token: managerToken, params, body });
    const foreignAssignee = await put(typeBody({ defaultAssigneeIds: [otherAdmin.id] }));
    expect(foreignAssignee.status).toBe(400);
    expect(foreignAssignee.body).toMatchObject({ code: "REFERENCE_NOT_FOUND", fieldErrors: { defaultAssigneeIds: ["Choose active users of your entity"] } });
    expect((await put({ defaultPriority: 1, nameEn: "", nameFr: " " })).body.fieldErrors).toEqual({ nameEn: ["Give a name in at least one language"] });
    for (const [label, body] of [
      ["not JSON", "{"],
      ["array body", []],
      ["NUL byte", typeBody({ nameNl: "a\u0000b" })],
      ["id 2^31", typeBody({ roomIds: [2 ** 31] })],
      ["id 2^53", typeBody({ equipmentTypeIds: [2 ** 53] })],
      ["10,000 ids", typeBody({ roomTypeIds: Array.from({ length: 10_000 }, (_, i) => i + 1) })],
      ["21 checklist items", typeBody({ checklist: Array.from({ length: 21 }, () => ({ question: "Q" })) })],
      ["javascript: link", typeBody({ checklist: [{ question: "Q", tutorialLink: "JavaScript:alert(1)" }] })],
      ["no name", { defaultPriority: 1 }],
      ["priority as text", typeBody({ defaultPriority: "high" })],
      ["disabled assignee", typeBody({ defaultAssigneeIds: [disabled.id] })],
      ["another entity's room", typeBody({ roomIds: [foreignRoom.id] })],
    ] as const) {
      const res = await put(body);
      expect(res.status, label).toBe(400);
      expect(typeof res.body.code, label).toBe("string");
    }
    expect(await snapshot(type.id)).toEqual(before);
  });
});

describe("DELETE /api/incident-types/{id}", () => {
  it("archives the type: removed from Pending and In Progress incidents with an event, kept by Done and Rejected; answers the count", async () => {
    const db = api.database.db;
    const type = await createIncidentType(db, { entityId: entityA.id, nameEn: "To archive", roomTypeIds: [office.id] });
    const other = await createIncidentType(db, { entityId: entityA.id, nameEn: "Stays" });
    const made: Record<string, number> = {};
    for (const [key, status] of [
      ["pending", IncidentStatus.PENDING],
      ["progress", IncidentStatus.IN_PROGRESS],
      ["done", IncidentStatus.DONE],
      ["rejected", IncidentStatus.REJECTED],
    ] as const) {
      made[key] = (await createIncident(db, { entityId: entityA.id, roomId: officeRoom.id, incidentTypeId: type.id, status })).id;
    }
    const untouched = await createIncident(db, { entityId: entityA.id, roomId: officeRoom.id, incidentTypeId: other.id });
    const { url, params } = one(type.id);

    // A technician and another entity change nothing.
    const before = await snapshot(type.id);
    expect((await callApi(typeRoute, url, { method: "DELETE", token: technicianToken, params })).status).toBe(403);
    const foreign = await callApi(typeRoute, url, { method: "DELETE", token: otherToken, params });
    expect(foreign.status).toBe(404);
    expect(foreign.body).toMatchObject(NOT_FOUND);
    expect(await snapshot(type.id)).toEqual(before);

    const res = await callApi(typeRoute, url, { method: "DELETE", token: managerToken, params });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ incidentsUpdated: 2 });

    const typeOf = async (id: number) => (await db.select({ t: incidents.incidentTypeId }).from(incidents).where(eq(incidents.id, id)))[0].t;
    expect(await typeOf(made.pending)).toBeNull();
    expect(await typeOf(made.progress)).toBeNull();
    expect(await typeOf(made.done)).toBe(type.id);
    expect(await typeOf(made.rejected)).toBe(type.id);
    expect(await typeOf(untouched.id)).toBe(other.id);
    for (const key of ["pending", "progress"]) {
      const events = await db
        .select()
        .from(incidentEvents)
        .where(and(eq(incidentEvents.incidentId, made[key]), eq(incidentEvents.type, IncidentEventType.INCIDENT_TYPE_REMOVED)));
      expect(events, key).toHaveLength(1);
      expect(events[0]).toMatchObject({ actorId: manager.id, oldValue: { id: type.id, name: "To archive" }, newValue: null });
    }
    const closedEvents = await db.select().from(incidentEvents).where(and(eq(incidentEvents.incidentId, made.done), eq(incidentEvents.type, IncidentEventType.INCIDENT_TYPE_REMOVED)));
    expect(closedEvents).toEqual([]);

    const [row] = await db.select().from(incidentTypes).where(eq(incidentTypes.id, type.id));
    expect(row).toMatchObject({ status: IncidentTypeStatus.ARCHIVED, archivedAt: expect.any(Date) });
    // Gone from the type's own address, the list and the reportable list; a second DELETE is 404.
    expect((await callApi(typeRoute, url, { token: managerToken, params })).body).toMatchObject(NOT_FOUND);
    expect(ids((await callApi(typesRoute, `${typesUrl}?size=100`, { token: managerToken })).body)).not.toContain(type.id);
    expect(ids((await callApi(reportableRoute, `${typesUrl}/reportable?roomId=${officeRoom.id}`, { token: managerToken })).body)).not.toContain(type.id);
    expect((await callApi(typeRoute, url, { method: "DELETE", token: managerToken, params })).body).toMatchObject(NOT_FOUND);
  });

  it("answers 0 for a type no open incident uses; a malformed id is 404", async () => {
    const type = await createIncidentType(api.database.db, { entityId: entityA.id });
    const res = await callApi(typeRoute, one(type.id).url, { method: "DELETE", token: adminToken, params: one(type.id).params });
    expect(res.body).toEqual({ incidentsUpdated: 0 });
    for (const id of ["x", String(2 ** 53)]) {
      expect((await callApi(typeRoute, `${typesUrl}/${id}`, { method: "DELETE", token: adminToken, params: { id } })).body).toMatchObject(NOT_FOUND);
    }
  });
});

describe("POST /api/incident-types/translate", () => {
  const url = `${typesUrl}/translate`;
  const translate = (body: unknown, token = managerToken) => callApi(translateRoute, url, { method: "POST", token, body });

  it("without a translation service copies the given name into the empty languages, marked untranslated; saves nothing", async () => {
    const before = await typeCount();
    const res = await translate({ nameEn: " Water leak " });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ nameEn: "Water leak", nameFr: "Water leak", nameNl: "Water leak", untranslated: ["fr", "nl"], from: "en", outcome: "copy", checklist: [] });
    // Names already typed are kept; `from` picks the source.
    const fromFr = await translate({ nameEn: "Leak", nameFr: "Fuite", nameNl: "", from: "fr" });
    expect(fromFr.body).toEqual({ nameEn: "Leak", nameFr: "Fuite", nameNl: "Fuite", untranslated: ["nl"], from: "fr", outcome: "copy", checklist: [] });
    // A `from` without a name falls back to the first given name.
    const fallback = await translate({ nameNl: "Waterlek", from: "en" });
    expect(fallback.body).toMatchObject({ nameEn: "Waterlek", nameFr: "Waterlek", untranslated: ["en", "fr"], from: "nl" });
    const full = await translate({ nameEn: "a", nameFr: "b", nameNl: "c" });
    expect(full.body).toMatchObject({ nameEn: "a", nameFr: "b", nameNl: "c", untranslated: [] });
    // Another entity's administrator may translate too (nothing of entity A is involved).
    expect((await translate({ nameEn: "x" }, otherToken)).status).toBe(200);
    expect(await typeCount()).toBe(before);
  });

  it("refuses no name, bad bodies and technicians (403 before the body is read)", async () => {
    const none = await translate({ nameEn: " ", from: "en" });
    expect(none.status).toBe(400);
    expect(none.body).toMatchObject({ code: "VALIDATION", fieldErrors: { nameEn: ["Give a name in at least one language"] } });
    expect((await translate("{")).body.code).toBe("INVALID_JSON");
    expect((await translate({ nameEn: "a\u0000" })).body.fieldErrors).toEqual({ nameEn: [CONTROL] });
    for (const body of [[], null, { nameEn: 12 }, { nameEn: "x", from: "de" }, { nameEn: "x".repeat(201) }, { nameFr: ["x"] }]) {
      const res = await translate(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
    for (const body of [{ nameEn: "x" }, "{", { from: 3 }]) {
      const tech = await translate(body, technicianToken);
      expect(tech.status).toBe(403);
      expect(tech.body.code).toBe("FORBIDDEN");
    }
  });
});

describe("GET /api/incident-types/reportable", () => {
  const url = `${typesUrl}/reportable`;
  let byRoomType: number;
  let byRoom: number;
  let byEquipment: number;
  let everywhere: number;
  beforeAll(async () => {
    const db = api.database.db;
    byRoomType = (await createIncidentType(db, { entityId: entityA.id, nameEn: "R office type", nameFr: "R type bureau", defaultPriority: 2, reporterMayChangePriority: true, roomTypeIds: [office.id] })).id;
    byRoom = (await createIncidentType(db, { entityId: entityA.id, nameEn: "R lab room", roomIds: [labRoom.id] })).id;
    byEquipment = (await createIncidentType(db, { entityId: entityA.id, nameEn: "R projector", equipmentTypeIds: [projector.id] })).id;
    everywhere = (await createIncidentType(db, { entityId: entityA.id, nameEn: "R everywhere", appliesEverywhere: true })).id;
    // Neither a draft nor an archived type is offered.
    await createIncidentType(db, { entityId: entityA.id, nameEn: "R draft", status: IncidentTypeStatus.NONE, roomTypeIds: [office.id], appliesEverywhere: true });
    await createIncidentType(db, { entityId: entityA.id, nameEn: "R archived", status: IncidentTypeStatus.ARCHIVED, archivedAt: new Date(), roomTypeIds: [office.id] });
  });
  const reportable = (query: string, token = managerToken) => callApi(reportableRoute, `${url}?${query}`, { token });
  const ours = (rows: { id: number }[]) => ids(rows).filter((id) => [byRoomType, byRoom, byEquipment, everywhere].includes(id));

  it("answers the active types of a room (its room type, the room itself, everywhere) and of an item (its equipment, everywhere)", async () => {
    const office1 = await reportable(`roomId=${officeRoom.id}`);
    expect(office1.status).toBe(200);
    expect(ours(office1.body)).toEqual([everywhere, byRoomType]);
    expect(office1.headers.get("X-Total-Count")).toBe(String(office1.body.length));
    expect(office1.body.find((t: { id: number }) => t.id === byRoomType)).toEqual({ id: byRoomType, name: "R office type", defaultPriority: 2, reporterMayChangePriority: true });
    expect(ours((await reportable(`roomId=${labRoom.id}`)).body)).toEqual([everywhere, byRoom]);
    expect(ours((await reportable(`equipmentItemId=${projectorItem.id}`)).body)).toEqual([everywhere, byEquipment]);
  });

  it("answers any signed-in user; a technician only for rooms and items they reach (404 otherwise)", async () => {
    const tech = await reportable(`roomId=${officeRoom.id}`, technicianToken);
    expect(tech.status).toBe(200);
    expect(ours(tech.body)).toEqual([everywhere, byRoomType]);
    expect(ours((await reportable(`equipmentItemId=${projectorItem.id}`, technicianToken)).body)).toEqual([everywhere, byEquipment]);
    const farRoomAnswer = await reportable(`roomId=${farRoom.id}`, technicianToken);
    expect(farRoomAnswer.status).toBe(404);
    expect(farRoomAnswer.body).toMatchObject({ code: "ROOM_NOT_FOUND", message: "Room not found" });
    const farItemAnswer = await reportable(`equipmentItemId=${farItem.id}`, technicianToken);
    expect(farItemAnswer.status).toBe(404);
    expect(farItemAnswer.body.code).toBe("EQUIPMENT_ITEM_NOT_FOUND");
    // The manager reaches both.
    expect((await reportable(`roomId=${farRoom.id}`)).status).toBe(200);
    expect((await reportable(`equipmentItemId=${farItem.id}`)).status).toBe(200);
  });

  it("another entity's, an archived or an unknown room or item is 404", async () => {
    expect((await reportable(`roomId=${foreignRoom.id}`)).body.code).toBe("ROOM_NOT_FOUND");
    expect((await reportable(`equipmentItemId=${foreignItem.id}`)).body.code).toBe("EQUIPMENT_ITEM_NOT_FOUND");
    expect((await reportable(`roomId=${officeRoom.id}`, otherToken)).status).toBe(404);
    const archived = await createRoom(api.database.db, { entityId: entityA.id, buildingId: buildingA.id, roomTypeId: office.id, archivedAt: new Date() });
    expect((await reportable(`roomId=${archived.id}`)).status).toBe(404);
    expect((await reportable("roomId=999999999")).status).toBe(404);
  });

  it("refuses anything but exactly one id with 400", async () => {
    for (const query of [
      "",
      `roomId=${officeRoom.id}&equipmentItemId=${projectorItem.id}`,
      "roomId=",
      "roomId=abc",
      "roomId=0",
      "roomId=-1",
      "roomId=1.5",
      `roomId=${2 ** 31}`,
      `roomId=${2 ** 53}`,
      `roomId=${officeRoom.id}&roomId=${labRoom.id}`,
      `roomId=${officeRoom.id},${labRoom.id}`,
      "equipmentItemId=x",
      "roomId=%00",
    ]) {
      const res = await reportable(query);
      expect(res.status, query).toBe(400);
      expect(res.body, query).toMatchObject({ code: "INVALID_LIST_QUERY", fieldErrors: expect.any(Object) });
    }
    expect((await reportable("", technicianToken)).status).toBe(400);
  });
});
