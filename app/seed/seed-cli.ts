/**
 * `npm run seed`: migrates the database, then creates the demo data (idempotent).
 * `npm run seed -- --scale N`: creates the benchmark entity "Scale N" (N = 1: one million incidents).
 *
 * The database is DATABASE_URL, or the embedded PGlite in DATA_DIR/pglite (default ./data/pglite).
 */
import path from "node:path";
import { parseArgs } from "node:util";
import { ConfigError, loadConfig } from "~/config.server";
import { openDatabase, runMigrations } from "~/db/client.server";
import { DEMO_ACCOUNTS, DEMO_PASSWORD, SCALE_ACCOUNTS, scaleCounts, seedDemo, seedScale } from "./seed.server";

const USAGE = `Usage: npm run seed [-- --scale N]

  (no option)   migrate, then create the demo data (does nothing when it exists)
  --scale N     migrate, then create the benchmark entity "Scale N"
                (N = 1: 1,000,000 incidents, 50,000 rooms, 200,000 equipment items; N may be fractional)

Database: DATABASE_URL, or the embedded PGlite in DATA_DIR/pglite (DATA_DIR defaults to ./data).`;

function seconds(since: number): string {
  return `${((performance.now() - since) / 1000).toFixed(1)} s`;
}

async function main(): Promise<number> {
  let scale: number | undefined;
  try {
    const { values } = parseArgs({
      options: { scale: { type: "string" }, help: { type: "boolean", short: "h" } },
      strict: true,
    });
    if (values.help) {
      console.log(USAGE);
      return 0;
    }
    if (values.scale !== undefined) {
      scale = Number(values.scale);
      if (!Number.isFinite(scale) || scale <= 0) {
        throw new Error(`--scale must be a positive number, got "${values.scale}"`);
      }
    }
  } catch (error) {
    console.error(error instanceof Error ? error.message : String(error));
    console.error(USAGE);
    return 2;
  }

  const config = loadConfig();
  const dataDir = path.join(config.dataDir, "pglite");
  if (config.databaseMode === "pglite") {
    console.warn(
      `Using the embedded database in ${dataDir}.\n` +
        "WARNING: PGlite allows only one process per data folder. Stop the app (npm run dev / npm start) " +
        "before seeding, or the database may be corrupted.",
    );
  } else {
    console.log("Using the PostgreSQL database of DATABASE_URL.");
  }

  const started = performance.now();
  const database = await openDatabase({ url: config.DATABASE_URL, dataDir, poolMax: 2 });
  try {
    await runMigrations(database);
    console.log(`Migrations applied (${seconds(started)}).`);

    if (scale === undefined) {
      const seeding = performance.now();
      const files = { root: path.join(config.dataDir, "files"), maxBytes: config.UPLOAD_MAX_BYTES };
      const { created } = await seedDemo(database.db, { files });
      if (created) {
        console.log(`Demo data created in ${seconds(seeding)}. Accounts (password "${DEMO_PASSWORD}"):`);
        for (const email of Object.values(DEMO_ACCOUNTS)) console.log(`  ${email}`);
      } else {
        console.log(`Demo data already present (${DEMO_ACCOUNTS.admin} exists): nothing to do.`);
      }
    } else {
      const seeding = performance.now();
      const expected = scaleCounts(scale);
      console.log(
        `Seeding scale ${scale}: ≈${expected.incidents.toLocaleString("en")} incidents, ` +
          `${expected.rooms.toLocaleString("en")} rooms, ` +
          `${expected.equipmentItems.toLocaleString("en")} equipment items...`,
      );
      const result = await seedScale(database.db, scale, {
        log: (message) => console.log(`  ${message}`),
      });
      if (result.created) {
        console.log(`Scale data created in ${seconds(seeding)} (entity ${result.entityId}):`);
        console.log(`  ${JSON.stringify(result.counts)}`);
        console.log(`  Accounts (password "${DEMO_PASSWORD}"): ${Object.values(SCALE_ACCOUNTS).join(", ")}`);
      } else {
        console.log(`Scale data already present (entity ${result.entityId}): nothing to do.`);
      }
    }
    console.log(`Done in ${seconds(started)}.`);
    return 0;
  } finally {
    await database.close();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    if (error instanceof ConfigError) console.error(error.message);
    else console.error(error);
    process.exit(1);
  },
);
