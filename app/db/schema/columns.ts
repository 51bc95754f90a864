/**
 * Shared column builders and SQL snippets for the schema files.
 * Not re-exported from `./index.ts`: it holds no tables.
 *
 * Everything here is a hoisted `function` declaration and touches other schema
 * modules only inside lazy `references(() => ...)` callbacks, so the import
 * cycles between schema files (entities <-> files <-> users ...) are safe
 * whichever file is imported first.
 */
import { type SQL, sql } from "drizzle-orm";
import { type AnyPgColumn, integer, text, timestamp } from "drizzle-orm/pg-core";
import { entities } from "./entities";

/** `timestamp with time zone`, read as a JS Date. */
export function timestamptz(name: string) {
  return timestamp(name, { withTimezone: true, mode: "date" });
}

/** Integer identity primary key (`id integer generated always as identity`). */
export function id() {
  return integer("id").primaryKey().generatedAlwaysAsIdentity();
}

/** Tenant column: `entity_id integer not null references entities(id)`. Index it in the table's extra config. */
export function entityId() {
  return integer("entity_id")
    .notNull()
    .references((): AnyPgColumn => entities.id);
}

export function createdAt() {
  return timestamptz("created_at").defaultNow().notNull();
}
/** Set by the service on every edit (`updatedAt: new Date()`); defaults to the insert time. */
export function updatedAt() {
  return timestamptz("updated_at").defaultNow().notNull();
}
/** Soft archive: lists filter `archived_at is null`. */
export function archivedAt() {
  return timestamptz("archived_at");
}

/**
 * A count kept by the services in the same transaction as the rows it counts
 * (app/modules/facilities/counters.server.ts, decision 017): `integer not null default 0`.
 */
export function counter(name: string) {
  return integer(name).notNull().default(0);
}

/** `text[] not null default '{}'` tag list. */
export function tags() {
  return text("tags")
    .array()
    .notNull()
    .default(sql`'{}'::text[]`);
}

/** The eight address columns of SPEC.md section 3 (entity address, building address). */
export function addressColumns() {
  return {
    streetName: text("street_name"),
    streetNumber: text("street_number"),
    suffix: text("suffix"),
    /** "building/stairs/floor" */
    buildingFloor: text("building_floor"),
    additionalInfo: text("additional_info"),
    postalCode: text("postal_code"),
    city: text("city"),
    country: text("country"),
  };
}

/** `col in (v1, v2, ...)` for CHECK constraints, with the values inlined (DDL takes no parameters). */
export function inValues(col: AnyPgColumn, values: readonly number[]): SQL {
  return sql`${col} in (${sql.raw(values.join(", "))})`;
}

/** Partial-index predicate for list indexes. */
export function notArchived(col: AnyPgColumn): SQL {
  return sql`${col} is null`;
}
