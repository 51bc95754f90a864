import { personActor } from "../app/core/actor";
import { expect } from "vitest";
import type { ServiceContext } from "../app/core/context.server";
import type { Db } from "../app/db/client.server";
import { Role } from "../app/db/enums";
import type { Entity, User } from "../app/db/schema";
import { ValidationError } from "../app/lib/errors";
import type { ListQuery } from "../app/lib/list-query";
import { createEntity, createUser, linkToEveryFacility } from "./factories";

/**
 * What the service and query tests (`app/modules/<area>/*.server.test.ts`) share besides a database
 * (tests/test-db.ts) and the queue, events and files (tests/test-context.ts): contexts for a user,
 * list queries, a fresh entity, and the checks of rejected verbs.
 */

/** The context of `user` acting in their own entity, in English, in Brussels time (the entities' default); `extra` adds or overrides (files, locale, timeZone...). */
export function actorContext<E extends Partial<ServiceContext> = object>(
  db: Db,
  user: Pick<User, "id" | "role" | "entityId">,
  extra?: E,
): ServiceContext & E {
  return { db, entityId: user.entityId, actor: personActor(user), locale: "en", timeZone: "Europe/Brussels", ...(extra as E) };
}

/** A list query as the list pages parse it: first page, every row, ascending, no search. */
export function listQuery<S extends string>(sort: S, overrides: Partial<ListQuery<S>> = {}): ListQuery<S> {
  return { page: 1, size: 100, sort, dir: "asc", q: "", ...overrides };
}

/** A new entity with a facility manager, so that a list holds exactly the rows a test makes. */
export async function entityWithManager(db: Db, name?: string): Promise<{ entity: Entity; manager: User; ctx: ServiceContext }> {
  const entity = await createEntity(db, name ? { name } : {});
  const manager = await createUser(db, { entityId: entity.id, role: Role.FACILITY_MANAGER });
  return { entity, manager, ctx: actorContext(db, manager) };
}

/**
 * Puts every facility of the context's entity made so far within its actor's reach (a facility
 * manager reaches only linked facilities, decision 022). For tests whose subject is not reach.
 */
export async function reachAll(ctx: ServiceContext): Promise<void> {
  if (ctx.actor?.id == null) throw new Error("reachAll needs a person");
  await linkToEveryFacility(ctx.db, { id: ctx.actor.id, entityId: ctx.entityId });
}

/** The error a promise rejects with; fails the test when it resolves. */
export async function rejectionOf<E = unknown>(promise: Promise<unknown>): Promise<E> {
  return promise.then(
    (value) => {
      throw new Error(`expected a rejection, got ${JSON.stringify(value)}`);
    },
    (error: unknown) => error as E,
  );
}

/** The field errors of a verb rejected with a ValidationError (fails on any other outcome). */
export async function fieldErrorsOf(promise: Promise<unknown>): Promise<Record<string, string[]>> {
  const error = await rejectionOf(promise);
  expect(error).toBeInstanceOf(ValidationError);
  return (error as ValidationError).fieldErrors ?? {};
}

/** Expects a ValidationError naming `key` (an i18n key) for `field`. */
export async function expectFieldError(promise: Promise<unknown>, field: string, key: string) {
  const fieldErrors = await fieldErrorsOf(promise);
  expect(fieldErrors[field] ?? [], JSON.stringify(fieldErrors)).toContain(key);
}
