import { type SQL, sql } from "drizzle-orm";
import type { z } from "zod";
import type { Db } from "~/db/client.server";
import { auditLog, changeEvents } from "~/db/schema";
import type { AuditAction } from "./audit-actions";
import { logger } from "~/lib/logger.server";
import { noteCommittedWrite } from "./kept-answers.server";
import { recordOfflineWrite } from "./offline-writes.server";
import type { ServiceContext } from "./context.server";

/**
 * What a unit of work runs on: a service context, or (public flows such as sign-up and password
 * reset, before anyone is signed in) the same services without a user.
 */
export type UowHost = Pick<ServiceContext, "db" | "queue" | "events" | "uow" | "requestId" | "offlineWrite"> &
  Partial<Pick<ServiceContext, "entityId" | "actor">>;
import { type ChangeDefinition, changeInsertSql, changeRow } from "./changes.server";
import type { LiveEvent } from "./events.server";
import type { JobDefinition } from "./jobs.server";

/**
 * The unit of work: one transaction per verb, and every side effect tied to its outcome.
 *
 *   return withTx(ctx, async (tx, effects) => {
 *     ... reads and writes through tx.db ...
 *     await effects.audit({ action: AUDIT.facility.archive, recordType: "facility", recordId: id });
 *     await effects.emit(incidentStatusChanged, { ... });  // a change event, in the transaction
 *     await effects.enqueue(sendEmailJob, mail);          // written in the transaction
 *     effects.publish({ entityId, type: "incident.created" }); // after commit
 *     effects.afterCommit(() => ...);                      // after commit, exactly once
 *   });
 *
 * - Change events (core/changes.server.ts) are rows of the outbox written inside the transaction; once it
 *   commits, the dispatcher turns each into notifications, live events and mails, exactly once.
 * - Audit rows and jobs are written inside the transaction (the job queue is a table of the same database), so a
 *   crash between commit and enqueue loses nothing, and a rolled-back verb leaves neither.
 * - Live events, after-commit callbacks and file retirement run once, after commit, in order; a
 *   failure there is logged and does not undo the committed work.
 * - Rollback callbacks (discarding the bytes of files stored in the transaction) run once if it rolls
 *   back; the error is rethrown.
 * - A verb called inside another verb's unit of work (its ctx carries `uow`) joins that transaction:
 *   its effects run when the outermost unit commits.
 */
export interface AuditEntry {
  /** `<area>.<verb>`, one of the constants of core/audit-actions.ts, e.g. `AUDIT.facility.archive`. */
  action: AuditAction;
  recordType: string;
  recordId: string | number;
  details?: Record<string, unknown>;
  /** The entity, when the host context has none yet (sign-up creates it). */
  entityId?: number;
}

export interface Effects {
  /** Runs `fn` after the transaction commits (never if it rolls back). */
  afterCommit(fn: () => unknown): void;
  /** Runs `fn` if the transaction rolls back. */
  onRollback(fn: () => unknown): void;
  /** Writes the job in the transaction; it runs only if the transaction commits. Returns its id. */
  enqueue<S extends z.ZodType>(job: JobDefinition<S>, payload: z.input<S>, options?: { startAfterSeconds?: number }): Promise<string>;
  /** Publishes a live event after commit. */
  publish(event: LiveEvent): void;
  /** Records who did what to which record, in the transaction. */
  audit(entry: AuditEntry): Promise<void>;
  /** Emits a change event: a row of the outbox, in the transaction (core/changes.server.ts). */
  emit<S extends z.ZodType>(change: ChangeDefinition<S>, payload: z.input<S>): Promise<void>;
  /** Emits one change per row of `rows` (a select of `subject_id` and a jsonb `payload`); returns how many. */
  emitEach(change: ChangeDefinition, rows: SQL): Promise<number>;
  /**
   * The insert of one change per row of `rows`, as SQL for a statement of the verb's own (a member of its
   * `with` clause), when the change must be written by the very statement that makes it.
   */
  changesSql(change: ChangeDefinition, rows: SQL): SQL;
}

export class UnitOfWork {
  private readonly committed: Array<() => unknown> = [];
  private readonly rolledBack: Array<() => unknown> = [];
  /** Whether change events were written: the dispatcher is woken after commit. */
  private emitted = false;
  readonly effects: Effects;

  /**
   * @param ctx the context bound to the transaction
   * @param outside the same context outside the transaction: what after-commit work must use
   */
  constructor(
    private readonly ctx: UowHost,
    readonly outside: UowHost,
  ) {
    this.effects = this.effectsFor(ctx);
  }

