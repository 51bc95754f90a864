/**
 * The exports' names and filters (issue 49, decision 055), client-safe and without zod: the export tab's
 * form reads these at once; the schema (./schema.ts) loads with the form's validation only.
 */
import { ExportType } from "~/db/enums";

/** The export types by the name used in addresses and the API, in SPEC.md section 3's order. */
export const EXPORT_TYPE_SLUGS = {
  users: ExportType.USERS,
  rooms: ExportType.ROOMS,
  buildings: ExportType.BUILDINGS,
  incidents: ExportType.INCIDENTS,
  facilities: ExportType.FACILITIES,
  "room-types": ExportType.ROOM_TYPES,
  "incident-types": ExportType.INCIDENT_TYPES,
  "maintenance-types": ExportType.MAINTENANCE_TYPES,
  "maintenance-tasks": ExportType.MAINTENANCE_TASKS,
  "generic-equipments": ExportType.GENERIC_EQUIPMENTS,
  "planned-maintenance": ExportType.PLANNED_MAINTENANCE,
  "equipment-categories": ExportType.EQUIPMENT_CATEGORIES,
  // Not in SPEC.md's list (issue 62): the time and material recorded on incidents.
  "time-entries": ExportType.TIME_ENTRIES,
  "material-lines": ExportType.MATERIAL_LINES,
  // Not in SPEC.md's list (issue 63): the equipment items with their records.
  "equipment-items": ExportType.EQUIPMENT_ITEMS,
} as const satisfies Record<string, ExportType>;
export type ExportTypeSlug = keyof typeof EXPORT_TYPE_SLUGS;
export const EXPORT_TYPE_NAMES = Object.keys(EXPORT_TYPE_SLUGS) as ExportTypeSlug[];

export function exportTypeOf(slug: unknown): ExportType | null {
  return typeof slug === "string" && Object.hasOwn(EXPORT_TYPE_SLUGS, slug) ? EXPORT_TYPE_SLUGS[slug as ExportTypeSlug] : null;
}

export function exportSlugOf(type: number): ExportTypeSlug | null {
  return EXPORT_TYPE_NAMES.find((slug) => EXPORT_TYPE_SLUGS[slug] === type) ?? null;
}

export const EXPORT_FORMATS = ["xlsx", "csv"] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/** A filter of the export form: its parameter (the list screen's) and how it is chosen. */
export type ExportFilterKind =
  | "statuses"
  | "priorities"
  | "facility"
  | "building"
  | "from"
  | "to"
  | "incidentType"
  | "q"
  | "role"
  | "userStatus"
  | "category"
  | "maintenanceType"
  | "taskStatus"
  | "plan"
  | "assignee"
  | "workedFrom"
  | "workedTo";

/**
 * The list screens' filters each type takes, by URL parameter (the same names as the list's address):
 * incidents those of /incidents; rooms and buildings the facility; users role and status; generic
 * equipment the category; planned maintenance the type and the facility; tasks status and building;
 * time entries the incident's facility and the days worked; material lines the incident's facility.
 */
export const EXPORT_FILTERS: Record<ExportTypeSlug, Partial<Record<string, ExportFilterKind>>> = {
  users: { role: "role", status: "userStatus" },
  rooms: { facilityId: "facility", buildingId: "building" },
  buildings: { facilityId: "facility" },
  incidents: { status: "statuses", priority: "priorities", facility: "facility", building: "building", type: "incidentType", from: "from", to: "to", q: "q" },
  facilities: {},
  "room-types": {},
  "incident-types": {},
  "maintenance-types": {},
  "maintenance-tasks": { status: "taskStatus", building: "building", plan: "plan" },
  "generic-equipments": { categoryId: "category" },
  "planned-maintenance": { maintenanceTypeId: "maintenanceType", facilityId: "facility", assigneeId: "assignee" },
  "equipment-categories": {},
  "time-entries": { facility: "facility", from: "workedFrom", to: "workedTo" },
  "material-lines": { facility: "facility" },
  "equipment-items": {},
};
