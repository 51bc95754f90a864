/**
 * Numeric enumerations of SPEC.md section 3 (plus two for background data jobs).
 *
 * Client-safe: no imports, no Node APIs. The database stores these numbers in
 * `smallint` columns (no PostgreSQL enum types); CHECK constraints in
 * `app/db/schema/*` are generated from the `*_VALUES` lists below, so adding a
 * value here needs a new migration (`npx drizzle-kit generate`).
 *
 * Values given by the spec are used as is. Enumerations without given values
 * are numbered 0.. in the order the spec lists them (see docs/data-model.md).
 */

type ValueOf<T> = T[keyof T];

/** Without side effects (annotated for Rollup), so that the browser's bundle keeps only the lists a page uses. */
/*#__NO_SIDE_EFFECTS__*/
function valuesOf<const T extends Record<string, number>>(e: T): readonly ValueOf<T>[] {
  return Object.freeze(Object.values(e) as ValueOf<T>[]);
}

// ---------------------------------------------------------------------------
// Values given by the spec
// ---------------------------------------------------------------------------

export const Role = {
  FACILITY_MANAGER: 1,
  TECHNICIAN: 2,
  ADMINISTRATOR: 3,
} as const;
export type Role = ValueOf<typeof Role>;
export const ROLE_VALUES = valuesOf(Role);

/** Incident priority "Not Selected" is stored as SQL NULL (see `IncidentPriority`). */
export const Priority = {
  LOW: 0,
  MEDIUM: 1,
  HIGH: 2,
  CRITICAL: 3,
} as const;
export type Priority = ValueOf<typeof Priority>;
export const PRIORITY_VALUES = valuesOf(Priority);
/** An incident's priority: one of `Priority`, or `null` for "Not Selected". */
export type IncidentPriority = Priority | null;

export const IncidentStatus = {
  PENDING: 0,
  IN_PROGRESS: 1,
  DONE: 2,
  REJECTED: 3,
  ARCHIVED: 4,
} as const;
export type IncidentStatus = ValueOf<typeof IncidentStatus>;
export const INCIDENT_STATUS_VALUES = valuesOf(IncidentStatus);

export const UserStatus = {
  /** Not yet validated (no password set / email not verified). */
  INACTIVE: 1,
  ACTIVE: 2,
  DISABLED: 3,
} as const;
export type UserStatus = ValueOf<typeof UserStatus>;
export const USER_STATUS_VALUES = valuesOf(UserStatus);

export const UserLanguage = {
  EN: 0,
  FR: 1,
  NL: 2,
} as const;
export type UserLanguage = ValueOf<typeof UserLanguage>;
export const USER_LANGUAGE_VALUES = valuesOf(UserLanguage);

export const TaskStatus = {
  PENDING: 0,
  DONE: 1,
} as const;
export type TaskStatus = ValueOf<typeof TaskStatus>;
export const TASK_STATUS_VALUES = valuesOf(TaskStatus);

/** What a maintenance type's inspection check asks (issue 63): pass or fail, a number in a range, a text. */
export const InspectionCheckKind = {
  PASS_FAIL: 0,
  NUMBER: 1,
  TEXT: 2,
} as const;
export type InspectionCheckKind = ValueOf<typeof InspectionCheckKind>;
export const INSPECTION_CHECK_KIND_VALUES = valuesOf(InspectionCheckKind);

export const EquipmentTypeStatus = {
  ARCHIVE: 0,
  ACTIVE: 1,
} as const;
export type EquipmentTypeStatus = ValueOf<typeof EquipmentTypeStatus>;
export const EQUIPMENT_TYPE_STATUS_VALUES = valuesOf(EquipmentTypeStatus);

