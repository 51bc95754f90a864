import { getTableColumns, getTableName, sql } from "drizzle-orm";
import type { PgTable } from "drizzle-orm/pg-core";
import type { ServiceContext } from "./context.server";
import type { AuditAction } from "./audit-actions";

/** The tables whose bulk verbs insert through `insertRecords`. */
type BulkTable = PgTable & { entityId: unknown; id: unknown };

/**
 * The set-based insert of the areas' bulk verbs (imports, decision 054): every row of `rows` into
 * `table` with the context's entity, and one audit row per record created, in ONE statement of the
 * caller's transaction (the rows travel as one jsonb parameter, so ten thousand of them are one round
 * trip and no parameter limit applies). Returns the new ids in insertion order.
 *
 * Each row gives its values under the table's own (Drizzle) field names; the SQL column names and
 * types are read from the table's declaration, so a new column needs no change here. The
 * statement-level triggers keep the list counters right (decision 017).
 */
export async function insertRecords<T extends BulkTable>(
  ctx: Pick<ServiceContext, "db" | "entityId" | "actor" | "requestId">,
  spec: {
    table: T;
    rows: ReadonlyArray<Omit<Partial<T["$inferInsert"]>, "entityId" | "id">>;
    audit: { action: AuditAction; recordType: string; details?: Record<string, unknown> };
  },
): Promise<number[]> {
  if (spec.rows.length === 0) return [];
  const declared = getTableColumns(spec.table);
  const fields = [...new Set(spec.rows.flatMap((row) => Object.keys(row)))];
  const columns = fields.map((field) => {
    const column = declared[field];
    if (!column || field === "entityId" || field === "id") throw new Error(`bad column ${field}`);
    return { field, name: column.name, type: column.getSQLType() };
  });
  const columnList = sql.join(columns.map((c) => sql.identifier(c.name)), sql`, `);
  const selected = sql.join(columns.map((c) => sql`r.${sql.identifier(c.name)}`), sql`, `);
  // Column types come from the schema (e.g. `text[]`, `smallint`), never from input.
  const definitions = sql.raw(["i int", ...columns.map((c) => `"${c.name}" ${c.type}`)].join(", "));
  const rows = spec.rows.map((row, i) => {
    const record: Record<string, unknown> = { i };
    for (const c of columns) record[c.name] = (row as Record<string, unknown>)[c.field] ?? null;
    return record;
  });
  const payload = JSON.stringify(rows);
  const table = sql.identifier(getTableName(spec.table));
  const result = await ctx.db.execute<{ id: number }>(sql`
    with ins as (
      insert into ${table} (entity_id, ${columnList})
      select ${ctx.entityId}, ${selected}
      from jsonb_to_recordset(${payload}::jsonb) as r(${definitions})
      order by r.i
      returning id
    ), audit as (
      insert into audit_log (entity_id, actor_id, actor_token_id, action, record_type, record_id, request_id, details)
      select ${ctx.entityId}, ${ctx.actor?.id ?? null}::int, ${ctx.actor?.kind === "token" ? ctx.actor.tokenId : null}::int, ${spec.audit.action}, ${spec.audit.recordType}, ins.id::text, ${ctx.requestId ?? null}::text,
        ${spec.audit.details ? JSON.stringify(spec.audit.details) : null}::jsonb
      from ins
    )
    select id from ins order by id`);
  return (result as unknown as { rows: Array<{ id: number }> }).rows.map((r) => Number(r.id));
}
