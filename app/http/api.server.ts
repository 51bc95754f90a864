import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import type { z } from "zod";
import { isLocale, type Locale } from "~/i18n";
import { detectLocale, getT } from "~/i18n.server";
import { userContext } from "~/core/context.server";
import { type Deferred, deferred } from "~/core/input";
import type { FilesContext } from "~/modules/files/uploads.server";
import type { Page } from "~/lib/list-query";
import { asDomainError, DomainError, isDatabaseUnavailableError, RETRY_AFTER_SECONDS, ServiceUnavailableError, ValidationError } from "~/lib/errors";
import { CONTROL_CHARACTERS_MESSAGE, controlCharacterPaths } from "~/lib/text";
import { parseInput } from "~/lib/validation";
import { logger } from "~/lib/logger.server";
import { authenticate, type AuthUser } from "~/modules/auth/service.server";
import { authenticateApiToken, looksLikeApiToken } from "~/modules/api-tokens/authenticate.server";
import { sharedLimitStore } from "~/core/shared-limits.server";
import { RateLimiter } from "~/lib/rate-limit.server";

/**
 * The REST transport (SPEC.md section 7, under /api): bearer authentication (a session's access token or
 * an API token), per-caller rate limits, JSON in and out, and one
 * mapping of domain errors to a status and a body `{ code, message, messageKey, fieldErrors?,
 * fieldErrorKeys? }`: `code` is stable, `message` and `fieldErrors` are translated (Accept-Language or
 * X-Language), `messageKey` and `fieldErrorKeys` are the i18n keys behind them.
 */
export function jsonError(
  status: number,
  code: string,
  message: string,
  fieldErrors?: Record<string, string[]>,
  keys?: { messageKey: string; fieldErrorKeys?: Record<string, string[]> },
) {
  return Response.json({ code, message, ...(fieldErrors ? { fieldErrors } : {}), ...(keys ?? {}) }, { status });
}

export async function requestLocale(request: Request): Promise<Locale> {
  const header = request.headers.get("x-language");
  if (isLocale(header)) return header;
  return detectLocale(request);
}

/**
 * What the shared form reader (`readFormData`, form-action.server.ts) throws as plain-text answers, for
 * the screens: an unreadable body (a cut or malformed multipart body: 400) and a text part too large
 * (413). The API answers them as its other errors.
 */
const PLAIN_REFUSALS: Record<number, () => DomainError> = {
  400: () => new ValidationError({}, "errors.unreadableForm", "UNREADABLE_FORM"),
  413: () => new DomainError("PAYLOAD_TOO_LARGE", "http.payloadTooLarge", 413),
};

/** Maps anything a handler throws to a JSON answer; never a 500 for a domain error. */
export async function toApiError(error: unknown, locale: Locale): Promise<Response> {
  if (error instanceof Response) {
    const refusal = PLAIN_REFUSALS[error.status];
    if (!refusal || (error.headers.get("content-type") ?? "").includes("json")) return error;
    error = refusal();
  }
  const t = getT(locale);
  error = asDomainError(error) ?? error;
  if (error instanceof DomainError) {
    const fieldErrors = error.fieldErrors
      ? Object.fromEntries(Object.entries(error.fieldErrors).map(([k, v]) => [k, v.map((key) => t(key))]))
      : undefined;
    const answer = jsonError(error.status, error.code, t(error.messageKey), fieldErrors, {
      messageKey: error.messageKey,
      ...(error.fieldErrors ? { fieldErrorKeys: error.fieldErrors } : {}),
    });
    if (error instanceof ServiceUnavailableError) answer.headers.set("Retry-After", String(RETRY_AFTER_SECONDS));
    return answer;
  }
  logger().error({ err: error }, "api error");
  return jsonError(500, "INTERNAL", t("errors.tryAgain"));
}

/** The rate limits of /api: one limiter per kind of caller and limit, in the app's shared store (decision 056). */
const limiters = new Map<string, RateLimiter>();
const MINUTE = 60_000;

function apiLimiter(kind: "person" | "token", limit: number): RateLimiter {
  const name = `${kind}:${limit}`;
  let limiter = limiters.get(name);
  if (!limiter) {
    const store = sharedLimitStore();
    limiter = new RateLimiter(limit, MINUTE, { store, scope: `api.${kind}` });
    limiters.set(name, limiter);
  }
  return limiter;
}

