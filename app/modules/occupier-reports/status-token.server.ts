import { createHash, randomBytes } from "node:crypto";
import { and, eq } from "drizzle-orm";
import type { ServiceContext } from "~/core/context.server";
import { incidentReporters } from "~/db/schema";

/** The stored form of a status page token: its SHA-256 (the token itself is only ever in a mail). */
export const hashStatusToken = (token: string) => createHash("sha256").update(token, "utf8").digest("hex");

/** A new unguessable status page token for a reporter (replacing the previous one). */
export async function createStatusToken(ctx: Pick<ServiceContext, "db" | "entityId">, reporterId: number): Promise<string> {
  const token = randomBytes(24).toString("base64url");
  await ctx.db
    .update(incidentReporters)
    .set({ statusTokenHash: hashStatusToken(token) })
    .where(and(eq(incidentReporters.id, reporterId), eq(incidentReporters.entityId, ctx.entityId)));
  return token;
}
