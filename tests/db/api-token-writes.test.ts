import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { personActor } from "~/core/actor";
import { DataJobStatus, IncidentStatus, Role, TimeMeasure, UserStatus } from "~/db/enums";
import { eq, sql } from "drizzle-orm";
import { apiTokens, type Building, dataJobs, type Entity, type Facility, materialLines, type Room, timeClocks, timeEntries, type User, userLinkedObjects } from "~/db/schema";
import { API_OPERATIONS } from "~/http/openapi/operations.server";
import { createApiToken } from "~/modules/api-tokens/service.server";
import * as usersRoute from "~/routes/api/users";
import * as invitationRoute from "~/routes/api/users.$id.invitation";
import * as facilitiesRoute from "~/routes/api/facilities";
import * as facilityRoute from "~/routes/api/facilities.$id";
import * as entityRoute from "~/routes/api/entities.$id";
import * as stickerRoute from "~/routes/api/entities.$id.explanatory-sticker";
import * as hourlyRatesRoute from "~/routes/api/entities.$id.hourly-rates";
import * as incidentDowntimeRoute from "~/routes/api/incidents.$id.downtime";
import * as userRoute from "~/routes/api/users.$id";
import * as userStatusRoute from "~/routes/api/users.$id.status";
import * as roomRoute from "~/routes/api/facilities.rooms.$id";
import * as roomTypeRoute from "~/routes/api/facilities.rooms.roomtype.$id";
import * as equipmentTypeRoute from "~/routes/api/equipments.type.$id";
import * as equipmentItemRoute from "~/routes/api/equipments.$id";
import * as equipmentTypeTagRoute from "~/routes/api/equipments.type.$id.tags.$tag";
import * as categoryRoute from "~/routes/api/equipments.category.$id";
import * as incidentTypeRoute from "~/routes/api/incident-types.$id";
import * as incidentRoute from "~/routes/api/incidents.$id";
import * as incidentPriorityRoute from "~/routes/api/incidents.$id.priority";
import * as incidentAssigneeRoute from "~/routes/api/incidents.$id.assignee";
import * as incidentTagRoute from "~/routes/api/incidents.$id.tags.$tag";
import * as commentRoute from "~/routes/api/incidents.$id.comments.$commentId";
import * as incidentFileRoute from "~/routes/api/incidents.$id.files.$fileId";
import * as taskStatusRoute from "~/routes/api/tasks.$id.status";
import * as maintenanceTypeRoute from "~/routes/api/maintenances.types.$id";
import * as maintenanceChecklistRoute from "~/routes/api/maintenances.types.$id.checklist";
import * as planRoute from "~/routes/api/maintenances.planned.$id";
import * as buildingsRoute from "~/routes/api/facilities.buildings";
import * as buildingRoute from "~/routes/api/facilities.buildings.$id";
import * as roomsRoute from "~/routes/api/facilities.rooms";
import * as roomTypesRoute from "~/routes/api/facilities.rooms.roomtype";
import * as equipmentTypesRoute from "~/routes/api/equipments.type";
import * as equipmentTypeTagsRoute from "~/routes/api/equipments.type.$id.tags";
import * as categoriesRoute from "~/routes/api/equipments.category";
import * as incidentTypesRoute from "~/routes/api/incident-types";
import * as translateRoute from "~/routes/api/incident-types.translate";
import * as bulkRoute from "~/routes/api/incidents.bulk";
import * as incidentStatusRoute from "~/routes/api/incidents.$id.status";
import * as incidentTagsRoute from "~/routes/api/incidents.$id.tags";
import * as duplicateRoute from "~/routes/api/incidents.$id.duplicate";
import * as commentsRoute from "~/routes/api/incidents.$id.comments";
import * as filesRoute from "~/routes/api/incidents.$id.files";
import * as timeEntriesRoute from "~/routes/api/incidents.$id.time-entries";
import * as timeEntryRoute from "~/routes/api/incidents.$id.time-entries.$entryId";
import * as materialLinesRoute from "~/routes/api/incidents.$id.material-lines";
import * as materialLineRoute from "~/routes/api/incidents.$id.material-lines.$lineId";
import * as taskTimeEntriesRoute from "~/routes/api/tasks.$id.time-entries";
import * as taskTimeEntryRoute from "~/routes/api/tasks.$id.time-entries.$entryId";
import * as taskMaterialLinesRoute from "~/routes/api/tasks.$id.material-lines";
import * as taskMaterialLineRoute from "~/routes/api/tasks.$id.material-lines.$lineId";
import * as incidentClockStartRoute from "~/routes/api/incidents.$id.clock.start";
import * as incidentClockStopRoute from "~/routes/api/incidents.$id.clock.stop";
import * as taskClockStartRoute from "~/routes/api/tasks.$id.clock.start";
import * as taskClockStopRoute from "~/routes/api/tasks.$id.clock.stop";
import * as maintenanceTypesRoute from "~/routes/api/maintenances.types";
import * as plannedRoute from "~/routes/api/maintenances.planned";
import * as qrRoute from "~/routes/api/printing.qr-codes";
import * as stickersRoute from "~/routes/api/printing.explanatory-stickers";
import * as exportsRoute from "~/routes/api/exports";
import * as importsRoute from "~/routes/api/imports";
import {
  createBuilding,
  createEntity,
  createEquipmentCategory,
  createEquipmentItem,
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
  linkUserTo,
  pngBytes,
} from "#tests/factories";
import { type ApiHarness, dataUrl } from "#tests/api-helpers";
import { type RestAnswer, rest } from "#tests/db/rest";

