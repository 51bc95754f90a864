import { randomUUID } from "node:crypto";
import { and, eq, isNull, sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { type Role, UserStatus } from "~/db/enums";
import { entities, notificationCounts, refreshTokens, users } from "~/db/schema";
import { subquery } from "~/db/subquery";
import { DEFAULT_TIME_ZONE } from "~/lib/dates";
import { DomainError } from "~/lib/errors";
import { type LimitStore, RateLimiter } from "~/lib/rate-limit.server";
import { type Profile, profileColumns } from "~/modules/users/queries.server";
import { hashPassword, verifyPassword } from "./password.server";
import { hashToken, newOpaqueToken, signAccessToken, verifyAccessToken, type AccessClaims } from "./tokens.server";

/**
 * Authentication: one service for the REST API and the web session. Access tokens are short-lived
 * JWTs; refresh tokens are opaque, stored hashed, rotated on every use, and grouped in a family per
 * login: presenting a token that was already rotated revokes the whole family (token theft).
 */

/** `errorCode` of the login answer (SPEC.md section 7; 2 is the user-load error). */
export const LoginErrorCode = {
  NONE: 0,
  INVALID_CREDENTIALS: 1,
  USER_LOAD: 2,
  ACCOUNT_DISABLED: 3,
  ACCOUNT_NOT_VALIDATED: 4,
  TOO_MANY_ATTEMPTS: 5,
} as const;
export type LoginErrorCode = (typeof LoginErrorCode)[keyof typeof LoginErrorCode];

export class AuthError extends DomainError {
  constructor(
    code: string,
    messageKey: string,
    status: number,
    public readonly loginErrorCode: LoginErrorCode = LoginErrorCode.INVALID_CREDENTIALS,
  ) {
    super(code, messageKey, status);
  }
}

const invalidCredentials = () =>
  new AuthError("INVALID_CREDENTIALS", "auth:login.invalidCredentials", 401, LoginErrorCode.INVALID_CREDENTIALS);
const sessionExpired = () => new AuthError("SESSION_EXPIRED", "auth:sessionExpired", 401);
/** A signed-in person whose account was disabled meanwhile: their session ends with SPEC's deactivated message. */
const accountDisabled = () => new AuthError("ACCOUNT_DISABLED", "auth:login.disabled", 401, LoginErrorCode.ACCOUNT_DISABLED);

export interface AuthDeps {
  db: Db;
  jwtSecret: string;
  accessTtlSeconds: number;
  refreshTtlDays: number;
  limits?: { perAccount: RateLimiter; perAddress: RateLimiter };
  now?: () => number;
}

export interface TokenPair {
  jwtToken: string;
  refreshToken: string;
  /** Access-token expiry, ms since the epoch. */
  expiresAt: number;
  userId: number;
  entityId: number;
  role: Role;
  sessionId: string;
}

/** A token pair as the API answers it (SPEC section 7): the tokens, who, and the access token's expiry as ISO text. */
export function tokenPairBody(pair: TokenPair) {
  return {
    jwtToken: pair.jwtToken,
    refreshToken: pair.refreshToken,
    role: pair.role,
    userId: pair.userId,
    entityId: pair.entityId,
    expiresAt: new Date(pair.expiresAt).toISOString(),
  };
}

/** The signed-in user as every request sees it. */
export interface AuthUser {
  id: number;
  entityId: number;
  role: Role;
  sessionId: string;
  expiresAt: number;
  /** The entity's time zone, read with the session check (every date of the request follows it). */
  timeZone: string;
  /**
   * The person's language setting (UserLanguage), read with the session check: the screens' language,
   * over the browser's (left out: the request's language decides).
   */
  language?: number;
}

/**
 * Login limits, both over 15 minutes: `perAddress` counts every attempt of a client address;
 * `perAccount` counts the failures of one account *from one address*, so failing on purpose locks
 * out only the one failing (never the account's owner elsewhere). Keys are normalised, cut and
 * hashed by the limiter.
 */
export function createLoginLimits(perAccount: number, perAddress: number, options: { store?: LimitStore } = {}) {
  const fifteenMinutes = 15 * 60 * 1000;
  return {
    perAccount: new RateLimiter(perAccount, fifteenMinutes, { ...options, scope: "login.account" }),
    perAddress: new RateLimiter(perAddress, fifteenMinutes, { ...options, scope: "login.address" }),
  };
}

/** The per-account key: the normalised email together with the client address. */
export function accountAttemptKey(email: string, address: string | undefined): string {
  return `${normaliseEmail(email)}\n${address || "unknown"}`;
}

function normaliseEmail(email: string): string {
  return email.trim().slice(0, 320).normalize("NFKC").toLowerCase();
}

const MAX_EMAIL_LENGTH = 320;
const MAX_PASSWORD_LENGTH = 1024;

// Verifying against a real hash when the account does not exist keeps the answer time the same.
let dummyHash: Promise<string> | undefined;

export async function login(deps: AuthDeps, input: { email: string; password: string; address?: string }): Promise<TokenPair> {
  const now = deps.now?.() ?? Date.now();
  const email = input.email.trim().toLowerCase();
  const limits = deps.limits;
  const accountKey = accountAttemptKey(input.email, input.address);
  if (limits) {
    const addressOk = await limits.perAddress.hit(input.address || "unknown");
    if (!addressOk || (await limits.perAccount.blocked(accountKey))) {
      throw new AuthError("TOO_MANY_ATTEMPTS", "auth:login.tooManyAttempts", 429, LoginErrorCode.TOO_MANY_ATTEMPTS);
    }
  }
  // No account has an address this long; such input is not sent to the database.
  const plausible = email.length <= MAX_EMAIL_LENGTH && input.password.length <= MAX_PASSWORD_LENGTH;
  const [user] = plausible
    // tenant-scope: across entities, sign-in by e-mail address, unique over all entities
    ? await deps.db
        .select()
        .from(users)
        .where(and(sql`lower(${users.email}) = ${email}`, isNull(users.archivedAt)))
        .limit(1)
    : [];
  dummyHash ??= hashPassword("not-a-real-password-Aa1!");
  const ok = await verifyPassword(user?.passwordHash ?? (await dummyHash), input.password.slice(0, MAX_PASSWORD_LENGTH));
  if (!user || !ok) {
    await limits?.perAccount.hit(accountKey);
    throw invalidCredentials();
  }
  if (user.status === UserStatus.DISABLED) {
    throw new AuthError("ACCOUNT_DISABLED", "auth:login.disabled", 403, LoginErrorCode.ACCOUNT_DISABLED);
  }
  if (user.status !== UserStatus.ACTIVE) {
    throw new AuthError("ACCOUNT_NOT_VALIDATED", "auth:login.notValidated", 403, LoginErrorCode.ACCOUNT_NOT_VALIDATED);
  }
  await limits?.perAccount.reset(accountKey);
  // The last login and the new session's refresh token are written together, or neither is.
  return deps.db.transaction(async (tx) => {
    await tx.update(users).set({ lastLoginAt: new Date(now) }).where(and(eq(users.id, user.id), eq(users.entityId, user.entityId)));
    return issue({ ...deps, db: tx as unknown as Db }, { userId: user.id, entityId: user.entityId, role: user.role, sessionId: randomUUID() }, null, now);
  });
}

/**
 * How long a rotated refresh token may still be presented. Requests of one browser can overtake each
 * other: one refreshes, another (in this process or in another behind the same load balancer) still
 * carries the old cookie. Within this window the old token gets a fresh pair of the same session
 * instead of ending it; after it, presenting a rotated token is theft.
 */
export const ROTATION_GRACE_MS = 60_000;

/**
 * Exchanges a refresh token for a new pair (rotation). A token rotated within `ROTATION_GRACE_MS`
 * gets a pair of its own; an older rotated or a revoked one revokes its family.
 */
export async function refresh(deps: AuthDeps, input: { refreshToken: string; jwtToken?: string }): Promise<TokenPair> {
  const now = deps.now?.() ?? Date.now();
  if (!input.refreshToken) throw sessionExpired();
  const outcome = await deps.db.transaction(async (tx) => {
    // tenant-scope: across entities, a refresh token is found by its hash; the row gives the entity
    const [row] = await tx
      .select()
      .from(refreshTokens)
      .where(eq(refreshTokens.tokenHash, hashToken(input.refreshToken)))
      .for("update")
      .limit(1);
    if (!row) return null;
    const late = row.rotatedAt !== null && now - row.rotatedAt.getTime() > ROTATION_GRACE_MS;
    if (row.revokedAt || late) {
      // Reuse of a rotated token: somebody else holds the family. End it (and commit that).
      // tenant-scope: scoped by the family of the refresh token row read above
      await tx
        .update(refreshTokens)
        .set({ revokedAt: new Date(now) })
        .where(and(eq(refreshTokens.familyId, row.familyId), isNull(refreshTokens.revokedAt)));
      return null;
    }
    if (row.expiresAt.getTime() <= now) return null;
    if (input.jwtToken) {
      const claims = await verifyAccessToken(deps.jwtSecret, input.jwtToken, { ignoreExpiry: true });
      if (!claims || claims.userId !== row.userId || claims.sessionId !== row.familyId) return null;
    }
    const [user] = await tx.select().from(users).where(and(eq(users.id, row.userId), eq(users.entityId, row.entityId))).limit(1);
    if (user && !user.archivedAt && user.status === UserStatus.DISABLED) return "disabled" as const;
    if (!user || user.archivedAt || user.status !== UserStatus.ACTIVE) return null;
    return issue(
      { ...deps, db: tx as unknown as Db },
      { userId: user.id, entityId: user.entityId, role: user.role, sessionId: row.familyId },
      // Within the grace the spent token keeps its first rotation time, so the window never grows.
      row.rotatedAt ? null : row.id,
      now,
    );
  });
  if (outcome === "disabled") throw accountDisabled();
  if (!outcome) throw sessionExpired();
  return outcome;
}

/** Ends a login session: revokes every refresh token of its family (the access token dies with it). */
export async function logout(deps: AuthDeps, input: { sessionId?: string; refreshToken?: string }): Promise<void> {
  const now = new Date(deps.now?.() ?? Date.now());
  let familyId = input.sessionId;
  if (!familyId && input.refreshToken) {
    // tenant-scope: across entities, a refresh token is found by its hash; the row gives the entity
    const [row] = await deps.db
      .select({ familyId: refreshTokens.familyId })
      .from(refreshTokens)
      .where(eq(refreshTokens.tokenHash, hashToken(input.refreshToken)))
      .limit(1);
    familyId = row?.familyId;
  }
  if (!familyId) return;
  // tenant-scope: scoped by the family of the session being ended (its own token)
  await deps.db
    .update(refreshTokens)
    .set({ revokedAt: now })
    .where(and(eq(refreshTokens.familyId, familyId), isNull(refreshTokens.revokedAt)));
}

/**
 * Checks an access token on every request: signature and expiry, then that the user is still
 * active and the session was not revoked (a disabled user loses access on the next request).
 */
export async function authenticate(deps: AuthDeps, jwtToken: string | null | undefined): Promise<AuthUser> {
  if (!jwtToken) throw sessionExpired();
  const claims = await verifyAccessToken(deps.jwtSecret, jwtToken, { now: deps.now?.() });
  if (!claims) throw sessionExpired();
  // tenant-scope: scoped by sessionUser(): the prepared query filters users by the claims' user id and entity id
  const [row] = await preparedFor(deps.db, sessionQueries, buildSessionQuery).execute(claimParams(claims));
  if (!isLive(row, claims)) throw refusalOf(row, claims);
  // The role is read from the database, so a role change applies at once.
  return sessionUserOf(row, claims);
}

/** What every signed-in page's shell shows: the profile with its entity's branding, and the unread count. */
export interface ShellData {
  /** Null when the entity is archived (the root loader then logs the user out). */
  profile: Profile | null;
  unread: number;
}

/** What both session checks read: the user's state and whether the session (`sessionId`) was revoked. */
function sessionState() {
  return {
    status: users.status,
    archivedAt: users.archivedAt,
    role: users.role,
    language: users.language,
    entityId: users.entityId,
    // tenant-scope: scoped by the session id of the signed claims (a family belongs to one user of one entity)
    revoked: sql<boolean>`exists (select 1 from ${refreshTokens} where ${refreshTokens.familyId} = ${sql.placeholder("sessionId")} and ${refreshTokens.revokedAt} is not null)`,
  };
}

/** The token's user in the token's entity (`userId`, `entityId`). */
function sessionUser() {
  return and(eq(users.id, sql.placeholder("userId")), eq(users.entityId, sql.placeholder("entityId")));
}

/**
 * The session checks run on every signed-in request: built once per database handle and run as prepared
 * statements (named on PostgreSQL; decision 019). This one reads the shell's profile and unread count too.
 */
function buildShellQuery(db: Db) {
  const profile = profileColumns();
  return db
    .select({
      ...sessionState(),
      ...profile,
      timeZone: entities.timeZone,
      entity: { ...profile.entity, archivedAt: entities.archivedAt },
      // The counter the notifications' triggers keep (decision 028): one row, whatever their number.
      unread: sql<number>`coalesce((select ${notificationCounts.unread} from ${notificationCounts}
        where ${notificationCounts.userId} = ${users.id} and ${notificationCounts.entityId} = ${users.entityId}), 0)`.mapWith(Number),
    })
    .from(users)
    .leftJoin(entities, eq(entities.id, users.entityId))
    .where(sessionUser())
    .limit(1)
    .prepare("caretaker_shell_session");
}
const shellQueries = new WeakMap<Db, ReturnType<typeof buildShellQuery>>();

/** `authenticate`'s check alone (REST calls): the user's state and the session's revocation. */
function buildSessionQuery(db: Db) {
  return db
    .select({
      ...sessionState(),
      timeZone: sql<string | null>`${subquery.select({ timeZone: entities.timeZone }).from(entities).where(eq(entities.id, users.entityId))}`,
    })
    .from(users)
    .where(sessionUser())
    .limit(1)
    .prepare("caretaker_session");
}
const sessionQueries = new WeakMap<Db, ReturnType<typeof buildSessionQuery>>();

/** The query `build` makes for `db`, made once per database handle. */
function preparedFor<Q>(db: Db, made: WeakMap<Db, Q>, build: (db: Db) => Q): Q {
  let query = made.get(db);
  if (query === undefined) made.set(db, (query = build(db)));
  return query;
}

/** An active, unarchived user of the token's entity whose session was not revoked. */
function isLive<R extends { status: number; archivedAt: Date | null; revoked: boolean; entityId: number }>(row: R | undefined, claims: AccessClaims): row is R {
  return row !== undefined && !row.archivedAt && row.status === UserStatus.ACTIVE && !row.revoked && row.entityId === claims.entityId;
}

/** Why a session is no longer live: the account was disabled, or it simply ended (expired, revoked, archived). */
function refusalOf(row: { status: number; archivedAt: Date | null; entityId: number } | undefined, claims: AccessClaims): AuthError {
  return row && !row.archivedAt && row.entityId === claims.entityId && row.status === UserStatus.DISABLED ? accountDisabled() : sessionExpired();
}

/** The signed-in user from the token's claims and the checked row (its role, language and its entity's time zone). */
function sessionUserOf(row: { role: Role; language: number; timeZone: string | null }, claims: AccessClaims): AuthUser {
  return {
    id: claims.userId,
    entityId: claims.entityId,
    role: row.role,
    sessionId: claims.sessionId,
    expiresAt: claims.expiresAt,
    timeZone: row.timeZone ?? DEFAULT_TIME_ZONE,
    language: row.language,
  };
}

function claimParams(claims: AccessClaims) {
  return { userId: claims.userId, entityId: claims.entityId, sessionId: claims.sessionId };
}

/**
 * `authenticate` for a page request, with what the page's shell shows read in the same statement (the
 * profile and entity branding of the root loader, the bell's unread count): one round trip per page
 * instead of three (decision 017). The checks and the errors are `authenticate`'s.
 */
export async function authenticateWithShell(deps: AuthDeps, jwtToken: string | null | undefined): Promise<{ user: AuthUser; shell: ShellData }> {
  if (!jwtToken) throw sessionExpired();
  const claims = await verifyAccessToken(deps.jwtSecret, jwtToken, { now: deps.now?.() });
  if (!claims) throw sessionExpired();
  // tenant-scope: scoped by sessionUser(): the prepared query filters users by the claims' user id and entity id
  const [row] = await preparedFor(deps.db, shellQueries, buildShellQuery).execute(claimParams(claims));
  if (!isLive(row, claims)) throw refusalOf(row, claims);
  const { archivedAt: entityArchivedAt, ...entity } = row.entity ?? { archivedAt: null };
  const profile =
    row.entity && !entityArchivedAt
      ? {
          id: claims.userId,
          name: row.name,
          surname: row.surname,
          email: row.email,
          role: row.role,
          language: row.language,
          pictureFileId: row.pictureFileId,
          entity: entity as Profile["entity"],
        }
      : null;
  return {
    user: sessionUserOf(row, claims),
    shell: { profile, unread: Number(row.unread ?? 0) },
  };
}

async function issue(
  deps: AuthDeps,
  claims: Omit<AccessClaims, "expiresAt">,
  rotatedFromId: number | null,
  now: number,
): Promise<TokenPair> {
  const { token, expiresAt } = await signAccessToken(deps.jwtSecret, claims, deps.accessTtlSeconds, now);
  const refreshToken = newOpaqueToken();
  const [created] = await deps.db
    .insert(refreshTokens)
    .values({
      entityId: claims.entityId,
      userId: claims.userId,
      familyId: claims.sessionId,
      tokenHash: hashToken(refreshToken),
      createdAt: new Date(now),
      expiresAt: new Date(now + deps.refreshTtlDays * 86_400_000),
    })
    .returning({ id: refreshTokens.id });
  if (rotatedFromId !== null) {
    await deps.db
      .update(refreshTokens)
      .set({ rotatedAt: new Date(now), replacedById: created.id })
      .where(and(eq(refreshTokens.id, rotatedFromId), eq(refreshTokens.entityId, claims.entityId)));
  }
  return { jwtToken: token, refreshToken, expiresAt, ...claims };
}
