import { sql } from "drizzle-orm";
import { newReportCode } from "~/db/report-identifier";
import { reportIdentifiers } from "~/db/schema";
import type { ServiceContext } from "~/core/context.server";

/**
 * Issues report identifiers (the codes behind QR stickers) for rooms and equipment items: random,
 * unguessable, URL-safe, unique across the whole system (a unique index; a collision, about 1 in
 * 2^65 per pair, is retried with a new code).
 */
export type IdentifierTarget = { roomId: number; equipmentItemId?: never } | { equipmentItemId: number; roomId?: never };

/** Above this many, the rows travel as one jsonb parameter (an import's thousands of rooms): one short statement to plan. */
const MANY = 50;

type IdentifierRow = { entityId: number; code: string; roomId: number | null; equipmentItemId: number | null };

async function insertMany(ctx: ServiceContext, rows: IdentifierRow[]): Promise<Array<{ code: string }>> {
  const payload = JSON.stringify(rows.map((r) => ({ code: r.code, room_id: r.roomId, equipment_item_id: r.equipmentItemId })));
  const result = await ctx.db.execute<{ code: string }>(sql`
    insert into report_identifiers (entity_id, code, room_id, equipment_item_id)
    select ${ctx.entityId}, r.code, r.room_id, r.equipment_item_id
    from jsonb_to_recordset(${payload}::jsonb) as r(code text, room_id int, equipment_item_id int)
    on conflict (code) do nothing
    returning code`);
  return (result as unknown as { rows: Array<{ code: string }> }).rows;
}

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
    const inserted = rows.length > MANY ? await insertMany(ctx, rows) : await ctx.db
      .insert(reportIdentifiers)
      .values(rows)
      .onConflictDoNothing({ target: reportIdentifiers.code })
      .returning({ code: reportIdentifiers.code });
    const done = new Set(inserted.map((r) => r.code));
    pending = pending.filter((_, i) => !done.has(rows[i].code));
  }
}