export const IncidentEventType = {
  CREATED: 0,
  ASSIGNED: 1,
  STATUS_UPDATE: 2,
  PRIORITY_UPDATE: 3,
  DUPLICATE: 4,
  ADD_TAG: 5,
  DELETE_TAG: 6,
  TITLE_UPDATE: 7,
  DESCRIPTION_UPDATE: 8,
  /**
   * Beyond SPEC.md's 0-8: the incident type was taken off the incident because the type was archived
   * (SPEC.md section 4); old value `{ id, name }`, new value null. Decision 024.
   */
  INCIDENT_TYPE_REMOVED: 9,
  /**
   * Beyond SPEC.md's 0-8: an occupier reported the same thing again while the incident was open; it
   * gained an occurrence (decision 026). New value `{ occurrences }`; actor null (an occupier).
   */
  REPORTED_AGAIN: 10,
} as const;
export type IncidentEventType = ValueOf<typeof IncidentEventType>;
export const INCIDENT_EVENT_TYPE_VALUES = valuesOf(IncidentEventType);

export const BulkUploadErrorCode = {
  NONE: 0,
  UNKNOWN_IMPORT_TYPE: 1,
  INVALID_TEMPLATE_DATA: 2,
} as const;
export type BulkUploadErrorCode = ValueOf<typeof BulkUploadErrorCode>;
export const BULK_UPLOAD_ERROR_CODE_VALUES = valuesOf(BulkUploadErrorCode);

// ---------------------------------------------------------------------------
// Values not given by the spec: ordinal 0.. in spec order
// ---------------------------------------------------------------------------

export const TimeMeasure = {
  UNSPECIFIED: 0,
  DAY: 1,
  WEEK: 2,
  MONTH: 3,
  YEAR: 4,
} as const;
export type TimeMeasure = ValueOf<typeof TimeMeasure>;
export const TIME_MEASURE_VALUES = valuesOf(TimeMeasure);

export const ObjectType = {
  ENTITY: 0,
  FACILITY: 1,
  BUILDING: 2,
  ROOM: 3,
} as const;
export type ObjectType = ValueOf<typeof ObjectType>;
export const OBJECT_TYPE_VALUES = valuesOf(ObjectType);

export const IncidentTypeStatus = {
  NONE: 0,
  ACTIVE: 1,
  ARCHIVED: 2,
} as const;
export type IncidentTypeStatus = ValueOf<typeof IncidentTypeStatus>;
export const INCIDENT_TYPE_STATUS_VALUES = valuesOf(IncidentTypeStatus);

/**
 * What the reporter answers to a checklist item of an incident type (SPEC.md section 3 names the
 * content type without values): yes or no, a text, a number, a photo. Decision 024.
 */
export const ChecklistContentType = {
  YES_NO: 0,
  TEXT: 1,
  NUMBER: 2,
  PHOTO: 3,
} as const;
export type ChecklistContentType = ValueOf<typeof ChecklistContentType>;
export const CHECKLIST_CONTENT_TYPE_VALUES = valuesOf(ChecklistContentType);

export const EditorMode = {
  ADD: 0,
  UPDATE: 1,
  VIEW: 2,
} as const;
export type EditorMode = ValueOf<typeof EditorMode>;
export const EDITOR_MODE_VALUES = valuesOf(EditorMode);

export const AccessType = {
  NO: 0,
  FULL: 1,
  TRAVERSE: 2,
} as const;
export type AccessType = ValueOf<typeof AccessType>;
export const ACCESS_TYPE_VALUES = valuesOf(AccessType);

export const TranslationLanguage = {
  UNSPECIFIED: 0,
  EN: 1,
  FR: 2,
  NL: 3,
} as const;
export type TranslationLanguage = ValueOf<typeof TranslationLanguage>;
export const TRANSLATION_LANGUAGE_VALUES = valuesOf(TranslationLanguage);

export const ReportType = {
  BUG: 0,
  SUGGESTION: 1,
} as const;
export type ReportType = ValueOf<typeof ReportType>;
export const REPORT_TYPE_VALUES = valuesOf(ReportType);

