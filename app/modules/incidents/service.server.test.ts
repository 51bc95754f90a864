import fs from "node:fs";
import path from "node:path";
import { and, asc, eq, inArray, isNull, sql } from "drizzle-orm";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "~/db/client.server";
import { IncidentEventType, IncidentStatus, Priority, Role, UserStatus } from "~/db/enums";
import { type Building, type Entity, type Incident, incidentCommentFiles, incidentComments, incidentEvents, incidentFiles, incidentReporters, incidents, type Room, storedFiles, type User } from "~/db/schema";
import { ForbiddenError, NotFoundError } from "~/lib/errors";
import { TAG_EMPTY, TAG_TOO_LONG, TAG_TOO_MANY } from "~/lib/schema-helpers";
import { findCounterDrift } from "~/modules/facilities/counters.server";
import { archiveFacility } from "~/modules/facilities/service.server";
import { claimedPngBytes, createBuilding, createEntity, createIncident, createRoom, createUser, jpegWithExif, linkUserTo, pngBytes } from "#tests/factories";
import { expectFieldError, rejectionOf } from "#tests/service-helpers";
import { createTestServices, type TestServices } from "#tests/test-context";
import { createTestDatabase } from "#tests/test-db";
import { addIncidentFiles, addIncidentTag, assignIncident, bulkChangeIncidents, deleteIncidentComment, markIncidentDuplicate, postIncidentComment, removeIncidentFile, removeIncidentTag, setIncidentPriority, setIncidentStatus, updateIncidentComment, updateIncidentDescription, updateIncidentTitle } from "./service.server";

let database: Database;
let services: TestServices;
let entityA: Entity;
let entityB: Entity;
let admin: User;
let manager: User;
let technician: User;
let farTechnician: User;
let disabled: User;
let otherManager: User;
let building: Building;
let farBuilding: Building;
let room: Room;
let farRoom: Room;
let otherRoom: Room;

const ctxOf = (user: User) => services.ctx(user.entityId, { id: user.id, role: user.role });
const incidentIn = (r: Room, extra: Partial<Parameters<typeof createIncident>[1]> = {}) =>
  createIncident(database.db, { entityId: r.entityId, roomId: r.id, ...extra });
const eventsOf = (incidentId: number) =>
  database.db.select().from(incidentEvents).where(eq(incidentEvents.incidentId, incidentId)).orderBy(asc(incidentEvents.id));
const reload = async (id: number): Promise<Incident> => (await database.db.select().from(incidents).where(eq(incidents.id, id)))[0];

/** The per-status counters kept by the trigger, compared with a recount (decision 025). */
async function statusCountDrift(): Promise<unknown[]> {
  const result = await database.db.execute(sql`
    select coalesce(c.entity_id, r.entity_id) as entity_id, coalesce(c.status, r.status) as status, c.count as kept, r.n as real
    from incident_status_counts c
    full join (select entity_id, status, count(*)::int as n from incidents where archived_at is null group by 1, 2) r
      on r.entity_id = c.entity_id and r.status = c.status
    where coalesce(c.count, 0) <> coalesce(r.n, 0)`);
  return (result as unknown as { rows: unknown[] }).rows;
}

beforeAll(async () => {
  database = await createTestDatabase();
  services = await createTestServices(database);
  entityA = await createEntity(database.db);
  entityB = await createEntity(database.db);
  admin = await createUser(database.db, { entityId: entityA.id, role: Role.ADMINISTRATOR, name: "Ada", surname: "Admin" });
  manager = await createUser(database.db, { entityId: entityA.id, role: Role.FACILITY_MANAGER, name: "Mia", surname: "Manager" });
  technician = await createUser(database.db, { entityId: entityA.id, role: Role.TECHNICIAN, name: "Tom", surname: "Tech" });
  farTechnician = await createUser(database.db, { entityId: entityA.id, role: Role.TECHNICIAN, name: "Fay", surname: "Far" });
  disabled = await createUser(database.db, { entityId: entityA.id, role: Role.TECHNICIAN, status: UserStatus.DISABLED });
  otherManager = await createUser(database.db, { entityId: entityB.id, role: Role.FACILITY_MANAGER });
  building = await createBuilding(database.db, { entityId: entityA.id });
  farBuilding = await createBuilding(database.db, { entityId: entityA.id });
  room = await createRoom(database.db, { entityId: entityA.id, buildingId: building.id });
  farRoom = await createRoom(database.db, { entityId: entityA.id, buildingId: farBuilding.id });
  otherRoom = await createRoom(database.db, { entityId: entityB.id, buildingId: (await createBuilding(database.db, { entityId: entityB.id })).id });
  await linkUserTo(database.db, { entityId: entityA.id, userId: manager.id, facilityId: building.facilityId });
  await linkUserTo(database.db, { entityId: entityA.id, userId: technician.id, buildingId: building.id });
  await linkUserTo(database.db, { entityId: entityA.id, userId: farTechnician.id, buildingId: farBuilding.id });
  await linkUserTo(database.db, { entityId: entityA.id, userId: disabled.id, buildingId: building.id });
});

