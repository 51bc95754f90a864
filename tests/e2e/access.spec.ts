import type { APIRequestContext, APIResponse } from "@playwright/test";
import { apiRoutes, resources, type Screen, screens } from "../../app/route-access";
import { accounts, expect, test, unique } from "./fixtures";
import { apiLogin, webSession } from "./helpers";

/**
 * The whole route table against SPEC.md section 6, over HTTP only (no page is rendered in a browser).
 * The routes walked are those of `app/route-access.ts`; who may open each is written out below from
 * SPEC.md (`SPEC_ACCESS`), never read from route-access.ts, so a wrong access level there fails here (a
 * new screen needs its line in `SPEC_ACCESS`, and one with an `:id` that loads a record a demo id, or
 * its test fails saying so).
 *
 * For every screen and every role (signed out, technician, facility manager, administrator, and the
 * administrator of the second entity using the first entity's ids):
 * - signed out: a secured screen redirects to /login; a visitor or public screen answers;
 * - technician: a manager-only screen redirects to /forbidden, a room outside their linked facilities and
 *   buildings too; the other screens answer;
 * - facility manager outside their linked facilities (decision 022; a facility, building and room the
 *   administrator adds in beforeAll): the forms answer 404, the room view redirects to /forbidden;
 * - a signed-in user opening a visitor screen (login, signup, ...) is sent home (/);
 * - another entity's ids: 404;
 * - every spelling of a refused address (upper case, mixed case, a percent-encoded letter, a trailing
 *   slash, a double trailing slash, the single-fetch data address `.data`, and a POST) is refused the
 *   same way as the canonical address: the refusal belongs to the route, not to the text of the path.
 * The REST API (under /api): 401 without a bearer token (except the calls SPEC.md section 7 sends
 * without one), another entity's ids 404, a technician's or manager's unreachable facility, building 404,
 * room 403, the users and incident types calls for managers only 403 to a technician (the assignees and
 * the reportable incident types are for everyone; a room a technician cannot reach is 404 there).
 *
 * The test only reads and never signs out the sessions it uses (GET /logout and the REST logout would
 * revoke them), and skips the JavaScript-off project: it renders nothing, so the two would be the same.
 */

type RoleName = "visitor" | "technician" | "manager" | "admin" | "other";
const ROLES: RoleName[] = ["visitor", "technician", "manager", "admin", "other"];

/** What an address answered, reduced to what section 6 speaks of. */
type Outcome = "ok" | "login" | "forbidden" | "home" | "notFound" | "error" | `status ${number}` | `redirect ${string}`;

/** The kinds of record a screen's `:id` names, with where the demo data holds one. */
type Kind = "entity" | "facility" | "building" | "room" | "equipmentItem" | "roomType" | "equipmentType" | "category" | "user" | "incidentType" | "incident"
  | "notification" | "notificationOwner" | "taskDay" | "task" | "maintenanceType" | "plannedMaintenance" | "webhook";

/**
 * Screens whose `:id` loads a record of the first entity. Every screen with a parameter must be here.
 */
const ID_KINDS: Record<string, Kind> = {
  "update-facility": "facility",
  "update-building": "building",
  "update-room": "room",
  "view-room": "room",
  "view-equipment": "equipmentItem",
  "view-facility": "facility",
  "view-building": "building",
  "update-room-type": "roomType",
  "update-equipment-type": "equipmentType",
  "update-category": "category",
  "update-user": "user",
  "update-incident-type": "incidentType",
  "administration-service-level-type": "incidentType",
  "update-maintenance-type": "maintenanceType",
  "update-planned-maintenance": "plannedMaintenance",
  incident: "incident",
  "incident-work-order": "incident",
  "incident-assignee-options": "incident",
  // One of the technician's own notifications: everyone else's 404 (issue #14).
  notification: "notification",
  // A planned maintenance with a task the technician reaches, on that task's day (`taskDate`).
  "view-task": "taskDay",
  "task-inspection-report": "taskDay",
  // A webhook endpoint the administrator registers for the walk (none in the demo data).
  "administration-webhook": "webhook",
};

