import path from "node:path";
import type { RequestHandler } from "express";
import { listFiles } from "./known-files";

/**
 * Serves the build's precompressed copies (`x.js.br`, `x.js.gz`, written by scripts/precompress.mjs)
 * to browsers that accept them: the request is pointed at the copy and marked with its encoding, so the
 * static handler sends it as is and the compression middleware leaves it alone. Files are listed once at
 * start; nothing from the request is used to build a path outside that list.
 */
export function precompressed(root: string): RequestHandler {
  const available = new Map<string, { br: boolean; gz: boolean }>();
  for (const file of listFiles(root)) {
    const match = /^(.*)\.(br|gz)$/.exec(file);
    if (!match) continue;
    const known = available.get(match[1]) ?? { br: false, gz: false };
    known[match[2] as "br" | "gz"] = true;
    available.set(match[1], known);
  }
  return (req, res, next) => {
    if (req.method !== "GET" && req.method !== "HEAD") return next();
    const known = available.get(req.path);
    if (!known) return next();
    const accepted = String(req.headers["accept-encoding"] ?? "");
    const encoding = known.br && /\bbr\b/.test(accepted) ? "br" : known.gz && /\bgzip\b/.test(accepted) ? "gzip" : null;
    res.vary("Accept-Encoding");
    if (!encoding) return next();
    const type = typeOf(req.path);
    res.setHeader("Content-Encoding", encoding);
    if (type) res.type(type);
    req.url = `${req.path}.${encoding === "br" ? "br" : "gz"}${req.url.slice(req.path.length)}`;
    next();
  };
}

/** The Content-Type of the original file, so the copy is not sent as application/x-brotli or gzip. */
function typeOf(urlPath: string): string | null {
  const ext = path.extname(urlPath).toLowerCase();
  return ext ? ext.slice(1) : null;
}
