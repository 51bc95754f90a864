/**
 * What the browser downloads (issue #9): starts the production build on a fresh embedded database,
 * opens every screen of app/route-access.ts in Debian's Chromium as the role that may see it (the
 * visitor pages signed out, the others as the demo facility manager, a few as the technician), and sums
 * the JavaScript each page loads until the network is idle: the entry script, the modulepreload links
 * of the HTML and whatever the page imports while starting. Each file is counted by its gzip size at
 * level 9 (what a static host serves pre-compressed; the app's own compression is close to it). Prints
 * Markdown for docs/benchmarks.md: one row per page, then the largest chunks and what they hold
 * (from `build/chunk-report.json`, written by scripts/chunk-report.ts during `vite build`).
 *
 *   npm run build && npm run bench:js
 *
 * Options (environment): BENCH_BUDGET_KB (default 150, decision 021); CHROMIUM_PATH (default /usr/bin/chromium, or
 * /usr/bin/chromium-headless-shell where only that is installed).
 * Exits with 1 when a page is over the budget, so it can guard a change.
 */
import fs from "node:fs";
import zlib from "node:zlib";
import { chromium, type Browser } from "@playwright/test";
import { screens, type Screen } from "../app/route-access";
import type { ChunkReportEntry } from "../scripts/chunk-report";
import { chromiumFlags, chromiumPath, demoAccounts, firstLink, startServer } from "./lib/server";

const budgetKb = Number(process.env.BENCH_BUDGET_KB ?? 150);
const gzipSize = (body: Buffer) => zlib.gzipSync(body, { level: 9 }).length;
const kb = (bytes: number) => (bytes / 1024).toFixed(1);

interface Page {
  label: string;
  url: string;
  role: "visitor" | "manager" | "technician";
}

interface Loaded {
  page: Page;
  status: number;
  js: Map<string, number>;
  css: number;
  /** Scripts the page imported after the HTML's own list (dynamic imports while starting). */
  late: string[];
}

/** The pages to open: every screen once per route module, its tabs, and the technician's own screens. */
async function pagesToOpen(base: string, managerCookie: string): Promise<Page[]> {
  // Lists whose rows link to the screens that take an id.
  const lists = ["/facilities", "/facilities?tab=buildings", "/facilities?tab=rooms", "/room-type", "/equipments", "/equipments?tab=categories"];
  const resolve = async (screen: Screen) => {
    if (!screen.path.includes(":")) return `/${screen.path}`;
    const pattern = new RegExp(`/${screen.path.replace(/:[a-z]+/gi, "[\\w-]+")}(?=["'?#&<\\s])`);
    for (const list of lists) {
      const link = await firstLink(base, list, managerCookie, pattern);
      if (link) return link;
    }
    return `/${screen.path.replace(/:[a-z]+/gi, "1")}`; // a placeholder screen: the id does not matter
  };
  const pages: Page[] = [];
  const seenFiles = new Map<string, string>();
  const sharing = new Map<string, string[]>();
  for (const screen of screens) {
    const url = await resolve(screen);
    if (screen.id === "signup-success" || screen.id === "signup-verify") continue; // steps reached from a flow
    const shared = seenFiles.get(screen.file);
    if (shared) {
      // Same route module, same JavaScript: measured once.
      sharing.set(shared, [...(sharing.get(shared) ?? []), `/${screen.path}`]);
      continue;
    }
    seenFiles.set(screen.file, url);
    const role = screen.access === "visitor" || screen.access === "public" ? "visitor" : "manager";
    pages.push({ label: url.replace(/\/\d+(?=\/|$)/g, "/{id}"), url, role });
  }
  for (const page of pages) {
    const others = sharing.get(page.url);
    if (others) page.label += ` (and ${others.length} other screens of the same module: ${others.slice(0, 3).join(", ")}, ...)`;
  }
  pages.push(
    { label: "/facilities?tab=buildings", url: "/facilities?tab=buildings", role: "manager" },
    { label: "/facilities?tab=rooms", url: "/facilities?tab=rooms", role: "manager" },
    { label: "/equipments?tab=categories", url: "/equipments?tab=categories", role: "manager" },
    { label: "/settings?tab=entity", url: "/settings?tab=entity", role: "manager" },
    { label: "/incidents (technician)", url: "/incidents", role: "technician" },
    { label: "/settings (technician)", url: "/settings", role: "technician" },
    { label: "not-found page", url: "/no-such-page", role: "visitor" },
  );
  return pages;
}

async function open(browser: Browser, base: string, page: Page, cookie: string | null): Promise<Loaded> {
  const context = await browser.newContext();
  if (cookie) {
    await context.addCookies(
      cookie.split("; ").map((pair) => {
        const at = pair.indexOf("=");
        return { name: pair.slice(0, at), value: pair.slice(at + 1), url: base };
      }),
    );
  }
  // The signed-in shell keeps a live-notification stream open, so the network would never be idle: the
  // stream answers 204 here (no events; the page's own code is what is weighed).
  await context.route("**/resources/notifications/stream", (route) => route.fulfill({ status: 204, body: "" }));
  const tab = await context.newPage();
  const bodies = new Map<string, Promise<Buffer>>();
  let css = 0;
  const cssBodies: Promise<void>[] = [];
  tab.on("response", (res) => {
    const url = new URL(res.url());
    if (url.origin !== base) return;
    const type = res.request().resourceType();
    if (type === "script" || url.pathname.endsWith(".js")) bodies.set(url.pathname, res.body());
    else if (type === "stylesheet") cssBodies.push(res.body().then((b) => void (css += gzipSize(b))));
  });
  const response = await tab.goto(`${base}${page.url}`, { waitUntil: "networkidle" });
  const html = await response!.text();
  const listed = new Set([...html.matchAll(/\/assets\/[\w.-]+\.js/g)].map((m) => m[0]));
  const js = new Map<string, number>();
  for (const [path, body] of bodies) js.set(path, gzipSize(await body));
  await Promise.all(cssBodies);
  await context.close();
  return { page, status: response!.status(), js, css, late: [...js.keys()].filter((p) => !listed.has(p)) };
}

