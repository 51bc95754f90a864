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
  try {
    const { payload } = await jwtVerify(token, key(secret), {
      issuer: ISSUER,
      algorithms: ["HS256"],
      currentDate: options.ignoreExpiry ? new Date(0) : new Date(options.now ?? Date.now()),
    });
    const userId = Number(payload.sub);
    if (!Number.isInteger(userId) || typeof payload.eid !== "number" || typeof payload.sid !== "string") return null;
    return {
      userId,
      entityId: payload.eid,
      role: payload.role as Role,
      sessionId: payload.sid,
      expiresAt: (payload.exp ?? 0) * 1000,
    };
  } catch {
    return null;
  }
}

/** A random opaque token (refresh, password reset, email verification): 256 bits, URL-safe. */
export function newOpaqueToken(): string {
  return randomBytes(32).toString("base64url");
}

/** Only hashes of opaque tokens are stored. */
export function hashToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}
