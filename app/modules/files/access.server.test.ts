import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "~/db/client.server";
import { BulkUploadType, DataJobKind, ExportType, ReportType, Role } from "~/db/enums";
import { dataJobs, entities, equipmentTypeFiles, incidentCommentFiles, incidentFiles, reports, roomFiles, storedFiles, type User, users } from "~/db/schema";
import type { ServiceContext } from "~/core/context.server";
import { NotFoundError } from "~/lib/errors";
import { createBuilding, createEntity, createEquipmentItem, createEquipmentType, createIncident, createIncidentComment, createRoom, createUser, linkUserTo } from "#tests/factories";
import { pngBytes } from "#tests/factories/files";
import { createTestDatabase } from "#tests/test-db";
import { actorContext } from "#tests/service-helpers";
import { serveStoredFile } from "./access.server";
import { type FileStore, storeFile } from "./storage.server";

/**
 * Who may download which stored file (GET /files/{id}), one owner at a time: the file is served only
 * to users who can reach the record that owns it; anything else is not found.
 */
let database: Database;
const store: FileStore = { root: fs.mkdtempSync(path.join(os.tmpdir(), "caretaker-file-access-")), maxBytes: 64 * 1024 };

type Who = "admin" | "manager" | "technician" | "unlinked" | "stranger";
const WHO: Who[] = ["admin", "manager", "technician", "unlinked", "stranger"];
let people: Record<Who, User>;
/** File ids by owner. */
let file: Record<string, string>;

const ctxOf = (user: User) => actorContext(database.db, user);

async function readable(who: Who, id: string): Promise<boolean> {
  try {
    const { file: row, bytes } = await serveStoredFile(ctxOf(people[who]), store, id);
    expect(row.id).toBe(id);
    expect(bytes.byteLength).toBeGreaterThan(0);
    return true;
  } catch (error) {
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error).toMatchObject({ code: "FILE_NOT_FOUND" });
    return false;
  }
}

/** Who of WHO may read the file. */
async function readers(id: string): Promise<Who[]> {
  const result: Who[] = [];
  for (const who of WHO) if (await readable(who, id)) result.push(who);
  return result;
}

beforeAll(async () => {
  database = await createTestDatabase();
  const db = database.db;
  const entity = await createEntity(db);
  const other = await createEntity(db);
  people = {
    admin: await createUser(db, { entityId: entity.id, role: Role.ADMINISTRATOR }),
    manager: await createUser(db, { entityId: entity.id, role: Role.FACILITY_MANAGER }),
    technician: await createUser(db, { entityId: entity.id, role: Role.TECHNICIAN }),
    unlinked: await createUser(db, { entityId: entity.id, role: Role.TECHNICIAN }),
    // The administrator of another entity: every file of this one is "not found" to them.
    stranger: await createUser(db, { entityId: other.id, role: Role.ADMINISTRATOR }),
  };
  const entityId = entity.id;
  const system: ServiceContext = { db, entityId, actor: null, locale: "en", timeZone: "Europe/Brussels" };
  const stored = async (name: string) => (await storeFile(system, store, { bytes: pngBytes(4, 4), originalName: `${name}.png`, kind: "image" })).id;

  // The technician and the manager reach building `mine` (and its rooms), not `theirs` (decision 022).
  const mine = await createBuilding(db, { entityId });
  const theirs = await createBuilding(db, { entityId });
  await linkUserTo(db, { entityId, userId: people.technician.id, buildingId: mine.id });
  await linkUserTo(db, { entityId, userId: people.manager.id, buildingId: mine.id });
  const myRoom = await createRoom(db, { entityId, buildingId: mine.id });
  const otherRoom = await createRoom(db, { entityId, buildingId: theirs.id });
  const archivedRoom = await createRoom(db, { entityId, buildingId: mine.id, archivedAt: new Date() });

  file = {};
  for (const name of [
    "logo",
    "sticker",
    "picture",
    "myRoom",
    "otherRoom",
    "archivedRoom",
    "placedType",
    "elsewhereType",
    "myIncident",
    "otherIncident",
    "assignedIncident",
    "comment",
    "removedComment",
    "techReport",
    "managerReport",
    "export",
    "adminExport",
    "import",
    "unowned",
    "removed",
  ]) {
    file[name] = await stored(name);
  }

  await db.update(entities).set({ logoFileId: file.logo, explanatoryStickerFileId: file.sticker }).where(eq(entities.id, entityId));
  await db.update(users).set({ pictureFileId: file.picture }).where(eq(users.id, people.manager.id));
  await db.insert(roomFiles).values([
    { entityId, roomId: myRoom.id, fileId: file.myRoom },
    { entityId, roomId: otherRoom.id, fileId: file.otherRoom },
    { entityId, roomId: archivedRoom.id, fileId: file.archivedRoom },
  ]);

  // Generic equipment: one placed in the technician's room, one only elsewhere.
  const placed = await createEquipmentType(db, { entityId });
  const elsewhere = await createEquipmentType(db, { entityId });
  await createEquipmentItem(db, { entityId, equipmentTypeId: placed.id, roomId: myRoom.id });
  await createEquipmentItem(db, { entityId, equipmentTypeId: elsewhere.id, roomId: otherRoom.id });
  await db.insert(equipmentTypeFiles).values([
    { entityId, equipmentTypeId: placed.id, fileId: file.placedType },
    { entityId, equipmentTypeId: elsewhere.id, fileId: file.elsewhereType },
  ]);

  // Incidents: in the technician's room, elsewhere, and elsewhere but assigned to them.
  const myIncident = await createIncident(db, { entityId, roomId: myRoom.id });
  const otherIncident = await createIncident(db, { entityId, roomId: otherRoom.id });
  const assigned = await createIncident(db, { entityId, roomId: otherRoom.id, assigneeId: people.technician.id });
  await db.insert(incidentFiles).values([
    { entityId, incidentId: myIncident.id, fileId: file.myIncident },
    { entityId, incidentId: otherIncident.id, fileId: file.otherIncident },
    { entityId, incidentId: assigned.id, fileId: file.assignedIncident },
  ]);
  const comment = await createIncidentComment(db, { entityId, incidentId: myIncident.id, authorId: people.manager.id });
  const removed = await createIncidentComment(db, { entityId, incidentId: myIncident.id, authorId: people.manager.id, deletedAt: new Date() });
  await db.insert(incidentCommentFiles).values([
    { entityId, commentId: comment.id, fileId: file.comment },
    { entityId, commentId: removed.id, fileId: file.removedComment },
  ]);

  await db.insert(reports).values([
    { entityId, userId: people.technician.id, type: ReportType.BUG, message: "Broken", fileId: file.techReport },
    { entityId, userId: people.manager.id, type: ReportType.SUGGESTION, message: "Idea", fileId: file.managerReport },
  ]);
  await db.insert(dataJobs).values([
    { entityId, kind: DataJobKind.EXPORT, exportType: ExportType.ROOMS, resultFileId: file.export, requestedById: people.manager.id },
    { entityId, kind: DataJobKind.EXPORT, exportType: ExportType.INCIDENTS, resultFileId: file.adminExport, requestedById: people.admin.id },
    { entityId, kind: DataJobKind.IMPORT, importType: BulkUploadType.FACILITY, sourceFileId: file.import, requestedById: people.admin.id },
  ]);

  // A removed file, still referenced as the room's: gone for everyone.
  await db.insert(roomFiles).values({ entityId, roomId: myRoom.id, fileId: file.removed });
  await db.update(users).set({ pictureFileId: file.removed }).where(eq(users.id, people.admin.id));
  await db.update(storedFiles).set({ deletedAt: new Date() }).where(eq(storedFiles.id, file.removed));
});

