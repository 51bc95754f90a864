import fs from "node:fs";
import path from "node:path";
import AxeBuilder from "@axe-core/playwright";
import { test as base, expect, type Page } from "@playwright/test";

/**
 * The specs import `test` and `expect` from here: `test` checks, after every test, the page it ended
 * on with axe-core and fails on any serious or critical violation (see `axeProblems`).
 */
export const test = base.extend<{ axeAfterEach: void }>({
  axeAfterEach: [
    async ({ page, javaScriptEnabled }, use, testInfo) => {
      await use();
      // A failed test keeps its own error; a page the test never opened has nothing to check.
      if (testInfo.status !== testInfo.expectedStatus || page.isClosed() || !/^https?:/.test(page.url())) return;
      const problems = await axeProblems(page, { javaScriptEnabled });
      expect(problems, `axe on ${page.url()}:\n${problems.join("\n")}`).toEqual([]);
    },
    { auto: true },
  ],
});
export { expect };

/**
 * Serious and critical axe-core violations on the page, one line per failing element; [] for a page
 * that is not HTML. Every rule axe runs by default (WCAG 2.0-2.2 A/AA and best practices) plus
 * target-size (WCAG 2.5.8, off by default); none disabled.
 *
 * axe runs in the page, so a page opened with JavaScript off is checked through a copy: its HTML
 * without scripts (what such a visitor gets), loaded at the same address in a context with
 * JavaScript and the same cookies and window size.
 */
export async function axeProblems(page: Page, { javaScriptEnabled = true } = {}): Promise<string[]> {
  await page.waitForLoadState("load");
  const html = await page.evaluate(() => document.contentType === "text/html").catch(() => false);
  if (!html) return [];
  if (javaScriptEnabled) return analyze(page);
  const source = (await page.content()).replace(/<script\b[\s\S]*?<\/script>/gi, "");
  const url = page.url();
  // Explicitly on: contexts made in a test inherit the project's options, javaScriptEnabled: false included.
  const context = await page.context().browser()!.newContext({ viewport: page.viewportSize(), javaScriptEnabled: true });
  try {
    await context.addCookies(await page.context().cookies());
    const copy = await context.newPage();
    await copy.route((u) => u.href === url, (route) => route.fulfill({ contentType: "text/html; charset=utf-8", body: source }));
    await copy.goto(url);
    return await analyze(copy);
  } finally {
    await context.close();
  }
}

async function analyze(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).options({ rules: { "target-size": { enabled: true } } }).analyze();
  return results.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .flatMap((v) => v.nodes.map((n) => `${v.id} (${v.impact}): ${n.target.join(" ")}: ${n.failureSummary?.replace(/\s+/g, " ") ?? v.help}`));
}

/** Whether the page is wider than the window (a horizontal scroll bar on a phone): the excess in pixels. */
export async function horizontalOverflow(page: Page): Promise<number> {
  return page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
}

/** The demo accounts (SPEC roles: administrator, facility manager, technician; plus a second entity). */
export const accounts = {
  admin: "admin@demo.test",
  manager: "manager@demo.test",
  technician: "technician@demo.test",
  other: "other@demo.test",
} as const;
export const DEMO_PASSWORD = "Demo-pass-1!";

/** Logs in through the login form (works with JavaScript on and off) and waits to leave /login. */
export async function login(page: Page, email: string, password = DEMO_PASSWORD) {
  await page.goto("/login");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Login" }).click();
  await expect(page).not.toHaveURL(/\/login$/);
}

export interface OutboxMail {
  to: string;
  subject: string;
  link: string | null;
  text: string;
  file: string;
}

/** Emails the server wrote to its outbox (DATA_DIR/outbox), oldest first. */
export function readOutbox(): OutboxMail[] {
  const dir = path.join(process.env.E2E_DATA_DIR ?? "", "outbox");
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .filter((f) => f.endsWith(".json"))
    .sort()
    .map((f) => ({ ...JSON.parse(fs.readFileSync(path.join(dir, f), "utf8")), file: f }));
}

/** Waits for a mail to `to` (newest first) to appear in the outbox; jobs deliver within seconds. */
export async function waitForMail(to: string, after = 0, timeoutMs = 20_000): Promise<OutboxMail> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const mail = readOutbox()
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
