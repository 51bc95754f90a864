import { randomBytes } from "node:crypto";
import { and, eq, isNull } from "drizzle-orm";
import { requirePerson } from "~/core/actor";
import type { ServiceContext } from "~/core/context.server";
import { withTx } from "~/core/unit-of-work.server";
import type { Db } from "~/db/client.server";
import { UserStatus } from "~/db/enums";
import { entities, users } from "~/db/schema";

/**
 * The secret of a person's calendar feed address (`users.calendar_token`, decision 051): 32 random bytes,
 * made when the person first asks for it and replaced when they reset it. The users area owns the
 * column; the maintenance area's feed finds its owner here.
 */
const TOKEN = /^[A-Za-z0-9_-]{43}$/;

const newToken = () => randomBytes(32).toString("base64url");

/** The signed-in person's feed secret, or null when they have none yet. */
export async function getCalendarToken(ctx: ServiceContext): Promise<string | null> {
  const person = requirePerson(ctx.actor);
  const [row] = await ctx.db
    .select({ token: users.calendarToken })
    .from(users)
    .where(and(eq(users.id, person.id), eq(users.entityId, ctx.entityId)));
  return row?.token ?? null;
}

/**
 * Makes (`reset: false`: only when there is none) or replaces (`reset: true`) the person's feed secret;
 * returns it. Only the person themselves: it is their own account.
 */
export async function issueCalendarToken(ctx: ServiceContext, options: { reset: boolean }): Promise<string> {
  const person = requirePerson(ctx.actor);
  return withTx(ctx, async (tx) => {
    const [row] = await tx.db
      .select({ token: users.calendarToken })
      .from(users)
      .where(and(eq(users.id, person.id), eq(users.entityId, tx.entityId)))
      .for("update");
    if (!row) throw new Error("the signed-in person is gone");
    if (row.token && !options.reset) return row.token;
    const token = newToken();
    await tx.db
      .update(users)
      .set({ calendarToken: token, updatedAt: new Date() })
      .where(and(eq(users.id, person.id), eq(users.entityId, tx.entityId)));
    return token;
  });
}

/** Who holds `token` (an active, not archived account) with their entity's time zone; null otherwise. */
export async function calendarTokenOwner(db: Db, token: string) {
  if (!TOKEN.test(token)) return null;
  // tenant-scope: across entities, a calendar address is found by its token; the row gives the entity
  const [owner] = await db
    .select({ id: users.id, role: users.role, entityId: users.entityId, language: users.language, timeZone: entities.timeZone })
    .from(users)
    .innerJoin(entities, eq(entities.id, users.entityId))
    .where(and(eq(users.calendarToken, token), isNull(users.archivedAt), eq(users.status, UserStatus.ACTIVE)));
  return owner ?? null;
}
