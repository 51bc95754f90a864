import { and, eq } from "drizzle-orm";
import { INTEGRATION_SCOPES, type PersonActor, personActor, type TokenActor, tokenActor } from "~/core/actor";
import type { Db } from "~/db/client.server";
import type { Role } from "~/db/enums";
import { apiTokens } from "~/db/schema";
import { now } from "~/lib/clock.server";
import { roleRank } from "./schema";

/**
 * Who a background job (an export, an import, a print) acts for: the person who asked, or, when they
 * asked through an API token, that token as it is now (issue 60 item 9). A job started through a token
 * never reaches further than the token: its role is capped at its maker's current role and its
 * facilities are the token's own. Null when the token has been revoked or has expired since: the job
 * then does nothing on its behalf.
 */
export async function requesterActor(
  db: Db,
  entityId: number,
  person: { id: number; role: number },
  tokenId: number | null | undefined,
): Promise<PersonActor | TokenActor | null> {
  if (tokenId === null || tokenId === undefined) return personActor(person);
  const [token] = await db
    .select({ id: apiTokens.id, name: apiTokens.name, role: apiTokens.role, facilityIds: apiTokens.facilityIds, createdById: apiTokens.createdById, expiresAt: apiTokens.expiresAt, revokedAt: apiTokens.revokedAt })
    .from(apiTokens)
    .where(and(eq(apiTokens.id, tokenId), eq(apiTokens.entityId, entityId)))
    .limit(1);
  if (!token || token.createdById !== person.id || token.revokedAt || token.expiresAt.getTime() <= now()) return null;
  const role = roleRank(person.role) < roleRank(token.role) ? person.role : token.role;
  return tokenActor({ id: person.id, role: role as Role }, token.id, INTEGRATION_SCOPES, {
    name: token.name,
    facilityIds: token.facilityIds.length ? token.facilityIds : null,
  });
}
