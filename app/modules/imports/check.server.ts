import { and, eq, isNull, type SQL, sql } from "drizzle-orm";
import type { ServiceContext } from "~/core/context.server";
import { BulkUploadErrorCode, BulkUploadErrorMessageType, BulkUploadType, IncidentTypeStatus } from "~/db/enums";
import { buildings, type DataJobLineError, equipmentCategories, equipmentItems, equipmentTypes, facilities, incidentTypes, reportIdentifiers, rooms, roomTypes } from "~/db/schema";
import { isCalendarDay } from "~/lib/dates";
import { ValidationError } from "~/lib/errors";
import { MAX_TAGS, MAX_TAG_LENGTH, TAG_TOO_LONG, TAG_TOO_MANY, TOO_LONG } from "~/lib/schema-helpers";
import { treeScope } from "~/modules/facilities/policy.server";
import { type ImportColumn, type ImportTypeDefinition, importTypeOf, type ReferenceKind } from "./columns";
import { choiceValue, matchHeader, normalise } from "./headers.server";
import type { Sheet } from "./parse.server";
import { checkItemLines } from "./items-check.server";
import { lineErrorLabel } from "./types";

/**
 * The preview (decision 054): the whole file checked against the entity before anything is written,
 * every fault of every line reported at once in line order (line, column, what is wrong), so a user
 * corrects the file once. The import job runs the same check again inside its transaction (the data
 * may have changed meanwhile) and writes only when it finds nothing.
 *
 * References (a room's building and room type, a building's facility, a generic equipment's category)
 * name an active record of the entity, within the importer's reach, by its name (ignoring case) or by
 * its short id (facilities and buildings). Duplicates are refused, inside the file and against what
 * exists: a facility, room type, category, generic equipment or maintenance type of the same name; a
 * building of the same name in its facility; a room of the same name in its building; an incident type
 * with the same name in a language.
 */

export type { DataJobLineError };

/** The most lines one import takes. */
export const MAX_IMPORT_ROWS = 50_000;

export type CellValue = string | number | boolean | string[] | null;

export interface CheckedRow {
  line: number;
  /** By column key; reference columns hold the record's id. */
  values: Record<string, CellValue>;
}

export interface CheckResult {
  definition: ImportTypeDefinition;
  rows: CheckedRow[];
  errors: DataJobLineError[];
}

/** A fault of the whole file, not of a line: its error code (SPEC.md section 3) and message. */
export class ImportFileError extends ValidationError {
  constructor(
    readonly errorCode: BulkUploadErrorCode,
    messageKey: string,
    code: string,
    readonly params: Record<string, string | number> = {},
  ) {
    super({ file: [messageKey] }, messageKey, code);
  }
}

export const unknownImportType = () => new ImportFileError(BulkUploadErrorCode.UNKNOWN_IMPORT_TYPE, "imports:errors.unknownType", "UNKNOWN_IMPORT_TYPE");
export const invalidTemplate = () => new ImportFileError(BulkUploadErrorCode.INVALID_TEMPLATE_DATA, "imports:errors.invalidTemplate", "INVALID_TEMPLATE_DATA");

/** The definition of an import type given as a number (form, API, job); Unknown import type otherwise. */
export function definitionOf(type: unknown): ImportTypeDefinition {
  const n = typeof type === "string" && /^\d{1,2}$/.test(type) ? Number(type) : type;
  const definition = typeof n === "number" ? importTypeOf(n) : undefined;
  if (!definition) throw unknownImportType();
  return definition;
}

/** The outcome of a check: the lines that would be imported, and every fault. */
export interface ImportPreview {
  type: BulkUploadType;
  total: number;
  errors: DataJobLineError[];
}

/** A file whose lines have faults: nothing was written (the REST answer lists them). */
export class ImportRowsError extends ValidationError {
  constructor(readonly preview: ImportPreview) {
    super({ file: ["imports:errors.invalidTemplate"] }, "imports:errors.invalidTemplate", "INVALID_TEMPLATE_DATA");
  }
}

// ---------------------------------------------------------------------------
// References and what exists
// ---------------------------------------------------------------------------