afterAll(async () => {
  await services?.close();
  await database?.close();
});

describe("setIncidentStatus", () => {
  it("moves the incident, writes event 2, sets the done time and keeps the counters", async () => {
    const incident = await incidentIn(room);
    const result = await setIncidentStatus(ctxOf(technician), incident.id, { status: "2" });
    expect(result.status).toBe(IncidentStatus.DONE);
    const row = await reload(incident.id);
    expect(row.doneAt).toBeInstanceOf(Date);
    const events = await eventsOf(incident.id);
    expect(events.at(-1)).toMatchObject({ type: IncidentEventType.STATUS_UPDATE, actorId: technician.id, oldValue: 0, newValue: 2 });
    expect(await findCounterDrift(database.db, entityA.id)).toEqual([]);
    expect(await statusCountDrift()).toEqual([]);
    // Reopening clears the done time.
    await setIncidentStatus(ctxOf(technician), incident.id, { status: IncidentStatus.IN_PROGRESS });
    expect((await reload(incident.id)).doneAt).toBeNull();
    expect(await findCounterDrift(database.db, entityA.id)).toEqual([]);
  });

  it("records nothing when the status does not change", async () => {
    const incident = await incidentIn(room);
    await setIncidentStatus(ctxOf(admin), incident.id, { status: 0 });
    expect(await eventsOf(incident.id)).toHaveLength(1); // CREATED only
  });

  it("refuses an unknown status with a field error", async () => {
    const incident = await incidentIn(room);
    await expectFieldError(setIncidentStatus(ctxOf(admin), incident.id, { status: 7 }), "status", "incidents:validation.status");
    await expectFieldError(setIncidentStatus(ctxOf(admin), incident.id, { status: "x" }), "status", "incidents:validation.status");
    expect((await reload(incident.id)).status).toBe(IncidentStatus.PENDING);
  });

  it("answers not found for another entity's incident, one outside reach, and impossible ids", async () => {
    const foreign = await incidentIn(otherRoom);
    const far = await incidentIn(farRoom);
    expect(await rejectionOf(setIncidentStatus(ctxOf(admin), foreign.id, { status: 1 }))).toBeInstanceOf(NotFoundError);
    expect(await rejectionOf(setIncidentStatus(ctxOf(technician), far.id, { status: 1 }))).toBeInstanceOf(NotFoundError);
    expect(await rejectionOf(setIncidentStatus(ctxOf(manager), far.id, { status: 1 }))).toBeInstanceOf(NotFoundError);
    expect(await rejectionOf(setIncidentStatus(ctxOf(admin), 2 ** 31, { status: 1 }))).toBeInstanceOf(NotFoundError);
    expect(await rejectionOf(setIncidentStatus(ctxOf(admin), -1, { status: 1 }))).toBeInstanceOf(NotFoundError);
    expect((await reload(foreign.id)).status).toBe(IncidentStatus.PENDING);
    expect((await reload(far.id)).status).toBe(IncidentStatus.PENDING);
  });

  it("lets a technician handle an incident assigned to them outside their buildings", async () => {
    const far = await incidentIn(farRoom, { assigneeId: technician.id });
    await setIncidentStatus(ctxOf(technician), far.id, { status: 1 });
    expect((await reload(far.id)).status).toBe(IncidentStatus.IN_PROGRESS);
  });

  it("refuses the system context without an actor", async () => {
    const incident = await incidentIn(room);
    expect(await rejectionOf(setIncidentStatus(services.ctx(entityA.id, null), incident.id, { status: 1 }))).toBeInstanceOf(ForbiddenError);
  });
});

