import { type SQL, type SQLWrapper, sql } from "drizzle-orm";
import type { PgSelect } from "drizzle-orm/pg-core";
import { LIST_COUNT_CAP, likePattern, type ListQuery, type Page, pageWindow } from "./list-query";

/**
 * A name search: `lower(column) like '%q%'`. The lists' indexes hold `lower(name)`, so the filter is
 * checked on the index entries (an index-only scan), not on the table.
 */
export function nameLike(column: SQLWrapper, q: string): SQL {
  return sql`lower(${column}) like lower(${likePattern(q)})`;
}

/**
 * Runs a list query for one page: `rows` (a sorted select made dynamic with `.$dynamic()`) gets the
 * page's OFFSET/LIMIT (the size is at most MAX_PAGE_SIZE), `total` counts the whole filtered list; both
 * run at once. For the small lists (facilities, buildings, types, categories: a few thousand rows per
 * entity at most); the large ones page their ids on a covering index first (rooms, decision 017).
 */
export async function readPage<Q extends PgSelect>(
  query: ListQuery,
  rows: Q,
  total: PromiseLike<{ n: number }[]>,
): Promise<Page<Awaited<Q>[number]>> {
  const { limit, offset } = pageWindow(query);
  const [items, [count]] = await Promise.all([rows.offset(offset).limit(limit), total]);
  return { items: items as Awaited<Q>[number][], total: count?.n ?? 0, page: query.page, size: limit };
}

/**
 * Counts the rows of `from` (a `from ... where ...` fragment) up to LIST_COUNT_CAP + 1: a search
 * costs at most that many index entries, whatever the table's size.
 */
export async function countUpToCap(db: { execute(query: SQL): PromiseLike<unknown> }, from: SQL): Promise<{ total: number; capped: boolean }> {
  const result = await db.execute(sql`select count(*)::int as n from (select 1 ${from} limit ${LIST_COUNT_CAP + 1}) as x`);
  const n = Number((result as unknown as { rows: { n: number }[] }).rows[0]?.n ?? 0);
  return n > LIST_COUNT_CAP ? { total: LIST_COUNT_CAP, capped: true } : { total: n, capped: false };
}

/** The rows of `result` (a `db.execute` answer) of either driver. */
export function rowsOf<T>(result: unknown): T[] {
  return Array.isArray(result) ? (result as T[]) : ((result as { rows?: T[] }).rows ?? []);
}
