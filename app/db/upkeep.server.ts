import type { PGlite } from "@electric-sql/pglite";

/**
 * Table statistics and dead rows of the embedded database (decision 019).
 *
 * PGlite runs PostgreSQL as one backend with no background workers, so autovacuum never runs: a table
 * is never analysed and its dead rows are never cleared. Without statistics the planner assumes every
 * table holds about one row, and picks nested loops that repeat a subquery once per outer row (the rooms
 * list of a facility manager did 139 index and heap scans of `user_linked_objects` for 25 rooms). This
 * does what autovacuum would do, with its default thresholds: a table whose changes since its last
 * ANALYZE exceed 50 rows plus 10 % of its rows is analysed; one whose dead rows exceed 50 plus 20 % is
 * vacuumed (VACUUM also analyses it). Both run through PGlite's own `exec`, which holds its query
 * lock, so they never interleave with a request's statements; on data of the embedded size they take
 * milliseconds. PostgreSQL servers have autovacuum and do not use this.
 */

export const ANALYZE_THRESHOLD = 50;
export const ANALYZE_SCALE = 0.1;
export const VACUUM_THRESHOLD = 50;
export const VACUUM_SCALE = 0.2;

export interface UpkeepResult {
  /** Tables analysed (ANALYZE). */
  analyzed: string[];
  /** Tables vacuumed (VACUUM (ANALYZE)). */
  vacuumed: string[];
  ms: number;
}

interface TableStats {
  name: string;
  rows: number;
  dead: number;
  changed: number;
  analyzed: boolean;
}

/**
 * The public tables and what autovacuum would read of them. PGlite's activity counters (rows changed, dead
 * rows) start again at zero when the database is opened; the planner's own figures in `pg_class` stay, and
 * `reltuples` is -1 for a table never analysed.
 */
async function tableStats(pglite: PGlite): Promise<TableStats[]> {
  // A backend passes its counters on at most once a second, when idle; this makes it do so before the read.
  await pglite.query("select pg_stat_force_next_flush()");
  const result = await pglite.query<{ name: string; rows: number; dead: string; changed: string; analyzed: boolean }>(
    `select quote_ident(s.schemaname) || '.' || quote_ident(s.relname) as name,
            greatest(c.reltuples, s.n_live_tup, 0)::float8 as rows, s.n_dead_tup as dead, s.n_mod_since_analyze as changed,
            c.reltuples >= 0 as analyzed
       from pg_stat_user_tables s join pg_class c on c.oid = s.relid
      where s.schemaname = 'public' order by s.relname`,
  );
  return result.rows.map((row) => ({
    name: row.name,
    rows: Number(row.rows),
    dead: Number(row.dead),
    changed: Number(row.changed),
    analyzed: row.analyzed,
  }));
}

/**
 * Analyses the tables never analysed and those changed enough since, and vacuums those with enough dead
 * rows, as autovacuum would. With `all`, every table is analysed (once the data folder is created).
 */
export async function keepUpTables(pglite: PGlite, options: { all?: boolean } = {}): Promise<UpkeepResult> {
  const started = performance.now();
  const analyzed: string[] = [];
  const vacuumed: string[] = [];
  for (const table of await tableStats(pglite)) {
    if (table.dead > VACUUM_THRESHOLD + VACUUM_SCALE * table.rows) {
      await pglite.exec(`vacuum (analyze) ${table.name}`);
      vacuumed.push(table.name);
    } else if (options.all || !table.analyzed || table.changed > ANALYZE_THRESHOLD + ANALYZE_SCALE * table.rows) {
      await pglite.exec(`analyze ${table.name}`);
      analyzed.push(table.name);
    }
  }
  return { analyzed, vacuumed, ms: performance.now() - started };
}

/** One round of `keepUpTables`: its result, or its failure, goes to `report`; it never throws. */
export function upkeepRound(pglite: PGlite, report: (result: UpkeepResult | Error) => void, options: { all?: boolean } = {}): Promise<void> {
  return keepUpTables(pglite, options).then(report, (error: unknown) => report(error instanceof Error ? error : new Error(String(error))));
}

/**
 * Runs `upkeepRound` every `intervalMs` until stopped; a failed round is reported and the next one runs.
 * The timer does not keep the process alive.
 */
export function scheduleUpkeep(pglite: PGlite, intervalMs: number, report: (result: UpkeepResult | Error) => void): { stop(): Promise<void> } {
  let running: Promise<void> | null = null;
  const timer = setInterval(() => {
    if (running || pglite.closed) return;
    running = upkeepRound(pglite, report).finally(() => {
      running = null;
    });
  }, intervalMs);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