describe("setIncidentPriority", () => {
  it("sets a priority or Not Selected, with event 3", async () => {
    const incident = await incidentIn(room, { priority: Priority.LOW });
    await setIncidentPriority(ctxOf(manager), incident.id, { priority: "3" });
    await setIncidentPriority(ctxOf(manager), incident.id, { priority: "none" });
    expect((await reload(incident.id)).priority).toBeNull();
    const events = (await eventsOf(incident.id)).filter((e) => e.type === IncidentEventType.PRIORITY_UPDATE);
    expect(events.map((e) => [e.oldValue, e.newValue])).toEqual([
      [0, 3],
      [3, null],
    ]);
  });

  it("refuses a priority outside 0-3", async () => {
    const incident = await incidentIn(room);
    await expectFieldError(setIncidentPriority(ctxOf(admin), incident.id, { priority: 4 }), "priority", "incidents:validation.priority");
  });
});

describe("assignIncident", () => {
  it("assigns a user who reaches the location and records both names (event 1)", async () => {
    const incident = await incidentIn(room);
    await assignIncident(ctxOf(manager), incident.id, { assigneeId: String(technician.id) });
    await assignIncident(ctxOf(manager), incident.id, { assigneeId: admin.id });
    await assignIncident(ctxOf(manager), incident.id, { assigneeId: "none" });
    const events = (await eventsOf(incident.id)).filter((e) => e.type === IncidentEventType.ASSIGNED);
    expect(events.map((e) => [e.oldValue, e.newValue])).toEqual([
      [null, { id: technician.id, name: "Tom Tech" }],
      [{ id: technician.id, name: "Tom Tech" }, { id: admin.id, name: "Ada Admin" }],
      [{ id: admin.id, name: "Ada Admin" }, null],
    ]);
    expect((await reload(incident.id)).assigneeId).toBeNull();
  });

  it("refuses users who cannot reach the location, disabled users and other entities' users", async () => {
    const incident = await incidentIn(room);
    for (const user of [farTechnician, disabled, otherManager]) {
      await expectFieldError(assignIncident(ctxOf(manager), incident.id, { assigneeId: user.id }), "assigneeId", "incidents:validation.assigneeOutOfReach");
    }
    await expectFieldError(assignIncident(ctxOf(manager), incident.id, { assigneeId: 2 ** 31 }), "assigneeId", "incidents:validation.assignee");
    expect((await reload(incident.id)).assigneeId).toBeNull();
    expect(await eventsOf(incident.id)).toHaveLength(1);
  });
});

describe("tags", () => {
  it("adds up to three tags, refuses the three rules, and removes one (events 5 and 6)", async () => {
    const incident = await incidentIn(room);
    const ctx = ctxOf(technician);
    for (const tag of ["urgent", "water", "floor 2"]) await addIncidentTag(ctx, incident.id, { tag });
    await addIncidentTag(ctx, incident.id, { tag: "URGENT" }); // already there: nothing
    await expectFieldError(addIncidentTag(ctx, incident.id, { tag: "fourth" }), "tag", TAG_TOO_MANY);
    await expectFieldError(addIncidentTag(ctx, incident.id, { tag: "  " }), "tag", TAG_EMPTY);
    await expectFieldError(addIncidentTag(ctx, incident.id, { tag: "x".repeat(21) }), "tag", TAG_TOO_LONG);
    await removeIncidentTag(ctx, incident.id, { tag: "Water" });
    await removeIncidentTag(ctx, incident.id, { tag: "absent" });
    expect((await reload(incident.id)).tags).toEqual(["urgent", "floor 2"]);
    const events = (await eventsOf(incident.id)).filter((e) => e.type === IncidentEventType.ADD_TAG || e.type === IncidentEventType.DELETE_TAG);
    expect(events.map((e) => [e.type, e.oldValue, e.newValue])).toEqual([
      [5, null, "urgent"],
      [5, null, "water"],
      [5, null, "floor 2"],
      [6, "water", null],
    ]);
  });
});

