import { and, asc, count, eq, gt, inArray } from "drizzle-orm";
import type { ServiceContext } from "~/core/context.server";
import { fieldColumns } from "~/core/fields.server";
import { ExportType, ROLE_VALUES, USER_STATUS_VALUES } from "~/db/enums";
import { buildings, incidents, maintenanceTypes, plannedMaintenances, rooms, tasks } from "~/db/schema";
import { isCalendarDay } from "~/lib/dates";
import { ValidationError } from "~/lib/errors";
import { type AreaFields, exportKeys, fieldCell, fieldLabelKey } from "~/lib/fields";
import type { ListQuery, Page } from "~/lib/list-query";
import { type ItemListRow, listItemRecords } from "~/modules/equipment/item-queries.server";
import { type CategoryRow, type EquipmentTypeFilter, type EquipmentTypeRow, listCategories, listEquipmentTypes } from "~/modules/equipment/queries.server";
import { type BuildingFilter, type BuildingRow, type FacilityRow, listBuildings, listFacilities } from "~/modules/facilities/queries.server";
import { type IncidentTypeRow, listIncidentTypes } from "~/modules/incident-types/queries.server";
import { type IncidentFilters, parseIncidentFilters } from "~/modules/incidents/filters";
import { type IncidentRow, incidentListWhere, incidentRows, withDueWindow } from "~/modules/incidents/queries.server";
import { reachOutline } from "~/modules/facilities/policy.server";
import { listMaintenanceTypes, listPlannedMaintenances, type MaintenanceTypeRow, type PlannedMaintenanceFilters, type PlannedMaintenanceRow } from "~/modules/maintenance/queries.server";
import { selectTasks, type TaskRow, taskWhere } from "~/modules/maintenance/task-queries.server";
import type { TaskFilters } from "~/modules/maintenance/task-schema";
import { listRooms, listRoomTypes, type RoomFilter, type RoomRow, type RoomTypeRow } from "~/modules/rooms/queries.server";
import { CATEGORY_FIELDS, EQUIPMENT_ITEM_FIELDS, EQUIPMENT_TYPE_FIELDS } from "~/modules/equipment/schema";
import { BUILDING_FIELDS, FACILITY_FIELDS } from "~/modules/facilities/schema";
import { INCIDENT_TYPE_FIELDS } from "~/modules/incident-types/schema";
import { MAINTENANCE_TYPE_FIELDS } from "~/modules/maintenance/schema";
import { ROOM_FIELDS, ROOM_TYPE_FIELDS } from "~/modules/rooms/schema";
import { countMaterialLinesForExport, countTimeEntriesForExport, type MaterialLineExportRow, materialLinesForExport, type TimeEntryExportRow, timeEntriesForExport, type WorkExportFilters } from "~/modules/time-costs/export-queries.server";
import { listUsers, type UserFilters, type UserRow } from "~/modules/users/queries.server";
import type { Cell, ExportFormatter } from "./format";
import { EXPORT_TYPE_SLUGS, type ExportTypeSlug } from "./schema";

/**
 * The exports (decision 055: SPEC.md's twelve; issue 62 adds time entries and material lines), one definition each: its columns (a header key of
 * `exports:columns` and how a row gives the cell) and its rows, read with the list screen's own query,
 * filters and the reader's reach, a batch at a time so memory stays flat whatever the size:
 *
 * - incidents and maintenance tasks (hundreds of thousands of rows): keyset pages by id over the list's
 *   own conditions (`incidentListWhere`, `taskWhere`), each page's rows shaped by the list's row query
 *   (`incidentRows`, `selectTasks`);
 * - the other ten (facilities, buildings, rooms, users, the catalogues: thousands of rows at most): the
 *   list function itself, page after page of MAX_PAGE_SIZE rows in a fixed order (short id or name).
 *
 * Rows are read page by page, not in one snapshot: a row written while an export runs may or may not
 * be in it (the export never holds a transaction open for minutes, which on PGlite would stop the app).
 */
export interface ExportColumn<R> {
  /** `exports:columns.<key>`, or the import's column key for a column the import reads back. */
  key: string;
  /** The header's text key when it is not `exports:columns.<key>`: the import's label (see `importable`). */
  header?: string;
  value(row: R, f: ExportFormatter): Cell;
}