/**
 * Issue 60 item 2: a facility manager's API token does what the same manager signed in does. Every write
 * of the OpenAPI contract that creates something (and the other writes listed) is called twice on equal,
 * fresh records: once with the manager's token (role manager, reach: the manager's facility), once with
 * the manager's session; the statuses must be the same, and the creates' the documented success. The
 * same for a technician's token and the technician signed in: the writes a technician may do (SPEC.md
 * section 6, TECHNICIAN_WRITES) answer alike and succeed, every other write is refused alike (403).
 */
let api: ApiHarness;
let entity: Entity;
let admin: User;
let manager: User;
let technician: User;
let north: Facility;
let northBuilding: Building;
let northRoom: Room;
let tokenSecret: string;
let sessionToken: string;
let technicianTokenSecret: string;
let technicianSession: string;

const PNG = pngBytes(2, 2);

interface Call {
  url: string;
  params?: Record<string, string>;
  body?: unknown;
  /** A multipart body (imports). */
  form?: FormData;
}
interface Case {
  route: { action?: unknown };
  method: "POST" | "PUT" | "PATCH" | "DELETE";
  /** The route id of the contract (app/route-access.ts). */
  routeId: string;
  /** Fresh records for one caller (the person it acts as: the token's maker, or the manager), and the call. */
  prepare: (actingPersonId: number) => Promise<Call>;
  /** The success status the same person gets (the contract's). */
  expected: number;
}

/** The case's call with `bearer` (the REST helper shared with the fuzz test). */
const send = (c: Case, call: Call, bearer: string): Promise<RestAnswer> =>
  rest(c.route.action, { method: c.method, url: call.url, params: call.params, json: call.body, form: call.form, bearer });

const db = () => api.database.db;
const at = (base: string, id: number, tail = "") => ({ url: `${base}/${id}${tail}`, params: { id: String(id) } });
/** A past working day for time entries (an entry is on a day not after today). */
const WORKED_ON = "2026-01-05";
const freshIncident = () => createIncident(db(), { entityId: entity.id, roomId: northRoom.id, status: IncidentStatus.PENDING });
let taskDays = 0;
/** A task nobody is assigned to (a technician who reaches its room may work on it), each on its own day. */
const freshTask = async () => {
  const plan = await createPlannedMaintenance(db(), { entityId: entity.id, roomIds: [northRoom.id] });
  return createTask(db(), { entityId: entity.id, plannedMaintenanceId: plan.id, roomId: northRoom.id, dueDate: `2027-02-${String(1 + (taskDays++ % 28)).padStart(2, "0")}` });
};
let sequence = 0;
const unique = (name: string) => `${name} ${++sequence}`;

