import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "~/db/client.server";
import { NotificationType, QrPrintStatus, Role } from "~/db/enums";
import { type Building, type Entity, notificationDetails, notifications, printJobs, PrintJobStatus, reportIdentifiers, type Room, storedFiles, type User } from "~/db/schema";
import { ForbiddenError, NotFoundError, ValidationError } from "~/lib/errors";
import { createBuilding, createEntity, createEquipmentItem, createFacility, createRoom, createRoomType, createUser, linkUserTo } from "#tests/factories";
import { createTestDatabase } from "#tests/test-db";
import { createTestServices, type TestServices } from "#tests/test-context";
import { expectFieldError, rejectionOf } from "#tests/service-helpers";
import { getReadableFile } from "~/modules/files/access.server";
import { authenticateApiToken } from "~/modules/api-tokens/authenticate.server";
import { createApiToken, revokeApiToken } from "~/modules/api-tokens/service.server";
import { printStickersJob } from "./jobs.server";
import { listBuildingPrintRooms, listPrintTree } from "./queries.server";
import type { QrCodesInput } from "./schema";
import { printExplanatoryStickers, printQrCodes, setPrintCalibration } from "./service.server";

let database: Database;
let services: TestServices;
let entityA: Entity;
let entityB: Entity;
let admin: User;
/** Linked to facility "Campus" only. */
let manager: User;
let technician: User;
let main: Building;
let annex: Building;
let far: Building;
let roomA: Room;
let roomB: Room;
let roomNoCode: Room;
let farRoom: Room;
let otherRoom: Room;

const ctxOf = (user: User) => services.ctx(user.entityId, user, { appUrl: "https://caretaker.example" });
const print = (user: User, input: QrCodesInput) => printQrCodes(ctxOf(user), input, { compress: false });
const statusOf = async (roomId: number) =>
  (await database.db.select({ s: reportIdentifiers.qrPrintStatus, at: reportIdentifiers.lastPrintedAt }).from(reportIdentifiers).where(eq(reportIdentifiers.roomId, roomId)))[0];

beforeAll(async () => {
  database = await createTestDatabase();
  services = await createTestServices(database);
  const db = database.db;
  entityA = await createEntity(db);
  entityB = await createEntity(db);
  admin = await createUser(db, { entityId: entityA.id, role: Role.ADMINISTRATOR });
  manager = await createUser(db, { entityId: entityA.id, role: Role.FACILITY_MANAGER });
  technician = await createUser(db, { entityId: entityA.id, role: Role.TECHNICIAN });
  const campus = await createFacility(db, { entityId: entityA.id, name: "Campus" });
  main = await createBuilding(db, { entityId: entityA.id, facilityId: campus.id, name: "Main" });
  annex = await createBuilding(db, { entityId: entityA.id, facilityId: campus.id, name: "Annex" });
  far = await createBuilding(db, { entityId: entityA.id, name: "Far" });
  await linkUserTo(db, { entityId: entityA.id, userId: manager.id, facilityId: campus.id });
  roomA = await createRoom(db, { entityId: entityA.id, buildingId: main.id, name: "A room", floor: "1" });
  roomB = await createRoom(db, { entityId: entityA.id, buildingId: main.id, name: "B room", floor: "2" });
  roomNoCode = await createRoom(db, { entityId: entityA.id, buildingId: annex.id, name: "No code yet", reportCode: null });
  await createEquipmentItem(db, { entityId: entityA.id, roomId: roomB.id });
  farRoom = await createRoom(db, { entityId: entityA.id, buildingId: far.id, name: "Far room" });
  otherRoom = await createRoom(db, { entityId: entityB.id, name: "Elsewhere" });
});
afterAll(async () => {
  await services?.close();
  await database?.close();
});

