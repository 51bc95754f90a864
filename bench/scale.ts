/**
 * What a page costs against what it must cost (issue 46, point 5), on the scale seed in PostgreSQL:
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/caretaker_scale npm run seed -- --scale 1
 *   npm run build && DATABASE_URL=postgres://postgres@127.0.0.1:5432/caretaker_scale npm run bench:scale
 *
 * For every list page, the board, the incident view and the dashboard (as the scale administrator):
 *   - server CPU per page (the server process's CPU from /proc over batches of requests), next to the REST
 *     call(s) answering the same rows and a bare React render of the page's own markup (bench/lib/bare-render.ts),
 *     in alternating batches so the machine's drift falls on both: the ratio page / (REST + bare render);
 *   - HTML bytes (uncompressed);
 *   - SQL time per page read from PostgreSQL itself (`pg_stat_database.active_time` of the database over a
 *     batch, after the server's connections have reported it), not from a per-request timer;
 *   - p95 of the whole answer with 20 people who each think about a second between pages (paced);
 * then one process against two (WEB_CONCURRENCY=2) in alternating rounds of 20 clients in a closed loop
 * (reported, not a target: the load tool and PostgreSQL share the same cores).
 * The two-process correctness checks (sessions, limits, kept answers, live notifications across processes)
 * are the end-to-end test tests/e2e/processes.spec.ts.
 *
 * Settings: BENCH_BATCH (requests per batch, default 20), BENCH_ROUNDS (batches per kind, default 5),
 * BENCH_WARMUP (requests of each URL first, default 40), BENCH_PACED_SECONDS (default 10), BENCH_ONLY=<text>
 * (the pages whose name contains it; several texts separated by commas), BENCH_SKIP_PROCESSES=1, BENCH_JSON=<file>.
 */
import pg from "pg";
import { bareRenderMs, markupToElements } from "./lib/bare-render";
import { cpuMs } from "./lib/proc";
import { clients, machineLine, pct, runBench, startScaleServer, writeJsonResults } from "./lib/scale";
import { SCALE_ACCOUNTS } from "~/seed/seed.server";

const databaseUrl = process.env.DATABASE_URL;
const BATCH = Number(process.env.BENCH_BATCH ?? 20);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 40);
const PACED_SECONDS = Number(process.env.BENCH_PACED_SECONDS ?? 10);
const only = process.env.BENCH_ONLY ?? "";

/** Targets of issue 46. */
const TARGET = { incidentsKb: 80, incidentsToRooms: 1.3, boardToRooms: 1.5, toFloor: 2.0, pacedList: 60, pacedDashboard: 100 };

interface PageSpec {
  name: string;
  url: string;
  /** The REST call(s) answering the same rows. */
  rest: string[];
  kind: "list" | "board" | "view" | "dashboard";
}

interface PageResult extends PageSpec {
  status: number;
  kb: number;
  pageCpu: number;
  restCpu: number;
  bareMs: number;
  ratio: number;
  sqlMs: number | null;
  pacedP95: number;
  pacedRps: number;
}

async function get(url: string, headers: Record<string, string>): Promise<{ status: number; body: string }> {
  const res = await fetch(url, { headers: { ...headers, "accept-encoding": "identity" }, redirect: "manual" });
  return { status: res.status, body: await res.text() };
}

async function batch(base: string, urls: string[], headers: Record<string, string>, n: number): Promise<void> {
  for (let i = 0; i < n; i++) {
    for (const url of urls) {
      const res = await fetch(`${base}${url}`, { headers, redirect: "manual" });
      await res.arrayBuffer();
      if (res.status >= 400) throw new Error(`${url} answered ${res.status}`);
    }
  }
}

