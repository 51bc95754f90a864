import { execFile } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { PGlite } from "@electric-sql/pglite";
import { sql } from "drizzle-orm";
import { openDatabase, PGLITE_EXTENSIONS, pgliteStartParams, type Database } from "./client.server";

/**
 * Back-up and restore of an instance (README "Backups"): the database (PostgreSQL through `pg_dump`'s
 * custom format, the embedded database through PGlite's own dump of its data folder), the uploaded files
 * folder, and the secrets the sealed data needs (webhook signing secrets are sealed with a key derived
 * from SECRETS_KEY or SESSION_SECRET, decision 057). A manifest lists every table's row count, which a
 * restore checks.
 *
 * The database is dumped first, the files copied after: a row's file is never removed before its row is
 * (files are retired after their row's change commits), so every row of the dump finds its file; a file
 * uploaded meanwhile is an orphan the restore keeps without harm.
 *
 * A restored instance holds the webhook deliveries that were waiting when the backup was made: they are
 * marked failed with a reason ("held after a restore") instead of being sent late to receivers that may
 * have moved on; an administrator sees them in the endpoint's deliveries (decision 057).
 */
const run = promisify(execFile);

export const HELD_AFTER_RESTORE = "Held: this instance was restored from a backup; not sent.";

export interface InstanceLocation {
  /** The data folder (uploads in `files/`, the embedded database in `pglite/`, generated `secrets.json`). */
  dataDir: string;
  /** A PostgreSQL database instead of the embedded one. */
  databaseUrl?: string;
}

export interface Manifest {
  format: 1;
  createdAt: string;
  database: "pglite" | "postgres";
  /** Every table of the public schema and its row count at the time of the dump. */
  rowCounts: Record<string, number>;
  files: number;
  /**
   * Where the secrets sealed data needs come from: the data folder's generated `secrets.json` (restored
   * with it), or the environment (kept in `environment-secrets.json`, to set again on the new instance).
   */
  secrets: "generated" | "environment" | "none";
}

const PGLITE_DUMP = "database.pglite.tar.gz";
const PG_DUMP = "database.pgdump";

async function rowCounts(database: Database): Promise<Record<string, number>> {
  const tables = await database.db.execute<{ name: string }>(
    sql`select tablename as name from pg_tables where schemaname = 'public' order by tablename`,
  );
  const counts: Record<string, number> = {};
  for (const { name } of rowsOf<{ name: string }>(tables)) {
    // tenant-scope: every table of the instance is counted whole (a backup is of the whole instance).
    const [row] = rowsOf<{ n: number }>(await database.db.execute(sql`select count(*)::int as n from ${sql.identifier(name)}`));
    counts[name] = Number(row.n);
  }
  return counts;
}

function rowsOf<T>(result: unknown): T[] {
  return (Array.isArray(result) ? result : (result as { rows: T[] }).rows) as T[];
}

