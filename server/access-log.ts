import { randomUUID } from "node:crypto";
import type { NextFunction, Request, Response } from "express";
import type { Logger } from "pino";

/**
 * Request id and access log. The logged address never carries a single-use token or personal data:
 * the query keeps only the values of a few harmless parameters (paging, sorting, tabs), every other
 * value is replaced by `[redacted]`; a path segment that looks like a token (20 characters or more of
 * a token alphabet with a digit or a capital), an email address or anything over 64 characters is
 * replaced by `:redacted`, and so is the token of a report status page (/report/status/{token}). Hashed
 * build assets are not logged.
 */
const KEPT_PARAMS = new Set(["page", "size", "sort", "dir", "tab", "view", "dialog", "step", "index", "_data", "sent", "done"]);
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const REDACTED = "[redacted]";

function safeSegment(segment: string): string {
  if (segment.length > 64 || /@|%40/i.test(segment)) return ":redacted";
  if (UUID.test(segment)) return segment;
  if (segment.length >= 20 && /^[A-Za-z0-9_~.%-]+$/.test(segment) && /[0-9A-Z]/.test(segment)) return ":redacted";
  return segment;
}

export function loggableUrl(originalUrl: string): string {
  const cut = originalUrl.search(/[?#]/);
  const rawPath = cut < 0 ? originalUrl : originalUrl.slice(0, cut);
  const path = rawPath
    .slice(0, 2048)
    .split("/")
    .map(safeSegment)
    .join("/")
    // An occupier's report status page and a person's calendar feed: their path segment is the secret,
    // whatever it looks like.
    .replace(/^(\/report\/status\/)[^/]+/i, "$1:redacted")
    .replace(/^(\/calendar\/)[^/]+/i, "$1:redacted");
  if (cut < 0 || originalUrl[cut] === "#") return path;
  const query = originalUrl.slice(cut + 1).split("#", 1)[0];
  const params = query
    .split("&")
    .filter(Boolean)
    .slice(0, 20)
    .map((pair) => {
      const [name, value] = pair.split("=", 2);
      if (!/^[A-Za-z_][A-Za-z0-9_.-]{0,31}$/.test(name)) return REDACTED;
      if (value === undefined) return name;
      return KEPT_PARAMS.has(name) && /^[A-Za-z0-9_.-]{0,32}$/.test(value) ? `${name}=${value}` : `${name}=${REDACTED}`;
    });
  return params.length ? `${path}?${params.join("&")}` : path;
}

export function accessLog(log: Logger) {
  return (req: Request, res: Response, next: NextFunction) => {
    const id = (req.get("x-request-id") ?? "").replace(/[^\w.:-]/g, "").slice(0, 100) || randomUUID();
    res.locals.requestId = id;
    res.setHeader("X-Request-Id", id);
    const started = process.hrtime.bigint();
    res.on("finish", () => {
      if (req.originalUrl.startsWith("/assets/")) return;
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      log.info({ reqId: id, method: req.method, url: loggableUrl(req.originalUrl), status: res.statusCode, ms: Math.round(ms * 10) / 10 }, "request");
    });
    next();
  };
}