export const TreeAccessLevel = {
  FACILITY: 0,
  BUILDING: 1,
  ROOM: 2,
  EQUIPMENT: 3,
} as const;
export type TreeAccessLevel = ValueOf<typeof TreeAccessLevel>;
export const TREE_ACCESS_LEVEL_VALUES = valuesOf(TreeAccessLevel);

export const IncidentSortField = {
  CREATION_TIMESTAMP: 0,
  TITLE: 1,
  PRIORITY: 2,
  STATUS: 3,
  ASSIGNEE: 4,
  OCCURRENCE: 5,
  SHORT_ID: 6,
} as const;
export type IncidentSortField = ValueOf<typeof IncidentSortField>;
export const INCIDENT_SORT_FIELD_VALUES = valuesOf(IncidentSortField);

export const BulkUploadType = {
  FACILITY: 0,
  BUILDING: 1,
  ROOM_TYPES: 2,
  EQUIPMENT_CATEGORIES: 3,
  EQUIPMENT_TYPES: 4,
  MAINTENANCE_TYPES: 5,
  ROOMS: 6,
  INCIDENT_TYPE: 7,
  /** Equipment items with their records (issue 63): created, or updated when the file names them. */
  EQUIPMENT_ITEMS: 8,
} as const;
export type BulkUploadType = ValueOf<typeof BulkUploadType>;
export const BULK_UPLOAD_TYPE_VALUES = valuesOf(BulkUploadType);

/**
 * Per-line import error kinds ("error message type" in the spec: missing mandatory column), then the
 * other faults an import's preview reports for a cell (decision 054).
 */
export const BulkUploadErrorMessageType = {
  MISSING_MANDATORY_COLUMN: 0,
  /** A value of the wrong form: too long, not a number, not one of a list's choices. */
  INVALID_VALUE: 1,
  /** A name or short id that names no record of the entity (within the importer's reach). */
  UNKNOWN_REFERENCE: 2,
  /** The same record twice in the file. */
  DUPLICATE_IN_FILE: 3,
  /** A record of that name exists already. */
  ALREADY_EXISTS: 4,
} as const;
export type BulkUploadErrorMessageType = ValueOf<typeof BulkUploadErrorMessageType>;
export const BULK_UPLOAD_ERROR_MESSAGE_TYPE_VALUES = valuesOf(BulkUploadErrorMessageType);

export const ExportType = {
  USERS: 0,
  ROOMS: 1,
  BUILDINGS: 2,
  INCIDENTS: 3,
  FACILITIES: 4,
  ROOM_TYPES: 5,
  INCIDENT_TYPES: 6,
  MAINTENANCE_TYPES: 7,
  MAINTENANCE_TASKS: 8,
  GENERIC_EQUIPMENTS: 9,
  PLANNED_MAINTENANCE: 10,
  EQUIPMENT_CATEGORIES: 11,
  /** Not in SPEC.md's list: the time recorded on incidents (issue 62). */
  TIME_ENTRIES: 12,
  /** Not in SPEC.md's list: the material recorded on incidents (issue 62). */
  MATERIAL_LINES: 13,
  /** Not in SPEC.md's list: the equipment items with their records (issue 63). */
  EQUIPMENT_ITEMS: 14,
} as const;
export type ExportType = ValueOf<typeof ExportType>;
export const EXPORT_TYPE_VALUES = valuesOf(ExportType);

/**
 * Incident notifications first, then import success/failure per area
 * (facilities, equipments, maintenance, incidents), then one export-success
 * value per SPEC.md's `ExportType` (12 of them), in `ExportType` order (13 + ExportType), then the
 * app's own. The export types added since (time entries, material lines) have their success types
 * further on, where free values were (`exportSuccessNotificationType` maps each export type to its own).
 */