/**
 * Who may open each screen and secured resource route, from SPEC.md (not from route-access.ts):
 * - `user`: section 2 "Open to any signed-in user (including technicians)", the tutorial of its menu, and
 *   the resources of those screens (files, the bug report dialog, pickers, the work order), and the staff's scan
 *   screen (issue 64: "a Scan button in the staff shell");
 * - `manager`: section 2 "Facility manager and administrator only" (section 6: everyone else is sent to the
 *   forbidden page), the export tab of /import-data, the API tokens managers see (decision 056), and the
 *   downloads of those screens (dashboard CSV, sticker PDFs, import templates);
 * - `admin`: webhooks and the audit history (decision 057): a facility manager is sent to the forbidden page;
 * - `visitor`: section 6 "Unauthenticated visitors reach only login, signup, password reset" (and sign-up's
 *   success step): a signed-in user goes home;
 * - `public`: the forbidden page, the occupier's pages of a QR code, sign-up's e-mail check.
 */
type SpecAccess = "user" | "manager" | "admin" | "visitor" | "public";
const SPEC_ACCESS: Record<string, SpecAccess> = {
  home: "user", settings: "user", notifications: "user", notification: "user", "view-room": "user", "view-equipment": "user", "view-facility": "user", "view-building": "user", task: "user",
  "view-task": "user", incidents: "user", incident: "user", tutorial: "user", scan: "user", offline: "user",
  file: "user", "report-issue": "user", "building-options": "user", "incident-work-order": "user", "incident-assignee-options": "user",
  "task-inspection-report": "user", "offline-pages": "user",
  administration: "manager", configuration: "manager", dashboard: "manager", users: "manager", "add-user": "manager",
  "update-user": "manager", "import-data": "manager", facilities: "manager", "add-facility": "manager", "update-facility": "manager",
  "add-building": "manager", "update-building": "manager", "add-room-type": "manager", "update-room-type": "manager",
  "add-room": "manager", "update-room": "manager", "room-type": "manager", equipments: "manager", "add-generic-equipment": "manager",
  "update-equipment-type": "manager", "update-category": "manager", "add-equipment-category": "manager", maintenances: "manager",
  "add-maintenance-type": "manager", "update-maintenance-type": "manager", "add-planned-maintenance": "manager",
  "update-planned-maintenance": "manager", printing: "manager", "add-incident-type": "manager", "update-incident-type": "manager",
  "import-data-export": "manager", "administration-api-tokens": "manager",
  "dashboard-csv": "manager", "printing-qr-codes": "manager", "printing-explanatory-stickers": "manager", "import-template": "manager",
  "administration-webhooks": "admin", "administration-webhook": "admin", "administration-audit": "admin", "administration-service-levels": "admin", "administration-rates": "admin",
  "administration-service-level-type": "admin",
  login: "visitor", signup: "visitor", "password-reset": "visitor", "signup-success": "visitor",
  forbidden: "public", report: "public", "report-status": "public", "signup-verify": "public",
};

/**
 * Public screens named by a secret code or token in their address (the occupier's report page and
 * report status page, issue #13): a made-up one is their friendly 404 page, for everyone alike.
 */
const PUBLIC_BY_CODE = new Set(["report", "report-status"]);

