import { AsyncLocalStorage } from "node:async_hooks";
import type { NextFunction, Request, Response } from "express";

/**
 * `Server-Timing` for the benchmarks, only when the server starts with SERVER_TIMING=1: each request
 * runs with a store that the database client (app/db/query-timing.server.ts) fills with the duration
 * and number of its queries; the head of the answer then carries
 * `db;dur=<ms>;desc="<n> queries", app;dur=<ms until the head>`. The storage is shared with the app bundle
 * through `globalThis`.
 */
interface QueryTimes {
  ms: number;
  count: number;
}

const KEY = Symbol.for("caretaker.queryTiming");
type Holder = { [KEY]?: AsyncLocalStorage<QueryTimes> };

function storage(): AsyncLocalStorage<QueryTimes> {
  const holder = globalThis as Holder;
  holder[KEY] ??= new AsyncLocalStorage<QueryTimes>();
  return holder[KEY];
}

export function serverTimingHeader(times: QueryTimes, appMs: number): string {
  return `db;dur=${times.ms.toFixed(2)};desc="${times.count} queries", app;dur=${appMs.toFixed(2)}`;
}

export function serverTiming() {
  const als = storage();
  return (_req: Request, res: Response, next: NextFunction) => {
    const times: QueryTimes = { ms: 0, count: 0 };
    const started = performance.now();
    const writeHead = res.writeHead;
    res.writeHead = function (this: Response, ...args: unknown[]) {
      if (!this.headersSent) this.setHeader("Server-Timing", serverTimingHeader(times, performance.now() - started));
      return (writeHead as (...a: unknown[]) => Response).apply(this, args);
    } as Response["writeHead"];
    als.run(times, next);
  };
}
