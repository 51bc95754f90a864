/**
 * The occupier's report page benchmark (issue #13, "Speed"; decision 026): the production build on the
 * demo data, on PostgreSQL (DATABASE_URL; the demo data is seeded into it when it has no entity) or on the
 * embedded database (no DATABASE_URL: a fresh data folder), started with SERVER_TIMING=1 and the request
 * limits lifted (RATE_LIMIT_MULTIPLIER).
 *
 *   npm run build && npm run bench:report                                                   # embedded
 *   npm run build && DATABASE_URL=postgres://postgres@127.0.0.1:5432/caretaker_bench npm run bench:report
 *
 * 1. The page: /report/{identifier} and its form (`?type=`), BENCH_REQUESTS sequential requests (default
 *    20) after 3 warm-up requests, then BENCH_CONCURRENCY clients (default 20) for BENCH_SECONDS (default 5):
 *    server time p95 (Server-Timing `app`). Target: p95 <= 30 ms at 20 concurrent.
 * 2. A report with two phone photos (4032 x 3024 JPEGs of about 3 MB with an EXIF orientation, made here
 *    with sharp), posted as the page's multipart form, BENCH_PHOTO_POSTS times (default 5) one after the
 *    other: time until the 303 answer. Target: <= 500 ms.
 * 3. BENCH_RATE reports a second (default 200) for BENCH_BURST_SECONDS (default 5), open loop (each sent at
 *    its time whatever the answers), to one identifier and type: every answer must name the same incident,
 *    and its occurrence count must grow by exactly the number of reports (read through the REST API).
 *    Reported: the rate sent and the rate answered, answer times p50 / p95 / max, errors.
 * Each phase also gives the server process's CPU time per request (/proc: all its threads, libvips'
 * included), which does not depend on what else the machine runs: on a shared machine the times above
 * grow with its load, the CPU time does not. BENCH_JSON=<file> also writes the figures.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import sharp from "sharp";
import { openDatabase, runMigrations } from "~/db/client.server";
import { seedDemoIfEmpty } from "~/seed/seed.server";
import { cpuMs, fmt, type Measured, measure, parseServerTiming, pct, size, startScaleServer } from "./lib/scale";

const requests = Number(process.env.BENCH_REQUESTS ?? 20);
const concurrency = Number(process.env.BENCH_CONCURRENCY ?? 20);
const seconds = Number(process.env.BENCH_SECONDS ?? 5);
const photoPosts = Number(process.env.BENCH_PHOTO_POSTS ?? 5);
const rate = Number(process.env.BENCH_RATE ?? 200);
const burstSeconds = Number(process.env.BENCH_BURST_SECONDS ?? 5);
const databaseUrl = process.env.DATABASE_URL ?? "";

const ADMIN = "admin@demo.test";

/** A phone's photo: 4032 x 3024, noisy enough to weigh what a camera's JPEG weighs, orientation 6. */
async function phonePhoto(seed: number): Promise<Uint8Array> {
  const width = 4032;
  const height = 3024;
  const pixels = Buffer.alloc(width * height * 3);
  let x = seed * 2654435761;
  for (let i = 0; i < pixels.length; i++) {
    x = (x * 1103515245 + 12345) >>> 0;
    // A gradient with grain: compresses like a real scene, not like a flat colour or pure noise.
    pixels[i] = (((i / 3) % width) / width) * 160 + ((x >>> 24) & 0x3f);
  }
  const jpeg = await sharp(pixels, { raw: { width, height, channels: 3 } })
    .jpeg({ quality: 85 })
    .withMetadata({ orientation: 6 })
    .withExif({ IFD0: { Make: "PhoneMaker", Model: "Phone 15" } })
    .toBuffer();
  return new Uint8Array(jpeg);
}

interface Target {
  code: string;
  typeId: number;
}

/** Rooms' report identifiers that list at least one incident type, as the administrator reads them. */
async function targets(base: string, bearer: Record<string, string>, wanted: number): Promise<Target[]> {
  const res = await fetch(`${base}/api/facilities/rooms?size=100`, { headers: bearer });
  if (!res.ok) throw new Error(`GET /api/facilities/rooms answered ${res.status}`);
  const found: Target[] = [];
  for (const room of (await res.json()) as { id: number }[]) {
    const detail = (await (await fetch(`${base}/api/facilities/rooms/${room.id}`, { headers: bearer })).json()) as { reportIdentifier?: string };
    const code = detail.reportIdentifier;
    if (!code) continue;
    const html = await (await fetch(`${base}/report/${code}`)).text();
    const type = /\?type=(\d+)/.exec(html);
    if (type) found.push({ code, typeId: Number(type[1]) });
    if (found.length === wanted) return found;
  }
  throw new Error(`only ${found.length} rooms with something to report (wanted ${wanted})`);
}

interface Posted {
  ms: number;
  status: number;
  appMs: number | null;
  shortId: number | null;
  how: string | null;
}