describe("title and description", () => {
  it("changes them with events 7 and 8, and requires a title", async () => {
    const incident = await incidentIn(room, { title: "Leak", description: "Under the sink" });
    await updateIncidentTitle(ctxOf(admin), incident.id, { title: "  Water leak  " });
    await updateIncidentDescription(ctxOf(admin), incident.id, { description: "" });
    await expectFieldError(updateIncidentTitle(ctxOf(admin), incident.id, { title: " " }), "title", "incidents:validation.titleRequired");
    await expectFieldError(updateIncidentTitle(ctxOf(admin), incident.id, { title: "a\u0000b" }), "title", "common:validation.controlCharacters");
    const row = await reload(incident.id);
    expect([row.title, row.description]).toEqual(["Water leak", null]);
    const events = (await eventsOf(incident.id)).slice(1);
    expect(events.map((e) => [e.type, e.oldValue, e.newValue])).toEqual([
      [7, "Leak", "Water leak"],
      [8, "Under the sink", null],
    ]);
  });
});

describe("markIncidentDuplicate", () => {
  it("folds occurrences and reporters into the kept incident and closes the duplicate (event 4)", async () => {
    const kept = await incidentIn(room, { occurrences: 2, reporterEmails: ["a@x.test", "b@x.test"] });
    const later = new Date(Date.now() + 60_000);
    const dupe = await incidentIn(room, { occurrences: 3, lastOccurrenceAt: later, reporterEmails: ["B@x.test", "c@x.test"] });
    await markIncidentDuplicate(ctxOf(technician), dupe.id, { duplicateOf: `#${kept.shortId}` });
    const [k, d] = [await reload(kept.id), await reload(dupe.id)];
    expect(k.occurrences).toBe(5);
    expect(k.lastOccurrenceAt.getTime()).toBe(later.getTime());
    expect(d).toMatchObject({ duplicateOfId: kept.id, status: IncidentStatus.REJECTED });
    const reporters = await database.db.select({ email: incidentReporters.email }).from(incidentReporters).where(eq(incidentReporters.incidentId, kept.id));
    expect(reporters.map((r) => r.email.toLowerCase()).sort()).toEqual(["a@x.test", "b@x.test", "c@x.test"]);
    expect((await eventsOf(dupe.id)).slice(1).map((e) => [e.type, e.newValue])).toEqual([
      [4, { id: kept.id, shortId: kept.shortId }],
      [2, 3],
    ]);
    expect((await eventsOf(kept.id)).at(-1)).toMatchObject({ type: 4, newValue: { id: dupe.id, shortId: dupe.shortId, occurrences: 3 } });
    expect(await findCounterDrift(database.db, entityA.id)).toEqual([]);
    expect(await statusCountDrift()).toEqual([]);
    // Neither can be folded again the wrong way.
    await expectFieldError(markIncidentDuplicate(ctxOf(admin), dupe.id, { duplicateOf: kept.shortId }), "duplicateOf", "incidents:validation.alreadyDuplicate");
    const third = await incidentIn(room);
    await expectFieldError(markIncidentDuplicate(ctxOf(admin), third.id, { duplicateOf: dupe.shortId }), "duplicateOf", "incidents:validation.duplicateIsDuplicate");
  });

  it("refuses itself, unknown numbers, and incidents of another entity or outside reach", async () => {
    const incident = await incidentIn(room);
    const foreign = await incidentIn(otherRoom);
    const far = await incidentIn(farRoom);
    await expectFieldError(markIncidentDuplicate(ctxOf(admin), incident.id, { duplicateOf: incident.shortId }), "duplicateOf", "incidents:validation.duplicateSelf");
    await expectFieldError(markIncidentDuplicate(ctxOf(admin), incident.id, { duplicateOf: 999_999 }), "duplicateOf", "incidents:validation.duplicateNotFound");
    await expectFieldError(markIncidentDuplicate(ctxOf(technician), incident.id, { duplicateOf: far.shortId }), "duplicateOf", "incidents:validation.duplicateNotFound");
    await expectFieldError(markIncidentDuplicate(ctxOf(admin), incident.id, { duplicateOf: "abc" }), "duplicateOf", "incidents:validation.duplicateRequired");
    // Another entity's short id is looked up in the actor's own entity only.
    if (foreign.shortId !== incident.shortId) {
      const own = await database.db.select().from(incidents).where(and(eq(incidents.entityId, entityA.id), eq(incidents.shortId, foreign.shortId)));
      if (own.length === 0) await expectFieldError(markIncidentDuplicate(ctxOf(admin), incident.id, { duplicateOf: foreign.shortId }), "duplicateOf", "incidents:validation.duplicateNotFound");
    }
    expect(await rejectionOf(markIncidentDuplicate(ctxOf(otherManager), incident.id, { duplicateOf: foreign.shortId }))).toBeInstanceOf(NotFoundError);
    expect((await reload(incident.id)).duplicateOfId).toBeNull();
  });
});

