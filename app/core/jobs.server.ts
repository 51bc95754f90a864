import type { z } from "zod";
import type { Db } from "~/db/client.server";
import type { ContextServices } from "./context.server";

/**
 * Typed background jobs. A definition names its queue, validates its payload with zod (when it is
 * enqueued and again when it runs) and handles it by calling service verbs with a system context
 * (`entitySystemContext(job.services, entityId, locale)`, in the entity's time zone). Definitions live beside their area
 * (`modules/<area>/jobs.server.ts`, `mail/jobs.server.ts`); `app/jobs/registry.server.ts` lists them
 * all for the workers. Verbs enqueue through their unit of work (`effects.enqueue`), so a job is
 * written in the verb's transaction and exists only if it commits.
 */
export interface JobDefinition<S extends z.ZodType = z.ZodType> {
  /** The queue name (kebab-case), stored on each job row. */
  name: string;
  payload: S;
  /** Retries after a failure (default 3, with backoff). */
  retryLimit?: number;
  handler(payload: z.output<S>, job: JobRun): Promise<void>;
}

/** What a running job gets: the process services, to build a system context and call verbs. */
export interface JobRun {
  id: string;
  /** This run's attempt (1 for the first) and the most the queue makes: a handler may act on its last. */
  attempt?: number;
  maxAttempts?: number;
  services: ContextServices & { mailer: MailSender };
}

export interface MailSender {
  send(mail: { to: string; subject: string; text: string; html?: string }): Promise<unknown>;
}

export function defineJob<S extends z.ZodType>(definition: JobDefinition<S>): JobDefinition<S> {
  return definition;
}

/**
 * The queue as verbs see it. `send` with `db` writes the job through that connection (a transaction),
 * so it is committed or rolled back with it.
 */
export interface JobQueue {
  send<S extends z.ZodType>(job: JobDefinition<S>, payload: z.input<S>, options?: { db?: Db; startAfterSeconds?: number }): Promise<string>;
  /**
   * Tells this process's workers that a job is due now (after the transaction that wrote it commits), so
   * it runs at once rather than at the next poll; the poll still finds jobs written elsewhere.
   */
  wake?(): void;
  stop(): Promise<void>;
}