/** The REST routes SPEC.md section 7 calls without a bearer token. */
const API_WITHOUT_TOKEN = new Set(["api-login", "api-refresh-token", "api-logout", "api-users-password", "api-users-password-reset", "api-openapi", "api-docs"]);
/** REST routes whose `:id` loads a record of the first entity. */
const API_ID_KINDS: Record<string, Kind> = {
  "api-entity": "entity",
  "api-entity-sticker": "entity",
  "api-entity-hourly-rates": "entity",
  "api-facility": "facility",
  "api-building": "building",
  "api-room": "room",
  "api-room-type": "roomType",
  "api-equipment-type": "equipmentType",
  "api-equipment-item": "equipmentItem",
  "api-equipment-item-children": "equipmentItem",
  "api-equipment-category": "category",
  "api-user": "user",
  "api-incident-type": "incidentType",
  "api-maintenance-type": "maintenanceType",
  "api-maintenance-type-checklist": "maintenanceType",
  "api-planned-maintenance": "plannedMaintenance",
  "api-incident-types-reportable": "room",
  "api-incident": "incident",
  "api-incident-assignees": "incident",
  "api-incident-comments": "incident",
  "api-incident-events": "incident",
  "api-incident-work-order": "incident",
  "api-incident-time-entries": "incident",
  "api-incident-material-lines": "incident",
  // A task's time and material (issue 62): the technician's task, another entity's is not found.
  "api-task-time-entries": "task",
  "api-task-material-lines": "task",
  // The technician's own notifications (issue #14): another user of the entity 403, another entity 404.
  "api-user-notifications": "notificationOwner",
  "api-user-notifications-count": "notificationOwner",
  // One's own running clock (issue 62): alike.
  "api-user-clock": "notificationOwner",
};
/**
 * REST routes that name their record in the query instead of the path (`?roomId=`): the parameter,
 * filled like an `:id` of the kind in API_ID_KINDS. A record the caller cannot reach is 404 there.
 */
const API_QUERY_ID: Record<string, string> = { "api-incident-types-reportable": "roomId" };
/** REST routes for managers and administrators only: a technician gets 403. */
const API_MANAGER_ONLY = new Set([
  "api-users",
  "api-user",
  "api-incident-types",
  "api-incident-type",
  "api-dashboard",
  "api-maintenance-types",
  "api-maintenance-type",
  "api-maintenance-type-checklist",
  "api-planned-maintenances",
  "api-planned-maintenance",
  "api-printing-status",
  "api-exports",
  "api-export",
  "api-export-file",
  "api-imports",
  "api-import",
]);
/** REST routes for administrators alone (the hourly rates, decision 065): a technician and a manager get 403. */
const API_ADMIN_ONLY = new Set(["api-entity-hourly-rates"]);
/**
 * REST routes whose `:id` names a background job (an export, an import): the demo data has none, so any
 * id is not found to those who may call them, and a technician is refused before any id is read.
 */
const API_JOB_IDS = new Set(["api-export", "api-export-file", "api-import"]);
/** REST routes with no GET (only PUT/POST/PATCH/DELETE): a GET answers 405 to a signed-in user. */
const API_WITHOUT_GET = new Set([
  "api-user-password",
  "api-user-status",
  "api-user-invitation",
  "api-equipment-type-tags",
  "api-equipment-type-tag",
  "api-incident-types-translate",
  "api-incidents-bulk",
  "api-incident-status",
  "api-incident-priority",
  "api-incident-downtime",
  "api-incident-assignee",
  "api-incident-tags",
  "api-incident-tag",
  "api-incident-duplicate",
  "api-incident-comment",
  "api-incident-files",
  "api-incident-file",
  "api-incident-time-entry",
  "api-incident-material-line",
  "api-user-notifications-read",
  "api-task-status",
  "api-task-time-entry",
  "api-task-material-line",
  "api-incident-clock-start",
  "api-incident-clock-stop",
  "api-task-clock-start",
  "api-task-clock-stop",
  "api-printing-qr-codes",
  "api-printing-explanatory-stickers",
]);

interface DemoIds {
  /** One record of each kind in the first entity, within the technician's reach where that applies. */
  reachable: Record<Kind, number>;
  /** Records of the first entity outside the technician's linked facilities and buildings (an incident neither there nor assigned to them). */
  unreachable: { facility: number; building: number; room: number; equipmentItem: number; incident: number };
  /** Records of the first entity outside the facility manager's linked facilities (made by the administrator). */
  outsideManager: { facility: number; building: number; room: number; equipmentItem: number };
  /** The day of the `taskDay` record's task. */
  taskDate: string;
}