describe("bulkChangeIncidents", () => {
  it("changes every selected incident, each with its own event", async () => {
    const a = await incidentIn(room);
    const b = await incidentIn(room, { status: IncidentStatus.IN_PROGRESS });
    const result = await bulkChangeIncidents(ctxOf(manager), { ids: [a.id, b.id], change: "status", status: "2" });
    expect(result.changed).toBe(2);
    expect((await reload(a.id)).status).toBe(IncidentStatus.DONE);
    expect((await reload(b.id)).status).toBe(IncidentStatus.DONE);
    expect((await eventsOf(b.id)).at(-1)).toMatchObject({ type: 2, oldValue: 1, newValue: 2 });
    await bulkChangeIncidents(ctxOf(manager), { ids: [a.id, b.id], change: "assignee", assigneeId: technician.id });
    expect((await reload(a.id)).assigneeId).toBe(technician.id);
    expect(await findCounterDrift(database.db, entityA.id)).toEqual([]);
  });

  it("is all or nothing: one incident out of reach, of another entity or refusing the change changes none", async () => {
    const a = await incidentIn(room);
    const far = await incidentIn(farRoom);
    const foreign = await incidentIn(otherRoom);
    expect(await rejectionOf(bulkChangeIncidents(ctxOf(technician), { ids: [a.id, far.id], change: "status", status: 1 }))).toBeInstanceOf(NotFoundError);
    expect(await rejectionOf(bulkChangeIncidents(ctxOf(admin), { ids: [a.id, foreign.id], change: "priority", priority: 3 }))).toBeInstanceOf(NotFoundError);
    // farTechnician reaches `far` only: assigning both to them fails on `a`.
    await expectFieldError(bulkChangeIncidents(ctxOf(admin), { ids: [far.id, a.id], change: "assignee", assigneeId: farTechnician.id }), "assigneeId", "incidents:validation.assigneeOutOfReach");
    for (const id of [a.id, far.id, foreign.id]) {
      const row = await reload(id);
      expect([row.status, row.priority, row.assigneeId]).toEqual([IncidentStatus.PENDING, Priority.MEDIUM, null]);
      expect(await eventsOf(id)).toHaveLength(1);
    }
  });

  it("refuses an empty selection, too many ids and a bad value", async () => {
    await expectFieldError(bulkChangeIncidents(ctxOf(admin), { ids: [], change: "status", status: 1 }), "ids", "incidents:validation.selectSome");
    await expectFieldError(
      bulkChangeIncidents(ctxOf(admin), { ids: Array.from({ length: 101 }, (_, i) => i + 1), change: "status", status: 1 }),
      "ids",
      "common:validation.invalid",
    );
    const a = await incidentIn(room);
    await expectFieldError(bulkChangeIncidents(ctxOf(admin), { ids: [a.id], change: "status", status: 9 }), "status", "incidents:validation.status");
  });
});

