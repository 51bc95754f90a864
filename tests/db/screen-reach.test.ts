import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Role } from "~/db/enums";
import { webhookEndpoints } from "~/db/schema";
import { gated } from "~/http/gate.server";
import type { AuthUser } from "~/modules/auth/service.server";
import { screens } from "~/route-access";
import {
  createBuilding,
  createEntity,
  createEquipmentCategory,
  createEquipmentItem,
  createEquipmentType,
  createFacility,
  createIncident,
  createIncidentType,
  createMaintenanceType,
  createNotification,
  createPlannedMaintenance,
  createRoom,
  createRoomType,
  createTask,
  createUser,
} from "#tests/factories";
import { type ApiHarness, apiContext, type RouteModule, startApiRuntime } from "#tests/api-helpers";

/**
 * Every screen whose address names a record (`/update-incident-type/{id}`, `/incident/{id}`, ...) answers
 * 404 for a record the viewer cannot reach, on GET and for every intent its action declares, helpers
 * included (translate, the pickers, the quantity dialog), an unknown intent and none: the screen's
 * subject is read before anything else (decision 046). The route modules are called directly, behind
 * the access gate as on the server, as an administrator of another entity.
 */
const routeModules = import.meta.glob<RouteModule & { action?: { intents?: readonly string[] } }>("../../app/routes/*.tsx");

/** The day of the tasks `/view-task/{id}/{date}` is asked for. */
const TASK_DATE = "2026-12-01";

let api: ApiHarness;
/** The administrator of entity A, who asks. */
let admin: AuthUser;
/** Entity A's own records, by screen id (the ones the answer is not 404 for). */
const own: Record<string, number> = {};
/** Entity B's records, by screen id. */
const others: Record<string, number> = {};

async function records(entityName: string) {
  const db = api.database.db;
  const entity = await createEntity(db, { name: entityName });
  const person = await createUser(db, { entityId: entity.id, role: Role.ADMINISTRATOR });
  const user = await createUser(db, { entityId: entity.id, role: Role.TECHNICIAN });
  const facility = await createFacility(db, { entityId: entity.id });
  const building = await createBuilding(db, { entityId: entity.id, facilityId: facility.id });
  const roomType = await createRoomType(db, { entityId: entity.id });
  const room = await createRoom(db, { entityId: entity.id, buildingId: building.id });
  const category = await createEquipmentCategory(db, { entityId: entity.id });
  const equipmentType = await createEquipmentType(db, { entityId: entity.id, categoryId: category.id });
  const equipmentItem = await createEquipmentItem(db, { entityId: entity.id, roomId: room.id, equipmentTypeId: equipmentType.id });
  const incidentType = await createIncidentType(db, { entityId: entity.id, nameEn: `Leak ${entityName}` });
  const incident = await createIncident(db, { entityId: entity.id, roomId: room.id, title: `Leak in ${entityName}` });
  const { notifications } = await createNotification(db, { entityId: entity.id, userIds: [person.id] });
  const maintenanceType = await createMaintenanceType(db, { entityId: entity.id, name: `Boilers ${entityName}` });
  const plan = await createPlannedMaintenance(db, { entityId: entity.id, maintenanceTypeId: maintenanceType.id, roomIds: [room.id], locations: [] });
  await createTask(db, { entityId: entity.id, plannedMaintenanceId: plan.id, roomId: room.id, dueDate: TASK_DATE });
  const [webhook] = await db
    .insert(webhookEndpoints)
    .values({ entityId: entity.id, name: `Hook ${entityName}`, url: "https://93.184.216.34/hook", events: ["task.done"], secret: "whsec_test" })
    .returning();
  const ids = {
    "update-user": user.id,
    "update-facility": facility.id,
    "update-building": building.id,
    "update-room-type": roomType.id,
    "update-room": room.id,
    "view-room": room.id,
    "view-equipment": equipmentItem.id,
    "view-facility": facility.id,
    "view-building": building.id,
    "update-category": category.id,
    "update-equipment-type": equipmentType.id,
    "update-incident-type": incidentType.id,
    "update-maintenance-type": maintenanceType.id,
    "update-planned-maintenance": plan.id,
    incident: incident.id,
    notification: notifications[0].id,
    "view-task": plan.id,
    "administration-webhook": webhook.id,
    "administration-service-level-type": incidentType.id,
  };
  return { entity, person, ids };
}

beforeAll(async () => {
  api = await startApiRuntime();
  const a = await records("A");
  const b = await records("B");
  admin = { id: a.person.id, entityId: a.entity.id, role: Role.ADMINISTRATOR, sessionId: "test", expiresAt: Date.now() + 3_600_000, timeZone: "Europe/Brussels" };
  Object.assign(own, a.ids);
  Object.assign(others, b.ids);
});

afterAll(async () => {
  await api?.close();
});

type Handler = (args: LoaderFunctionArgs & ActionFunctionArgs) => Promise<unknown>;