describe("printQrCodes", () => {
  it("prints the chosen rooms, marks them printed, and the building partially printed", async () => {
    const result = await print(manager, { roomIds: [roomA.id], startRow: 3 });
    expect(result).toMatchObject({ kind: "pdf", stickers: 1, sheets: 1, fileName: "qr-codes.pdf" });
    if (result.kind !== "pdf") throw new Error("pdf expected");
    expect(result.pdf.subarray(0, 5).toString()).toBe("%PDF-");
    expect((await statusOf(roomA.id)).s).toBe(QrPrintStatus.PRINTED);
    expect((await statusOf(roomA.id)).at).toBeInstanceOf(Date);
    const tree = await listPrintTree(ctxOf(manager));
    const campus = tree.find((f) => f.name === "Campus")!;
    expect(campus.buildings.find((b) => b.id === main.id)).toMatchObject({ printed: 1, total: 3, status: QrPrintStatus.PARTIALLY_PRINTED });
    expect(campus.buildings.find((b) => b.id === annex.id)).toMatchObject({ printed: 0, total: 1, status: QrPrintStatus.NOT_PRINTED });
    expect(campus.status).toBe(QrPrintStatus.PARTIALLY_PRINTED);
    const rooms = await listBuildingPrintRooms(ctxOf(manager), main.id);
    expect(rooms.rooms.map((r) => [r.name, r.status, r.items.map((i) => i.status)])).toEqual([
      ["A room", QrPrintStatus.PRINTED, []],
      ["B room", QrPrintStatus.NOT_PRINTED, [QrPrintStatus.NOT_PRINTED]],
    ]);
    const notPrinted = await listBuildingPrintRooms(ctxOf(manager), main.id, { notPrintedOnly: true });
    expect(notPrinted.rooms.map((r) => [r.name, r.items.length])).toEqual([["B room", 1]]);
  });

  it("prints a whole building's rooms and items, only those not printed with the filter, and creates missing identifiers", async () => {
    const result = await print(manager, { buildingIds: [main.id], notPrintedOnly: true });
    expect(result).toMatchObject({ kind: "pdf", stickers: 2 });
    expect((await listPrintTree(ctxOf(manager))).find((f) => f.name === "Campus")!.buildings.find((b) => b.id === main.id)!.status).toBe(QrPrintStatus.PRINTED);
    // A room without a report identifier gets one on demand, then is printed.
    expect(await statusOf(roomNoCode.id)).toBeUndefined();
    expect(await print(manager, { buildingIds: [annex.id] })).toMatchObject({ kind: "pdf", stickers: 1 });
    expect((await statusOf(roomNoCode.id)).s).toBe(QrPrintStatus.PRINTED);
  });

  it("answers the nothing to print error when all is printed or nothing is chosen", async () => {
    const error = await rejectionOf<ValidationError>(print(manager, { buildingIds: [main.id], notPrintedOnly: true }));
    expect(error).toBeInstanceOf(ValidationError);
    expect(error.messageKey).toBe("printing:errors.nothingToPrint");
    expect(error.code).toBe("NOTHING_TO_PRINT");
    expect((await rejectionOf<ValidationError>(print(manager, {}))).messageKey).toBe("printing:errors.nothingToPrint");
  });

  it("validates the starting row and column", async () => {
    await expectFieldError(print(manager, { roomIds: [roomA.id], startRow: 8 }), "startRow", "printing:validation.startRow");
    await expectFieldError(print(manager, { roomIds: [roomA.id], startRow: 0 }), "startRow", "printing:validation.startRow");
    await expectFieldError(print(manager, { roomIds: [roomA.id], startColumn: 4 }), "startColumn", "printing:validation.startColumn");
    await expectFieldError(print(manager, { roomIds: [roomA.id], colors: "custom", background: "red" }), "background", "printing:validation.color");
  });

  it("keeps to the entity and the manager's reach: another entity's room or one out of reach is not found, and nothing changes", async () => {
    const before = await statusOf(farRoom.id);
    expect(await rejectionOf(print(manager, { roomIds: [farRoom.id] }))).toBeInstanceOf(NotFoundError);
    expect(await rejectionOf(print(manager, { buildingIds: [far.id] }))).toBeInstanceOf(NotFoundError);
    expect(await rejectionOf(print(admin, { roomIds: [otherRoom.id] }))).toBeInstanceOf(NotFoundError);
    expect(await rejectionOf(print(admin, { roomIds: [2 ** 31 - 1] }))).toBeInstanceOf(NotFoundError);
    expect(await statusOf(farRoom.id)).toEqual(before);
    expect((await listPrintTree(ctxOf(manager))).map((f) => f.name)).toEqual(["Campus"]);
    await expect(listBuildingPrintRooms(ctxOf(manager), far.id)).rejects.toBeInstanceOf(NotFoundError);
    // The administrator reaches the whole entity.
    expect(await print(admin, { roomIds: [farRoom.id] })).toMatchObject({ kind: "pdf", stickers: 1 });
  });

  it("refuses technicians", async () => {
    expect(await rejectionOf(print(technician, { roomIds: [roomA.id] }))).toBeInstanceOf(ForbiddenError);
    expect(await rejectionOf(listPrintTree(ctxOf(technician)))).toBeInstanceOf(ForbiddenError);
    expect(await rejectionOf(printExplanatoryStickers(ctxOf(technician), { copies: 1 }))).toBeInstanceOf(ForbiddenError);
    expect(await rejectionOf(setPrintCalibration(ctxOf(technician), { offsetX: 1 }))).toBeInstanceOf(ForbiddenError);
  });
});

