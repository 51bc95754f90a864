import type { z } from "zod";

/**
 * One field, one place (issue 59): each area declares its importable fields once, next to its zod
 * schema (`modules/<area>/schema.ts`), and the import template, the import's values for the area's bulk
 * verb and the export's columns read that declaration. Client-safe (the import screen lists the columns).
 *
 * A field's key is the zod schema's key and, in the areas whose verb writes it as it is, the Drizzle
 * table's column key too (`core/fields.server.ts` picks those columns from the table).
 */

/** What a reference column names: an existing record, by name or short id (decision 054). */
export type ReferenceKind = "facility" | "building" | "roomType" | "category" | "equipmentType" | "room" | "equipmentItem" | "itemIdentifier";
/** The enumerations a choice column offers (translated labels, or the stored number). */
export type ChoiceKind = "priority" | "occurrenceUnit" | "yesNo";

/** A cell of an export (exports/format.ts). */
export type FieldCell = string | number | null;

/** What an export column's value needs of the export's formatter (exports/format.ts). */
export interface FieldFormatter {
  word(group: string, value: number | string | null | undefined): string;
  list(values: readonly (string | null | undefined)[]): string;
  yesNo(value: boolean): string;
}

export interface FieldDeclaration {
  /** `date`: a calendar day, written `YYYY-MM-DD` (also read as `DD/MM/YYYY`, `DD.MM.YYYY`). */
  kind: "text" | "tags" | "integer" | "reference" | "choice" | "date";
  /** The import refuses a line without it (the template marks its header " *"). */
  required?: boolean;
  /** Longest text (the area's schema's own limit). */
  max?: number;
  reference?: ReferenceKind;
  /**
   * For a reference to a building: the column naming its facility. When the line fills it, the building
   * is looked for in that facility only, so "Building A" of two sites is not ambiguous.
   */
  within?: string;
  choice?: ChoiceKind;
  /** The template's example value (choice columns show their first choice's label instead). */
  example?: string;
  /** The bulk verb's input key for the value (default: the field's key); `null`: read, not passed on. */
  input?: string | null;
  /** The export row's property giving the value (default: the field's key). */
  row?: string;
  /**
   * The table column (its Drizzle key) that stores the value, when it is neither the field's key nor its
   * `input` key (`core/fields.server.ts`); `null`: not a column of the area's table (tags kept in a table
   * of their own), written by the verb itself.
   */
  column?: string | null;
  /**
   * The header's text key (`namespace:path`) of the import template and the export: the field's label in
   * its area's namespace (the form's label), so a new field's label is written once per language.
   * Default: the shared header `imports:columns.<key>` (name, description, facility, ... common to areas).
   */
  label?: string;
  /** The export's cell when the kind's default (tags joined, choices as words) does not fit. */
  cell?: (value: unknown, f: FieldFormatter) => FieldCell;
}

/** An area's importable fields, in the import template's order. */
export interface AreaFields<K extends string = string> {
  fields: { readonly [P in K]: FieldDeclaration };
  /** The export's order of these columns when it differs; fields not named follow, in declaration order. */
  exportOrder?: readonly K[];
  /** Further input of the bulk verb made of several fields (a room type's rating messages). */
  compose?: (values: Record<string, unknown>) => Record<string, unknown>;
}

/** What an area's declaration may name: keys of its schema's values `V` only (checked with `satisfies`). */
export interface AreaFieldsOf<V> extends Pick<AreaFields, "compose"> {
  fields: { readonly [P in string & keyof V]?: FieldDeclaration };
  exportOrder?: readonly (string & keyof V)[];
}

/**
 * The longest text a zod text field takes (`requiredText`, `optionalText`: its `.max`), looked for
 * through its optional, nullable and transform wrappers; the import's `max` reads the schema's own limit.
 */
export function textMax(schema: z.ZodType): number {
  let node: unknown = schema;
  for (let depth = 0; depth < 8 && node; depth++) {
    const found = (node as { maxLength?: unknown }).maxLength;
    if (typeof found === "number") return found;
    const def = (node as { def: { in?: unknown; innerType?: unknown } }).def;
    node = def.in ?? def.innerType;
  }
  throw new Error("textMax: a text field without a longest length");
}

/** Declares an area's fields, keeping their keys' literal types (the import's column keys). */
export function defineFields<K extends string>(area: Omit<AreaFields<K>, "exportOrder"> & { exportOrder?: readonly NoInfer<K>[] }): AreaFields<K> {
  return area;
}

/** The keys of an area's fields. */
export type FieldKey<A> = A extends AreaFields<infer K> ? K : never;

/** The field keys of an area, in the import template's order. */
export function fieldKeys<K extends string>(area: AreaFields<K>): K[] {
  return Object.keys(area.fields) as K[];
}

/** The field keys of an area in the export's order. */
export function exportKeys<K extends string>(area: AreaFields<K>): K[] {
  const first = area.exportOrder ?? [];
  return [...first, ...fieldKeys(area).filter((k) => !first.includes(k))];
}

/** The header's text key of a field (the import template's and the export's): its `label`, else `imports:columns.<key>`. */
export const fieldLabelKey = (key: string, field?: Pick<FieldDeclaration, "label">) => field?.label ?? `imports:columns.${key}`;

/** The values an area's fields take from `source` (a record's detail: the edit form's starting values). */
export function pickFields<K extends string, T extends Record<K, unknown>>(area: AreaFields<K>, source: T): Pick<T, K> {
  return Object.fromEntries(fieldKeys(area).map((k) => [k, source[k]])) as Pick<T, K>;
}

/** An export cell of a field's value: its own `cell`, else by kind (tags joined, choices as the reader's words). */
export function fieldCell(field: FieldDeclaration, value: unknown, f: FieldFormatter): FieldCell {
  if (field.cell) return field.cell(value, f);
  if (field.kind === "tags") return f.list(value as string[]);
  if (field.kind === "choice") return field.choice === "yesNo" ? f.yesNo(value as boolean) : f.word(field.choice!, value as number);
  return value as FieldCell;
}

/** The bulk verb's input of one checked import line: each field's value under its input key. */
export function fieldInput(area: AreaFields, values: Record<string, unknown>): Record<string, unknown> {
  const input: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(area.fields)) {
    if (field.input === null) continue;
    input[field.input ?? key] = values[key];
  }
  return { ...input, ...area.compose?.(values) };
}
