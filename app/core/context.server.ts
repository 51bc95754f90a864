import { eq } from "drizzle-orm";
import type { OfflineWrite } from "./offline-writes.server";
import type { Db } from "~/db/client.server";
import { entities } from "~/db/schema";
import { DEFAULT_TIME_ZONE } from "~/lib/dates";
import { type Actor, personActor, systemActor } from "./actor";
import type { EventBus } from "./events.server";
import type { JobQueue } from "./jobs.server";
import type { UnitOfWork } from "./unit-of-work.server";

export type { Actor } from "./actor";

/**
 * A machine translation service (LibreTranslate-compatible, `TRANSLATE_URL`). It throws when the
 * service fails or times out; callers keep what the user typed.
 */
export interface Translator {
  translate(text: string, from: string, to: string): Promise<string>;
}

/** Where uploaded files live and how large one may be. */
export interface FileStore {
  /** Absolute folder holding the files. */
  root: string;
  /** Largest accepted upload, in bytes. */
  maxBytes: number;
}

/**
 * What every service verb takes first: the database (or, inside a unit of work, its transaction),
 * the tenant, the acting user and the language, plus the process services a verb's side effects
 * need. Services filter every read and write by `entityId`.
 *
 * Build it with `serviceContext` (app/http) in a request, `systemContext` below in a job or the seed,
 * never by hand in production code; tests build it with `testContext`.
 */
export interface ServiceContext {
  db: Db;
  entityId: number;
  /**
   * Who acts (core/actor.ts): a person, an API token or the system (a job, the seed); null for nobody, a
   * visitor of a public page.
   */
  actor: Actor | null;
  locale: string;
  /** The entity's IANA time zone (`entities.time_zone`), read once per request or job: every date follows it. */
  timeZone: string;
  /** The request's id (access log), recorded in the audit trail. */
  requestId?: string;
  /** The file store, for verbs that take uploads. */
  files?: FileStore;
  /** The job queue, for verbs that enqueue jobs (inside their transaction). */
  queue?: JobQueue | null;
  /** Live events (server-sent events), published after commit. */
  events?: EventBus | null;
  /** Set inside a unit of work: nested verbs join its transaction and its effects. */
  uow?: UnitOfWork;
  /** The app's public address (APP_URL), for links in emails. */
  appUrl?: string;
  /** Machine translation, when a service is configured (`TRANSLATE_URL`); null or missing otherwise. */
  translator?: Translator | null;
  /** A post the service worker sends again (issue 64): its first unit of work records it, once. */
  offlineWrite?: OfflineWrite | null;
}

/** The process services a context is built from (the runtime's, or a test's). */
export type ContextServices = Pick<ServiceContext, "db" | "files" | "queue" | "events" | "appUrl" | "translator">;

/** The context of the system acting for an entity: a background job or schedule named `name`, the seed. */
export function systemContext(services: ContextServices, entityId: number, name: string, options: { locale?: string; timeZone?: string } = {}): ServiceContext {
  return { ...services, entityId, actor: systemActor(name), locale: options.locale ?? "en", timeZone: options.timeZone ?? DEFAULT_TIME_ZONE };
}

/** `systemContext` with the entity's own time zone, read once (a job's handler). */
export async function entitySystemContext(services: ContextServices, entityId: number, name: string, locale = "en"): Promise<ServiceContext> {
  const [row] = await services.db.select({ timeZone: entities.timeZone }).from(entities).where(eq(entities.id, entityId)).limit(1);
  return systemContext(services, entityId, name, { locale, timeZone: row?.timeZone ?? DEFAULT_TIME_ZONE });
}

/** The context of a signed-in user acting for their entity. */
export function userContext(
  services: ContextServices,
  user: { id: number; role: number; entityId: number; timeZone: string },
  options: { locale: string; requestId?: string },
): ServiceContext {
  return { ...services, entityId: user.entityId, actor: personActor(user), timeZone: user.timeZone, ...options };
}

/**
 * Runs reads side by side on a pool (`db` outside a unit of work), one after the other inside a unit of
 * work: a transaction holds one connection, which runs one query at a time (node-postgres warns, and
 * its next major version refuses, overlapping queries on one client).
 */
export async function readAll<T extends readonly unknown[]>(
  ctx: Pick<ServiceContext, "uow">,
  reads: { [K in keyof T]: () => Promise<T[K]> },
): Promise<T> {
  if (!ctx.uow) return (await Promise.all(reads.map((read) => read()))) as unknown as T;
  const results: unknown[] = [];
  for (const read of reads) results.push(await read());
  return results as unknown as T;
}
