import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Role } from "~/db/enums";
import { type EquipmentItem, equipmentItemFiles, equipmentItems, type User } from "~/db/schema";
import * as screen from "~/routes/view-equipment";
import * as report from "~/routes/report";
import { createBuilding, createEntity, createEquipmentItem, createRoom, createUser, linkUserTo } from "#tests/factories";
import { type ApiHarness, apiContext, callScreen, screenData, screenLocation, screenStatus, startApiRuntime } from "#tests/api-helpers";

/**
 * /view-equipment/{id} as the browser posts it with JavaScript off (issue 63): the record's form is
 * answered with a redirect to the item, or with status 400 and its input kept, nothing saved; a
 * technician reads the record without the form; another entity's item and one out of reach are 404.
 */
let api: ApiHarness;
let manager: User;
let technician: User;
let unlinked: User;
let stranger: User;
let boiler: EquipmentItem & { reportCode: string | null };
let roomCode: string;
let roomId: number;

const call = (handler: unknown, user: User, item: EquipmentItem, body?: Record<string, string> | FormData) =>
  callScreen(handler, { access: "user", url: `/view-equipment/${item.id}`, user, params: { id: String(item.id) }, body });
const stored = async () => {
  const [row] = await api.database.db.select().from(equipmentItems).where(eq(equipmentItems.id, boiler.id));
  return { serialNumber: row.serialNumber, warrantyEndsOn: row.warrantyEndsOn, manufacturer: row.manufacturer };
};
const formOf = (fields: Record<string, string>) => {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  return form;
};

beforeAll(async () => {
  api = await startApiRuntime();
  const db = api.database.db;
  const entity = await createEntity(db);
  const other = await createEntity(db);
  manager = await createUser(db, { entityId: entity.id, role: Role.FACILITY_MANAGER });
  technician = await createUser(db, { entityId: entity.id, role: Role.TECHNICIAN });
  unlinked = await createUser(db, { entityId: entity.id, role: Role.FACILITY_MANAGER });
  stranger = await createUser(db, { entityId: other.id, role: Role.ADMINISTRATOR });
  const building = await createBuilding(db, { entityId: entity.id });
  await linkUserTo(db, { entityId: entity.id, userId: manager.id, buildingId: building.id });
  await linkUserTo(db, { entityId: entity.id, userId: technician.id, buildingId: building.id });
  const room = await createRoom(db, { entityId: entity.id, buildingId: building.id });
  boiler = await createEquipmentItem(db, { entityId: entity.id, roomId: room.id, internalReference: "BOILER-1" });
  roomCode = room.reportCode!;
  roomId = room.id;
});
afterAll(async () => {
  await api?.close();
});

describe("/view-equipment/{id}: the item's record", () => {
  it("saves the form with a document and goes back to the item", async () => {
    const form = formOf({ intent: "record", serialNumber: "SN-77", manufacturer: "Buderus", warrantyEndsOn: "2028-01-31" });
    form.append("newFiles", new File([new TextEncoder().encode("%PDF-1.4\n%%EOF\n")], "manual.pdf", { type: "application/pdf" }));
    const answer = await call(screen.action, manager, boiler, form);
    expect(screenStatus(answer)).toBe(302);
    expect(screenLocation(answer)).toBe(`/view-equipment/${boiler.id}`);
    expect(await stored()).toEqual({ serialNumber: "SN-77", warrantyEndsOn: "2028-01-31", manufacturer: "Buderus" });
    expect(await api.database.db.select().from(equipmentItemFiles).where(eq(equipmentItemFiles.equipmentItemId, boiler.id))).toHaveLength(1);
    const page = screenData(await call(screen.loader, manager, boiler));
    expect(page.canEdit).toBe(true);
    expect(page.record).toMatchObject({ serialNumber: "SN-77", warrantyEndsOn: "2028-01-31" });
    expect(page.record.files.map((f: { name: string }) => f.name)).toEqual(["manual.pdf"]);
  });

  it("keeps a refused form's input and says why beside the field, saving nothing", async () => {
    const answer = await call(screen.action, manager, boiler, formOf({ intent: "record", serialNumber: "SN-99", warrantyEndsOn: "2028-02-30" }));
    expect(screenStatus(answer)).toBe(400);
    const body = screenData(answer);
    expect(body.intent).toBe("record");
    expect(body.result.error.warrantyEndsOn).toEqual(["equipment:validation.date"]);
    expect(body.result.initialValue.serialNumber).toBe("SN-99");
    expect(await stored()).toEqual({ serialNumber: "SN-77", warrantyEndsOn: "2028-01-31", manufacturer: "Buderus" });
  });

  it("shows a technician the record without the form, and refuses their post", async () => {
    const page = screenData(await call(screen.loader, technician, boiler));
    expect(page.canEdit).toBe(false);
    expect(page.record.serialNumber).toBe("SN-77");
    expect(screenLocation(await call(screen.action, technician, boiler, formOf({ intent: "record", serialNumber: "X" })))).toBe("/forbidden");
    expect(await stored()).toEqual({ serialNumber: "SN-77", warrantyEndsOn: "2028-01-31", manufacturer: "Buderus" });
  });

  it("is not found for another entity and out of reach, saving nothing", async () => {
    for (const user of [stranger, unlinked]) {
      expect(screenStatus(await call(screen.loader, user, boiler))).toBe(404);
      expect(screenStatus(await call(screen.action, user, boiler, formOf({ intent: "record", serialNumber: "X" })))).toBe(404);
    }
    expect(await stored()).toEqual({ serialNumber: "SN-77", warrantyEndsOn: "2028-01-31", manufacturer: "Buderus" });
  });
});

describe("/report/{identifier}: the sticker's staff side", () => {
  const open = (code: string, user: User | null) =>
    user
      ? callScreen(report.loader, { access: "public", url: `/report/${code}`, user, params: { identifier: code } })
      : report.loader({ request: new Request(`http://x/report/${code}`, { headers: { "x-language": "en" } }), params: { identifier: code }, context: { ...apiContext(), auth: { user: null, session: null } } } as never);
  const linkOf = async (code: string, user: User | null) => screenData(await open(code, user)).staffLink;

  it("links a signed-in person who reaches the place to the item's screen or the room view", async () => {
    expect(await linkOf(boiler.reportCode!, manager)).toBe(`/view-equipment/${boiler.id}`);
    expect(await linkOf(boiler.reportCode!, technician)).toBe(`/view-equipment/${boiler.id}`);
    expect(await linkOf(roomCode, manager)).toBe(`/view-room/${roomId}`);
  });

  it("shows no link to a visitor, another entity's user or a person who does not reach the room", async () => {
    expect(await linkOf(boiler.reportCode!, null)).toBeNull();
    expect(await linkOf(boiler.reportCode!, stranger)).toBeNull();
    expect(await linkOf(boiler.reportCode!, unlinked)).toBeNull();
    expect(await linkOf(roomCode, unlinked)).toBeNull();
    // The page itself stays the occupiers' page for all of them.
    expect(screenData(await open(boiler.reportCode!, stranger)).place.equipmentItem).toEqual({ name: expect.any(String), internalReference: "BOILER-1" });
  });
});
