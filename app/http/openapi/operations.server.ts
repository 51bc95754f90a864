import { z } from "zod";
import { CommentBodySchema, DowntimeBodySchema, FilesBodySchema } from "~/http/incident-api.server";
import { HourlyRatesBodySchema, MaterialLineBodySchema, MaterialLinePatchSchema, TimeEntryBodySchema, TimeEntryPatchSchema } from "~/http/work-api.server";
import { LoginSchema, RefreshSchema } from "~/modules/auth/schema";
import { PatchStickerBodySchema, PutEntityBodySchema } from "~/modules/entities/schema";
import { CategoryBodySchema, CreateEquipmentTypeBodySchema, TagBodySchema, UpdateEquipmentItemBodySchema, UpdateEquipmentTypeBodySchema } from "~/modules/equipment/api-body";
import { BuildingSchema, FacilitySchema } from "~/modules/facilities/schema";
import { IncidentTypeSchema, TranslateNamesSchema } from "~/modules/incident-types/schema";
import { INCIDENT_SORTS } from "~/modules/incidents/constants";
import { AssignSchema, BulkChangeSchema, DescriptionSchema, DuplicateSchema, SetPrioritySchema, SetStatusSchema, TagSchema, TitleSchema } from "~/modules/incidents/schema";
import { ChecklistSchema } from "~/modules/maintenance/inspection-schema";
import { MaintenanceTypeSchema, PlannedMaintenanceSchema } from "~/modules/maintenance/schema";
import { MarkReadSchema } from "~/modules/notifications/schema";
import { StartExportSchema } from "~/modules/exports/schema";
import { ExplanatoryStickersSchema, QrCodesSchema } from "~/modules/printing/schema";
import { CreateRoomBodySchema, RoomTypeBodySchema, UpdateRoomBodySchema } from "~/modules/rooms/api-body";
import { RemoveRoomTypeSchema } from "~/modules/rooms/schema";
import { ChangePasswordSchema, CreateUserSchema, PutUserBodySchema, SetUserStatusSchema } from "~/modules/users/schema";
import * as A from "./answers";

/**
 * The registry of the REST API's operations (decision 056): for every route id of `apiRoutes`
 * (app/route-access.ts) the methods it answers, each with the zod schema the route parses its body with
 * (the same object, imported from the module the route imports it from), its query parameters, its
 * answer's shape, who may call it and its error statuses. The OpenAPI document is generated from it
 * (document.server.ts), and the contract test fails when a route of the table has no entry here, or an
 * entry names a route that does not exist.
 */
export type Method = "get" | "post" | "put" | "patch" | "delete";
export type Audience = "visitor" | "anyone" | "managers" | "administrators";

export interface Operation {
  method: Method;
  summary: string;
  /** Who may call it: a visitor (no bearer), anyone signed in, managers and administrators, administrators. */
  audience: Audience;
  query?: Record<string, { schema: z.ZodType; description: string }>;
  body?: z.ZodType;
  /** The success status (200 unless said). */
  status?: 200 | 201 | 202;
  answer: z.ZodType;
  /** The answer is a page: its total in `X-Total-Count`. */
  list?: boolean;
  /** The answer is a file (PDF), not JSON. */
  file?: string;
  /** The body's media type when it is not JSON (an upload). */
  bodyMedia?: "multipart/form-data";
  /** Error statuses beside 401 (signed-in calls) and 429, each answered with the Error body. */
  errors: number[];
}

const ids = z.string().describe("Comma-separated ids");
const page = {
  page: { schema: z.coerce.number().int().min(1), description: "Page number (from 1)" },
  size: { schema: z.coerce.number().int().min(1).max(100), description: "Page size (at most 100)" },
  sort: { schema: z.string(), description: "Sort field" },
  dir: { schema: z.enum(["asc", "desc"]), description: "Sort direction" },
  q: { schema: z.string(), description: "Search text" },
};

