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
import { isDatabaseUnavailableError } from "~/lib/errors";
import { logger } from "~/lib/logger.server";
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
    const pool = new RetryingPool({ connectionString: options.url, max: options.poolMax ?? 10 });
    // node-postgres emits "error" on a client whose connection the server ends (a restart, a
    // terminated backend): on an idle client through the pool, which then drops it; on a client
    // checked out by a transaction or a worker, on the client itself. Unhandled, either would end the
    // process; handled, the query in flight fails with the error and the pool opens new connections.
    pool.on("error", (err) => logger().warn({ err: err.message }, "database: an idle connection was lost"));
    pool.on("connect", (client) => {
      client.on("error", (err) => logger().warn({ err: err.message }, "database: a connection in use was lost"));
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

/** A statement that only reads (tried again once when its connection was lost). */
const READ_ONLY = /^\s*(select|with|show|values|table)\b/i;
const WRITES = /\b(insert|update|delete|merge|nextval|setval|pg_advisory|for\s+(no\s+key\s+)?update|for\s+share)\b/i;

export function isReadOnlyStatement(text: string): boolean {
  return READ_ONLY.test(text) && !WRITES.test(text);
}

/**
 * The pool of the PostgreSQL mode. A statement sent outside a transaction (`pool.query`) that only
 * reads is sent once more when its connection was lost on the way (the database restarted, a backend
 * was terminated): a read is safe to repeat and the pool opens a new connection for it. A write is
 * never repeated: it may have committed before the connection went; the caller gets the error, which
 * the transports answer 503. Statements of a transaction go through a checked-out client, not here.
 */
class RetryingPool extends pg.Pool {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the same overloads as pg.Pool's own
  override query(...args: any[]): any {
    const [config, values, callback] = args as [unknown, unknown, unknown];
    const text = typeof config === "string" ? config : (config as { text?: unknown } | null)?.text;
    if (typeof callback === "function" || typeof values === "function" || typeof text !== "string" || !isReadOnlyStatement(text)) {
      return super.query(...(args as Parameters<pg.Pool["query"]>));
    }
    const send = () => super.query(...(args as Parameters<pg.Pool["query"]>)) as unknown as Promise<unknown>;
    return send().catch((error: unknown) => {
      if (this.ending || !isDatabaseUnavailableError(error)) throw error;
      logger().warn({ err: error instanceof Error ? error.message : String(error) }, "database: a read lost its connection; sending it again");
      return send();
    });
  }
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
