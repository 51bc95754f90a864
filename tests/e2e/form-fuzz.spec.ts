import fs from "node:fs";
import path from "node:path";
import type { APIRequestContext, BrowserContext, Page } from "@playwright/test";
import { screens } from "../../app/route-access";
import { isReportCode } from "../../app/db/report-identifier";
import { accounts, DEMO_PASSWORD, expect, test, waitForMail } from "./fixtures";
import { continueToEntity, fillAccount } from "./helpers";
import { type AppServer, startServer } from "./server";

/**
 * Hostile input against every form the app renders (the counterpart of tests/db/api-fuzz.test.ts for the
 * screens), over HTTP against the built server, as an administrator, a technician and a visitor. The
 * forms are found as a visitor without JavaScript finds them: every screen of the route table, and the screens
 * their links lead to (one address per route and tab, view or dialog), plus the visitor's screens behind a
 * step or a mailed link (a sticker's report page, the sign-up's second step, a password-reset link's form),
 * read from the page's DOM
 * (`form.elements`, so fields joined to a form by `form=` count). Each form, once per submit button's
 * intent, is then posted with its rendered values and one kind of damage at a time: NUL bytes, 10,001
 * characters, ids of 2^31 or text, options no select offers, fields missing or given twice, an unknown
 * intent or a list button's intent conform cannot apply, a list index of 10^8, a multipart body (whole or
 * cut off), and ids that are not ids in its address. No answer may be a 5xx. What each form answers
 * exactly is tested by its own spec.
 *
 * Posts that are valid but for the damage may change records, so the test runs its own server on a copy
 * of the demo data: the worker's server and the other tests never see it. JavaScript-on project only (it
 * renders nothing in a browser but the pages it reads).
 */

const SCREEN_PARAMS = ["tab", "view", "dialog", "type", "step", "token"];
const NUL = "a\u0000b";
/** Longer than any field of the app may be (the longest allow 5,000 characters). */
const LONG = "x".repeat(10_001);
const NOT_IDS = ["2147483648", "abc"];
/** Field names that carry a number: ids, pages, sizes, enumerations. */
const NUMERIC = /(^id$|Id$|Ids$|^ids$|page|size|floor|priority|status|order|count|number|year|month|day|hour|minutes?|^after$)/i;

interface Field {
  name: string;
  type: string;
  value: string | null;
  select: boolean;
}
interface FormVariant {
  key: string;
  page: string;
  action: string;
  multipart: boolean;
  fields: Field[];
  submitter: [string, string] | null;
}

