import { randomBytes } from "node:crypto";
import { and, eq, inArray, isNull, sql } from "drizzle-orm";
import { personWhoCan, type TokenActor } from "~/core/actor";
import type { ServiceContext } from "~/core/context.server";
import { type Input, resolveInput } from "~/core/input";
import { withTx } from "~/core/unit-of-work.server";
import { apiTokens, facilities } from "~/db/schema";
import { ForbiddenError, ValidationError } from "~/lib/errors";
import { parseInput } from "~/lib/validation";
import { hashToken } from "~/modules/auth/tokens.server";
import { type ApiTokenView, apiTokenNotFound, getApiToken } from "./queries.server";
import { type CreateApiTokenInput, CreateApiTokenSchema, roleRank, TOKEN_PREFIX } from "./schema";
import { AUDIT } from "~/core/audit-actions";

/**
 * The verbs of API tokens (issue 50, decision 056): an administrator makes a token (its secret shown
 * once, only its SHA-256 kept) and revokes it. The form of /administration/api-tokens calls them.
 */

const DAY_MS = 86_400_000;
/** How many characters of the secret the list shows ("ct_" and five more). */
const SHOWN_PREFIX = TOKEN_PREFIX.length + 5;

/** A new secret: "ct_" and 32 random bytes (256 bits) in base64url. */
export function newApiTokenSecret(): string {
  return `${TOKEN_PREFIX}${randomBytes(32).toString("base64url")}`;
}

/**
 * Makes a token. Its role is never above its maker's (403 ROLE_ABOVE); its facilities must be active
 * facilities of the entity. Answers the token and its secret, which is never shown again.
 */
export async function createApiToken(ctx: ServiceContext, rawInput: Input<CreateApiTokenInput>): Promise<{ token: ApiTokenView; secret: string }> {
  const maker = personWhoCan(ctx.actor, "manage", "apiToken", "apiTokens:errors.forbidden");
  const input = parseInput(CreateApiTokenSchema, await resolveInput(rawInput));
  if (roleRank(input.role) > roleRank(maker.role)) throw new ForbiddenError("apiTokens:errors.roleAbove", "ROLE_ABOVE");
  const secret = newApiTokenSecret();
  const id = await withTx(ctx, async (txCtx, effects) => {
    if (input.facilityIds.length) {
      const found = await txCtx.db
        .select({ id: facilities.id })
        .from(facilities)
        .where(and(eq(facilities.entityId, ctx.entityId), isNull(facilities.archivedAt), inArray(facilities.id, input.facilityIds)));
      if (found.length !== input.facilityIds.length) {
        throw new ValidationError({ facilityIds: ["apiTokens:validation.facilityNotFound"] }, "apiTokens:validation.facilityNotFound");
      }
    }
    const now = Date.now();
    const [row] = await txCtx.db
      .insert(apiTokens)
      .values({
        entityId: ctx.entityId,
        name: input.name,
        role: input.role,
        facilityIds: [...input.facilityIds].sort((a, b) => a - b),
        tokenHash: hashToken(secret),
        tokenPrefix: secret.slice(0, SHOWN_PREFIX),
        createdById: maker.id,
        createdAt: new Date(now),
        expiresAt: new Date(now + input.expiresInDays * DAY_MS),
      })
      .returning({ id: apiTokens.id });
    await effects.audit({ action: AUDIT.apiToken.create, recordType: "apiToken", recordId: row.id, details: { name: input.name, role: input.role } });
    return row.id;
  });
  return { token: await getApiToken(ctx, id), secret };
}

/**
 * Revokes a token: the very next call made with it is refused (every call reads the token's row).
 * Revoking a revoked token changes nothing.
 */
export async function revokeApiToken(ctx: ServiceContext, id: number): Promise<ApiTokenView> {
  const actor = personWhoCan(ctx.actor, "manage", "apiToken", "apiTokens:errors.forbidden");
  await withTx(ctx, async (txCtx, effects) => {
    const [row] = await txCtx.db
      .select({ id: apiTokens.id, revokedAt: apiTokens.revokedAt })
      .from(apiTokens)
      .where(and(eq(apiTokens.id, id), eq(apiTokens.entityId, ctx.entityId)))
      .for("update");
    if (!row) throw apiTokenNotFound();
    if (row.revokedAt) return;
    await txCtx.db
      .update(apiTokens)
      .set({ revokedAt: new Date(), revokedById: actor.id })
      .where(and(eq(apiTokens.id, id), eq(apiTokens.entityId, ctx.entityId)));
    await effects.audit({ action: AUDIT.apiToken.revoke, recordType: "apiToken", recordId: id });
  });
  return getApiToken(ctx, id);
}

/**
 * Revokes every live token `makerId` made (a token belongs to its maker), when the users area disables
 * that person: the tokens stay revoked if the person is enabled again. Runs in the disabling verb's
 * transaction; answers how many tokens it revoked.
 */
export async function revokeTokensOfMaker(ctx: ServiceContext, makerId: number, now: Date): Promise<number> {
  const revoked = await ctx.db
    .update(apiTokens)
    .set({ revokedAt: now, revokedById: ctx.actor?.id ?? null })
    .where(and(eq(apiTokens.entityId, ctx.entityId), eq(apiTokens.createdById, makerId), isNull(apiTokens.revokedAt)))
    .returning({ id: apiTokens.id });
  return revoked.length;
}

/**
 * A token limited to some facilities that creates a facility reaches it from then on, as a person who
 * creates one is linked to it (decision 056): without it the token could not read back what it made.
 * Runs in the creating verb's transaction (one facility, or an import's many); answers the actor with
 * its widened reach.
 */
export async function reachCreatedFacility(ctx: ServiceContext, actor: TokenActor, created: number | readonly number[]): Promise<TokenActor> {
  const ids = typeof created === "number" ? [created] : created;
  if (!actor.facilityIds || ids.length === 0) return actor;
  // One array parameter as a PostgreSQL array literal (the embedded driver binds text).
  const list = `{${ids.map((id) => Math.trunc(id)).join(",")}}`;
  await ctx.db
    .update(apiTokens)
    .set({ facilityIds: sql`array_cat(${apiTokens.facilityIds}, ${list}::int[])` })
    .where(and(eq(apiTokens.id, actor.tokenId), eq(apiTokens.entityId, ctx.entityId)));
  return { ...actor, facilityIds: [...actor.facilityIds, ...ids] };
}