const cases: Case[] = [
  {
    routeId: "api-users",
    route: usersRoute,
    method: "POST",
    expected: 201,
    prepare: async () => ({
      url: "/api/users",
      body: { name: "Tina", surname: "Tech", email: `${unique("tina").replace(" ", "-")}@example.test`, role: Role.TECHNICIAN, linkedEntityId: entity.id, linkedObjects: { facilityIds: [north.id], buildingIds: [] } },
    }),
  },
  {
    routeId: "api-user-invitation",
    route: invitationRoute,
    method: "POST",
    expected: 200,
    prepare: async () => {
      const invited = await createUser(db(), { entityId: entity.id, role: Role.TECHNICIAN, status: UserStatus.INACTIVE });
      await linkUserTo(db(), { entityId: entity.id, userId: invited.id, facilityId: north.id });
      return at("/api/users", invited.id, "/invitation");
    },
  },
  { routeId: "api-facilities", route: facilitiesRoute, method: "POST", expected: 201, prepare: async () => ({ url: "/api/facilities", body: { name: unique("Annex") } }) },
  {
    routeId: "api-facility",
    route: facilityRoute,
    method: "PUT",
    expected: 200,
    prepare: async () => ({ ...at("/api/facilities", north.id), body: { name: "North", description: unique("Renamed") } }),
  },
  {
    routeId: "api-facility",
    route: facilityRoute,
    method: "DELETE",
    expected: 200,
    prepare: async () => {
      // A facility within both reaches: the manager is linked to it and the token names it.
      const facility = await createFacility(db(), { entityId: entity.id });
      await linkUserTo(db(), { entityId: entity.id, userId: manager.id, facilityId: facility.id });
      await db().update(apiTokens).set({ facilityIds: sql`array_append(${apiTokens.facilityIds}, ${facility.id}::int)` });
      return { ...at("/api/facilities", facility.id), body: { confirm: facility.name } };
    },
  },
  {
    routeId: "api-buildings",
    route: buildingsRoute,
    method: "POST",
    expected: 201,
    prepare: async () => ({ url: "/api/facilities/buildings", body: { name: unique("Wing"), facilityId: north.id } }),
  },
  {
    routeId: "api-building",
    route: buildingRoute,
    method: "DELETE",
    expected: 200,
    prepare: async () => at("/api/facilities/buildings", (await createBuilding(db(), { entityId: entity.id, facilityId: north.id })).id),
  },
  {
    routeId: "api-rooms",
    route: roomsRoute,
    method: "POST",
    expected: 201,
    prepare: async () => {
      const roomType = await createRoomType(db(), { entityId: entity.id });
      const category = await createEquipmentCategory(db(), { entityId: entity.id });
      const chair = await createEquipmentType(db(), { entityId: entity.id, categoryId: category.id });
      return {
        url: "/api/facilities/rooms",
        body: { name: unique("Office"), floor: "1", buildingId: northBuilding.id, roomTypeId: roomType.id, roomEquipments: [{ equipmentTypeId: chair.id, internalReferences: [""] }] },
      };
    },
  },
  { routeId: "api-room-types", route: roomTypesRoute, method: "POST", expected: 201, prepare: async () => ({ url: "/api/facilities/rooms/roomtype", body: { roomTypeName: unique("Kitchen"), tags: [] } }) },
  {
    routeId: "api-equipment-types",
    route: equipmentTypesRoute,
    method: "POST",
    expected: 201,
    prepare: async () => {
      const category = await createEquipmentCategory(db(), { entityId: entity.id });
      return { url: "/api/equipments/type", body: { equipmentName: unique("Lamp"), categoryId: category.id } };
    },
  },
  {
    routeId: "api-equipment-type-tags",
    route: equipmentTypeTagsRoute,
    method: "POST",
    expected: 201,
    prepare: async () => {
      const category = await createEquipmentCategory(db(), { entityId: entity.id });
      const type = await createEquipmentType(db(), { entityId: entity.id, categoryId: category.id });
      return { ...at("/api/equipments/type", type.id, "/tags"), body: { label: "wood" } };
    },
  },
  { routeId: "api-equipment-categories", route: categoriesRoute, method: "POST", expected: 201, prepare: async () => ({ url: "/api/equipments/category", body: { categoryName: unique("IT") } }) },
  {
    routeId: "api-incident-types",
    route: incidentTypesRoute,
    method: "POST",
    expected: 201,
    prepare: async () => {
      const name = unique("Leak");
      return { url: "/api/incident-types", body: { nameEn: name, nameFr: name, nameNl: name, defaultPriority: 2, status: 1, appliesEverywhere: true } };
    },
  },
  // No translation service is configured in tests: both callers get the same refusal.
  { routeId: "api-incident-types-translate", route: translateRoute, method: "POST", expected: -1, prepare: async () => ({ url: "/api/incident-types/translate", body: { from: "en", name: "Leak" } }) },
  {
    routeId: "api-incidents-bulk",
    route: bulkRoute,
    method: "POST",
    expected: 200,
    prepare: async () => ({ url: "/api/incidents/bulk", body: { ids: [(await freshIncident()).id], change: "priority", priority: 3 } }),
  },
  {
    routeId: "api-incident-status",
    route: incidentStatusRoute,
    method: "PUT",
    expected: 200,
    prepare: async () => ({ ...at("/api/incidents", (await freshIncident()).id, "/status"), body: { status: IncidentStatus.IN_PROGRESS } }),
  },
  {
    routeId: "api-incident-tags",
    route: incidentTagsRoute,
    method: "POST",
    expected: 201,
    prepare: async () => ({ ...at("/api/incidents", (await freshIncident()).id, "/tags"), body: { tag: "urgent" } }),
  },
  {
    routeId: "api-incident-duplicate",
    route: duplicateRoute,
    method: "POST",
    expected: 200,
    prepare: async () => {
      const original = await freshIncident();
      return { ...at("/api/incidents", (await freshIncident()).id, "/duplicate"), body: { duplicateOf: original.shortId } };
    },
  },
  {
    routeId: "api-incident-comments",
    route: commentsRoute,
    method: "POST",
    expected: 201,
    prepare: async () => ({ ...at("/api/incidents", (await freshIncident()).id, "/comments"), body: { body: "Checked", files: [{ name: "tap.png", data: dataUrl(PNG) }] } }),
  },
  {
    routeId: "api-incident-time-entries",
    route: timeEntriesRoute,
    method: "POST",
    expected: 201,
    prepare: async () => ({ ...at("/api/incidents", (await freshIncident()).id, "/time-entries"), body: { workedOn: WORKED_ON, hours: 1, minutes: 15, note: "Valve" } }),
  },
  {
    routeId: "api-incident-material-lines",
    route: materialLinesRoute,
    method: "POST",
    expected: 201,
    prepare: async () => ({ ...at("/api/incidents", (await freshIncident()).id, "/material-lines"), body: { description: "Valve", quantity: "2", unitCost: "12.50" } }),
  },
  {
    routeId: "api-task-time-entries",
    route: taskTimeEntriesRoute,
    method: "POST",
    expected: 201,
    prepare: async () => ({ ...at("/api/tasks", (await freshTask()).id, "/time-entries"), body: { workedOn: WORKED_ON, hours: 0, minutes: 40 } }),
  },
  {
    routeId: "api-task-material-lines",
    route: taskMaterialLinesRoute,
    method: "POST",
    expected: 201,
    prepare: async () => ({ ...at("/api/tasks", (await freshTask()).id, "/material-lines"), body: { description: "Filter", quantity: "1", unitCost: "8" } }),
  },
  // The clock: started by a person without one running; stopped by one whose clock runs on the record.
  ...(
    [
      ["api-incident-clock-start", incidentClockStartRoute, "/api/incidents", "start"],
      ["api-incident-clock-stop", incidentClockStopRoute, "/api/incidents", "stop"],
      ["api-task-clock-start", taskClockStartRoute, "/api/tasks", "start"],
      ["api-task-clock-stop", taskClockStopRoute, "/api/tasks", "stop"],
    ] as const
  ).map(
    ([routeId, route, base, step]): Case => ({
      routeId,
      route,
      method: "POST",
      expected: 201,
      prepare: async (worker) => {
        const record = base === "/api/tasks" ? { taskId: (await freshTask()).id } : { incidentId: (await freshIncident()).id };
        await db().delete(timeClocks).where(eq(timeClocks.userId, worker));
        if (step === "stop") await db().insert(timeClocks).values({ userId: worker, entityId: entity.id, ...record, startedAt: new Date(Date.now() - 5 * 60_000) });
        return at(base, record.taskId ?? record.incidentId, `/clock/${step}`);
      },
    }),
  ),
  {
    routeId: "api-incident-files",
    route: filesRoute,
    method: "POST",
    expected: 201,
    prepare: async () => ({ ...at("/api/incidents", (await freshIncident()).id, "/files"), body: { files: [{ name: "leak.png", data: dataUrl(PNG) }] } }),
  },
  {
    routeId: "api-maintenance-types",
    route: maintenanceTypesRoute,
    method: "POST",
    expected: 201,
    prepare: async () => ({ url: "/api/maintenances/types", body: { name: unique("Boilers"), tags: [], occurrenceUnit: TimeMeasure.MONTH, occurrenceInterval: 1, roomIds: [northRoom.id] } }),
  },
  {
    routeId: "api-planned-maintenances",
    route: plannedRoute,
    method: "POST",
    expected: 201,
    prepare: async () => {
      const type = await createMaintenanceType(db(), { entityId: entity.id });
      return {
        url: "/api/maintenances/planned",
        body: { name: unique("Plan"), maintenanceTypeId: type.id, startDate: "2027-01-01", endDate: "2027-03-31", timeOfDay: "09:00", occurrenceUnit: TimeMeasure.MONTH, occurrenceInterval: 1, roomIds: [northRoom.id] },
      };
    },
  },
  { routeId: "api-printing-qr-codes", route: qrRoute, method: "POST", expected: 200, prepare: async () => ({ url: "/api/printing/qr-codes", body: { roomIds: [northRoom.id] } }) },
  // No explanatory sticker was uploaded in this entity: both callers get the same refusal.
  { routeId: "api-printing-explanatory-stickers", route: stickersRoute, method: "POST", expected: -1, prepare: async () => ({ url: "/api/printing/explanatory-stickers", body: { copies: 1 } }) },
  { routeId: "api-exports", route: exportsRoute, method: "POST", expected: 201, prepare: async () => ({ url: "/api/exports", body: { type: "rooms", format: "csv" } }) },
  {
    routeId: "api-imports",
    route: importsRoute,
    method: "POST",
    expected: 202,
    prepare: async () => {
      // One import at a time per entity: the previous caller's is marked finished (no worker runs here).
      await db().update(dataJobs).set({ status: DataJobStatus.SUCCEEDED }).where(eq(dataJobs.entityId, entity.id));
      const form = new FormData();
      form.set("type", "equipment-categories");
      form.set("file", new Blob([`Name\n${unique("Imported")}\n`], { type: "text/csv" }), "categories.csv");
      return { url: "/api/imports", form };
    },
  },
  // The entity's settings with a name alone: both callers get the same validation answer.
  { routeId: "api-entity", route: entityRoute, method: "PUT", expected: -1, prepare: async () => ({ ...at("/api/entities", entity.id), body: { name: "Entity" } }) },
  // Administrators' alone (decision 065): a manager and a technician are refused alike, by token or signed in.
  { routeId: "api-entity-hourly-rates", route: hourlyRatesRoute, method: "PUT", expected: 403, prepare: async () => ({ ...at("/api/entities", entity.id, "/hourly-rates"), body: { currency: "EUR", defaultRate: "40" } }) },
  { routeId: "api-entity-sticker", route: stickerRoute, method: "PATCH", expected: 200, prepare: async () => ({ ...at("/api/entities", entity.id, "/explanatory-sticker"), body: { newExplanatorySticker: null } }) },
  {
    routeId: "api-user",
    route: userRoute,
    method: "PUT",
    expected: 200,
    prepare: async () => {
      const user = await createUser(db(), { entityId: entity.id, role: Role.TECHNICIAN });
      await linkUserTo(db(), { entityId: entity.id, userId: user.id, facilityId: north.id });
      return { ...at("/api/users", user.id), body: { name: user.name, surname: "Renamed", role: Role.TECHNICIAN, language: user.language, linkedObjects: { facilityIds: [north.id], buildingIds: [] } } };
    },
  },
  {
    routeId: "api-user",
    route: userRoute,
    method: "DELETE",
    expected: 200,
    prepare: async () => {
      const user = await createUser(db(), { entityId: entity.id, role: Role.TECHNICIAN });
      await linkUserTo(db(), { entityId: entity.id, userId: user.id, facilityId: north.id });
      return { url: `/api/users/${user.id}?incidentsUserId=0&plannedMaintenanceUserId=0`, params: { id: String(user.id) } };
    },
  },
  {
    routeId: "api-user-status",
    route: userStatusRoute,
    method: "PATCH",
    expected: 200,
    prepare: async () => {
      const user = await createUser(db(), { entityId: entity.id, role: Role.TECHNICIAN });
      await linkUserTo(db(), { entityId: entity.id, userId: user.id, facilityId: north.id });
      return { ...at("/api/users", user.id, "/status"), body: { newStatus: UserStatus.DISABLED } };
    },
  },
  {
    routeId: "api-building",
    route: buildingRoute,
    method: "PUT",
    expected: 200,
    prepare: async () => ({ ...at("/api/facilities/buildings", (await createBuilding(db(), { entityId: entity.id, facilityId: north.id })).id), body: { name: unique("Wing"), facilityId: north.id } }),
  },
  {
    routeId: "api-room",
    route: roomRoute,
    method: "PUT",
    expected: 200,
    prepare: async () => {
      const roomType = await createRoomType(db(), { entityId: entity.id });
      const category = await createEquipmentCategory(db(), { entityId: entity.id });
      const chair = await createEquipmentType(db(), { entityId: entity.id, categoryId: category.id });
      const room = await createRoom(db(), { entityId: entity.id, buildingId: northBuilding.id });
      return {
        ...at("/api/facilities/rooms", room.id),
        body: { name: unique("Office"), floor: "1", roomTypeId: roomType.id, equipments: [{ equipmentTypeId: chair.id }] },
      };
    },
  },
  {
    routeId: "api-room",
    route: roomRoute,
    method: "DELETE",
    expected: 200,
    prepare: async () => at("/api/facilities/rooms", (await createRoom(db(), { entityId: entity.id, buildingId: northBuilding.id })).id),
  },
  {
    routeId: "api-room-type",
    route: roomTypeRoute,
    method: "PUT",
    expected: 200,
    prepare: async () => ({ ...at("/api/facilities/rooms/roomtype", (await createRoomType(db(), { entityId: entity.id })).id), body: { roomTypeName: unique("Kitchen"), tags: [] } }),
  },
  { routeId: "api-room-type", route: roomTypeRoute, method: "DELETE", expected: 200, prepare: async () => at("/api/facilities/rooms/roomtype", (await createRoomType(db(), { entityId: entity.id })).id) },
  {
    routeId: "api-equipment-item",
    route: equipmentItemRoute,
    method: "PUT",
    expected: 200,
    prepare: async () => {
      const room = await createRoom(db(), { entityId: entity.id, buildingId: northBuilding.id });
      const item = await createEquipmentItem(db(), { entityId: entity.id, roomId: room.id });
      return { ...at("/api/equipments", item.id), body: { serialNumber: unique("SN"), warrantyEndsOn: "2028-06-30", newFiles: [{ name: "plate.png", data: dataUrl(PNG) }] } };
    },
  },
  {
    routeId: "api-equipment-type",
    route: equipmentTypeRoute,
    method: "PUT",
    expected: 200,
    prepare: async () => {
      const category = await createEquipmentCategory(db(), { entityId: entity.id });
      const type = await createEquipmentType(db(), { entityId: entity.id, categoryId: category.id });
      return { ...at("/api/equipments/type", type.id), body: { equipmentName: unique("Lamp"), categoryId: category.id } };
    },
  },
  {
    routeId: "api-equipment-type",
    route: equipmentTypeRoute,
    method: "DELETE",
    expected: 200,
    prepare: async () => {
      const category = await createEquipmentCategory(db(), { entityId: entity.id });
      return at("/api/equipments/type", (await createEquipmentType(db(), { entityId: entity.id, categoryId: category.id })).id);
    },
  },
  {
    routeId: "api-equipment-type-tag",
    route: equipmentTypeTagRoute,
    method: "DELETE",
    expected: 200,
    prepare: async () => {
      const category = await createEquipmentCategory(db(), { entityId: entity.id });
      const type = await createEquipmentType(db(), { entityId: entity.id, categoryId: category.id, tags: ["wood"] });
      return { url: `/api/equipments/type/${type.id}/tags/wood`, params: { id: String(type.id), tag: "wood" } };
    },
  },
  {
    routeId: "api-equipment-category",
    route: categoryRoute,
    method: "PUT",
    expected: 200,
    prepare: async () => ({ ...at("/api/equipments/category", (await createEquipmentCategory(db(), { entityId: entity.id })).id), body: { categoryName: unique("IT") } }),
  },
  { routeId: "api-equipment-category", route: categoryRoute, method: "DELETE", expected: 200, prepare: async () => at("/api/equipments/category", (await createEquipmentCategory(db(), { entityId: entity.id })).id) },
  {
    routeId: "api-incident-type",
    route: incidentTypeRoute,
    method: "PUT",
    expected: 200,
    prepare: async () => {
      const name = unique("Leak");
      return { ...at("/api/incident-types", (await createIncidentType(db(), { entityId: entity.id })).id), body: { nameEn: name, nameFr: name, nameNl: name, defaultPriority: 2, status: 1, appliesEverywhere: true } };
    },
  },
  { routeId: "api-incident-type", route: incidentTypeRoute, method: "DELETE", expected: 200, prepare: async () => at("/api/incident-types", (await createIncidentType(db(), { entityId: entity.id })).id) },
  { routeId: "api-incident", route: incidentRoute, method: "PATCH", expected: 200, prepare: async () => ({ ...at("/api/incidents", (await freshIncident()).id), body: { title: unique("Leak") } }) },
  {
    routeId: "api-incident-downtime",
    route: incidentDowntimeRoute,
    method: "PUT",
    expected: 200,
    prepare: async () => {
      const item = await createEquipmentItem(db(), { entityId: entity.id, roomId: northRoom.id });
      const incident = await createIncident(db(), { entityId: entity.id, roomId: northRoom.id, equipmentItemId: item.id, status: IncidentStatus.PENDING });
      return { ...at("/api/incidents", incident.id, "/downtime"), body: { equipmentDown: true, downtimeMinutes: 90 } };
    },
  },
  { routeId: "api-incident-priority", route: incidentPriorityRoute, method: "PUT", expected: 200, prepare: async () => ({ ...at("/api/incidents", (await freshIncident()).id, "/priority"), body: { priority: 2 } }) },
  {
    routeId: "api-incident-assignee",
    route: incidentAssigneeRoute,
    method: "PUT",
    expected: 200,
    prepare: async () => ({ ...at("/api/incidents", (await freshIncident()).id, "/assignee"), body: { assigneeId: technician.id } }),
  },
  {
    routeId: "api-incident-tag",
    route: incidentTagRoute,
    method: "DELETE",
    expected: 200,
    prepare: async () => {
      const incident = await freshIncident();
      return { url: `/api/incidents/${incident.id}/tags/urgent`, params: { id: String(incident.id), tag: "urgent" } };
    },
  },
  {
    routeId: "api-incident-comment",
    route: commentRoute,
    method: "PUT",
    expected: 200,
    prepare: async (author) => {
      const incident = await freshIncident();
      const comment = await createIncidentComment(db(), { entityId: entity.id, incidentId: incident.id, authorId: author });
      return { url: `/api/incidents/${incident.id}/comments/${comment.id}`, params: { id: String(incident.id), commentId: String(comment.id) }, body: { body: "Edited" } };
    },
  },
  {
    routeId: "api-incident-comment",
    route: commentRoute,
    method: "DELETE",
    expected: 200,
    prepare: async (author) => {
      const incident = await freshIncident();
      const comment = await createIncidentComment(db(), { entityId: entity.id, incidentId: incident.id, authorId: author });
      return { url: `/api/incidents/${incident.id}/comments/${comment.id}`, params: { id: String(incident.id), commentId: String(comment.id) } };
    },
  },
  ...(["PATCH", "DELETE"] as const).map(
    (method): Case => ({
      routeId: "api-incident-time-entry",
      route: timeEntryRoute,
      method,
      expected: 200,
      prepare: async (worker) => {
        const incident = await freshIncident();
        const [entry] = await db().insert(timeEntries).values({ entityId: entity.id, incidentId: incident.id, userId: worker, workedOn: WORKED_ON, minutes: 30 }).returning();
        return { url: `/api/incidents/${incident.id}/time-entries/${entry.id}`, params: { id: String(incident.id), entryId: String(entry.id) }, body: method === "PATCH" ? { note: "Longer" } : undefined };
      },
    }),
  ),
  ...(["PATCH", "DELETE"] as const).map(
    (method): Case => ({
      routeId: "api-incident-material-line",
      route: materialLineRoute,
      method,
      expected: 200,
      prepare: async (worker) => {
        const incident = await freshIncident();
        const [line] = await db()
          .insert(materialLines)
          .values({ entityId: entity.id, incidentId: incident.id, description: "Fuse", quantity: "1", unitCost: "3.00", createdById: worker })
          .returning();
        return { url: `/api/incidents/${incident.id}/material-lines/${line.id}`, params: { id: String(incident.id), lineId: String(line.id) }, body: method === "PATCH" ? { quantity: "2" } : undefined };
      },
    }),
  ),
  ...(["PATCH", "DELETE"] as const).map(
    (method): Case => ({
      routeId: "api-task-time-entry",
      route: taskTimeEntryRoute,
      method,
      expected: 200,
      prepare: async (worker) => {
        const task = await freshTask();
        const [entry] = await db().insert(timeEntries).values({ entityId: entity.id, taskId: task.id, userId: worker, workedOn: WORKED_ON, minutes: 30 }).returning();
        return { url: `/api/tasks/${task.id}/time-entries/${entry.id}`, params: { id: String(task.id), entryId: String(entry.id) }, body: method === "PATCH" ? { note: "Longer" } : undefined };
      },
    }),
  ),
  ...(["PATCH", "DELETE"] as const).map(
    (method): Case => ({
      routeId: "api-task-material-line",
      route: taskMaterialLineRoute,
      method,
      expected: 200,
      prepare: async (worker) => {
        const task = await freshTask();
        const [line] = await db()
          .insert(materialLines)
          .values({ entityId: entity.id, taskId: task.id, description: "Filter", quantity: "1", unitCost: "3.00", createdById: worker })
          .returning();
        return { url: `/api/tasks/${task.id}/material-lines/${line.id}`, params: { id: String(task.id), lineId: String(line.id) }, body: method === "PATCH" ? { quantity: "2" } : undefined };
      },
    }),
  ),
  {
    routeId: "api-incident-file",
    route: incidentFileRoute,
    method: "DELETE",
    expected: 200,
    prepare: async () => {
      // A file an administrator attached first.
      const incident = await freshIncident();
      const posted = await send(
        { routeId: "api-incident-files", route: filesRoute, method: "POST", expected: 201, prepare: async () => ({ url: "" }) },
        { ...at("/api/incidents", incident.id, "/files"), body: { files: [{ name: "leak.png", data: dataUrl(PNG) }] } },
        await api.token(admin),
      );
      const fileId = (JSON.parse(posted.text) as { ids: string[] }).ids[0];
      return { url: `/api/incidents/${incident.id}/files/${fileId}`, params: { id: String(incident.id), fileId } };
    },
  },
  {
    routeId: "api-task-status",
    route: taskStatusRoute,
    method: "PUT",
    expected: 200,
    prepare: async () => {
      const plan = await createPlannedMaintenance(db(), { entityId: entity.id, roomIds: [northRoom.id] });
      const task = await createTask(db(), { entityId: entity.id, plannedMaintenanceId: plan.id, roomId: northRoom.id, dueDate: "2027-01-04" });
      return { ...at("/api/tasks", task.id, "/status"), body: { status: 1 } };
    },
  },
  {
    routeId: "api-maintenance-type",
    route: maintenanceTypeRoute,
    method: "PUT",
    expected: 200,
    prepare: async () => ({ ...at("/api/maintenances/types", (await createMaintenanceType(db(), { entityId: entity.id })).id), body: { name: unique("Boilers"), tags: [], occurrenceUnit: TimeMeasure.MONTH, occurrenceInterval: 1 } }),
  },
  { routeId: "api-maintenance-type", route: maintenanceTypeRoute, method: "DELETE", expected: 200, prepare: async () => at("/api/maintenances/types", (await createMaintenanceType(db(), { entityId: entity.id })).id) },
  {
    routeId: "api-maintenance-type-checklist",
    route: maintenanceChecklistRoute,
    method: "PUT",
    expected: 200,
    prepare: async () => ({ ...at("/api/maintenances/types", (await createMaintenanceType(db(), { entityId: entity.id })).id, "/checklist"), body: { checks: [{ kind: 0, label: "Seal intact", priority: 2 }] } }),
  },
  {
    routeId: "api-planned-maintenance",
    route: planRoute,
    method: "PUT",
    expected: 200,
    prepare: async () => {
      const type = await createMaintenanceType(db(), { entityId: entity.id });
      const plan = await createPlannedMaintenance(db(), { entityId: entity.id, maintenanceTypeId: type.id, roomIds: [northRoom.id] });
      return {
        ...at("/api/maintenances/planned", plan.id),
        body: { name: unique("Plan"), maintenanceTypeId: type.id, startDate: "2027-01-01", endDate: "2027-03-31", timeOfDay: "09:00", occurrenceUnit: TimeMeasure.MONTH, occurrenceInterval: 1, roomIds: [northRoom.id] },
      };
    },
  },
  {
    routeId: "api-planned-maintenance",
    route: planRoute,
    method: "DELETE",
    expected: 200,
    prepare: async () => at("/api/maintenances/planned", (await createPlannedMaintenance(db(), { entityId: entity.id, roomIds: [northRoom.id] })).id),
  },
];

