import { personActor } from "~/core/actor";
import fs from "node:fs";
import path from "node:path";
import { and, asc, eq, inArray, sql } from "drizzle-orm";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "~/db/client.server";
import { IncidentEventType, IncidentStatus, NotificationType, Priority, Role } from "~/db/enums";
import { changeEvents, type Entity, type EquipmentItem, incidentChecklistAnswers, incidentEvents, incidentFiles, incidentReporters, incidents, type IncidentType, notificationDetails, notifications, reportIdentifiers, type Room, storedFiles, type User } from "~/db/schema";
import { NotFoundError } from "~/lib/errors";
import { findCounterDrift } from "~/modules/facilities/counters.server";
import { setIncidentStatus } from "~/modules/incidents/service.server";
import { createBuilding, createEntity, createEquipmentCategory, createEquipmentItem, createEquipmentType, createIncidentType, createRoom, createRoomType, createUser, jpegWithExif, linkUserTo, pngBytes } from "#tests/factories";
import { expectFieldError, rejectionOf } from "#tests/service-helpers";
import { createTestServices, type TestServices } from "#tests/test-context";
import { createTestDatabase } from "#tests/test-db";
import { archiveRoom } from "~/modules/rooms/service.server";
import { getReportPlace } from "./place.server";
import { reportIncident } from "./service.server";
import { getReportStatus } from "./status.server";

let database: Database;
let services: TestServices;
let entity: Entity;
let other: Entity;
let technician: User;
let watcher: User;
let outsider: User;
let room: Room;
let archivedRoom: Room;
let item: EquipmentItem;
let leak: IncidentType;
let broken: IncidentType;
let roomCode: string;
let itemCode: string;
let archivedCode: string;
let otherCode: string;

const report = (code: string, input: Record<string, unknown>, options: { locale?: string; actor?: { id: number; role: number } | null } = {}) =>
  reportIncident(services.ctx(0, null), code, input as never, { locale: options.locale ?? "en", actor: (options.actor as never) ?? null });

/** How many changes of `type` were written so far (committed only). */
const changesOf = async (type: string) => (await database.db.select().from(changeEvents).where(eq(changeEvents.type, type))).length;
const codeOf = async (roomId: number) =>
  (await database.db.select({ code: reportIdentifiers.code }).from(reportIdentifiers).where(eq(reportIdentifiers.roomId, roomId)))[0].code;

beforeAll(async () => {
  database = await createTestDatabase();
  services = await createTestServices(database);
  entity = await createEntity(database.db, { greetingEn: "Welcome!", greetingNl: "Welkom!" });
  other = await createEntity(database.db);
  const building = await createBuilding(database.db, { entityId: entity.id });
  const roomType = await createRoomType(database.db, { entityId: entity.id });
  room = await createRoom(database.db, { entityId: entity.id, buildingId: building.id, roomTypeId: roomType.id, name: "Kitchen", floor: "2" });
  archivedRoom = await createRoom(database.db, { entityId: entity.id, buildingId: building.id, archivedAt: new Date() });
  const category = await createEquipmentCategory(database.db, { entityId: entity.id });
  const coffee = await createEquipmentType(database.db, { entityId: entity.id, categoryId: category.id, name: "Coffee machine" });
  item = await createEquipmentItem(database.db, { entityId: entity.id, roomId: room.id, equipmentTypeId: coffee.id, internalReference: "COF-1" });
  technician = await createUser(database.db, { entityId: entity.id, role: Role.TECHNICIAN, name: "Tom", surname: "Tech" });
  watcher = await createUser(database.db, { entityId: entity.id, role: Role.FACILITY_MANAGER, receiveNotification: true });
  outsider = await createUser(database.db, { entityId: entity.id, role: Role.TECHNICIAN });
  await linkUserTo(database.db, { entityId: entity.id, userId: technician.id, buildingId: building.id });
  await linkUserTo(database.db, { entityId: entity.id, userId: watcher.id, facilityId: building.facilityId });
  leak = await createIncidentType(database.db, {
    entityId: entity.id,
    nameEn: "Water leak",
    nameNl: "Waterlek",
    defaultPriority: Priority.HIGH,
    roomTypeIds: [roomType.id],
    defaultAssigneeIds: [technician.id],
    checklist: [{ question: "Is water on the floor?", contentType: 0 }, { question: "How many taps?", contentType: 2 }],
  });
  broken = await createIncidentType(database.db, { entityId: entity.id, nameEn: "Broken", defaultPriority: Priority.LOW, equipmentTypeIds: [coffee.id], reporterMayChangePriority: true });
  roomCode = await codeOf(room.id);
  itemCode = (await database.db.select({ code: reportIdentifiers.code }).from(reportIdentifiers).where(eq(reportIdentifiers.equipmentItemId, item.id)))[0].code;
  archivedCode = await codeOf(archivedRoom.id);
  const otherBuilding = await createBuilding(database.db, { entityId: other.id });
  const otherRoom = await createRoom(database.db, { entityId: other.id, buildingId: otherBuilding.id });
  otherCode = await codeOf(otherRoom.id);
});

