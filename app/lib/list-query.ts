/**
 * Server-side list parameters shared by every list screen and list API: page, records per page,
 * sort column and direction, a name search, read from the URL so lists are bookmarkable and work with
 * plain links and GET forms (JavaScript off). Client-safe.
 */
export const PAGE_SIZES = [10, 25, 50, 100] as const;
export const DEFAULT_PAGE_SIZE = 25;
import { CONTROL_CHARACTERS } from "./text";

/** The most rows one API call may ask for with `size`. */
export const MAX_API_PAGE_SIZE = 1000;

export type SortDirection = "asc" | "desc";

export interface ListQuery<S extends string = string> {
  /** 1-based page number. */
  page: number;
  /** Rows per page; `null` = every row (API calls without `size`). */
  size: number | null;
  sort: S;
  dir: SortDirection;
  /** Name search, trimmed; "" = none. */
  q: string;
}

export interface Page<T> {
  items: T[];
  total: number;
  page: number;
  size: number | null;
}

export interface ListQueryOptions<S extends string> {
  sorts: readonly S[];
  defaultSort: S;
  defaultDir?: SortDirection;
  /** Sizes the caller accepts; a screen takes PAGE_SIZES, the API any size up to MAX_API_PAGE_SIZE. */
  mode?: "screen" | "api";
}

function positiveInt(value: string | null): number | null {
  return value && /^\d{1,7}$/.test(value) && Number(value) > 0 ? Number(value) : null;
}

/** Reads `page`, `size`, `sort`, `dir` and `q`; anything unknown falls back to the default. */
export function parseListQuery<S extends string>(params: URLSearchParams, options: ListQueryOptions<S>): ListQuery<S> {
  const sortParam = params.get("sort");
  const sort = options.sorts.includes(sortParam as S) ? (sortParam as S) : options.defaultSort;
  const dirParam = params.get("dir");
  const dir: SortDirection = dirParam === "asc" || dirParam === "desc" ? dirParam : (options.defaultDir ?? "asc");
  const requested = positiveInt(params.get("size"));
  let size: number | null;
  if (options.mode === "api") size = requested ? Math.min(requested, MAX_API_PAGE_SIZE) : null;
  else size = requested && (PAGE_SIZES as readonly number[]).includes(requested) ? requested : DEFAULT_PAGE_SIZE;
  const page = size === null ? 1 : (positiveInt(params.get("page")) ?? 1);
  // Control characters (a NUL byte would reach PostgreSQL) are dropped from the search.
  const q = (params.get("q") ?? "").replace(new RegExp(CONTROL_CHARACTERS.source, "g"), "").trim().slice(0, 100);
  return { page, size, sort, dir, q };
}

/** Reads a positive integer filter (`facilityId=3`); anything else is no filter. */
export function intParam(params: URLSearchParams, name: string): number | null {
  const value = params.get(name);
  return value && /^\d{1,9}$/.test(value) ? Number(value) : null;
}

/** Reads a list of ids given as `ids=1,2` and/or `ids=1&ids=2`; `null` when the parameter is absent. */
export function intListParam(params: URLSearchParams, name: string): number[] | null {
  const values = params.getAll(name);
  if (values.length === 0) return null;
  const ids = values
    .flatMap((v) => v.split(","))
    .map((v) => v.trim())
    .filter((v) => /^\d{1,9}$/.test(v))
    .map(Number);
  return [...new Set(ids)];
}

/** `limit`/`offset` for a query. */
export function pageWindow(query: Pick<ListQuery, "page" | "size">): { limit: number | null; offset: number } {
  return query.size === null ? { limit: null, offset: 0 } : { limit: query.size, offset: (query.page - 1) * query.size };
}

/** Escapes `%`, `_` and `\` for a LIKE/ILIKE pattern. */
export function likePattern(q: string): string {
  return `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