test.describe("forms under hostile input", () => {
  test.skip(({ javaScriptEnabled }) => !javaScriptEnabled, "HTTP only: the forms are read once, without JavaScript");

  let server: AppServer;
  let dataDir: string;
  let reportCode: string;

  test.beforeAll(async () => {
    const template = process.env.E2E_TEMPLATE_DIR;
    if (!template) throw new Error("E2E_TEMPLATE_DIR is not set: run the suite with `playwright test`");
    dataDir = path.join(path.dirname(template), `form-fuzz-${process.pid}`);
    fs.rmSync(dataDir, { recursive: true, force: true });
    fs.cpSync(template, dataDir, { recursive: true });
    server = await startServer({ dataDir });
    // The occupier's report page of a room: the public form behind every sticker.
    const login = await fetch(`${server.url}/api/authentication/login`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ username: accounts.admin, password: DEMO_PASSWORD }) });
    const headers = { Authorization: `Bearer ${((await login.json()) as { jwtToken: string }).jwtToken}` };
    const [room] = (await (await fetch(`${server.url}/api/facilities/rooms?size=1`, { headers })).json()) as { id: number }[];
    reportCode = ((await (await fetch(`${server.url}/api/facilities/rooms/${room.id}`, { headers })).json()) as { reportIdentifier: string }).reportIdentifier;
    expect(reportCode).toBeTruthy();
  });

  test.afterAll(async () => {
    await server?.stop();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  });

  test("every form of an administrator, a technician and a visitor answers damaged posts with a 2xx, 3xx or 4xx", async ({ browser }) => {
    test.setTimeout(240_000);
    const problems: string[] = [];
    const seen = new Set<number>();
    let posts = 0;

    // The technician's screens show a few forms the administrator's do not (their notifications); each
    // variant is posted once, for the first of the three who sees it. The visitor goes first: the
    // administrator's posts may archive the room whose report page the visitor reads.
    const posted = new Set<string>();
    for (const who of [null, accounts.admin, accounts.technician]) {
      const context = await browser.newContext({ baseURL: server.url, javaScriptEnabled: false });
      try {
        const signIn = async () => {
          if (!who) return;
          const res = await context.request.post("/login", { form: { email: who, password: DEMO_PASSWORD }, maxRedirects: 0 });
          expect(res.status(), `sign-in of ${who}`).toBe(302);
        };
        await signIn();
        const crawlStarted = Date.now();
        const more = who ? [] : [`/report/${reportCode}`, ...(await behindStepAndLink(context))];
        const forms = (await collectForms(context, who !== null, more)).filter((form) => !posted.has(form.key));
        for (const form of forms) posted.add(form.key);
        if (process.env.SHOW) console.log(`${who ?? "visitor"}: ${forms.length} forms, read in ${Date.now() - crawlStarted} ms\n${forms.map((f) => `  ${f.key.slice(0, 120)}`).join("\n")}`);
        expect(forms.length, `forms found ${who ?? "signed out"}`).toBeGreaterThan(who === accounts.admin ? 40 : who ? 0 : 3);
        if (!who) {
          for (const key of ["/signup intent=finish", "/password/reset intent=reset", "/report/:code -"]) {
            expect(forms.some((form) => form.key.startsWith(key)), `the visitor's form ${key}`).toBe(true);
          }
        }
        const actions = new Set<string>();
        for (const form of forms) {
          const action = patternOf(form.action.split("?")[0]);
          const firstOfAction = !actions.has(action);
          actions.add(action);
          for (const [label, post] of damagedPosts(form, firstOfAction)) {
            posts++;
            const res = await post(context.request);
            const status = res.status();
            seen.add(Math.floor(status / 100) * 100);
            if (status >= 500) problems.push(`${who ?? "visitor"} ${form.key} (${form.page}) ${label}: ${status} ${(await res.text()).slice(0, 200)}`);
            await res.dispose();
          }
          // A post that went through despite its damage may have ended the session: sign in again, so that
          // the next forms are still posted signed in.
          if (who) {
            const alive = await context.request.get("/settings", { maxRedirects: 0 });
            if (alive.status() !== 200) await signIn();
            await alive.dispose();
          }
        }
      } finally {
        await context.close();
      }
    }
    if (process.env.SHOW) console.log({ posts });
    expect(problems, problems.join("\n")).toEqual([]);
    expect(posts).toBeGreaterThan(400);
    // The posts reached the actions: some were turned away (4xx), some answered or redirected.
    expect(seen.has(400) || seen.has(200)).toBe(true);
    expect([...seen].some((s) => s >= 500)).toBe(false);
  });

  /**
   * The visitor's screens that no link leads to: the sign-up's second step (the first step is posted in
   * `context`, whose draft cookie opens it) and a password-reset link's form (a reset asked for the
   * technician, the link read from the server's outbox).
   */
  async function behindStepAndLink(context: BrowserContext): Promise<string[]> {
    const page = await context.newPage();
    await page.goto("/signup");
    await fillAccount(page, { email: `form-fuzz-${Date.now()}@example.test` });
    await continueToEntity(page);
    await page.close();

    const res = await context.request.post("/password/reset", { form: { email: accounts.technician }, maxRedirects: 0 });
    expect(res.status(), "a password reset asked for").toBe(302);
    const { link } = await waitForMail(accounts.technician, 0, 20_000, dataDir);
    expect(link, "the reset mail's link").toContain("token=");
    const url = new URL(link!);
    return ["/signup?step=entity", url.pathname + url.search];
  }
});

/** The route pattern of an address: numbers and codes in the path as parameters, plus the screen's own query parameters. */
function patternOf(address: string): string {
  const url = new URL(address, "http://x");
  // A sticker's code is a parameter whether or not it holds a digit (one in 40 holds none).
  const pathname = url.pathname
    .replace(/\/\d+(?=\/|$)/g, "/:id")
    .replace(/\/[^/]+(?=\/|$)/g, (segment) => (isReportCode(segment.slice(1)) || /^\/(?=[^/]*\d)[\w-]{8,}$/.test(segment) ? "/:code" : segment));
  // The report dialog of the menu is on every screen: one of them is enough.
  if (url.searchParams.get("dialog") === "report") return "dialog=report";
  const params = SCREEN_PARAMS.filter((p) => url.searchParams.has(p)).map((p) => `${p}=${p === "token" ? "*" : url.searchParams.get(p)!.replace(/\d+/g, ":id")}`);
  return `${pathname}${params.length ? `?${params.join("&")}` : ""}`;
}

