import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Role } from "~/db/enums";
import { type Building, type EquipmentItem, plannedMaintenanceRooms, plannedMaintenances, type Room } from "~/db/schema";
import { gated } from "~/http/gate.server";
import type { AuthUser } from "~/modules/auth/service.server";
import * as addPlan from "~/routes/add-planned-maintenance";
import * as updatePlan from "~/routes/update-planned-maintenance";
import * as maintenances from "~/routes/maintenances";
import { createBuilding, createEntity, createEquipmentItem, createFacility, createMaintenanceType, createPlannedMaintenance, createRoom, createUser, linkUserTo } from "#tests/factories";
import { type ApiHarness, apiContext, startApiRuntime } from "#tests/api-helpers";

/**
 * The maintenance screens' actions as the browser posts them (JavaScript off): the location picker's
 * buttons answer the form again with the input kept and nothing saved, a refused save keeps the input and
 * says why, a good one redirects to the list; a manager's picker holds only what they reach.
 */
type Handler = (args: LoaderFunctionArgs & ActionFunctionArgs) => Promise<unknown>;

let api: ApiHarness;
let manager: AuthUser;
let typeId: number;
let building: Building;
let farBuilding: Building;
let room: Room;
let item: EquipmentItem;

async function call(handler: unknown, path: string, body?: Record<string, string | string[]>, params: Record<string, string> = {}) {
  const form = new URLSearchParams();
  for (const [key, value] of Object.entries(body ?? {})) for (const v of ([] as string[]).concat(value)) form.append(key, v);
  const request = new Request(`http://x${path}`, {
    method: body ? "POST" : "GET",
    headers: { "x-language": "en", ...(body ? { "content-type": "application/x-www-form-urlencoded" } : {}) },
    body: body ? form.toString() : undefined,
  });
  const context = { ...apiContext(), auth: { user: manager, session: null } };
  try {
    return await (gated("manager", handler as Handler) as Handler)({ request, params, context } as unknown as LoaderFunctionArgs & ActionFunctionArgs);
  } catch (thrown) {
    return thrown;
  }
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- loader and action answers, checked by the assertions
const dataOf = (answer: unknown) => ((answer as { data?: unknown })?.data ?? answer) as any;

beforeAll(async () => {
  api = await startApiRuntime();
  const db = api.database.db;
  const entity = await createEntity(db);
  const user = await createUser(db, { entityId: entity.id, role: Role.FACILITY_MANAGER });
  const facility = await createFacility(db, { entityId: entity.id, name: "Campus" });
  building = await createBuilding(db, { entityId: entity.id, facilityId: facility.id, name: "Main" });
  farBuilding = await createBuilding(db, { entityId: entity.id, name: "Far away" });
  await linkUserTo(db, { entityId: entity.id, userId: user.id, facilityId: facility.id });
  room = await createRoom(db, { entityId: entity.id, buildingId: building.id, name: "Boiler room" });
  await createRoom(db, { entityId: entity.id, buildingId: farBuilding.id, name: "Boiler far" });
  item = await createEquipmentItem(db, { entityId: entity.id, roomId: room.id });
  typeId = (await createMaintenanceType(db, { entityId: entity.id, name: "Boilers", roomIds: [room.id], assigneeIds: [user.id], instructions: "Check" })).id;
  manager = { id: user.id, entityId: entity.id, role: Role.FACILITY_MANAGER, sessionId: "test", expiresAt: Date.now() + 3_600_000, timeZone: "Europe/Brussels" };
});
afterAll(async () => {
  await api?.close();
});

const planForm = (extra: Record<string, string | string[]> = {}) => ({
  name: "Boilers 2027",
  maintenanceTypeId: String(typeId),
  startDate: "2027-01-01",
  endDate: "2027-12-31",
  occurrenceUnit: "2",
  occurrenceInterval: "1",
  ...extra,
});

describe("/add-planned-maintenance", () => {
  it("starts from the type of ?type= with its defaults, and the tree holds only the manager's facilities", async () => {
    const data = dataOf(await call(addPlan.loader, `/add-planned-maintenance?type=${typeId}`));
    expect(data.values).toMatchObject({ name: "Boilers", maintenanceTypeId: typeId, instructions: "Check", roomIds: [room.id], assigneeIds: [manager.id] });
    expect(data.tree.facilities.map((f: { name: string }) => f.name)).toEqual(["Campus"]);
    expect(data.tree.chosen.rooms).toMatchObject([{ id: room.id }]);
  });

  it("a building's rooms button answers the form with its rooms and items, the input kept, nothing saved", async () => {
    const answer = dataOf(await call(addPlan.action, "/add-planned-maintenance", planForm({ locBrowse: `building:${building.id}`, roomIds: [String(room.id)] })));
    expect(answer.intent).toBe("create");
    expect(answer.result.initialValue).toMatchObject({ name: "Boilers 2027", roomIds: String(room.id) });
    expect(answer.tree.open).toMatchObject({ id: building.id });
    expect(answer.tree.rooms.items).toMatchObject([{ id: room.id, items: [{ id: item.id }] }]);
    // Another manager's building is not opened.
    const far = dataOf(await call(addPlan.action, "/add-planned-maintenance", planForm({ locBrowse: `building:${farBuilding.id}` })));
    expect(far.tree.open).toBeNull();
    const search = dataOf(await call(addPlan.action, "/add-planned-maintenance", planForm({ locBrowse: "find", locQ: "boiler" })));
    expect(search.tree.rooms.items.map((r: { name: string }) => r.name)).toEqual(["Boiler room"]);
    expect((await api.database.db.select().from(plannedMaintenances).where(eq(plannedMaintenances.entityId, manager.entityId))).length).toBe(0);
  });

  it("a save without a location answers 400 with the Selection message, the input kept", async () => {
    const answer = await call(addPlan.action, "/add-planned-maintenance", planForm({ intent: "create" }));
    expect((answer as { init?: { status?: number } }).init?.status).toBe(400);
    const data = dataOf(answer);
    expect(data.result.error.selection).toEqual(["maintenance:validation.selection"]);
    expect(data.result.initialValue).toMatchObject({ name: "Boilers 2027" });
  });

  it("a good save redirects to the list, and the plan is there", async () => {
    const answer = await call(addPlan.action, "/add-planned-maintenance", planForm({ intent: "create", buildingIds: [String(building.id)], roomIds: [String(room.id)] }));
    expect(answer).toBeInstanceOf(Response);
    expect((answer as Response).headers.get("location")).toBe("/maintenances");
    const list = dataOf(await call(maintenances.loader, "/maintenances?q=2027"));
    expect(list.plans.items).toMatchObject([{ name: "Boilers 2027", maintenanceTypeName: "Boilers" }]);
  });
});

describe("/update-planned-maintenance/{id}", () => {
  it("archives with the retyped name only", async () => {
    const plan = await createPlannedMaintenance(api.database.db, { entityId: manager.entityId, maintenanceTypeId: typeId, name: "Gutters", roomIds: [room.id], locations: [] });
    const params = { id: String(plan.id) };
    const wrong = await call(updatePlan.action, `/update-planned-maintenance/${plan.id}`, { intent: "archive", confirmName: "gutter" }, params);
    expect(dataOf(wrong).result.error.confirmName).toEqual(["common:archive.wrongName"]);
    const done = await call(updatePlan.action, `/update-planned-maintenance/${plan.id}`, { intent: "archive", confirmName: "Gutters" }, params);
    expect((done as Response).headers.get("location")).toBe("/maintenances");
    const [row] = await api.database.db.select().from(plannedMaintenances).where(eq(plannedMaintenances.id, plan.id));
    expect(row.archivedAt).not.toBeNull();
    expect((await api.database.db.select().from(plannedMaintenanceRooms).where(eq(plannedMaintenanceRooms.plannedMaintenanceId, plan.id))).length).toBe(1);
  });
});