let origin: string;
let contexts: Record<RoleName, APIRequestContext>;
let tokens: Record<Exclude<RoleName, "visitor">, string>;
let ids: DemoIds;
let techUserId: number;

test.skip(({ javaScriptEnabled }) => javaScriptEnabled === false, "HTTP only: the same with JavaScript on and off");

test.beforeAll(async ({ server }) => {
  origin = new URL(server.url).origin;
  const session = (email: string | null) => webSession(server.url, email);
  const [visitor, technician, manager, admin, other] = await Promise.all([
    session(null),
    session(accounts.technician),
    session(accounts.manager),
    session(accounts.admin),
    session(accounts.other),
  ]);
  contexts = { visitor, technician, manager, admin, other };
  const token = async (email: string) => (await apiLogin(visitor, email)).token;
  tokens = {
    technician: await token(accounts.technician),
    manager: await token(accounts.manager),
    admin: await token(accounts.admin),
    other: await token(accounts.other),
  };
  techUserId = (await apiLogin(visitor, accounts.technician)).userId;
  ids = await demoIds();
});

test.afterAll(async () => {
  await Promise.all(Object.values(contexts ?? {}).map((c) => c.dispose()));
});

/** Reads ids from the demo data through the REST API: the administrator's view and the technician's. */
async function demoIds(): Promise<DemoIds> {
  const list = async (role: "admin" | "technician", path: string) => {
    const res = await contexts.visitor.get(`/api/${path}`, { headers: { authorization: `Bearer ${tokens[role]}` } });
    expect(res.status(), `GET /api/${path} as ${role}`).toBe(200);
    return (await res.json()) as Record<string, unknown>[];
  };
  type Row = { id: number; facilityId?: number; buildingId?: number; entityId?: number };
  const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
  const techTasks = (await list("technician", `tasks?from=${day(-180)}&to=${day(180)}`)) as { id: number; plannedMaintenanceId: number; dueDate: string }[];
  expect(techTasks.length, "the demo data has a task the technician reaches").toBeGreaterThan(0);
  const [facilities, buildings, rooms, roomTypes, equipmentTypes, categories, users, incidentTypes, techFacilities, techBuildings, techRooms, incidents, techIncidents, techNotifications, maintenanceTypes, plannedMaintenances] = (await Promise.all([
    list("admin", "facilities?size=100"),
    list("admin", "facilities/buildings?size=100"),
    list("admin", "facilities/rooms?size=100"),
    list("admin", "facilities/rooms/roomtype?size=100"),
    list("admin", "equipments/type?size=100"),
    list("admin", "equipments/category?size=100"),
    list("admin", "users?size=100"),
    list("admin", "incident-types?size=100"),
    list("technician", "facilities?size=100"),
    list("technician", "facilities/buildings?size=100"),
    list("technician", "facilities/rooms?size=100"),
    list("admin", "incidents?size=100"),
    list("technician", "incidents?size=100"),
    list("technician", `users/${techUserId}/notifications?size=1`),
    list("admin", "maintenances/types?size=1"),
    list("admin", "maintenances/planned?size=1"),
  ])) as Row[][];
  const first = (rows: Row[], what: string) => {
    expect(rows.length, `the demo data has a ${what}`).toBeGreaterThan(0);
    return rows[0];
  };
  const seen = (rows: Row[]) => new Set(rows.map((r) => r.id));
  const techF = seen(techFacilities);
  const techB = seen(techBuildings);
  const techR = seen(techRooms);
  const techI = seen(techIncidents);
  // The demo manager is linked to every demo facility: the administrator adds one they are not linked to.
  const post = async (path: string, data: Record<string, unknown>) => {
    const res = await contexts.visitor.post(`/api/${path}`, { headers: { authorization: `Bearer ${tokens.admin}` }, data });
    expect(res.status(), `POST /api/${path} as admin`).toBe(201);
    return ((await res.json()) as Row).id;
  };
  const outsideFacility = await post("facilities", { name: unique("Zz outside the manager's reach") });
  const outsideBuilding = await post("facilities/buildings", { name: "Zz outside building", facilityId: outsideFacility });
  // A webhook of the first entity (the e2e server lets webhooks reach loopback; port 9 answers nothing).
  const registered = await contexts.admin.post("/administration/webhooks", {
    form: { intent: "create", name: unique("Access walk"), url: "http://127.0.0.1:9/hook", events: "task.done" },
    headers: { origin },
  });
  expect(registered.status(), "POST /administration/webhooks as admin").toBe(200);
  const webhookPage = await (await contexts.admin.get("/administration/webhooks")).text();
  const webhook = Number(/\/administration\/webhooks\/(\d+)/.exec(webhookPage)?.[1]);
  expect(webhook, "the registered webhook is listed").toBeGreaterThan(0);
  const outsideRoom = await post("facilities/rooms", {
    name: "Zz outside room",
    floor: "0",
    buildingId: outsideBuilding,
    roomTypeId: first(roomTypes, "room type").id,
    roomEquipments: [{ equipmentTypeId: first(equipmentTypes, "generic equipment").id, internalReferences: ["ZZ-1"] }],
  });
  // An equipment item in a room of each kind (the rooms' equipment, GET /equipments?roomIds=).
  const itemIn = async (roomIds: number[], what: string) => {
    for (const roomId of roomIds.slice(0, 20)) {
      const items = await list("admin", `equipments?roomIds=${roomId}`);
      if (items.length > 0) return (items[0] as Row).id;
    }
    throw new Error(`the demo data has an equipment item in a ${what}`);
  };
  const reachableItem = await itemIn([...techR], "room the technician reaches");
  const unreachableItem = await itemIn(rooms.filter((r) => !techR.has(r.id)).map((r) => r.id), "room the technician does not reach");
  const outsideItem = await itemIn([outsideRoom], "room outside the manager's reach");
  return {
    reachable: {
      entity: first(facilities, "facility").entityId!,
      facility: first(techFacilities, "facility the technician reaches").id,
      building: first(techBuildings, "building the technician reaches").id,
      room: first(techRooms, "room the technician reaches").id,
      equipmentItem: reachableItem,
      roomType: first(roomTypes, "room type").id,
      equipmentType: first(equipmentTypes, "generic equipment").id,
      category: first(categories, "equipment category").id,
      user: first(users, "user").id,
      incidentType: first(incidentTypes, "incident type").id,
      incident: first(techIncidents, "incident the technician reaches").id,
      notification: first(techNotifications, "notification of the technician").id,
      notificationOwner: techUserId,
      taskDay: techTasks[0].plannedMaintenanceId,
      task: techTasks[0].id,
      maintenanceType: first(maintenanceTypes, "maintenance type").id,
      plannedMaintenance: first(plannedMaintenances, "planned maintenance").id,
      webhook,
    },
    unreachable: {
      facility: first(facilities.filter((f) => !techF.has(f.id)), "facility the technician does not reach").id,
      building: first(buildings.filter((b) => !techB.has(b.id)), "building the technician does not reach").id,
      room: first(rooms.filter((r) => !techR.has(r.id)), "room the technician does not reach").id,
      equipmentItem: unreachableItem,
      incident: first(incidents.filter((i) => !techI.has(i.id)), "incident the technician does not reach").id,
    },
    outsideManager: { facility: outsideFacility, building: outsideBuilding, room: outsideRoom, equipmentItem: outsideItem },
    taskDate: techTasks[0].dueDate,
  };
}