/** Posts the report form as a browser does (multipart), and reads the thank-you address it redirects to. */
async function postReport(base: string, target: Target, description: string, photos: Uint8Array[] = []): Promise<Posted> {
  const form = new FormData();
  form.set("incidentTypeId", String(target.typeId));
  form.set("description", description);
  form.set("email", "");
  form.set("priority", "");
  for (const [i, photo] of photos.entries()) form.append("photos", new Blob([new Uint8Array(photo)], { type: "image/jpeg" }), `IMG_${i + 1}.jpg`);
  const started = performance.now();
  try {
    const res = await fetch(`${base}/report/${target.code}?type=${target.typeId}`, { method: "POST", body: form, headers: { origin: base }, redirect: "manual" });
    await res.arrayBuffer();
    const ms = performance.now() - started;
    const location = res.headers.get("location") ?? "";
    const sent = /[?&]sent=(\d+)&how=(created|folded)/.exec(location);
    return { ms, status: res.status, appMs: parseServerTiming(res.headers.get("server-timing")).appMs, shortId: sent ? Number(sent[1]) : null, how: sent ? sent[2] : null };
  } catch {
    return { ms: performance.now() - started, status: 599, appMs: null, shortId: null, how: null };
  }
}

/** An incident's occurrence count, through the REST API. */
async function occurrencesOf(base: string, bearer: Record<string, string>, shortId: number): Promise<number> {
  const res = await fetch(`${base}/api/incidents?q=${shortId}&size=50`, { headers: bearer });
  const rows = (await res.json()) as { shortId: number; occurrences: number }[];
  const row = rows.find((r) => r.shortId === shortId);
  if (!row) throw new Error(`incident #${shortId} is not listed`);
  return row.occurrences;
}

const wait = (ms: number) => new Promise((r) => setTimeout(r, Math.max(0, ms)));

