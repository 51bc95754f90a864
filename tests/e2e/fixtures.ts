import fs from "node:fs";
import path from "node:path";
import { expect, type Page } from "@playwright/test";

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
