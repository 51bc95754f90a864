import { type SQL, sql } from "drizzle-orm";
import { PgBoss, fromPglite } from "pg-boss";
import type { ContextServices } from "~/core/context.server";
import type { JobDefinition, JobQueue, MailSender } from "~/core/jobs.server";
import type { Database, Db } from "~/db/client.server";
import { logger } from "~/lib/logger.server";

/**
 * The life cycle of pg-boss, on the same database as the app (PGlite through pg-boss's adapter,
 * PostgreSQL through its own small pool): create a queue per job definition, run their workers when
 * `work` is on, and send jobs, inside a caller's transaction when given its `db`. What each job does
 * lives in its definition (`defineJob`, app/core/jobs.server.ts); the list is app/jobs/registry.server.ts.
 */
export interface QueueOptions {
  database: Database;
  jobs: readonly JobDefinition[];
  /** The services handlers get (to build a system context and call verbs). */
  services: ContextServices & { mailer: MailSender };
  /** Run the workers in this process (JOBS=true); otherwise only send. */
  work: boolean;
  /** Poll interval of the workers; short in tests. */
  pollingIntervalSeconds?: number;
}

export interface StartedQueue extends JobQueue {
  boss: PgBoss;
}

export async function startQueue(options: QueueOptions): Promise<StartedQueue> {
  const { database, jobs } = options;
  const settings = { schema: "pgboss", supervise: options.work, schedule: options.work };
  const boss =
    database.mode === "pglite"
      ? new PgBoss({ db: fromPglite(database.pglite as never), backend: "pglite", ...settings })
      : new PgBoss({ connectionString: database.url, max: 3, ...settings });
  boss.on("error", (error) => logger().error({ err: error }, "job queue error"));
  await boss.start();

  const byName = new Map<string, JobDefinition>();
  for (const job of jobs) {
    if (byName.has(job.name)) throw new Error(`two job definitions named ${job.name}`);
    byName.set(job.name, job);
    await boss.createQueue(job.name, { retryLimit: job.retryLimit ?? 3, retryDelay: 5, retryBackoff: true });
  }
  // Sending inside a transaction must not look a queue up outside it (on PGlite that would wait for
  // the transaction's own lock): fill pg-boss's queue cache now that every queue exists.
  for (const job of jobs) await warmQueueCache(boss, job.name);

  if (options.work) {
    const pollingIntervalSeconds = options.pollingIntervalSeconds ?? 2;
    for (const job of jobs) {
      await boss.work(job.name, { pollingIntervalSeconds }, async (batch) => {
        for (const item of batch) {
          const payload = job.payload.parse(item.data);
          await job.handler(payload, { id: item.id, services: options.services });
        }
      });
    }
  }

  return {
    boss,
    async send(job, payload, sendOptions = {}) {
      if (!byName.has(job.name)) throw new Error(`job ${job.name} is not in the registry`);
      const data = job.payload.parse(payload) as object;
      const id = await boss.send(job.name, data, {
        ...(sendOptions.db ? { db: transactionAdapter(sendOptions.db) } : {}),
        ...(sendOptions.startAfterSeconds ? { startAfter: sendOptions.startAfterSeconds } : {}),
      });
      if (!id) throw new Error(`job ${job.name} was not queued`);
      return id;
    },
    async stop() {
      await boss.stop({ graceful: true, timeout: 10_000, close: database.mode === "postgres" });
    },
  };
}

/** pg-boss caches a queue on its first look-up; a read-only search by an id that cannot exist does one. */
async function warmQueueCache(boss: PgBoss, name: string) {
  await boss.findJobs(name, { id: "00000000-0000-0000-0000-000000000000" });
}

/** pg-boss's `db` option over a drizzle connection or transaction: its SQL with `$n` parameters. */
function transactionAdapter(db: Db) {
  return {
    async executeSql(text: string, values: unknown[] = []) {
      const result = (await db.execute(positional(text, values))) as unknown as { rows: unknown[] };
      return { rows: result.rows };
    },
  };
}

/** `select $1::jsonb` with values → a drizzle SQL with those values bound as parameters. */
export function positional(text: string, values: unknown[]): SQL {
  const parts = text.split(/\$(\d+)/);
  const chunks: SQL[] = parts.map((part, i) => (i % 2 === 0 ? sql.raw(part) : sql`${values[Number(part) - 1]}`));
  return sql.join(chunks, sql.raw(""));
}
