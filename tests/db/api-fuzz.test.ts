import { afterAll, beforeAll, expect, it } from "vitest";
import { Role } from "~/db/enums";
import { materialLines, timeEntries } from "~/db/schema";
import { gated } from "~/http/gate.server";
import { apiRoutes } from "~/route-access";
import {
  createBuilding,
  createEntity,
  createEquipmentCategory,
  createEquipmentType,
  createFacility,
  createIncident,
  createIncidentComment,
  createIncidentType,
  createMaintenanceType,
  createPlannedMaintenance,
  createRoom,
  createRoomType,
  createTask,
  createUser,
} from "#tests/factories";
import { type ApiHarness, type RouteModule, startApiRuntime } from "#tests/api-helpers";
import { rest } from "#tests/db/rest";

/**
 * Hostile input against every call of the REST API (app/route-access.ts), as an administrator: ids that are
 * not ids (2^31, negative, text, a NUL byte), bodies that are not JSON, JSON of the wrong shape or nested
 * 10,000 deep, every usual field set to a NUL byte, a 70,000-character text, a huge or negative number,
 * null, an array or an object, and list parameters out of range. Each call must answer 4xx or 2xx, never a 5xx or an uncaught
 * error. The calls go through the access gate as on the server (it turns database errors caused by input
 * into 400). What each call answers exactly is tested in the api-*.test.ts files.
 */
const routeModules = import.meta.glob<RouteModule>("../../app/routes/api/*.ts");

let api: ApiHarness;
let token: string;
/** Real ids of the entity's records, by route parameter. */
const real: Record<string, string> = {};

beforeAll(async () => {
  api = await startApiRuntime();
  const db = api.database.db;
  const entity = await createEntity(db, { name: "Fuzzed" });
  const admin = await createUser(db, { entityId: entity.id, role: Role.ADMINISTRATOR, email: "fuzz-admin@example.test" });
  const target = await createUser(db, { entityId: entity.id, role: Role.TECHNICIAN, email: "fuzz-target@example.test" });
  const facility = await createFacility(db, { entityId: entity.id });
  const building = await createBuilding(db, { entityId: entity.id, facilityId: facility.id });
  const room = await createRoom(db, { entityId: entity.id, buildingId: building.id });
  const incident = await createIncident(db, { entityId: entity.id, roomId: room.id, title: "Fuzzed" });
  const comment = await createIncidentComment(db, { entityId: entity.id, incidentId: incident.id, authorId: admin.id, body: "A comment" });
  const [entry] = await db.insert(timeEntries).values({ entityId: entity.id, incidentId: incident.id, userId: admin.id, workedOn: "2026-03-02", minutes: 30, createdById: admin.id }).returning();
  const [line] = await db.insert(materialLines).values({ entityId: entity.id, incidentId: incident.id, description: "Seal", quantity: "1", unitCost: "2.50", createdById: admin.id }).returning();
  // One record of every kind a call names by id, so that the bodies reach each call's validation.
  const roomType = await createRoomType(db, { entityId: entity.id });
  const category = await createEquipmentCategory(db, { entityId: entity.id });
  const equipmentType = await createEquipmentType(db, { entityId: entity.id, categoryId: category.id });
  const incidentType = await createIncidentType(db, { entityId: entity.id });
  const maintenanceType = await createMaintenanceType(db, { entityId: entity.id });
  const plan = await createPlannedMaintenance(db, { entityId: entity.id, maintenanceTypeId: maintenanceType.id, roomIds: [room.id], locations: [] });
  const task = await createTask(db, { entityId: entity.id, plannedMaintenanceId: plan.id, roomId: room.id });
  token = await api.token(admin);
  Object.assign(real, {
    entity: String(entity.id),
    user: String(target.id),
    facility: String(facility.id),
    building: String(building.id),
    room: String(room.id),
    incident: String(incident.id),
    commentId: String(comment.id),
    entryId: String(entry.id),
    lineId: String(line.id),
    roomType: String(roomType.id),
    category: String(category.id),
    equipmentType: String(equipmentType.id),
    incidentType: String(incidentType.id),
    maintenanceType: String(maintenanceType.id),
    plan: String(plan.id),
    task: String(task.id),
  });
});

afterAll(async () => {
  await api?.close();
});

