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
