/**
 * `npm run backup -- <folder>` and `npm run restore -- <folder>` (README "Backups"): the instance is the
 * one the environment names (DATA_DIR, and DATABASE_URL for PostgreSQL), as for `npm run serve`.
 */
import path from "node:path";
import { backupInstance, restoreInstance } from "../app/db/backup.server";

const [command, folder] = process.argv.slice(2);
if ((command !== "backup" && command !== "restore") || !folder) {
  process.stderr.write("usage: npm run backup -- <folder>   |   npm run restore -- <folder>\n");
  process.exit(2);
}
const instance = { dataDir: path.resolve(process.env.DATA_DIR ?? "./data"), databaseUrl: process.env.DATABASE_URL || undefined };
const target = path.resolve(folder);

try {
  if (command === "backup") {
    const secrets = Object.fromEntries(
      ["SECRETS_KEY", "SESSION_SECRET", "JWT_SECRET"].flatMap((name) => (process.env[name] ? [[name, process.env[name]!]] : [])),
    );
    const manifest = await backupInstance(instance, target, secrets);
    const rows = Object.values(manifest.rowCounts).reduce((a, b) => a + b, 0);
    process.stdout.write(
      `Backup written to ${target}: the ${manifest.database === "pglite" ? "embedded" : "PostgreSQL"} database ` +
        `(${Object.keys(manifest.rowCounts).length} tables, ${rows} rows), ${manifest.files} files, secrets: ${manifest.secrets}.\n` +
        "It holds the instance's secrets: keep it where only administrators can read it.\n",
    );
  } else {
    const report = await restoreInstance(instance, target);
    process.stdout.write(
      `Restored ${target} into ${instance.databaseUrl ? "the PostgreSQL database" : instance.dataDir}.\n` +
        (report.mismatches.length ? `Tables whose row count differs from the backup's: ${report.mismatches.join(", ")}\n` : "Every table's row count matches the backup.\n") +
        `${report.heldWebhookDeliveries} webhook deliveries that were waiting were held (marked failed, not sent).\n` +
        (report.manifest.secrets === "environment"
          ? "Set SECRETS_KEY / SESSION_SECRET / JWT_SECRET as in the backup's environment-secrets.json before starting.\n"
          : ""),
    );
    if (report.mismatches.length) process.exitCode = 1;
  }
} catch (error) {
  process.stderr.write(`${command} failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
}
