import type { ActionFunctionArgs } from "@remix-run/node";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { QrPrintStatus, Role } from "~/db/enums";
import { type Building, type Entity, reportIdentifiers, type Room, type User } from "~/db/schema";
import * as qrRoute from "~/routes/api/printing.qr-codes";
import * as stickersRoute from "~/routes/api/printing.explanatory-stickers";
import * as statusRoute from "~/routes/api/printing.status";
import { createBuilding, createEntity, createEquipmentItem, createFacility, createRoom, createUser, linkUserTo } from "#tests/factories";
import { apiContext, type ApiHarness, callApi, startApiRuntime } from "#tests/api-helpers";

/**
 * The printing REST calls (section 7 leaves them out; decision 053): the QR sheet PDF of a selection,
 * the explanatory sticker PDF and the print status, with a bearer token: answers, statuses, JSON
 * errors, reach and roles, and that a refused call changes nothing.
 */
let api: ApiHarness;
let entityA: Entity;
let entityB: Entity;
let admin: User;
let manager: User;
let technician: User;
let otherAdmin: User;
let main: Building;
let far: Building;
let room: Room;
let farRoom: Room;
let otherRoom: Room;
let tokens: Record<"admin" | "manager" | "technician" | "other", string>;

/** A POST whose answer may be a PDF: the raw response. */
async function post(route: { action: unknown }, url: string, token: string, body: unknown) {
  const request = new Request(`http://x${url}`, {
    method: "POST",
    headers: { "x-language": "en", authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
  return (route.action as (args: ActionFunctionArgs) => Promise<Response>)({ request, params: {}, context: apiContext() } as unknown as ActionFunctionArgs);
}
const json = async (response: Response) => JSON.parse(await response.text());
const status = async (roomId: number) => (await api.database.db.select({ s: reportIdentifiers.qrPrintStatus }).from(reportIdentifiers).where(eq(reportIdentifiers.roomId, roomId)))[0]?.s;

beforeAll(async () => {
  api = await startApiRuntime();
  const db = api.database.db;
  entityA = await createEntity(db, { name: "Entity A" });
  entityB = await createEntity(db, { name: "Entity B" });
  const campus = await createFacility(db, { entityId: entityA.id, name: "Campus" });
  main = await createBuilding(db, { entityId: entityA.id, facilityId: campus.id, name: "Main" });
  far = await createBuilding(db, { entityId: entityA.id, name: "Far" });
  room = await createRoom(db, { entityId: entityA.id, buildingId: main.id, name: "Hall" });
  await createEquipmentItem(db, { entityId: entityA.id, roomId: room.id });
  farRoom = await createRoom(db, { entityId: entityA.id, buildingId: far.id });
  otherRoom = await createRoom(db, { entityId: entityB.id });
  admin = await createUser(db, { entityId: entityA.id, role: Role.ADMINISTRATOR });
  manager = await createUser(db, { entityId: entityA.id, role: Role.FACILITY_MANAGER });
  technician = await createUser(db, { entityId: entityA.id, role: Role.TECHNICIAN });
  otherAdmin = await createUser(db, { entityId: entityB.id, role: Role.ADMINISTRATOR });
  await linkUserTo(db, { entityId: entityA.id, userId: manager.id, facilityId: campus.id });
  const [a, m, t, o] = await Promise.all([api.token(admin), api.token(manager), api.token(technician), api.token(otherAdmin)]);
  tokens = { admin: a, manager: m, technician: t, other: o };
});
afterAll(async () => {
  await api?.close();
});

describe("POST /api/printing/qr-codes", () => {
  it("answers the PDF of the selection and marks its room and the room's equipment printed; the status then says so", async () => {
    const response = await post(qrRoute, "/api/printing/qr-codes", tokens.manager, { roomIds: [room.id], startRow: 7, lines: ["room", "code"] });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/pdf");
    expect(response.headers.get("content-disposition")).toContain("qr-codes.pdf");
    expect(Buffer.from(await response.arrayBuffer()).subarray(0, 5).toString()).toBe("%PDF-");
    expect(await status(room.id)).toBe(QrPrintStatus.PRINTED);
    const answer = await callApi(statusRoute, "/api/printing/status", { token: tokens.manager });
    expect(answer.status).toBe(200);
    expect(answer.body.facilities).toEqual([
      { id: expect.any(Number), name: "Campus", printed: 2, total: 2, status: QrPrintStatus.PRINTED, buildings: [{ id: main.id, name: "Main", printed: 2, total: 2, status: QrPrintStatus.PRINTED }] },
    ]);
    const rooms = await callApi(statusRoute, `/api/printing/status?buildingId=${main.id}`, { token: tokens.manager });
    expect(rooms.body.building.rooms).toMatchObject([{ id: room.id, status: QrPrintStatus.PRINTED, stickerStatus: QrPrintStatus.PRINTED, printed: 2, total: 2, items: [{ status: QrPrintStatus.PRINTED }] }]);
  });

  it("answers 400 with the SPEC text when there is nothing to print, and for a starting row past 7", async () => {
    const nothing = await post(qrRoute, "/api/printing/qr-codes", tokens.manager, { roomIds: [room.id], notPrintedOnly: true });
    expect(nothing.status).toBe(400);
    expect(await json(nothing)).toMatchObject({ code: "NOTHING_TO_PRINT", message: "Nothing to print (check if all report identifiers are created)" });
    const row = await post(qrRoute, "/api/printing/qr-codes", tokens.manager, { roomIds: [room.id], startRow: 8 });
    expect(row.status).toBe(400);
    expect((await json(row)).fieldErrorKeys).toEqual({ startRow: ["printing:validation.startRow"] });
    const bad = await post(qrRoute, "/api/printing/qr-codes", tokens.manager, '{"roomIds":[1');
    expect(bad.status).toBe(400);
    const nul = await post(qrRoute, "/api/printing/qr-codes", tokens.manager, { roomIds: [room.id], language: "en\u0000" });
    expect(nul.status).toBe(400);
  });

  it("answers 404 for another entity's room, one out of the manager's reach or id 2^31, and prints nothing", async () => {
    const before = await status(farRoom.id);
    for (const [token, ids] of [
      [tokens.manager, [farRoom.id]],
      [tokens.admin, [otherRoom.id]],
      [tokens.other, [room.id]],
    ] as const) {
      const response = await post(qrRoute, "/api/printing/qr-codes", token, { roomIds: ids });
      expect(response.status).toBe(404);
    }
    const huge = await post(qrRoute, "/api/printing/qr-codes", tokens.admin, { roomIds: [2 ** 31] });
    expect(huge.status).toBe(400);
    expect(await status(farRoom.id)).toBe(before);
    expect((await callApi(statusRoute, `/api/printing/status?buildingId=${far.id}`, { token: tokens.manager })).status).toBe(404);
    expect((await callApi(statusRoute, "/api/printing/status?buildingId=abc", { token: tokens.manager })).status).toBe(400);
  });

  it("refuses technicians (403) and callers without a token (401)", async () => {
    const response = await post(qrRoute, "/api/printing/qr-codes", tokens.technician, { roomIds: [room.id] });
    expect(response.status).toBe(403);
    expect((await callApi(statusRoute, "/api/printing/status", { token: tokens.technician })).status).toBe(403);
    expect((await callApi(statusRoute, "/api/printing/status", { token: null })).status).toBe(401);
    expect((await callApi(qrRoute, "/api/printing/qr-codes", { token: tokens.admin })).status).toBe(405);
  });
});

describe("POST /api/printing/explanatory-stickers", () => {
  it("validates the copies and says when no sticker was uploaded", async () => {
    const zero = await post(stickersRoute, "/api/printing/explanatory-stickers", tokens.admin, { copies: 0 });
    expect(zero.status).toBe(400);
    expect((await json(zero)).fieldErrors).toEqual({ copies: ["At least 1 copy"] });
    const none = await post(stickersRoute, "/api/printing/explanatory-stickers", tokens.admin, { copies: 3, startRow: 7 });
    expect(none.status).toBe(400);
    expect((await json(none)).code).toBe("NO_EXPLANATORY_STICKER");
    expect((await post(stickersRoute, "/api/printing/explanatory-stickers", tokens.technician, { copies: 1 })).status).toBe(403);
  });
});

