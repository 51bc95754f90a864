import { addressKey } from "~/lib/address-key.server";
import { sharedLimitStore } from "~/core/shared-limits.server";
import { type LimitStore, RateLimiter } from "~/lib/rate-limit.server";

/**
 * The occupier report page's own limits, per hour (counted like the server's tiered limits; RATE_LIMIT_MULTIPLIER multiplies each, so tests and benches can lift them):
 *
 * - after REPORTS_BEFORE_CAPTCHA accepted reports from one client address, its next reports need the
 *   captcha question (the sign-up's no-JavaScript fallback: the report page runs no script);
 * - beyond MAX_POSTS_PER_ADDRESS posts from one address, or MAX_POSTS_PER_IDENTIFIER posts to one
 *   identifier (a sticker), a post is answered 429 until the hour's window ends.
 *
 * Posts count whether they are accepted or not (a bot retrying the captcha is limited too). The server's
 * `writes` tier (server/rate-limit.ts) still applies per minute in front of these.
 */
export const REPORT_WINDOW_MS = 60 * 60 * 1000;
export const REPORTS_BEFORE_CAPTCHA = 3;
export const MAX_POSTS_PER_ADDRESS = 20;
export const MAX_POSTS_PER_IDENTIFIER = 60;

export type Admission = { ok: true } | { ok: false; retryAfterSeconds: number };

export interface ReportLimits {
  /** Whether a report from `address` must answer the captcha question (it has made enough already). */
  needsCaptcha(address: string): Promise<boolean>;
  /** Whether posts from `address` or to `code` are refused now (for the page, without counting). */
  limited(address: string, code: string): Promise<Admission>;
  /** Counts one post from `address` to `code`; refused when either is over its limit. */
  admit(address: string, code: string): Promise<Admission>;
  /** Counts one accepted report from `address` (towards the captcha). */
  recordReport(address: string): Promise<void>;
}

export function createReportLimits(multiplier = 1, options: { store?: LimitStore } = {}): ReportLimits {
  const m = Math.max(1, Math.floor(multiplier));
  const reports = new RateLimiter(REPORTS_BEFORE_CAPTCHA * m, REPORT_WINDOW_MS, { ...options, scope: "report.reports" });
  const perAddress = new RateLimiter(MAX_POSTS_PER_ADDRESS * m, REPORT_WINDOW_MS, { ...options, scope: "report.address" });
  const perIdentifier = new RateLimiter(MAX_POSTS_PER_IDENTIFIER * m, REPORT_WINDOW_MS, { ...options, scope: "report.identifier" });
  const identifierKey = (code: string) => `report:${code}`;
  const refused = async (limiter: RateLimiter, key: string): Promise<Admission> => ({
    ok: false,
    retryAfterSeconds: await limiter.retryAfterSeconds(key),
  });

  return {
    needsCaptcha(address) {
      return reports.blocked(addressKey(address));
    },
    async limited(address, code) {
      const key = addressKey(address);
      if (await perAddress.blocked(key)) return refused(perAddress, key);
      if (await perIdentifier.blocked(identifierKey(code))) return refused(perIdentifier, identifierKey(code));
      return { ok: true };
    },
    async admit(address, code) {
      const key = addressKey(address);
      // A refused address does not use up the sticker's allowance.
      if (!(await perAddress.hit(key))) return refused(perAddress, key);
      if (!(await perIdentifier.hit(identifierKey(code)))) return refused(perIdentifier, identifierKey(code));
      return { ok: true };
    },
    async recordReport(address) {
      await reports.hit(addressKey(address));
    },
  };
}

const holder = globalThis as unknown as { __caretakerReportLimits?: { multiplier: number; limits: ReportLimits } };

/** The process-wide limits (one set per process, counting in the shared store when there is one). */
export function reportLimits(multiplier: number): ReportLimits {
  if (holder.__caretakerReportLimits?.multiplier !== multiplier) {
    holder.__caretakerReportLimits = { multiplier, limits: createReportLimits(multiplier, { store: sharedLimitStore() }) };
  }
  return holder.__caretakerReportLimits.limits;
}
