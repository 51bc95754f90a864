import fs from "node:fs";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import pg from "pg";
import { MIGRATIONS_DIR, openDatabase, runMigrations, type Database } from "../../app/db/client.server";
import { withDatabase } from "../db-global-setup";
import { IncidentStatus } from "../../app/db/enums";
import { findCounterDrift } from "../../app/modules/facilities/counters.server";
import { createEntity, createEquipmentItem, createIncident, createRoom } from "../factories";
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

  it("backfill the list counters from the rows (0004_list_counters)", async () => {
    const db = database.db;
    const entity = await createEntity(db);
    const room = await createRoom(db, { entityId: entity.id });
    await createRoom(db, { entityId: entity.id, buildingId: room.buildingId, roomTypeId: room.roomTypeId });
    await createRoom(db, { entityId: entity.id, buildingId: room.buildingId, archivedAt: new Date() });
    await createEquipmentItem(db, { entityId: entity.id, roomId: room.id });
    await createIncident(db, { entityId: entity.id, roomId: room.id });
    await createIncident(db, { entityId: entity.id, roomId: room.id, status: IncidentStatus.DONE });
    // As before the migration: every counter at zero.
    for (const [table, columns] of [
      ["rooms", "active_incident_count = 0, equipment_count = 0"],
      ["buildings", "room_count = 0, active_incident_count = 0"],
      ["facilities", "building_count = 0, active_incident_count = 0"],
      ["room_types", "room_count = 0"],
      ["equipment_types", "item_count = 0"],
      ["equipment_categories", "equipment_type_count = 0"],
    ]) {
      await db.execute(sql.raw(`update ${table} set ${columns} where entity_id = ${entity.id}`));
    }
    expect((await findCounterDrift(db, entity.id)).length).toBeGreaterThan(0);
    const migration = fs.readFileSync(path.join(MIGRATIONS_DIR, "0004_list_counters.sql"), "utf8");
    const backfill = migration.slice(migration.indexOf("-- Backfill"));
    for (const statement of backfill.split("--> statement-breakpoint")) {
      if (statement.trim()) await db.execute(sql.raw(statement));
    }
    expect(await findCounterDrift(db, entity.id)).toEqual([]);
  });

  it("keep the list counters by trigger and recount them once (0016_list_counter_triggers)", async () => {
    const db = database.db;
    const entity = await createEntity(db);
    const room = await createRoom(db, { entityId: entity.id });
    await createRoom(db, { entityId: entity.id, buildingId: room.buildingId, roomTypeId: room.roomTypeId });
    await createRoom(db, { entityId: entity.id, buildingId: room.buildingId, archivedAt: new Date() });
    await createEquipmentItem(db, { entityId: entity.id, roomId: room.id });
    await createIncident(db, { entityId: entity.id, roomId: room.id });
    await createIncident(db, { entityId: entity.id, roomId: room.id, status: IncidentStatus.DONE });
    // The factories write plain rows: the triggers kept the counters.
    expect(await findCounterDrift(db, entity.id)).toEqual([]);
    const triggers = list(await rows<{ n: number }>(sql`select count(*)::int as n from pg_trigger where tgname like '%\_list\_counts\_%'`));
    expect(triggers[0].n).toBe(15);
    // Counters written wrong by hand (as a database migrated before 0016 might hold them).
    for (const [table, columns] of [
      ["rooms", "active_incident_count = 7, equipment_count = 0"],
      ["buildings", "room_count = 0, active_incident_count = 3"],
      ["facilities", "building_count = 5, active_incident_count = 0"],
      ["room_types", "room_count = 0"],
      ["equipment_types", "item_count = 2"],
      ["equipment_categories", "equipment_type_count = 0"],
    ]) {
      await db.execute(sql.raw(`update ${table} set ${columns} where entity_id = ${entity.id}`));
    }
    expect((await findCounterDrift(db, entity.id)).length).toBeGreaterThan(5);
    const migration = fs.readFileSync(path.join(MIGRATIONS_DIR, "0016_list_counter_triggers.sql"), "utf8");
    const recount = migration.slice(migration.indexOf("-- Recount"));
    for (const statement of recount.split("--> statement-breakpoint")) {
      if (statement.trim()) await db.execute(sql.raw(statement));
    }
    expect(await findCounterDrift(db, entity.id)).toEqual([]);
  });
});

describe.runIf(Boolean(process.env.DATABASE_URL))("migrations started by several processes at once (PostgreSQL)", () => {
  it("migrate an empty database once: the others wait, then find nothing left", async () => {
    const url = process.env.DATABASE_URL!;
    const name = `caretaker_migrate_race_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
    const admin = new pg.Client({ connectionString: withDatabase(url, "postgres") });
    await admin.connect();
    await admin.query(`create database ${name}`);
    const processes = await Promise.all([1, 2, 3].map(() => openDatabase({ url: withDatabase(url, name), poolMax: 1 })));
    try {
      await Promise.all(processes.map((p) => runMigrations(p)));
      const applied = list(await processes[0].db.execute(sql`select count(*)::int as n from drizzle.__drizzle_migrations`) as never) as { n: number }[];
      const journal = JSON.parse(fs.readFileSync(path.join(MIGRATIONS_DIR, "meta/_journal.json"), "utf8")) as { entries: unknown[] };
      expect(applied[0].n).toBe(journal.entries.length);
    } finally {
      await Promise.all(processes.map((p) => p.close()));
      await admin.query(`drop database if exists ${name} with (force)`);
      await admin.end();
    }
  }, 60_000);
});
