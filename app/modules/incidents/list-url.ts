import { BOARD_STATUSES, FILTER_PARAMS } from "./constants";

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
  params.delete(COLUMN_PARAM);
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
 * the parameters of the request itself (`index`, `_data`, `column`).
 */
export function backHref(search: string): string {
  const params = new URLSearchParams(search);
  for (const name of ["index", "_data", COLUMN_PARAM, RESET_PARAM]) params.delete(name);
  const query = params.toString();
  return query ? `${INCIDENTS_PATH}?${query}` : INCIDENTS_PATH;
}