// ---------------------------------------------------------------------------
// Outcomes
// ---------------------------------------------------------------------------
function redirectOutcome(location: string): Outcome {
  const target = new URL(location, "http://x").pathname;
  if (target === "/login") return "login";
  if (target === "/forbidden") return "forbidden";
  if (target === "/") return "home";
  return `redirect ${target}`;
}

/** Reduces an answer to an outcome; single-fetch data (`.data`) encodes a redirect in a 202 body. */
async function outcomeOf(res: APIResponse): Promise<Outcome> {
  const status = res.status();
  if (status >= 300 && status < 400) return redirectOutcome(res.headers().location ?? "");
  if (status === 202 && (res.headers()["content-type"] ?? "").startsWith("text/x-script")) {
    const body = await res.text();
    const match = /"SingleFetchRedirect".*?"redirect","([^"]*)"/.exec(body);
    if (match) return redirectOutcome(match[1]);
  }
  if (status === 200) return "ok";
  if (status === 404) return "notFound";
  if (status >= 500) return "error";
  return `status ${status}`;
}

/** Whether an outcome gives the user the screen (an answer, or a redirect that is no refusal). */
const isAllowed = (o: Outcome) => o === "ok" || o.startsWith("redirect ");

// ---------------------------------------------------------------------------
// Addresses
// ---------------------------------------------------------------------------
type Target = "reachable" | "unreachable" | "outsideManager" | "none";
/** The kinds of record that lie in the facility tree, where reach applies. */
const TREE_KINDS = new Set<Kind>(["facility", "building", "room", "equipmentItem"]);

