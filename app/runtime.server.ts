import fs from "node:fs";
import { libreTranslate } from "~/lib/libretranslate.server";
import path from "node:path";
import { config, type Config } from "~/config.server";
import { openDatabase, runMigrations, type Database } from "~/db/client.server";
import { instrumentPg, instrumentPglite } from "~/db/query-timing.server";
import { scheduleUpkeep, type UpkeepResult, upkeepRound } from "~/db/upkeep.server";
import { seedDemoIfEmpty } from "~/seed/seed.server";
import type { ContextServices, FileStore } from "~/core/context.server";
import { type ClosableEventBus, createEventBus, createPgEventBus, NOTIFY_ALL_SQL } from "~/core/events.server";
import { EVERY_PROCESS, keptAnswersState } from "~/core/kept-answers.server";
import type { JobQueue } from "~/core/jobs.server";
import { createChangeDispatcher } from "~/jobs/changes.server";
import { QUEUE_WAKE, startQueue } from "~/jobs/queue.server";
import { jobs, schedules, changeHandlers } from "~/jobs/registry.server";
import { acceptClockFromParent, now } from "~/lib/clock.server";
import { logger } from "~/lib/logger.server";
import { createMailer, type Mailer } from "~/mail/mailer.server";
import { createLoginLimits, type AuthDeps } from "~/modules/auth/service.server";
import { resealWebhookSecrets } from "~/modules/webhooks/delivery.server";
import { postgresLimitStore, prepareLimitTable, sharedLimitStore, setSharedLimitStore } from "~/core/shared-limits.server";

/**
 * The process-wide services, created once at boot and kept on globalThis so that Vite's module
 * reloading in development does not open a second PGlite on the same folder.
 */
export interface Runtime {
  config: Config;
  database: Database;
  /** The job queue: always there to send jobs; its workers run here only when JOBS is on. */
  queue: JobQueue;
  mailer: Mailer;
  files: FileStore;
  /** Live events: in process on PGlite, across processes through LISTEN/NOTIFY on PostgreSQL. */
  events: ClosableEventBus;
  auth: AuthDeps;
  /** What every service context is built from. */
  services: ContextServices;
  /** The embedded database's periodic ANALYZE and VACUUM (null on PostgreSQL, which has autovacuum). */
  upkeep: { stop(): Promise<void> } | null;
}

/** How often the embedded database's tables are checked for ANALYZE and VACUUM. */
const UPKEEP_INTERVAL_MS = 10 * 60_000;

/** Logs a round of the embedded database's upkeep that failed or did something. */
function logUpkeep(result: UpkeepResult | Error): void {
  if (result instanceof Error) logger().error({ err: result }, "table upkeep failed");
  else if (result.analyzed.length || result.vacuumed.length) {
    logger().info({ analyzed: result.analyzed.length, vacuumed: result.vacuumed.length, ms: Math.round(result.ms) }, "table upkeep");
  }
}

const holder = globalThis as unknown as { __caretakerRuntime?: Promise<Runtime> };

export function runtime(): Promise<Runtime> {
  holder.__caretakerRuntime ??= boot();
  return holder.__caretakerRuntime;
}

function pgliteFolder(cfg: Config): string {
  return path.join(cfg.dataDir, "pglite");
}

/**
 * True when the embedded database has no data folder yet. Creating one (initdb, migrations, the demo
 * seed) swells PGlite's WebAssembly memory to several hundred MB, and that memory is never given back
 * to the system, so the server runs `prepareData` in a short-lived child process first (server.ts)
 * and serves from a process that only ever opened the finished folder (decision 019).
 */
export function needsPreparation(): boolean {
  const cfg = config();
  return !cfg.DATABASE_URL && !fs.existsSync(path.join(pgliteFolder(cfg), "PG_VERSION"));
}

/** Creates the data folder: migrations, then the demo data when SEED_DEMO is on. */
export async function prepareData(): Promise<void> {
  const cfg = config();
  const database = await openDatabase({ url: cfg.DATABASE_URL, dataDir: pgliteFolder(cfg), poolMax: 1 });
  try {
    await runMigrations(database);
    if (cfg.SEED_DEMO && database.mode === "pglite") {
      const files: FileStore = { root: path.join(cfg.dataDir, "files"), maxBytes: cfg.UPLOAD_MAX_BYTES };
      if (await seedDemoIfEmpty(database.db, files)) logger().info("demo data created");
    }
    // The planner's statistics of the new folder (PGlite has no autovacuum; decision 019).
    if (database.pglite) await upkeepRound(database.pglite, logUpkeep, { all: true });
  } finally {
    await database.close();
  }
}

