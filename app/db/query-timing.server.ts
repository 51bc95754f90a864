import { AsyncLocalStorage } from "node:async_hooks";
import type { PGlite } from "@electric-sql/pglite";
import pg from "pg";

/**
 * Per-request SQL timing for the benchmarks (`SERVER_TIMING=1` at start, off otherwise): every query
 * of the database client adds its duration to the store of the request it runs for, and the server
 * (server/server-timing.ts) answers it in a `Server-Timing` header. The store lives in an
 * AsyncLocalStorage shared through `globalThis`, because server.ts and the app are two bundles.
 * Nothing is measured, and no header is sent, unless the server turned it on.
 */
export interface QueryTimes {
  /** Sum of the durations of the request's queries, in milliseconds. */
  ms: number;
  /** How many queries (round trips) the request made. */
  count: number;
}

const KEY = Symbol.for("caretaker.queryTiming");
type Holder = { [KEY]?: AsyncLocalStorage<QueryTimes> };

export function queryTimingStorage(): AsyncLocalStorage<QueryTimes> {
  const holder = globalThis as Holder;
  holder[KEY] ??= new AsyncLocalStorage<QueryTimes>();
  return holder[KEY];
}

type QueryFn = (this: unknown, ...args: unknown[]) => unknown;

/** Wraps a query function (callback or promise style) so that its duration reaches the current store. */
function timed(original: QueryFn): QueryFn {
  const storage = queryTimingStorage();
  return function (this: unknown, ...args: unknown[]) {
    const store = storage.getStore();
    if (!store) return original.apply(this, args);
    const started = performance.now();
    const done = () => {
      store.ms += performance.now() - started;
      store.count += 1;
    };
    const last = args.length - 1;
    const callback = args[last];
    if (typeof callback === "function") {
      args[last] = function (this: unknown, ...result: unknown[]) {
        done();
        return (callback as QueryFn).apply(this, result);
      };
      return original.apply(this, args);
    }
    const result = original.apply(this, args);
    if (result && typeof (result as PromiseLike<unknown>).then === "function") (result as PromiseLike<unknown>).then(done, done);
    return result;
  };
}

let pgInstrumented = false;

/** Times every node-postgres query of the process (pools included), once. */
export function instrumentPg(): void {
  if (pgInstrumented) return;
  pgInstrumented = true;
  const proto = pg.Client.prototype as unknown as { query: QueryFn };
  proto.query = timed(proto.query);
}

/** Times the queries of one PGlite instance (Drizzle's driver calls its `query`). */
export function instrumentPglite(pglite: PGlite): void {
  const target = pglite as unknown as { query: QueryFn; exec: QueryFn };
  target.query = timed(target.query.bind(pglite));
  target.exec = timed(target.exec.bind(pglite));
}