afterAll(async () => {
  await services?.close();
  await database?.close();
});

describe("getReportPlace", () => {
  it("shows where the sticker is and what may be reported there, in the occupier's language", async () => {
    const place = await getReportPlace(database, roomCode, "nl-BE");
    expect(place).toMatchObject({ roomName: "Kitchen", floor: "2", equipmentItem: null, entity: { greeting: "Welkom!" } });
    expect(place.incidentTypes.map((t) => t.name)).toEqual(["Waterlek"]);
    expect(place.incidentTypes[0].checklist.map((c) => c.question)).toEqual(["Is water on the floor?", "How many taps?"]);
    const onItem = await getReportPlace(database, itemCode, "en");
    expect(onItem.equipmentItem).toMatchObject({ name: "Coffee machine", internalReference: "COF-1" });
    expect(onItem.incidentTypes.map((t) => t.name)).toEqual(["Broken"]);
  });

  it("answers not found for unknown, malformed and archived identifiers", async () => {
    for (const code of ["unknown-code", "x", "a'; drop table", archivedCode]) {
      expect(await rejectionOf(getReportPlace(database, code, "en"))).toBeInstanceOf(NotFoundError);
    }
  });
});

describe("reportIncident", () => {
  it("creates an incident with the type's priority and assignee, its events, answers, photo and notifications", async () => {
    const result = await report(roomCode, {
      incidentTypeId: String(leak.id),
      description: "Water under the sink",
      email: "Occupier@Example.test",
      priority: "0", // the type does not let reporters choose: ignored
      answers: { "0": "yes", "1": "3" },
      photos: [{ bytes: pngBytes(8, 8), name: "sink.png" }],
    }, { locale: "fr-BE" });
    expect(result.outcome).toBe("created");
    const [incident] = await database.db.select().from(incidents).where(eq(incidents.id, result.incidentId));
    expect(incident).toMatchObject({ title: "Water leak", priority: Priority.HIGH, assigneeId: technician.id, roomId: room.id, floor: "2", status: IncidentStatus.PENDING });
    const events = await database.db.select().from(incidentEvents).where(eq(incidentEvents.incidentId, incident.id)).orderBy(asc(incidentEvents.id));
    expect(events.map((e) => e.type)).toEqual([IncidentEventType.CREATED, IncidentEventType.ASSIGNED]);
    const answers = await database.db.select().from(incidentChecklistAnswers).where(eq(incidentChecklistAnswers.incidentId, incident.id));
    expect(answers.map((a) => [a.question, a.answer])).toEqual([
      ["Is water on the floor?", "yes"],
      ["How many taps?", "3"],
    ]);
    expect(await database.db.select().from(incidentFiles).where(eq(incidentFiles.incidentId, incident.id))).toHaveLength(1);
    const [reporter] = await database.db.select().from(incidentReporters).where(eq(incidentReporters.incidentId, incident.id));
    expect(reporter).toMatchObject({ email: "occupier@example.test", locale: "fr-BE" });
    const mails = await services.mails();
    expect(mails.at(-1)).toMatchObject({ to: "occupier@example.test" });
    expect(mails.at(-1)!.text).toContain(`/report/status/${result.statusToken}`);
    expect(mails.at(-1)!.subject).toContain(`${incident.shortId}`);
    await services.queue.drain(); // the notify job written with the report
    const [details] = await database.db.select().from(notificationDetails).where(eq(notificationDetails.incidentId, incident.id));
    expect(details.type).toBe(NotificationType.INCIDENT_CREATED);
    const recipients = await database.db.select({ userId: notifications.userId }).from(notifications).where(eq(notifications.detailsId, details.id));
    expect(recipients.map((r) => r.userId).sort()).toEqual([technician.id, watcher.id].sort());
    expect(services.events.published.some((e) => e.type === "notification.created")).toBe(true);
    expect(await findCounterDrift(database.db, entity.id)).toEqual([]);
  });

  it("folds a report of the same type at the same place into the open incident, never into a closed one", async () => {
    const first = await report(roomCode, { incidentTypeId: leak.id, description: "Leak again" });
    const again = await report(roomCode, { incidentTypeId: leak.id, description: "Still leaking", email: "second@example.test" });
    expect(again).toMatchObject({ outcome: "folded", incidentId: first.incidentId });
    const [incident] = await database.db.select().from(incidents).where(eq(incidents.id, first.incidentId));
    expect(incident.occurrences).toBeGreaterThanOrEqual(2);
    const folded = await database.db.select().from(incidentEvents).where(and(eq(incidentEvents.incidentId, incident.id), eq(incidentEvents.type, IncidentEventType.REPORTED_AGAIN)));
    expect(folded.at(-1)!.newValue).toMatchObject({ occurrences: incident.occurrences, description: "Still leaking" });

    // Done: the next report makes a new incident, and the reporters hear it is done.
    await services.queue.drain();
    await services.clearJobs();
    await setIncidentStatus(services.ctx(entity.id, { id: technician.id, role: technician.role }), incident.id, { status: IncidentStatus.DONE });
    await services.queue.drain();
    const closedMails = (await services.mails()).filter((m) => m.to.endsWith("@example.test"));
    expect(closedMails.map((m) => m.to).sort()).toEqual(["occupier@example.test", "second@example.test"]);
    expect(closedMails.find((m) => m.to === "occupier@example.test")!.subject).toContain("Terminé");
    const fresh = await report(roomCode, { incidentTypeId: leak.id, description: "New leak" });
    expect(fresh.outcome).toBe("created");
    expect(fresh.incidentId).not.toBe(incident.id);
  });

  it("folds 20 reports at once into one incident with the exact count", async () => {
    const first = await report(itemCode, { incidentTypeId: broken.id, description: "No coffee" });
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => report(itemCode, { incidentTypeId: broken.id, description: `No coffee ${i}` })));
    expect(new Set(results.map((r) => r.incidentId))).toEqual(new Set([first.incidentId]));
    const [incident] = await database.db.select().from(incidents).where(eq(incidents.id, first.incidentId));
    expect(incident.occurrences).toBe(21);
    expect(incident.equipmentItemId).toBe(item.id);
  });

  it("keeps every reporter's photos on the incident, upright, scaled down and without EXIF or GPS", async () => {
    await database.db.execute(sql`update incidents set status = 2 where room_id = ${room.id}`);
    const photo = await jpegWithExif(2600, 1200, 6);
    const first = await report(roomCode, { incidentTypeId: leak.id, description: "Puddle", photos: [{ bytes: photo, name: "IMG_1.jpg" }] });
    const again = await report(roomCode, { incidentTypeId: leak.id, description: "Bigger puddle", photos: [{ bytes: pngBytes(8, 8), name: "b.png" }, { bytes: photo, name: "IMG_2.jpg" }] });
    expect(again).toMatchObject({ outcome: "folded", incidentId: first.incidentId });
    const links = await database.db.select({ fileId: incidentFiles.fileId }).from(incidentFiles).where(eq(incidentFiles.incidentId, first.incidentId));
    expect(links).toHaveLength(3);
    const files = await database.db.select().from(storedFiles).where(inArray(storedFiles.id, links.map((l) => l.fileId)));
    expect(files.map((f) => f.originalName).sort()).toEqual(["IMG_1.jpg", "IMG_2.jpg", "b.png"]);
    for (const file of files.filter((f) => f.mimeType === "image/jpeg")) {
      const bytes = fs.readFileSync(path.join(services.files.root, file.storageKey));
      expect(file.sizeBytes).toBe(bytes.byteLength);
      const meta = await sharp(bytes).metadata();
      // Stored 2600 x 1200 with "turn 90°": upright 1200 x 2600, within 2048 px.
      expect(meta).toMatchObject({ width: 945, height: 2048 });
      expect(meta.exif).toBeUndefined();
      expect(bytes.includes("PhoneMaker")).toBe(false);
    }
  });

  it("never folds into a Done or Rejected incident", async () => {
    await database.db.execute(sql`update incidents set status = 2 where room_id = ${room.id}`);
    const rejected = await report(roomCode, { incidentTypeId: leak.id, description: "Dripping" });
    await setIncidentStatus(services.ctx(entity.id, { id: technician.id, role: technician.role }), rejected.incidentId, { status: IncidentStatus.REJECTED });
    const next = await report(roomCode, { incidentTypeId: leak.id, description: "Dripping again" });
    expect(next.outcome).toBe("created");
    const [closed] = await database.db.select().from(incidents).where(eq(incidents.id, rejected.incidentId));
    expect(closed).toMatchObject({ status: IncidentStatus.REJECTED, occurrences: 1 });
  });

  it("queues the notification with the incident, written and published after commit (nothing when it rolls back)", async () => {
    await database.db.execute(sql`update incidents set status = 2 where room_id = ${room.id}`);
    await services.queue.drain();
    const count = async () => (await database.db.select({ n: sql<number>`count(*)::int` }).from(notificationDetails))[0].n;
    const before = await count();
    const changesBefore = await changesOf("incident.created");
    const published = services.events.published.length;
    // The photo cannot be stored (the file store's folder is a file): the transaction rolls back with its job.
    const blocked = path.join(services.files.root, "not-a-folder");
    fs.writeFileSync(blocked, "x");
    const failing = reportIncident(
      { ...services.ctx(0, null), files: { root: blocked, maxBytes: services.files.maxBytes } },
      roomCode,
      { incidentTypeId: leak.id, description: "Flooded", email: "rolled@example.test", photos: [{ bytes: pngBytes(4, 4), name: "f.png" }] } as never,
      { locale: "en", actor: null },
    );
    await expectFieldError(failing, "photos", "errors.file.uploadFailed");
    expect(await changesOf("incident.created")).toBe(changesBefore);
    await services.queue.drain();
    expect(await count()).toBe(before);
    expect(services.events.published.slice(published).filter((e) => e.type === "notification.created")).toEqual([]);
    expect(await database.db.select().from(incidentReporters).where(eq(incidentReporters.email, "rolled@example.test"))).toEqual([]);

    const done = await report(roomCode, { incidentTypeId: leak.id, description: "Flooded" });
    expect(await changesOf("incident.created")).toBe(changesBefore + 1);
    await services.queue.drain();
    expect(await count()).toBe(before + 1);
    const [details] = await database.db.select().from(notificationDetails).where(eq(notificationDetails.incidentId, done.incidentId));
    expect(details.type).toBe(NotificationType.INCIDENT_CREATED);
    expect(services.events.published.slice(published).filter((e) => e.type === "notification.created")).toHaveLength(1);
  });

  it("lets the reporter choose the priority only when the type allows it", async () => {
    await database.db.execute(sql`update incidents set status = 2 where equipment_item_id = ${item.id}`);
    const chosen = await report(itemCode, { incidentTypeId: broken.id, description: "Smoke", priority: "3" });
    const [incident] = await database.db.select().from(incidents).where(eq(incidents.id, chosen.incidentId));
    expect(incident.priority).toBe(Priority.CRITICAL);
  });

  it("refuses bad input with field errors and keeps nothing", async () => {
    const before = await database.db.select({ n: sql<number>`count(*)::int` }).from(incidents);
    await expectFieldError(report(roomCode, { incidentTypeId: "", description: "x" }), "incidentTypeId", "report:validation.typeRequired");
    await expectFieldError(report(roomCode, { incidentTypeId: broken.id, description: "x" }), "incidentTypeId", "report:validation.typeNotHere");
    await expectFieldError(report(roomCode, { incidentTypeId: leak.id, description: "  " }), "description", "report:validation.descriptionRequired");
    await expectFieldError(report(roomCode, { incidentTypeId: leak.id, description: "x", email: "not-an-email" }), "email", "report:validation.email");
    await expectFieldError(report(roomCode, { incidentTypeId: leak.id, description: "x", answers: { "0": "maybe" } }), "answers.0", "report:validation.yesNo");
    await expectFieldError(report(roomCode, { incidentTypeId: leak.id, description: "x", answers: { "1": "many" } }), "answers.1", "report:validation.number");
    await expectFieldError(report(roomCode, { incidentTypeId: leak.id, description: "x", photos: [{ bytes: new Uint8Array([1, 2, 3, 4]), name: "a.png" }] }), "photos", "settings:files.imageFormat");
    await expectFieldError(report(roomCode, { incidentTypeId: leak.id, description: "a\u0000b" }), "description", "common:validation.controlCharacters");
    const after = await database.db.select({ n: sql<number>`count(*)::int` }).from(incidents);
    expect(after[0].n).toBe(before[0].n);
  });

  it("answers not found for unknown, archived and (for staff) unreachable places", async () => {
    for (const code of ["nope-nope", archivedCode]) {
      expect(await rejectionOf(report(code, { incidentTypeId: leak.id, description: "x" }))).toBeInstanceOf(NotFoundError);
    }
    expect(await rejectionOf(report(roomCode, { incidentTypeId: leak.id, description: "x" }, { actor: personActor(outsider) }))).toBeInstanceOf(NotFoundError);
    // Another entity's sticker reports into that entity only: the first entity's type does not apply there.
    await expectFieldError(report(otherCode, { incidentTypeId: leak.id, description: "x" }), "incidentTypeId", "report:validation.typeNotHere");
  });

  it("stops taking reports at a sticker as soon as its room is archived (nothing kept of it survives the write)", async () => {
    const building = await createBuilding(database.db, { entityId: entity.id });
    const roomType = await createRoomType(database.db, { entityId: entity.id });
    const doomed = await createRoom(database.db, { entityId: entity.id, buildingId: building.id, roomTypeId: roomType.id, name: "Doomed room" });
    const type = await createIncidentType(database.db, { entityId: entity.id, nameEn: "Draught", defaultPriority: Priority.LOW, roomTypeIds: [roomType.id] });
    const code = await codeOf(doomed.id);
    expect((await report(code, { incidentTypeId: type.id, description: "Cold" })).outcome).toBe("created");
    expect((await report(code, { incidentTypeId: type.id, description: "Still cold" })).outcome).toBe("folded");
    const manager = await createUser(database.db, { entityId: entity.id, role: Role.ADMINISTRATOR });
    await archiveRoom(services.ctx(entity.id, { id: manager.id, role: manager.role }), doomed.id, { confirmName: doomed.name });
    expect(await rejectionOf(report(code, { incidentTypeId: type.id, description: "Gone?" }))).toBeInstanceOf(NotFoundError);
  });

  it("lets staff report from the room view, as themselves", async () => {
    await database.db.execute(sql`update incidents set status = 2 where room_id = ${room.id}`);
    const result = await report(roomCode, { incidentTypeId: leak.id, description: "Seen on my round" }, { actor: personActor(technician) });
    const [created] = await database.db.select().from(incidentEvents).where(and(eq(incidentEvents.incidentId, result.incidentId), eq(incidentEvents.type, IncidentEventType.CREATED)));
    expect(created.actorId).toBe(technician.id);
  });
});

describe("getReportStatus", () => {
  it("shows the reporter their report's status and public history only", async () => {
    await database.db.execute(sql`update incidents set status = 2 where room_id = ${room.id}`);
    const result = await report(roomCode, { incidentTypeId: leak.id, description: "Drip", email: "status@example.test" });
    await setIncidentStatus(services.ctx(entity.id, { id: technician.id, role: technician.role }), result.incidentId, { status: IncidentStatus.IN_PROGRESS });
    const status = await getReportStatus(database.db, result.statusToken!);
    expect(status).toMatchObject({ shortId: result.shortId, status: IncidentStatus.IN_PROGRESS, place: { room: "Kitchen" } });
    expect(status.history.map((h) => h.type)).toEqual([IncidentEventType.CREATED, IncidentEventType.STATUS_UPDATE]);
    expect(JSON.stringify(status)).not.toContain("Tom");
    expect(JSON.stringify(status)).not.toContain("@");
    expect(await rejectionOf(getReportStatus(database.db, "x".repeat(32)))).toBeInstanceOf(NotFoundError);
    expect(await rejectionOf(getReportStatus(database.db, "../../etc"))).toBeInstanceOf(NotFoundError);
  });
});