const median = (values: number[]) => pct(values, 50);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function main() {
  if (!databaseUrl) throw new Error("set DATABASE_URL to the database holding the scale seed");
  const stats = new pg.Client({ connectionString: databaseUrl });
  await stats.connect();
  const dbName = new URL(databaseUrl).pathname.slice(1);
  const activeMs = async () => Number((await stats.query("select active_time from pg_stat_database where datname = $1", [dbName])).rows[0]?.active_time ?? 0);
  const [{ id: heavy } = { id: 1 }] = (
    await stats.query(`select i.id from incidents i join users u on u.entity_id = i.entity_id where u.email = $1 order by i.occurrences desc, i.id desc limit 1`, [SCALE_ACCOUNTS.admin])
  ).rows as { id: number }[];
  const [{ id: adminId } = { id: 0 }] = (await stats.query("select id from users where email = $1", [SCALE_ACCOUNTS.admin])).rows as { id: number }[];

  const server = await startScaleServer(databaseUrl);
  const results: PageResult[] = [];
  const processes: { one: number; two: number; ratio: number }[] = [];
  try {
    const { base } = server;
    const cookie = { cookie: await server.signIn(SCALE_ACCOUNTS.admin) };
    const bearer = await server.bearer(SCALE_ACCOUNTS.admin);
    const today = new Date().toISOString().slice(0, 10);
    const in7 = new Date(Date.now() + 7 * 86_400_000).toISOString().slice(0, 10);
    const pages: PageSpec[] = [
      { name: "incidents table", url: "/incidents", rest: ["/api/incidents?size=25"], kind: "list" },
      { name: "incidents board", url: "/incidents?view=board", rest: [0, 1, 2, 3].map((s) => `/api/incidents?status=${s}&size=20`), kind: "board" },
      { name: "incident view", url: `/incident/${heavy}`, rest: [`/api/incidents/${heavy}`, `/api/incidents/${heavy}/comments`, `/api/incidents/${heavy}/events`], kind: "view" },
      { name: "dashboard", url: "/dashboard", rest: ["/api/dashboard"], kind: "dashboard" },
      { name: "facilities", url: "/facilities", rest: ["/api/facilities?size=25"], kind: "list" },
      { name: "buildings tab", url: "/facilities?tab=buildings", rest: ["/api/facilities/buildings?size=25"], kind: "list" },
      { name: "rooms tab", url: "/facilities?tab=rooms", rest: ["/api/facilities/rooms?size=25"], kind: "list" },
      { name: "room types", url: "/room-type", rest: ["/api/facilities/rooms/roomtype?size=25"], kind: "list" },
      { name: "equipments", url: "/equipments", rest: ["/api/equipments/type?size=25"], kind: "list" },
      { name: "users", url: "/users", rest: ["/api/users?size=25"], kind: "list" },
      { name: "planned maintenance", url: "/maintenances", rest: ["/api/maintenances/planned?size=25"], kind: "list" },
      { name: "tasks", url: "/task", rest: [`/api/tasks?from=${today}&to=${in7}`], kind: "list" },
      { name: "notifications", url: "/notifications", rest: [`/api/users/${adminId}/notifications?size=25`], kind: "list" },
    ].filter((p) => !only || only.split(",").some((o) => p.name.includes(o.trim()))) as PageSpec[];

    for (const page of pages) {
      const first = await get(`${base}${page.url}`, cookie);
      if (first.status !== 200) throw new Error(`${page.url} answered ${first.status}`);
      for (const url of page.rest) {
        const r = await get(`${base}${url}`, bearer);
        if (r.status !== 200) throw new Error(`${url} answered ${r.status}`);
      }
      const bare = bareRenderMs(markupToElements(first.body));

      // CPU: page and REST batches in turn (ABBA), after a warm-up of both.
      await batch(base, [page.url], cookie, WARMUP);
      await batch(base, page.rest, bearer, WARMUP);
      const pageCpu: number[] = [];
      const restCpu: number[] = [];
      for (let round = 0; round < ROUNDS; round++) {
        const order = round % 2 === 0 ? (["page", "rest"] as const) : (["rest", "page"] as const);
        for (const which of order) {
          const before = cpuMs(server.pid).all;
          if (which === "page") await batch(base, [page.url], cookie, BATCH);
          else await batch(base, page.rest, bearer, BATCH);
          (which === "page" ? pageCpu : restCpu).push((cpuMs(server.pid).all - before) / BATCH);
        }
      }

      // SQL from PostgreSQL: the database's active time over one batch of the page, once the server's
      // connections have reported it (they report when idle, at most every 10 s).
      await sleep(11_000);
      const sqlBefore = await activeMs();
      await batch(base, [page.url], cookie, BATCH);
      await sleep(11_000);
      const sqlMs = (await activeMs()) - sqlBefore;

      const paced = await clients(`${base}${page.url}`, cookie, 20, PACED_SECONDS, 1000);
      const result: PageResult = {
        ...page,
        status: first.status,
        kb: Buffer.byteLength(first.body) / 1024,
        pageCpu: median(pageCpu),
        restCpu: median(restCpu),
        bareMs: bare.ms,
        ratio: median(pageCpu) / (median(restCpu) + bare.ms),
        sqlMs: sqlMs > 0 ? sqlMs / BATCH : null,
        pacedP95: paced.p95,
        pacedRps: paced.rps,
      };
      results.push(result);
      process.stderr.write(
        `${page.name}: ${result.kb.toFixed(0)} KB, CPU ${result.pageCpu.toFixed(1)} ms vs REST ${result.restCpu.toFixed(1)} + bare ${result.bareMs.toFixed(1)} (${(bare.bytes / 1024).toFixed(0)} KB rendered) (x${result.ratio.toFixed(2)}), SQL ${result.sqlMs?.toFixed(1) ?? "-"} ms, paced p95 ${paced.p95.toFixed(0)} ms\n`,
      );
    }

    if (process.env.BENCH_SKIP_PROCESSES !== "1") {
      const two = await startScaleServer(databaseUrl, { env: { WEB_CONCURRENCY: "2" } });
      try {
        const twoCookie = { cookie: await two.signIn(SCALE_ACCOUNTS.admin) };
        for (const url of ["/incidents", "/facilities?tab=rooms", "/dashboard"]) {
          const one: number[] = [];
          const both: number[] = [];
          await clients(`${base}${url}`, cookie, 20, 2, 0);
          await clients(`${two.base}${url}`, twoCookie, 20, 2, 0);
          for (const which of ["one", "two", "two", "one", "one", "two"] as const) {
            const run = which === "one" ? await clients(`${base}${url}`, cookie, 20, 5, 0) : await clients(`${two.base}${url}`, twoCookie, 20, 5, 0);
            (which === "one" ? one : both).push(run.rps);
          }
          processes.push({ one: median(one), two: median(both), ratio: median(both) / median(one) });
          process.stderr.write(`${url}: one process ${median(one).toFixed(0)} pages/s, two ${median(both).toFixed(0)} pages/s\n`);
        }
      } finally {
        await two.stop();
      }
    }
  } finally {
    await server.stop();
    await stats.end();
  }

  const rooms = results.find((r) => r.name === "rooms tab");
  const f = (n: number | null, digits = 1) => (n === null ? "-" : n.toFixed(digits));
  const verdict = (ok: boolean) => (ok ? "pass" : "**miss**");
  console.log(`${machineLine()}; PostgreSQL at ${new URL(databaseUrl).host}`);
  console.log(`Scale seed, the administrator. CPU: median of ${ROUNDS} alternating batches of ${BATCH} (after ${WARMUP} warm-up requests); paced: 20 people ~1 s apart for ${PACED_SECONDS} s.\n`);
  console.log(
    "| page | KB | CPU ms / page | REST ms | bare render ms | page / (REST + bare) | x rooms tab | SQL ms / page (PostgreSQL) | paced p95 ms | targets |\n|---|---|---|---|---|---|---|---|---|---|",
  );
  for (const r of results) {
    const toRooms = rooms ? r.pageCpu / rooms.pageCpu : null;
    const checks: string[] = [];
    if (r.kind !== "view") checks.push(`x floor ${verdict(r.ratio <= TARGET.toFloor)}`);
    if (r.name === "incidents table") {
      checks.push(`KB ${verdict(r.kb <= TARGET.incidentsKb)}`);
      if (toRooms !== null) checks.push(`x rooms ${verdict(toRooms <= TARGET.incidentsToRooms)}`);
    }
    if (r.kind === "board" && toRooms !== null) checks.push(`x rooms ${verdict(toRooms <= TARGET.boardToRooms)}`);
    if (r.kind === "list" || r.kind === "board") checks.push(`paced ${verdict(r.pacedP95 <= TARGET.pacedList)}`);
    if (r.kind === "dashboard") checks.push(`paced ${verdict(r.pacedP95 <= TARGET.pacedDashboard)}`);
    console.log(
      `| ${r.name} | ${f(r.kb, 0)} | ${f(r.pageCpu)} | ${f(r.restCpu)} | ${f(r.bareMs)} | ${f(r.ratio, 2)} | ${f(toRooms, 2)} | ${f(r.sqlMs)} | ${f(r.pacedP95, 0)} | ${checks.join(", ")} |`,
    );
  }
  if (processes.length) {
    console.log("\n| page | one process, pages/s | two processes, pages/s | two / one |\n|---|---|---|---|");
    const urls = ["/incidents", "/facilities?tab=rooms", "/dashboard"];
    processes.forEach((p, i) => console.log(`| ${urls[i]} | ${p.one.toFixed(0)} | ${p.two.toFixed(0)} | ${p.ratio.toFixed(2)} |`));
  }
  writeJsonResults({ results, processes });
}

runBench(main);