/**
 * The columns the import reads back (issue 49's round trip, decision 055): the area's declared fields
 * (lib/fields.ts, the import's columns) in the export's order, each with the import's key and header
 * (the field's label, `imports:columns.<key>` by default), one label for both directions, so an export of facilities, buildings,
 * rooms, room types, equipment categories and types, maintenance types and incident types imports
 * into another entity as it is. A field's value is the row's property `row` (else its key). The export's other columns (short ids, counts, links) are not
 * import columns and the import leaves them aside.
 */
function importables<R>(area: AreaFields): ExportColumn<R>[] {
  return exportKeys(area).map((key) => {
    const field = area.fields[key];
    const from = field.row ?? key;
    return { key, header: fieldLabelKey(key, field), value: (row: R, f: ExportFormatter) => fieldCell(field, (row as Record<string, unknown>)[from], f) };
  });
}

/** The text key of a column's header, in the `exports` namespace or another one's (`imports:`). */
export function headerKey(column: Pick<ExportColumn<unknown>, "key" | "header">): string {
  return column.header ?? `columns.${column.key}`;
}

export interface ExportDefinition<R = unknown, F = unknown> {
  type: ExportType;
  slug: ExportTypeSlug;
  /** The list filters from the export's parameters; an unreadable one is a ValidationError. */
  parseFilters(params: URLSearchParams): F;
  columns: ExportColumn<R>[];
  /** The rows, batch after batch; `total` is told the row count as soon as it is known. */
  batches(ctx: ServiceContext, filters: F, total: (n: number) => void): AsyncGenerator<R[]>;
}

/** Rows read per keyset page. */
export const EXPORT_BATCH = 500;
/** Rows per page of a list function (its largest page). */
const LIST_PAGE = 100;

function define<R, F>(definition: ExportDefinition<R, F>): ExportDefinition<R, F> {
  return definition;
}

function listQuery<S extends string>(sort: S, page: number): ListQuery<S> {
  return { page, size: LIST_PAGE, sort, dir: "asc", q: "" };
}

/** Every page of a list function, in its order. */
async function* pagesOf<R>(read: (page: number) => Promise<Page<R>>, total: (n: number) => void): AsyncGenerator<R[]> {
  for (let page = 1; ; page++) {
    const result = await read(page);
    if (page === 1) total(result.total);
    if (result.items.length) yield result.items;
    if (result.items.length < result.size || page * result.size >= result.total) return;
  }
}

/**
 * Keyset pages by id: `read(after)` reads the page after id `after`. The next page is read while the
 * caller writes this one (the database works while the process formats), one page ahead at most.
 */
async function* keysetPages<R>(read: (after: number) => Promise<{ rows: R[]; last: number | null; full: boolean }>): AsyncGenerator<R[]> {
  let next: Promise<{ rows: R[]; last: number | null; full: boolean }> | null = read(0);
  while (next) {
    const page: { rows: R[]; last: number | null; full: boolean } = await next;
    next = page.full && page.last !== null ? read(page.last) : null;
    // A read ahead that fails after the caller stopped must not go unhandled.
    next?.catch(() => undefined);
    if (page.rows.length) yield page.rows;
  }
}

/** Reads the filter parameters strictly: a malformed value is a field error naming the parameter. */
function filterReader(params: URLSearchParams) {
  const errors: Record<string, string[]> = {};
  const bad = (name: string) => {
    errors[name] = ["exports:errors.filter"];
  };
  return {
    id(name: string): number | null {
      const v = params.get(name);
      if (v === null || v === "") return null;
      if (/^\d{1,9}$/.test(v) && Number(v) > 0) return Number(v);
      bad(name);
      return null;
    },
    day(name: string): string | null {
      const v = params.get(name);
      if (v === null || v === "") return null;
      if (isCalendarDay(v)) return v;
      bad(name);
      return null;
    },
    oneOf<T extends string | number>(name: string, values: readonly T[]): T | null {
      const v = params.get(name);
      if (v === null || v === "") return null;
      const found = values.find((x) => String(x) === v);
      if (found === undefined) bad(name);
      return found ?? null;
    },
    done<T>(value: T): T {
      if (Object.keys(errors).length) throw new ValidationError(errors, "exports:errors.filters", "INVALID_EXPORT_FILTERS");
      return value;
    },
  };
}

type NoFilters = Record<string, never>;
const noFilters = (): NoFilters => ({});

