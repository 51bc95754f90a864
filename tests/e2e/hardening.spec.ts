import http from "node:http";
import { accounts, expect, test } from "./fixtures";
import { apiLogin } from "./helpers";

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

test.describe("unread bodies", () => {
  test.skip(({ javaScriptEnabled }) => !javaScriptEnabled, "HTTP only");

  test("an answer sent without reading the body leaves the connection serving the next request", async ({ request, baseURL }) => {
    const { headers } = await apiLogin(request, accounts.admin);
    // One kept connection: each request reuses it.
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const call = (method: string, path: string, size: number) =>
      new Promise<{ status: number; connection?: string }>((resolve, reject) => {
        const body = Buffer.alloc(size, "a");
        const req = http.request(new URL(baseURL + path), { agent, method, headers: { ...headers, "Content-Type": "application/json", "Content-Length": String(size) } }, (res) => {
          res.resume();
          res.on("end", () => resolve({ status: res.statusCode ?? 0, connection: res.headers.connection }));
        });
        req.on("error", reject);
        req.end(body);
      });
    try {
      // A route without POST (405) and an unknown call (404) do not read the
      // 700 KB sent: the next request on the same connection is still answered.
      for (const [method, path, status] of [["POST", "/api/facilities/1", 405], ["PUT", "/api/no-such-call", 404]] as const) {
        expect(await call(method, path, 700 * 1024), `${method} ${path}`).toEqual({ status, connection: "keep-alive" });
        expect((await call("GET", "/api/facilities?size=1", 0)).status, `after ${method} ${path}`).toBe(200);
      }
    } finally {
      agent.destroy();
    }
  });
});