/**
 * The REST writes a technician may do, from SPEC.md section 6: technicians reach the incidents and the
 * incident details (an incident's status, priority, assignee, title and description, tags, duplicate,
 * comments and files, and the list's one change to several), the tasks (a task done or pending), the room
 * view and notifications (reading) and their settings (their own account: a person's own, which no token
 * does). Every other write is a facility manager's capability (managers and administrators).
 */
const TECHNICIAN_WRITES = new Set([
  "POST api-incidents-bulk",
  "PUT api-incident-status",
  "PUT api-incident-priority",
  "PUT api-incident-downtime",
  "PUT api-incident-assignee",
  "PATCH api-incident",
  "POST api-incident-tags",
  "DELETE api-incident-tag",
  "POST api-incident-duplicate",
  "POST api-incident-comments",
  "PUT api-incident-comment",
  "DELETE api-incident-comment",
  "POST api-incident-files",
  "DELETE api-incident-file",
  "PUT api-task-status",
  // Their own time and material on the incidents they reach (decision 065).
  "POST api-incident-time-entries",
  "PATCH api-incident-time-entry",
  "DELETE api-incident-time-entry",
  "POST api-incident-material-lines",
  "PATCH api-incident-material-line",
  "DELETE api-incident-material-line",
  // And on the tasks they may mark done.
  "POST api-task-time-entries",
  "PATCH api-task-time-entry",
  "DELETE api-task-time-entry",
  "POST api-task-material-lines",
  "PATCH api-task-material-line",
  "DELETE api-task-material-line",
  // Their own clock on those incidents and tasks.
  "POST api-incident-clock-start",
  "POST api-incident-clock-stop",
  "POST api-task-clock-start",
  "POST api-task-clock-stop",
]);