interface Candidate {
  id: number;
  shortId?: number;
  name: string;
  /** A building's facility (its name and short id), which a `within` column may name. */
  parentName?: string;
  parentShortId?: number;
}

const shortIdOf = (cell: string) => {
  const short = /^#?(\d{1,9})$/.exec(cell.trim());
  return short ? Number(short[1]) : undefined;
};

/** Names (lower case) and short ids of the records a reference column may name. */
class ReferenceIndex {
  private byName = new Map<string, Candidate[]>();
  private byShortId = new Map<number, number>();
  constructor(rows: Candidate[]) {
    for (const r of rows) {
      const key = normalise(r.name);
      this.byName.set(key, [...(this.byName.get(key) ?? []), r]);
      if (r.shortId !== undefined) this.byShortId.set(r.shortId, r.id);
    }
  }
  get size() {
    return this.byShortId.size + this.byName.size;
  }
  /**
   * The id, "ambiguous" when the name is several records', undefined when none. `parent` (a facility's
   * name or short id) keeps the records of that parent only.
   */
  find(cell: string, parent = ""): number | "ambiguous" | undefined {
    let named = this.byName.get(normalise(cell));
    if (named && parent !== "") {
      const parentShortId = shortIdOf(parent);
      const parentName = normalise(parent);
      const inParent = named.filter((r) => (r.parentName !== undefined && normalise(r.parentName) === parentName) || (parentShortId !== undefined && r.parentShortId === parentShortId));
      named = inParent.length ? inParent : undefined;
    }
    if (named?.length === 1) return named[0].id;
    if (named && named.length > 1) return "ambiguous";
    const short = shortIdOf(cell);
    return short !== undefined ? this.byShortId.get(short) : undefined;
  }
}

async function referenceIndex(ctx: ServiceContext, kind: ReferenceKind): Promise<ReferenceIndex> {
  const e = ctx.entityId;
  switch (kind) {
    case "facility":
      // A building goes into a facility the importer reaches whole (as the add-building form).
      return new ReferenceIndex(
        await ctx.db
          .select({ id: facilities.id, shortId: facilities.shortId, name: facilities.name })
          .from(facilities)
          .where(and(eq(facilities.entityId, e), isNull(facilities.archivedAt), treeScope(ctx, "wholeFacility"))),
      );
    case "building":
      return new ReferenceIndex(
        await ctx.db
          .select({ id: buildings.id, shortId: buildings.shortId, name: buildings.name, parentName: facilities.name, parentShortId: facilities.shortId })
          .from(buildings)
          .innerJoin(facilities, and(eq(facilities.id, buildings.facilityId), eq(facilities.entityId, e)))
          .where(and(eq(buildings.entityId, e), isNull(buildings.archivedAt), treeScope(ctx, "building"))),
      );
    case "roomType":
      return new ReferenceIndex(
        await ctx.db.select({ id: roomTypes.id, name: roomTypes.name }).from(roomTypes).where(and(eq(roomTypes.entityId, e), isNull(roomTypes.archivedAt))),
      );
    case "category":
      return new ReferenceIndex(
        await ctx.db
          .select({ id: equipmentCategories.id, name: equipmentCategories.name })
          .from(equipmentCategories)
          .where(and(eq(equipmentCategories.entityId, e), isNull(equipmentCategories.archivedAt))),
      );
    case "equipmentType":
      return new ReferenceIndex(
        await ctx.db.select({ id: equipmentTypes.id, name: equipmentTypes.name }).from(equipmentTypes).where(and(eq(equipmentTypes.entityId, e), isNull(equipmentTypes.archivedAt))),
      );
    case "room":
      return new ReferenceIndex(
        await ctx.db
          .select({ id: rooms.id, shortId: rooms.shortId, name: rooms.name, parentName: buildings.name, parentShortId: buildings.shortId })
          .from(rooms)
          .innerJoin(buildings, and(eq(buildings.id, rooms.buildingId), eq(buildings.entityId, e)))
          .where(and(eq(rooms.entityId, e), isNull(rooms.archivedAt), treeScope(ctx, "room"))),
      );
    case "equipmentItem":
    case "itemIdentifier": {
      // An item by its sticker's identifier; a parent also by its internal reference.
      const items = await ctx.db
        .select({ id: equipmentItems.id, code: reportIdentifiers.code, reference: equipmentItems.internalReference })
        .from(equipmentItems)
        .innerJoin(rooms, eq(rooms.id, equipmentItems.roomId))
        .leftJoin(reportIdentifiers, and(eq(reportIdentifiers.equipmentItemId, equipmentItems.id), eq(reportIdentifiers.entityId, e), isNull(reportIdentifiers.archivedAt)))
        .where(and(eq(equipmentItems.entityId, e), isNull(equipmentItems.archivedAt), isNull(rooms.archivedAt), treeScope(ctx, "equipmentItem")));
      const names = new Map<string, Set<number>>();
      const add = (name: string | null, id: number) => {
        if (name) names.set(normalise(name), (names.get(normalise(name)) ?? new Set()).add(id));
      };
      for (const item of items) {
        add(item.code, item.id);
        if (kind === "equipmentItem") add(item.reference, item.id);
      }
      return new ReferenceIndex([...names].flatMap(([name, ids]) => [...ids].map((id) => ({ id, name }))));
    }
  }
}