const users = define<UserRow, UserFilters>({
  type: ExportType.USERS,
  slug: "users",
  parseFilters(params) {
    const r = filterReader(params);
    return r.done({ role: r.oneOf("role", ROLE_VALUES), status: r.oneOf("status", USER_STATUS_VALUES) });
  },
  columns: [
    { key: "surname", value: (u) => u.surname },
    { key: "name", value: (u) => u.name },
    { key: "email", value: (u) => u.email },
    { key: "role", value: (u, f) => f.word("role", u.role) },
    { key: "userStatus", value: (u, f) => f.word("userStatus", u.status) },
    { key: "language", value: (u, f) => f.word("language", u.language) },
    { key: "lastLogin", value: (u, f) => f.instant(u.lastLoginAt) },
    { key: "linkedFacilities", value: (u, f) => f.list(u.linkedFacilities.map((x) => x.name)) },
    { key: "linkedBuildings", value: (u, f) => f.list(u.linkedBuildings.map((x) => `${x.name} (${x.facilityName})`)) },
  ],
  batches: (ctx, filters, total) => pagesOf((page) => listUsers(ctx, listQuery("surname", page), filters), total),
});

const facilitiesExport = define<FacilityRow, NoFilters>({
  type: ExportType.FACILITIES,
  slug: "facilities",
  parseFilters: noFilters,
  columns: [
    { key: "shortId", value: (r) => r.shortId },
    ...importables<FacilityRow>(FACILITY_FIELDS),
    { key: "buildingCount", value: (r) => r.countBuildings },
    { key: "activeIncidents", value: (r) => r.activeIncidents },
  ],
  batches: (ctx, _filters, total) => pagesOf((page) => listFacilities(ctx, listQuery("shortId", page)), total),
});

const buildingsExport = define<BuildingRow, BuildingFilter>({
  type: ExportType.BUILDINGS,
  slug: "buildings",
  parseFilters(params) {
    const r = filterReader(params);
    const facilityId = r.id("facilityId");
    return r.done({ facilityIds: facilityId ? [facilityId] : null });
  },
  columns: [
    { key: "shortId", value: (r) => r.shortId },
    ...importables<BuildingRow>(BUILDING_FIELDS),
    { key: "roomCount", value: (r) => r.countRooms },
    { key: "activeIncidents", value: (r) => r.activeIncidents },
  ],
  batches: (ctx, filters, total) => pagesOf((page) => listBuildings(ctx, listQuery("shortId", page), filters), total),
});

const roomsExport = define<RoomRow, RoomFilter>({
  type: ExportType.ROOMS,
  slug: "rooms",
  parseFilters(params) {
    const r = filterReader(params);
    const buildingId = r.id("buildingId");
    return r.done({ facilityId: r.id("facilityId"), buildingIds: buildingId ? [buildingId] : null });
  },
  columns: [
    { key: "shortId", value: (r) => r.shortId },
    ...importables<RoomRow>(ROOM_FIELDS),
    { key: "equipmentCount", value: (r) => r.activeEquipmentCount },
    { key: "activeIncidents", value: (r) => r.activeIncidents },
  ],
  batches: (ctx, filters, total) => pagesOf((page) => listRooms(ctx, listQuery("shortId", page), filters), total),
});

const roomTypesExport = define<RoomTypeRow, NoFilters>({
  type: ExportType.ROOM_TYPES,
  slug: "room-types",
  parseFilters: noFilters,
  columns: [
    ...importables<RoomTypeRow>(ROOM_TYPE_FIELDS),
    { key: "roomCount", value: (r) => r.linkedRoomsCount },
  ],
  batches: (ctx, _filters, total) => pagesOf((page) => listRoomTypes(ctx, listQuery("name", page)), total),
});

const categoriesExport = define<CategoryRow, NoFilters>({
  type: ExportType.EQUIPMENT_CATEGORIES,
  slug: "equipment-categories",
  parseFilters: noFilters,
  columns: [
    ...importables<CategoryRow>(CATEGORY_FIELDS),
    { key: "equipmentCount", value: (r) => r.equipmentCount },
  ],
  batches: (ctx, _filters, total) => pagesOf((page) => listCategories(ctx, listQuery("name", page)), total),
});

/** The equipment items in the reader's reach with their records (issue 63), by generic equipment and reference. */
const equipmentItemsExport = define<ItemListRow, NoFilters>({
  type: ExportType.EQUIPMENT_ITEMS,
  slug: "equipment-items",
  parseFilters: noFilters,
  columns: importables<ItemListRow>(EQUIPMENT_ITEM_FIELDS),
  batches: (ctx, _filters, total) => pagesOf((page) => listItemRecords(ctx, listQuery("equipmentName", page)), total),
});

