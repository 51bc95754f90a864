import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { afterAll, describe, expect, it } from "vitest";
import { eq, sql } from "drizzle-orm";
import pg from "pg";
import { backupInstance, HELD_AFTER_RESTORE, restoreInstance } from "~/db/backup.server";
import { openDatabase, PGLITE_EXTENSIONS, runMigrations, type Database } from "~/db/client.server";
import { jobQueue, storedFiles, users, webhookDeliveries } from "~/db/schema";
import { verifyPassword } from "~/modules/auth/password.server";
import { DEMO_PASSWORD, seedDemo } from "~/seed/seed.server";

/**
 * Back-up then restore into a fresh instance (README "Backups"): every table's row count, the files and a
 * login match; the webhook deliveries waiting at the backup are held, not sent. On the embedded database
 * always; on PostgreSQL when DATABASE_URL is set (pg_dump / pg_restore of the server's own tools).
 */
const temporary: string[] = [];
const folder = (prefix: string) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  temporary.push(dir);
  return dir;
};
afterAll(() => {
  for (const dir of temporary) fs.rmSync(dir, { recursive: true, force: true });
});

/** The demo data, its photos in the data folder, and one webhook delivery waiting to be sent. */
async function fill(database: Database, dataDir: string) {
  await runMigrations(database);
  await seedDemo(database.db, { files: { root: path.join(dataDir, "files"), maxBytes: 10 * 1024 * 1024 } });
  fs.writeFileSync(path.join(dataDir, "secrets.json"), JSON.stringify({ SESSION_SECRET: "s".repeat(40), JWT_SECRET: "j".repeat(40) }));
  await database.db.execute(sql`insert into webhook_endpoints (entity_id, name, url, secret, events, created_by_id)
    select e.id, 'Receiver', 'https://receiver.example/hook', 'sealed', array['incident.created'], null from entities e order by e.id limit 1`);
  await database.db.execute(sql`insert into webhook_deliveries (entity_id, endpoint_id, event_type, payload, max_attempts, next_attempt_at)
    select w.entity_id, w.id, 'incident.created', '{}'::jsonb, 5, now() from webhook_endpoints w`);
  await database.db.insert(jobQueue).values({ name: "webhook-delivery", payload: { deliveryId: 1 }, maxAttempts: 5 });
}

async function expectSameInstance(restored: Database, dataDir: string, source: Record<string, number>) {
  const admin = (await restored.db.select().from(users).where(eq(users.email, "admin@demo.test")))[0];
  expect(await verifyPassword(admin.passwordHash, DEMO_PASSWORD)).toBe(true);
  const files = await restored.db.select().from(storedFiles);
  expect(files.length).toBeGreaterThan(0);
  for (const file of files) expect(fs.existsSync(path.join(dataDir, "files", file.storageKey)), file.storageKey).toBe(true);
  const [delivery] = await restored.db.select().from(webhookDeliveries);
  expect(delivery).toMatchObject({ status: "failed", lastError: HELD_AFTER_RESTORE });
  const jobs = await restored.db.select().from(jobQueue).where(eq(jobQueue.name, "webhook-delivery"));
  expect(jobs.map((j) => j.state)).toEqual(["failed"]);
  expect(Object.keys(source).length).toBeGreaterThan(30);
}

// Each test migrates and fills two databases; on a loaded machine that passes the default minute.
describe("backup and restore", { timeout: 240_000 }, () => {
  it("of the embedded database: a fresh data folder holds the same rows, files and logins", async () => {
    const dataDir = folder("caretaker-backup-a-");
    const source = await openDatabase({ pglite: new PGlite({ dataDir: path.join(dataDir, "pglite"), extensions: PGLITE_EXTENSIONS }) });
    await fill(source, dataDir);
    await source.close();

    const backup = path.join(folder("caretaker-backup-"), "copy");
    const manifest = await backupInstance({ dataDir }, backup);
    expect(manifest).toMatchObject({ format: 1, database: "pglite", secrets: "generated" });
    expect(manifest.rowCounts.users).toBeGreaterThan(0);
    expect(manifest.rowCounts.webhook_deliveries).toBe(1);

    const fresh = folder("caretaker-restore-");
    const report = await restoreInstance({ dataDir: fresh }, backup);
    expect(report.mismatches).toEqual([]);
    expect(report.rowCounts).toEqual(manifest.rowCounts);
    expect(report.heldWebhookDeliveries).toBe(1);
    expect(fs.readFileSync(path.join(fresh, "secrets.json"), "utf8")).toBe(fs.readFileSync(path.join(dataDir, "secrets.json"), "utf8"));

    const restored = await openDatabase({ pglite: new PGlite({ dataDir: path.join(fresh, "pglite"), extensions: PGLITE_EXTENSIONS }) });
    try {
      await expectSameInstance(restored, fresh, manifest.rowCounts);
    } finally {
      await restored.close();
    }
    // A second restore into the same folder is refused: it holds data now.
    await expect(restoreInstance({ dataDir: fresh }, backup)).rejects.toThrow(/not empty/);
  });

  it.skipIf(!process.env.DATABASE_URL)("of PostgreSQL: a fresh database holds the same rows, files and logins", async () => {
    const url = process.env.DATABASE_URL!;
    const server = new URL(url);
    const name = (suffix: string) => `caretaker_backup_${process.pid}_${suffix}`;
    const at = (db: string) => Object.assign(new URL(server), { pathname: `/${db}` }).toString();
    const admin = new pg.Client({ connectionString: at("postgres") });
    await admin.connect();
    try {
      for (const db of [name("a"), name("b")]) await admin.query(`create database ${db}`);
      const dataDir = folder("caretaker-backup-pg-");
      const source = await openDatabase({ url: at(name("a")), poolMax: 2 });
      await fill(source, dataDir);
      await source.close();

      const backup = path.join(folder("caretaker-backup-"), "copy");
      const manifest = await backupInstance({ dataDir, databaseUrl: at(name("a")) }, backup, { SECRETS_KEY: "k".repeat(40) });
      expect(manifest.database).toBe("postgres");
      expect(JSON.parse(fs.readFileSync(path.join(backup, "environment-secrets.json"), "utf8"))).toEqual({ SECRETS_KEY: "k".repeat(40) });

      const fresh = folder("caretaker-restore-pg-");
      const report = await restoreInstance({ dataDir: fresh, databaseUrl: at(name("b")) }, backup);
      expect(report.mismatches).toEqual([]);
      expect(report.heldWebhookDeliveries).toBe(1);
      const restored = await openDatabase({ url: at(name("b")), poolMax: 2 });
      try {
        await expectSameInstance(restored, fresh, manifest.rowCounts);
      } finally {
        await restored.close();
      }
      // Into a database that already has tables: refused.
      await expect(restoreInstance({ dataDir: folder("caretaker-restore-pg-"), databaseUrl: at(name("b")) }, backup)).rejects.toThrow(/not empty/);
    } finally {
      for (const db of [name("a"), name("b")]) await admin.query(`drop database if exists ${db} with (force)`);
      await admin.end();
    }
  });
});
