import { BulkUploadType } from "~/db/enums";
import { type AreaFields, type ChoiceKind, type FieldDeclaration, type FieldKey, fieldLabelKey } from "~/lib/fields";
import { BUILDING_FIELDS, FACILITY_FIELDS } from "~/modules/facilities/schema";
import { CATEGORY_FIELDS, EQUIPMENT_ITEM_FIELDS, EQUIPMENT_TYPE_FIELDS } from "~/modules/equipment/schema";
import { INCIDENT_TYPE_FIELDS } from "~/modules/incident-types/schema";
import { MAINTENANCE_TYPE_FIELDS } from "~/modules/maintenance/schema";
import { ROOM_FIELDS, ROOM_TYPE_FIELDS } from "~/modules/rooms/schema";
import { IMPORT_TYPE_LIST } from "./types";

/**
 * The import types of SPEC.md section 3 and the columns of each one's template, read by the template
 * and the parser (they come from the areas' schemas, zod included: the screen reads types.ts). Headers
 * are translated (each field's `label`, by default `imports:columns.<key>`); a file's header is matched against the labels of every language and the
 * key itself, so a Dutch template imports for an English user and an export (same labels) imports
 * back. Mandatory columns carry " *" in the template's header. The columns are the areas' declared
 * fields (issue 59, "one field, one place").
 */

export type { ChoiceKind, ReferenceKind } from "~/lib/fields";

/**
 * The areas' field declarations (lib/fields.ts, each in its module's schema.ts) are the import's columns:
 * a field declared there is a column of the template, read from the file and passed to the bulk verb.
 */
const AREAS = {
  [BulkUploadType.FACILITY]: FACILITY_FIELDS,
  [BulkUploadType.BUILDING]: BUILDING_FIELDS,
  [BulkUploadType.ROOM_TYPES]: ROOM_TYPE_FIELDS,
  [BulkUploadType.EQUIPMENT_CATEGORIES]: CATEGORY_FIELDS,
  [BulkUploadType.EQUIPMENT_TYPES]: EQUIPMENT_TYPE_FIELDS,
  [BulkUploadType.MAINTENANCE_TYPES]: MAINTENANCE_TYPE_FIELDS,
  [BulkUploadType.ROOMS]: ROOM_FIELDS,
  [BulkUploadType.INCIDENT_TYPE]: INCIDENT_TYPE_FIELDS,
  [BulkUploadType.EQUIPMENT_ITEMS]: EQUIPMENT_ITEM_FIELDS,
};

/** Every import column's key: the declared fields' keys (the exports of the same columns write them too). */
export type ImportColumnKey = { [T in keyof typeof AREAS]: FieldKey<(typeof AREAS)[T]> }[keyof typeof AREAS];

/** An import column: a declared field (its template, check and header), by its key. */
export interface ImportColumn extends Omit<FieldDeclaration, "input" | "row" | "cell" | "within" | "column" | "label"> {
  key: ImportColumnKey;
  /** The header's text key (`namespace:path`, see FieldDeclaration's `label`). */
  label: string;
  /** For a reference to a building: the column naming its facility (see FieldDeclaration). */
  within?: ImportColumnKey;
}

export interface ImportTypeDefinition {
  type: BulkUploadType;
  /** In addresses: /resources/import-template/<slug>.xlsx, the API's `type`. */
  slug: string;
  columns: readonly ImportColumn[];
  /** The area's declaration: how a checked line becomes the bulk verb's input (`fieldInput`). */
  fields: AreaFields;
  /** For incident types: at least one of these (the names), reported on the first. */
  oneOf?: readonly ImportColumnKey[];
  /**
   * Lines may name existing records, which they update (equipment items): a column the file leaves out
   * is left out of the line's values, so the record keeps that field.
   */
  updates?: boolean;
}

/** The columns of an area's declaration, in its order (what the template, the check and the screen read). */
function columnsOf(area: AreaFields): ImportColumn[] {
  return Object.entries(area.fields).map(([key, field]) => {
    const { kind, required, max, reference, within, choice, example } = field;
    return {
    key: key as ImportColumnKey,
    label: fieldLabelKey(key, field),
    kind,
    ...(required ? { required } : {}),
    ...(max !== undefined ? { max } : {}),
    ...(reference ? { reference } : {}),
    ...(within ? { within: within as ImportColumnKey } : {}),
    ...(choice ? { choice } : {}),
    ...(example !== undefined ? { example } : {}),
    };
  });
}

const extras: Partial<Record<BulkUploadType, Pick<ImportTypeDefinition, "oneOf" | "updates">>> = {
  [BulkUploadType.INCIDENT_TYPE]: { oneOf: ["nameEn", "nameFr", "nameNl"] },
  [BulkUploadType.EQUIPMENT_ITEMS]: { updates: true },
};

export const IMPORT_TYPES: readonly ImportTypeDefinition[] = IMPORT_TYPE_LIST.map(({ type, slug }) => ({
  type,
  slug,
  columns: columnsOf(AREAS[type]),
  fields: AREAS[type],
  ...extras[type],
}));

export function importTypeOf(type: number): ImportTypeDefinition | undefined {
  return IMPORT_TYPES.find((d) => d.type === type);
}

export function importTypeBySlug(slug: string): ImportTypeDefinition | undefined {
  return IMPORT_TYPES.find((d) => d.slug === slug);
}

/** The i18n key of a column's header. */
export const columnLabelKey = (column: Pick<ImportColumn, "label">) => column.label;

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
    case BulkUploadType.EQUIPMENT_ITEMS:
      return "equipments";
    case BulkUploadType.MAINTENANCE_TYPES:
      return "maintenance";
    case BulkUploadType.INCIDENT_TYPE:
      return "incidents";
    default:
      return "facilities";
  }
}