async function main() {
  const mode = databaseUrl ? `PostgreSQL at ${new URL(databaseUrl).host}${new URL(databaseUrl).pathname}` : "embedded (PGlite)";
  if (databaseUrl) {
    const filesRoot = fs.mkdtempSync(path.join(os.tmpdir(), "caretaker-bench-report-seed-"));
    const database = await openDatabase({ url: databaseUrl, poolMax: 2 });
    try {
      await runMigrations(database);
      if (await seedDemoIfEmpty(database.db, { root: filesRoot, maxBytes: 10 * 1024 * 1024 })) process.stderr.write("demo data seeded\n");
    } finally {
      await database.close();
      fs.rmSync(filesRoot, { recursive: true, force: true });
    }
  }
  process.stderr.write(`making two phone photos...\n`);
  const photos = [await phonePhoto(1), await phonePhoto(2)];
  const server = await startScaleServer(databaseUrl, { startSeconds: 300 });
  try {
    const { base } = server;
    const bearer = await server.bearer(ADMIN);
    const [pageTarget, photoTarget, burstTarget] = await targets(base, bearer, 3);

    // 1. The page and its form.
    const pid = server.pid;
    const cpuPer = (before: number | null, n: number) => {
      const now = cpuMs(pid);
      return before === null || now === null || n === 0 ? null : (now - before) / n;
    };
    const pages: (Measured & { cpuMsPerRequest: number | null })[] = [];
    for (const [name, url] of [
      ["/report/{identifier}", `/report/${pageTarget.code}`],
      ["/report/{identifier}?type= (the form)", `/report/${pageTarget.code}?type=${pageTarget.typeId}`],
    ]) {
      const cpuBefore = cpuMs(pid);
      const measured = await measure(name, `${base}${url}`, { "accept-language": "fr-BE,fr;q=0.9" }, { requests, concurrency, seconds, thinkMs: 0 });
      // The requests made: 3 warm-up, `requests` sequential, then rps x seconds under load.
      const r = { ...measured, cpuMsPerRequest: cpuPer(cpuBefore, 3 + requests + Math.round(measured.rps * seconds)) };
      pages.push(r);
      process.stderr.write(`${name}: ${r.status}, server p95 ${fmt(r.serverP95, 1)} ms (1 client), ${fmt(r.loadServerP95, 1)} ms with ${concurrency} clients, ${fmt(r.rps)} req/s\n`);
    }

    // 2. Reports with two photos.
    await postReport(base, photoTarget, "Warm-up report", photos);
    const withPhotos: Posted[] = [];
    const photoCpuBefore = cpuMs(pid);
    for (let i = 0; i < photoPosts; i++) withPhotos.push(await postReport(base, photoTarget, `Report ${i + 1} with two photos`, photos));
    const photoCpu = cpuPer(photoCpuBefore, photoPosts);
    const photoErrors = withPhotos.filter((p) => p.status !== 303).length;
    process.stderr.write(`two photos: p50 ${fmt(pct(withPhotos.map((p) => p.ms), 50))} ms, p95 ${fmt(pct(withPhotos.map((p) => p.ms), 95))} ms, ${photoErrors} errors\n`);

    // 3. A sustained stream to one identifier and type: one incident, the exact count.
    const first = await postReport(base, burstTarget, "Before the stream");
    if (first.status !== 303 || first.shortId === null) throw new Error(`the first report answered ${first.status}`);
    const before = await occurrencesOf(base, bearer, first.shortId);
    const total = Math.round(rate * burstSeconds);
    const results: (Posted & { late: number })[] = [];
    const burstCpuBefore = cpuMs(pid);
    const started = performance.now();
    await Promise.all(
      Array.from({ length: total }, async (_, i) => {
        const due = started + (i * 1000) / rate;
        await wait(due - performance.now());
        const late = performance.now() - due;
        results.push({ ...(await postReport(base, burstTarget, `Stream report ${i + 1}`)), late });
      }),
    );
    const elapsed = (performance.now() - started) / 1000;
    const burstCpu = cpuPer(burstCpuBefore, results.length);
    const accepted = results.filter((r) => r.status === 303);
    const statuses: Record<string, number> = {};
    for (const r of results) statuses[r.status] = (statuses[r.status] ?? 0) + 1;
    const incidentsNamed = new Set(accepted.map((r) => r.shortId));
    const after = await occurrencesOf(base, bearer, first.shortId);
    const exact = after === before + accepted.length && incidentsNamed.size === 1 && incidentsNamed.has(first.shortId);
    const burst = {
      sent: total,
      seconds: burstSeconds,
      sentPerSecond: total / burstSeconds,
      answeredPerSecond: accepted.length / elapsed,
      elapsed,
      errors: results.length - accepted.length,
      statuses,
      cpuMsPerReport: burstCpu,
      p50: pct(results.map((r) => r.ms), 50),
      p95: pct(results.map((r) => r.ms), 95),
      max: Math.max(...results.map((r) => r.ms)),
      serverP95: pct(accepted.map((r) => r.appMs ?? 0), 95),
      sendLateP95: pct(results.map((r) => r.late), 95),
      incidents: incidentsNamed.size,
      before,
      after,
      exact,
    };
    process.stderr.write(`stream: ${JSON.stringify(burst)}\n`);

    const mb = (n: number) => `${(n / 1024 / 1024).toFixed(0)} MB`;
    console.log(`Machine: ${os.cpus().length} cores, ${mb(os.totalmem())}; Node ${process.version}; load average ${os.loadavg().map((l) => l.toFixed(1)).join(" ")}; database: ${mode}`);
    console.log(`Photos: two ${photos.map((p) => size(p.byteLength)).join(" and ")} JPEGs, 4032 x 3024, EXIF orientation 6.\n`);
    console.log(`| page | status | size | server p50 / p95 ms (1 client) | req/s (${concurrency} clients) | answer p95 ms (${concurrency} clients) | server p95 ms (${concurrency} clients) | server CPU ms per request |`);
    console.log("|---|---|---|---|---|---|---|---|");
    for (const r of pages) console.log(`| ${r.page} | ${r.status}${r.errors ? ` (${r.errors} errors)` : ""} | ${size(r.bytes)} | ${fmt(r.serverP50, 1)} / ${fmt(r.serverP95, 1)} | ${fmt(r.rps)} | ${fmt(r.loadP95)} | ${fmt(r.loadServerP95, 1)} | ${fmt(r.cpuMsPerRequest, 1)} |`);
    console.log("");
    const ms = withPhotos.map((p) => p.ms);
    const app = withPhotos.map((p) => p.appMs ?? 0);
    console.log(`| a report with two photos (${photoPosts} posts, one at a time) | p50 ms | p95 ms | max ms | server p95 ms | server CPU ms per report | errors |`);
    console.log("|---|---|---|---|---|---|---|");
    console.log(`| answer (303) | ${fmt(pct(ms, 50))} | ${fmt(pct(ms, 95))} | ${fmt(Math.max(...ms))} | ${fmt(pct(app, 95))} | ${fmt(photoCpu)} | ${photoErrors} |`);
    console.log("");
    console.log(`| stream to one identifier | sent/s | answered/s | answer p50 / p95 / max ms | server p95 ms | server CPU ms per report | answers | incidents | occurrences before → after | exact |`);
    console.log("|---|---|---|---|---|---|---|---|---|---|");
    const answers = Object.entries(statuses).map(([status, n]) => `${n} × ${status}`).join(", ");
    console.log(
      `| ${total} reports in ${burstSeconds} s | ${fmt(burst.sentPerSecond)} | ${fmt(burst.answeredPerSecond)} | ${fmt(burst.p50)} / ${fmt(burst.p95)} / ${fmt(burst.max)} | ${fmt(burst.serverP95)} | ${fmt(burstCpu, 1)} | ${answers} | ${burst.incidents} | ${before} → ${after} (+${accepted.length}) | ${exact ? "yes" : "NO"} |`,
    );
    if (process.env.BENCH_JSON) fs.writeFileSync(process.env.BENCH_JSON, JSON.stringify({ mode, pages, withPhotos, burst }, null, 2));
    if (!exact) process.exitCode = 1;
  } finally {
    await server.stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
