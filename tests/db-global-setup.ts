import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { openDatabase, runMigrations, type Database } from "../app/db/client.server";

/**
 * With DATABASE_URL set, the database tests run on that PostgreSQL server: this migrates one
 * template database per run, and each test file clones it (CREATE DATABASE ... TEMPLATE), so files
 * run in parallel on databases of their own. Without DATABASE_URL every file opens an in-memory
 * PGlite and migrates it.
 */
export default async function setup({ provide }: { provide: (key: string, value: unknown) => void }) {
  const url = process.env.DATABASE_URL;
  if (!url) {
    const database = await openDatabase({});
    await prepare(database);
    const dump = await database.pglite!.dumpDataDir("none");
    await database.close();
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "caretaker-pglite-"));
    const file = path.join(dir, "migrated.tar");
    fs.writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
    provide("pgliteSnapshot", file);
    return () => fs.rmSync(dir, { recursive: true, force: true });
  }
  const template = `caretaker_tpl_${process.pid}`;
  const admin = new pg.Client({ connectionString: adminUrl(url) });
  await admin.connect();
  await admin.query(`drop database if exists ${template}`);
  await admin.query(`create database ${template}`);
  const database = await openDatabase({ url: withDatabase(url, template) });
  await prepare(database);
  await database.close();
  await admin.end();
  provide("pgTemplate", template);

  return async () => {
    const cleanup = new pg.Client({ connectionString: adminUrl(url) });
    await cleanup.connect();
    const { rows } = await cleanup.query<{ datname: string }>(
      `select datname from pg_database where datname like $1 or datname = $2`,
      [`${template}_f%`, template],
    );
    for (const row of rows) await cleanup.query(`drop database if exists ${row.datname} with (force)`);
    await cleanup.end();
  };
}

/** The app's migrations (the job queue is a table among them). */
async function prepare(database: Database) {
  await runMigrations(database);
}

export function withDatabase(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

function adminUrl(url: string): string {
  return withDatabase(url, "postgres");
}

declare module "vitest" {
  export interface ProvidedContext {
    pgTemplate: string;
    pgliteSnapshot: string;
  }
}
