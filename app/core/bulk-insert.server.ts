import { sql } from "drizzle-orm";
import type { ServiceContext } from "./context.server";

/**
 * The set-based insert of the areas' bulk verbs (imports, decision 054): every row of `rows` into
 * `table` with the context's entity, and one audit row per record created, in ONE statement of the
 * caller's transaction (the rows travel as one jsonb parameter, so ten thousand of them are one round
 * trip and no parameter limit applies). Returns the new ids in insertion order.
 *
 * `columns` maps each column to its SQL type; each row gives its values under the column's name
 * (snake_case). The statement-level triggers keep the list counters right (decision 047).
 */
export async function insertRecords(
  ctx: Pick<ServiceContext, "db" | "entityId" | "actor" | "requestId">,
  spec: {
    table: "facilities" | "buildings" | "rooms" | "room_types" | "equipment_categories" | "equipment_types" | "maintenance_types" | "incident_types";
    columns: Record<string, string>;
    rows: ReadonlyArray<Record<string, unknown>>;
    audit: { action: string; recordType: string; details?: Record<string, unknown> };
  },
): Promise<number[]> {
  if (spec.rows.length === 0) return [];
  const names = Object.keys(spec.columns);
  for (const name of names) if (!/^[a-z_]+$/.test(name) || !/^[a-z[\] ]+$/.test(spec.columns[name])) throw new Error(`bad column ${name}`);
  const columnList = sql.raw(names.join(", "));
  const selected = sql.raw(names.map((n) => `r.${n}`).join(", "));
  const definitions = sql.raw(["i int", ...names.map((n) => `${n} ${spec.columns[n]}`)].join(", "));
  const payload = JSON.stringify(spec.rows.map((row, i) => ({ i, ...row })));
  const table = sql.raw(spec.table);
  const result = await ctx.db.execute<{ id: number }>(sql`
    with ins as (
      insert into ${table} (entity_id, ${columnList})
      select ${ctx.entityId}, ${selected}
      from jsonb_to_recordset(${payload}::jsonb) as r(${definitions})
      order by r.i
      returning id
    ), audit as (
      insert into audit_log (entity_id, actor_id, action, record_type, record_id, request_id, details)
      select ${ctx.entityId}, ${ctx.actor?.id ?? null}::int, ${spec.audit.action}, ${spec.audit.recordType}, ins.id::text, ${ctx.requestId ?? null}::text,
        ${spec.audit.details ? JSON.stringify(spec.audit.details) : null}::jsonb
      from ins
    )
    select id from ins order by id`);
  return (result as unknown as { rows: Array<{ id: number }> }).rows.map((r) => Number(r.id));
}