describe("comments", () => {
  it("posts with attachments, edits with the edited information, and deletes one's own comment", async () => {
    const incident = await incidentIn(room);
    const ctx = ctxOf(technician);
    const { id } = await postIncidentComment(ctx, incident.id, { body: " Replaced the seal. ", files: [{ bytes: pngBytes(4, 4), name: "seal.png" }] });
    const [comment] = await database.db.select().from(incidentComments).where(eq(incidentComments.id, id));
    expect(comment).toMatchObject({ body: "Replaced the seal.", authorId: technician.id, editedAt: null });
    const attached = await database.db.select().from(incidentCommentFiles).where(eq(incidentCommentFiles.commentId, id));
    expect(attached).toHaveLength(1);

    await updateIncidentComment(ctx, incident.id, id, { body: "Replaced the seal and tested." });
    const [edited] = await database.db.select().from(incidentComments).where(eq(incidentComments.id, id));
    expect(edited.body).toBe("Replaced the seal and tested.");
    expect(edited.editedAt).toBeInstanceOf(Date);
    expect(edited.editedById).toBe(technician.id);

    // Someone else may neither edit nor delete it.
    expect(await rejectionOf(updateIncidentComment(ctxOf(admin), incident.id, id, { body: "No" }))).toBeInstanceOf(ForbiddenError);
    expect(await rejectionOf(deleteIncidentComment(ctxOf(admin), incident.id, id))).toBeInstanceOf(ForbiddenError);

    await deleteIncidentComment(ctx, incident.id, id);
    const [deleted] = await database.db.select().from(incidentComments).where(eq(incidentComments.id, id));
    expect(deleted.deletedAt).toBeInstanceOf(Date);
    const [file] = await database.db.select().from(storedFiles).where(eq(storedFiles.id, attached[0].fileId));
    expect(file.deletedAt).toBeInstanceOf(Date);
    expect(await rejectionOf(updateIncidentComment(ctx, incident.id, id, { body: "again" }))).toBeInstanceOf(NotFoundError);
  });

  it("requires text, refuses a bad attachment and changes nothing", async () => {
    const incident = await incidentIn(room);
    await expectFieldError(postIncidentComment(ctxOf(admin), incident.id, { body: "   " }), "body", "incidents:validation.commentRequired");
    await expectFieldError(
      postIncidentComment(ctxOf(admin), incident.id, { body: "See file", files: [{ bytes: new Uint8Array([0x4d, 0x5a, 0, 1, 2, 3]), name: "virus.exe" }] }),
      "files",
      "errors.file.wrongFormat",
    );
    const rows = await database.db.select().from(incidentComments).where(eq(incidentComments.incidentId, incident.id));
    expect(rows).toHaveLength(0);
  });

  it("answers not found for a comment of another incident, and for incidents out of reach", async () => {
    const incident = await incidentIn(room);
    const other = await incidentIn(room);
    const { id } = await postIncidentComment(ctxOf(technician), incident.id, { body: "Mine" });
    expect(await rejectionOf(updateIncidentComment(ctxOf(technician), other.id, id, { body: "x" }))).toBeInstanceOf(NotFoundError);
    const far = await incidentIn(farRoom);
    expect(await rejectionOf(postIncidentComment(ctxOf(technician), far.id, { body: "x" }))).toBeInstanceOf(NotFoundError);
    const foreign = await incidentIn(otherRoom);
    expect(await rejectionOf(postIncidentComment(ctxOf(admin), foreign.id, { body: "x" }))).toBeInstanceOf(NotFoundError);
  });
});

describe("incident files", () => {
  it("adds and removes files of the incident", async () => {
    const incident = await incidentIn(room);
    const { ids } = await addIncidentFiles(ctxOf(technician), incident.id, { files: [{ bytes: pngBytes(2, 2), name: "leak.png" }] });
    expect(await database.db.select().from(incidentFiles).where(eq(incidentFiles.incidentId, incident.id))).toHaveLength(1);
    await removeIncidentFile(ctxOf(technician), incident.id, ids[0]);
    expect(await database.db.select().from(incidentFiles).where(eq(incidentFiles.incidentId, incident.id))).toHaveLength(0);
    await expectFieldError(removeIncidentFile(ctxOf(technician), incident.id, ids[0]), "fileId", "errors.file.deleteFailed");
    await expectFieldError(removeIncidentFile(ctxOf(technician), incident.id, "not-a-uuid"), "fileId", "errors.file.deleteFailed");
    await expectFieldError(addIncidentFiles(ctxOf(technician), incident.id, { files: [] }), "files", "incidents:validation.fileRequired");
  });
});