/** The duplicate key(s) of a checked row: same key, same record. */
function duplicateKeys(type: ImportTypeDefinition["type"], values: Record<string, CellValue>): string[] {
  const name = (key: string) => (typeof values[key] === "string" ? normalise(values[key] as string) : null);
  switch (type) {
    case BulkUploadType.BUILDING:
      return values.facility && name("name") ? [`${values.facility as number}/${name("name")}`] : [];
    case BulkUploadType.ROOMS:
      return values.building && name("name") ? [`${values.building as number}/${name("name")}`] : [];
    case BulkUploadType.INCIDENT_TYPE:
      return (["nameEn", "nameFr", "nameNl"] as const).flatMap((k) => (name(k) ? [`${k}/${name(k)}`] : []));
    default:
      return name("name") ? [name("name") as string] : [];
  }
}

/** An array of ids as one parameter (a PostgreSQL array literal: the embedded driver binds text). */
const intArray = (ids: readonly number[]) => `{${ids.map((n) => Math.trunc(n)).join(",")}}`;

/** The keys of what exists (active records), as `duplicateKeys` writes them. */
async function existingKeys(ctx: ServiceContext, type: ImportTypeDefinition["type"], rows: CheckedRow[]): Promise<Set<string>> {
  const e = ctx.entityId;
  // Names are compared as `normalise` writes them (in JavaScript: the database's lower() follows its locale).
  const names = async (table: SQL, where: SQL, prefix?: SQL) => {
    const result = await ctx.db.execute<{ prefix: string | null; name: string }>(
      sql`select ${prefix ?? sql`null`}::text as prefix, name from ${table} where ${where}`,
    );
    return (result as unknown as { rows: Array<{ prefix: string | null; name: string }> }).rows.map((r) => (r.prefix ? `${r.prefix}/${normalise(r.name)}` : normalise(r.name)));
  };
  const ids = (key: string) => [...new Set(rows.map((r) => r.values[key]).filter((v): v is number => typeof v === "number"))];
  let keys: string[] = [];
  switch (type) {
    case BulkUploadType.FACILITY:
      keys = await names(sql`facilities`, sql`entity_id = ${e} and archived_at is null`);
      break;
    case BulkUploadType.BUILDING: {
      const parents = ids("facility");
      if (parents.length) keys = await names(sql`buildings`, sql`entity_id = ${e} and archived_at is null and facility_id = any(${intArray(parents)}::int[])`, sql`facility_id`);
      break;
    }
    case BulkUploadType.ROOMS: {
      const parents = ids("building");
      if (parents.length) keys = await names(sql`rooms`, sql`entity_id = ${e} and archived_at is null and building_id = any(${intArray(parents)}::int[])`, sql`building_id`);
      break;
    }
    case BulkUploadType.ROOM_TYPES:
      keys = await names(sql`room_types`, sql`entity_id = ${e} and archived_at is null`);
      break;
    case BulkUploadType.EQUIPMENT_CATEGORIES:
      keys = await names(sql`equipment_categories`, sql`entity_id = ${e} and archived_at is null`);
      break;
    case BulkUploadType.EQUIPMENT_TYPES:
      keys = await names(sql`equipment_types`, sql`entity_id = ${e} and archived_at is null`);
      break;
    case BulkUploadType.MAINTENANCE_TYPES:
      keys = await names(sql`maintenance_types`, sql`entity_id = ${e} and archived_at is null`);
      break;
    case BulkUploadType.INCIDENT_TYPE: {
      const found = await ctx.db
        .select({ en: incidentTypes.nameEn, fr: incidentTypes.nameFr, nl: incidentTypes.nameNl })
        .from(incidentTypes)
        .where(and(eq(incidentTypes.entityId, e), isNull(incidentTypes.archivedAt), sql`${incidentTypes.status} <> ${IncidentTypeStatus.ARCHIVED}`));
      keys = found.flatMap((r) =>
        ([["nameEn", r.en], ["nameFr", r.fr], ["nameNl", r.nl]] as const).flatMap(([k, v]) => (v ? [`${k}/${normalise(v)}`] : [])),
      );
      break;
    }
  }
  return new Set(keys);
}

