import { BUILDING_AFTER_FIELD, BUILDING_SEARCH_FIELD } from "~/lib/pickers";
import { BOARD_STATUSES, FILTER_PARAMS } from "./constants";
import { hasMoreFilters, type IncidentFilters } from "./filters";

/**
 * The addresses of /incidents (client-safe, pure): the two views, the per-column cursors of the board,
 * and the query string kept in the filters cookie (SPEC.md section 3: filters are kept in the browser).
 */
export const INCIDENTS_PATH = "/incidents";
export const LIST_VIEWS = ["table", "board"] as const;
export type ListView = (typeof LIST_VIEWS)[number];

/** The view of the address: `?view=board`, anything else is the table. */
export function parseView(params: URLSearchParams): ListView {
  return params.get("view") === "board" ? "board" : "table";
}

/** The parameter holding a board column's cursor: `after2` for Done. */
export const cursorParam = (status: number) => `after${status}`;
/** The board's "More" of one column with JavaScript: only that column is answered. */
export const COLUMN_PARAM = "column";
/** `?reset=1` clears the remembered filters. */
export const RESET_PARAM = "reset";
/**
 * `?filters=1` opens the filters' "More filters" panel: its long choice lists (assignees, incident types,
 * facilities, buildings) are loaded and sent only then, or while one of its filters is set (decision 021).
 */
export const FILTERS_PARAM = "filters";
/** `?bulk=assignee`: the bulk form changes the assignee and lists everyone to choose from (decision 021). */
export const BULK_PARAM = "bulk";
/** `?choices=assignees`: the assignee choices alone (the bulk form fetches them with JavaScript). */
export const CHOICES_PARAM = "choices";

/** Whether the "More filters" panel is open: asked for, one of its filters set, or its building picker searched. */
export function filtersPanelOpen(params: URLSearchParams, filters: IncidentFilters): boolean {
  return params.get(FILTERS_PARAM) === "1" || hasMoreFilters(filters) || params.has(BUILDING_AFTER_FIELD) || (params.get(BUILDING_SEARCH_FIELD) ?? "").trim() !== "";
}

/** The address of the same list with a parameter set (e.g. the "More filters" panel open), from its first page. */
export function withParam(search: string, name: string, value: string): string {
  const params = new URLSearchParams(search);
  for (const drop of ["index", "_data", COLUMN_PARAM, RESET_PARAM, CHOICES_PARAM]) params.delete(drop);
  params.set(name, value);
  return `${INCIDENTS_PATH}?${params}`;
}

/** The cursors of the board's columns in the address (`after0`..`after3`), each at most 400 characters. */
export function boardCursors(params: URLSearchParams): Partial<Record<number, string>> {
  const cursors: Partial<Record<number, string>> = {};
  for (const status of BOARD_STATUSES) {
    const value = params.get(cursorParam(status));
    if (value && value.length <= 400 && /^[\w-]+$/.test(value)) cursors[status] = value;
  }
  return cursors;
}

/** The longest query string the cookie keeps (a cookie holds about 4 KB). */
const SAVED_MAX = 1500;

/**
 * What the filters cookie keeps of an address: the filters, the sort, the page size and the view
 * (FILTER_PARAMS, in their order, empty values left out); not the page, the cursors or the pickers'
 * searches. "" when nothing is left (or when it would be too long to keep).
 */
export function savedFilterQuery(params: URLSearchParams): string {
  const kept = new URLSearchParams();
  for (const name of FILTER_PARAMS) {
    for (const value of params.getAll(name)) {
      if (value.trim() !== "") kept.append(name, value);
    }
  }
  const query = kept.toString();
  return query.length > SAVED_MAX ? "" : query;
}

/** The address of a view, with the current filters and sort (not the page or the board's cursors). */
export function viewHref(search: string, view: ListView): string {
  const params = new URLSearchParams(search);
  params.delete("page");
  params.delete(RESET_PARAM);
  for (const name of [COLUMN_PARAM, CHOICES_PARAM, BULK_PARAM]) params.delete(name);
  for (const status of BOARD_STATUSES) params.delete(cursorParam(status));
  params.set("view", view);
  return `${INCIDENTS_PATH}?${params}`;
}

/** "Clear filters": the view alone, and the remembered filters forgotten. */
export function clearFiltersHref(view: ListView): string {
  return `${INCIDENTS_PATH}?view=${view}&${RESET_PARAM}=1`;
}

/** A board column's next cards (`cursor`), or its first ones again (`null`), keeping everything else. */
export function columnHref(search: string, status: number, cursor: string | null): string {
  const params = new URLSearchParams(search);
  params.delete(COLUMN_PARAM);
  if (cursor) params.set(cursorParam(status), cursor);
  else params.delete(cursorParam(status));
  return `${INCIDENTS_PATH}?${params}`;
}

/**
 * Where an action on /incidents goes back to: the same list (filters, sort, page, cursors), without
 * the parameters of the request itself (`index`, `_data`, `column`, `choices`) and the bulk form's
 * everyone-to-choose-from (`bulk`).
 */
export function backHref(search: string): string {
  const params = new URLSearchParams(search);
  for (const name of ["index", "_data", COLUMN_PARAM, RESET_PARAM, CHOICES_PARAM, BULK_PARAM]) params.delete(name);
  const query = params.toString();
  return query ? `${INCIDENTS_PATH}?${query}` : INCIDENTS_PATH;
}
