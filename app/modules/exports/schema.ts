/**
 * Exports (issue 49, decision 055), client-safe: the twelve export types by their address name, the two
 * file formats, which list filters each type takes, and the input of "start an export", shared by the
 * export tab's form and POST /api/exports. Messages are i18n keys of the `exports` namespace.
 */
import { z } from "zod";
import { ExportType } from "~/db/enums";
import { hasControlCharacters } from "~/lib/text";

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
export type ExportFilterKind = "statuses" | "priorities" | "facility" | "building" | "from" | "to" | "incidentType" | "q" | "role" | "userStatus" | "category" | "maintenanceType" | "taskStatus" | "plan" | "assignee";

/**
 * The list screens' filters each type takes, by URL parameter (the same names as the list's address):
 * incidents those of /incidents; rooms and buildings the facility; users role and status; generic
 * equipment the category; planned maintenance the type and the facility; tasks status and building.
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
};

/** The most parameters and the longest value a filter set may carry (a bad request is refused, never stored). */
const MAX_FILTER_VALUES = 20;
const filterValue = z
  .string()
  .max(100, "exports:errors.filter")
  .refine((v) => !hasControlCharacters(v), "exports:errors.filter");

/** Leaves out the filters a form left empty ("All"), so they are no filter. */
function dropEmpty(value: unknown): unknown {
  if (value === undefined || value === null) return {};
  if (typeof value !== "object" || Array.isArray(value)) return value;
  const kept: Record<string, unknown> = {};
  for (const [name, v] of Object.entries(value)) {
    const list = Array.isArray(v) ? v.filter((x) => x !== undefined && x !== null && x !== "") : v;
    if (list === undefined || list === null || list === "" || (Array.isArray(list) && list.length === 0)) continue;
    kept[name] = list;
  }
  return kept;
}

const typeField = z.preprocess(
  (v) => (typeof v === "number" ? exportSlugOf(v) : v),
  z.enum(EXPORT_TYPE_NAMES as [ExportTypeSlug, ...ExportTypeSlug[]], { error: "exports:errors.type" }),
);

/**
 * Start an export: `{ type, format, filters }`. `type` is a name of EXPORT_TYPE_SLUGS (the API also
 * takes SPEC's number); `filters` holds the list's parameters (`{ status: ["0", "1"], facility: "3" }`;
 * numbers are taken as their text); a parameter the type does not take is refused.
 */
export const StartExportSchema = z
  .object({
    type: typeField,
    format: z.enum(EXPORT_FORMATS, { error: "exports:errors.format" }).default("xlsx"),
    filters: z.preprocess(
      dropEmpty,
      z.record(
        z.string().max(40),
        z.preprocess(
          (v) => (typeof v === "number" ? String(v) : Array.isArray(v) ? v.map((x) => (typeof x === "number" ? String(x) : x)) : v),
          z.union([filterValue, z.array(filterValue).max(MAX_FILTER_VALUES, "exports:errors.filter")]),
        ),
      ),
    ),
  })
  .superRefine((value, issue) => {
    const allowed = EXPORT_FILTERS[value.type];
    for (const name of Object.keys(value.filters)) {
      if (!Object.hasOwn(allowed, name)) issue.addIssue({ code: "custom", path: ["filters", name], message: "exports:errors.filter" });
    }
  });
export type StartExportInput = z.input<typeof StartExportSchema>;
export type StartExport = z.output<typeof StartExportSchema>;

/** The filters as URL parameters (what the list parsers read), leaving out empty values. */
export function filterSearchParams(filters: Record<string, string | string[]>): URLSearchParams {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(filters)) {
    for (const v of Array.isArray(value) ? value : [value]) if (v.trim() !== "") params.append(name, v.trim());
  }
  return params;
}