async function boot(): Promise<Runtime> {
  const cfg = config();
  const log = logger();
  const started = Date.now();
  const open = () => openDatabase({ url: cfg.DATABASE_URL, dataDir: pgliteFolder(cfg), poolMax: cfg.DATABASE_POOL_MAX });
  let database = await open();
  await runMigrations(database);
  const secrets = await resealWebhookSecrets(database.db);
  if (secrets.resealed) log.info({ endpoints: secrets.resealed }, "webhook secrets sealed with the current key");
  if (secrets.unreadable) log.warn({ endpoints: secrets.unreadable }, "webhook secrets that no configured key opens: give those endpoints a new secret");
  log.info({ mode: database.mode, ms: Date.now() - started }, "database ready");

  const mailer = createMailer({ smtpUrl: cfg.SMTP_URL, from: cfg.MAIL_FROM, outboxDir: path.join(cfg.dataDir, "outbox") });
  const files: FileStore = { root: path.join(cfg.dataDir, "files"), maxBytes: cfg.UPLOAD_MAX_BYTES };
  let seeded = false;
  if (cfg.SEED_DEMO && database.mode === "pglite") {
    seeded = await seedDemoIfEmpty(database.db, files);
    if (seeded) {
      // Seeded in this process (development, or no preparation step): start the served instance
      // afresh so at least PGlite's own memory returns to its normal size.
      await database.close();
      database = await open();
      log.info("demo data created");
    }
  }
  // PGlite runs no autovacuum: tables are analysed and vacuumed here as it would (decision 019).
  let upkeep: Runtime["upkeep"] = null;
  if (database.pglite) {
    // A failed round is logged; the server starts all the same.
    await upkeepRound(database.pglite, logUpkeep, { all: seeded });
    upkeep = scheduleUpkeep(database.pglite, UPKEEP_INTERVAL_MS, logUpkeep);
  }
  if (cfg.SERVER_TIMING) {
    if (database.pglite) instrumentPglite(database.pglite);
    else instrumentPg();
  }
  const pool = database.pool;
  // Several processes may serve one PostgreSQL database: their request limits count together there.
  if (pool) await prepareLimitTable(pool);
  setSharedLimitStore(pool ? postgresLimitStore(pool) : undefined);
  const events =
    pool && database.url
      ? createPgEventBus({ url: database.url, notify: (channel, payloads) => pool.query(NOTIFY_ALL_SQL, [channel, payloads]) })
      : createEventBus();
  // Listening before the port opens (a database that answered the migrations answers this too).
  await Promise.race([events.ready, new Promise((resolve) => setTimeout(resolve, 5_000).unref())]);
  // The report page's kept answers: dropped in every process when their entity writes (decision 019).
  keptAnswersState().connect(events, { enabled: cfg.REPORT_PAGE_CACHE });
  const translator = cfg.TRANSLATE_URL ? libreTranslate({ url: cfg.TRANSLATE_URL, apiKey: cfg.TRANSLATE_API_KEY }) : null;
  const services: ContextServices = { db: database.db, files, events, queue: null, appUrl: cfg.APP_URL, translator };
  const jobServices = { ...services, mailer };
  const queue = await startQueue({
    database,
    jobs,
    schedules: schedules({ notificationRetentionDays: cfg.NOTIFICATION_RETENTION_DAYS, webhookDeliveryRetentionDays: cfg.WEBHOOK_DELIVERY_RETENTION_DAYS }),
    changes: createChangeDispatcher({ db: database.db, handlers: changeHandlers, services }),
    work: cfg.JOBS,
    services: jobServices,
    wakeOthers: () => events.publish({ entityId: EVERY_PROCESS, type: QUEUE_WAKE, data: {} }),
  });
  // Work due that a process without workers announced: this process's workers look at once.
  if (cfg.JOBS) events.subscribe(EVERY_PROCESS, (event) => event.type === QUEUE_WAKE && queue.wake());
  // Handlers enqueue too (a notification's emails are jobs written in the dispatch transaction).
  services.queue = queue;
  jobServices.queue = queue;
  const auth: AuthDeps = {
    db: database.db,
    jwtSecret: cfg.JWT_SECRET,
    accessTtlSeconds: cfg.JWT_TTL_SECONDS,
    refreshTtlDays: cfg.REFRESH_TTL_DAYS,
    limits: createLoginLimits(cfg.LOGIN_MAX_PER_ACCOUNT, cfg.LOGIN_MAX_PER_ADDRESS, { store: sharedLimitStore() }),
    now,
  };
  if (cfg.TEST_CLOCK_IPC && acceptClockFromParent()) log.warn("TEST_CLOCK_IPC: the parent process may move this server's clock");
  log.info({ ms: Date.now() - started, mail: mailer.mode, jobs: cfg.JOBS }, "runtime ready");
  return { config: cfg, database, queue, mailer, files, events, auth, services, upkeep };
}

/** Stops the workers and closes the database; safe to call when nothing was started. */
export async function shutdown(): Promise<void> {
  const pending = holder.__caretakerRuntime;
  if (!pending) return;
  holder.__caretakerRuntime = undefined;
  const rt = await pending.catch(() => null);
  if (!rt) return;
  await rt.upkeep?.stop();
  await rt.queue.stop().catch((err) => logger().error({ err }, "stopping the queue failed"));
  await rt.events.close().catch((err) => logger().error({ err }, "closing the live events failed"));
  await rt.database.close();
}

/** Readiness: the database answers. */
export async function readiness(): Promise<{ ok: boolean; detail?: string }> {
  try {
    const rt = await runtime();
    await rt.database.ping();
    return { ok: true };
  } catch (error) {
    return { ok: false, detail: error instanceof Error ? error.message : String(error) };
  }
}
