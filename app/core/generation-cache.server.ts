import { writeGeneration } from "./write-generation.server";

/**
 * Results kept until the next committed write (decision 031): `get(key, compute)` answers a result
 * computed at the current write generation, or computes it (requests asking for the same key meanwhile
 * share that computation). A result computed while a unit of work committed is not kept. For reads that
 * cost more than their page (the dashboard's figures over a million incidents) and change only with
 * writes. Bounded: at most `maxEntries` (least recently used leave first), each for at most `ttlMs`.
 * Every write of the app goes through a unit of work; a write outside one (a test writing rows itself)
 * must call `noteCommittedWrite()`.
 */
export interface GenerationCache<V> {
  get(key: string, compute: () => Promise<V>): Promise<V>;
}

export function generationCache<V>(options: { maxEntries?: number; ttlMs?: number } = {}): GenerationCache<V> {
  const maxEntries = options.maxEntries ?? 200;
  const ttlMs = options.ttlMs ?? 60_000;
  const entries = new Map<string, { generation: number; expires: number; value: Promise<V> }>();
  return {
    get(key, compute) {
      const generation = writeGeneration();
      const now = Date.now();
      const kept = entries.get(key);
      entries.delete(key);
      if (kept && kept.generation === generation && kept.expires > now) {
        entries.set(key, kept);
        return kept.value;
      }
      const value = compute();
      const entry = { generation, expires: now + ttlMs, value };
      if (entries.size >= maxEntries) entries.delete(entries.keys().next().value as string);
      entries.set(key, entry);
      const forget = () => {
        if (entries.get(key) === entry) entries.delete(key);
      };
      value.then(() => {
        if (writeGeneration() !== generation) forget();
      }, forget);
      return value;
    },
  };
}

/**
 * A read kept until the next committed write, for the small lists every page of an area reads again (the
 * filters' choices, the entity's time zone): one generation cache per database (the runtime's, or a
 * test's), skipped inside a unit of work (which must read its own uncommitted writes). The kept value is
 * frozen: the requests that share it cannot change it. Keys name everything the read depends on besides
 * the database: the entity, the viewer's reach, the language.
 */
export function keptReads<V>(options: { maxEntries?: number; ttlMs?: number } = {}) {
  const perDatabase = new WeakMap<object, GenerationCache<V>>();
  return (ctx: { db: object; uow?: unknown }, key: string, compute: () => Promise<V>): Promise<V> => {
    if (ctx.uow) return compute();
    let cache = perDatabase.get(ctx.db);
    if (!cache) {
      cache = generationCache<V>(options);
      perDatabase.set(ctx.db, cache);
    }
    return cache.get(key, async () => deepFreeze(await compute()));
  };
}

function deepFreeze<V>(value: V): V {
  if (value && typeof value === "object" && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}