const NOT_IDS = ["2147483648", "-1", "abc", "\u0000", "1e3", "9".repeat(30)];
const VALUES: unknown[] = ["\u0000", "x".repeat(70_000), -1, 2 ** 31, 1e308, null, true, [], {}, [{ a: 1 }]];
const FIELDS = [
  "name", "surname", "email", "username", "password", "oldPassword", "newPassword", "role", "language", "status",
  "priority", "assigneeId", "tags", "title", "description", "ids", "facilityId", "buildingId", "roomId", "roomTypeId",
  "typeId", "categoryId", "text", "page", "size", "sort", "dir", "q", "from", "to", "linkedObjects", "translations",
  "token", "refreshToken", "jwtToken", "receiveNotification", "duplicateOfId", "incidentTypeId", "files", "items",
  // Planned maintenance, tasks, webhooks, tokens and settings.
  "startDate", "endDate", "occurrenceInterval", "occurrenceUnit", "timeOfDay", "maintenanceTypeId", "plannedMaintenanceId",
  "roomIds", "equipmentItemIds", "equipmentItemId", "locations", "assignees", "instructions", "note", "date", "events", "url",
  "scopes", "expiresAt", "timeZone", "enabled", "format", "kind", "count",
  // Time and costs: rates, downtime.
  "currency", "defaultRate", "rates", "equipmentDown", "downtimeMinutes", "downtimeHours",
];
const BODIES: (string | undefined)[] = [
  undefined,
  "{not json",
  "\u0000",
  "[]",
  "null",
  '"text"',
  ...VALUES.map((value) => JSON.stringify(Object.fromEntries(FIELDS.map((field) => [field, value])))),
  // Nested 10,000 deep: overflowed the stack of the control-character check (500) before bodies were bounded.
  `{"name":${"[".repeat(10_000)}"x"${"]".repeat(10_000)},"description":${'{"a":'.repeat(10_000)}1${"}".repeat(10_000)}}`,
];
const QUERIES = ["", "?size=-1&page=0", "?size=1e9&page=2147483648", "?sort=%00&dir=sideways&status=9&status=x", "?q=%00%ff&from=2026-99-99&to=x&facilityId=abc&cursor=%E0%A4"];

/** The record id a route parameter takes: the record's own parameter name, or the route's main record. */
function realId(routePath: string, param: string): string {
  if (param === "commentId") return real.commentId;
  if (param === "entryId") return real.entryId;
  if (param === "lineId") return real.lineId;
  if (param === "fileId") return "1";
  if (param === "tag") return "fuzz";
  const first = routePath.split("/")[0];
  const byPath: Record<string, string> = { entities: real.entity, users: real.user, incidents: real.incident, "incident-types": real.incidentType, tasks: real.task };
  if (routePath.startsWith("facilities/buildings/")) return real.building;
  if (routePath.startsWith("facilities/rooms/roomtype/")) return real.roomType;
  if (routePath.startsWith("equipments/type/")) return real.equipmentType;
  if (routePath.startsWith("equipments/category/")) return real.category;
  if (routePath.startsWith("maintenances/types/")) return real.maintenanceType;
  if (routePath.startsWith("maintenances/planned/")) return real.plan;
  if (routePath.startsWith("facilities/rooms/")) return real.room;
  if (routePath.startsWith("facilities/")) return real.facility;
  return byPath[first] ?? "1";
}

/** The status the handler answers, or what it threw (a thrown Response, or `data()`, counts as an answer). */
async function statusOf(handler: ReturnType<typeof gated>, method: string, url: string, params: Record<string, string>, body: string | undefined): Promise<number | string> {
  try {
    return (await rest(handler, { method, url, params, bearer: token, raw: body, context: { auth: { user: null, session: null } } })).status;
  } catch (thrown) {
    return `threw ${thrown instanceof Error ? `${thrown.name}: ${thrown.message}` : String(thrown)}`.slice(0, 200);
  }
}

it("answers every call's hostile input with a 4xx or 2xx, never a 5xx or an uncaught error", async () => {
  const problems: string[] = [];
  /** The kinds of answer seen (200, 400): the token works and the calls got past authentication. */
  const seen = new Set<number>();
  let calls = 0;
  for (const route of apiRoutes) {
    if (route.path === "*") continue;
    const load = routeModules[`../../app/${route.file}`];
    expect(load, route.file).toBeDefined();
    const module = await load();
    // Behind the gate, as the server build's routes are (secureBuild).
    const loader = module.loader ? gated(route.access, module.loader as Parameters<typeof gated>[1]) : null;
    const action = module.action ? gated(route.access, module.action as Parameters<typeof gated>[1]) : null;
    const names = [...route.path.matchAll(/:(\w+)/g)].map((m) => m[1]);
    const paramSets = [Object.fromEntries(names.map((name) => [name, realId(route.path, name)])), ...(names.length > 0 ? NOT_IDS.map((bad) => Object.fromEntries(names.map((name) => [name, bad]))) : [])];
    for (const params of paramSets) {
      const url = `/api/${route.path.replace(/:(\w+)/g, (_, name: string) => encodeURIComponent(params[name]))}`;
      const isReal = params === paramSets[0];
      const tries: [string, string, string | undefined][] = [];
      if (loader) for (const query of isReal ? QUERIES : [""]) tries.push(["GET", url + query, undefined]);
      if (action) for (const method of ["POST", "PUT", "PATCH", "DELETE"]) for (const body of isReal ? BODIES : [BODIES[0], BODIES[6]]) tries.push([method, url, body]);
      for (const [method, address, body] of tries) {
        calls++;
        const status = await statusOf((method === "GET" ? loader : action)!, method, address, params, body);
        seen.add(typeof status === "number" ? Math.floor(status / 100) * 100 : 0);
        if (typeof status === "string" || status >= 500) problems.push(`${method} ${JSON.stringify(address)} ${JSON.stringify(body)?.slice(0, 80)}: ${status}`);
      }
    }
  }
  expect(problems, problems.join("\n")).toEqual([]);
  expect(calls).toBeGreaterThan(1000);
  expect([...seen].sort()).toEqual([200, 400]);
  if (process.env.SHOW) console.log({ calls });
}, 300_000);