function fill(path: string, screenId: string, kinds: Record<string, Kind>, target: Target): string {
  const kind = kinds[screenId];
  return path.replace(/:(\w+)/g, (_, name: string) => {
    if (name === "date") return kind === "taskDay" && target !== "none" ? ids.taskDate : "2026-01-15";
    if (screenId === "file") return "00000000-0000-4000-8000-000000000000";
    if (screenId === "import-template") return "rooms.xlsx";
    if (!kind || target === "none") return "1";
    if (target === "unreachable" || target === "outsideManager") {
      const id = (ids[target] as Record<string, number>)[kind];
      if (id === undefined) throw new Error(`no ${target} ${kind}`);
      return String(id);
    }
    return String(ids.reachable[kind]);
  });
}

const alternateCase = (s: string) => [...s].map((c, i) => (i % 2 ? c.toLowerCase() : c.toUpperCase())).join("");

/** The spellings of an address that Remix matches to the same route. */
function variants(path: string): { name: string; path: string }[] {
  if (path === "/") return [{ name: "data", path: "/_root.data" }];
  const encoded = `/%${path.charCodeAt(1).toString(16)}${path.slice(2)}`;
  return [
    { name: "upper case", path: path.toUpperCase() },
    { name: "mixed case", path: alternateCase(path) },
    { name: "percent-encoded letter", path: encoded },
    { name: "trailing slash", path: `${path}/` },
    { name: "double trailing slash", path: `${path}//` },
    { name: "data", path: `${path}.data` },
    { name: "upper-case data", path: `${path.toUpperCase()}.data` },
  ];
}

// ---------------------------------------------------------------------------
// Expectations (SPEC.md section 6)
// ---------------------------------------------------------------------------
/** Section 6: facility-manager capabilities are granted to managers and administrators ("other" is one). */
const isManagerRole = (role: RoleName) => role === "manager" || role === "admin" || role === "other";
const isAdministratorRole = (role: RoleName) => role === "admin" || role === "other";

/**
 * What `role` gets on `screen`: an outcome, "allowed" (an answer or a redirect that is no refusal) or
 * "answers" (a public page: any answer but the login page, a 404 or a server error; the forbidden page
 * itself answers 403, the sign-up check without a token 400).
 */
type Expectation = Outcome | "allowed" | "answers";

function expected(screen: Screen, role: RoleName, target: Target): Expectation {
  const access = SPEC_ACCESS[screen.id];
  if (access === "public") return PUBLIC_BY_CODE.has(screen.id) ? "notFound" : "answers";
  if (role === "visitor") return access === "visitor" ? "allowed" : "login";
  if (access === "visitor") return "home";
  if (access === "manager" && !isManagerRole(role)) return "forbidden";
  if (access === "admin" && !isAdministratorRole(role)) return "forbidden";
  // No stored file in the demo data: an unknown file is 404 (who may read which file: app/modules/files tests).
  if (screen.id === "file") return "notFound";
  if (role === "other" && ID_KINDS[screen.id]) return "notFound";
  // A notification is its recipient's alone: everyone else finds none.
  if (ID_KINDS[screen.id] === "notification" && role !== "technician") return "notFound";
  // An incident out of reach is not found, as another entity's is (decision 022).
  // The room view answers the forbidden page outside the reach (decision 022); the facility and building views, like an incident, are not found.
  if (role === "technician" && target === "unreachable") return screen.id === "view-room" ? "forbidden" : "notFound";
  // A manager outside their linked facilities: the room view refuses as it does a technician, the forms find nothing.
  if (role === "manager" && target === "outsideManager") return screen.id === "view-room" ? "forbidden" : "notFound";
  return "allowed";
}

