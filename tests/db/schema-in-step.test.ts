import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { is, sql } from "drizzle-orm";
import { getTableConfig, PgTable } from "drizzle-orm/pg-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MIGRATIONS_DIR, type Database } from "../../app/db/client.server";
import * as schema from "../../app/db/schema";
import { createTestDatabase } from "../test-db";

/**
 * The Drizzle schema (app/db/schema) and the migrations (app/db/migrations) describe the same database:
 * - drizzle-kit's last snapshot is the schema, so `npm run db:generate` on an unchanged schema writes nothing;
 * - the database the migrations build has exactly the schema's tables, columns (type, nullability) and indexes.
 * A column added to a schema file without its generated migration fails both.
 */
let database: Database;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database?.close();
});

const rowsOf = <T>(result: unknown): T[] =>
  Array.isArray(result) ? (result as T[]) : (result as { rows: T[] }).rows;

/** Drizzle's SQL type spelled as PostgreSQL's format_type() spells it. */
function formatType(drizzleType: string): string {
  return drizzleType
    .replace(/^timestamp(\(\d+\))?$/, "timestamp$1 without time zone")
    .replace(/^time(\(\d+\))?$/, "time$1 without time zone")
    .replace(/^varchar/, "character varying")
    .replace(/^serial$/, "integer")
    .replace(/^bigserial$/, "bigint")
    // Drizzle writes "numeric(12, 2)", PostgreSQL "numeric(12,2)".
    .replace(/^numeric\((\d+), (\d+)\)$/, "numeric($1,$2)");
}

/**
 * The indexes a migration creates with an INCLUDE clause (covering indexes of the lists), which Drizzle's
 * index builder cannot declare: they stay custom SQL migrations, named here as their migrations name them.
 */
const handWrittenIndexes = new Set(
  fs
    .readdirSync(MIGRATIONS_DIR)
    .filter((file) => file.endsWith(".sql"))
    .flatMap((file) =>
      [...fs.readFileSync(path.join(MIGRATIONS_DIR, file), "utf8").matchAll(/CREATE INDEX IF NOT EXISTS "(\w+)"[^;]*\bINCLUDE\b/g)].map(
        (m) => m[1],
      ),
    ),
);

const tables = Object.values(schema as Record<string, unknown>).filter((value): value is PgTable => is(value, PgTable)).map((table) => getTableConfig(table));

describe("schema and migrations", () => {
  it("leave drizzle-kit nothing to generate (its snapshot is the schema)", async () => {
    const out = fs.mkdtempSync(path.join(os.tmpdir(), "caretaker-generate-"));
    try {
      fs.cpSync(MIGRATIONS_DIR, out, { recursive: true });
      // drizzle-kit reads its output folder relative to the working directory, even when given an absolute path.
      const { stdout } = await promisify(execFile)(
        "npx",
        ["drizzle-kit", "generate", "--dialect", "postgresql", "--schema", "./app/db/schema/index.ts", "--out", path.relative(process.cwd(), out)],
        { env: process.env },
      );
      expect(stdout).toContain("No schema changes, nothing to migrate");
      expect(fs.readdirSync(out).sort()).toEqual(fs.readdirSync(MIGRATIONS_DIR).sort());
    } finally {
      fs.rmSync(out, { recursive: true, force: true });
    }
  });

  it("build the schema's tables, columns and indexes, and nothing else", async () => {
    const columns = rowsOf<{ table_name: string; column_name: string; type: string; not_null: boolean }>(
      await database.db.execute(sql`
        select c.relname as table_name, a.attname as column_name, format_type(a.atttypid, a.atttypmod) as type,
               a.attnotnull as not_null
        from pg_attribute a join pg_class c on c.oid = a.attrelid join pg_namespace n on n.oid = c.relnamespace
        where n.nspname = 'public' and c.relkind = 'r' and a.attnum > 0 and not a.attisdropped`),
    );
    const indexes = rowsOf<{ tablename: string; indexname: string }>(
      await database.db.execute(sql`select tablename, indexname from pg_indexes where schemaname = 'public'`),
    );
    const constraints = rowsOf<{ table_name: string; name: string }>(
      await database.db.execute(sql`
        select c.relname as table_name, k.conname as name
        from pg_constraint k join pg_class c on c.oid = k.conrelid join pg_namespace n on n.oid = c.relnamespace
        where n.nspname = 'public' and k.contype in ('c', 'f', 'u', 'p')`),
    );
    const inDatabase = {
      columns: columns.map((c) => `${c.table_name}.${c.column_name} ${c.type}${c.not_null ? " not null" : ""}`).sort(),
      // Indexes with INCLUDE columns, which Drizzle cannot declare, are the migrations' own (see handWrittenIndexes).
      indexes: indexes
        .filter((i) => !handWrittenIndexes.has(i.indexname))
        .map((i) => `${i.tablename}.${i.indexname}`)
        .sort(),
      constraints: constraints.map((c) => `${c.table_name}.${c.name}`).sort(),
    };
    const inSchema = {
      columns: tables
        .flatMap((t) =>
          t.columns.map((c) => `${t.name}.${c.name} ${formatType(c.getSQLType())}${c.notNull ? " not null" : ""}`),
        )
        .sort(),
      indexes: tables
        .flatMap((t) => [
          ...t.indexes.map((i) => i.config.name),
          ...(t.columns.some((c) => c.primary) ? [`${t.name}_pkey`] : []),
          ...t.primaryKeys.map((k) => k.getName()),
          ...t.uniqueConstraints.map((u) => u.getName()),
          ...t.columns.filter((c) => c.isUnique).map((c) => c.uniqueName ?? `${t.name}_${c.name}_unique`),
        ].map((name) => `${t.name}.${name}`))
        .sort(),
      constraints: tables
        .flatMap((t) => [
          ...t.checks.map((c) => c.name),
          ...t.foreignKeys.map((f) => f.getName()),
          ...(t.columns.some((c) => c.primary) ? [`${t.name}_pkey`] : []),
          ...t.primaryKeys.map((k) => k.getName()),
          ...t.uniqueConstraints.map((u) => u.getName()),
          ...t.columns.filter((c) => c.isUnique).map((c) => c.uniqueName ?? `${t.name}_${c.name}_unique`),
        ].map((name) => `${t.name}.${name}`))
        .sort(),
    };
    expect(inDatabase.columns).toEqual(inSchema.columns);
    expect(inDatabase.indexes).toEqual(inSchema.indexes);
    expect(inDatabase.constraints).toEqual(inSchema.constraints);
  });
});
