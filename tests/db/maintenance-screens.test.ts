import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Role } from "~/db/enums";
import { type Building, type EquipmentItem, incidents, maintenanceTypeChecks, plannedMaintenanceRooms, plannedMaintenances, type Room } from "~/db/schema";
import { gated } from "~/http/gate.server";
import type { AuthUser } from "~/modules/auth/service.server";
import * as addPlan from "~/routes/add-planned-maintenance";
import * as updatePlan from "~/routes/update-planned-maintenance";
import * as updateType from "~/routes/update-maintenance-type";
import * as viewTask from "~/routes/view-task";
import * as inspectionPdf from "~/routes/resources/view-task.$id.$date.inspection[.pdf]";
import * as incidentScreen from "~/routes/incident";
import * as maintenances from "~/routes/maintenances";
import {
  createBuilding,
  createEntity,
  createEquipmentItem,
  createFacility,
  createIncidentType,
  createMaintenanceCheck,
  createMaintenanceType,
  createPlannedMaintenance,
  createRoom,
  createTask,
  createUser,
  linkUserTo,
} from "#tests/factories";
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

describe("/update-maintenance-type/{id}: the inspection checklist", () => {
  it("adds, changes and removes a check with plain posts; a refused one keeps the input and says why", async () => {
    const type = await createMaintenanceType(api.database.db, { entityId: manager.entityId, name: "Extinguishers" });
    const leak = await createIncidentType(api.database.db, { entityId: manager.entityId, nameEn: "Leak" });
    const path = `/update-maintenance-type/${type.id}`;
    const params = { id: String(type.id) };
    const checks = () => api.database.db.select().from(maintenanceTypeChecks).where(eq(maintenanceTypeChecks.maintenanceTypeId, type.id));

    const refused = await call(updateType.action, path, { intent: "add-check", kind: "1", labelNl: "Druk", minValue: "3", maxValue: "2", priority: "2" }, params);
    expect((refused as { init?: { status?: number } }).init?.status).toBe(400);
    expect(dataOf(refused).result.error.maxValue).toEqual(["maintenance:checks.validation.range"]);
    expect(dataOf(refused).result.initialValue).toMatchObject({ labelNl: "Druk", minValue: "3" });
    expect(await checks()).toEqual([]);

    const added = await call(updateType.action, path, { intent: "add-check", kind: "1", label: "Pressure", labelFr: "Pression", labelNl: "Druk", minValue: "1,5", maxValue: "2.5", incidentTypeId: String(leak.id), priority: "3", photoRequired: "on" }, params);
    expect((added as Response).headers.get("location")).toBe(path);
    const [check] = await checks();
    expect(check).toMatchObject({ kind: 1, label: "Pressure", labelFr: "Pression", labelNl: "Druk", minValue: 1.5, maxValue: 2.5, incidentTypeId: leak.id, priority: 3, photoRequired: true });
    const shown = dataOf(await call(updateType.loader, path, undefined, params));
    expect(shown.checks).toMatchObject([{ id: check.id, label: "Pressure" }]);
    expect(shown.incidentTypes).toEqual([{ id: leak.id, name: "Leak" }]);

    await call(updateType.action, path, { intent: "update-check", checkId: String(check.id), kind: "0", label: "Seal intact", priority: "1" }, params);
    expect((await checks())[0]).toMatchObject({ kind: 0, label: "Seal intact", labelFr: null, minValue: null, photoRequired: false, incidentTypeId: null });

    await call(updateType.action, path, { intent: "remove-check", checkId: String(check.id) }, params);
    expect(await checks()).toEqual([]);
  });
});

describe("/view-task/{id}/{date}: an inspection", () => {
  it("is done with the checklist as a plain post: a missing answer keeps the input, a failed check opens an incident linked both ways", async () => {
    const db = api.database.db;
    const type = await createMaintenanceType(db, { entityId: manager.entityId, name: "Fire round" });
    const seal = await createMaintenanceCheck(db, { entityId: manager.entityId, maintenanceTypeId: type.id, position: 0, label: "Seal intact", priority: 2 });
    const bar = await createMaintenanceCheck(db, { entityId: manager.entityId, maintenanceTypeId: type.id, position: 1, kind: 1, label: "Pressure", minValue: 1, maxValue: 3 });
    const plan = await createPlannedMaintenance(db, { entityId: manager.entityId, maintenanceTypeId: type.id, name: "Fire round 2027", roomIds: [room.id], locations: [] });
    const task = await createTask(db, { entityId: manager.entityId, plannedMaintenanceId: plan.id, roomId: room.id, dueDate: "2027-03-01" });
    const path = `/view-task/${plan.id}/2027-03-01`;
    const params = { id: String(plan.id), date: "2027-03-01" };

    const shown = dataOf(await call(viewTask.loader, path, undefined, params));
    expect(shown.inspection.checks).toMatchObject([{ id: seal.id, label: "Seal intact", kind: 0 }, { id: bar.id, label: "Pressure", kind: 1, minValue: 1, maxValue: 3 }]);

    const refused = await call(viewTask.action, path, { intent: "done", taskId: String(task.id), [`checks.${seal.id}`]: "fail", note: "Kept" }, params);
    expect((refused as { init?: { status?: number } }).init?.status).toBe(400);
    expect(dataOf(refused).result.error[`checks.${bar.id}`]).toEqual(["maintenance:checks.validation.answerRequired"]);
    expect(dataOf(refused).result.initialValue).toMatchObject({ note: "Kept", checks: { [seal.id]: "fail" } });

    const done = await call(viewTask.action, path, { intent: "done", taskId: String(task.id), [`checks.${seal.id}`]: "fail", [`checks.${bar.id}`]: "2" }, params);
    expect((done as Response).headers.get("location")).toBe(path);
    const opened = await db.select().from(incidents).where(eq(incidents.title, "Fire round 2027: Seal intact"));
    expect(opened).toHaveLength(1);
    const after = dataOf(await call(viewTask.loader, path, undefined, params));
    expect(after.inspection.answers[task.id].map((a: { answer: string; incident: { id: number } | null }) => [a.answer, a.incident?.id ?? null])).toEqual([
      ["fail", opened[0].id],
      ["2", null],
    ]);
    expect(after.day.tasks[0].signedOffAt).not.toBeNull();
    expect(after.day.tasks[0].signedOffName).toEqual(expect.any(String));
    const incident = dataOf(await call(incidentScreen.loader, `/incident/${opened[0].id}`, undefined, { id: String(opened[0].id) }));
    expect(incident.inspection).toMatchObject({ plannedMaintenanceId: plan.id, dueDate: "2027-03-01", planName: "Fire round 2027", label: "Seal intact" });

    const pdf = (await call(inspectionPdf.loader, `${path}/inspection.pdf?task=${task.id}`, undefined, params)) as Response;
    expect(pdf.headers.get("Content-Type")).toBe("application/pdf");
    expect(pdf.headers.get("Content-Disposition")).toBe(`inline; filename="inspection-${task.id}.pdf"`);
    const before = (await call(inspectionPdf.loader, `${path}/inspection.pdf?to=2027-02-01`, undefined, params)) as Response;
    expect(before.status).toBe(404);
    expect(await before.text()).toBe("Planned maintenance not found");
    expect((await call(inspectionPdf.loader, `/view-task/${plan.id}/2027-03-02/inspection.pdf`, undefined, { id: String(plan.id), date: "2027-03-02" })) as Response).toMatchObject({ status: 404 });
  });
});
