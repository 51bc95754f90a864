import type { SortDirection } from "~/lib/list-query";

/**
 * URL building of the list screens (client-safe, pure): every sort header, pager link and GET form
 * keeps the other search parameters of the current address, so tabs, filters, search and page size
 * survive each other.
 */
export interface ListLocation {
  pathname: string;
  search: string;
}

/** The current address with `changes` applied: a value sets the parameter, `null` removes it. */
export function listHref(location: ListLocation, changes: Record<string, string | number | null>): string {
  const params = new URLSearchParams(location.search);
  for (const [name, value] of Object.entries(changes)) {
    if (value === null) params.delete(name);
    else params.set(name, String(value));
  }
  const search = params.toString();
  return search ? `${location.pathname}?${search}` : location.pathname;
}

/**
 * The link of a sortable header: the sorted column flips its direction, another column sorts
 * ascending; back to page 1.
 */
export function sortHref(location: ListLocation, sortKey: string, current: { sort: string; dir: SortDirection }): string {
  const dir: SortDirection = current.sort === sortKey && current.dir === "asc" ? "desc" : "asc";
  return listHref(location, { sort: sortKey, dir, page: null });
}

/** The link of a page (page 1 drops the parameter). */
export function pageHref(location: ListLocation, page: number): string {
  return listHref(location, { page: page > 1 ? page : null });
}

/** Pages, and the 1-based range of the rows shown ("26–50 of 73"); `size` null = every row on one page. */
export function pageInfo(page: { total: number; page: number; size: number | null; count: number }) {
  const size = page.size ?? Math.max(page.total, 1);
  const pages = Math.max(1, Math.ceil(page.total / size));
  const from = page.count === 0 ? 0 : (page.page - 1) * size + 1;
  const to = page.count === 0 ? 0 : from + page.count - 1;
  // A page past the end (an old bookmark) steps back to the last page.
  const previous = page.page > 1 ? Math.min(page.page - 1, pages) : null;
  const next = page.page < pages ? page.page + 1 : null;
  return { pages, from, to, previous, next };
}

/** The search parameters to repeat as hidden inputs of a GET form, minus the ones the form sets itself. */
export function hiddenParams(search: string, omit: readonly string[]): [string, string][] {
  return [...new URLSearchParams(search).entries()].filter(([name]) => !omit.includes(name));
}
