import type { PgSelect } from "drizzle-orm/pg-core";
import { type ListQuery, type Page, pageWindow } from "./list-query";

/**
 * Runs a list query for one page: `rows` (a sorted select made dynamic with `.$dynamic()`) gets the
 * page's OFFSET/LIMIT (none when `size` is null), `total` counts the whole filtered list; both run at once.
 */
export async function readPage<Q extends PgSelect>(
  query: ListQuery,
  rows: Q,
  total: PromiseLike<{ n: number }[]>,
): Promise<Page<Awaited<Q>[number]>> {
  const { limit, offset } = pageWindow(query);
  const windowed = limit === null ? rows.offset(offset) : rows.offset(offset).limit(limit);
  const [items, [count]] = await Promise.all([windowed, total]);
  return { items: items as Awaited<Q>[number][], total: count?.n ?? 0, page: query.page, size: query.size };
}