function countFiles(folder: string): number {
  if (!fs.existsSync(folder)) return 0;
  return fs.readdirSync(folder, { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile()).length;
}

function emptyOrMissing(folder: string): boolean {
  return !fs.existsSync(folder) || fs.readdirSync(folder).length === 0;
}

/**
 * Writes a backup of the instance into `target` (a new or empty folder). On the embedded database the
 * app must be stopped (PGlite's folder has one user at a time); PostgreSQL is dumped while it serves.
 */
export async function backupInstance(
  instance: InstanceLocation,
  target: string,
  /** SECRETS_KEY, SESSION_SECRET, JWT_SECRET as set in the environment (kept in `environment-secrets.json`). */
  environmentSecrets: Record<string, string> = {},
): Promise<Manifest> {
  if (!emptyOrMissing(target)) throw new Error(`the backup folder ${target} is not empty`);
  fs.mkdirSync(target, { recursive: true });
  let counts: Record<string, number>;
  if (instance.databaseUrl) {
    await run("pg_dump", ["--format=custom", "--no-owner", "--no-privileges", `--file=${path.join(target, PG_DUMP)}`, instance.databaseUrl]);
    const database = await openDatabase({ url: instance.databaseUrl, poolMax: 1 });
    try {
      counts = await rowCounts(database);
    } finally {
      await database.close();
    }
  } else {
    const folder = path.join(instance.dataDir, "pglite");
    if (!fs.existsSync(path.join(folder, "PG_VERSION"))) throw new Error(`no embedded database in ${folder}`);
    const pglite = new PGlite({ dataDir: folder, startParams: pgliteStartParams(), extensions: PGLITE_EXTENSIONS });
    const database = await openDatabase({ pglite });
    try {
      counts = await rowCounts(database);
      const dump = await pglite.dumpDataDir("gzip");
      fs.writeFileSync(path.join(target, PGLITE_DUMP), Buffer.from(await dump.arrayBuffer()));
    } finally {
      await database.close();
    }
  }
  const filesFolder = path.join(instance.dataDir, "files");
  if (fs.existsSync(filesFolder)) fs.cpSync(filesFolder, path.join(target, "files"), { recursive: true });
  const secretsFile = path.join(instance.dataDir, "secrets.json");
  let secrets: Manifest["secrets"] = "none";
  if (fs.existsSync(secretsFile)) {
    fs.copyFileSync(secretsFile, path.join(target, "secrets.json"));
    fs.chmodSync(path.join(target, "secrets.json"), 0o600);
    secrets = "generated";
  }
  if (Object.keys(environmentSecrets).length > 0) {
    const file = path.join(target, "environment-secrets.json");
    fs.writeFileSync(file, `${JSON.stringify(environmentSecrets, null, 2)}\n`, { mode: 0o600 });
    if (secrets === "none") secrets = "environment";
  }
  const manifest: Manifest = {
    format: 1,
    createdAt: new Date().toISOString(),
    database: instance.databaseUrl ? "postgres" : "pglite",
    rowCounts: counts,
    files: countFiles(path.join(target, "files")),
    secrets,
  };
  fs.writeFileSync(path.join(target, "manifest.json"), `${JSON.stringify(manifest, null, 2)}\n`);
  return manifest;
}

export interface RestoreReport {
  manifest: Manifest;
  rowCounts: Record<string, number>;
  /** Tables whose row count differs from the manifest's (none after a good restore, before holding webhooks). */
  mismatches: string[];
  heldWebhookDeliveries: number;
}

/**
 * Restores a backup into an instance that has no data yet: an empty data folder (and, on PostgreSQL, a
 * database without tables). The database kind may differ from the backup's only through `pg_dump` /
 * `pg_restore` of a PostgreSQL backup into PostgreSQL and a PGlite dump into PGlite.
 */
export async function restoreInstance(instance: InstanceLocation, source: string): Promise<RestoreReport> {
  const manifest = JSON.parse(fs.readFileSync(path.join(source, "manifest.json"), "utf8")) as Manifest;
  if (manifest.format !== 1) throw new Error(`unknown backup format ${String(manifest.format)}`);
  const filesFolder = path.join(instance.dataDir, "files");
  if (!emptyOrMissing(filesFolder)) throw new Error(`the files folder ${filesFolder} is not empty`);
  let database: Database;
  if (manifest.database === "postgres") {
    if (!instance.databaseUrl) throw new Error("this backup is of a PostgreSQL database: set DATABASE_URL to an empty database");
    database = await openDatabase({ url: instance.databaseUrl, poolMax: 2 });
    const [existing] = rowsOf<{ n: number }>(await database.db.execute(sql`select count(*)::int as n from pg_tables where schemaname = 'public'`));
    if (Number(existing.n) > 0) {
      await database.close();
      throw new Error("the target database is not empty");
    }
    await run("pg_restore", ["--no-owner", "--no-privileges", "--exit-on-error", `--dbname=${instance.databaseUrl}`, path.join(source, PG_DUMP)]);
  } else {
    if (instance.databaseUrl) throw new Error("this backup is of the embedded database: unset DATABASE_URL");
    const folder = path.join(instance.dataDir, "pglite");
    if (!emptyOrMissing(folder)) throw new Error(`the embedded database folder ${folder} is not empty`);
    const dump = new Blob([fs.readFileSync(path.join(source, PGLITE_DUMP))]);
    const pglite = new PGlite({ dataDir: folder, loadDataDir: dump, startParams: pgliteStartParams(), extensions: PGLITE_EXTENSIONS });
    database = await openDatabase({ pglite });
  }
  try {
    const counts = await rowCounts(database);
    const mismatches = Object.keys({ ...manifest.rowCounts, ...counts }).filter((table) => manifest.rowCounts[table] !== counts[table]);
    const held = await holdWaitingWebhooks(database);
    if (fs.existsSync(path.join(source, "files"))) fs.cpSync(path.join(source, "files"), filesFolder, { recursive: true });
    if (fs.existsSync(path.join(source, "secrets.json")) && !fs.existsSync(path.join(instance.dataDir, "secrets.json"))) {
      fs.mkdirSync(instance.dataDir, { recursive: true });
      fs.copyFileSync(path.join(source, "secrets.json"), path.join(instance.dataDir, "secrets.json"));
      fs.chmodSync(path.join(instance.dataDir, "secrets.json"), 0o600);
    }
    return { manifest, rowCounts: counts, mismatches, heldWebhookDeliveries: held };
  } finally {
    await database.close();
  }
}

/** The webhook deliveries waiting in the backup are marked failed with the reason, and their jobs ended. */
async function holdWaitingWebhooks(database: Database): Promise<number> {
  return database.db.transaction(async (tx) => {
    // tenant-scope: a restore holds the waiting deliveries of every entity of the instance.
    const held = rowsOf<{ id: number }>(
      await tx.execute(sql`update webhook_deliveries set status = 'failed', last_error = ${HELD_AFTER_RESTORE}, next_attempt_at = null,
        finished_at = now() where status = 'pending' returning id`),
    );
    await tx.execute(sql`update job_queue set state = 'failed', last_error = ${HELD_AFTER_RESTORE}, locked_until = null, finished_at = now()
      where name = 'webhook-delivery' and state in ('pending', 'active')`);
    return held.length;
  });
}
