/**
 * Exports (issue 49, decision 055), client-safe: the twelve export types by their address name, the two
 * file formats, which list filters each type takes, and the input of "start an export", shared by the
 * export tab's form and POST /api/exports. Messages are i18n keys of the `exports` namespace.
 */
import { z } from "zod";
import { hasControlCharacters } from "~/lib/text";
import { EXPORT_FILTERS, EXPORT_FORMATS, EXPORT_TYPE_NAMES, type ExportTypeSlug, exportSlugOf } from "./constants";

export * from "./constants";

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
    )
      // Left out: no filter (a default, so that the contract generated from this schema says it is optional).
      .default({}),
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