/** Whether the importer may add buildings at all: at least one facility they reach whole (SPEC.md section 5). */
export async function hasFacility(ctx: ServiceContext): Promise<boolean> {
  const [row] = await ctx.db
    .select({ id: facilities.id })
    .from(facilities)
    .where(and(eq(facilities.entityId, ctx.entityId), isNull(facilities.archivedAt), treeScope(ctx, "wholeFacility")))
    .limit(1);
  return Boolean(row);
}

// ---------------------------------------------------------------------------
// The check
// ---------------------------------------------------------------------------

const MESSAGE_TYPE = BulkUploadErrorMessageType;

function checkCell(
  column: ImportColumn,
  cell: string,
  refs: Map<ReferenceKind, ReferenceIndex>,
  fail: (type: number, message?: string) => void,
  parent = "",
): CellValue {
  if (cell === "") {
    if (column.required) fail(MESSAGE_TYPE.MISSING_MANDATORY_COLUMN);
    return column.kind === "tags" ? [] : null;
  }
  switch (column.kind) {
    case "text":
      if (column.max !== undefined && cell.length > column.max) fail(MESSAGE_TYPE.INVALID_VALUE, TOO_LONG);
      return cell;
    case "tags": {
      const seen = new Set<string>();
      const tags = cell
        .split(/[,;|]/)
        .map((t) => t.trim())
        .filter((t) => t !== "" && !seen.has(t.toLowerCase()) && seen.add(t.toLowerCase()));
      if (tags.length > MAX_TAGS) fail(MESSAGE_TYPE.INVALID_VALUE, TAG_TOO_MANY);
      else if (tags.some((t) => t.length > MAX_TAG_LENGTH)) fail(MESSAGE_TYPE.INVALID_VALUE, TAG_TOO_LONG);
      return tags;
    }
    case "integer": {
      const n = /^\d{1,3}$/.test(cell) ? Number(cell) : NaN;
      if (!(n >= 1 && n <= 999)) fail(MESSAGE_TYPE.INVALID_VALUE, "imports:errors.integer");
      return n;
    }
    case "choice": {
      const value = choiceValue(column.choice!, cell);
      if (value === undefined) fail(MESSAGE_TYPE.INVALID_VALUE, "imports:errors.choice");
      return value ?? null;
    }
    case "date": {
      const day = /^(\d{1,2})[/.-](\d{1,2})[/.-](\d{4})$/.exec(cell);
      const value = day ? `${day[3]}-${day[2].padStart(2, "0")}-${day[1].padStart(2, "0")}` : cell;
      if (!isCalendarDay(value)) fail(MESSAGE_TYPE.INVALID_VALUE, "imports:errors.date");
      return isCalendarDay(value) ? value : null;
    }
    case "reference": {
      const found = refs.get(column.reference!)!.find(cell, parent);
      if (found === undefined) fail(MESSAGE_TYPE.UNKNOWN_REFERENCE, "imports:errors.unknownReference");
      else if (found === "ambiguous") fail(MESSAGE_TYPE.UNKNOWN_REFERENCE, "imports:errors.ambiguous");
      return typeof found === "number" ? found : null;
    }
  }
}