const op = (method: Method, summary: string, audience: Audience, answer: z.ZodType, rest: Partial<Operation> = {}): Operation => ({
  method,
  summary,
  audience,
  answer,
  errors: rest.errors ?? (method === "get" ? [403, 404] : [400, 403, 404]),
  ...rest,
});

/** The CRUD shape of most areas: list and create, read, replace and archive one. */
function collection(name: string, audience: { read: Audience; write: Audience }, one: z.ZodType, body: z.ZodType, query: Operation["query"] = page) {
  return [op("get", `List ${name}`, audience.read, z.array(one), { list: true, query }), op("post", `Create ${name}`, audience.write, one, { body, status: 201 })];
}
function item(name: string, audience: { read: Audience; write: Audience }, one: z.ZodType, body: z.ZodType) {
  return [
    op("get", `Read one ${name}`, audience.read, one),
    op("put", `Replace one ${name}`, audience.write, one, { body, errors: [400, 403, 404, 409] }),
    op("delete", `Archive one ${name}`, audience.write, A.CascadeCounts, { errors: [403, 404, 409] }),
  ];
}

const managers = { read: "anyone", write: "managers" } as const;
const managersOnly = { read: "managers", write: "managers" } as const;
const visitorErrors = { errors: [400, 401, 403, 429] };

