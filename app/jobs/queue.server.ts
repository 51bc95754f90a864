import { PgBoss, fromPglite } from "pg-boss";
import type { Database } from "~/db/client.server";
import type { Mail, Mailer } from "~/mail/mailer.server";
import { logger } from "~/lib/logger.server";

/**
 * The background queue: pg-boss on the same database, in both modes (PGlite through pg-boss's
 * adapter, PostgreSQL through its own pool). Every queue the app uses is declared here with its
 * worker; later areas (imports, exports, notifications, task generation) add theirs.
 */
export const Queues = {
  sendEmail: "send-email",
} as const;
export type QueueName = (typeof Queues)[keyof typeof Queues];

export interface JobPayloads {
  "send-email": Mail;
}

export interface QueueDeps {
  database: Database;
  mailer: Mailer;
  /** Poll interval of the workers; short in tests. */
  pollingIntervalSeconds?: number;
}

export interface JobQueue {
  boss: PgBoss;
  send<N extends QueueName>(name: N, data: JobPayloads[N]): Promise<string>;
  stop(): Promise<void>;
}

export async function startQueue(deps: QueueDeps): Promise<JobQueue> {
  const { database } = deps;
  const boss =
    database.mode === "pglite"
      ? new PgBoss({ db: fromPglite(database.pglite as never), backend: "pglite", schema: "pgboss" })
      : new PgBoss({ connectionString: database.url, max: 3, schema: "pgboss" });
  boss.on("error", (error) => logger().error({ err: error }, "job queue error"));
  await boss.start();

  for (const name of Object.values(Queues)) {
    await boss.createQueue(name, { retryLimit: 3, retryDelay: 5, retryBackoff: true });
  }

  const pollingIntervalSeconds = deps.pollingIntervalSeconds ?? 2;
  await boss.work<Mail>(Queues.sendEmail, { pollingIntervalSeconds }, async (jobs) => {
    for (const job of jobs) {
      await deps.mailer.send(job.data);
    }
  });

  return {
    boss,
    async send(name, data) {
      const id = await boss.send(name, data as object);
      if (!id) throw new Error(`job ${name} was not queued`);
      return id;
    },
    async stop() {
      await boss.stop({ graceful: true, timeout: 10_000, close: database.mode === "postgres" });
    },
  };
}