/** The default calls a minute per person and per token (config API_RATE_LIMIT_PER_PERSON / _PER_TOKEN). */
export const API_LIMITS = { person: 600, token: 300 } as const;

/** Headers of the IETF draft "RateLimit header fields for HTTP": the limit, what remains, when it resets. */
function rateLimitHeaders(kind: "person" | "token", state: { limit: number; remaining: number; resetSeconds: number }): Record<string, string> {
  return {
    "RateLimit-Limit": String(state.limit),
    "RateLimit-Remaining": String(state.remaining),
    "RateLimit-Reset": String(state.resetSeconds),
    "RateLimit-Policy": `${state.limit};w=60;comment="per ${kind}"`,
  };
}

/** `response` with `headers` added (a copy when its own headers cannot be changed). */
function withHeaders(response: Response, headers: Record<string, string>): Response {
  try {
    for (const [name, value] of Object.entries(headers)) response.headers.set(name, value);
    return response;
  } catch {
    const copy = new Response(response.body, { status: response.status, statusText: response.statusText, headers: response.headers });
    for (const [name, value] of Object.entries(headers)) copy.headers.set(name, value);
    return copy;
  }
}

/** Who calls: a person's session (a JWT access token) or an API token, with the service context it acts in. */
interface Caller {
  user: AuthUser;
  ctx: FilesContext;
  kind: "person" | "token";
  /** The rate limit's key: the person's or the token's id. */
  key: string;
}

async function callerOf(args: LoaderFunctionArgs, token: string | undefined, locale: Locale): Promise<Caller | null> {
  const rt = args.context.runtime;
  const base = { locale, requestId: args.context.requestId };
  if (token && looksLikeApiToken(token)) {
    const principal = await authenticateApiToken(rt.services.db, token);
    if (!principal) return null;
    const { actor, entityId, timeZone, expiresAt } = principal;
    // The handlers' `user`: the token's maker's id (an author where one is recorded), the token's role.
    const user: AuthUser = { id: actor.id, entityId, role: actor.role, sessionId: `api-token:${actor.tokenId}`, expiresAt, timeZone };
    const ctx: FilesContext = { ...rt.services, entityId, actor, timeZone, ...base, files: rt.files };
    return { user, ctx, kind: "token", key: `token:${actor.tokenId}` };
  }
  let user: AuthUser;
  try {
    user = await authenticate(rt.auth, token);
  } catch (error) {
    // A database that does not answer is not an invalid token: the caller gets 503, not 401.
    if (isDatabaseUnavailableError(error)) throw error;
    return null;
  }
  const ctx: FilesContext = { ...userContext(rt.services, user, base), files: rt.files };
  return { user, ctx, kind: "person", key: `person:${user.id}` };
}

/**
 * Wraps an /api handler: requires `Authorization: Bearer` with a session's access token or an API token
 * (decision 056), counts the call against the caller's rate limit (429 over it, RateLimit headers on
 * every answer), builds the service context.
 */
export function apiRoute<A extends LoaderFunctionArgs | ActionFunctionArgs>(
  handler: (args: A & { user: AuthUser; ctx: FilesContext; locale: Locale }) => Promise<unknown> | unknown,
) {
  return async (args: A): Promise<Response> => {
    const locale = await requestLocale(args.request);
    const header = args.request.headers.get("authorization") ?? "";
    const token = /^Bearer\s+(.+)$/i.exec(header)?.[1]?.trim();
    let caller: Caller | null;
    try {
      caller = await callerOf(args, token, locale);
    } catch (error) {
      return toApiError(error, locale);
    }
    if (!caller) return jsonError(401, "UNAUTHORIZED", getT(locale)("auth:sessionExpired"));
    const config = (args.context.runtime.config ?? {}) as Partial<Record<"API_RATE_LIMIT_PER_PERSON" | "API_RATE_LIMIT_PER_TOKEN", number>>;
    const limit = caller.kind === "token" ? (config.API_RATE_LIMIT_PER_TOKEN ?? API_LIMITS.token) : (config.API_RATE_LIMIT_PER_PERSON ?? API_LIMITS.person);
    const state = await apiLimiter(caller.kind, limit).take(caller.key);
    const limitHeaders = rateLimitHeaders(caller.kind, state);
    if (!state.allowed) {
      const refused = jsonError(429, "TOO_MANY_REQUESTS", getT(locale)("http.tooManyRequests"), undefined, { messageKey: "http.tooManyRequests" });
      return withHeaders(refused, { ...limitHeaders, "Retry-After": String(state.resetSeconds) });
    }
    try {
      const result = await handler({ ...args, user: caller.user, ctx: caller.ctx, locale });
      if (result instanceof Response) return withHeaders(result, limitHeaders);
      return Response.json(result ?? { responseCode: 0 }, { headers: limitHeaders });
    } catch (error) {
      return withHeaders(await toApiError(error, locale), limitHeaders);
    }
  };
}

