import { BulkUploadType } from "~/db/enums";

/**
 * The import types of SPEC.md section 3 by number and address name, for the screen (client-safe and
 * free of zod: the import screen loads no validation, decision 021). Their columns, read from the
 * areas' field declarations, are in columns.ts.
 */
export const IMPORT_TYPE_LIST = [
  { type: BulkUploadType.FACILITY, slug: "facility" },
  { type: BulkUploadType.BUILDING, slug: "building" },
  { type: BulkUploadType.ROOM_TYPES, slug: "room-types" },
  { type: BulkUploadType.EQUIPMENT_CATEGORIES, slug: "equipment-categories" },
  { type: BulkUploadType.EQUIPMENT_TYPES, slug: "equipment-types" },
  { type: BulkUploadType.MAINTENANCE_TYPES, slug: "maintenance-types" },
  { type: BulkUploadType.ROOMS, slug: "rooms" },
  { type: BulkUploadType.INCIDENT_TYPE, slug: "incident-type" },
  { type: BulkUploadType.EQUIPMENT_ITEMS, slug: "equipment-items" },
] as const;

/** The header text key of a line fault's column: the one the check recorded, else the shared `imports:columns.<column>`. */
export function lineErrorLabel(e: { column: string; label?: string }): string {
  return e.label ?? `imports:columns.${e.column}`;
}