/** What a chunk holds, by package (node_modules) or app folder, in shares of its gzip size. */
function contents(chunk: ChunkReportEntry | undefined, gzip: number): string {
  if (!chunk) return "";
  const groups = new Map<string, number>();
  let total = 0;
  for (const [id, size] of Object.entries(chunk.modules)) {
    const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(id)?.[1];
    const key = pkg ?? id.split("/").slice(0, id.startsWith("app/components/") ? 3 : 2).join("/");
    groups.set(key, (groups.get(key) ?? 0) + size);
    total += size;
  }
  return [...groups]
    .sort((a, b) => b[1] - a[1])
    .filter(([, size]) => size / total >= 0.03)
    .map(([key, size]) => `${key} ${kb((gzip * size) / total)}`)
    .join(", ");
}

async function main() {
  const report: ChunkReportEntry[] = fs.existsSync("build/chunk-report.json")
    ? JSON.parse(fs.readFileSync("build/chunk-report.json", "utf8"))
    : [];
  const server = await startServer();
  let browser: Browser | undefined;
  try {
    browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumFlags });
    const cookies = {
      visitor: null,
      manager: await server.signIn(demoAccounts.manager),
      technician: await server.signIn(demoAccounts.technician),
    };
    const pages = await pagesToOpen(server.base, cookies.manager);
    const results: Loaded[] = [];
    for (const page of pages) {
      const loaded = await open(browser, server.base, page, cookies[page.role]);
      results.push(loaded);
      const total = [...loaded.js.values()].reduce((a, b) => a + b, 0);
      process.stderr.write(`${page.label}: ${loaded.js.size} files, ${kb(total)} KB\n`);
    }

    console.log(`JavaScript each page loads until the network is idle, gzip -9; budget ${budgetKb} KB per page.\n`);
    console.log(`| page | as | JS files | JS KB gzip | ≤${budgetKb} KB? | CSS KB gzip |\n|---|---|---|---|---|---|`);
    let over = 0;
    for (const r of results) {
      const total = [...r.js.values()].reduce((a, b) => a + b, 0);
      const ok = total <= budgetKb * 1024;
      if (!ok) over++;
      const status = r.status === 200 ? "" : ` (${r.status})`;
      const late = r.late.length ? ` (${r.late.length} loaded late)` : "";
      console.log(`| ${r.page.label}${status} | ${r.page.role} | ${r.js.size}${late} | ${kb(total)} | ${ok ? "yes" : "**no**"} | ${kb(r.css)} |`);
    }

    // The chunks, largest first, with the pages that load them.
    const sizes = new Map<string, number>();
    const usedBy = new Map<string, number>();
    for (const r of results) {
      for (const [path, size] of r.js) {
        sizes.set(path, size);
        usedBy.set(path, (usedBy.get(path) ?? 0) + 1);
      }
    }
    const byFile = new Map(report.map((c) => [`/${c.file}`, c]));
    console.log(`\nLargest chunks (of ${sizes.size} loaded by these ${results.length} pages):\n`);
    console.log(`| chunk | KB gzip | pages | holds (KB gzip, shares of minified size) |\n|---|---|---|---|`);
    for (const [path, size] of [...sizes].sort((a, b) => b[1] - a[1]).slice(0, 15)) {
      console.log(`| ${path.replace("/assets/", "")} | ${kb(size)} | ${usedBy.get(path)}/${results.length} | ${contents(byFile.get(path), size)} |`);
    }
    if (!report.length) console.log("\n(no build/chunk-report.json: rebuild to see what the chunks hold)");
    // What each page over the budget loads beyond the chunks every signed-in page shares.
    const overPages = results.filter((r) => [...r.js.values()].reduce((a, b) => a + b, 0) > budgetKb * 1024);
    // BENCH_JS_ALL_FILES=1 lists every file such a page loads.
    const all = process.env.BENCH_JS_ALL_FILES === "1";
    const which = all ? "every file they load" : `their files of 1 KB or more that fewer than ${Math.ceil(results.length / 2)} pages load`;
    if (overPages.length) console.log(`\nPages over ${budgetKb} KB, ${which}:\n`);
    for (const r of overPages) {
      const own = [...r.js].filter(([path, size]) => all || (size >= 1024 && (usedBy.get(path) ?? 0) < results.length / 2)).sort((a, b) => b[1] - a[1]);
      console.log(`- ${r.page.label}: ${own.map(([path, size]) => `${path.replace("/assets/", "")} ${kb(size)}`).join(", ")}`);
    }
    if (over) {
      console.error(`\n${over} page(s) over ${budgetKb} KB`);
      process.exitCode = 1;
    }
  } finally {
    await browser?.close();
    await server.stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