/**
 * Reads a JSON body and validates it; a body that is not JSON or does not fit answers 400. With
 * `optional`, an empty body counts as `{}` (DELETE with optional options).
 */
export async function parseJson<S extends z.ZodType>(request: Request, schema: S, options: { optional?: boolean } = {}): Promise<z.infer<S>> {
  const text = await request.text();
  let body: unknown = {};
  if (!options.optional || text.trim() !== "") {
    if (!isJsonContentType(request.headers.get("content-type"))) {
      throw new DomainError("UNSUPPORTED_MEDIA_TYPE", "errors.unsupportedMediaType", 415);
    }
    try {
      body = JSON.parse(text);
    } catch {
      throw new ValidationError({}, "errors.invalidJson", "INVALID_JSON");
    }
    // No body of the API nests deeper than a few levels; a thousand nested arrays would overflow the
    // stack of every walk over the value (the control-character check, the schema): 400, not 500.
    if (nestedDeeperThan(body, MAX_JSON_DEPTH)) throw new ValidationError({}, "errors.invalidJson", "INVALID_JSON");
  }
  const control = controlCharacterPaths(body);
  if (control.length) throw new ValidationError(Object.fromEntries(control.map((path) => [path, [CONTROL_CHARACTERS_MESSAGE]])));
  return parseInput(schema, body);
}

/** How deep a REST body's arrays and objects may nest (the API's own bodies: three or four levels). */
const MAX_JSON_DEPTH = 32;

/** Whether `value` holds arrays or objects nested more than `limit` deep; walked without recursion. */
function nestedDeeperThan(value: unknown, limit: number): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [item, depth] = stack.pop()!;
    if (item === null || typeof item !== "object") continue;
    if (depth >= limit) return true;
    for (const child of Array.isArray(item) ? item : Object.values(item)) stack.push([child, depth + 1]);
  }
  return false;
}

/**
 * The JSON body, read and validated only when the verb asks for it (after its permission check):
 * pass it as the verb's input.
 */
export function jsonBody<S extends z.ZodType>(request: Request, schema: S, options: { optional?: boolean } = {}): Deferred<z.infer<S>> {
  return deferred(() => parseJson(request, schema, options));
}

/** `application/json` or a `+json` type, with any parameters (charset). */
export function isJsonContentType(header: string | null): boolean {
  const type = (header ?? "").split(";")[0].trim().toLowerCase();
  return type === "application/json" || /^application\/[a-z0-9.+-]+\+json$/.test(type);
}

/**
 * A list answer: the page's rows as a JSON array, the total in `X-Total-Count`. A search whose count
 * stopped at LIST_COUNT_CAP says so with `X-Total-Count-Capped: true` (the total is a lower bound and
 * pages end there).
 */
export function listJson<T>(page: Pick<Page<T>, "items" | "total" | "capped">): Response {
  const headers: Record<string, string> = { "X-Total-Count": String(page.total) };
  if (page.capped) headers["X-Total-Count-Capped"] = "true";
  return Response.json(page.items, { headers });
}

/** 201 with the created object. */
export function created(body: unknown): Response {
  return Response.json(body, { status: 201 });
}

/** 405 with the methods the address takes in `Allow`. */
export function methodNotAllowed(allow: string): Response {
  return Response.json({ code: "METHOD_NOT_ALLOWED", message: "Method Not Allowed" }, { status: 405, headers: { Allow: allow } });
}


/** Parses a positive integer id from the URL; anything else is "not found". */
export function idParam(value: string | undefined): number | null {
  return value && /^\d{1,9}$/.test(value) ? Number(value) : null;
}
