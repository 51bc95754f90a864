import http from "node:http";
import { accounts, expect, test } from "./fixtures";

/**
 * Issue #8, against the built server: cross-site writes refused, bodies limited while read, redirect
 * targets kept on the app. The app's own forms (JavaScript on and off) are covered by the other specs.
 */

test.describe("cross-site requests", () => {
  test("a post carrying the session cookie from another origin is refused; the session lives on", async ({ page, login, baseURL }) => {
    await login(accounts.manager);
    const own = new URL(baseURL!).origin;
    for (const path of ["/set-language", "/logout", "/cookie-consent", "/report-issue"]) {
      const foreign = await page.request.post(path, { headers: { Origin: "https://evil.example" }, form: { lng: "fr-BE", choice: "all", message: "x", type: "0" }, maxRedirects: 0 });
      expect(foreign.status(), path).toBe(403);
      expect((await foreign.text()).length).toBeLessThan(200);
      const sibling = await page.request.post(path, { headers: { "Sec-Fetch-Site": "same-site" }, form: { lng: "fr-BE" }, maxRedirects: 0 });
      expect(sibling.status(), path).toBe(403);
    }
    // Nothing happened: still signed in, still in English.
    await page.goto("/dashboard");
    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(page.locator("html")).toHaveAttribute("lang", "en");
    // The app's own origin is accepted.
    const same = await page.request.post("/set-language", { headers: { Origin: own }, form: { lng: "en", redirectTo: "/dashboard" }, maxRedirects: 0 });
    expect(same.status()).toBe(302);
  });

  test("a REST client without cookies is not concerned", async ({ playwright, baseURL }) => {
    const api = await playwright.request.newContext({ baseURL });
    const res = await api.post("/api/authentication/login", { headers: { Origin: "https://evil.example" }, data: { username: accounts.manager, password: "Demo-pass-1!" } });
    expect(res.status()).toBe(200);
    await api.dispose();
  });
});

test.describe("redirect targets", () => {
  test("a foreign or broken target falls back to a path of the app, never a 5xx", async ({ playwright, baseURL }) => {
    const api = await playwright.request.newContext({ baseURL });
    for (const target of ["/\t/evil.example", "//evil.example", "/\\evil.example", "/.//evil.example", "javascript:alert(1)", "/ok\r\nSet-Cookie: x=y", "/ok\u0000", `/${"a".repeat(5000)}`]) {
      const res = await api.post("/set-language", { form: { lng: "fr-BE", redirectTo: target }, maxRedirects: 0 });
      expect(res.status(), JSON.stringify(target)).toBe(302);
      expect(res.headers()["location"], JSON.stringify(target)).toBe("/");
    }
    await api.dispose();
  });
});

/** Sends `total` bytes to `path` as fast as the server reads them; stops at the first answer. */
function send(base: string, path: string, total: number, declared: boolean): Promise<{ status: number; written: number }> {
  const chunk = Buffer.alloc(64 * 1024, "a");
  return new Promise((resolve, reject) => {
    let written = 0;
    let answered = false;
    const req = http.request(new URL(base + path), {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded", ...(declared ? { "Content-Length": String(total) } : {}) },
    });
    req.on("response", (res) => {
      answered = true;
      res.resume();
      res.on("end", () => resolve({ status: res.statusCode ?? 0, written }));
    });
    req.on("error", (error) => (answered ? undefined : reject(error)));
    const pump = () => {
      while (!answered && !req.destroyed && written < total) {
        written += chunk.length;
        if (!req.write(chunk)) return void req.once("drain", pump);
      }
      if (!answered && !req.destroyed) req.end();
    };
    pump();
  });
}

test.describe("request bodies", () => {
  test("a 100 MB login body is refused with 413, declared or chunked, and not read", async ({ baseURL }) => {
    const hundredMb = 100 * 1024 * 1024;
    const declared = await send(baseURL!, "/login", hundredMb, true);
    expect(declared.status).toBe(413);
    const chunked = await send(baseURL!, "/login", hundredMb, false);
    expect(chunked.status).toBe(413);
    expect(chunked.written).toBeLessThan(16 * 1024 * 1024);
    // The server is fine afterwards.
    expect((await fetch(`${baseURL}/healthz`)).status).toBe(200);
  });
});
