import { createHash } from "node:crypto";
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import type axe from "axe-core";
import { type APIRequestContext, test as base, type Browser, type BrowserContext, expect, type Page } from "@playwright/test";
import { apiLogin, DEMO_PASSWORD } from "./helpers";
import { type AppServer, startServer } from "./server";

/**
 * The specs import `test` and `expect` from here. `test` brings:
 * - `server` (one per worker): the built app serving a copy of the demo data that global setup made,
 *   in a data folder of the worker's own; `baseURL` points at it. Workers never share data, so a test
 *   may change a demo account (its language, for a moment its password) without disturbing the others.
 * - `login(email)`: signs the test's page in with one post of the login form through the page's request
 *   API, which leaves the session cookie in the page's context (auth.spec.ts tests the form itself).
 * - `page`: after a test that used it, the page it ended on is checked with axe-core (serious and
 *   critical violations fail the test), once per screen state and part in the run (`axeState`).
 */
export interface LoginOptions {
  password?: string;
  /** Makes the cookie choice ("technical only") first, so that the cookie banner covers nothing. */
  consent?: boolean;
}

interface TestFixtures {
  login: (email: string, options?: LoginOptions) => Promise<void>;
}
interface WorkerFixtures {
  server: AppServer;
}

export const test = base.extend<TestFixtures, WorkerFixtures>({
  server: [
    // eslint-disable-next-line no-empty-pattern -- Playwright reads the fixtures a fixture needs from this pattern
    async ({}, provide, workerInfo) => {
      const external = process.env.E2E_BASE_URL;
      if (external) {
        await provide(externalServer(external));
        return;
      }
      const template = process.env.E2E_TEMPLATE_DIR;
      if (!template) throw new Error("E2E_TEMPLATE_DIR is not set: run the suite with `playwright test` (its global setup makes it)");
      const dataDir = path.join(path.dirname(template), `worker-${workerInfo.workerIndex}`);
      fs.rmSync(dataDir, { recursive: true, force: true });
      fs.cpSync(template, dataDir, { recursive: true });
      const server = await startServer({ dataDir });
      currentDataDir = dataDir;
      try {
        await provide(server);
      } finally {
        await server.stop();
        fs.rmSync(dataDir, { recursive: true, force: true });
      }
    },
    { scope: "worker", auto: true, timeout: 120_000 },
  ],
  baseURL: async ({ server }, provide) => {
    await provide(server.url);
  },
  login: async ({ page }, provide) => {
    await provide((email, options) => signIn(page, email, options));
  },
  page: async ({ page, javaScriptEnabled }, provide, testInfo) => {
    await provide(page);
    // A failed test keeps its own error; a page the test never opened has nothing to check.
    if (testInfo.status !== testInfo.expectedStatus || page.isClosed() || !/^https?:/.test(page.url())) return;
    const problems = await axeProblemsOnce(page, { javaScriptEnabled });
    expect(problems, `axe on ${page.url()}:\n${problems.join("\n")}`).toEqual([]);
  },
});
export { expect };

let currentDataDir = process.env.E2E_DATA_DIR ?? "";

function externalServer(url: string): AppServer {
  return {
    url,
    dataDir: currentDataDir,
    async setClockOffset() {
      throw new Error("the clock of a server started elsewhere (E2E_BASE_URL) cannot be moved");
    },
    async stop() {},
  };
}

/**
 * Signs `page` in as `email` by posting the login form with the page's request API: the answer's
 * session cookie lands in the page's browser context. The page stays where it was: open a screen next.
 */
export async function signIn(page: Page, email: string, { password = DEMO_PASSWORD, consent = false }: LoginOptions = {}) {
  const res = await page.request.post("/login", { form: { email, password }, maxRedirects: 0 });
  expect(res.status(), `sign-in of ${email}`).toBe(302);
  expect(res.headers().location, `sign-in of ${email}`).not.toMatch(/\/login/);
  if (consent) {
    // The `consent` cookie the banner's "Technical only" sets.
    const value = encodeURIComponent(Buffer.from(JSON.stringify("technical")).toString("base64"));
    await page.context().addCookies([{ name: "consent", value, url: new URL(res.url()).origin }]);
  }
}

