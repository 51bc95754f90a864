import fs from "node:fs";
import { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import { inject } from "vitest";
import { openDatabase, PGLITE_EXTENSIONS, type Database } from "../app/db/client.server";
import { withDatabase } from "./db-global-setup";

let counter = 0;

/**
 * A fresh, migrated database for one test file: in-memory PGlite loaded from the run's migrated
 * snapshot, or (with DATABASE_URL) a clone of
 * the run's template database on the PostgreSQL server. Close it in afterAll.
 */
export async function createTestDatabase(): Promise<Database> {
  const url = process.env.DATABASE_URL;
  if (!url) {
    const snapshot = fs.readFileSync(inject("pgliteSnapshot"));
    return openDatabase({ pglite: new PGlite({ loadDataDir: new Blob([snapshot]), extensions: PGLITE_EXTENSIONS }) });
  }
  const template = inject("pgTemplate");
  const name = `${template}_f${process.pid}_${++counter}_${Math.random().toString(36).slice(2, 8)}`;
  const admin = new pg.Client({ connectionString: withDatabase(url, "postgres") });
  await admin.connect();
  await admin.query(`create database ${name} template ${template}`);
  await admin.end();
  const database = await openDatabase({ url: withDatabase(url, name), poolMax: 4 });
  const close = database.close;
  return {
    ...database,
    async close() {
      await close();
      const dropper = new pg.Client({ connectionString: withDatabase(url, "postgres") });
      await dropper.connect();
      await dropper.query(`drop database if exists ${name} with (force)`);
      await dropper.end();
    },
  };
}