  /**
   * The effects as one verb sees them: a nested verb joining this unit records its audit rows with its
   * own entity, actor and request, and sends jobs with its own queue, in this transaction.
   */
  effectsFor(verbCtx: UowHost): Effects {
    return {
      afterCommit: (fn) => {
        this.committed.push(fn);
      },
      onRollback: (fn) => {
        this.rolledBack.push(fn);
      },
      enqueue: async (job, payload, options) => {
        const queue = verbCtx.queue ?? this.ctx.queue;
        if (!queue) throw new Error(`job ${job.name}: no job queue in this context`);
        const id = await queue.send(job, payload, { db: this.ctx.db, startAfterSeconds: options?.startAfterSeconds });
        // Due now: once committed, this process's workers run it at once (a notification within the second).
        if (!options?.startAfterSeconds && queue.wake) this.committed.push(() => queue.wake?.());
        return id;
      },
      publish: (event) => {
        const events = verbCtx.events ?? this.ctx.events;
        this.committed.push(() => events?.publish(event));
      },
      audit: async (entry) => {
        const entityId = entry.entityId ?? verbCtx.entityId;
        if (entityId === undefined) throw new Error(`audit ${entry.action}: no entity`);
        await this.ctx.db.insert(auditLog).values({
          entityId,
          actorId: verbCtx.actor?.id ?? null,
          actorTokenId: verbCtx.actor?.kind === "token" ? verbCtx.actor.tokenId : null,
          action: entry.action,
          recordType: entry.recordType,
          recordId: String(entry.recordId),
          requestId: verbCtx.requestId ?? null,
          details: entry.details ?? null,
        });
      },
      emit: async (change, payload) => {
        await this.ctx.db.insert(changeEvents).values(changeRow(verbCtx, change, payload));
        this.noteEmitted(verbCtx);
      },
      emitEach: async (change, rows) => {
        const result = await this.ctx.db.execute(sql`${changeInsertSql(verbCtx, change, rows)} returning id`);
        const count = (result as unknown as { rows?: unknown[] }).rows?.length ?? 0;
        if (count > 0) this.noteEmitted(verbCtx);
        return count;
      },
      changesSql: (change, rows) => {
        this.noteEmitted(verbCtx);
        return changeInsertSql(verbCtx, change, rows);
      },
    };
  }

  /** After commit, this process's dispatcher looks for the new changes at once (the poll finds others'). */
  private noteEmitted(verbCtx: UowHost) {
    if (this.emitted) return;
    this.emitted = true;
    const queue = verbCtx.queue ?? this.ctx.queue;
    if (queue?.wake) this.committed.push(() => queue.wake?.());
  }

  /** After commit: each callback once, in order; failures are logged, not thrown. */
  async commit(): Promise<void> {
    await this.runOnce(this.committed, "after-commit effect failed");
    this.rolledBack.length = 0;
  }

  async rollback(): Promise<void> {
    await this.runOnce(this.rolledBack, "rollback effect failed");
    this.committed.length = 0;
  }

  private async runOnce(queue: Array<() => unknown>, failure: string): Promise<void> {
    for (const fn of queue.splice(0)) {
      try {
        await fn();
      } catch (err) {
        logger().error({ err, requestId: this.ctx.requestId }, failure);
      }
    }
  }
}

/**
 * Runs `work` in one transaction with its effects (see above). `tx` is the context bound to the
 * transaction: pass it to every query and nested verb.
 */
export async function withTx<C extends UowHost, T>(ctx: C, work: (tx: C, effects: Effects) => Promise<T>): Promise<T> {
  if (ctx.uow) return work(ctx, ctx.uow.effectsFor(ctx));
  let uow: UnitOfWork | undefined;
  let result: T;
  try {
    result = await ctx.db.transaction(async (db) => {
      const tx = { ...ctx, db: db as unknown as Db } as C;
      // A post sent again by the service worker is applied once: its id is recorded with its work.
      const write = ctx.offlineWrite;
      if (write && !write.recorded) await recordOfflineWrite(tx.db, write);
      uow = new UnitOfWork(tx, ctx);
      tx.uow = uow;
      return work(tx, uow.effects);
    });
  } catch (error) {
    await uow?.rollback();
    throw error;
  }
  if (ctx.offlineWrite) ctx.offlineWrite.recorded = true;
  noteCommittedWrite(ctx.entityId);
  await uow?.commit();
  return result;
}

/** What a one-statement unit may do besides its statement (see withStatement). */
export type StatementEffects = Pick<Effects, "afterCommit" | "publish" | "changesSql">;

/**
 * A unit of work of one statement (decision 019). PostgreSQL runs a single statement atomically and
 * commits it by itself, so a verb whose whole write is one statement may skip BEGIN and COMMIT: two round
 * trips, and no lock held while the server waits for the next one. `work` must write with exactly one
 * statement through `ctx.db`; its effects are those that need no transaction (after-commit callbacks, live
 * events), run once the statement has returned, in order. Jobs and audit rows are written inside a
 * transaction: a verb that needs them uses withTx. Inside another unit of work it joins that transaction.
 *
 * `changesKeptAnswers: false` leaves the entity's kept answers as they are: only for a statement that
 * changes nothing any kept answer reads (decision 019: the report page and a sticker's place and type
 * lookups). A report folded into an open incident changes only that incident's occurrence count, last
 * occurrence and events, which none of them reads.
 */
export async function withStatement<C extends UowHost, T>(
  ctx: C,
  work: (ctx: C, effects: StatementEffects) => Promise<T>,
  options: { changesKeptAnswers?: boolean } = {},
): Promise<T> {
  if (ctx.uow) return work(ctx, ctx.uow.effectsFor(ctx));
  const uow = new UnitOfWork(ctx, ctx);
  let result: T;
  try {
    result = await work(ctx, { afterCommit: uow.effects.afterCommit, publish: uow.effects.publish, changesSql: uow.effects.changesSql });
  } catch (error) {
    await uow.rollback();
    throw error;
  }
  if (options.changesKeptAnswers !== false) noteCommittedWrite(ctx.entityId);
  await uow.commit();
  return result;
}
