import { PGlite } from "@electric-sql/pglite";
import { eq, sql } from "drizzle-orm";
import { integer, jsonb, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { drizzle } from "drizzle-orm/pglite";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { PgliteStatements } from "~/db/pglite-statements.server";

// The embedded database's Drizzle client with named prepared statements (decision 035) must answer
// exactly what PGlite's own `query` answers: rows, types, errors and transactions.

const things = pgTable("things", {
  id: integer("id").primaryKey(),
  name: text("name").notNull(),
  tags: text("tags").array(),
  data: jsonb("data"),
  at: timestamp("at", { withTimezone: true }),
});

let pglite: PGlite;

beforeAll(async () => {
  pglite = new PGlite();
  await pglite.exec(`
    create table things (id integer primary key, name text not null unique, tags text[], data jsonb, at timestamptz);
    insert into things values (1, 'one', '{a,b}', '{"x": 1}', '2026-03-29 01:30:00+00'), (2, 'two', null, null, null);
  `);
}, 60_000);

afterAll(async () => {
  await pglite.close();
});

const queries: Array<[string, unknown[]]> = [
  ["select * from things order by id", []],
  ["select * from things where id = $1", [1]],
  ["select name, tags, data, at from things where name = any($1) order by id", [["one", "two"]]],
  ["select $1::int + $2::int as sum, $3::text as t, $4::jsonb as j", [2, 3, null, { a: [1, "b"] }]],
  ["select * from things where at > $1", [new Date("2026-01-01T00:00:00Z")]],
  ["with x as (select count(*)::int as n from things) select n from x", []],
];

describe("PgliteStatements", () => {
  it("answers what PGlite's query answers, in both row modes, the first and the later times", async () => {
    const statements = new PgliteStatements(pglite);
    for (const rowMode of ["object", "array"] as const) {
      for (const [text, params] of queries) {
        const expected = await pglite.query(text, params, { rowMode });
        for (let round = 0; round < 3; round++) {
          const actual = await statements.query(text, params, { rowMode });
          expect(actual.rows, text).toEqual(expected.rows);
          expect(actual.fields, text).toEqual(expected.fields);
          expect(actual.affectedRows ?? 0).toBe(expected.affectedRows ?? 0);
        }
      }
    }
    expect(statements.size).toBe(queries.length);
  });

  it("makes one trip into PostgreSQL per call once a text is prepared", async () => {
    const statements = new PgliteStatements(pglite);
    const trips = vi.spyOn(pglite, "execProtocolRawSync");
    await statements.query("select name from things where id = $1", [2]);
    const first = trips.mock.calls.length;
    const { rows } = await statements.query("select name from things where id = $1", [1]);
    expect(rows).toEqual([{ name: "one" }]);
    expect(trips.mock.calls.length - first).toBe(1);
    trips.mockRestore();
  });

  it("reads rows with NULLs, empty and non-ASCII text, and many rows, as PGlite does", async () => {
    const statements = new PgliteStatements(pglite);
    const text = "select n, case when n % 3 = 0 then null when n % 3 = 1 then '' else 'é ' || repeat('ß', n) || ' 🏢' end as s from generate_series(1, $1::int) as n";
    for (const rowMode of ["object", "array"] as const) {
      const expected = await pglite.query(text, [300], { rowMode });
      const actual = await statements.query(text, [300], { rowMode });
      expect(actual.rows).toEqual(expected.rows);
      expect(actual.rows).toHaveLength(300);
    }
  });

  it("answers a statement that also sends a notice, through PGlite's parser", async () => {
    await pglite.exec("create or replace function noisy(x int) returns int language plpgsql as $$ begin raise notice 'noisy %', x; return x * 2; end $$");
    const statements = new PgliteStatements(pglite);
    for (let round = 0; round < 2; round++) {
      const { rows } = await statements.query<{ doubled: number }>("select noisy($1) as doubled", [21]);
      expect(rows).toEqual([{ doubled: 42 }]);
    }
  });

  it("serves Drizzle: selects, writes with returning and transactions, and a rollback keeps nothing", async () => {
    const db = drizzle({ client: new PgliteStatements(pglite) as unknown as PGlite });
    const rows = await db.select({ id: things.id, name: things.name, at: things.at }).from(things).where(eq(things.id, 1));
    expect(rows).toEqual([{ id: 1, name: "one", at: new Date("2026-03-29T01:30:00Z") }]);

    const inserted = await db.insert(things).values({ id: 3, name: "three", data: { k: "v" } }).returning();
    expect(inserted[0]).toMatchObject({ id: 3, name: "three", data: { k: "v" }, tags: null });

    await expect(
      db.transaction(async (tx) => {
        await tx.update(things).set({ name: "renamed" }).where(eq(things.id, 3));
        expect((await tx.select().from(things).where(eq(things.id, 3)))[0].name).toBe("renamed");
        throw new Error("roll back");
      }),
    ).rejects.toThrow("roll back");
    expect((await db.select().from(things).where(eq(things.id, 3)))[0].name).toBe("three");

    const count = await db.transaction(async (tx) => {
      await tx.delete(things).where(eq(things.id, 3));
      return (await tx.execute<{ n: number }>(sql`select count(*)::int as n from things`)).rows[0].n;
    });
    expect(count).toBe(2);
  });

  it("throws PGlite's database error with its SQLSTATE and the query, and goes on working", async () => {
    const statements = new PgliteStatements(pglite);
    const insert = "insert into things (id, name) values ($1, $2)";
    const error = await statements.query(insert, [9, "one"]).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "23505", query: insert, params: [9, "one"] });
    // the same text again, prepared, with values that fit
    await statements.query(insert, [9, "nine"]);
    expect((await statements.query("select name from things where id = $1", [9])).rows).toEqual([{ name: "nine" }]);
    await statements.query("delete from things where id = $1", [9]);

    // inside a transaction a failed statement aborts it, as it does with PGlite's own client
    await expect(
      statements.transaction(async (tx) => {
        await tx.query(insert, [10, "ten"]);
        await tx.query(insert, [11, "ten"]);
      }),
    ).rejects.toMatchObject({ code: "23505" });
    expect((await statements.query("select count(*)::int as n from things where id >= $1", [10])).rows).toEqual([{ n: 0 }]);
    // a syntax error is reported, and not kept
    await expect(statements.query("select nonsense from", [])).rejects.toMatchObject({ code: "42601" });
  });

  it("closes the least recently used statement beyond its limit and prepares it again when asked", async () => {
    const statements = new PgliteStatements(pglite, 2);
    for (const id of [1, 2]) await statements.query(`select ${id} as n, name from things where id = $1`, [id]);
    await statements.query("select 3 as n", []);
    expect(statements.size).toBe(2);
    const held = async (text: string) =>
      (await pglite.query<{ n: number }>("select count(*)::int as n from pg_prepared_statements where statement = $1", [text])).rows[0].n;
    const first = "select 1 as n, name from things where id = $1";
    // evicted by the third, and closed in that call's next trip
    expect(await held(first)).toBe(0);
    expect((await statements.query(first, [1])).rows).toEqual([{ n: 1, name: "one" }]);
    expect(statements.size).toBe(2);
    expect(await held(first)).toBe(1);
    expect(await held("select 2 as n, name from things where id = $1")).toBe(0);
    expect(await held("select 3 as n")).toBe(1);
  });

  it("prepares a statement again when the table's shape changed under it", async () => {
    const statements = new PgliteStatements(pglite);
    await pglite.exec("create table shapes (id integer primary key); insert into shapes values (1)");
    expect((await statements.query("select * from shapes", [])).rows).toEqual([{ id: 1 }]);
    await pglite.exec("alter table shapes add column label text default 'x'");
    expect((await statements.query("select * from shapes", [])).rows).toEqual([{ id: 1, label: "x" }]);
  });

  it("sends what it does not keep (DDL, SET) through PGlite's own query", async () => {
    const statements = new PgliteStatements(pglite);
    await statements.query("create table if not exists plain (id integer)", []);
    await statements.query("set application_name = 'caretaker-test'", []);
    expect(statements.size).toBe(0);
    expect((await statements.query("show application_name", [])).rows).toEqual([{ application_name: "caretaker-test" }]);
  });
});