describe("a room's print status and the 'Not printed only' filter", () => {
  /**
   * A room is printed when its own sticker and every sticker of its equipment items are (decision 053):
   * "Not printed only" lists a room while any of them is missing, and a chosen room prints its sticker
   * and its items' stickers, only the missing ones with the filter.
   */
  it("lists a room whose own sticker or an item's is not printed, and printing the room prints what is missing", async () => {
    const db = database.db;
    const depot = await createBuilding(db, { entityId: entityA.id, facilityId: main.facilityId, name: "Depot" });
    const roomPrinted = await createRoom(db, { entityId: entityA.id, buildingId: depot.id, name: "Room printed, item not", floor: "0" });
    const itemNotPrinted = await createEquipmentItem(db, { entityId: entityA.id, roomId: roomPrinted.id });
    const roomNotPrinted = await createRoom(db, { entityId: entityA.id, buildingId: depot.id, name: "Room not printed, item printed", floor: "0" });
    const itemPrinted = await createEquipmentItem(db, { entityId: entityA.id, roomId: roomNotPrinted.id });
    const allPrinted = await createRoom(db, { entityId: entityA.id, buildingId: depot.id, name: "All printed", floor: "1" });
    const itemOfAllPrinted = await createEquipmentItem(db, { entityId: entityA.id, roomId: allPrinted.id });
    const printedAt = new Date("2026-11-30T10:00:00Z");
    for (const where of [eq(reportIdentifiers.roomId, roomPrinted.id), eq(reportIdentifiers.equipmentItemId, itemPrinted.id), eq(reportIdentifiers.roomId, allPrinted.id), eq(reportIdentifiers.equipmentItemId, itemOfAllPrinted.id)]) {
      await db.update(reportIdentifiers).set({ qrPrintStatus: QrPrintStatus.PRINTED, lastPrintedAt: printedAt }).where(where);
    }
    const { PRINTED, NOT_PRINTED, PARTIALLY_PRINTED } = QrPrintStatus;

    const all = await listBuildingPrintRooms(ctxOf(manager), depot.id);
    expect(all.rooms.map((r) => ({ name: r.name, status: r.status, stickerStatus: r.stickerStatus, printed: r.printed, total: r.total, items: r.items.map((i) => [i.id, i.status]) }))).toEqual([
      { name: "All printed", status: PRINTED, stickerStatus: PRINTED, printed: 2, total: 2, items: [[itemOfAllPrinted.id, PRINTED]] },
      { name: "Room not printed, item printed", status: PARTIALLY_PRINTED, stickerStatus: NOT_PRINTED, printed: 1, total: 2, items: [[itemPrinted.id, PRINTED]] },
      { name: "Room printed, item not", status: PARTIALLY_PRINTED, stickerStatus: PRINTED, printed: 1, total: 2, items: [[itemNotPrinted.id, NOT_PRINTED]] },
    ]);

    // Not printed only: both partly printed rooms, each with only its items still to print.
    const missing = await listBuildingPrintRooms(ctxOf(manager), depot.id, { notPrintedOnly: true });
    expect(missing.rooms.map((r) => [r.name, r.status, r.items.map((i) => i.id)])).toEqual([
      ["Room not printed, item printed", PARTIALLY_PRINTED, []],
      ["Room printed, item not", PARTIALLY_PRINTED, [itemNotPrinted.id]],
    ]);

    // Choosing those rooms with the filter prints the missing stickers: one room sticker, one item's.
    expect(await print(manager, { roomIds: [roomPrinted.id], notPrintedOnly: true })).toMatchObject({ kind: "pdf", stickers: 1 });
    expect(await print(manager, { roomIds: [roomNotPrinted.id], notPrintedOnly: true })).toMatchObject({ kind: "pdf", stickers: 1 });
    expect((await listBuildingPrintRooms(ctxOf(manager), depot.id, { notPrintedOnly: true })).rooms).toEqual([]);
    expect((await listBuildingPrintRooms(ctxOf(manager), depot.id)).rooms.map((r) => [r.name, r.status, r.printed, r.total])).toEqual([
      ["All printed", PRINTED, 2, 2],
      ["Room not printed, item printed", PRINTED, 2, 2],
      ["Room printed, item not", PRINTED, 2, 2],
    ]);
    // The stickers printed before keep their print time; a room chosen without the filter prints all of its stickers again.
    const [kept] = await db.select({ at: reportIdentifiers.lastPrintedAt }).from(reportIdentifiers).where(eq(reportIdentifiers.roomId, roomPrinted.id));
    expect(kept.at).toEqual(printedAt);
    expect((await rejectionOf<ValidationError>(print(manager, { roomIds: [allPrinted.id], notPrintedOnly: true }))).code).toBe("NOTHING_TO_PRINT");
    expect(await print(manager, { roomIds: [allPrinted.id] })).toMatchObject({ kind: "pdf", stickers: 2 });
  });
});