/** Logs in through the login form (works with JavaScript on and off) and waits to leave /login. */
export async function loginThroughForm(page: Page, email: string, password = DEMO_PASSWORD) {
  await page.goto("/login");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Login" }).click();
  await expect(page).not.toHaveURL(/\/login$/);
}

// ---------------------------------------------------------------------------
// Accessibility
// ---------------------------------------------------------------------------

/**
 * What axe has to check once per run (decision 016): a screen state and the parts shown on it.
 *
 * The screen state is the route (ids and free text left out), the query parameters that change what the
 * screen shows (a tab, a dialog, a view; not a list's filters), phone or desktop, JavaScript on or off,
 * and the parts that change the page's structure (dialog, field errors, alerts, open menus). The same
 * screen in another language, for another role, or with a toast or the cookie banner over it, is the same
 * markup with other texts or one more component: those are parts, each checked once per width and
 * JavaScript mode (every language, the toast, the banner), on whichever screen shows it first. The walk of
 * a11y.spec.ts checks every screen in the three languages, on a desktop and a phone, for each role.
 * Null for a page that is not HTML.
 */
interface AxeState {
  screen: string;
  parts: string[];
  /** The screen state without the width and the JavaScript mode: where colour contrast is checked once. */
  colours: string;
}

/** Query parameters that change what a screen shows (others filter or page a list). */
const SCREEN_PARAMS = new Set(["tab", "dialog", "view", "activity", "filter", "sent", "token", "invitation", "step"]);

async function axeState(page: Page, javaScriptEnabled: boolean, screen?: string): Promise<AxeState | null> {
  const state = await page
    .evaluate(
      ({ screen, screenParams }) => {
        if (document.contentType !== "text/html") return null;
        const url = new URL(location.href);
        const route =
          screen ??
          url.pathname
            .replace(/\/[0-9a-f-]{36}(?=\/|$)/gi, "/:uuid").replace(/\/\d+(?=\/|$)/g, "/:id")
            // Codes and tokens in a path (a sticker's code, a date).
            .replace(/\/(?=[^/]*\d)[\w-]{8,}(?=\/|$)/g, "/:code");
        const params = [...url.searchParams.entries()]
          .filter(([k]) => screenParams.includes(k))
          .map(([k, v]) => `${k}=${/^[a-z-]{0,24}$/.test(v) ? v : "*"}`)
          .sort()
          .join("&");
        const shown = (parts: Record<string, string>) =>
          Object.entries(parts)
            .filter(([, selector]) => document.querySelector(selector))
            .map(([name]) => name);
        const structure = shown({ dialog: 'dialog[open], [role="dialog"]', invalid: '[aria-invalid="true"]', alert: '[role="alert"]', open: "details[open]" });
        const extras = shown({ toast: "[data-type]", banner: "[data-cookie-banner]" });
        return { route, params, structure, extras, lang: document.documentElement.lang, phone: window.innerWidth < 768 };
      },
      { screen, screenParams: [...SCREEN_PARAMS] },
    )
    .catch(() => null);
  if (state === null) return null;
  const mode = `${javaScriptEnabled ? "js" : "no-js"} ${state.phone ? "phone" : "desktop"}`;
  const screenState = `${state.route}?${state.params} ${state.structure.join(",")}`;
  return {
    screen: `${mode} ${screenState}`,
    parts: [`${mode} lang=${state.lang}`, ...state.extras.map((extra) => `${mode} part=${extra}`)],
    colours: `colours ${screenState}`,
  };
}

/** Claims what the state brings that no check of this run has covered: true when there is something. */
function claimAxeState(state: AxeState): boolean {
  // Every key is claimed (no short cut), so that the parts shown here count as checked too.
  return [state.screen, ...state.parts].map((key) => claimAxeCheck(key)).includes(true);
}

/**
 * Claims a key for this run: true the first time any worker asks for it. The claims are files in
 * E2E_AXE_DIR (made by global setup), created exclusively; without it, always true.
 */
