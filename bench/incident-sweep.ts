/**
 * Every sort, filter, search and page of the incidents table and board, and the dashboard right after a
 * write, one request at a time on the scale seed (issue 46, point 4): the production build on the
 * PostgreSQL database of DATABASE_URL (`npm run seed -- --scale 1` first), SERVER_TIMING=1.
 *
 *   npm run build && DATABASE_URL=postgres://postgres@127.0.0.1:5432/caretaker_scale npm run bench:sweep
 *
 * Before every timed request, the bench changes one incident's status through the REST API (another
 * incident each time, back and forth), so no answer is served from a cache warmed by the previous one
 * and the planner sees a table being written to. Per URL: 2 warm-up requests, then BENCH_REQUESTS
 * (default 10) timed ones: p50 and p95 of the whole answer, the SQL time of the same requests
 * (Server-Timing `db`, exact here: one request at a time, nothing waits for a pool connection).
 * Target: p95 of the whole answer at most 100 ms for every URL. BENCH_ONLY=<text> runs the URLs whose
 * name contains it.
 */
import { and, asc, eq, isNotNull, sql } from "drizzle-orm";
import { openDatabase } from "~/db/client.server";
import { buildings, facilities, incidents, incidentTypes, users } from "~/db/schema";
import { SCALE_ACCOUNTS } from "~/seed/seed.server";
import { machineLine, pct, runBench, startScaleServer, time, writeJsonResults } from "./lib/scale";

const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 10);
const TARGET_MS = 100;
const only = process.env.BENCH_ONLY ?? "";
const databaseUrl = process.env.DATABASE_URL;

const SORTS = ["createdAt", "title", "priority", "status", "assignee", "occurrences", "shortId"] as const;

/** What the URLs name: the scale entity's first facility, building, incident type, a tag and a rare word. */
async function landmarks(url: string) {
  const database = await openDatabase({ url, poolMax: 2 });
  try {
    const db = database.db;
    const [admin] = await db.select({ entityId: users.entityId }).from(users).where(eq(users.email, SCALE_ACCOUNTS.admin));
    if (!admin) throw new Error(`${SCALE_ACCOUNTS.admin} does not exist: load the scale seed first (npm run seed -- --scale 1)`);
    const e = admin.entityId;
    const [facility] = await db.select({ id: facilities.id }).from(facilities).where(eq(facilities.entityId, e)).orderBy(asc(facilities.id)).limit(1);
    const [building] = await db.select({ id: buildings.id }).from(buildings).where(eq(buildings.entityId, e)).orderBy(asc(buildings.id)).limit(1);
    const [type] = await db.select({ id: incidentTypes.id }).from(incidentTypes).where(eq(incidentTypes.entityId, e)).orderBy(asc(incidentTypes.id)).limit(1);
    const [tagged] = await db
      .select({ tags: incidents.tags })
      .from(incidents)
      .where(and(eq(incidents.entityId, e), isNotNull(incidents.tags), sql`cardinality(${incidents.tags}) > 0`))
      .limit(1);
    const writable = await db
      .select({ id: incidents.id, status: incidents.status })
      .from(incidents)
      .where(and(eq(incidents.entityId, e), sql`${incidents.status} in (0, 1)`, sql`${incidents.archivedAt} is null`))
      .orderBy(asc(incidents.id))
      .limit(50);
    return { facility: facility?.id, building: building?.id, type: type?.id, tag: tagged?.tags?.[0] ?? null, writable };
  } finally {
    await database.close();
  }
}

interface Row {
  name: string;
  url: string;
  status: number;
  bytes: number;
  p50: number;
  p95: number;
  sqlP95: number | null;
  queries: number | null;
}

