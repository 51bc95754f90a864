import { PGlite } from "@electric-sql/pglite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { keepUpTables, scheduleUpkeep, type UpkeepResult, upkeepRound } from "~/db/upkeep.server";

// PGlite has no autovacuum (decision 019): the embedded database's tables are analysed and vacuumed by
// keepUpTables with autovacuum's thresholds, so the planner knows how many rows each table holds.

let pglite: PGlite;

async function plannerRows(table: string): Promise<number> {
  const result = await pglite.query<{ reltuples: number }>("select reltuples::float8 as reltuples from pg_class where relname = $1", [table]);
  return Number(result.rows[0].reltuples);
}

async function deadRows(table: string): Promise<number> {
  await pglite.query("select pg_stat_force_next_flush()");
  const result = await pglite.query<{ dead: string }>("select n_dead_tup as dead from pg_stat_user_tables where relname = $1", [table]);
  return Number(result.rows[0].dead);
}

beforeAll(async () => {
  pglite = new PGlite();
  await pglite.exec(`
    create table places (id serial primary key, name text not null);
    create table notes (id serial primary key, body text);
    insert into places (name) select 'place ' || n from generate_series(1, 200) as n;
  `);
}, 60_000);

afterAll(async () => {
  await pglite.close();
});

describe("keepUpTables", () => {
  it("analyses every table never analysed, then nothing until enough rows change", async () => {
    expect(await plannerRows("places")).toBe(-1);
    const first = await keepUpTables(pglite);
    expect(first.analyzed).toEqual(expect.arrayContaining(["public.notes", "public.places"]));
    expect(first.vacuumed).toEqual([]);
    expect(await plannerRows("places")).toBe(200);

    expect((await keepUpTables(pglite)).analyzed).toEqual([]);

    // 50 rows plus a tenth of 200: 70 changes are needed.
    await pglite.exec("insert into places (name) select 'more ' || n from generate_series(1, 40) as n");
    expect((await keepUpTables(pglite)).analyzed).toEqual([]);
    await pglite.exec("update places set name = name || '!' where id <= 40");
    expect((await keepUpTables(pglite)).analyzed).toEqual(["public.places"]);
    expect(await plannerRows("places")).toBe(240);
  });

  it("vacuums a table whose dead rows pass 50 plus a fifth of its rows", async () => {
    await pglite.exec("delete from places where id > 150");
    // The 90 deleted rows and the 40 old versions of the updated ones; 50 plus a fifth of 240 is 98.
    expect(await deadRows("places")).toBe(130);
    const result = await keepUpTables(pglite);
    expect(result.vacuumed).toEqual(["public.places"]);
    expect(await deadRows("places")).toBe(0);
    expect(await plannerRows("places")).toBe(150);
  });

  it("analyses every table when asked to", async () => {
    const result = await keepUpTables(pglite, { all: true });
    expect(result.analyzed).toEqual(expect.arrayContaining(["public.notes", "public.places"]));
  });
});

describe("upkeepRound", () => {
  it("reports a failed round instead of throwing it", async () => {
    const closed = new PGlite();
    await closed.close();
    const reports: Array<UpkeepResult | Error> = [];
    await upkeepRound(closed, (result) => reports.push(result));
    expect(reports).toHaveLength(1);
    expect(reports[0]).toBeInstanceOf(Error);
    // Booting a PGlite takes seconds on a busy machine: more than the default 5 s test timeout.
  }, 60_000);
});

describe("scheduleUpkeep", () => {
  it("runs the upkeep on its interval and reports each round until stopped", async () => {
    await pglite.exec("insert into notes (body) select 'note ' || n from generate_series(1, 120) as n");
    const reports: Array<UpkeepResult | Error> = [];
    const upkeep = scheduleUpkeep(pglite, 20, (result) => reports.push(result));
    await expect.poll(() => reports.length, { timeout: 30_000 }).toBeGreaterThanOrEqual(2);
    await upkeep.stop();
    const count = reports.length;
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(reports.length).toBe(count);
    expect(reports[0]).toMatchObject({ analyzed: ["public.notes"], vacuumed: [] });
    expect(reports[1]).toMatchObject({ analyzed: [], vacuumed: [] });
    expect(await plannerRows("notes")).toBe(120);
  }, 60_000);
});
