import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { type Actor, personActor } from "../app/core/actor";
import { type ContextServices, type ServiceContext } from "../app/core/context.server";
import { createEventBus, type EventBus, type LiveEvent } from "../app/core/events.server";
import type { JobDefinition, MailSender } from "../app/core/jobs.server";
import { asc, eq } from "drizzle-orm";
import { afterAll, beforeAll } from "vitest";
import { type MailPayload, sendEmailJob } from "../app/mail/jobs.server";
import type { Database, Db } from "../app/db/client.server";
import { type Entity, jobQueue, type User } from "../app/db/schema";
import { Role } from "../app/db/enums";
import { createEntity, createUser } from "../app/seed/factories";
import { createStaff, type Staff } from "./factories/staff";
import { type StartedQueue, startQueue } from "../app/jobs/queue.server";
import { createChangeDispatcher } from "../app/jobs/changes.server";
import { changeHandlers, jobs } from "../app/jobs/registry.server";
import type { FilesContext } from "../app/modules/files/uploads.server";
import { createTestDatabase } from "./test-db";

/**
 * One place for what service tests need besides a database (tests/test-db.ts): the real job queue on
 * the test database (jobs are written in the verb's transaction, so a test reads them back from the
 * job_queue table, and `queue.drain()` runs the due ones), a live-event bus that records what it published, a file store in a temporary folder, and
 * contexts for an actor of an entity.
 */
export interface TestServices {
  database: Database;
  queue: StartedQueue;
  events: EventBus & { published: LiveEvent[] };
  files: { root: string; maxBytes: number };
  /** The jobs of a definition written so far (committed only), oldest first. */
  queued<J extends JobDefinition>(job: J): Promise<Array<{ id: string; data: ReturnType<J["payload"]["parse"]> }>>;
  /** The mails queued so far (send-email jobs committed to the queue table), oldest first. */
  mails(): Promise<MailPayload[]>;
  /** Removes every queued job (between tests). */
  clearJobs(): Promise<void>;
  /** A context of `actor` (a person given as `{ id, role }`, any Actor, or null: nobody) acting for `entityId`, in Brussels time (the entities' default) unless overridden. */
  ctx(entityId: number, actor: Actor | { id: number; role: number } | null, overrides?: Partial<ServiceContext>): FilesContext;
  close(): Promise<void>;
}

export async function createTestServices(
  database: Database,
  options: { work?: boolean; mailer?: MailSender; pollingIntervalSeconds?: number } = {},
): Promise<TestServices> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "caretaker-files-"));
  const files = { root, maxBytes: 1024 * 1024 };
  const bus = createEventBus();
  const published: LiveEvent[] = [];
  const events = { ...bus, published, publish: (event: LiveEvent) => (published.push(event), bus.publish(event)) };
  const mailer = options.mailer ?? { send: async () => undefined };
  const jobServices: ContextServices & { mailer: MailSender } = { db: database.db, files, events, queue: null, mailer };
  const queue = await startQueue({
    database,
    jobs,
    work: options.work ?? false,
    pollingIntervalSeconds: options.pollingIntervalSeconds ?? 0.5,
    changes: createChangeDispatcher({ db: database.db, handlers: changeHandlers, services: jobServices }),
    services: jobServices,
  });
  jobServices.queue = queue; // handlers enqueue too (as in app/runtime.server.ts)
  const queued: TestServices["queued"] = async (job) => {
    const found = await database.db.select().from(jobQueue).where(eq(jobQueue.name, job.name)).orderBy(asc(jobQueue.id));
    return found.map((j) => ({ id: String(j.id), data: j.payload as never }));
  };
  return {
    database,
    queue,
    events,
    files,
    queued,
    async mails() {
      return (await queued(sendEmailJob)).map((j) => j.data);
    },
    async clearJobs() {
      await database.db.delete(jobQueue);
    },
    ctx(entityId, actor, overrides = {}) {
      const who = actor && !("kind" in actor) ? personActor(actor) : actor;
      return { db: database.db, entityId, actor: who, locale: "en", timeZone: "Europe/Brussels", files, queue, events, ...overrides };
    },
    async close() {
      await queue.stop();
      fs.rmSync(root, { recursive: true, force: true });
    },
  };
}

/** A test file's database, and its services when asked for; read once the file's hooks have run. */
export interface TestDatabaseHandle {
  readonly database: Database;
  readonly db: Db;
  /** Only with `setupTestDatabase({ services: true })`. */
  readonly services: TestServices;
}

/**
 * Opens a fresh test database (tests/test-db.ts) in a beforeAll, with `services: true` also the queue,
 * events and files on it (createTestServices), and closes them in an afterAll. Call it at the top of a
 * test file, before the file's own beforeAll, which then finds the database open.
 */
export function setupTestDatabase(options: { services?: boolean } = {}): TestDatabaseHandle {
  let database: Database | undefined;
  let services: TestServices | undefined;
  beforeAll(async () => {
    database = await createTestDatabase();
    if (options.services) services = await createTestServices(database);
  });
  afterAll(async () => {
    await services?.close();
    await database?.close();
  });
  const opened = <T>(value: T | undefined, what: string): T => {
    if (value === undefined) throw new Error(`setupTestDatabase: no ${what} (${options.services || what === "database" ? "read before its beforeAll ran" : "pass { services: true }"})`);
    return value;
  };
  return {
    get database() {
      return opened(database, "database");
    },
    get db() {
      return opened(database, "database").db;
    },
    get services() {
      return opened(services, "services");
    },
  };
}

/** Two entities, the staff of the first and the administrator of the second (`setupTwoEntities`). */
export interface TwoEntities extends Staff {
  entity: Entity;
  /** Another entity, whose data the first one's people never see. */
  other: Entity;
  otherAdmin: User;
}

/**
 * Makes, in a beforeAll after the database's (call it at the top of the file, after
 * `setupTestDatabase`): an entity with an administrator, a facility manager and a technician (createStaff,
 * nobody linked to a facility), and another entity with an administrator. Read once the hooks have run.
 */
export function setupTwoEntities(handle: TestDatabaseHandle): TwoEntities {
  let made: TwoEntities | undefined;
  beforeAll(async () => {
    const entity = await createEntity(handle.db);
    const other = await createEntity(handle.db);
    const staff = await createStaff(handle.db, entity.id);
    const otherAdmin = await createUser(handle.db, { entityId: other.id, role: Role.ADMINISTRATOR });
    made = { entity, other, ...staff, otherAdmin };
  });
  const read = <K extends keyof TwoEntities>(key: K): TwoEntities[K] => {
    if (!made) throw new Error(`setupTwoEntities: ${key} read before its beforeAll ran`);
    return made[key];
  };
  const view = {} as TwoEntities;
  for (const key of ["entity", "other", "admin", "manager", "technician", "otherAdmin"] as const) Object.defineProperty(view, key, { get: () => read(key), enumerable: true });
  return view;
}
