import type { NextFunction, Request, Response } from "express";
import zlib from "node:zlib";

/**
 * Compresses a response whose whole body is known in advance in one synchronous call (decision 035).
 *
 * The pages are rendered whole into one buffer and sent with a Content-Length (entry.server.tsx), but the
 * `compression` middleware compresses every answer as a stream: a zlib stream made per response, its work
 * passed to the thread pool and back, the answer re-sent in chunks: several times the CPU of compressing
 * the same bytes in one call. This middleware, placed after
 * `compression` (so that it sees the body first), takes the answers that declare a Content-Length between
 * `minBytes` and `maxBytes`, of a compressible type, not yet encoded, and sends them brotli or gzip
 * compressed (`DYNAMIC_COMPRESSION`) with their own Content-Length. Anything else (streams such as data
 * requests and server-sent events, small or large bodies, HEAD, `no-transform`) goes on to `compression`
 * unchanged, which leaves an answer alone once it has a Content-Encoding.
 *
 * The time spent compressing is left in `res.locals.compressMs` for the benchmarks' Server-Timing
 * (server/server-timing.ts).
 */
export interface WholeCompressionOptions {
  minBytes?: number;
  maxBytes?: number;
}

const COMPRESSIBLE = /^(text\/|application\/(json|javascript|xml|[a-z.+-]*\+(json|xml))|image\/svg\+xml)/i;

/**
 * The levels for answers compressed as they are sent (decision 042): brotli quality 3 and gzip level 4,
 * where the `compression` middleware's defaults are 4 and 6: a lower level keeps the compressor's share of
 * a page's CPU well under a tenth for a few percent more bytes (`npm run bench:compression`). The same levels
 * go to the `compression` middleware for streamed answers (server.ts). Static files are compressed once
 * at build time at the highest levels (scripts/precompress.mjs).
 */
export const DYNAMIC_COMPRESSION = { brotliQuality: 3, gzipLevel: 4 } as const;

const BROTLI = { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: DYNAMIC_COMPRESSION.brotliQuality } };
const GZIP = { level: DYNAMIC_COMPRESSION.gzipLevel };

/** A whole body compressed in one call, with the levels above. */
export function compressWhole(body: Buffer, encoding: "br" | "gzip"): Buffer {
  return encoding === "br" ? zlib.brotliCompressSync(body, BROTLI) : zlib.gzipSync(body, GZIP);
}

/** The encoding to send for an Accept-Encoding header: brotli, else gzip, when accepted (q above 0). */
export function chooseEncoding(header: string | undefined): "br" | "gzip" | null {
  if (!header) return null;
  const weights = new Map<string, number>();
  for (const part of header.split(",")) {
    const [name, ...params] = part.trim().toLowerCase().split(";");
    if (!name) continue;
    const q = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
    const weight = q ? Number(q.slice(2)) : 1;
    weights.set(name, Number.isFinite(weight) ? weight : 0);
  }
  const accepted = (name: string) => (weights.get(name) ?? weights.get("*") ?? 0) > 0;
  return accepted("br") ? "br" : accepted("gzip") ? "gzip" : null;
}

function toBuffer(chunk: unknown, encoding: unknown): Buffer | null {
  if (typeof chunk === "string") return Buffer.from(chunk, typeof encoding === "string" ? (encoding as BufferEncoding) : "utf8");
  if (chunk instanceof Uint8Array) return Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
  return null;
}

export function wholeCompression(options: WholeCompressionOptions = {}) {
  const minBytes = options.minBytes ?? 1024;
  const maxBytes = options.maxBytes ?? 1024 * 1024;

  return (req: Request, res: Response, next: NextFunction) => {
    const encoding = req.method === "HEAD" ? null : chooseEncoding(req.headers["accept-encoding"]);
    if (!encoding) return next();

    /** The body so far, once the answer is known to be one this middleware compresses. */
    let body: Buffer[] | null = null;
    let decided = false;
    const takes = (): boolean => {
      if (decided) return body !== null;
      decided = true;
      const length = Number(res.getHeader("Content-Length"));
      const type = String(res.getHeader("Content-Type") ?? "");
      const cacheControl = String(res.getHeader("Cache-Control") ?? "");
      const suitable =
        !res.headersSent &&
        Number.isInteger(length) &&
        length >= minBytes &&
        length <= maxBytes &&
        res.statusCode !== 204 &&
        res.statusCode !== 304 &&
        COMPRESSIBLE.test(type) &&
        res.getHeader("Content-Encoding") === undefined &&
        !/\bno-transform\b/i.test(cacheControl);
      if (suitable) body = [];
      return suitable;
    };

    const write = res.write;
    const end = res.end;
    res.write = function (this: Response, chunk: unknown, ...rest: unknown[]) {
      if (!takes()) return (write as (...args: unknown[]) => boolean).call(this, chunk, ...rest);
      const buffer = toBuffer(chunk, rest[0]);
      if (buffer) body!.push(Buffer.from(buffer));
      const callback = rest.find((arg) => typeof arg === "function") as (() => void) | undefined;
      if (callback) process.nextTick(callback);
      return true;
    } as Response["write"];
    res.end = function (this: Response, chunk?: unknown, ...rest: unknown[]) {
      const callback = [chunk, ...rest].find((arg) => typeof arg === "function") as (() => void) | undefined;
      const data = typeof chunk === "function" ? undefined : chunk;
      if (!takes()) return (end as (...args: unknown[]) => Response).call(this, chunk, ...rest);
      const buffer = data === undefined || data === null ? null : toBuffer(data, rest[0]);
      if (buffer) body!.push(buffer);
      const whole = body!.length === 1 ? body![0] : Buffer.concat(body!);
      const started = performance.now();
      const compressed = compressWhole(whole, encoding);
      res.locals.compressMs = performance.now() - started;
      res.setHeader("Content-Encoding", encoding);
      res.setHeader("Content-Length", compressed.byteLength);
      const vary = String(res.getHeader("Vary") ?? "");
      if (!/(^|,)\s*(accept-encoding|\*)\s*(,|$)/i.test(vary)) res.setHeader("Vary", vary ? `${vary}, Accept-Encoding` : "Accept-Encoding");
      return (end as (...args: unknown[]) => Response).call(this, compressed, callback);
    } as Response["end"];
    next();
  };
}