/** The screens and the secured resource routes (files, report issue) to walk. */
const walked = [
  ...screens,
  // The secured resource routes, and any the expectations name (a route wrongly made public is walked still).
  ...resources.filter((r) => ((r.access === "user" || r.access === "manager" || r.access === "admin") && r.path !== "" && r.path !== "*") || SPEC_ACCESS[r.id]),
];

test("every screen walked has its expected access written out from SPEC.md, and no other", () => {
  expect(walked.map((s) => s.id).filter((id) => !SPEC_ACCESS[id]), "add these to SPEC_ACCESS in tests/e2e/access.spec.ts").toEqual([]);
  expect(Object.keys(SPEC_ACCESS).filter((id) => !walked.some((s) => s.id === id)), "routes SPEC_ACCESS names that the route table lacks").toEqual([]);
});

test("every screen with an :id that loads a record has a demo id", () => {
  const missing = screens.filter((s) => /:id(\/|$)/.test(s.path) && !ID_KINDS[s.id]).map((s) => s.id);
  expect(missing, "add these screens to ID_KINDS in tests/e2e/access.spec.ts").toEqual([]);
  const apiMissing = apiRoutes
    .filter((r) => r.path.includes(":id") && !API_ID_KINDS[r.id] && !API_WITHOUT_GET.has(r.id) && !API_WITHOUT_TOKEN.has(r.id) && !API_JOB_IDS.has(r.id))
    .map((r) => r.id);
  expect(apiMissing, "add these REST routes to API_ID_KINDS in tests/e2e/access.spec.ts").toEqual([]);
});

async function check(role: RoleName, path: string, want: Expectation, label: string, method: "GET" | "POST" = "GET") {
  const context = contexts[role];
  const res =
    method === "GET"
      ? await context.get(path)
      : await context.post(path, { multipart: { intent: "probe" }, headers: { origin } });
  const got = await outcomeOf(res);
  const message = `${role} ${method} ${path} (${label})`;
  // A route without an action refuses every POST with 405 before any rule applies: a refusal too.
  if (method === "POST" && want !== "allowed" && got === "status 405") return;
  if (want === "answers") expect.soft(["login", "notFound", "error"].includes(got) ? got : "answers", message).toBe("answers");
  else if (want === "allowed") expect.soft(isAllowed(got) ? "allowed" : got, message).toBe("allowed");
  else expect.soft(got, message).toBe(want);
}

for (const screen of walked) {
  const hasRecord = Boolean(ID_KINDS[screen.id]);
  // A technician reaches rooms of their linked facilities and buildings only (SPEC.md section 6).
  const techTargets: Target[] =
    hasRecord && (ID_KINDS[screen.id] === "room" || ID_KINDS[screen.id] === "equipmentItem" || ID_KINDS[screen.id] === "incident" || screen.id === "view-facility" || screen.id === "view-building") ? ["reachable", "unreachable"] : [hasRecord ? "reachable" : "none"];
  // So does a facility manager, and only the facilities, buildings and rooms they reach can they edit.
  const managerTargets: Target[] = hasRecord && TREE_KINDS.has(ID_KINDS[screen.id]) ? ["reachable", "outsideManager"] : [hasRecord ? "reachable" : "none"];

  test.describe(`/${screen.path} (${screen.id}, ${screen.access})`, () => {
    for (const role of ROLES) {
      const targets: Target[] = role === "technician" ? techTargets : role === "manager" ? managerTargets : [hasRecord ? "reachable" : "none"];
      for (const target of targets) {
        const title = `${role}${target === "unreachable" || target === "outsideManager" ? ", outside their facilities" : ""}`;
        test(title, async () => {
          const path = `/${fill(screen.path, screen.id, ID_KINDS, target)}`;
          const want = expected(screen, role, target);
          await check(role, path, want, "canonical");
          // Every spelling of a refused address is refused alike (signed out, technicians); the
          // others get the canonical address only, to keep the walk fast.
          if (want !== "allowed" && want !== "answers" && (role === "visitor" || role === "technician")) {
            for (const v of variants(path)) await check(role, v.path, want, v.name);
            await check(role, path, want, "post", "POST");
          }
        });
      }
    }
  });
}

