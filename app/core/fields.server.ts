import { type Column, getTableColumns, type InferInsertModel, type SQL, sql, type Table } from "drizzle-orm";
import type { z } from "zod";
import { type AreaFields, fieldKeys } from "~/lib/fields";

/**
 * An area's declared fields (lib/fields.ts) against its Drizzle table: the columns to select and the
 * values to write, so that a field added to the declaration is read and written without naming it again.
 *
 * A field is stored under its `input` key (the verb's key, default: the field's key) in the column of
 * that key, or of the field's key, or the one `column` names. A field with `input: null` (read by the
 * import only) or `column: null` (kept elsewhere, written by the verb itself) is no column here.
 */

type Columns<T extends Table> = T["_"]["columns"];
type InsertRow<T extends Table> = InferInsertModel<T>;

/** A field kept in a column of the area's table: its key, the verb's input key, the column. */
export interface StoredField {
  key: string;
  input: string;
  columnKey: string;
  column: Column;
}

/** The area's fields that are columns of `table`, in declaration order; a column the table lacks is a programming error. */
export function storedFields(table: Table, area: AreaFields): StoredField[] {
  const all = getTableColumns(table) as Record<string, Column>;
  const stored: StoredField[] = [];
  for (const [key, field] of Object.entries(area.fields)) {
    if (field.input === null || field.column === null) continue;
    const input = field.input ?? key;
    const columnKey = field.column ?? (Object.hasOwn(all, input) ? input : key);
    if (!Object.hasOwn(all, columnKey)) throw new Error(`field ${key}: no column ${columnKey}`);
    stored.push({ key, input, columnKey, column: all[columnKey] });
  }
  return stored;
}

/**
 * A value as the column stores it: an empty value (null) of a NOT NULL column with a plain default is
 * written as that default (an empty instructions text is "", not null).
 */
function storedValue(column: Column, value: unknown): unknown {
  return value == null && column.notNull && column.hasDefault && typeof column.default !== "object" ? column.default : value;
}

/**
 * The values of the area's stored fields, read from the verb's input under their input keys and given
 * under their column keys: an update's values and a bulk insert's rows. Values are the caller's parsed
 * input (the area's zod schema), trusted to be of the column's type.
 */
export function fieldValues<T extends Table>(table: T, area: AreaFields, input: object): Partial<InsertRow<T>> {
  const source = input as Record<string, unknown>;
  const values: Record<string, unknown> = {};
  for (const f of storedFields(table, area)) values[f.columnKey] = storedValue(f.column, source[f.input]);
  return values as Partial<InsertRow<T>>;
}

/**
 * A single insert's row: the area's stored fields (`fieldValues`) and the verb's own columns (`own`:
 * entity, short id, composed values). Throws when a NOT NULL column without a default has no value in
 * either, so that the row is the complete insert it is typed as.
 */
export function fieldRow<T extends Table>(table: T, area: AreaFields, input: object, own: Partial<InsertRow<T>>): InsertRow<T> {
  const row: Record<string, unknown> = { ...fieldValues(table, area, input), ...own };
  for (const [key, column] of Object.entries(getTableColumns(table) as Record<string, Column>)) {
    const generated = column.generated !== undefined || column.generatedIdentity !== undefined;
    if (column.notNull && !column.hasDefault && !generated && row[key] === undefined) throw new Error(`fieldRow: no value for ${key}`);
  }
  return row as InsertRow<T>;
}

/**
 * The table's columns of the area's fields (a select's fields: `select({ id, ...fieldColumns(t, area) })`),
 * each under its input key:
 * - `fieldColumns(table, area)`, typed by the table, for an area whose fields are its columns under their
 *   own keys (maintenance types); a field stored under another key is refused (give its shape);
 * - `fieldColumns(table, area, shape)`, typed by a zod shape of the area (`Schema.shape`, or `Schema.omit(
 *   { what the verb writes itself }).shape`): the stored fields its keys name, each key being a stored
 *   field's input key (a stored field left out of the shape is the caller's to read, e.g. tags with labels).
 */
export function fieldColumns<T extends Table, K extends string & keyof Columns<T>>(table: T, area: AreaFields<K>): Pick<Columns<T>, K>;
export function fieldColumns<S extends z.ZodRawShape>(table: Table, area: AreaFields, shape: S): { [P in keyof S]: SQL<z.output<S[P]>> };
export function fieldColumns(table: Table, area: AreaFields, shape?: z.ZodRawShape): Record<string, Column | SQL> {
  const fields = storedFields(table, area);
  if (!shape) {
    const renamed = fields.find((f) => f.input !== f.key || f.columnKey !== f.key);
    const unstored = fieldKeys(area).find((key) => !fields.some((f) => f.key === key));
    if (renamed || unstored) throw new Error(`fieldColumns: field ${renamed?.key ?? unstored} is not its own column; give the area's shape`);
    return Object.fromEntries(fields.map((f) => [f.key, f.column]));
  }
  const byInput = new Map(fields.map((f) => [f.input, f.column]));
  return Object.fromEntries(
    Object.keys(shape).map((key) => {
      const column = byInput.get(key);
      if (!column) throw new Error(`fieldColumns: ${key} is not a stored field's input key`);
      // Read through sql so that the select's type is the shape's values; mapWith keeps the column's decoding.
      return [key, sql`${column}`.mapWith(column)];
    }),
  );
}

/**
 * The edit form's starting values of a saved record: the fields of `shape` (the one its detail was
 * selected with, `fieldColumns`), each a field the verb takes, read from the detail under its input key.
 */
export function fieldFormValues<D extends object, S extends z.ZodRawShape>(area: AreaFields, detail: D, shape: S): Pick<D, keyof S & keyof D> {
  const inputs = new Set(Object.entries(area.fields).flatMap(([key, field]) => (field.input === null ? [] : [field.input ?? key])));
  const unknown = Object.keys(shape).find((key) => !inputs.has(key));
  if (unknown) throw new Error(`fieldFormValues: ${unknown} is not a field's input key`);
  const source = detail as Record<string, unknown>;
  return Object.fromEntries(Object.keys(shape).map((key) => [key, source[key]])) as Pick<D, keyof S & keyof D>;
}