/** A person's own things, which a token never does (decision 056): no token call to compare. */
const PERSON_ONLY = new Set(["api-user-password", "api-user-notifications-read"]);

beforeAll(async () => {
  const { startApiRuntime } = await import("#tests/api-helpers");
  api = await startApiRuntime();
  entity = await createEntity(db(), { name: "Entity" });
  admin = await createUser(db(), { entityId: entity.id, role: Role.ADMINISTRATOR });
  manager = await createUser(db(), { entityId: entity.id, role: Role.FACILITY_MANAGER });
  technician = await createUser(db(), { entityId: entity.id, role: Role.TECHNICIAN });
  north = await createFacility(db(), { entityId: entity.id, name: "North" });
  await createFacility(db(), { entityId: entity.id, name: "South" });
  northBuilding = await createBuilding(db(), { entityId: entity.id, facilityId: north.id, name: "Main" });
  northRoom = await createRoom(db(), { entityId: entity.id, buildingId: northBuilding.id, name: "Hall" });
  await createIncidentType(db(), { entityId: entity.id });
  await linkUserTo(db(), { entityId: entity.id, userId: manager.id, facilityId: north.id });
  await linkUserTo(db(), { entityId: entity.id, userId: technician.id, facilityId: north.id });
  const adminCtx = { db: db(), entityId: entity.id, actor: personActor(admin), locale: "en", timeZone: "Europe/Brussels" };
  // A manager's token reaches the manager's facility: the role and reach of the person it stands in for.
  tokenSecret = (await createApiToken(adminCtx, { name: "Integration", role: Role.FACILITY_MANAGER, facilityIds: [north.id], expiresInDays: 30 })).secret;
  sessionToken = await api.token(manager);
  // A technician's token reaches the technician's facility, as the technician does.
  technicianTokenSecret = (await createApiToken(adminCtx, { name: "Field app", role: Role.TECHNICIAN, facilityIds: [north.id], expiresInDays: 30 })).secret;
  technicianSession = await api.token(technician);
});
afterAll(async () => {
  await api?.close();
});