/**
 * Checks a read sheet as an import of `definition` for the context's actor (their reach decides which
 * facilities and buildings a line may name). File faults throw an `ImportFileError`; line faults are
 * returned, in line order then column order, with the lines' values.
 */
export async function checkSheet(ctx: ServiceContext, definition: ImportTypeDefinition, sheet: Sheet): Promise<CheckResult> {
  const positions = matchHeader(definition.columns, sheet.header);
  const missingHeader = definition.columns.some((c) => c.required && !positions.has(c.key)) || (definition.oneOf && !definition.oneOf.some((k) => positions.has(k)));
  if (missingHeader) throw invalidTemplate();
  if (sheet.lines.length === 0) throw new ImportFileError(BulkUploadErrorCode.INVALID_TEMPLATE_DATA, "imports:errors.noRows", "NO_ROWS");
  if (sheet.lines.length > MAX_IMPORT_ROWS) {
    throw new ImportFileError(BulkUploadErrorCode.INVALID_TEMPLATE_DATA, "imports:errors.tooManyRows", "TOO_MANY_ROWS", { max: MAX_IMPORT_ROWS });
  }
  if (definition.type === BulkUploadType.BUILDING && !(await hasFacility(ctx))) {
    throw new ImportFileError(BulkUploadErrorCode.INVALID_TEMPLATE_DATA, "imports:errors.facilityNeeded", "FACILITY_NEEDED");
  }
  const refs = new Map<ReferenceKind, ReferenceIndex>();
  for (const column of definition.columns) {
    if (column.reference && !refs.has(column.reference)) refs.set(column.reference, await referenceIndex(ctx, column.reference));
  }

  const errors: DataJobLineError[] = [];
  const rows: CheckedRow[] = [];
  for (const { line, cells } of sheet.lines) {
    const values: Record<string, CellValue> = {};
    for (const column of definition.columns) {
      const at = positions.get(column.key);
      if (at === undefined && definition.updates && !column.required) continue;
      const cell = at === undefined ? "" : (cells[at] ?? "");
      const parentAt = column.within === undefined ? undefined : positions.get(column.within);
      const parent = parentAt === undefined ? "" : (cells[parentAt] ?? "");
      values[column.key] = checkCell(column, cell, refs, (type, message) => errors.push({ line, column: column.key, type: type as DataJobLineError["type"], ...(message ? { message } : {}) }), parent);
    }
    if (definition.oneOf && definition.oneOf.every((k) => values[k] === null)) {
      errors.push({ line, column: definition.oneOf[0], type: MESSAGE_TYPE.MISSING_MANDATORY_COLUMN, message: "imports:errors.oneName" });
    }
    rows.push({ line, values });
  }

  if (definition.type === BulkUploadType.EQUIPMENT_ITEMS) errors.push(...(await checkItemLines(ctx, rows)));
  const existing = await existingKeys(ctx, definition.type, rows);
  const firstLine = new Map<string, number>();
  for (const row of rows) {
    for (const key of duplicateKeys(definition.type, row.values)) {
      const column = key.startsWith("name") && definition.type === BulkUploadType.INCIDENT_TYPE ? key.slice(0, 6) : "name";
      const earlier = firstLine.get(key);
      if (earlier !== undefined) errors.push({ line: row.line, column, type: MESSAGE_TYPE.DUPLICATE_IN_FILE, message: "imports:errors.duplicateInFile", other: earlier });
      else {
        firstLine.set(key, row.line);
        if (existing.has(key)) errors.push({ line: row.line, column, type: MESSAGE_TYPE.ALREADY_EXISTS, message: "imports:errors.alreadyExists" });
      }
    }
  }
  const order = new Map<string, number>(definition.columns.map((c, i) => [c.key, i]));
  errors.sort((a, b) => a.line - b.line || (order.get(a.column) ?? 0) - (order.get(b.column) ?? 0));
  // A column whose header is its area's own label names it on its faults (lineErrorLabel reads it).
  const labels = new Map<string, string>(definition.columns.filter((c) => c.label !== lineErrorLabel({ column: c.key })).map((c) => [c.key, c.label]));
  return { definition, rows, errors: errors.map((e) => (labels.has(e.column) ? { ...e, label: labels.get(e.column) } : e)) };
}
