import { type EventBus, RESYNC_EVENT } from "./events.server";

/**
 * Answers kept across requests, per entity (decision 019). Only the public report page keeps any: the page
 * itself (server/page-cache.ts) and what it reads per sticker (the identifier, the reportable type), because
 * a crowd scanning one sticker asks the same thing hundreds of times a second.
 *
 * An answer is kept with the entity it belongs to and a stamp taken before it was read. It is served while
 * its entity has committed nothing since that stamp. When a unit of work commits for entity E
 * (`noteCommittedWrite`), E's answers go stale in this process at once, and a notice on the event bus makes
 * every other process drop them too: in process on the embedded database, through LISTEN/NOTIFY on
 * PostgreSQL. The notices travel on entity 0, which no entity has, so that one subscription per process
 * hears them all and no entity's live-event subscribers see them. When the listening connection comes back
 * after a drop (RESYNC_EVENT), every kept answer is dropped: notices sent meanwhile were lost.
 *
 * Writes outside a unit of work (migrations, the seed, a test writing rows itself) tell nobody: nothing is
 * kept before the server answers, and a test file has its own database (answers are kept per database).
 */
export const KEPT_ANSWERS_CHANGED = "kept-answers.changed";
/** The bus's entity for notices to every process: entity ids start at 1. */
export const EVERY_PROCESS = 0;

export interface KeptAnswersState {
  /** Whether answers are kept at all (REPORT_PAGE_CACHE). */
  enabled: boolean;
  /** A mark to take before reading: an answer read after it is fresh while its entity has not changed since. */
  stamp(): number;
  isFresh(entityId: number, stamp: number): boolean;
  /** The kept answers of `entityId` (of every entity when undefined) are stale from now on, here. */
  drop(entityId?: number): void;
  /** A unit of work committed for `entityId` (undefined: a unit without an entity): drop, here and everywhere. */
  committed(entityId: number | undefined): void;
  /** Hears the other processes' notices on `bus` and sends this one's there (replacing an earlier bus). */
  connect(bus: EventBus, options?: { enabled?: boolean }): void;
}

export function createKeptAnswersState(): KeptAnswersState {
  let sequence = 0;
  let everything = 0;
  const changed = new Map<number, number>();
  let bus: EventBus | null = null;
  let unsubscribe: () => void = () => undefined;
  const state: KeptAnswersState = {
    enabled: true,
    stamp: () => sequence,
    isFresh: (entityId, stamp) => state.enabled && everything <= stamp && (changed.get(entityId) ?? 0) <= stamp,
    drop(entityId) {
      sequence++;
      if (entityId === undefined) everything = sequence;
      else changed.set(entityId, sequence);
    },
    committed(entityId) {
      state.drop(entityId);
      bus?.publish({ entityId: EVERY_PROCESS, type: KEPT_ANSWERS_CHANGED, data: { entityId: entityId ?? null } });
    },
    connect(next, options = {}) {
      unsubscribe();
      bus = next;
      state.enabled = options.enabled ?? true;
      unsubscribe = next.subscribe(EVERY_PROCESS, (event) => {
        if (event.type === RESYNC_EVENT) state.drop();
        else if (event.type === KEPT_ANSWERS_CHANGED) {
          const entityId = event.data?.entityId;
          state.drop(typeof entityId === "number" ? entityId : undefined);
        }
      });
      // Whatever was kept before this bus carried the notices may have missed some.
      state.drop();
    },
  };
  return state;
}

/** The process's state, on globalThis: Vite's reloading in development must not split it. */
export function keptAnswersState(): KeptAnswersState {
  const holder = globalThis as unknown as { __caretakerKeptAnswers?: KeptAnswersState };
  holder.__caretakerKeptAnswers ??= createKeptAnswersState();
  return holder.__caretakerKeptAnswers;
}

/** Called by the unit of work once it has committed for `entityId`. */
export function noteCommittedWrite(entityId: number | undefined): void {
  keptAnswersState().committed(entityId);
}

export interface KeptAnswers<V> {
  /**
   * `compute`'s answer, kept per database and key for as long as the entity `entityOf` names for it has
   * committed nothing since it was read (and at most the cache's time); `entityOf` answering null keeps
   * nothing. The kept value is frozen: the requests sharing it cannot change it.
   */
  get(db: object, key: string, compute: () => Promise<V>, entityOf: (value: V) => number | null): Promise<V>;
}

export function keptAnswers<V>(options: { maxEntries?: number; ttlMs?: number } = {}): KeptAnswers<V> {
  const maxEntries = options.maxEntries ?? 2_000;
  const ttlMs = options.ttlMs ?? 60_000;
  type Entry = { entityId: number; stamp: number; expires: number; value: V };
  const perDatabase = new WeakMap<object, Map<string, Entry>>();
  return {
    async get(db, key, compute, entityOf) {
      const state = keptAnswersState();
      let entries = perDatabase.get(db);
      if (!entries) perDatabase.set(db, (entries = new Map()));
      const kept = entries.get(key);
      if (kept) {
        entries.delete(key);
        if (kept.expires > Date.now() && state.isFresh(kept.entityId, kept.stamp)) {
          entries.set(key, kept); // the most recently used goes last: the first in the map leaves first
          return kept.value;
        }
      }
      const stamp = state.stamp();
      const value = await compute();
      const entityId = entityOf(value);
      if (entityId === null || !state.isFresh(entityId, stamp)) return value;
      if (entries.size >= maxEntries) entries.delete(entries.keys().next().value as string);
      entries.set(key, { entityId, stamp, expires: Date.now() + ttlMs, value: deepFreeze(value) });
      return value;
    },
  };
}

function deepFreeze<V>(value: V): V {
  if (value && typeof value === "object" && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}
