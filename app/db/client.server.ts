import fs from "node:fs";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import type { ExtractTablesWithRelations } from "drizzle-orm";
import type { PgDatabase, PgQueryResultHKT, PgTransaction } from "drizzle-orm/pg-core";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import { migrate as migratePg } from "drizzle-orm/node-postgres/migrator";
import pg from "pg";
import * as schema from "./schema";

export type Schema = typeof schema;
/** The database handle every query and service takes: a PGlite or node-postgres drizzle instance, or a transaction. */
export type Db = PgDatabase<PgQueryResultHKT, Schema, ExtractTablesWithRelations<Schema>>;
export type Tx = PgTransaction<PgQueryResultHKT, Schema, ExtractTablesWithRelations<Schema>>;

export interface Database {
  db: Db;
  mode: "pglite" | "postgres";
  /** The embedded instance, in PGlite mode (the job queue runs through it too). */
  pglite?: PGlite;
  /** The pool and its connection string, in PostgreSQL mode. */
  pool?: pg.Pool;
  url?: string;
  /** Runs `select 1`; throws when the database does not answer. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

export interface OpenOptions {
  /** A postgres:// URL; without it PGlite is used. */
  url?: string;
  /** PGlite data folder; omit for an in-memory database. */
  dataDir?: string;
  poolMax?: number;
  /** An already created PGlite (tests load a migrated snapshot into one). */
  pglite?: PGlite;
}

/**
 * The extensions the migrations use, which the embedded database loads from its own package (a
 * PostgreSQL server has them in contrib): pg_trgm for the incidents' text search.
 */
export const PGLITE_EXTENSIONS = { pg_trgm };

export const MIGRATIONS_DIR = path.resolve(process.env.MIGRATIONS_DIR ?? "app/db/migrations");

export async function openDatabase(options: OpenOptions): Promise<Database> {
  if (options.url) {
    const pool = new pg.Pool({ connectionString: options.url, max: options.poolMax ?? 10 });
    pool.on("error", () => {
      /* an idle client lost its connection; the pool replaces it */
    });
    const db = drizzlePg(pool, { schema, casing: "snake_case" }) as unknown as Db;
    return {
      db,
      mode: "postgres",
      pool,
      url: options.url,
      async ping() {
        await pool.query("select 1");
      },
      async close() {
        await pool.end();
      },
    };
  }
  if (options.dataDir) fs.mkdirSync(options.dataDir, { recursive: true });
  const pglite = options.pglite ?? new PGlite({ dataDir: options.dataDir, startParams: pgliteStartParams(), extensions: PGLITE_EXTENSIONS });
  await pglite.waitReady;
  const db = drizzlePglite({ client: pglite, schema, casing: "snake_case" }) as unknown as Db;
  return {
    db,
    mode: "pglite",
    pglite,
    async ping() {
      await pglite.query("select 1");
    },
    async close() {
      if (!pglite.closed) await pglite.close();
    },
  };
}

/**
 * PGlite runs PostgreSQL in one WebAssembly memory that only grows. PostgreSQL's default 128 MB of
 * shared buffers is allocated inside it; the embedded mode serves small data sets from the OS page
 * cache just as well, so it keeps 16 MB (`PGLITE_SHARED_BUFFERS` overrides it). See decision 019.
 */
export function pgliteStartParams(sharedBuffers = process.env.PGLITE_SHARED_BUFFERS ?? "16MB"): string[] {
  return [...PGlite.defaultStartParams, "-c", `shared_buffers=${sharedBuffers}`];
}

/** The advisory lock that lets one process at a time migrate a PostgreSQL database (an arbitrary constant). */
const MIGRATIONS_LOCK = 7_264_115;

/**
 * Applies the committed SQL migrations (idempotent). On PostgreSQL several processes may start at once
 * (replicas, WEB_CONCURRENCY): one migrates while the others wait on an advisory lock, then find
 * nothing left to apply.
 */
export async function runMigrations(database: Database, migrationsFolder = MIGRATIONS_DIR): Promise<void> {
  if (database.mode === "pglite" || !database.url) {
    await migratePglite(database.db as never, { migrationsFolder });
    return;
  }
  // The lock is held by a connection of its own: the pool may have a single one, which migrating needs.
  const holder = new pg.Client({ connectionString: database.url });
  await holder.connect();
  try {
    await holder.query("select pg_advisory_lock($1)", [MIGRATIONS_LOCK]);
    await migratePg(database.db as never, { migrationsFolder });
  } finally {
    await holder.end().catch(() => undefined);
  }
}

/** Runs `fn` in one transaction. */
export function transaction<T>(db: Db, fn: (tx: Tx) => Promise<T>): Promise<T> {
  return db.transaction(fn);
}