const equipmentTypesExport = define<EquipmentTypeRow, EquipmentTypeFilter>({
  type: ExportType.GENERIC_EQUIPMENTS,
  slug: "generic-equipments",
  parseFilters(params) {
    const r = filterReader(params);
    const categoryId = r.id("categoryId");
    return r.done({ categoryIds: categoryId ? [categoryId] : null });
  },
  columns: [
    ...importables<EquipmentTypeRow>(EQUIPMENT_TYPE_FIELDS),
    { key: "itemCount", value: (r) => r.itemCount },
    { key: "createdAt", value: (r, f) => f.instant(r.creationTimestamp) },
  ],
  batches: (ctx, filters, total) => pagesOf((page) => listEquipmentTypes(ctx, listQuery("name", page), filters), total),
});

const incidentTypesExport = define<IncidentTypeRow, NoFilters>({
  type: ExportType.INCIDENT_TYPES,
  slug: "incident-types",
  parseFilters: noFilters,
  columns: [
    ...importables<IncidentTypeRow>(INCIDENT_TYPE_FIELDS),
    { key: "roomTypes", value: (r, f) => f.list(r.roomTypes.map((x) => x.name)) },
    { key: "genericEquipments", value: (r, f) => f.list(r.equipmentTypes.map((x) => x.name)) },
    { key: "rooms", value: (r, f) => f.list(r.rooms.map((x) => x.name)) },
    { key: "openIncidents", value: (r) => r.openIncidents },
  ],
  batches: (ctx, _filters, total) => pagesOf((page) => listIncidentTypes(ctx, listQuery("name", page)), total),
});

/** A maintenance type's list row and its declared fields, read from its table (the list screen shows fewer). */
type MaintenanceTypeExportRow = MaintenanceTypeRow & Record<string, unknown>;

const maintenanceTypesExport = define<MaintenanceTypeExportRow, NoFilters>({
  type: ExportType.MAINTENANCE_TYPES,
  slug: "maintenance-types",
  parseFilters: noFilters,
  columns: [
    ...importables<MaintenanceTypeExportRow>(MAINTENANCE_TYPE_FIELDS),
    { key: "plansCount", value: (r) => r.plansCount },
  ],
  async *batches(ctx, _filters, total) {
    for await (const page of pagesOf((page) => listMaintenanceTypes(ctx, listQuery("name", page)), total)) {
      const found = await ctx.db
        .select({ ...fieldColumns(maintenanceTypes, MAINTENANCE_TYPE_FIELDS), id: maintenanceTypes.id })
        .from(maintenanceTypes)
        .where(and(eq(maintenanceTypes.entityId, ctx.entityId), inArray(maintenanceTypes.id, page.map((r) => r.id))));
      const fields = new Map(found.map((r) => [r.id, r]));
      yield page.map((r) => ({ ...r, ...fields.get(r.id) }));
    }
  },
});

const plannedExport = define<PlannedMaintenanceRow, PlannedMaintenanceFilters>({
  type: ExportType.PLANNED_MAINTENANCE,
  slug: "planned-maintenance",
  parseFilters(params): PlannedMaintenanceFilters {
    const r = filterReader(params);
    return r.done({ maintenanceTypeId: r.id("maintenanceTypeId"), facilityId: r.id("facilityId"), assigneeId: r.id("assigneeId") });
  },
  columns: [
    { key: "name", value: (r) => r.name },
    { key: "maintenanceType", value: (r) => r.maintenanceTypeName },
    { key: "startDate", value: (r, f) => f.day(r.startDate) },
    { key: "endDate", value: (r, f) => f.day(r.endDate) },
    { key: "timeOfDay", value: (r) => r.timeOfDay },
    { key: "repeat", value: (r, f) => f.word("occurrenceUnit", r.occurrenceUnit) },
    { key: "every", value: (r) => r.occurrenceInterval },
    { key: "assignees", value: (r, f) => f.list(r.assignees.map((p) => `${p.name} ${p.surname}`.trim())) },
  ],
  batches: (ctx, filters, total) => pagesOf((page) => listPlannedMaintenances(ctx, listQuery("name", page), filters), total),
});

