import { newReportCode } from "~/db/report-identifier";
import { reportIdentifiers } from "~/db/schema";
import type { ServiceContext } from "~/core/context.server";

/**
 * Issues report identifiers (the codes behind QR stickers) for rooms and equipment items: random,
 * unguessable, URL-safe, unique across the whole system (a unique index; a collision, about 1 in
 * 2^65 per pair, is retried with a new code).
 */
export type IdentifierTarget = { roomId: number; equipmentItemId?: never } | { equipmentItemId: number; roomId?: never };

export async function issueReportIdentifiers(ctx: ServiceContext, targets: IdentifierTarget[]): Promise<void> {
  let pending = targets;
  for (let attempt = 0; pending.length > 0; attempt++) {
    if (attempt === 5) throw new Error("could not issue unique report identifiers");
    const codes = new Set<string>();
    while (codes.size < pending.length) codes.add(newReportCode());
    const fresh = [...codes];
    const rows = pending.map((t, i) => ({
      entityId: ctx.entityId,
      code: fresh[i],
      roomId: t.roomId ?? null,
      equipmentItemId: t.equipmentItemId ?? null,
    }));
    const inserted = await ctx.db
      .insert(reportIdentifiers)
      .values(rows)
      .onConflictDoNothing({ target: reportIdentifiers.code })
      .returning({ code: reportIdentifiers.code });
    const done = new Set(inserted.map((r) => r.code));
    pending = pending.filter((_, i) => !done.has(rows[i].code));
  }
}