/** Whether an address is a screen of the route table (not a file, a resource or the REST API). */
const screenPatterns = screens.map((s) => new RegExp(`^/${s.path.replace(/:\w+/g, "[^/]+")}$`));
function isScreen(pathname: string): boolean {
  return screenPatterns.some((re) => re.test(pathname));
}

/**
 * The post forms of the screens reachable from the route table's screens without parameters (signed in:
 * those for users and managers; signed out: the visitor and public ones), one variant per form and
 * submit button, first seen first.
 */
async function collectForms(context: BrowserContext, signedIn: boolean, more: string[]): Promise<FormVariant[]> {
  const starts = screens
    .filter((s) => !s.path.includes(":") && (signedIn ? s.access === "user" || s.access === "manager" || s.access === "admin" : s.access === "visitor" || s.access === "public"))
    .map((s) => `/${s.path}`);
  const queue = [...starts, ...more];
  const visited = new Set<string>();
  const variants = new Map<string, FormVariant>();
  // Three pages read side by side (the server renders one while the browser reads another).
  const pages = await Promise.all([0, 1, 2].map(() => context.newPage()));
  // Only the documents: their stylesheet, images and fonts change nothing about their forms.
  for (const page of pages) await page.route("**/*", (route) => (route.request().resourceType() === "document" ? route.continue() : route.abort()));
  try {
    while (queue.length > 0 && visited.size < 90) {
      const wave: string[] = [];
      while (queue.length > 0 && wave.length < pages.length) {
        const address = queue.shift()!;
        const pattern = patternOf(address);
        if (visited.has(pattern)) continue;
        visited.add(pattern);
        wave.push(address);
      }
      const read = await Promise.all(wave.map((address, i) => readPage(pages[i], address)));
      read.forEach((found, i) => {
        if (!found) return;
        for (const form of found.forms) {
          const action = new URL(form.action);
          if (action.origin !== found.origin || action.pathname === "/logout") continue;
          const submitters: ([string, string] | null)[] = [...(form.plain ? [null] : []), ...form.submitters];
          for (const submitter of submitters) {
            const names = [...new Set(form.fields.map((f) => f.name))].sort().join(",");
            const key = `${patternOf(action.pathname)} ${submitter ? submitterKey(submitter) : "-"} [${names}]`;
            if (variants.has(key)) continue;
            variants.set(key, { key, page: wave[i], action: action.pathname + action.search, multipart: form.multipart, fields: form.fields, submitter });
          }
        }
        for (const href of found.links) {
          const url = new URL(href);
          if (url.origin !== found.origin || !isScreen(url.pathname)) continue;
          if (!visited.has(patternOf(url.pathname + url.search))) queue.push(url.pathname + url.search);
        }
      });
    }
  } finally {
    await Promise.all(pages.map((page) => page.close()));
  }
  return [...variants.values()];
}

/** The post forms and the links of the page at `address`, as its DOM gives them; null for what is not a page. */
async function readPage(page: Page, address: string) {
  const res = await page.goto(address).catch(() => null);
  if (!res || !(res.headers()["content-type"] ?? "").includes("text/html")) return null;
  const found = await page.evaluate(() => {
    const forms = [...document.forms]
      .filter((f) => f.method === "post")
      .map((f) => {
        const controls = [...f.elements] as (HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement | HTMLButtonElement)[];
        const fields = controls
          .filter((e) => e.name && !["submit", "button", "image", "reset"].includes(e.type))
          .map((e) => ({
            name: e.name,
            type: e.type,
            select: e.tagName === "SELECT",
            value: e.type === "file" ? null : e.type === "checkbox" || e.type === "radio" ? ((e as HTMLInputElement).checked ? e.value : null) : e.value,
          }));
        const buttons = controls.filter((e) => e.type === "submit");
        const submitters = buttons.filter((e) => e.name).map((e) => [e.name, e.value] as [string, string]);
        // Pressing Enter, or a button without a name, posts the form without a submitter.
        const plain = buttons.length === 0 || buttons.some((e) => !e.name);
        return { action: f.action, multipart: f.enctype === "multipart/form-data", fields, submitters, plain };
      });
    const links = [...document.querySelectorAll("a[href]")].map((a) => (a as HTMLAnchorElement).href);
    return { forms, links };
  });
  return { ...found, origin: new URL(page.url()).origin };
}

