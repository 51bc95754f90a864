import type { NextFunction, Request, Response } from "express";

/**
 * The public page cache (decision 031): the occupier's report page, the one page that every QR sticker
 * opens, served again from memory instead of rendered for each scan. Rendering it costs 8-10 ms of CPU;
 * a kept copy costs a fraction of a millisecond, so a crowd scanning stickers does not queue behind React.
 *
 * The app decides what may be kept and under which key (`keyOf`: null renders the page as usual) and
 * says when stored data changed (`generation`, bumped after every committed unit of work). A copy is
 * served only while the generation it was rendered at is current, and for at most `ttlMs` in any case
 * (a write outside this process's units of work). Only a 200 without cookies is kept, with the headers
 * the page itself set; everything in front of the page (security headers, rate limits, compression) runs
 * for every request as before.
 */
export interface PageCacheSource {
  keyOf(req: { url: string; cookie: string | null; acceptLanguage: string | null; clientAddress: string }): Promise<string | null>;
  generation(): number;
}

export interface PageCacheOptions {
  /** Which paths are worth a key at all (a quick test before asking the app). */
  paths: RegExp;
  ttlMs?: number;
  maxEntries?: number;
  /** Pages larger than this are not kept. */
  maxBytes?: number;
  now?: () => number;
}

interface Entry {
  generation: number;
  expires: number;
  headers: [string, string | number | string[]][];
  body: Buffer;
}

/** Headers of the server itself, not of the page: never stored with a copy. */
const notStored = new Set(["set-cookie", "content-length", "date", "connection", "keep-alive", "transfer-encoding", "server-timing", "content-encoding"]);

export function pageCache(source: () => Promise<PageCacheSource>, options: PageCacheOptions) {
  const ttlMs = options.ttlMs ?? 10_000;
  const maxEntries = options.maxEntries ?? 500;
  const maxBytes = options.maxBytes ?? 64 * 1024;
  const now = options.now ?? Date.now;
  const entries = new Map<string, Entry>();

  const store = (key: string, entry: Entry) => {
    entries.delete(key);
    if (entries.size >= maxEntries) entries.delete(entries.keys().next().value as string);
    entries.set(key, entry);
  };

  return async (req: Request, res: Response, next: NextFunction) => {
    if (req.method !== "GET" || !options.paths.test(req.path)) return next();
    let src: PageCacheSource;
    let key: string | null;
    try {
      src = await source();
      key = await src.keyOf({
        url: req.originalUrl,
        cookie: req.get("cookie") ?? null,
        acceptLanguage: req.get("accept-language") ?? null,
        clientAddress: req.ip ?? "unknown",
      });
    } catch (error) {
      return next(error);
    }
    if (key === null) return next();
    const generation = src.generation();
    const kept = entries.get(key);
    if (kept && kept.generation === generation && kept.expires > now()) {
      entries.delete(key); // the most recently used goes last: the first in the map leaves first
      entries.set(key, kept);
      res.status(200);
      for (const [name, value] of kept.headers) res.setHeader(name, value);
      res.setHeader("Content-Length", kept.body.byteLength);
      res.end(kept.body);
      return;
    }
    if (kept) entries.delete(key);

    // Rendered as usual; the body is copied on its way out and kept if the answer may be.
    const before = new Set(res.getHeaderNames());
    const chunks: Buffer[] = [];
    let size = 0;
    let keep = true;
    const collect = (chunk: unknown, encoding: unknown) => {
      if (!keep || chunk === undefined || chunk === null || typeof chunk === "function") return;
      const buffer =
        typeof chunk === "string"
          ? Buffer.from(chunk, typeof encoding === "string" ? (encoding as BufferEncoding) : "utf8")
          : chunk instanceof Uint8Array
            ? Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength)
            : null;
      if (!buffer) return void (keep = false);
      size += buffer.byteLength;
      if (size > maxBytes) return void (keep = false);
      chunks.push(Buffer.from(buffer));
    };
    const write = res.write;
    const end = res.end;
    res.write = function (this: Response, chunk: unknown, ...rest: unknown[]) {
      collect(chunk, rest[0]);
      return (write as (...args: unknown[]) => boolean).call(this, chunk, ...rest);
    } as Response["write"];
    res.end = function (this: Response, chunk?: unknown, ...rest: unknown[]) {
      collect(chunk, rest[0]);
      const cookie = res.getHeader("set-cookie");
      if (keep && res.statusCode === 200 && cookie === undefined && src.generation() === generation) {
        const headers = res
          .getHeaderNames()
          .filter((name) => !before.has(name) && !notStored.has(name))
          .map((name) => [name, res.getHeader(name)!] as Entry["headers"][number]);
        store(key, { generation, expires: now() + ttlMs, headers, body: Buffer.concat(chunks) });
      }
      return (end as (...args: unknown[]) => Response).call(this, chunk, ...rest);
    } as Response["end"];
    next();
  };
}
