/**
 * Server-side list parameters shared by every list screen and list API: page, records per page,
 * sort column and direction, a name search, read from the URL so lists are bookmarkable and work with
 * plain links and GET forms (JavaScript off). Client-safe.
 */
import { ValidationError } from "./errors";
import { CONTROL_CHARACTERS } from "./text";

/** Records-per-page choices of the screens. */
export const PAGE_SIZES = [10, 25, 50, 100] as const;
/** Rows of a list call that does not say (`size`): screens and REST alike. */
export const DEFAULT_PAGE_SIZE = 25;
/** The most rows one list call may ask for: a REST `size` above it is refused (400), a screen falls back. */
export const MAX_PAGE_SIZE = 100;
/**
 * A list narrowed by something no counter follows (a name search) counts its rows up to this many and
 * serves pages within them only: "1,000+ results, refine the search" (decision 017).
 */
export const LIST_COUNT_CAP = 1000;

export type SortDirection = "asc" | "desc";

export interface ListQuery<S extends string = string> {
  /** 1-based page number. */
  page: number;
  /** Rows per page, 1 to MAX_PAGE_SIZE. */
  size: number;
  sort: S;
  dir: SortDirection;
  /** Name search, trimmed; "" = none. */
  q: string;
}

export interface Page<T> {
  items: T[];
  /** Rows of the whole list; with `capped`, the rows counted (LIST_COUNT_CAP) and there are more. */
  total: number;
  page: number;
  size: number;
  /** The count stopped at LIST_COUNT_CAP: `total` is a lower bound and pages end there. */
  capped?: boolean;
}

export interface ListQueryOptions<S extends string> {
  sorts: readonly S[];
  defaultSort: S;
  defaultDir?: SortDirection;
  /**
   * A screen takes the PAGE_SIZES and falls back to the defaults on anything else (an old bookmark
   * keeps working); the API takes any size from 1 to MAX_PAGE_SIZE and refuses the rest with a 400.
   */
  mode?: "screen" | "api";
}

/** The largest page number a list takes (beyond it a screen shows page 1, the API answers 400). */
export const MAX_PAGE = 1_000_000;

function positiveInt(value: string | null): number | null {
  return value && /^\d{1,7}$/.test(value) && Number(value) > 0 ? Number(value) : null;
}

/**
 * Reads `page`, `size`, `sort`, `dir` and `q`. A screen falls back to the default on anything
 * unknown; the API (`mode: "api"`) refuses a malformed or too large `page` or `size`, an unknown
 * `sort` or `dir` with a ValidationError naming the parameter.
 */
export function parseListQuery<S extends string>(params: URLSearchParams, options: ListQueryOptions<S>): ListQuery<S> {
  const api = options.mode === "api";
  const errors: Record<string, string[]> = {};
  const sortParam = params.get("sort");
  const sortKnown = options.sorts.includes(sortParam as S);
  if (api && sortParam !== null && !sortKnown) errors.sort = ["errors.list.sort"];
  const sort = sortKnown ? (sortParam as S) : options.defaultSort;
  const dirParam = params.get("dir");
  const dirKnown = dirParam === "asc" || dirParam === "desc";
  if (api && dirParam !== null && !dirKnown) errors.dir = ["errors.list.dir"];
  const dir: SortDirection = dirKnown ? dirParam : (options.defaultDir ?? "asc");

  const sizeParam = params.get("size");
  const requested = positiveInt(sizeParam);
  let size: number;
  if (api) {
    if (sizeParam !== null && (requested === null || requested > MAX_PAGE_SIZE)) errors.size = ["errors.list.size"];
    size = requested !== null && requested <= MAX_PAGE_SIZE ? requested : DEFAULT_PAGE_SIZE;
  } else {
    size = requested && (PAGE_SIZES as readonly number[]).includes(requested) ? requested : DEFAULT_PAGE_SIZE;
  }
  const pageParam = params.get("page");
  const pageValue = positiveInt(pageParam);
  if (api && pageParam !== null && (pageValue === null || pageValue > MAX_PAGE)) errors.page = ["errors.list.page"];
  const page = pageValue !== null && pageValue <= MAX_PAGE ? pageValue : 1;
  if (Object.keys(errors).length) throw new ValidationError(errors, "errors.list.invalid", "INVALID_LIST_QUERY");

  return { page, size, sort, dir, q: searchParam(params) };
}

/** A name search from the URL or a form (`q`): trimmed, at most 100 characters, control characters dropped. */
export function searchParam(params: URLSearchParams | FormData, name = "q"): string {
  const value = params.get(name);
  // Control characters (a NUL byte would reach PostgreSQL) are dropped from the search.
  return (typeof value === "string" ? value : "").replace(new RegExp(CONTROL_CHARACTERS.source, "g"), "").trim().slice(0, 100);
}

/** Reads a positive integer filter (`facilityId=3`); anything else is no filter. */
export function intParam(params: URLSearchParams | FormData, name: string): number | null {
  const value = params.get(name);
  return typeof value === "string" && /^\d{1,9}$/.test(value) ? Number(value) : null;
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
export function pageWindow(query: Pick<ListQuery, "page" | "size">): { limit: number; offset: number } {
  const limit = Math.min(Math.max(1, query.size), MAX_PAGE_SIZE);
  return { limit, offset: (query.page - 1) * limit };
}

/** Escapes `%`, `_` and `\` for a LIKE/ILIKE pattern. */
export function likePattern(q: string): string {
  return `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