describe("background printing", () => {
  it("records a job past 50 sheets; the job stores the PDF, marks printed and notifies the requester", async () => {
    const db = database.db;
    const { entity, user, buildingId } = await (async () => {
      const entity = await createEntity(db);
      const user = await createUser(db, { entityId: entity.id, role: Role.ADMINISTRATOR });
      const building = await createBuilding(db, { entityId: entity.id, name: "Tower" });
      for (let i = 0; i < 1051; i += 100) {
        const { rooms } = await import("~/db/schema");
        const { newReportCode } = await import("~/db/report-identifier");
        const roomType = (await (await import("#tests/factories")).createRoomType(db, { entityId: entity.id })).id;
        const made = await db
          .insert(rooms)
          .values(Array.from({ length: Math.min(100, 1051 - i) }, (_, k) => ({ entityId: entity.id, buildingId: building.id, roomTypeId: roomType, shortId: i + k + 1, name: `R${i + k}`, floor: "0" })))
          .returning({ id: rooms.id });
        await db.insert(reportIdentifiers).values(made.map((r) => ({ entityId: entity.id, roomId: r.id, code: newReportCode() })));
      }
      return { entity, user, buildingId: building.id };
    })();
    const result = await printQrCodes(services.ctx(entity.id, user, { appUrl: "https://caretaker.example" }), { buildingIds: [buildingId] });
    expect(result).toMatchObject({ kind: "job", stickers: 1051 });
    if (result.kind !== "job") throw new Error("job expected");
    const notYet = await db.select({ s: reportIdentifiers.qrPrintStatus }).from(reportIdentifiers).where(and(eq(reportIdentifiers.entityId, entity.id), eq(reportIdentifiers.qrPrintStatus, QrPrintStatus.PRINTED)));
    expect(notYet).toHaveLength(0);
    await services.queue.drain();
    const [job] = await db.select().from(printJobs).where(eq(printJobs.id, result.printJobId));
    expect(job.status).toBe(PrintJobStatus.DONE);
    expect(job.resultFileId).toBeTruthy();
    const printed = await db.select({ s: reportIdentifiers.qrPrintStatus }).from(reportIdentifiers).where(and(eq(reportIdentifiers.entityId, entity.id), eq(reportIdentifiers.qrPrintStatus, QrPrintStatus.PRINTED)));
    expect(printed).toHaveLength(1051);
    const told = await db
      .select({ userId: notifications.userId, type: notificationDetails.type, message: notificationDetails.message })
      .from(notifications)
      .innerJoin(notificationDetails, eq(notificationDetails.id, notifications.detailsId))
      .where(eq(notifications.entityId, entity.id));
    expect(told).toEqual([{ userId: user.id, type: NotificationType.PRINT_READY, message: { downloadFileId: job.resultFileId, stickers: 1051 } }]);
    // The requester may download it; another entity's administrator may not.
    expect((await getReadableFile(services.ctx(entity.id, user), job.resultFileId!)).mimeType).toBe("application/pdf");
    expect(await rejectionOf(getReadableFile(services.ctx(entityA.id, admin), job.resultFileId!))).toBeInstanceOf(NotFoundError);
  }, 60_000);
});

