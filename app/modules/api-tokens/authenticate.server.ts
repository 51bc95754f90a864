import { and, eq, isNull, lt, or, sql } from "drizzle-orm";
import { INTEGRATION_SCOPES, type TokenActor, tokenActor } from "~/core/actor";
import type { Db } from "~/db/client.server";
import { type Role, UserStatus } from "~/db/enums";
import { apiTokens, entities, users } from "~/db/schema";
import { DEFAULT_TIME_ZONE } from "~/lib/dates";
import { hashToken } from "~/modules/auth/tokens.server";
import { roleRank, TOKEN_PATTERN } from "./schema";

/** What a call made with a live API token acts as. */
export interface ApiTokenPrincipal {
  actor: TokenActor;
  entityId: number;
  timeZone: string;
  expiresAt: number;
}

/** How often a token's last use is written: at most once a minute per token. */
const LAST_USE_EVERY_MS = 60_000;

/** Whether a bearer credential is shaped like an API token (rather than a session's access token). */
export function looksLikeApiToken(bearer: string): boolean {
  return bearer.startsWith("ct_");
}

/**
 * The token a bearer secret names, when it is live: not revoked, not expired, and its maker still an
 * active member of its entity. Read on every call, so a revoked token is refused on the very next one
 * in every process (nothing is remembered). Its role is its own, capped at its maker's current role
 * (a maker demoted since cannot act above their new role through a token). Null otherwise.
 */
export async function authenticateApiToken(db: Db, secret: string, now = Date.now()): Promise<ApiTokenPrincipal | null> {
  if (!TOKEN_PATTERN.test(secret)) return null;
  // tenant-scope: across entities, a bearer token is found by its hash before its entity is known; the row gives the entity
  const [row] = await db
    .select({
      id: apiTokens.id,
      entityId: apiTokens.entityId,
      name: apiTokens.name,
      role: apiTokens.role,
      facilityIds: apiTokens.facilityIds,
      createdById: apiTokens.createdById,
      expiresAt: apiTokens.expiresAt,
      revokedAt: apiTokens.revokedAt,
      lastUsedAt: apiTokens.lastUsedAt,
      makerRole: users.role,
      makerStatus: users.status,
      makerArchivedAt: users.archivedAt,
      timeZone: entities.timeZone,
    })
    .from(apiTokens)
    .innerJoin(users, and(eq(users.id, apiTokens.createdById), eq(users.entityId, apiTokens.entityId)))
    .innerJoin(entities, eq(entities.id, apiTokens.entityId))
    .where(eq(apiTokens.tokenHash, hashToken(secret)))
    .limit(1);
  if (!row || row.revokedAt || row.expiresAt.getTime() <= now) return null;
  if (row.makerArchivedAt || row.makerStatus !== UserStatus.ACTIVE) return null;
  const role = roleRank(row.makerRole) < roleRank(row.role) ? row.makerRole : row.role;
  if (!row.lastUsedAt || now - row.lastUsedAt.getTime() >= LAST_USE_EVERY_MS) {
    // One write a minute at most; two processes racing write once (the condition is re-checked).
    await db
      .update(apiTokens)
      .set({ lastUsedAt: new Date(now) })
      .where(
        and(
          eq(apiTokens.id, row.id),
          eq(apiTokens.entityId, row.entityId),
          or(isNull(apiTokens.lastUsedAt), lt(apiTokens.lastUsedAt, sql`${new Date(now - LAST_USE_EVERY_MS)}::timestamptz`)),
        ),
      );
  }
  const actor = tokenActor({ id: row.createdById, role: role as Role }, row.id, INTEGRATION_SCOPES, {
    name: row.name,
    facilityIds: row.facilityIds.length ? row.facilityIds : null,
  });
  return { actor, entityId: row.entityId, timeZone: row.timeZone ?? DEFAULT_TIME_ZONE, expiresAt: row.expiresAt.getTime() };
}

