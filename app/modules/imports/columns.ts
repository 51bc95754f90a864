import { BulkUploadType } from "~/db/enums";

/**
 * The import types of SPEC.md section 3 and the columns of each one's template (client-safe: the
 * screen lists them, the template and the parser read them). Headers are translated
 * (`imports:columns.<key>`); a file's header is matched against the labels of every language and the
 * key itself, so a Dutch template imports for an English user and an export (same labels) imports
 * back. Mandatory columns carry " *" in the template's header.
 */

/** What a reference column names: an existing record, by name or short id (decision 054). */
export type ReferenceKind = "facility" | "building" | "roomType" | "category";
/** The enumerations a choice column offers (translated labels, or the stored number). */
export type ChoiceKind = "priority" | "occurrenceUnit" | "yesNo";

/** Every import column's key; its header is `imports:columns.<key>` (the exports of the same columns write it too). */
export type ImportColumnKey =
  | "name"
  | "description"
  | "facility"
  | "building"
  | "roomType"
  | "floor"
  | "category"
  | "notes"
  | "tags"
  | "streetName"
  | "streetNumber"
  | "suffix"
  | "buildingFloor"
  | "additionalInfo"
  | "postalCode"
  | "city"
  | "country"
  | "occurrenceUnit"
  | "occurrenceInterval"
  | "instructions"
  | "estimatedDuration"
  | "nameEn"
  | "nameFr"
  | "nameNl"
  | "defaultPriority"
  | "appliesEverywhere"
  | "reporterMayChangePriority";

export interface ImportColumn {
  key: ImportColumnKey;
  required?: boolean;
  kind: "text" | "tags" | "integer" | "reference" | "choice";
  /** Longest text (the area's schema's own limit). */
  max?: number;
  reference?: ReferenceKind;
  /**
   * For a reference to a building: the column naming its facility. When the line fills it, the building
   * is looked for in that facility only, so "Building A" of two sites is not ambiguous (a rooms export
   * names both, decision 054's round trip).
   */
  within?: ImportColumnKey;
  choice?: ChoiceKind;
  /** The template's example value (choice columns show their first choice's label instead). */
  example?: string;
}

export interface ImportTypeDefinition {
  type: BulkUploadType;
  /** In addresses: /resources/import-template/<slug>.xlsx, the API's `type`. */
  slug: string;
  columns: readonly ImportColumn[];
  /** For incident types: at least one of these (the names), reported on the first. */
  oneOf?: readonly ImportColumnKey[];
}

const name = (example: string, max = 200): ImportColumn => ({ key: "name", required: true, kind: "text", max, example });
const tags = (example = "tag1, tag2"): ImportColumn => ({ key: "tags", kind: "tags", example });