describe("image attachments", () => {
  it("are scaled down, upright and without metadata before they are stored; documents are kept as sent", async () => {
    const incident = await incidentIn(room);
    const pdf = new TextEncoder().encode("%PDF-1.4\n%%EOF\n");
    const { ids } = await addIncidentFiles(ctxOf(technician), incident.id, {
      files: [{ bytes: await jpegWithExif(2400, 1000, 6), name: "valve.jpg" }, { bytes: pdf, name: "manual.pdf" }],
    });
    const stored = await database.db.select().from(storedFiles).where(inArray(storedFiles.id, ids));
    const jpeg = stored.find((f) => f.mimeType === "image/jpeg")!;
    const bytes = fs.readFileSync(path.join(services.files.root, jpeg.storageKey));
    const meta = await sharp(bytes).metadata();
    expect(meta).toMatchObject({ width: 853, height: 2048 });
    expect(meta.exif).toBeUndefined();
    expect(stored.find((f) => f.mimeType === "application/pdf")!.sizeBytes).toBe(pdf.byteLength);

    const { id } = await postIncidentComment(ctxOf(technician), incident.id, { body: "Photo of the valve", files: [{ bytes: await jpegWithExif(300, 200, 6), name: "v.jpg" }] });
    const [link] = await database.db.select().from(incidentCommentFiles).where(eq(incidentCommentFiles.commentId, id));
    const [file] = await database.db.select().from(storedFiles).where(eq(storedFiles.id, link.fileId));
    const attached = await sharp(fs.readFileSync(path.join(services.files.root, file.storageKey))).metadata();
    expect([attached.width, attached.height, attached.exif]).toEqual([200, 300, undefined]);
  });

  it("refuses a decompression bomb; an incident out of reach is not found before any image is read", async () => {
    const incident = await incidentIn(room);
    const bomb = [{ bytes: claimedPngBytes(20_000, 20_000), name: "bomb.png" }];
    await expectFieldError(postIncidentComment(ctxOf(technician), incident.id, { body: "x", files: bomb }), "files", "errors.file.tooManyPixels");
    await expectFieldError(addIncidentFiles(ctxOf(technician), incident.id, { files: bomb }), "files", "errors.file.tooManyPixels");
    expect(await database.db.select().from(incidentFiles).where(eq(incidentFiles.incidentId, incident.id))).toHaveLength(0);
    const foreign = await incidentIn(otherRoom);
    expect(await rejectionOf(addIncidentFiles(ctxOf(admin), foreign.id, { files: bomb }))).toBeInstanceOf(NotFoundError);
    expect(await rejectionOf(postIncidentComment(ctxOf(farTechnician), incident.id, { body: "x", files: bomb }))).toBeInstanceOf(NotFoundError);
  });
});

describe("per-status counters", () => {
  it("follow verbs and the facility cascade", async () => {
    const cascadeBuilding = await createBuilding(database.db, { entityId: entityA.id });
    const cascadeRoom = await createRoom(database.db, { entityId: entityA.id, buildingId: cascadeBuilding.id });
    await incidentIn(cascadeRoom);
    await incidentIn(cascadeRoom, { status: IncidentStatus.DONE });
    expect(await statusCountDrift()).toEqual([]);
    await archiveFacility(ctxOf(admin), cascadeBuilding.facilityId, { confirmName: (await database.db.execute(sql`select name from facilities where id = ${cascadeBuilding.facilityId}`) as unknown as { rows: { name: string }[] }).rows[0].name });
    expect(await statusCountDrift()).toEqual([]);
    // The cascade rejects the open incident (SPEC.md section 4); the counters follow.
    const left = await database.db.select({ status: incidents.status }).from(incidents).where(and(eq(incidents.roomId, cascadeRoom.id), isNull(incidents.archivedAt)));
    expect(left.map((r) => r.status).sort()).toEqual([IncidentStatus.DONE, IncidentStatus.REJECTED]);
  });
});
