/**
 * Two builds measured side by side: `npm run bench:side-by-side -- <build folder A> <build folder B> [path ...]`.
 *
 * On a shared machine one server's CPU per page drifts by tens of percent within an hour, so two runs of
 * `npm run bench` cannot tell a small change apart. Here both builds run at once, each on its own copy of the demo data, and one client sends them batches of 20
 * requests in turn (the order swapped every round): whatever the machine does, it does to both. Each
 * server's CPU comes from /proc (bench/lib/proc.ts), for the main thread and for all threads (V8's
 * compiler and collector work on helper threads). The client runs on the same cores, so the figures are
 * above `npm run bench`'s.
 *
 * A build folder is what `npm run build` makes (`build/`): copy it aside before building the other one, or
 * give the `build` folder of another checkout (a git worktree of the earlier commit, installed and built),
 * which then runs with that checkout's own packages.
 * Settings: BENCH_REQUESTS (measured requests a page and build, default 1000), BENCH_WARMUP (300);
 * BENCH_DATABASE_URL runs both builds on that PostgreSQL database (e.g. the scale seed) instead of a copy
 * of the demo data each, signed in as BENCH_ACCOUNT (default the demo manager; scale-admin@demo.test there).
 */
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { cpuMs as cpu } from "./lib/proc";
import { demoAccounts, startServer, type BenchServer } from "./lib/server";

const [dirA, dirB, ...given] = process.argv.slice(2);
if (!dirA || !dirB) {
  console.error("usage: npm run bench:side-by-side -- <build folder A> <build folder B> [path ...]");
  process.exit(2);
}
const paths = given.length > 0 ? given : ["/facilities", "/facilities?tab=rooms", "/equipments"];
const requests = Number(process.env.BENCH_REQUESTS ?? 1000);
const warmup = Number(process.env.BENCH_WARMUP ?? 300);
const BATCH = 20;
const repo = process.cwd();

/** A folder to start a build from: a copy of the build, the project's packages and package.json beside it. */
function runFolder(buildDir: string): string {
  const source = path.resolve(buildDir);
  if (!fs.existsSync(path.join(source, "server.js"))) throw new Error(`${buildDir} is not a build folder (no server.js)`);
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), "caretaker-side-by-side-"));
  // A copy, not a link: Node resolves a linked module to its real place and would look for packages there.
  fs.cpSync(source, path.join(folder, "build"), { recursive: true });
  // A build inside a checkout (`<checkout>/build`) runs with that checkout's packages and migrations, so
  // that a build of an earlier commit gets the dependencies it was built with; otherwise this one's.
  const checkout = path.dirname(source);
  const own = fs.existsSync(path.join(checkout, "node_modules")) && fs.existsSync(path.join(checkout, "package.json")) ? checkout : repo;
  fs.symlinkSync(path.join(own, "node_modules"), path.join(folder, "node_modules"));
  fs.copyFileSync(path.join(own, "package.json"), path.join(folder, "package.json"));
  return folder;
}

interface Side {
  name: string;
  server: BenchServer;
  get(path: string): Promise<number>;
}

async function side(name: string, folder: string): Promise<Side> {
  const database = process.env.BENCH_DATABASE_URL ? { DATABASE_URL: process.env.BENCH_DATABASE_URL } : {};
  const server = await startServer({ cwd: folder, env: { MIGRATIONS_DIR: path.join(repo, "app/db/migrations"), ...database } });
  const cookie = await server.signIn(process.env.BENCH_ACCOUNT ?? demoAccounts.manager);
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const get = (url: string) =>
    new Promise<number>((resolve, reject) => {
      http
        .get(`${server.base}${url}`, { agent, headers: { cookie, "accept-encoding": "gzip, deflate, br" } }, (res) => {
          res.resume();
          res.on("end", () => resolve(res.statusCode ?? 0));
        })
        .on("error", reject);
    });
  return { name, server, get };
}

const folders = [runFolder(dirA), runFolder(dirB)];
const sides: Side[] = [];
try {
  sides.push(await side("A", folders[0]), await side("B", folders[1]));
  console.log(`A = ${dirA}, B = ${dirB}; ${requests} requests a page and build after ${warmup} of warm-up, in alternating batches of ${BATCH}.`);
  console.log("CPU ms a request, main thread / all threads:\n");
  console.log("| page | A | B | B − A (all threads) |\n|---|---|---|---|");
  for (const url of paths) {
    for (const s of sides) for (let i = 0; i < warmup; i++) await s.get(url);
    const used = new Map(sides.map((s) => [s.name, { main: 0, all: 0 }]));
    let failed = 0;
    for (let round = 0; round < Math.ceil(requests / BATCH); round++) {
      for (const s of round % 2 === 0 ? sides : [...sides].reverse()) {
        const before = cpu(s.server.pid);
        for (let i = 0; i < BATCH; i++) if ((await s.get(url)) >= 400) failed++;
        const after = cpu(s.server.pid);
        const total = used.get(s.name)!;
        total.main += after.main - before.main;
        total.all += after.all - before.all;
      }
    }
    const n = Math.ceil(requests / BATCH) * BATCH;
    const [a, b] = sides.map((s) => used.get(s.name)!);
    const cell = (x: { main: number; all: number }) => `${(x.main / n).toFixed(2)} / ${(x.all / n).toFixed(2)}`;
    const diff = (b.all - a.all) / n;
    const sign = diff >= 0 ? "+" : "−";
    const share = Math.abs((diff / (a.all / n)) * 100).toFixed(0);
    console.log(`| ${url} | ${cell(a)} | ${cell(b)} | ${sign}${Math.abs(diff).toFixed(2)} (${sign}${share} %) |${failed ? ` ${failed} errors` : ""}`);
  }
} finally {
  for (const s of sides) await s.server.stop();
  for (const folder of folders) fs.rmSync(folder, { recursive: true, force: true });
}
