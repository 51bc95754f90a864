import type { NextFunction, Request, Response } from "express";
import { refuse } from "./messages";
import { isApiPath, routePath } from "./paths";
import type { ServerSettings } from "./settings";

/**
 * Cross-site request forgery: a state-changing request (POST, PUT, PATCH, DELETE) that carries a
 * cookie must come from the app's own pages. It is refused with 403 when the browser says it was
 * sent by another site (`Sec-Fetch-Site: cross-site` or `same-site`), or when its `Origin` is not
 * the app's origin (APP_URL's, or the request's own when APP_URL is not configured).
 *
 * `Origin: null` is what Chromium sends for a same-origin form post under `Referrer-Policy:
 * no-referrer` (the app itself sends `strict-origin-when-cross-origin`), and also what a sandboxed
 * frame or a `data:` page sends: it is accepted only with `Sec-Fetch-Site: same-origin`, which a page
 * cannot forge. REST requests without a cookie (clients with a bearer token) are not concerned, and
 * neither are old clients that send neither header. A write to a page from another site is refused
 * even without a cookie: there is no such use, and Remix would throw on it (a 500).
 */
const UNSAFE = new Set(["POST", "PUT", "PATCH", "DELETE"]);

export function expectedOrigin(req: Request, settings: Pick<ServerSettings, "APP_URL" | "appUrlConfigured">): string | null {
  if (settings.appUrlConfigured) return new URL(settings.APP_URL).origin;
  try {
    return new URL(`${req.protocol}://${req.get("host") ?? ""}`).origin;
  } catch {
    return null;
  }
}

export function isCrossSite(req: Request, settings: Pick<ServerSettings, "APP_URL" | "appUrlConfigured">): boolean {
  const site = req.get("sec-fetch-site")?.toLowerCase();
  if (site === "cross-site" || site === "same-site") return true;
  const origin = req.get("origin");
  if (origin === undefined) return false;
  if (origin === "null") return site !== "same-origin";
  let given: string;
  try {
    given = new URL(origin).origin;
  } catch {
    return true;
  }
  return given !== expectedOrigin(req, settings);
}

export function sameOriginWrites(settings: Pick<ServerSettings, "APP_URL" | "appUrlConfigured">) {
  return (req: Request, res: Response, next: NextFunction) => {
    if (!UNSAFE.has(req.method)) return next();
    if (!req.headers.cookie && isApiPath(routePath(req.originalUrl))) return next();
    if (isCrossSite(req, settings)) return refuse(req, res, 403, "forbiddenOrigin");
    next();
  };
}