function claimAxeCheck(key: string): boolean {
  const dir = process.env.E2E_AXE_DIR;
  if (!dir) return true;
  try {
    fs.writeFileSync(path.join(dir, createHash("sha1").update(key).digest("hex")), `${key}\n`, { flag: "wx" });
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw error;
  }
}

/**
 * `axeProblems` for a page whose state was not checked yet in this run; [] for one already checked.
 * `screen` names the page's component where several addresses render the same one (the coming-soon
 * placeholder), so that it is checked once for all of them.
 */
export async function axeProblemsOnce(page: Page, { javaScriptEnabled = true, screen }: { javaScriptEnabled?: boolean; screen?: string } = {}): Promise<string[]> {
  const state = await axeState(page, javaScriptEnabled, screen);
  if (state === null || !claimAxeState(state)) return [];
  const started = Date.now();
  const colours = claimAxeCheck(state.colours);
  const problems = await axeProblems(page, { javaScriptEnabled, colours });
  noteAxeTime(state, Date.now() - started, colours);
  return problems;
}

/** Notes a check and how long it took, with the parts it covered (global teardown sums and lists them). */
function noteAxeTime(state: AxeState, ms: number, colours: boolean) {
  const dir = process.env.E2E_AXE_DIR;
  if (dir) fs.appendFileSync(path.join(dir, "checks.tsv"), `${ms}\t${state.screen}\t${[...state.parts, ...(colours ? ["colours"] : [])].join(" | ")}\n`);
}

/**
 * Serious and critical axe-core violations on the page, one line per failing element; [] for a page
 * that is not HTML. Every rule axe runs by default (WCAG 2.0-2.2 A/AA and best practices) plus
 * target-size (WCAG 2.5.8, off by default); none disabled, but `color-contrast` when `colours` is false
 * (the colours of the same screen state were checked at another width or JavaScript mode).
 *
 * axe runs in the page, so a page opened with JavaScript off is checked through a copy: its HTML
 * without scripts (what such a visitor gets), loaded at the same address in a context with
 * JavaScript and the same cookies and window size.
 */
export async function axeProblems(page: Page, { javaScriptEnabled = true, colours = true } = {}): Promise<string[]> {
  await page.waitForLoadState("load");
  const html = await page.evaluate(() => document.contentType === "text/html").catch(() => false);
  if (!html) return [];
  if (javaScriptEnabled) return analyze(page, colours);
  // Without its scripts, and without the module preloads that would fetch and compile them for nothing.
  const source = (await page.content()).replace(/<script\b[\s\S]*?<\/script>/gi, "").replace(/<link\b[^>]*\brel="modulepreload"[^>]*>/gi, "");
  const url = page.url();
  const context = await copyContext(page.context().browser()!);
  await context.clearCookies();
  await context.addCookies(await page.context().cookies());
  const copy = await context.newPage();
  try {
    const viewport = page.viewportSize();
    if (viewport) await copy.setViewportSize(viewport);
    await copy.route((u) => u.href === url, (route) => route.fulfill({ contentType: "text/html; charset=utf-8", body: source }));
    await copy.goto(url);
    return await analyze(copy, colours);
  } finally {
    await copy.close();
  }
}

/**
 * The context where copies of JavaScript-off pages are checked: one per browser (so per worker), kept for
 * the worker's tests, so that each check does not start a browser context and fetch the stylesheet again.
 */
const copyContexts = new WeakMap<Browser, Promise<BrowserContext>>();
function copyContext(browser: Browser): Promise<BrowserContext> {
  let context = copyContexts.get(browser);
  if (!context) {
    // Explicitly on: contexts made in a test inherit the project's options, javaScriptEnabled: false included.
    context = browser.newContext({ javaScriptEnabled: true });
    copyContexts.set(browser, context);
  }
  return context;
}

/** axe-core's minified build (the package's `source` is the unminified one, twice as long to parse). */
const AXE_SOURCE = fs.readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