const incidentsExport = define<IncidentRow, IncidentFilters>({
  type: ExportType.INCIDENTS,
  slug: "incidents",
  parseFilters(params): IncidentFilters {
    const filters = parseIncidentFilters(params, { strict: true });
    return filters;
  },
  columns: [
    { key: "shortId", value: (r) => r.shortId },
    { key: "title", value: (r) => r.title },
    { key: "incidentStatus", value: (r, f) => f.word("incidentStatus", r.status) },
    { key: "priority", value: (r, f) => f.word("priority", r.priority ?? "none") },
    { key: "incidentType", value: (r) => r.incidentType?.name ?? null },
    { key: "facility", value: (r) => r.location.facilityName },
    { key: "building", value: (r) => r.location.buildingName },
    { key: "room", value: (r) => r.location.roomName },
    { key: "floor", value: (r) => r.location.floor },
    { key: "equipment", value: (r) => (r.location.equipmentName ? `${r.location.equipmentName}${r.location.internalReference ? ` ${r.location.internalReference}` : ""}` : null) },
    { key: "location", value: (r) => r.location.text },
    { key: "assignee", value: (r) => r.assignee?.name ?? null },
    { key: "tags", value: (r, f) => f.list(r.tags) },
    { key: "occurrences", value: (r) => r.occurrences },
    { key: "createdAt", value: (r, f) => f.instant(r.createdAt) },
    { key: "lastOccurrenceAt", value: (r, f) => f.instant(r.lastOccurrenceAt) },
  ],
  async *batches(ctx, filters, total) {
    // A wide reach is tested by its complement (`incidentReach`): one outline for every page.
    const where = incidentListWhere(ctx, await withDueWindow(ctx, filters), await reachOutline(ctx));
    // tenant-scope: scoped by incidentListWhere (the entity and the viewer's reach, incidents/queries.server.ts)
    const [{ n }] = await ctx.db.select({ n: count() }).from(incidents).where(where);
    total(n);
    yield* keysetPages(async (after) => {
      // tenant-scope: scoped by incidentListWhere (the entity and the viewer's reach, incidents/queries.server.ts)
      const ids = (await ctx.db.select({ id: incidents.id }).from(incidents).where(and(where, gt(incidents.id, after))).orderBy(asc(incidents.id)).limit(EXPORT_BATCH)).map((r) => r.id);
      return { rows: await incidentRows(ctx, ids), last: ids.at(-1) ?? null, full: ids.length === EXPORT_BATCH };
    });
  },
});

const tasksExport = define<TaskRow, TaskFilters>({
  type: ExportType.MAINTENANCE_TASKS,
  slug: "maintenance-tasks",
  parseFilters(params): TaskFilters {
    const r = filterReader(params);
    // Every task unless a status is named (the list shows the pending ones first).
    const status = r.oneOf("status", ["all", "pending", "done"] as const) ?? "all";
    return r.done({ status, buildingId: r.id("building"), plannedMaintenanceId: r.id("plan"), assignee: null });
  },
  columns: [
    { key: "plannedMaintenance", value: (r) => r.planName },
    { key: "dueDate", value: (r, f) => f.day(r.dueDate) },
    { key: "dueTime", value: (r) => (r.dueTime ? r.dueTime.slice(0, 5) : null) },
    { key: "taskStatus", value: (r, f) => f.word("taskStatus", r.status) },
    { key: "building", value: (r) => r.buildingName },
    { key: "room", value: (r) => r.roomName },
    { key: "equipment", value: (r) => r.equipmentName },
    { key: "assignees", value: (r) => r.assignees },
    { key: "doneAt", value: (r, f) => f.instant(r.doneAt) },
    { key: "doneBy", value: (r) => r.doneByName },
    { key: "note", value: (r) => r.note },
    // An inspection's sign-off (issue 63): who signed, by their name as it was then, and when.
    { key: "signedOffBy", value: (r) => r.signedOffName },
    { key: "signedOffAt", value: (r, f) => f.instant(r.signedOffAt) },
  ],
  async *batches(ctx, filters, total) {
    const where = taskWhere(ctx, filters);
    // tenant-scope: scoped by the inner joins on the entity's plans and rooms (and taskWhere)
    const [{ n }] = await ctx.db
      .select({ n: count() })
      .from(tasks)
      .innerJoin(plannedMaintenances, and(eq(plannedMaintenances.id, tasks.plannedMaintenanceId), eq(plannedMaintenances.entityId, ctx.entityId)))
      .innerJoin(rooms, and(eq(rooms.id, tasks.roomId), eq(rooms.entityId, ctx.entityId)))
      .innerJoin(buildings, eq(buildings.id, rooms.buildingId))
      .where(where);
    total(n);
    yield* keysetPages(async (after) => {
      const rows = await selectTasks(ctx).where(and(where, gt(tasks.id, after))).orderBy(asc(tasks.id)).limit(EXPORT_BATCH);
      return { rows, last: rows.at(-1)?.id ?? null, full: rows.length === EXPORT_BATCH };
    });
  },
});