export const API_OPERATIONS: Readonly<Record<string, Operation[]>> = {
  "api-login": [op("post", "Log in (SPEC.md section 7): an access and a refresh token", "visitor", A.LoginAnswer, { body: LoginSchema, ...visitorErrors })],
  "api-refresh-token": [op("post", "Exchange a refresh token for a new pair", "visitor", A.LoginAnswer, { body: RefreshSchema, ...visitorErrors })],
  "api-logout": [op("get", "Log out: the session's refresh tokens are revoked", "visitor", A.Ok, { errors: [] })],
  "api-entity": [
    op("get", "Read the entity (settings, branding)", "anyone", A.Entity),
    op("put", "Update the entity's settings", "managers", A.Entity, { body: PutEntityBodySchema }),
  ],
  "api-entity-sticker": [
    op("get", "Read the explanatory sticker", "anyone", A.Anything),
    op("patch", "Replace the explanatory sticker", "managers", A.Anything, { body: PatchStickerBodySchema }),
  ],
  "api-entity-hourly-rates": [
    op("get", "Read the entity's currency, default hourly rate and each person's rate", "administrators", A.HourlyRates),
    op("put", "Set the entity's currency, default hourly rate and the listed people's rates", "administrators", A.HourlyRates, { body: HourlyRatesBodySchema }),
  ],
  "api-users-password": [op("post", "Start a password reset (an email is sent)", "visitor", A.Ok, { body: z.object({ email: z.string() }), ...visitorErrors })],
  "api-users-password-reset": [op("post", "Set a new password with a reset token", "visitor", A.Ok, { body: z.object({ token: z.string(), newPassword: z.string() }), ...visitorErrors })],
  "api-user-password": [op("patch", "Change one's own password", "anyone", A.Anything, { body: ChangePasswordSchema })],
  "api-users": collection("users", managersOnly, A.UserRow, CreateUserSchema).map((o) => (o.method === "post" ? { ...o, answer: A.User, errors: [400, 403, 409] } : o)),
  "api-users-assignees": [op("get", "People who may be assigned (query entityIds)", "anyone", z.array(A.Person), { query: { entityIds: { schema: ids, description: "The entity (only one's own)" } } })],
  "api-user": [
    op("get", "Read a user; everyone reads their own profile", "anyone", A.User),
    op("put", "Update a user; everyone updates their own settings (not their role, status or links)", "anyone", A.User, { body: PutUserBodySchema, errors: [400, 403, 404, 409] }),
    op("delete", "Archive a user, handing their work to successors (query incidentsUserId, plannedMaintenanceUserId)", "managers", A.Anything, {
      query: { incidentsUserId: { schema: z.coerce.number().int().min(0), description: "0: unassigned" }, plannedMaintenanceUserId: { schema: z.coerce.number().int().min(0), description: "0: unassigned" } },
      errors: [400, 403, 404, 409],
    }),
  ],
  "api-user-status": [op("patch", "Enable or disable a user", "managers", A.User, { body: SetUserStatusSchema, errors: [400, 403, 404, 409] })],
  "api-user-notifications": [
    op("get", "One's notifications, newest first", "anyone", z.array(A.Notification), {
      query: { showOnlyUnread: { schema: z.enum(["true", "false"]), description: "Only unread ones" }, notificationDetailsIds: { schema: ids, description: "Only these" } },
    }),
  ],
  "api-user-notifications-count": [op("get", "One's notification counts", "anyone", A.NotificationCount)],
  "api-user-notifications-read": [op("patch", "Mark notifications read", "anyone", A.Ok, { body: MarkReadSchema })],
  "api-user-invitation": [op("post", "Send a user a new invitation", "managers", A.Ok, { errors: [403, 404, 409] })],
  "api-user-clock": [op("get", "One's running clock (start and stop), or null", "anyone", A.RunningClock)],
  "api-facilities": collection("facilities", managers, A.Facility, FacilitySchema),
  "api-facility": item("facility", managers, A.Facility, FacilitySchema),
  "api-buildings": collection("buildings", managers, A.Building, BuildingSchema, { ...page, facilityIds: { schema: ids, description: "Only in these facilities" } }),
  "api-building": item("building", managers, A.Building, BuildingSchema),
  "api-rooms": collection("rooms", managers, A.Room, CreateRoomBodySchema, { ...page, buildingIds: { schema: ids, description: "Only in these buildings" } }),
  "api-room": item("room", managers, A.Room, UpdateRoomBodySchema),
  "api-room-types": collection("room types", managers, A.RoomType, RoomTypeBodySchema),
  "api-room-type": item("room type", managers, A.RoomType, RoomTypeBodySchema).map((o) => (o.method === "delete" ? { ...o, body: RemoveRoomTypeSchema, answer: A.Anything } : o)),
  "api-equipment-items": [op("get", "Equipment items (query roomIds)", "anyone", A.AnyList, { list: true, query: { roomIds: { schema: ids, description: "Only in these rooms" } } })],
  "api-equipment-item": [
    op("get", "Read an equipment item's record: serial number, maker, model, dates, supplier, notes, parent, children, files", "anyone", A.EquipmentItemRecord),
    op("put", "Replace an equipment item's record, add and delete its documents and photos", "managers", A.EquipmentItemRecord, {
      body: UpdateEquipmentItemBodySchema,
      errors: [400, 403, 404],
    }),
  ],
  "api-equipment-item-children": [op("get", "The equipment items that belong to an item", "anyone", z.array(A.RelatedEquipmentItem))],
  "api-equipment-types": collection("generic equipment", managers, A.EquipmentType, CreateEquipmentTypeBodySchema),
  "api-equipment-type": item("generic equipment", managers, A.EquipmentType, UpdateEquipmentTypeBodySchema),
  "api-equipment-type-tags": [op("post", "Add a tag to a generic equipment", "managers", A.Anything, { body: TagBodySchema, status: 201 })],
  "api-equipment-type-tag": [op("delete", "Remove a tag of a generic equipment", "managers", A.Anything)],
  "api-equipment-categories": collection("equipment categories", managers, A.EquipmentCategory, CategoryBodySchema),
  "api-equipment-category": item("equipment category", managers, A.EquipmentCategory, CategoryBodySchema),
  "api-incident-types": collection("incident types", managers, A.IncidentType, IncidentTypeSchema),
  "api-incident-types-translate": [op("post", "Translate an incident type's name into the other languages", "managers", A.Anything, { body: TranslateNamesSchema })],
  "api-incident-types-reportable": [op("get", "Incident types that can be reported in a room or on an equipment", "anyone", z.array(A.IncidentType))],
  "api-incident-type": item("incident type", managers, A.IncidentType, IncidentTypeSchema),
  "api-incidents": [
    op("get", "Incidents in reach, filtered, sorted and paged", "anyone", z.array(A.Incident), {
      list: true,
      query: { ...page, sort: { schema: z.enum(INCIDENT_SORTS), description: "Sort field (due: the earlier running service-level due time, incidents without one last)" } },
      errors: [400, 403],
    }),
  ],
  "api-dashboard": [
    op("get", "The dashboard's figures, service levels, time and costs", "managers", A.Dashboard, {
      query: {
        facility: { schema: z.coerce.number().int().min(1), description: "One facility (in reach)" },
        building: { schema: z.coerce.number().int().min(1), description: "One building (in reach)" },
        type: { schema: z.coerce.number().int().min(1), description: "One incident type (the time and costs then leave the tasks out)" },
        from: { schema: z.string(), description: "First day, YYYY-MM-DD (default: the first of the month five months ago)" },
        to: { schema: z.string(), description: "Last day, YYYY-MM-DD (default: today, the entity's)" },
      },
      errors: [400, 403, 404],
    }),
  ],
  "api-incidents-bulk": [op("post", "One change to several incidents, all or nothing", "anyone", A.Anything, { body: BulkChangeSchema })],
  "api-incident": [
    op("get", "Read an incident", "anyone", A.IncidentDetail),
    op("patch", "Change an incident's title and/or description", "anyone", A.IncidentChange, { body: TitleSchema.partial().extend(DescriptionSchema.partial().shape) }),
  ],
  "api-incident-status": [op("put", "Set an incident's status", "anyone", A.IncidentChange, { body: SetStatusSchema })],
  "api-incident-priority": [op("put", "Set an incident's priority", "anyone", A.IncidentChange, { body: SetPrioritySchema })],
  "api-incident-downtime": [op("put", "Mark an incident's equipment out of service, or set its downtime by hand", "anyone", A.Downtime, { body: DowntimeBodySchema })],
  "api-incident-assignee": [op("put", "Assign an incident", "anyone", A.IncidentChange, { body: AssignSchema })],
  "api-incident-assignees": [op("get", "People an incident may be assigned to", "anyone", A.AnyList)],
  "api-incident-tags": [op("post", "Add a tag to an incident", "anyone", A.IncidentChange, { body: TagSchema, status: 201 })],
  "api-incident-tag": [op("delete", "Remove a tag of an incident", "anyone", A.IncidentChange)],
  "api-incident-duplicate": [op("post", "Mark an incident as a duplicate of another", "anyone", A.Anything, { body: DuplicateSchema })],
  "api-incident-comments": [
    op("get", "An incident's comments", "anyone", A.AnyList, { list: true, query: { size: page.size, dir: page.dir } }),
    op("post", "Comment on an incident (JSON or multipart)", "anyone", A.Created, { body: CommentBodySchema, status: 201 }),
  ],
  "api-incident-comment": [
    op("put", "Edit one's comment", "anyone", A.Anything, { body: CommentBodySchema }),
    op("delete", "Delete one's comment", "anyone", A.Anything),
  ],
  "api-incident-events": [op("get", "An incident's history", "anyone", A.AnyList)],
  "api-incident-files": [op("post", "Attach files to an incident (JSON or multipart)", "anyone", A.Anything, { body: FilesBodySchema, status: 201 })],
  "api-incident-file": [op("delete", "Remove a file of an incident", "anyone", A.Anything)],
  "api-incident-work-order": [op("get", "The incident's printable work order", "anyone", A.Anything, { file: "application/pdf" })],
  // Time and material (issue 62, decision 065): technicians record and change their own on incidents in
  // reach (403 NOT_YOUR_ENTRY for another's); managers and administrators any within reach.
  "api-incident-time-entries": [
    op("get", "An incident's time entries, oldest first (at most 200; X-Total-Minutes: the sum of all)", "anyone", z.array(A.TimeEntry), { list: true }),
    op("post", "Record time on an incident (one's own; managers also for another person)", "anyone", A.Created, { body: TimeEntryBodySchema, status: 201 }),
  ],
  "api-incident-time-entry": [
    op("patch", "Change a time entry (the fields sent)", "anyone", A.Created, { body: TimeEntryPatchSchema }),
    op("delete", "Delete a time entry", "anyone", A.Ok),
  ],
  "api-incident-material-lines": [
    op("get", "An incident's material lines, oldest first (at most 200; X-Total-Amount: the sum of all)", "anyone", z.array(A.MaterialLine), { list: true }),
    op("post", "Add a material line to an incident", "anyone", A.Created, { body: MaterialLineBodySchema, status: 201 }),
  ],
  "api-incident-material-line": [
    op("patch", "Change a material line (the fields sent)", "anyone", A.Created, { body: MaterialLinePatchSchema }),
    op("delete", "Delete a material line", "anyone", A.Ok),
  ],
  // Start and stop: the caller's own clock, one running per person (decision 065); stopping records a time entry.
  "api-incident-clock-start": [op("post", "Start one's clock on an incident", "anyone", A.ClockStarted, { status: 201, errors: [403, 404, 409] })],
  "api-incident-clock-stop": [op("post", "Stop one's clock on an incident, recording the time entry", "anyone", A.ClockStopped, { status: 201, errors: [403, 404, 409] })],
  "api-tasks": [
    op("get", "Maintenance tasks in reach due between two days (at most 2,000; X-Truncated: true when there were more)", "anyone", z.array(A.Task), {
      query: {
        from: { schema: z.string(), description: "First due day (YYYY-MM-DD), default today" },
        to: { schema: z.string(), description: "Last due day (YYYY-MM-DD), default 30 days later" },
        status: { schema: z.enum(["pending", "done", "all"]), description: "Default all" },
        mine: { schema: z.enum(["true", "false"]), description: "Only the caller's own tasks" },
        building: { schema: z.coerce.number().int(), description: "Only in this building" },
        plan: { schema: z.coerce.number().int(), description: "Only of this planned maintenance" },
      },
      errors: [400, 403],
    }),
  ],
  "api-task-status": [
    op("put", "Mark a task done or pending; an inspection is done with every check answered (a check that requires a photo is answered on the task's screen)", "anyone", A.Task, {
      body: z.looseObject({
        status: z.number().int(),
        note: z.string().nullable().optional(),
        checks: z.record(z.string(), z.string()).optional().describe('An inspection\'s answers by check id: "pass" or "fail", a number, or a text'),
      }),
    }),
  ],
  // Time and material on a task, as on an incident: technicians record and change their own on the tasks
  // they may mark done (403 TASK_NOT_YOURS on another's task, NOT_YOUR_ENTRY on another's entry).
  "api-task-time-entries": [
    op("get", "A task's time entries, oldest first (at most 200; X-Total-Minutes: the sum of all)", "anyone", z.array(A.TimeEntry), { list: true }),
    op("post", "Record time on a task (one's own; managers also for another person)", "anyone", A.Created, { body: TimeEntryBodySchema, status: 201 }),
  ],
  "api-task-time-entry": [
    op("patch", "Change a time entry of a task (the fields sent)", "anyone", A.Created, { body: TimeEntryPatchSchema }),
    op("delete", "Delete a time entry of a task", "anyone", A.Ok),
  ],
  "api-task-material-lines": [
    op("get", "A task's material lines, oldest first (at most 200; X-Total-Amount: the sum of all)", "anyone", z.array(A.MaterialLine), { list: true }),
    op("post", "Add a material line to a task", "anyone", A.Created, { body: MaterialLineBodySchema, status: 201 }),
  ],
  "api-task-material-line": [
    op("patch", "Change a material line of a task (the fields sent)", "anyone", A.Created, { body: MaterialLinePatchSchema }),
    op("delete", "Delete a material line of a task", "anyone", A.Ok),
  ],
  "api-task-clock-start": [op("post", "Start one's clock on a task", "anyone", A.ClockStarted, { status: 201, errors: [403, 404, 409] })],
  "api-task-clock-stop": [op("post", "Stop one's clock on a task, recording the time entry", "anyone", A.ClockStopped, { status: 201, errors: [403, 404, 409] })],
  "api-maintenance-types": collection("maintenance types", managersOnly, A.MaintenanceType, MaintenanceTypeSchema),
  "api-maintenance-type": item("maintenance type", managersOnly, A.MaintenanceType, MaintenanceTypeSchema),
  "api-maintenance-type-checklist": [
    op("get", "Read a maintenance type's checklist (an inspection's checks, in order)", "managers", z.array(A.MaintenanceCheck)),
    op("put", "Replace a maintenance type's checklist: checks with an id are changed, without one added, the others removed", "managers", z.array(A.MaintenanceCheck), {
      body: ChecklistSchema,
      errors: [400, 403, 404],
    }),
  ],
  "api-planned-maintenances": collection("planned maintenance", managersOnly, A.PlannedMaintenance, PlannedMaintenanceSchema),
  "api-planned-maintenance": item("planned maintenance", managersOnly, A.PlannedMaintenance, PlannedMaintenanceSchema),
  "api-printing-qr-codes": [
    op("post", "QR code sticker sheets (A4, 21 a sheet) for a selection: the PDF, or 202 {printJobId, stickers} when made in the background", "managers", A.Anything, {
      body: QrCodesSchema,
      file: "application/pdf",
    }),
  ],
  "api-printing-explanatory-stickers": [
    op("post", "The entity's explanatory sticker, some copies from a starting row (PDF)", "managers", A.Anything, { body: ExplanatoryStickersSchema, file: "application/pdf" }),
  ],
  "api-printing-status": [
    op("get", "The print status of the facility tree, or of one building's rooms and items", "managers", A.Anything, {
      query: { buildingId: { schema: z.coerce.number().int(), description: "One building's rooms and items" } },
      errors: [400, 403, 404],
    }),
  ],
  "api-exports": [
    op("get", "The entity's recent exports", "managers", A.AnyList, {
      query: { type: { schema: z.string(), description: "Only of this export type (number or name)" } },
      errors: [400, 403],
    }),
    op("post", "Start an export (xlsx or csv) made in the background", "managers", A.Created, { body: StartExportSchema, status: 201, errors: [400, 403, 409] }),
  ],
  "api-export": [op("get", "One export: status, progress, expiry", "managers", A.Anything)],
  "api-export-file": [op("get", "An export's file", "managers", A.Anything, { file: "application/octet-stream" })],
  "api-imports": [
    op("get", "The entity's recent imports", "managers", A.AnyList, {
      query: { limit: { schema: z.coerce.number().int().min(1).max(100), description: "How many (default 20)" } },
      errors: [403],
    }),
    op("post", "Check a file and start an import in one transaction (202), or every faulty line (400)", "managers", A.Anything, {
      body: z.object({
        type: z.string().describe("Import type: its number or its template name (rooms, buildings, ...)"),
        file: z.string().meta({ format: "binary" }).describe("The filled template: xlsx or CSV"),
      }),
      bodyMedia: "multipart/form-data",
      status: 202,
      errors: [400, 403, 409, 413, 415],
    }),
  ],
  "api-import": [op("get", "One import: status, progress and every faulty line", "managers", A.Anything)],
  "api-openapi": [op("get", "This document (OpenAPI 3.1)", "visitor", A.Anything, { errors: [] })],
  "api-docs": [op("get", "This document as a page", "visitor", A.Anything, { file: "text/html", errors: [] })],
};

/** Route ids of the table that are not operations: the catch-all answering 404 for unknown addresses. */
export const UNDOCUMENTED_ROUTES = new Set(["api-not-found"]);
