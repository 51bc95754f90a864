import { type SQL, sql } from "drizzle-orm";
import type { z } from "zod";
import type { ChangeActorRecord } from "~/db/schema";
import { type Actor, describeActor } from "./actor";
import type { ServiceContext } from "./context.server";
import type { Effects } from "./unit-of-work.server";

/**
 * Change events (decision 048): what a verb changed that other parts of the app care about, as typed
 * rows of the `change_events` outbox written in the verb's own transaction.
 *
 *   export const incidentStatusChanged = defineChange({
 *     type: "incident.status-changed",
 *     payload: z.object({ incidentId: z.number(), from: z.number(), to: z.number() }),
 *     subject: (p) => p.incidentId,
 *   });
 *   ...
 *   await effects.emit(incidentStatusChanged, { incidentId, from, to });
 *
 * A change says what happened, not what to do about it. What follows from it (notifications, live
 * events, reporters' mails, later webhooks) is the business of change handlers (`defineChangeHandler`),
 * listed in app/jobs/registry.server.ts and run by one dispatcher (app/jobs/changes.server.ts), once per
 * change, in a transaction of their own that also marks the change dispatched. A rolled-back verb
 * emits nothing.
 */
export interface ChangeDefinition<S extends z.ZodType = z.ZodType> {
  /** "<area>.<what-happened>", kebab-case, past tense: stored on each row. */
  type: string;
  payload: S;
  /** The record the change is about (stored as `subject_id`): an incident's id. */
  subject?: (payload: z.output<S>) => number | null;
  /**
   * Offered to webhook endpoints as an event of this type. The webhook form lists these types from
   * `WEBHOOK_EVENTS` (webhooks/events.ts, zod- and server-free); a test holds the two lists equal.
   */
  webhook?: true;
}

export function defineChange<S extends z.ZodType>(definition: ChangeDefinition<S>): ChangeDefinition<S> {
  return definition;
}

/** A change as the dispatcher hands it to handlers. */
export interface StoredChange {
  id: number;
  entityId: number;
  type: string;
  subjectId: number | null;
  actor: ChangeActorRecord;
  payload: unknown;
  requestId: string | null;
  createdAt: Date;
}

/** The payload of a change of `definition`'s type, parsed by its schema (it throws for another type). */
export function changeOf<S extends z.ZodType>(definition: ChangeDefinition<S>, change: StoredChange): z.output<S> {
  if (change.type !== definition.type) throw new Error(`change ${change.id} is ${change.type}, not ${definition.type}`);
  return definition.payload.parse(change.payload);
}

/**
 * What follows from changes: a handler runs for every dispatched change of its `types` (all when
 * absent), inside the dispatch transaction of that change, with a system context of the change's entity
 * (`ctx.db` is the transaction) and its effects: rows it writes, jobs it enqueues, and live events it
 * publishes (after commit) happen once per change, or not at all if any handler of the change fails
 * (then the whole change is tried again later).
 */
export interface ChangeHandler {
  name: string;
  types?: readonly string[];
  handle(ctx: ServiceContext, change: StoredChange, effects: Effects): Promise<void>;
}

export function defineChangeHandler(handler: ChangeHandler): ChangeHandler {
  return handler;
}

/** The actor as the change row records it (ids only, no names). */
export function changeActor(actor: Actor | null | undefined): ChangeActorRecord {
  return describeActor(actor);
}

/** The values of one change row (validated by its definition). */
export function changeRow<S extends z.ZodType>(
  host: { entityId?: number; actor?: Actor | null; requestId?: string },
  definition: ChangeDefinition<S>,
  payload: z.input<S>,
) {
  if (host.entityId === undefined) throw new Error(`change ${definition.type}: no entity`);
  const data = definition.payload.parse(payload) as z.output<S>;
  return {
    entityId: host.entityId,
    type: definition.type,
    subjectId: definition.subject?.(data) ?? null,
    actor: changeActor(host.actor),
    payload: data as Record<string, unknown>,
    requestId: host.requestId ?? null,
  };
}

/**
 * The insert of one change per row of `rows` (a select yielding `subject_id` and a jsonb `payload`), for
 * verbs that change many records in one statement (archiving a facility rejects its open incidents).
 * Usable as a statement of its own or as a member of a `with` clause. The payload is built in SQL, so
 * the dispatcher's parse is what checks it; its test must cover it.
 */
export function changeInsertSql(host: { entityId?: number; actor?: Actor | null; requestId?: string }, definition: ChangeDefinition, rows: SQL): SQL {
  if (host.entityId === undefined) throw new Error(`change ${definition.type}: no entity`);
  return sql`insert into change_events (entity_id, type, subject_id, actor, payload, request_id)
    select ${host.entityId}, ${definition.type}, r.subject_id, ${JSON.stringify(changeActor(host.actor))}::jsonb, r.payload, ${host.requestId ?? null}::text
    from (${rows}) r`;
}