const facilitiesCase = cases.find((c) => c.routeId === "api-facilities")!;
const facilityCase = cases.find((c) => c.routeId === "api-facility")!;

describe("a manager's API token and the manager signed in", () => {
  it("cover every create of the contract", () => {
    const creates = Object.entries(API_OPERATIONS)
      .filter(([, ops]) => ops.some((o) => o.method === "post" && o.audience !== "visitor"))
      .map(([id]) => id)
      .sort();
    expect(creates.filter((id) => !cases.some((c) => c.routeId === id && c.method === "POST"))).toEqual([]);
  });

  it("cover every other write of the contract but a person's own", () => {
    const writes = Object.entries(API_OPERATIONS).flatMap(([id, ops]) =>
      ops.filter((o) => o.method !== "get" && o.audience !== "visitor" && !PERSON_ONLY.has(id)).map((o) => `${o.method.toUpperCase()} ${id}`),
    );
    expect(writes.filter((w) => !cases.some((c) => `${c.method} ${c.routeId}` === w))).toEqual([]);
  });

  for (const c of cases) {
    it(`${c.method} ${c.routeId}: the same answer`, async () => {
      const byToken = await send(c, await c.prepare(admin.id), tokenSecret);
      const bySession = await send(c, await c.prepare(manager.id), sessionToken);
      expect({ status: byToken.status, body: byToken.status >= 400 ? byToken.text : "" }).toEqual({
        status: bySession.status,
        body: bySession.status >= 400 ? bySession.text : "",
      });
      if (c.expected > 0) expect(bySession.status, bySession.text).toBe(c.expected);
    });
  }

  it("a facility made through a limited token stays within the token's reach, and nobody is linked to it", async () => {
    const created = await send(facilitiesCase, { url: "/api/facilities", body: { name: "Made by the token" } }, tokenSecret);
    expect(created.status).toBe(201);
    const id = JSON.parse(created.text).id as number;
    const update = { ...at("/api/facilities", id), body: { name: "Made by the token", description: "Kept" } };
    expect((await send({ ...facilityCase, method: "PUT" }, update, tokenSecret)).status).toBe(200);
    expect(await db().select().from(userLinkedObjects).where(eq(userLinkedObjects.facilityId, id))).toEqual([]);
    // The manager is not the token's maker (administrators make tokens): it is not theirs.
    expect((await send({ ...facilityCase, method: "PUT" }, update, sessionToken)).status).toBe(404);
  });
});

describe("a technician's API token and the technician signed in", () => {
  it("name writes of the contract (every write is compared below: the manager's cases cover them all)", () => {
    expect([...TECHNICIAN_WRITES].filter((w) => !cases.some((c) => `${c.method} ${c.routeId}` === w))).toEqual([]);
  });

  for (const c of cases) {
    const allowed = TECHNICIAN_WRITES.has(`${c.method} ${c.routeId}`);
    it(`${c.method} ${c.routeId}: ${allowed ? "the same answer" : "refused alike"}`, async () => {
      const byToken = await send(c, await c.prepare(admin.id), technicianTokenSecret);
      const bySession = await send(c, await c.prepare(technician.id), technicianSession);
      expect({ status: byToken.status, body: byToken.status >= 400 ? byToken.text : "" }).toEqual({
        status: bySession.status,
        body: bySession.status >= 400 ? bySession.text : "",
      });
      if (!allowed) expect(bySession.status, bySession.text).toBe(403);
      else if (c.expected > 0) expect(bySession.status, bySession.text).toBe(c.expected);
    });
  }
});
