import http from "node:http";
import type { AddressInfo } from "node:net";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "~/db/client.server";
import { IncidentEventType, IncidentStatus, IncidentTypeStatus, Role, UserStatus } from "~/db/enums";
import { auditLog, type Building, type Entity, type EquipmentItem, type EquipmentType, incidentEvents, incidents, incidentTypes, type Room, type RoomType, type User } from "~/db/schema";
import { ForbiddenError, NotFoundError, type ValidationError } from "~/lib/errors";
import { libreTranslate } from "~/lib/libretranslate.server";
import { createBuilding, createEntity, createEquipmentCategory, createEquipmentItem, createEquipmentType, createIncident, createRoom, createRoomType, createUser, linkUserTo } from "#tests/factories";
import { createTestDatabase } from "#tests/test-db";
import { actorContext, expectFieldError, listQuery, rejectionOf } from "#tests/service-helpers";
import { getIncidentType, getReportableIncidentType, listIncidentTypeOptions, listIncidentTypes, listReportableIncidentTypes } from "./queries.server";
import type { IncidentTypeInput } from "./schema";
import { archiveIncidentType, createIncidentType, translateNames, updateIncidentType } from "./service.server";

let database: Database;
let entityA: Entity;
let entityB: Entity;
let admin: User;
let manager: User;
let technician: User;
let disabled: User;
let otherUser: User;
let building: Building;
let office: RoomType;
let lab: RoomType;
let officeRoom: Room;
let labRoom: Room;
let otherRoom: Room;
let projector: EquipmentType;
let projectorItem: EquipmentItem;
let otherEntityType: RoomType;
let translator: http.Server;
let translatorUrl: string;
let failing = false;

const ctxOf = (user: User, extra: Record<string, unknown> = {}) => ({ ...actorContext(database.db, user), ...extra });
const input = (overrides: Partial<IncidentTypeInput> = {}): IncidentTypeInput => ({
  nameEn: "Water leak",
  defaultPriority: 3,
  roomTypeIds: [office.id],
  ...overrides,
});

