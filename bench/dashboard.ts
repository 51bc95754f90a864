/**
 * Dashboard benchmark (issue #15, "Speed"). Two modes:
 * - with DATABASE_URL: the production build against a PostgreSQL database holding the scale seed
 *   (`npm run seed -- --scale N`), SERVER_TIMING=1, signed in as the scale entity's administrator and
 *   manager: /dashboard (the last six months, from the monthly counters), one incident type, one
 *   facility and a cut period (counted on the incidents), the manager's dashboard (their reach), the CSV
 *   and GET /api/dashboard. Target: server time p95 <= 150 ms with 20 clients for the default dashboard.
 * - without: the production build on a fresh embedded database (PGlite) with the demo data, signed in as
 *   the demo administrator and manager. Target: the demo entity's dashboard <= 50 ms.
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/caretaker_scale npm run seed -- --scale 1
 *   npm run build && DATABASE_URL=postgres://postgres@127.0.0.1:5432/caretaker_scale npm run bench:dashboard
 *   npm run build && npm run bench:dashboard
 *
 * Per URL: BENCH_REQUESTS sequential requests (default 20) after 3 warm-up requests (server and SQL time
 * from Server-Timing, p50 and p95), then BENCH_CONCURRENCY clients (default 20) for BENCH_SECONDS
 * (default 5), then the same clients each waiting about BENCH_THINK_MS (default 1000; 0 skips it)
 * between requests for BENCH_PACED_SECONDS (default 8). BENCH_ONLY=<text> runs the URLs whose name contains it; BENCH_JSON=<file> writes JSON.
 */
import { machineLine, measuredTable, measureScenarios, pacedLine, runBench, type Scenario, startScaleServer, writeJsonResults } from "./lib/scale";
import { demoAccounts, startServer } from "./lib/server";

const requests = Number(process.env.BENCH_REQUESTS ?? 20);
const concurrency = Number(process.env.BENCH_CONCURRENCY ?? 20);
const seconds = Number(process.env.BENCH_SECONDS ?? 5);
const only = process.env.BENCH_ONLY ?? "";
const databaseUrl = process.env.DATABASE_URL;

async function bearerOf(base: string, email: string): Promise<Record<string, string>> {
  const res = await fetch(`${base}/api/authentication/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ username: email, password: "Demo-pass-1!" }),
  });
  const { jwtToken } = (await res.json()) as { jwtToken?: string };
  if (!jwtToken) throw new Error(`could not sign in as ${email}`);
  return { authorization: `Bearer ${jwtToken}` };
}

interface Figures {
  types: { id: number | null }[];
  period: { from: string };
}

async function main() {
  const scale = Boolean(databaseUrl);
  if (!scale) process.env.SERVER_TIMING = "1";
  const server = scale ? await startScaleServer(databaseUrl!) : await startServer();
  const admin = scale ? "scale-admin@demo.test" : demoAccounts.admin;
  const manager = scale ? "scale-manager@demo.test" : demoAccounts.manager;
  try {
    const { base } = server;
    const [adminCookie, managerCookie, bearer] = await Promise.all([server.signIn(admin), server.signIn(manager), bearerOf(base, admin)]);
    const figures = (await (await fetch(`${base}/api/dashboard`, { headers: bearer })).json()) as Figures;
    const type = figures.types.find((t) => t.id !== null)?.id;
    const facilities = (await (await fetch(`${base}/api/facilities?size=1`, { headers: bearer })).json()) as { id: number }[];
    const facility = facilities[0]?.id;
    const cutFrom = `${figures.period.from.slice(0, 8)}15`;
    const scenarios: Scenario[] = [
      ["/dashboard (administrator, last 6 months)", "/dashboard", { cookie: adminCookie }],
      ["GET /api/dashboard (administrator)", "/api/dashboard", bearer],
      ["/dashboard.csv (administrator)", "/dashboard.csv", { cookie: adminCookie }],
      ["/dashboard?type= (the top type)", `/dashboard?type=${type}`, { cookie: adminCookie }],
      ["/dashboard?facility= (one facility)", `/dashboard?facility=${facility}`, { cookie: adminCookie }],
      ["/dashboard?from= (a period that cuts a month)", `/dashboard?from=${cutFrom}`, { cookie: adminCookie }],
      ["/dashboard (facility manager, their reach)", "/dashboard", { cookie: managerCookie }],
    ];
    const results = await measureScenarios(base, scenarios, { requests, concurrency, seconds, only });
    console.log(
      `${machineLine()}; ` +
        (scale ? `PostgreSQL at ${new URL(databaseUrl!).host} (scale seed)` : "embedded PGlite (demo data)"),
    );
    console.log(`${requests} sequential requests per URL after 3 warm-up requests, then ${concurrency} clients for ${seconds} s${pacedLine(concurrency)}.\n`);
    console.log(measuredTable(results, concurrency));
    writeJsonResults(results);
  } finally {
    await server.stop();
  }
}

runBench(main);
