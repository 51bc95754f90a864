import type { NextFunction, Request, Response } from "express";
import { addressKey } from "../app/lib/address-key.server";
import { type LimitStore, RateLimiter } from "../app/lib/rate-limit.server";
import { refuse } from "./messages";
import { isStrictPost, isTokenPage, routePath } from "./paths";
import type { ServerSettings } from "./settings";

/**
 * Tiered request limits per client address, per minute (times RATE_LIMIT_MULTIPLIER):
 * - strict, 10: posts to authentication, sign-up, password and bug-report routes, and opening a
 *   page with a single-use token in its address;
 * - writes, 100: any other request that is not GET, HEAD or OPTIONS;
 * - general, 1000: every request (static files are served before this and not counted).
 * A request counts in the general tier and in its own tier; over either it is answered 429 with
 * Retry-After. The address is Express's `req.ip`, so it follows TRUST_PROXY; an IPv6 address counts
 * by its /64 network (one host usually holds the whole /64). The counts live in the app's shared store
 * on PostgreSQL (every process counts together), in this process's memory otherwise, as hashed keys
 * (app/lib/rate-limit.server.ts, rate-limiter-flexible). A store that fails counts in memory meanwhile
 * (app/core/shared-limits.server.ts): a database outage never turns a request into a refusal here.
 */
const MINUTE = 60_000;
const READS = new Set(["GET", "HEAD", "OPTIONS"]);

export { addressKey };

export interface RateLimitTiers {
  strict: RateLimiter;
  writes: RateLimiter;
  general: RateLimiter;
}

export function createTiers(multiplier = 1, options: { store?: LimitStore } = {}): RateLimitTiers {
  return {
    strict: new RateLimiter(10 * multiplier, MINUTE, { ...options, scope: "requests.strict" }),
    writes: new RateLimiter(100 * multiplier, MINUTE, { ...options, scope: "requests.writes" }),
    general: new RateLimiter(1000 * multiplier, MINUTE, { ...options, scope: "requests.general" }),
  };
}

export function tieredRateLimits(settings: Pick<ServerSettings, "RATE_LIMIT_MULTIPLIER">, tiers = createTiers(settings.RATE_LIMIT_MULTIPLIER)) {
  return (req: Request, res: Response, next: NextFunction) => {
    admit(req, res, next).catch(next);
  };

  async function admit(req: Request, res: Response, next: NextFunction) {
    const key = addressKey(req.ip ?? req.socket.remoteAddress);
    const path = routePath(req.originalUrl);
    const tier = READS.has(req.method)
      ? isTokenPage(path, req.originalUrl)
        ? tiers.strict
        : null
      : isStrictPost(path)
        ? tiers.strict
        : tiers.writes;
    const [general, own] = await Promise.all([tiers.general.take(key), tier ? tier.take(key) : null]);
    if (general.allowed && (!own || own.allowed)) return next();
    const over = own && !own.allowed ? own : general;
    res.setHeader("Retry-After", String(over.resetSeconds));
    refuse(req, res, 429, "tooManyRequests");
  }
}
