import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runMigrations, type Database } from "../../app/db/client.server";
import { createTestDatabase } from "../test-db";

let database: Database;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database?.close();
});

const rows = async <T>(query: ReturnType<typeof sql>) => (await database.db.execute(query)) as unknown as { rows: T[] } | T[];
const list = <T>(result: { rows: T[] } | T[]) => (Array.isArray(result) ? result : result.rows);

describe(`migrations (${process.env.DATABASE_URL ? "PostgreSQL" : "PGlite"})`, () => {
  it("create every table of the data model and apply again without change", async () => {
    const tables = list(await rows<{ table_name: string }>(sql`select table_name from information_schema.tables where table_schema = 'public' order by 1`)).map((r) => r.table_name);
    for (const expected of [
      "entities", "users", "facilities", "buildings", "rooms", "room_types", "room_links", "report_identifiers",
      "equipment_categories", "equipment_types", "equipment_items", "incident_types", "incidents", "incident_events",
      "incident_comments", "maintenance_types", "planned_maintenances", "tasks", "notifications", "notification_details",
      "stored_files", "data_jobs",
    ]) {
      expect(tables).toContain(expected);
    }
    await runMigrations(database); // idempotent
    const again = list(await rows<{ n: number }>(sql`select count(*)::int as n from information_schema.tables where table_schema = 'public'`));
    expect(again[0].n).toBe(tables.length);
  });

  it("give every tenant-owned table a non-null entity_id that leads an index", async () => {
    const columns = list(
      await rows<{ table_name: string; is_nullable: string }>(
        sql`select table_name, is_nullable from information_schema.columns where table_schema = 'public' and column_name = 'entity_id'`,
      ),
    );
    expect(columns.length).toBeGreaterThan(30);
    for (const column of columns) expect(`${column.table_name}: ${column.is_nullable}`).toBe(`${column.table_name}: NO`);

    const indexes = list(
      await rows<{ tablename: string; indexdef: string }>(sql`select tablename, indexdef from pg_indexes where schemaname = 'public'`),
    );
    for (const { table_name } of columns) {
      const leading = indexes.some(
        (i) => i.tablename === table_name && /\(\s*entity_id\b/.test(i.indexdef),
      );
      expect(leading, `${table_name} has an index starting with entity_id`).toBe(true);
    }
  });
});