/** The status a gated handler answers (a thrown Response or `data()` counts as an answer). */
async function statusOf(handler: Handler, path: string, id: number, body?: URLSearchParams): Promise<number> {
  const request = new Request(`http://x/${path}`, {
    method: body ? "POST" : "GET",
    headers: { "x-language": "en", ...(body ? { "content-type": "application/x-www-form-urlencoded" } : {}) },
    body: body?.toString(),
  });
  const context = { ...apiContext(), auth: { user: admin, session: null } };
  let answer: unknown;
  try {
    answer = await handler({ request, params: { id: String(id), ...(path.startsWith("view-task/") ? { date: TASK_DATE } : {}) }, context } as unknown as LoaderFunctionArgs & ActionFunctionArgs);
  } catch (thrown) {
    answer = thrown;
  }
  if (answer instanceof Response) return answer.status;
  const status = (answer as { init?: { status?: number } | null } | null)?.init?.status;
  if (typeof status === "number") return status;
  if (answer instanceof Error) throw answer;
  return 200;
}

/** The screens of the route table whose address names a record, with their modules behind the gate. */
async function screensWithId() {
  const found = [];
  for (const screen of screens.filter((s) => /:id(\/|$)/.test(s.path))) {
    const load = routeModules[`../../app/${screen.file}`];
    expect(load, screen.file).toBeDefined();
    const module = await load();
    const intents = module.action?.intents;
    found.push({
      screen,
      loader: gated(screen.access, module.loader as Parameters<typeof gated>[1]) as Handler,
      action: module.action ? (gated(screen.access, module.action as Parameters<typeof gated>[1]) as Handler) : null,
      intents: intents ?? [],
    });
  }
  return found;
}

/** A post of `intent` with a few fields its helpers read (names to translate, a search, a quantity). */
const posted = (intent: string | null) => {
  const body = new URLSearchParams({ nameEn: "Leak", roomQ: "a", assigneeQ: "a", buildingQ: "a", "addEquipment.quantity": "1", confirmName: "x", body: "A comment", locQ: "a" });
  if (intent !== null) body.set("intent", intent);
  return body;
};

describe("a screen with an id, for an id the viewer cannot reach", () => {
  it("answers 404 on GET and for every intent it declares, an unknown one and none", async () => {
    const list = await screensWithId();
    expect(list.map((s) => s.screen.id).sort()).toEqual(Object.keys(others).sort());
    const problems: string[] = [];
    for (const { screen, loader, action, intents } of list) {
      const id = others[screen.id];
      const path = screen.path.replace(":id", String(id)).replace(":date", TASK_DATE);
      const got = await statusOf(loader, path, id);
      if (got !== 404) problems.push(`GET /${path}: ${got}`);
      if (!action) continue;
      expect(intents.length, `${screen.id} declares its intents`).toBeGreaterThan(0);
      for (const intent of [...intents, "unknown", null]) {
        const status = await statusOf(action, path, id, posted(intent));
        if (status !== 404) problems.push(`POST /${path} intent=${intent}: ${status}`);
      }
    }
    expect(problems, problems.join("\n")).toEqual([]);
  });

  it("update-incident-type: translate and the pickers answer 404 for another entity's type, 200 for the viewer's own", async () => {
    const { loader, action, intents } = (await screensWithId()).find((s) => s.screen.id === "update-incident-type")!;
    expect(intents).toEqual(expect.arrayContaining(["translate", "rooms-find", "rooms-next", "assignees-prev", "update", "archive"]));
    for (const intent of ["translate", "rooms-find", "assignees-next"]) {
      expect(await statusOf(action!, `update-incident-type/${others["update-incident-type"]}`, others["update-incident-type"], posted(intent)), intent).toBe(404);
      expect(await statusOf(action!, `update-incident-type/${own["update-incident-type"]}`, own["update-incident-type"], posted(intent)), intent).toBe(200);
    }
    expect(await statusOf(loader, `update-incident-type/${own["update-incident-type"]}`, own["update-incident-type"])).toBe(200);
  });

  it("view-task: the plan's day answers 404 for another entity's plan, 200 for the viewer's own", async () => {
    const { loader } = (await screensWithId()).find((s) => s.screen.id === "view-task")!;
    expect(await statusOf(loader, `view-task/${others["view-task"]}/${TASK_DATE}`, others["view-task"])).toBe(404);
    expect(await statusOf(loader, `view-task/${own["view-task"]}/${TASK_DATE}`, own["view-task"])).toBe(200);
  });

  it("update-room: the building picker and the quantity dialog answer 404 for another entity's room, and answer the viewer's own", async () => {
    const { action } = (await screensWithId()).find((s) => s.screen.id === "update-room")!;
    for (const intent of ["find-building", "more-buildings", "add-equipment"]) {
      expect(await statusOf(action!, `update-room/${others["update-room"]}`, others["update-room"], posted(intent)), intent).toBe(404);
      // The viewer's own room: the form again (the quantity dialog without a chosen equipment is its 400).
      expect(await statusOf(action!, `update-room/${own["update-room"]}`, own["update-room"], posted(intent)), intent).toBe(intent === "add-equipment" ? 400 : 200);
    }
  });

  it("update-user: the buildings' search of the user form answers 404 for another entity's user, 200 for the viewer's own", async () => {
    const { action } = (await screensWithId()).find((s) => s.screen.id === "update-user")!;
    const search = (id: number) => statusOf(action!, `update-user/${id}`, id, new URLSearchParams({ intent: "update", linkAction: "find", linkQ: "a" }));
    expect(await search(others["update-user"])).toBe(404);
    expect(await search(own["update-user"])).toBe(200);
  });
});
