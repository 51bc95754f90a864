/**
 * Lighthouse (mobile preset, performance only) on the production build: /login signed out, and signed in as the
 * demo facility manager /facilities and a room form (/update-room/{id}). Lighthouse runs offline against Debian's
 * Chromium; it is installed on first use into node_modules/.cache (never in the app's package.json or lockfile:
 * one of its dependencies asks for `latest`). Prints, per page, the median of BENCH_RUNS runs (default 3) of the
 * score and the main metrics, as Markdown for docs/benchmarks.md.
 *
 *   npm run build && npm run bench:lighthouse
 *
 * Options (environment): BENCH_RUNS (default 3); LIGHTHOUSE_VERSION (default 12.8.2, the last for Node 20);
 * CHROMIUM_PATH (default /usr/bin/chromium, or /usr/bin/chromium-headless-shell where only that is installed).
 * Simulated throttling (slow 4G, 4x CPU slowdown) scales the machine's own timings: on shared cores, run it
 * when the machine is otherwise idle.
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { chromiumFlags, chromiumPath, demoAccounts, firstLink, startServer } from "./lib/server";

const runs = Number(process.env.BENCH_RUNS ?? 3);
const version = process.env.LIGHTHOUSE_VERSION ?? "12.8.2";
const cacheDir = path.resolve("node_modules/.cache", `lighthouse-${version}`);
const cli = path.join(cacheDir, "node_modules/lighthouse/cli/index.js");

function installLighthouse() {
  if (fs.existsSync(cli)) return;
  process.stderr.write(`installing lighthouse@${version} into ${cacheDir} (once)\n`);
  fs.mkdirSync(cacheDir, { recursive: true });
  fs.writeFileSync(path.join(cacheDir, "package.json"), JSON.stringify({ name: "caretaker-lighthouse", private: true }));
  execFileSync("npm", ["install", "--no-audit", "--no-fund", "--no-package-lock", "--prefix", cacheDir, `lighthouse@${version}`], {
    stdio: ["ignore", "ignore", "inherit"],
  });
}

interface Result {
  score: number;
  fcp: number;
  lcp: number;
  tbt: number;
  cls: number;
  si: number;
  tti: number;
}

interface LighthouseJson {
  categories: { performance: { score: number } };
  audits: Record<string, { numericValue?: number; details?: { items?: { url?: string; wastedMs?: number }[] } }>;
  runtimeError?: { message: string };
}

/**
 * One Lighthouse run; a run that Lighthouse itself could not record (its trace errors, such as
 * NO_NAVSTART, seen now and then on this machine) is tried again, twice at most.
 */
function lighthouse(url: string, cookie: string | null, workDir: string, n: number): { result: Result; json: LighthouseJson } {
  for (let attempt = 1; ; attempt++) {
    try {
      return lighthouseOnce(url, cookie, workDir, n);
    } catch (error) {
      if (attempt >= 3) throw error;
      console.error(`${new URL(url).pathname} run ${n}: Lighthouse failed (${String(error).split("\n")[0].slice(0, 120)}), trying again`);
    }
  }
}

function lighthouseOnce(url: string, cookie: string | null, workDir: string, n: number): { result: Result; json: LighthouseJson } {
  const out = path.join(workDir, `run-${n}.json`);
  const args = [
    cli,
    url,
    "--quiet",
    "--only-categories=performance",
    "--output=json",
    `--output-path=${out}`,
    `--chrome-flags=${chromiumFlags.join(" ")}`,
  ];
  if (cookie) args.push(`--extra-headers=${JSON.stringify({ Cookie: cookie })}`);
  execFileSync(process.execPath, args, { env: { ...process.env, CHROME_PATH: chromiumPath }, stdio: ["ignore", "ignore", "inherit"] });
  const json = JSON.parse(fs.readFileSync(out, "utf8")) as LighthouseJson;
  if (json.runtimeError) throw new Error(`lighthouse on ${url}: ${json.runtimeError.message}`);
  const metric = (id: string) => json.audits[id]?.numericValue ?? NaN;
  return {
    json,
    result: {
      score: Math.round(json.categories.performance.score * 100),
      fcp: metric("first-contentful-paint"),
      lcp: metric("largest-contentful-paint"),
      tbt: metric("total-blocking-time"),
      cls: metric("cumulative-layout-shift"),
      si: metric("speed-index"),
      tti: metric("interactive"),
    },
  };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

async function main() {
  installLighthouse();
  const server = await startServer();
  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), "caretaker-lighthouse-"));
  try {
    const cookie = await server.signIn(demoAccounts.manager);
    const roomForm = await firstLink(server.base, "/facilities?tab=rooms", cookie, /\/update-room\/\d+/);
    if (!roomForm) throw new Error("no room in the demo data");
    const pages: [string, string, string | null][] = [
      ["/login", "/login", null],
      ["/facilities", "/facilities", cookie],
      ["/update-room/{id}", roomForm, cookie],
    ];
    const rows: string[] = [];
    const notes: string[] = [];
    for (const [label, url, pageCookie] of pages) {
      // One unmeasured run warms the server (first render of each route) and the disk cache.
      lighthouse(`${server.base}${url}`, pageCookie, workDir, 0);
      const results: Result[] = [];
      let last: LighthouseJson | null = null;
      for (let n = 1; n <= runs; n++) {
        const { result, json } = lighthouse(`${server.base}${url}`, pageCookie, workDir, n);
        results.push(result);
        last = json;
        process.stderr.write(`${label} run ${n}: ${result.score}\n`);
      }
      const m = (key: keyof Result) => median(results.map((r) => r[key]));
      const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
      rows.push(
        `| ${label} | **${m("score")}** (${results.map((r) => r.score).join(", ")}) | ${s(m("fcp"))} | ${s(m("lcp"))} | ${m("tbt").toFixed(0)} ms | ${m("cls").toFixed(3)} | ${s(m("si"))} | ${s(m("tti"))} |`,
      );
      const blocking = last?.audits["render-blocking-resources"]?.details?.items ?? [];
      const unused = last?.audits["unused-javascript"]?.details?.items ?? [];
      notes.push(
        `- ${label}: render-blocking ${blocking.map((i) => i.url?.replace(server.base, "")).join(", ") || "none"}; ` +
          `unused JavaScript flagged in ${unused.length} file(s)`,
      );
    }
    console.log(`Lighthouse ${version}, mobile preset (simulated slow 4G, 4x CPU slowdown), performance only; Chromium ${chromiumVersion()};`);
    console.log(`${os.cpus().length} cores; median of ${runs} runs after one warm-up run (scores of each run in brackets).\n`);
    console.log(`| page | score | FCP | LCP | TBT | CLS | Speed Index | TTI |\n|---|---|---|---|---|---|---|---|`);
    for (const row of rows) console.log(row);
    console.log(`\n${notes.join("\n")}`);
  } finally {
    await server.stop();
    fs.rmSync(workDir, { recursive: true, force: true });
  }
}

function chromiumVersion(): string {
  try {
    return /[\d.]+/.exec(execFileSync(chromiumPath, ["--version"], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }))?.[0] ?? "?";
  } catch {
    return "?";
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