async function main() {
  if (!databaseUrl) throw new Error("set DATABASE_URL to the database holding the scale seed");
  const marks = await landmarks(databaseUrl);
  const server = await startScaleServer(databaseUrl);
  try {
    const { base } = server;
    const admin = { cookie: await server.signIn(SCALE_ACCOUNTS.admin) };
    const tech = { cookie: await server.signIn(SCALE_ACCOUNTS.technician) };
    const manager = { cookie: await server.signIn(SCALE_ACCOUNTS.manager) };
    const bearer = await server.bearer(SCALE_ACCOUNTS.admin);

    const totalRes = await fetch(`${base}/api/incidents?size=1`, { headers: bearer });
    await totalRes.arrayBuffer();
    const total = Number(totalRes.headers.get("x-total-count") ?? 0);
    const last = Math.max(1, Math.ceil(total / 25));

    const urls: [string, string, Record<string, string>][] = [];
    for (const sort of SORTS) {
      for (const dir of ["asc", "desc"]) {
        for (const [label, page] of [["first", 1], ["page 500", 500], ["last", last]] as const) {
          urls.push([`sort ${sort} ${dir}, ${label}`, `/incidents?sort=${sort}&dir=${dir}&page=${page}`, admin]);
        }
      }
    }
    urls.push(
      ["status Pending", "/incidents?status=0", admin],
      ["status Done, sort title", "/incidents?status=2&sort=title", admin],
      ["priority High", "/incidents?priority=2", admin],
      ["no priority, page 500", "/incidents?priority=none&page=500", admin],
      ["unassigned", "/incidents?assignee=none", admin],
      ["assigned to me (technician)", "/incidents?assignee=me", tech],
      ["technician, default", "/incidents", tech],
      ["technician, sort status, page 100", "/incidents?sort=status&page=100", tech],
      ["type, sort title, page 500", `/incidents?type=${marks.type}&sort=title&page=500`, admin],
      ["type, sort title desc, last", `/incidents?type=${marks.type}&sort=title&dir=desc&page=999999`, admin],
      ["facility", `/incidents?facility=${marks.facility}`, admin],
      ["facility, sort priority, page 50", `/incidents?facility=${marks.facility}&sort=priority&page=50`, admin],
      ["building", `/incidents?building=${marks.building}`, admin],
      ["tag", `/incidents?tag=${encodeURIComponent(marks.tag ?? "none")}`, admin],
      ["created in March 2026", "/incidents?from=2026-03-01&to=2026-03-31", admin],
      ["search, common word", "/incidents?q=leak", admin],
      ["search, rare phrase", "/incidents?q=zzqx-never-written", admin],
      ["search, short id", "/incidents?q=%23123456", admin],
      ["search, common word, sort title, page 20", "/incidents?q=leak&sort=title&page=20", admin],
      ["board", "/incidents?view=board", admin],
      ["board, technician", "/incidents?view=board", tech],
      ["board, type filter", `/incidents?view=board&type=${marks.type}`, admin],
      ["board, search", "/incidents?view=board&q=leak", admin],
      ["dashboard (after a write)", "/dashboard", admin],
      ["dashboard, manager (after a write)", "/dashboard", manager],
      ["board, manager", "/incidents?view=board", manager],
      ["manager, sort title, page 200", "/incidents?sort=title&page=200", manager],
    );

    let writes = 0;
    const write = async () => {
      const target = marks.writable[writes % marks.writable.length];
      const status = Math.floor(writes / marks.writable.length) % 2 === 0 ? (target.status === 0 ? 1 : 0) : target.status;
      writes++;
      const res = await fetch(`${base}/api/incidents/${target.id}/status`, {
        method: "PUT",
        headers: { ...bearer, "content-type": "application/json" },
        body: JSON.stringify({ status }),
      });
      await res.arrayBuffer();
      if (!res.ok) throw new Error(`the write between requests answered ${res.status}`);
    };

    const rows: Row[] = [];
    for (const [name, url, headers] of urls) {
      if (only && !name.includes(only)) continue;
      for (let i = 0; i < 2; i++) await time(`${base}${url}`, headers);
      const samples = [];
      for (let i = 0; i < REQUESTS; i++) {
        await write();
        samples.push(await time(`${base}${url}`, headers));
      }
      const ms = samples.map((s) => s.ms);
      const sqls = samples.map((s) => s.sqlMs).filter((v): v is number => v !== null);
      const row: Row = {
        name,
        url,
        status: samples[samples.length - 1].status,
        bytes: samples[samples.length - 1].bytes,
        p50: pct(ms, 50),
        p95: pct(ms, 95),
        sqlP95: sqls.length ? pct(sqls, 95) : null,
        queries: samples[samples.length - 1].queries,
      };
      rows.push(row);
      process.stderr.write(`${name}: p95 ${row.p95.toFixed(0)} ms (SQL ${row.sqlP95?.toFixed(1) ?? "-"} ms)\n`);
    }

    const f = (n: number | null) => (n === null ? "-" : n.toFixed(n < 10 ? 1 : 0));
    console.log(`${machineLine()}; PostgreSQL at ${new URL(databaseUrl).host}`);
    console.log(`Data: scale seed, ${total} incidents listed for the administrator (${last} pages of 25). One request at a time, each after a status change.`);
    console.log(`${REQUESTS} timed requests per URL after 2 warm-ups. Target: p95 <= ${TARGET_MS} ms.\n`);
    console.log(`| URL | status | KB | p50 ms | p95 ms | SQL p95 ms | queries | target |\n|---|---|---|---|---|---|---|---|`);
    for (const r of rows) {
      const ok = r.status === 200 && r.p95 <= TARGET_MS;
      console.log(`| ${r.name} | ${r.status} | ${(r.bytes / 1024).toFixed(0)} | ${f(r.p50)} | ${f(r.p95)} | ${f(r.sqlP95)} | ${r.queries ?? "-"} | ${ok ? "pass" : "**miss**"} |`);
    }
    const misses = rows.filter((r) => !(r.status === 200 && r.p95 <= TARGET_MS));
    console.log(`\n${rows.length - misses.length} of ${rows.length} URLs pass; worst p95 ${f(Math.max(...rows.map((r) => r.p95)))} ms.`);
    writeJsonResults(rows);
  } finally {
    await server.stop();
  }
}

runBench(main);