// ---------------------------------------------------------------------------
// REST API
// ---------------------------------------------------------------------------
function expectedApi(route: Screen, role: RoleName, target: Target): Outcome | "allowed" {
  if (API_WITHOUT_TOKEN.has(route.id)) return "allowed";
  if (role === "visitor") return "status 401";
  if (route.path === "*") return "notFound";
  if (API_WITHOUT_GET.has(route.id)) return "status 405";
  const kind = API_ID_KINDS[route.id];
  if (role === "other" && kind) return "notFound";
  if (role === "technician" && API_MANAGER_ONLY.has(route.id)) return "status 403";
  if ((role === "technician" || role === "manager") && API_ADMIN_ONLY.has(route.id)) return "status 403";
  if (API_JOB_IDS.has(route.id)) return "notFound";
  // Only the technician's own notifications are theirs: another user of the entity is refused.
  if (kind === "notificationOwner" && role !== "technician") return "status 403";
  if (role === "technician" && target === "unreachable") return kind === "room" && !API_QUERY_ID[route.id] ? "status 403" : "notFound";
  if (role === "manager" && target === "outsideManager") return kind === "room" && !API_QUERY_ID[route.id] ? "status 403" : "notFound";
  return "allowed";
}

async function checkApi(role: RoleName, path: string, want: Outcome | "allowed", label: string) {
  const headers: Record<string, string> = role === "visitor" ? {} : { authorization: `Bearer ${tokens[role]}` };
  const res = await contexts.visitor.get(path, { headers });
  const got = await outcomeOf(res);
  const message = `${role} GET ${path} (${label})`;
  if (want === "allowed") expect.soft(isAllowed(got) || got === "status 405" ? "allowed" : got, message).toBe("allowed");
  else expect.soft(got, message).toBe(want);
}

test.describe("REST API", () => {
  for (const route of apiRoutes) {
    // The REST logout revokes the token it is sent with: only signed out.
    const roles = route.id === "api-logout" ? (["visitor"] as RoleName[]) : ROLES;
    const kind = API_ID_KINDS[route.id];
    const unreachable = kind === "facility" || kind === "building" || kind === "room" || kind === "incident";
    test(`/api/${route.path} (${route.id})`, async () => {
      for (const role of roles) {
        const targets: Target[] =
          role === "technician" && unreachable
            ? ["reachable", "unreachable"]
            : role === "manager" && unreachable && kind !== "incident"
              ? ["reachable", "outsideManager"]
              : [kind ? "reachable" : "none"];
        for (const target of targets) {
          const path = route.path === "*" ? "/api/no/such/call" : `/api/${fill(route.path, route.id, API_ID_KINDS, target)}`;
          const query = API_QUERY_ID[route.id] ? `?${API_QUERY_ID[route.id]}=${fill(":id", route.id, API_ID_KINDS, target)}` : "";
          const want = expectedApi(route, role, target);
          await checkApi(role, `${path}${query}`, want, "canonical");
          if (want !== "allowed" && want !== "status 405" && (role === "visitor" || role === "technician")) {
            for (const v of variants(path)) await checkApi(role, `${v.path}${query}`, want, v.name);
          }
        }
      }
    });
  }
});