describe("a background print asked through an API token limited to one facility", () => {
  it("prints only the rooms the token reaches when the job runs, and nothing once the token is revoked", async () => {
    const db = database.db;
    const { rooms } = await import("~/db/schema");
    const { newReportCode } = await import("~/db/report-identifier");
    const entity = await createEntity(db);
    const maker = await createUser(db, { entityId: entity.id, role: Role.ADMINISTRATOR });
    const north = await createFacility(db, { entityId: entity.id, name: "North" });
    const south = await createFacility(db, { entityId: entity.id, name: "South" });
    const tower = await createBuilding(db, { entityId: entity.id, facilityId: north.id, name: "North tower" });
    const southHall = await createBuilding(db, { entityId: entity.id, facilityId: south.id, name: "South hall" });
    const roomType = await createRoomType(db, { entityId: entity.id });
    const made = await db
      .insert(rooms)
      .values(Array.from({ length: 1052 }, (_, k) => ({ entityId: entity.id, buildingId: tower.id, roomTypeId: roomType.id, shortId: k + 1, name: `N${k}`, floor: "0" })))
      .returning({ id: rooms.id });
    await db.insert(reportIdentifiers).values(made.map((r) => ({ entityId: entity.id, roomId: r.id, code: newReportCode() })));
    const token = await createApiToken(services.ctx(entity.id, maker), { name: "North printer", role: Role.FACILITY_MANAGER as 1, facilityIds: [north.id], expiresInDays: 30 });
    const tokenCtx = async () => services.ctx(entity.id, (await authenticateApiToken(db, token.secret))!.actor, { appUrl: "https://caretaker.example" });
    const printedIn = async (roomIds: number[]) =>
      (await db.select({ roomId: reportIdentifiers.roomId }).from(reportIdentifiers).where(and(eq(reportIdentifiers.entityId, entity.id), eq(reportIdentifiers.qrPrintStatus, QrPrintStatus.PRINTED))))
        .map((r) => r.roomId!)
        .filter((id) => roomIds.includes(id));

    const result = await printQrCodes(await tokenCtx(), { buildingIds: [tower.id] });
    expect(result).toMatchObject({ kind: "job", stickers: 1052 });
    if (result.kind !== "job") throw new Error("job expected");
    // Before the job runs, a room moves to the south facility, which the token does not reach.
    const moved = made[0].id;
    await db.update(rooms).set({ buildingId: southHall.id }).where(eq(rooms.id, moved));
    await services.queue.drain();
    const [job] = await db.select().from(printJobs).where(eq(printJobs.id, result.printJobId));
    expect(job.status).toBe(PrintJobStatus.DONE);
    const told = await db
      .select({ message: notificationDetails.message })
      .from(notifications)
      .innerJoin(notificationDetails, eq(notificationDetails.id, notifications.detailsId))
      .where(eq(notifications.entityId, entity.id));
    expect(told).toEqual([{ message: { downloadFileId: job.resultFileId, stickers: 1051 } }]);
    expect(await printedIn([moved])).toEqual([]);
    expect(await printedIn(made.slice(1).map((r) => r.id))).toHaveLength(1051);

    // A print asked before the token is revoked is not made after.
    await db.update(reportIdentifiers).set({ qrPrintStatus: QrPrintStatus.NOT_PRINTED }).where(eq(reportIdentifiers.entityId, entity.id));
    const second = await printQrCodes(await tokenCtx(), { buildingIds: [tower.id] });
    if (second.kind !== "job") throw new Error("job expected");
    await revokeApiToken(services.ctx(entity.id, maker), token.token.id);
    await services.queue.drain();
    const [refused] = await db.select().from(printJobs).where(eq(printJobs.id, second.printJobId));
    expect(refused.status).toBe(PrintJobStatus.FAILED);
    expect(await printedIn(made.map((r) => r.id))).toEqual([]);
  }, 60_000);
});

