import { createCookieSessionStorage, type Session } from "@remix-run/node";
import { config, secureCookies } from "~/config.server";
import type { Role } from "~/db/enums";
import { logger } from "~/lib/logger.server";
import { DomainError } from "~/lib/errors";
import { authenticateWithShell, refresh, type AuthDeps, type AuthUser, type ShellData, type TokenPair } from "./service.server";

/**
 * The web session: a signed, httpOnly cookie holding the tokens and the technical data of SPEC.md
 * section 1 (user id, role, entity id, expiry, colours, saved target). It is resolved once per request,
 * before any loader runs (server.ts → getLoadContext → resolveSession): a token expiring within five
 * minutes is refreshed first, one refresh at a time per session.
 */
export interface SessionData {
  jwtToken: string;
  refreshToken: string;
  expiresAt: number;
  userId: number;
  role: Role;
  entityId: number;
  sessionId: string;
  colors: { templateColor: string; templateTextColor: string };
  /** The secured address a signed-out visitor asked for, to go to after login. */
  redirectTo: string;
}
export interface FlashData {
  /** Shown on the login page in a negative colour. */
  authMessage: "sessionExpired" | "accountDisabled";
}
export type WebSession = Session<SessionData, FlashData>;

/** SPEC.md section 9: refresh when the token expires within 5 minutes. */
export const REFRESH_WINDOW_MS = 5 * 60 * 1000;

let storage: ReturnType<typeof createCookieSessionStorage<SessionData, FlashData>> | undefined;
export function sessionStorage() {
  const cfg = config();
  storage ??= createCookieSessionStorage<SessionData, FlashData>({
    cookie: {
      name: "__session",
      path: "/",
      httpOnly: true,
      sameSite: "lax",
      secure: secureCookies(),
      secrets: [cfg.SESSION_SECRET],
      maxAge: cfg.REFRESH_TTL_DAYS * 86_400,
    },
  });
  return storage;
}

export function getSession(cookieHeader: string | null) {
  return sessionStorage().getSession(cookieHeader);
}
export function commitSession(session: WebSession) {
  return sessionStorage().commitSession(session);
}

/** What loaders see of the session: the user, or why there is none. */
export interface AuthState {
  user: AuthUser | null;
  /** The session existed but ended (refresh failed, token revoked, account disabled). */
  expired: boolean;
  session: WebSession;
  /**
   * What the shell shows (profile, unread count), read with the session check in one statement on
   * GET requests; absent otherwise (after an action, the loaders read it afresh).
   */
  shell?: ShellData;
}

/** Stores a fresh token pair in the session (after login or refresh). */
export function storeTokens(session: WebSession, pair: TokenPair) {
  session.set("jwtToken", pair.jwtToken);
  session.set("refreshToken", pair.refreshToken);
  session.set("expiresAt", pair.expiresAt);
  session.set("userId", pair.userId);
  session.set("role", pair.role);
  session.set("entityId", pair.entityId);
  session.set("sessionId", pair.sessionId);
}

export function clearTokens(session: WebSession) {
  for (const key of ["jwtToken", "refreshToken", "expiresAt", "userId", "role", "entityId", "sessionId", "colors", "redirectTo"] as const) {
    session.unset(key);
  }
}

/**
 * One refresh at a time per session: concurrent requests carrying the same refresh token share
 * one refresh, and requests that still carry the old cookie shortly after get the same new pair
 * instead of presenting a rotated token (which would look like theft and end the session).
 */
const inflight = new Map<string, { result: Promise<TokenPair>; settledAt?: number }>();
const GRACE_MS = 60_000;

function refreshOnce(refreshToken: string, jwtToken: string | undefined, run: typeof refresh, deps: AuthDeps) {
  const clock = deps.now ?? Date.now;
  const now = clock();
  for (const [key, entry] of inflight) if (entry.settledAt && now - entry.settledAt > GRACE_MS) inflight.delete(key);
  const existing = inflight.get(refreshToken);
  if (existing) return existing.result;
  const entry: { result: Promise<TokenPair>; settledAt?: number } = { result: run(deps, { refreshToken, jwtToken }) };
  entry.result.then(
    () => (entry.settledAt = clock()),
    () => (entry.settledAt = clock()),
  );
  inflight.set(refreshToken, entry);
  return entry.result;
}

/**
 * Resolves (and if needed refreshes) the request's session; `setCookie` must reach the browser. With
 * `shell` (GET and HEAD requests), the shell's profile and unread count come along in the same query.
 */
export async function resolveSession(
  auth: AuthDeps,
  cookieHeader: string | null,
  options: { shell?: boolean } = {},
): Promise<{ state: AuthState; setCookie: string | null }> {
  const session = await getSession(cookieHeader);
  const jwtToken = session.get("jwtToken");
  if (!jwtToken) return { state: { user: null, expired: false, session }, setCookie: null };

  let changed = false;
  try {
    const expiresAt = session.get("expiresAt") ?? 0;
    if (expiresAt - (auth.now?.() ?? Date.now()) < REFRESH_WINDOW_MS) {
      const pair = await refreshOnce(session.get("refreshToken") ?? "", jwtToken, refresh, auth);
      storeTokens(session, pair);
      changed = true;
    }
    const { user, shell } = await authenticateWithShell(auth, session.get("jwtToken"));
    return {
      state: { user, expired: false, session, ...(options.shell ? { shell } : {}) },
      setCookie: changed ? await commitSession(session) : null,
    };
  } catch (error) {
    logger().info({ err: error instanceof Error ? error.message : error }, "session ended");
    clearTokens(session);
    // A person disabled while signed in reads why (SPEC.md section 8), anyone else that the session expired.
    session.flash("authMessage", error instanceof DomainError && error.code === "ACCOUNT_DISABLED" ? "accountDisabled" : "sessionExpired");
    return { state: { user: null, expired: true, session }, setCookie: await commitSession(session) };
  }
}
