import type { NextFunction, Request, Response } from "express";
import { isApiPath, routePath } from "./paths";

/**
 * Cross-origin calls to the REST API (decision 056): off unless origins are configured
 * (API_CORS_ORIGINS). For a configured origin, /api answers allow it (no credentials: the API takes a
 * bearer header, never the session cookie) and expose the headers a client reads (rate limits, list
 * totals); its preflight is answered here. Any other origin gets no CORS header, so a browser keeps the
 * answer from its page. Pages and resources outside /api are never shared.
 */
const ALLOWED_METHODS = "GET, POST, PUT, PATCH, DELETE";
const ALLOWED_HEADERS = "Authorization, Content-Type, Accept-Language, X-Language";
const EXPOSED_HEADERS = "RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset, RateLimit-Policy, Retry-After, X-Total-Count, X-Total-Count-Capped";

export function apiCors(settings: { API_CORS_ORIGINS: readonly string[] }) {
  const allowed = new Set(settings.API_CORS_ORIGINS);
  return (req: Request, res: Response, next: NextFunction) => {
    if (allowed.size === 0 || !isApiPath(routePath(req.originalUrl))) return next();
    res.vary("Origin");
    const origin = req.headers.origin;
    if (!origin || !allowed.has(origin)) return next();
    res.setHeader("Access-Control-Allow-Origin", origin);
    res.setHeader("Access-Control-Expose-Headers", EXPOSED_HEADERS);
    if (req.method === "OPTIONS" && req.headers["access-control-request-method"]) {
      res.setHeader("Access-Control-Allow-Methods", ALLOWED_METHODS);
      res.setHeader("Access-Control-Allow-Headers", ALLOWED_HEADERS);
      res.setHeader("Access-Control-Max-Age", "600");
      res.status(204).end();
      return;
    }
    next();
  };
}