describe("a background print's PDF", () => {
  it("is read by the person who asked and the administrators, never by another facility manager or a technician", async () => {
    const db = database.db;
    const other = await createUser(db, { entityId: entityA.id, role: Role.FACILITY_MANAGER });
    await linkUserTo(db, { entityId: entityA.id, userId: other.id, buildingId: far.id });
    const [file] = await db
      .insert(storedFiles)
      .values({ entityId: entityA.id, storageKey: `print-reach-${Date.now()}`, originalName: "stickers.pdf", mimeType: "application/pdf", sizeBytes: 1, createdById: manager.id })
      .returning({ id: storedFiles.id });
    await db.insert(printJobs).values({ entityId: entityA.id, requestedById: manager.id, status: PrintJobStatus.DONE, stickers: 1051, params: {}, resultFileId: file.id });
    expect((await getReadableFile(ctxOf(manager), file.id)).id).toBe(file.id);
    expect((await getReadableFile(ctxOf(admin), file.id)).id).toBe(file.id);
    expect(await rejectionOf(getReadableFile(ctxOf(other), file.id))).toBeInstanceOf(NotFoundError);
    expect(await rejectionOf(getReadableFile(ctxOf(technician), file.id))).toBeInstanceOf(NotFoundError);
  });
});

describe("a background print that cannot be made", () => {
  it("is retried, and marked failed at its last attempt rather than left queued", async () => {
    const db = database.db;
    const entity = await createEntity(db);
    const user = await createUser(db, { entityId: entity.id, role: Role.ADMINISTRATOR });
    const [job] = await db.insert(printJobs).values({ entityId: entity.id, requestedById: user.id, stickers: 1, params: { identifierIds: [] } }).returning();
    // No file store: the job cannot keep its PDF.
    const broken = { db, files: undefined as never, events: services.events, queue: services.queue, mailer: { send: async () => undefined } };
    const payload = { entityId: entity.id, printJobId: job.id };
    await expect(printStickersJob.handler(payload, { id: "1", attempt: 1, maxAttempts: 4, services: broken })).rejects.toThrow();
    expect((await db.select().from(printJobs).where(eq(printJobs.id, job.id)))[0].status).toBe(PrintJobStatus.QUEUED);
    await printStickersJob.handler(payload, { id: "1", attempt: 4, maxAttempts: 4, services: broken });
    const [after] = await db.select().from(printJobs).where(eq(printJobs.id, job.id));
    expect(after.status).toBe(PrintJobStatus.FAILED);
    expect(after.finishedAt).toBeTruthy();
  });
});

describe("explanatory stickers and calibration", () => {
  it("needs an uploaded sticker, at least 1 copy and a starting row at most 7", async () => {
    expect((await rejectionOf<ValidationError>(printExplanatoryStickers(ctxOf(admin), { copies: 2 }))).messageKey).toBe("printing:errors.noSticker");
    await expectFieldError(printExplanatoryStickers(ctxOf(admin), { copies: 0 }), "copies", "printing:validation.copies");
    await expectFieldError(printExplanatoryStickers(ctxOf(admin), { copies: 1, startRow: 8 }), "startRow", "printing:validation.startRow");
  });

  it("stores the calibration offset per entity, within 10 mm", async () => {
    expect(await setPrintCalibration(ctxOf(manager), { offsetX: 1.25, offsetY: -0.5 })).toEqual({ offsetX: 1.3, offsetY: -0.5 });
    await expectFieldError(setPrintCalibration(ctxOf(manager), { offsetX: 11 }), "offsetX", "printing:validation.offset");
  });
});