afterAll(async () => {
  await database?.close();
  fs.rmSync(store.root, { recursive: true, force: true });
});

describe("serveStoredFile", () => {
  it("serves the entity's logo, sticker and users' pictures to every user of the entity", async () => {
    for (const name of ["logo", "sticker", "picture"]) {
      expect(await readers(file[name]), name).toEqual(["admin", "manager", "technician", "unlinked"]);
    }
  });

  it("serves a room's files to those who may view the room: managers and technicians within their buildings only", async () => {
    expect(await readers(file.myRoom)).toEqual(["admin", "manager", "technician"]);
    expect(await readers(file.otherRoom)).toEqual(["admin"]);
    expect(await readers(file.archivedRoom)).toEqual([]);
  });

  it("serves generic equipment documentation to managers (the catalogue is entity-wide), and to technicians with that equipment in their rooms", async () => {
    expect(await readers(file.placedType)).toEqual(["admin", "manager", "technician"]);
    expect(await readers(file.elsewhereType)).toEqual(["admin", "manager"]);
  });

  it("serves incident files and comment attachments to those who may read the incident", async () => {
    expect(await readers(file.myIncident)).toEqual(["admin", "manager", "technician"]);
    expect(await readers(file.otherIncident)).toEqual(["admin"]);
    expect(await readers(file.assignedIncident)).toEqual(["admin", "technician"]);
    expect(await readers(file.comment)).toEqual(["admin", "manager", "technician"]);
    expect(await readers(file.removedComment)).toEqual([]);
  });

  it("serves a bug report's attachment to its reporter and the administrators only", async () => {
    expect(await readers(file.techReport)).toEqual(["admin", "technician"]);
    expect(await readers(file.managerReport)).toEqual(["admin", "manager"]);
  });

  it("serves import sources to managers and administrators, an export's result to its requester and the administrators (decision 055)", async () => {
    expect(await readers(file.export)).toEqual(["admin", "manager"]);
    // An administrator's export holds rows outside a facility manager's reach.
    expect(await readers(file.adminExport)).toEqual(["admin"]);
    expect(await readers(file.import)).toEqual(["admin", "manager"]);
  });

  it("answers not found for an unowned, removed, unknown or malformed file, and to no actor", async () => {
    expect(await readers(file.unowned)).toEqual([]);
    expect(await readers(file.removed)).toEqual([]);
    expect(await readers("0b7c2f5e-3f4a-4c3b-9a59-1f0e7d3b2a10")).toEqual([]);
    expect(await readers("../../etc/passwd")).toEqual([]);
    const nobody = { ...ctxOf(people.admin), actor: null };
    await expect(serveStoredFile(nobody, store, file.logo)).rejects.toBeInstanceOf(NotFoundError);
  });

  it("answers not found to another entity, whatever the owner", async () => {
    for (const id of Object.values(file)) expect(await readable("stranger", id)).toBe(false);
  });
});