/** A submit button as the variants are told apart: a list button of conform by its kind (insert, remove, ...). */
function submitterKey([name, value]: [string, string]): string {
  // Buttons that differ only by the record they name ("building:12", "building:13") take one path.
  if (name !== "__intent__") return `${name}=${value.replace(/\d+/g, "#")}`;
  try {
    return `${name}=${(JSON.parse(value) as { type?: string }).type}`;
  } catch {
    return `${name}=${value}`;
  }
}

type Post = (request: APIRequestContext) => ReturnType<APIRequestContext["post"]>;

/**
 * The damaged posts of one form variant, each with a label for the report; the damage that does not
 * depend on the fields (the body's encoding, the address) only for the first variant of an action.
 */
function damagedPosts(form: FormVariant, firstOfAction: boolean): [string, Post][] {
  const base = form.fields.filter((f) => f.value !== null).map((f) => [f.name, f.value!] as [string, string]);
  const withSubmitter = (pairs: [string, string][]) => (form.submitter ? [...pairs, form.submitter] : pairs);
  const isText = (f: Field) => !f.select && !["checkbox", "radio", "file"].includes(f.type);
  const urlencoded = (pairs: [string, string][], action = form.action): Post => (request) =>
    request.post(action, {
      headers: { "content-type": "application/x-www-form-urlencoded" },
      data: new URLSearchParams(withSubmitter(pairs)).toString(),
      maxRedirects: 0,
      timeout: 30_000,
    });
  const replace = (pick: (f: Field) => boolean, value: string) =>
    form.fields.filter((f) => pick(f) || f.value !== null).map((f) => [f.name, pick(f) ? value : f.value!] as [string, string]);

  const posts: [string, Post][] = [
    ["NUL in every text field", urlencoded(replace(isText, NUL))],
    ["10,001 characters in every text field", urlencoded(replace(isText, LONG))],
    ...NOT_IDS.map((bad) => [`${bad} in every numeric field`, urlencoded(replace((f) => NUMERIC.test(f.name), bad))] as [string, Post]),
    ["an option no select offers", urlencoded(replace((f) => f.select, "zzz"))],
    ["no field but the intent", urlencoded([])],
    ["every field twice", urlencoded(base.flatMap(([k, v]) => [[k, v], [k, NUL]] as [string, string][]))],
    [
      "an unknown intent",
      (request) =>
        request.post(form.action, {
          headers: { "content-type": "application/x-www-form-urlencoded" },
          data: new URLSearchParams([...base, [form.submitter?.[0] ?? "intent", "\u0000nothing"]]).toString(),
          maxRedirects: 0,
        }),
    ],
  ];
  if (!firstOfAction) return posts;
  posts.push(
    // Conform builds lists up to the highest index named: this one would hold 10^8 slots.
    ["a list index of 10^8", urlencoded([...base, [`${form.fields[0]?.name ?? "name"}[99999999]`, "x"]])],
    ["a list button's intent conform cannot apply", urlencoded([...base, ["__intent__", '{"type":"insert","payload":{"name":"intent"}}']])],
    [
      "the fields as a multipart body",
      (request) => request.post(form.action, { multipart: Object.fromEntries(withSubmitter(replace(isText, NUL))), maxRedirects: 0 }),
    ],
    [
      "a multipart body cut off",
      (request) =>
        request.post(form.action, {
          headers: { "content-type": "multipart/form-data; boundary=XyZ" },
          data: `--XyZ\r\nContent-Disposition: form-data; name="${form.fields[0]?.name ?? "intent"}"\r\n\r\nvalue\r\n--XyZ\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n\u0089PNG`,
          maxRedirects: 0,
        }),
    ],
  );
  // Another record in the address: ids that are not ids.
  if (/\/\d+(?=\/|$|\?)/.test(form.action)) {
    for (const bad of ["2147483648", "abc", "%00"]) posts.push([`${bad} as the address's id`, urlencoded(base, form.action.replace(/\/\d+(?=\/|$|\?)/, `/${bad}`))]);
  }
  return posts;
}