export const IMPORT_TYPES: readonly ImportTypeDefinition[] = [
  {
    type: BulkUploadType.FACILITY,
    slug: "facility",
    columns: [name("Main campus"), { key: "description", kind: "text", max: 2000, example: "Headquarters and workshops" }],
  },
  {
    type: BulkUploadType.BUILDING,
    slug: "building",
    columns: [
      name("Building A"),
      { key: "facility", required: true, kind: "reference", reference: "facility", example: "Main campus" },
      { key: "description", kind: "text", max: 2000, example: "" },
      { key: "streetName", kind: "text", max: 200, example: "Rue de la Loi" },
      { key: "streetNumber", kind: "text", max: 20, example: "16" },
      { key: "suffix", kind: "text", max: 20, example: "" },
      { key: "buildingFloor", kind: "text", max: 100, example: "" },
      { key: "additionalInfo", kind: "text", max: 200, example: "" },
      { key: "postalCode", kind: "text", max: 20, example: "1000" },
      { key: "city", kind: "text", max: 100, example: "Brussels" },
      { key: "country", kind: "text", max: 2, example: "BE" },
    ],
  },
  { type: BulkUploadType.ROOM_TYPES, slug: "room-types", columns: [name("Meeting room"), tags("meeting")] },
  { type: BulkUploadType.EQUIPMENT_CATEGORIES, slug: "equipment-categories", columns: [name("Heating"), tags("hvac")] },
  {
    type: BulkUploadType.EQUIPMENT_TYPES,
    slug: "equipment-types",
    columns: [
      name("Radiator"),
      { key: "category", required: true, kind: "reference", reference: "category", example: "Heating" },
      { key: "notes", kind: "text", max: 4000, example: "" },
      tags("hvac"),
    ],
  },
  {
    type: BulkUploadType.MAINTENANCE_TYPES,
    slug: "maintenance-types",
    columns: [
      name("Boiler check"),
      { key: "occurrenceUnit", kind: "choice", choice: "occurrenceUnit" },
      { key: "occurrenceInterval", kind: "integer", example: "1" },
      { key: "instructions", kind: "text", max: 5000, example: "Check the pressure" },
      { key: "estimatedDuration", kind: "integer", example: "30" },
      tags("safety"),
    ],
  },
  {
    type: BulkUploadType.ROOMS,
    slug: "rooms",
    columns: [
      name("Room 1.01"),
      { key: "building", required: true, kind: "reference", reference: "building", within: "facility", example: "Building A" },
      { key: "roomType", required: true, kind: "reference", reference: "roomType", example: "Meeting room" },
      { key: "floor", required: true, kind: "text", max: 50, example: "1" },
      { key: "description", kind: "text", max: 2000, example: "" },
      // Optional: the building's facility, by name or short id, when building names repeat across facilities.
      { key: "facility", kind: "text", max: 200, example: "Main campus" },
    ],
  },
  {
    type: BulkUploadType.INCIDENT_TYPE,
    slug: "incident-type",
    oneOf: ["nameEn", "nameFr", "nameNl"],
    columns: [
      { key: "nameEn", kind: "text", max: 200, example: "Broken window" },
      { key: "nameFr", kind: "text", max: 200, example: "Fenêtre cassée" },
      { key: "nameNl", kind: "text", max: 200, example: "Gebroken raam" },
      { key: "defaultPriority", required: true, kind: "choice", choice: "priority" },
      { key: "appliesEverywhere", kind: "choice", choice: "yesNo" },
      { key: "reporterMayChangePriority", kind: "choice", choice: "yesNo" },
    ],
  },
];

export function importTypeOf(type: number): ImportTypeDefinition | undefined {
  return IMPORT_TYPES.find((d) => d.type === type);
}

export function importTypeBySlug(slug: string): ImportTypeDefinition | undefined {
  return IMPORT_TYPES.find((d) => d.slug === slug);
}

/** The i18n key of a column's header. */
export const columnLabelKey = (column: Pick<ImportColumn, "key">) => `imports:columns.${column.key}`;

/**
 * The choices of each enumeration: stored value and label key, in the order a drop-down lists them.
 * `readKeys` are further words read back (never written by the template): the export's words for the
 * same value (`exports:values.*`), so an export imports as it is (decision 054, round trip).
 */
export const CHOICES: Record<ChoiceKind, ReadonlyArray<{ value: number | boolean; labelKey: string; readKeys: readonly string[] }>> = {
  priority: [0, 1, 2, 3].map((value) => ({ value, labelKey: `incidents:priority.${value}`, readKeys: [`exports:values.priority.${value}`] })),
  occurrenceUnit: [0, 1, 2, 3, 4].map((value) => ({ value, labelKey: `maintenance:form.units.${value}`, readKeys: [`exports:values.occurrenceUnit.${value}`] })),
  yesNo: [
    { value: false, labelKey: "imports:choices.no", readKeys: ["exports:values.boolean.no"] },
    { value: true, labelKey: "imports:choices.yes", readKeys: ["exports:values.boolean.yes"] },
  ],
};

/** Which notification area an import type's outcome belongs to (SPEC.md section 3's import notifications). */
export type ImportArea = "facilities" | "equipments" | "maintenance" | "incidents";

export function importArea(type: BulkUploadType): ImportArea {
  switch (type) {
    case BulkUploadType.EQUIPMENT_CATEGORIES:
    case BulkUploadType.EQUIPMENT_TYPES:
      return "equipments";
    case BulkUploadType.MAINTENANCE_TYPES:
      return "maintenance";
    case BulkUploadType.INCIDENT_TYPE:
      return "incidents";
    default:
      return "facilities";
  }
}
