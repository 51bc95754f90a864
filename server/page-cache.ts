import type { NextFunction, Request, Response } from "express";

/**
 * The public page cache (decision 019): the occupier's report page, the one page that every QR
 * sticker opens, served again from memory instead of rendered for each scan, so a crowd scanning one
 * sticker does not queue behind React.
 *
 * The app decides what may be kept, under which key and for which entity (`keyOf`: null renders the page
 * as usual), and says whether what was read after a mark is still fresh (`stamp`, `isFresh`: false once
 * that entity committed a write, in this process or, through the event bus, in another). A copy is served
 * while its entity has written nothing since it was rendered, and for at most `ttlMs` in any case. Only a
 * 200 without cookies is kept, with the headers the page itself set; everything in front of the page
 * (security headers, rate limits, compression) runs for every request as before.
 */
export interface PageCacheSource {
  keyOf(req: { url: string; cookie: string | null; acceptLanguage: string | null; clientAddress: string }): Promise<{ key: string; entityId: number } | null>;
  stamp(): number;
  isFresh(entityId: number, stamp: number): boolean;
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
  entityId: number;
  stamp: number;
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
    let kept: { key: string; entityId: number } | null;
    let stamp: number;
    try {
      src = await source();
      stamp = src.stamp();
      kept = await src.keyOf({
        url: req.originalUrl,
        cookie: req.get("cookie") ?? null,
        acceptLanguage: req.get("accept-language") ?? null,
        clientAddress: req.ip ?? "unknown",
      });
    } catch (error) {
      return next(error);
    }
    if (kept === null) return next();
    const { key, entityId } = kept;
    const entry = entries.get(key);
    if (entry && entry.entityId === entityId && entry.expires > now() && src.isFresh(entityId, entry.stamp)) {
      entries.delete(key); // the most recently used goes last: the first in the map leaves first
      entries.set(key, entry);
      res.status(200);
      for (const [name, value] of entry.headers) res.setHeader(name, value);
      res.setHeader("Content-Length", entry.body.byteLength);
      res.end(entry.body);
      return;
    }
    if (entry) entries.delete(key);

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
      if (keep && res.statusCode === 200 && cookie === undefined && src.isFresh(entityId, stamp)) {
        const headers = res
          .getHeaderNames()
          .filter((name) => !before.has(name) && !notStored.has(name))
          .map((name) => [name, res.getHeader(name)!] as Entry["headers"][number]);
        store(key, { entityId, stamp, expires: now() + ttlMs, headers, body: Buffer.concat(chunks) });
      }
      return (end as (...args: unknown[]) => Response).call(this, chunk, ...rest);
    } as Response["end"];
    next();
  };
}
