import { and, desc, eq, inArray, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { assertCan } from "~/core/actor";
import type { ServiceContext } from "~/core/context.server";
import type { Role } from "~/db/enums";
import { apiTokens, facilities, users } from "~/db/schema";
import { NotFoundError } from "~/lib/errors";
import type { ApiTokenState } from "./schema";

/** One token as the list shows it (never its secret nor its hash). */
export interface ApiTokenView {
  id: number;
  name: string;
  role: Role;
  /** The secret's first characters ("ct_Ab12…"). */
  prefix: string;
  facilities: { id: number; name: string }[];
  createdAt: string;
  createdBy: string;
  expiresAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
  state: ApiTokenState;
}

export const apiTokenNotFound = () => new NotFoundError("apiTokens:errors.notFound", "API_TOKEN_NOT_FOUND");

/** The most tokens an entity lists (they are never deleted; a long-lived entity keeps its revoked ones). */
const LIST_LIMIT = 500;

/** The entity's tokens, newest first: administrators and facility managers (who only see them). */
export async function listApiTokens(ctx: ServiceContext, options: { ids?: number[] } = {}): Promise<ApiTokenView[]> {
  assertCan(ctx.actor, "read", "apiToken", "apiTokens:errors.forbidden");
  const maker = alias(users, "maker");
  const rows = await ctx.db
    .select({
      id: apiTokens.id,
      name: apiTokens.name,
      role: apiTokens.role,
      prefix: apiTokens.tokenPrefix,
      facilityIds: apiTokens.facilityIds,
      createdAt: apiTokens.createdAt,
      expiresAt: apiTokens.expiresAt,
      lastUsedAt: apiTokens.lastUsedAt,
      revokedAt: apiTokens.revokedAt,
      makerName: sql<string>`${maker.name} || ' ' || ${maker.surname}`,
    })
    .from(apiTokens)
    .innerJoin(maker, and(eq(maker.id, apiTokens.createdById), eq(maker.entityId, apiTokens.entityId)))
    .where(and(eq(apiTokens.entityId, ctx.entityId), options.ids ? inArray(apiTokens.id, options.ids) : undefined))
    .orderBy(desc(apiTokens.createdAt), desc(apiTokens.id))
    .limit(LIST_LIMIT);
  const facilityIds = [...new Set(rows.flatMap((r) => r.facilityIds))];
  const names = new Map(
    facilityIds.length
      ? (
          await ctx.db
            .select({ id: facilities.id, name: facilities.name })
            .from(facilities)
            .where(and(eq(facilities.entityId, ctx.entityId), inArray(facilities.id, facilityIds)))
        ).map((f) => [f.id, f.name])
      : [],
  );
  const now = Date.now();
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    role: r.role,
    prefix: r.prefix,
    facilities: r.facilityIds.flatMap((id) => (names.has(id) ? [{ id, name: names.get(id)! }] : [])),
    createdAt: r.createdAt.toISOString(),
    createdBy: r.makerName,
    expiresAt: r.expiresAt.toISOString(),
    lastUsedAt: r.lastUsedAt?.toISOString() ?? null,
    revokedAt: r.revokedAt?.toISOString() ?? null,
    state: r.revokedAt ? "revoked" : r.expiresAt.getTime() <= now ? "expired" : "active",
  }));
}

/** One token of the entity (NotFound otherwise). */
export async function getApiToken(ctx: ServiceContext, id: number): Promise<ApiTokenView> {
  const [token] = await listApiTokens(ctx, { ids: [id] });
  if (!token) throw apiTokenNotFound();
  return token;
}
