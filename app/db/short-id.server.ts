import { sql } from "drizzle-orm";
import type { Db } from "./client.server";
import { type EntityCounterKind, entityCounters } from "./schema";

/**
 * The next per-entity short id of `kind` (facility, building, room, incident): 1, 2, 3, ...
 *
 * One atomic statement, `insert ... on conflict (entity_id, kind) do update set value = value + 1
 * returning value`: the row lock serialises concurrent callers per entity and kind, so every caller
 * gets a distinct number. Call it inside the transaction that inserts the row: a rollback then rolls
 * the counter back too, so numbers have no holes (the price: inserts of one kind and entity are
 * serialised until that transaction commits).
 */
export async function nextShortId(db: Db, entityId: number, kind: EntityCounterKind): Promise<number> {
  return reserveShortIds(db, entityId, kind, 1);
}

/**
 * Reserves `count` consecutive short ids at once (bulk imports, the scale seed) and returns the
 * LAST one: the reserved range is `last - count + 1 .. last`.
 */
export async function reserveShortIds(
  db: Db,
  entityId: number,
  kind: EntityCounterKind,
  count: number,
): Promise<number> {
  if (!Number.isSafeInteger(count) || count < 1) throw new RangeError(`count must be a positive integer: ${count}`);
  const [row] = await db
    .insert(entityCounters)
    .values({ entityId, kind, value: count })
    .onConflictDoUpdate({
      target: [entityCounters.entityId, entityCounters.kind],
      set: { value: sql`${entityCounters.value} + ${sql.raw(String(count))}` },
    })
    .returning({ value: entityCounters.value });
  return row.value;
}