async function analyze(page: Page, colours: boolean): Promise<string[]> {
  // axe runs in the page itself, injected once (the app has no iframes to gather results from, which
  // @axe-core/playwright's default mode opens an extra page for, and its legacy mode injected axe twice
  // per check), and only violations are collected in full: every other rule always runs (decision 016).
  // `color-contrast` only where the run has not checked the screen state's colours yet at another width
  // or JavaScript mode: the stylesheet and its colours are the same.
  await page.evaluate(AXE_SOURCE);
  const options: axe.RunOptions = {
    resultTypes: ["violations"],
    // Label in name (WCAG 2.5.3) is experimental in axe, so off by default: on here.
    rules: { "target-size": { enabled: true }, "label-content-name-mismatch": { enabled: true }, "color-contrast": { enabled: colours } },
  };
  const results = await page.evaluate((options) => (window as unknown as { axe: typeof axe }).axe.run(document, options), options);
  return results.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .flatMap((v) => v.nodes.map((n) => `${v.id} (${v.impact}): ${n.target.join(" ")}: ${n.failureSummary?.replace(/\s+/g, " ") ?? v.help}`));
}

/** Whether the page is wider than the window (a horizontal scroll bar on a phone): the excess in pixels. */
export async function horizontalOverflow(page: Page): Promise<number> {
  return page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
}

// ---------------------------------------------------------------------------
// Demo accounts and the outbox
// ---------------------------------------------------------------------------

/** The demo accounts (SPEC roles: administrator, facility manager, technician; plus a second entity). */
export const accounts = {
  admin: "admin@demo.test",
  manager: "manager@demo.test",
  technician: "technician@demo.test",
  other: "other@demo.test",
} as const;
export { DEMO_PASSWORD };

export interface OutboxMail {
  to: string;
  subject: string;
  link: string | null;
  text: string;
  file: string;
}

/** Emails this worker's server (or the server of `dataDir`) wrote to its outbox (DATA_DIR/outbox), oldest first. */
export function readOutbox(dataDir = currentDataDir): OutboxMail[] {
  const dir = path.join(dataDir, "outbox");
  if (!dataDir || !fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .filter((f) => f.endsWith(".json"))
    .sort()
    .map((f) => ({ ...JSON.parse(fs.readFileSync(path.join(dir, f), "utf8")), file: f }));
}

/** Waits for a mail to `to` (newest first) to appear in the outbox; jobs deliver within seconds. */
export async function waitForMail(to: string, after = 0, timeoutMs = 20_000, dataDir = currentDataDir): Promise<OutboxMail> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const mail = readOutbox(dataDir)
      .slice(after)
      .reverse()
      .find((m) => m.to.toLowerCase() === to.toLowerCase());
    if (mail) return mail;
    if (Date.now() > deadline) throw new Error(`no mail to ${to} within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** A unique suffix for values a test creates (tests run twice: JavaScript on and off). */
export function unique(prefix: string) {
  return `${prefix}-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
}

/**
 * A person of the test's own in the demo entity, invited by the administrator whose REST `headers` are
 * given, who chose their password through the invitation's link: a test that changes its account (its
 * language, its notifications) does so without touching the demo accounts that specs running beside it
 * sign in as. `linkedObjects` defaults to every facility of the entity (administrators need none).
 */
export async function newPerson(
  request: APIRequestContext,
  adminHeaders: Record<string, string>,
  person: { role: number; language: number; name: string; surname: string; prefix: string; receiveNotification?: boolean },
) {
  const facilities = (await (await request.get("/api/facilities?size=100", { headers: adminHeaders })).json()) as { id: number }[];
  const email = `${unique(person.prefix)}@example.test`;
  const created = await request.post("/api/users", {
    headers: adminHeaders,
    data: {
      name: person.name,
      surname: person.surname,
      email,
      role: person.role,
      language: person.language,
      receiveNotification: person.receiveNotification ?? false,
      linkedObjects: { facilityIds: facilities.map((f) => f.id), buildingIds: [] },
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const invitation = await waitForMail(email);
  const token = new URL(invitation.link!).searchParams.get("token");
  const password = "Own-person-pass-1!";
  expect((await request.post("/api/users/password/reset", { data: { token, newPassword: password } })).status()).toBe(200);
  return { email, password, ...(await apiLogin(request, email, password)) };
}