export const NotificationType = {
  INCIDENT_CREATED: 0,
  INCIDENT_ASSIGNED: 1,
  INCIDENT_UNASSIGNED: 2,
  INCIDENT_STATUS_UPDATED: 3,
  INCIDENT_NEW_COMMENT: 4,
  IMPORT_FACILITIES_SUCCESS: 5,
  IMPORT_FACILITIES_FAILURE: 6,
  IMPORT_EQUIPMENTS_SUCCESS: 7,
  IMPORT_EQUIPMENTS_FAILURE: 8,
  IMPORT_MAINTENANCE_SUCCESS: 9,
  IMPORT_MAINTENANCE_FAILURE: 10,
  IMPORT_INCIDENTS_SUCCESS: 11,
  IMPORT_INCIDENTS_FAILURE: 12,
  EXPORT_USERS_SUCCESS: 13,
  EXPORT_ROOMS_SUCCESS: 14,
  EXPORT_BUILDINGS_SUCCESS: 15,
  EXPORT_INCIDENTS_SUCCESS: 16,
  EXPORT_FACILITIES_SUCCESS: 17,
  EXPORT_ROOM_TYPES_SUCCESS: 18,
  EXPORT_INCIDENT_TYPES_SUCCESS: 19,
  EXPORT_MAINTENANCE_TYPES_SUCCESS: 20,
  EXPORT_MAINTENANCE_TASKS_SUCCESS: 21,
  EXPORT_GENERIC_EQUIPMENTS_SUCCESS: 22,
  EXPORT_PLANNED_MAINTENANCE_SUCCESS: 23,
  EXPORT_EQUIPMENT_CATEGORIES_SUCCESS: 24,
  /** Not in SPEC.md's list: a maintenance task was done (decision 051). */
  TASK_DONE: 25,
  /** Not in SPEC.md's list: a large sticker print made in the background is ready to download (issue 48). */
  PRINT_READY: 26,
  /** Not in SPEC.md's list: a webhook endpoint was disabled after repeated failed deliveries (issue 50). */
  WEBHOOK_DISABLED: 27,
  /** Not in SPEC.md's list: an incident's response or resolution target is close to its breach (issue 62). */
  SERVICE_LEVEL_WARNING: 28,
  /** Not in SPEC.md's list: an incident's response or resolution target was breached (issue 62). */
  SERVICE_LEVEL_BREACHED: 29,
  /** Not in SPEC.md's list: an export of time entries is ready (issue 62). */
  EXPORT_TIME_ENTRIES_SUCCESS: 30,
  /** Not in SPEC.md's list: an export of material lines is ready (issue 62). */
  EXPORT_MATERIAL_LINES_SUCCESS: 31,
  /** Not in SPEC.md's list: an equipment item's warranty ends within the entity's reminder days (issue 63). */
  WARRANTY_ENDING: 32,
  /** Not in SPEC.md's list: an export of equipment items is ready (issue 63). */
  EXPORT_EQUIPMENT_ITEMS_SUCCESS: 33,
} as const;
export type NotificationType = ValueOf<typeof NotificationType>;
export const NOTIFICATION_TYPE_VALUES = valuesOf(NotificationType);

/**
 * The export-success notification type of each export type: SPEC.md's twelve are 13 + the export type;
 * the later ones are listed, their values placed after the other notification types.
 */
