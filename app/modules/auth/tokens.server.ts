import { createHash, randomBytes } from "node:crypto";
import { jwtVerify, SignJWT } from "jose";
import type { Role } from "~/db/enums";

/** What a short-lived access token (JWT, HS256) carries. */
export interface AccessClaims {
  userId: number;
  entityId: number;
  role: Role;
  /** The refresh-token family this token was issued in: revoking the family ends the token too. */
  sessionId: string;
  /** Expiry, in milliseconds since the epoch. */
  expiresAt: number;
}

const ISSUER = "caretaker";
const key = (secret: string) => new TextEncoder().encode(secret);

export async function signAccessToken(
  secret: string,
  claims: Omit<AccessClaims, "expiresAt">,
  ttlSeconds: number,
  now = Date.now(),
): Promise<{ token: string; expiresAt: number }> {
  const issuedAt = Math.floor(now / 1000);
  const expiresAt = (issuedAt + ttlSeconds) * 1000;
  const token = await new SignJWT({ eid: claims.entityId, role: claims.role, sid: claims.sessionId })
    .setProtectedHeader({ alg: "HS256", typ: "JWT" })
    .setSubject(String(claims.userId))
    .setIssuer(ISSUER)
    .setIssuedAt(issuedAt)
    .setExpirationTime(expiresAt / 1000)
    .sign(key(secret));
  return { token, expiresAt };
}

/**
 * Verifies signature, issuer and (unless `ignoreExpiry`) expiry; null when the token is not valid.
 * `ignoreExpiry` serves the refresh call, which presents the expired access token with the refresh token.
 */
export async function verifyAccessToken(
  secret: string,
  token: string,
  options: { ignoreExpiry?: boolean; now?: number } = {},
): Promise<AccessClaims | null> {
  const known = verifiedClaims(secret, token);
  if (known) return options.ignoreExpiry || isUnexpired(known, options.now ?? Date.now()) ? { ...known } : null;
  try {
    const { payload } = await jwtVerify(token, key(secret), {
      issuer: ISSUER,
      algorithms: ["HS256"],
      currentDate: options.ignoreExpiry ? new Date(0) : new Date(options.now ?? Date.now()),
    });
    const userId = Number(payload.sub);
    if (!Number.isInteger(userId) || typeof payload.eid !== "number" || typeof payload.sid !== "string") return null;
    const claims: AccessClaims = {
      userId,
      entityId: payload.eid,
      role: payload.role as Role,
      sessionId: payload.sid,
      expiresAt: (payload.exp ?? 0) * 1000,
    };
    rememberVerified(secret, token, claims);
    return { ...claims };
  } catch {
    return null;
  }
}

/**
 * Access tokens whose signature and issuer were verified, with their claims (decision 019). Every page
 * and call presents the same token for its quarter hour, and jose checks an HS256 signature through
 * WebCrypto: a job on the thread pool and a promise, about 0.35 ms of CPU a request. A token's text
 * fixes its claims, so a token seen before is looked up instead; its expiry is still checked on every
 * request, and revocation and the user's state are the database check that follows. Bounded: the
 * oldest entry leaves when the map is full; a change of secret empties it.
 */
const VERIFIED_MAX = 5000;
let verifiedSecret: string | null = null;
const verified = new Map<string, AccessClaims>();

function verifiedClaims(secret: string, token: string): AccessClaims | undefined {
  return secret === verifiedSecret ? verified.get(token) : undefined;
}

function rememberVerified(secret: string, token: string, claims: AccessClaims): void {
  if (secret !== verifiedSecret) {
    verified.clear();
    verifiedSecret = secret;
  }
  if (verified.size >= VERIFIED_MAX) verified.delete(verified.keys().next().value!);
  verified.set(token, claims);
}

/** jose's rule: a token is expired once the current second reaches its `exp`. */
function isUnexpired(claims: AccessClaims, now: number): boolean {
  return claims.expiresAt / 1000 > Math.floor(now / 1000);
}

/** A random opaque token (refresh, password reset, email verification): 256 bits, URL-safe. */
export function newOpaqueToken(): string {
  return randomBytes(32).toString("base64url");
}

/** Only hashes of opaque tokens are stored. */
export function hashToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}
