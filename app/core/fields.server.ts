import { type Column, getTableColumns, type InferInsertModel, type Table } from "drizzle-orm";
import { type AreaFields, fieldKeys } from "~/lib/fields";

/**
 * An area's declared fields (lib/fields.ts) against its Drizzle table: the columns to select and the
 * values to write, so that a field added to the declaration is read and written without naming it again.
 */

type Columns<T extends Table> = T["_"]["columns"];

/** The table's columns of the area's fields (a select's fields: `select({ id, ...fieldColumns(t, area) })`). */
export function fieldColumns<T extends Table, K extends string & keyof Columns<T>>(table: T, area: AreaFields<K>): Pick<Columns<T>, K> {
  const all = getTableColumns(table) as Record<string, Column>;
  return Object.fromEntries(fieldKeys(area).map((k) => [k, all[k]])) as Pick<Columns<T>, K>;
}

/**
 * The values of the area's fields as the table stores them (an insert's or an update's values): an
 * empty value (null) of a NOT NULL column with a plain default is written as that default (an empty
 * instructions text is "", not null).
 */
export function fieldValues<T extends Table, K extends string & keyof Columns<T>>(table: T, area: AreaFields<K>, input: { [P in K]?: unknown }): { [P in K]: InferInsertModel<T>[P & keyof InferInsertModel<T>] } {
  const all = getTableColumns(table) as Record<string, Column>;
  const values: Record<string, unknown> = {};
  for (const key of fieldKeys(area)) {
    const column = all[key];
    const value = input[key];
    values[key] = value == null && column.notNull && column.hasDefault && typeof column.default !== "object" ? column.default : value;
  }
  return values as { [P in K]: InferInsertModel<T>[P & keyof InferInsertModel<T>] };
}