beforeAll(async () => {
  database = await createTestDatabase();
  entityA = await createEntity(database.db);
  entityB = await createEntity(database.db);
  admin = await createUser(database.db, { entityId: entityA.id, role: Role.ADMINISTRATOR });
  manager = await createUser(database.db, { entityId: entityA.id, role: Role.FACILITY_MANAGER });
  technician = await createUser(database.db, { entityId: entityA.id, role: Role.TECHNICIAN });
  disabled = await createUser(database.db, { entityId: entityA.id, role: Role.TECHNICIAN, status: UserStatus.DISABLED });
  otherUser = await createUser(database.db, { entityId: entityB.id, role: Role.FACILITY_MANAGER });
  building = await createBuilding(database.db, { entityId: entityA.id });
  for (const u of [manager, technician]) await linkUserTo(database.db, { entityId: entityA.id, userId: u.id, facilityId: building.facilityId });
  office = await createRoomType(database.db, { entityId: entityA.id, name: "Office" });
  lab = await createRoomType(database.db, { entityId: entityA.id, name: "Lab" });
  otherEntityType = await createRoomType(database.db, { entityId: entityB.id, name: "Elsewhere" });
  officeRoom = await createRoom(database.db, { entityId: entityA.id, buildingId: building.id, roomTypeId: office.id, name: "Office 1" });
  labRoom = await createRoom(database.db, { entityId: entityA.id, buildingId: building.id, roomTypeId: lab.id, name: "Lab 1" });
  otherRoom = await createRoom(database.db, { entityId: entityB.id, buildingId: (await createBuilding(database.db, { entityId: entityB.id })).id });
  const category = await createEquipmentCategory(database.db, { entityId: entityA.id });
  projector = await createEquipmentType(database.db, { entityId: entityA.id, categoryId: category.id, name: "Projector" });
  projectorItem = await createEquipmentItem(database.db, { entityId: entityA.id, roomId: officeRoom.id, equipmentTypeId: projector.id });

  // A LibreTranslate-compatible server on loopback: "[fr] text", or 500 while `failing`.
  translator = http.createServer((req, res) => {
    let body = "";
    req.on("data", (chunk) => (body += chunk));
    req.on("end", () => {
      if (failing || req.url !== "/translate") {
        res.writeHead(500).end();
        return;
      }
      const { q, source, target } = JSON.parse(body) as { q: string; source: string; target: string };
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ translatedText: `[${source}>${target}] ${q}` }));
    });
  });
  await new Promise<void>((resolve) => translator.listen(0, "127.0.0.1", resolve));
  translatorUrl = `http://127.0.0.1:${(translator.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => translator?.close(resolve));
  await database?.close();
});

describe("createIncidentType", () => {
  it("creates a type with a name in one language, links, default assignees and an ordered checklist", async () => {
    const created = await createIncidentType(ctxOf(manager), input({
      nameEn: "  Broken light ",
      defaultPriority: 1,
      reporterMayChangePriority: true,
      defaultAssigneeIds: [technician.id],
      roomTypeIds: [office.id],
      equipmentTypeIds: [projector.id],
      roomIds: [labRoom.id],
      checklist: [
        { question: "Is the switch on?", contentType: 0 },
        { question: "Which lamp?", contentType: 1, tutorialLink: "https://help.example/lamps", message: "Do not touch broken glass." },
        { question: "How many lamps?", contentType: 2 },
      ],
    }));
    expect(created).toMatchObject({ name: "Broken light", nameFr: null, defaultPriority: 1, reporterMayChangePriority: true, status: IncidentTypeStatus.ACTIVE });
    expect(created.defaultAssignees.map((a) => a.id)).toEqual([technician.id]);
    expect(created.roomTypes).toEqual([{ id: office.id, name: "Office" }]);
    expect(created.equipmentTypes).toEqual([{ id: projector.id, name: "Projector" }]);
    expect(created.rooms.map((r) => r.id)).toEqual([labRoom.id]);
    expect(created.checklist.map((c) => [c.position, c.question, c.contentType])).toEqual([
      [0, "Is the switch on?", 0],
      [1, "Which lamp?", 1],
      [2, "How many lamps?", 2],
    ]);
    const [audit] = await database.db.select().from(auditLog).where(and(eq(auditLog.recordType, "incidentType"), eq(auditLog.recordId, String(created.id))));
    expect(audit).toMatchObject({ action: "incidentType.create", actorId: manager.id });
  });

  it("needs a name in at least one language and a default priority", async () => {
    await expectFieldError(createIncidentType(ctxOf(manager), input({ nameEn: " ", nameFr: "", nameNl: null })), "nameEn", "incidentTypes:validation.nameRequired");
    await expectFieldError(createIncidentType(ctxOf(manager), input({ defaultPriority: undefined as never })), "defaultPriority", "incidentTypes:validation.priority");
    await expectFieldError(createIncidentType(ctxOf(manager), input({ defaultPriority: 4 as never })), "defaultPriority", "incidentTypes:validation.priority");
  });

  it("checks the checklist: a question each, a valid link, a known content type, at most 20 items", async () => {
    await expectFieldError(createIncidentType(ctxOf(manager), input({ checklist: [{ question: "" }] })), "checklist.0.question", "incidentTypes:validation.questionRequired");
    await expectFieldError(createIncidentType(ctxOf(manager), input({ checklist: [{ question: "Q", tutorialLink: "javascript:alert(1)" }] })), "checklist.0.tutorialLink", "incidentTypes:validation.url");
    await expectFieldError(createIncidentType(ctxOf(manager), input({ checklist: [{ question: "Q", contentType: 7 as never }] })), "checklist.0.contentType", "incidentTypes:validation.contentType");
    const many = Array.from({ length: 21 }, (_, i) => ({ question: `Q${i}` }));
    await expectFieldError(createIncidentType(ctxOf(manager), input({ checklist: many })), "checklist", "incidentTypes:validation.tooManyItems");
  });

  it("refuses default assignees, room types and rooms of another entity, and disabled assignees", async () => {
    await expectFieldError(createIncidentType(ctxOf(manager), input({ defaultAssigneeIds: [otherUser.id] })), "defaultAssigneeIds", "incidentTypes:validation.assigneeNotFound");
    await expectFieldError(createIncidentType(ctxOf(manager), input({ defaultAssigneeIds: [disabled.id] })), "defaultAssigneeIds", "incidentTypes:validation.assigneeNotFound");
    await expectFieldError(createIncidentType(ctxOf(manager), input({ roomTypeIds: [otherEntityType.id] })), "roomTypeIds", "incidentTypes:validation.roomTypeNotFound");
    await expectFieldError(createIncidentType(ctxOf(manager), input({ roomIds: [otherRoom.id] })), "roomIds", "incidentTypes:validation.roomNotFound");
  });

  it("is for managers and administrators only", async () => {
    expect(await rejectionOf(createIncidentType(ctxOf(technician), input()))).toBeInstanceOf(ForbiddenError);
    expect(await rejectionOf(translateNames(ctxOf(technician), { nameEn: "X" }))).toBeInstanceOf(ForbiddenError);
  });
});

describe("translateNames", () => {
  it("copies the given name into the empty languages and marks the copies when no service is configured", async () => {
    const result = await translateNames(ctxOf(manager), { nameEn: "", nameFr: "Fuite d'eau", nameNl: "Waterlek (eigen)" });
    expect(result).toEqual({ nameEn: "Fuite d'eau", nameFr: "Fuite d'eau", nameNl: "Waterlek (eigen)", untranslated: ["en"], from: "fr", outcome: "copy", checklist: [] });
  });

  it("translates with the configured service, never replacing a typed name", async () => {
    const ctx = ctxOf(manager, { translator: libreTranslate({ url: translatorUrl }) });
    const result = await translateNames(ctx, { nameEn: "Water leak", nameNl: "Lek", from: "en" });
    expect(result).toEqual({ nameEn: "Water leak", nameFr: "[en>fr] Water leak", nameNl: "Lek", untranslated: [], from: "en", outcome: "service", checklist: [] });
  });

  it("keeps the typed text and copies when the service fails", async () => {
    failing = true;
    try {
      const ctx = ctxOf(manager, { translator: libreTranslate({ url: translatorUrl }) });
      const result = await translateNames(ctx, { nameEn: "Water leak" });
      expect(result).toMatchObject({ nameEn: "Water leak", nameFr: "Water leak", nameNl: "Water leak", untranslated: ["fr", "nl"], outcome: "failed" });
    } finally {
      failing = false;
    }
    await expectFieldError(translateNames(ctxOf(manager), {}), "nameEn", "incidentTypes:validation.nameRequired");
  });

  it("fills each checklist question's missing languages too, from the names' language first", async () => {
    const ctx = ctxOf(manager, { translator: libreTranslate({ url: translatorUrl }) });
    const result = await translateNames(ctx, {
      nameEn: "Water leak",
      checklist: [
        { question: "Is water on the floor?" },
        { questionNl: "Hoeveel kranen?", questionFr: "Combien de robinets ?" },
      ],
    });
    expect(result.checklist).toEqual([
      { question: "Is water on the floor?", questionFr: "[en>fr] Is water on the floor?", questionNl: "[en>nl] Is water on the floor?" },
      { question: "[fr>en] Combien de robinets ?", questionFr: "Combien de robinets ?", questionNl: "Hoeveel kranen?" },
    ]);
    // Without a service, copied.
    const copied = await translateNames(ctxOf(manager), { nameNl: "Lek", checklist: [{ questionNl: "Waar?" }] });
    expect(copied.checklist).toEqual([{ question: "Waar?", questionFr: "Waar?", questionNl: "Waar?" }]);
  });

  it("keeps a checklist question in any of the three languages, and offers reporters theirs", async () => {
    await expectFieldError(createIncidentType(ctxOf(manager), input({ checklist: [{ question: "", questionFr: "", questionNl: "" }] })), "checklist.0.question", "incidentTypes:validation.questionRequired");
    const type = await createIncidentType(ctxOf(manager), input({ appliesEverywhere: true, checklist: [{ questionFr: "Où ?", questionNl: "Waar?" }, { question: "How many?", questionNl: "Hoeveel?" }] }));
    expect(type.checklist.map((c) => [c.question, c.questionFr, c.questionNl])).toEqual([
      [null, "Où ?", "Waar?"],
      ["How many?", null, "Hoeveel?"],
    ]);
    const asked = async (locale: string) => {
      const reportable = await getReportableIncidentType({ ...ctxOf(admin), locale }, { roomId: officeRoom.id }, type.id);
      return reportable?.checklist.map((c) => c.question);
    };
    expect(await asked("fr-BE")).toEqual(["Où ?", "How many?"]);
    expect(await asked("nl-BE")).toEqual(["Waar?", "Hoeveel?"]);
    expect(await asked("en")).toEqual(["Où ?", "How many?"]);
  });

  it("keeps the untranslated mark on save only while the copy is unchanged", async () => {
    const copied = await createIncidentType(ctxOf(manager), input({ nameEn: "Noise", nameFr: "Noise", nameNl: "Noise", untranslated: ["fr", "nl"] }));
    expect(copied.untranslated).toEqual(["fr", "nl"]);
    const edited = await updateIncidentType(ctxOf(manager), copied.id, input({ nameEn: "Noise", nameFr: "Bruit", nameNl: "Noise", untranslated: ["fr", "nl"] }));
    expect(edited.untranslated).toEqual(["nl"]);
  });
});

describe("updateIncidentType and reach", () => {
  it("replaces links and checklist; another entity's type is not found and nothing changes", async () => {
    const type = await createIncidentType(ctxOf(manager), input({ checklist: [{ question: "A" }, { question: "B" }] }));
    const updated = await updateIncidentType(ctxOf(manager), type.id, input({ nameFr: "Fuite", roomTypeIds: [lab.id], checklist: [{ question: "B" }, { question: "A" }] }));
    expect(updated.roomTypes.map((r) => r.id)).toEqual([lab.id]);
    expect(updated.checklist.map((c) => c.question)).toEqual(["B", "A"]);
    const error = await rejectionOf<NotFoundError>(updateIncidentType(ctxOf(otherUser), type.id, input({ nameEn: "Hijacked" })));
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error.messageKey).toBe("incidentTypes:errors.notFound");
    expect((await getIncidentType(ctxOf(manager), type.id)).nameEn).toBe("Water leak");
  });
});

describe("listReportableIncidentTypes", () => {
  it("answers the types of a room (room type, the room itself, everywhere) and of an equipment item (its generic equipment, everywhere)", async () => {
    const byRoomType = await createIncidentType(ctxOf(admin), input({ nameEn: "Office clutter", roomTypeIds: [office.id] }));
    const byRoom = await createIncidentType(ctxOf(admin), input({ nameEn: "Lab only", roomTypeIds: [], roomIds: [labRoom.id] }));
    const byEquipment = await createIncidentType(ctxOf(admin), input({ nameEn: "Projector fault", roomTypeIds: [], equipmentTypeIds: [projector.id] }));
    const everywhere = await createIncidentType(ctxOf(admin), input({ nameEn: "Fire alarm", roomTypeIds: [], appliesEverywhere: true }));
    const draft = await createIncidentType(ctxOf(admin), input({ nameEn: "Draft", status: 0, appliesEverywhere: true }));
    const inOffice = (await listReportableIncidentTypes(ctxOf(admin), { roomId: officeRoom.id })).map((t) => t.id);
    expect(inOffice).toEqual(expect.arrayContaining([byRoomType.id, everywhere.id]));
    expect(inOffice).not.toContain(byRoom.id);
    expect(inOffice).not.toContain(byEquipment.id);
    expect(inOffice).not.toContain(draft.id);
    const labTypes = (await listReportableIncidentTypes(ctxOf(admin), { roomId: labRoom.id })).map((t) => t.id);
    expect(labTypes).toEqual(expect.arrayContaining([byRoom.id, everywhere.id]));
    expect(labTypes).not.toContain(byRoomType.id);
    const item = (await listReportableIncidentTypes(ctxOf(admin), { equipmentItemId: projectorItem.id })).map((t) => t.id);
    expect(item).toEqual(expect.arrayContaining([byEquipment.id, everywhere.id]));
    expect(item).not.toContain(byRoomType.id);
    // Another entity's room has none.
    expect(await listReportableIncidentTypes(ctxOf(admin), { roomId: otherRoom.id })).toEqual([]);
  });
});

describe("archiveIncidentType", () => {
  it("removes the type from Pending and In Progress incidents with an event, keeps it on Done and Rejected ones, and hides it", async () => {
    const type = await createIncidentType(ctxOf(manager), input({ nameEn: "Leak to archive", nameFr: "Fuite à archiver" }));
    const make = (status: IncidentStatus) => createIncident(database.db, { entityId: entityA.id, roomId: officeRoom.id, incidentTypeId: type.id, status });
    const pending = await make(IncidentStatus.PENDING);
    const inProgress = await make(IncidentStatus.IN_PROGRESS);
    const done = await make(IncidentStatus.DONE);
    const rejected = await make(IncidentStatus.REJECTED);
    const listed = await listIncidentTypes(ctxOf(manager), listQuery("name", { q: "to archive" }));
    expect(listed.items.map((t) => [t.id, t.openIncidents])).toEqual([[type.id, 2]]);

    const wrong = await rejectionOf<ValidationError>(archiveIncidentType(ctxOf(manager), type.id, { confirmName: "Leak" }));
    expect(wrong.fieldErrors?.confirmName).toEqual(["common:archive.wrongName"]);
    expect(await rejectionOf(archiveIncidentType(ctxOf(technician), type.id))).toBeInstanceOf(ForbiddenError);
    expect(await rejectionOf(archiveIncidentType(ctxOf(otherUser), type.id))).toBeInstanceOf(NotFoundError);

    expect(await archiveIncidentType(ctxOf(manager), type.id, { confirmName: "Fuite à archiver" })).toEqual({ incidentsUpdated: 2 });
    const typeOf = async (id: number) => (await database.db.select({ t: incidents.incidentTypeId }).from(incidents).where(eq(incidents.id, id)))[0].t;
    expect(await typeOf(pending.id)).toBeNull();
    expect(await typeOf(inProgress.id)).toBeNull();
    expect(await typeOf(done.id)).toBe(type.id);
    expect(await typeOf(rejected.id)).toBe(type.id);
    const events = await database.db.select().from(incidentEvents).where(and(eq(incidentEvents.incidentId, pending.id), eq(incidentEvents.type, IncidentEventType.INCIDENT_TYPE_REMOVED)));
    expect(events).toEqual([expect.objectContaining({ actorId: manager.id, oldValue: { id: type.id, name: "Leak to archive" }, newValue: null })]);
    const [row] = await database.db.select().from(incidentTypes).where(eq(incidentTypes.id, type.id));
    expect(row.status).toBe(IncidentTypeStatus.ARCHIVED);
    expect((await listIncidentTypes(ctxOf(manager), listQuery("name", { q: "to archive" }))).items).toEqual([]);
    expect(await rejectionOf(getIncidentType(ctxOf(manager), type.id))).toBeInstanceOf(NotFoundError);
    expect((await listReportableIncidentTypes(ctxOf(admin), { roomId: officeRoom.id })).map((t) => t.id)).not.toContain(type.id);
  });
});

describe("listIncidentTypes", () => {
  it("searches the three names, filters by status, sorts and hides other entities' types", async () => {
    await createIncidentType(ctxOf(admin), input({ nameEn: null, nameNl: "Zonwering stuk", status: 0 }));
    const found = await listIncidentTypes(ctxOf(admin), listQuery("name", { q: "zonwering" }));
    expect(found.items.map((t) => t.name)).toEqual(["Zonwering stuk"]);
    const drafts = await listIncidentTypes(ctxOf(admin), listQuery("name"), { status: 0 });
    expect(drafts.items.every((t) => t.status === 0)).toBe(true);
    const byPriority = await listIncidentTypes(ctxOf(admin), listQuery("priority", { dir: "desc" }));
    const priorities = byPriority.items.map((t) => t.defaultPriority);
    expect(priorities).toEqual([...priorities].sort((a, b) => b - a));
    expect((await listIncidentTypes(ctxOf(otherUser), listQuery("name"))).total).toBe(0);
    expect(await rejectionOf(listIncidentTypes(ctxOf(technician), listQuery("name")))).toBeInstanceOf(ForbiddenError);
  });
});

describe("the incident type choices (kept until a write, decision 019)", () => {
  it("follow creating, renaming and archiving a type, per language and per entity", async () => {
    const names = async (user: User, locale = "en") => (await listIncidentTypeOptions(ctxOf(user, { locale }))).map((t) => t.name);
    const before = await names(manager);
    expect(before).not.toContain("Kept choice");
    const created = await createIncidentType(ctxOf(manager), input({ nameEn: "Kept choice", nameFr: "Choix gardé" }));
    expect(await names(manager)).toContain("Kept choice");
    expect(await names(manager, "fr-BE")).toContain("Choix gardé");
    expect(await names(otherUser)).not.toContain("Kept choice");
    await updateIncidentType(ctxOf(manager), created.id, input({ nameEn: "Kept choice, renamed", nameFr: "Choix gardé" }));
    expect(await names(manager)).toContain("Kept choice, renamed");
    await archiveIncidentType(ctxOf(manager), created.id, { confirmName: "Kept choice, renamed" });
    expect(await names(manager)).toEqual(before);
  });
});