const EXPORT_SUCCESS_TYPES: Readonly<Record<ExportType, NotificationType>> = {
  [ExportType.USERS]: NotificationType.EXPORT_USERS_SUCCESS,
  [ExportType.ROOMS]: NotificationType.EXPORT_ROOMS_SUCCESS,
  [ExportType.BUILDINGS]: NotificationType.EXPORT_BUILDINGS_SUCCESS,
  [ExportType.INCIDENTS]: NotificationType.EXPORT_INCIDENTS_SUCCESS,
  [ExportType.FACILITIES]: NotificationType.EXPORT_FACILITIES_SUCCESS,
  [ExportType.ROOM_TYPES]: NotificationType.EXPORT_ROOM_TYPES_SUCCESS,
  [ExportType.INCIDENT_TYPES]: NotificationType.EXPORT_INCIDENT_TYPES_SUCCESS,
  [ExportType.MAINTENANCE_TYPES]: NotificationType.EXPORT_MAINTENANCE_TYPES_SUCCESS,
  [ExportType.MAINTENANCE_TASKS]: NotificationType.EXPORT_MAINTENANCE_TASKS_SUCCESS,
  [ExportType.GENERIC_EQUIPMENTS]: NotificationType.EXPORT_GENERIC_EQUIPMENTS_SUCCESS,
  [ExportType.PLANNED_MAINTENANCE]: NotificationType.EXPORT_PLANNED_MAINTENANCE_SUCCESS,
  [ExportType.EQUIPMENT_CATEGORIES]: NotificationType.EXPORT_EQUIPMENT_CATEGORIES_SUCCESS,
  [ExportType.TIME_ENTRIES]: NotificationType.EXPORT_TIME_ENTRIES_SUCCESS,
  [ExportType.MATERIAL_LINES]: NotificationType.EXPORT_MATERIAL_LINES_SUCCESS,
  [ExportType.EQUIPMENT_ITEMS]: NotificationType.EXPORT_EQUIPMENT_ITEMS_SUCCESS,
};

/** The export-success notification type for an export type. */
export function exportSuccessNotificationType(exportType: ExportType): NotificationType {
  return EXPORT_SUCCESS_TYPES[exportType];
}

/** The export-success notification types, every one. */
export const EXPORT_SUCCESS_NOTIFICATION_TYPES: readonly NotificationType[] = Object.values(EXPORT_SUCCESS_TYPES);

export const QrPrintStatus = {
  PRINTED: 0,
  NOT_PRINTED: 1,
  PARTIALLY_PRINTED: 2,
} as const;
export type QrPrintStatus = ValueOf<typeof QrPrintStatus>;
export const QR_PRINT_STATUS_VALUES = valuesOf(QrPrintStatus);

/** The ten room-link kinds of SPEC.md section 1, in that order. */
export const RoomLinkType = {
  ASSISTANCE: 0,
  BOOKING: 1,
  CLEANING: 2,
  CONTACT_INFORMATION: 3,
  DOCUMENTATION: 4,
  HOW_TO: 5,
  MAINTENANCE: 6,
  RULES: 7,
  SECURITY: 8,
  WIFI: 9,
} as const;
export type RoomLinkType = ValueOf<typeof RoomLinkType>;
export const ROOM_LINK_TYPE_VALUES = valuesOf(RoomLinkType);

// ---------------------------------------------------------------------------
// Not in the spec: background import/export jobs (app/db/schema/data-jobs.ts)
// ---------------------------------------------------------------------------

export const DataJobKind = {
  IMPORT: 0,
  EXPORT: 1,
} as const;
export type DataJobKind = ValueOf<typeof DataJobKind>;
export const DATA_JOB_KIND_VALUES = valuesOf(DataJobKind);

export const DataJobStatus = {
  QUEUED: 0,
  RUNNING: 1,
  SUCCEEDED: 2,
  FAILED: 3,
} as const;
export type DataJobStatus = ValueOf<typeof DataJobStatus>;
export const DATA_JOB_STATUS_VALUES = valuesOf(DataJobStatus);

// ---------------------------------------------------------------------------
// Languages (i18n codes)
// ---------------------------------------------------------------------------

export const LANGUAGES = ["en", "fr-BE", "nl-BE"] as const;
export type Language = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = "en";

/** i18n code of each stored `UserLanguage`. */
export const USER_LANGUAGE_CODES = {
  [UserLanguage.EN]: "en",
  [UserLanguage.FR]: "fr-BE",
  [UserLanguage.NL]: "nl-BE",
} as const satisfies Record<UserLanguage, Language>;