/** The time and material exports' filters: the incident's or task's facility; for time, the days worked (YYYY-MM-DD). */
function workFilters(params: URLSearchParams, withDays: boolean): WorkExportFilters {
  const r = filterReader(params);
  return r.done({ facilityId: r.id("facility"), from: withDays ? r.day("from") : null, to: withDays ? r.day("to") : null });
}

/**
 * Where the work was done: the incident or the task (its id and its planned maintenance's name), and its
 * place, first in both exports.
 */
const workPlaceColumns = <R extends TimeEntryExportRow | MaterialLineExportRow>(): ExportColumn<R>[] => [
  { key: "incident", value: (r) => r.incidentShortId },
  { key: "incidentTitle", value: (r) => r.incidentTitle },
  { key: "task", value: (r) => r.taskId },
  { key: "plannedMaintenance", value: (r) => r.planName },
  { key: "facility", value: (r) => r.facilityName },
  { key: "building", value: (r) => r.buildingName },
  { key: "room", value: (r) => r.roomName },
];

/**
 * The time recorded on the incidents and tasks in the reader's reach (decision 065), by entry: the minutes as a
 * whole number and as hours to two decimals, which a spreadsheet sums.
 */
const timeEntriesExport = define<TimeEntryExportRow, WorkExportFilters>({
  type: ExportType.TIME_ENTRIES,
  slug: "time-entries",
  parseFilters: (params) => workFilters(params, true),
  columns: [
    ...workPlaceColumns<TimeEntryExportRow>(),
    { key: "workedOn", value: (r, f) => f.day(r.workedOn) },
    { key: "person", value: (r) => r.person },
    { key: "minutes", value: (r) => r.minutes },
    { key: "hours", value: (r) => Math.round((r.minutes / 60) * 100) / 100 },
    { key: "note", value: (r) => r.note },
  ],
  async *batches(ctx, filters, total) {
    const outline = await reachOutline(ctx);
    total(await countTimeEntriesForExport(ctx, filters, outline));
    yield* keysetPages(async (after) => {
      const rows = await timeEntriesForExport(ctx, filters, outline, after, EXPORT_BATCH);
      return { rows, last: rows.at(-1)?.id ?? null, full: rows.length === EXPORT_BATCH };
    });
  },
});

/** The material recorded on the incidents and tasks in the reader's reach, by line; amounts as numbers a spreadsheet sums. */
const materialLinesExport = define<MaterialLineExportRow, WorkExportFilters>({
  type: ExportType.MATERIAL_LINES,
  slug: "material-lines",
  parseFilters: (params) => workFilters(params, false),
  columns: [
    ...workPlaceColumns<MaterialLineExportRow>(),
    { key: "description", value: (r) => r.description },
    { key: "quantity", value: (r) => Number(r.quantity) },
    { key: "unitCost", value: (r) => Number(r.unitCost) },
    { key: "lineTotal", value: (r) => Number(r.total) },
    { key: "addedBy", value: (r) => r.addedBy },
    { key: "createdAt", value: (r, f) => f.instant(r.createdAt) },
  ],
  async *batches(ctx, filters, total) {
    const outline = await reachOutline(ctx);
    total(await countMaterialLinesForExport(ctx, filters, outline));
    yield* keysetPages(async (after) => {
      const rows = await materialLinesForExport(ctx, filters, outline, after, EXPORT_BATCH);
      return { rows, last: rows.at(-1)?.id ?? null, full: rows.length === EXPORT_BATCH };
    });
  },
});

/** The definitions by export type (SPEC.md section 3's values, then the app's own). */
export const EXPORTS: Record<ExportType, ExportDefinition> = Object.fromEntries(
  [
    users,
    roomsExport,
    buildingsExport,
    incidentsExport,
    facilitiesExport,
    roomTypesExport,
    incidentTypesExport,
    maintenanceTypesExport,
    tasksExport,
    equipmentTypesExport,
    plannedExport,
    categoriesExport,
    timeEntriesExport,
    materialLinesExport,
    equipmentItemsExport,
  ].map((d) => [
    d.type,
    d as unknown as ExportDefinition,
  ]),
) as Record<ExportType, ExportDefinition>;

export function exportDefinition(type: ExportType): ExportDefinition {
  const definition = EXPORTS[type];
  if (!definition || EXPORT_TYPE_SLUGS[definition.slug] !== type) throw new Error(`no export of type ${type}`);
  return definition;
}

