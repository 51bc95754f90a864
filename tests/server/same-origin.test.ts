import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer } from "./harness";

let local: Awaited<ReturnType<typeof startServer>>;
let configured: Awaited<ReturnType<typeof startServer>>;
beforeAll(async () => {
  // Without APP_URL the request's own origin is the app's; with it, APP_URL's origin.
  local = await startServer({ settings: { RATE_LIMIT_MULTIPLIER: 1000 } });
  configured = await startServer({ settings: { RATE_LIMIT_MULTIPLIER: 1000, APP_URL: "https://care.example.org/app", appUrlConfigured: true } });
});
afterAll(async () => {
  await local.close();
  await configured.close();
});

const form = { "Content-Type": "application/x-www-form-urlencoded" };
async function send(server: typeof local, path: string, headers: Record<string, string>, method = "POST") {
  const res = await fetch(server.base + path, { method, headers: { ...form, ...headers }, body: method === "GET" ? undefined : "lng=fr-BE&redirectTo=%2F", redirect: "manual" });
  return { status: res.status, body: await res.text() };
}

describe("state-changing requests with a cookie must be same-origin", () => {
  const cookie = { Cookie: "__session=abc" };

  for (const path of ["/set-language", "/logout", "/cookie-consent", "/report-issue", "/login", "/api/facilities"]) {
    it(`refuses a foreign Origin on ${path} with 403 and a short plain answer`, async () => {
      const answer = await send(local, path, { ...cookie, Origin: "https://evil.example" });
      expect(answer.status).toBe(403);
      expect(answer.body.length).toBeLessThan(200);
    });
  }

  it("answers in the visitor's language, and JSON under /api", async () => {
    expect((await send(local, "/logout", { ...cookie, Origin: "https://evil.example", "Accept-Language": "nl-BE,nl;q=0.9" })).body).toBe(
      "Dit verzoek kwam van een andere site en werd geweigerd.",
    );
    const api = await send(local, "/api/facilities", { ...cookie, Origin: "https://evil.example" });
    expect(JSON.parse(api.body)).toMatchObject({ code: "FORBIDDEN_ORIGIN", messageKey: "common:http.forbiddenOrigin" });
  });

  it("answers a browser's form post with a small page in its language and a way back", async () => {
    const html = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8";
    const page = await fetch(local.base + "/logout", {
      method: "POST",
      headers: { ...form, ...cookie, Origin: "https://evil.example", Accept: html, "Accept-Language": "fr-BE,fr;q=0.9", Referer: "https://evil.example/x" },
      body: "a=1",
    });
    expect(page.status).toBe(403);
    expect(page.headers.get("content-type")).toMatch(/^text\/html/);
    const body = await page.text();
    expect(body).toContain('<html lang="fr-BE">');
    expect(body).toContain("<h1>Cette requête provient d&#39;un autre site et a été refusée.</h1>");
    // Another site's page is never the way back.
    expect(body).toContain('<a href="/">Retour</a>');
  });

  it("refuses what the browser marks as sent by another site, even without Origin", async () => {
    for (const site of ["cross-site", "same-site"]) {
      expect((await send(local, "/set-language", { ...cookie, "Sec-Fetch-Site": site })).status, site).toBe(403);
    }
    for (const method of ["PUT", "PATCH", "DELETE"]) {
      expect((await send(local, "/api/facilities/1", { ...cookie, Origin: "http://evil.example" }, method)).status, method).toBe(403);
    }
  });

  it("lets the app's own posts through: its origin, or Origin null from a same-origin page", async () => {
    const own = new URL(local.base).origin;
    expect((await send(local, "/set-language", { ...cookie, Origin: own, "Sec-Fetch-Site": "same-origin" })).status).toBe(200);
    expect((await send(local, "/set-language", { ...cookie, Origin: own })).status).toBe(200);
    // Chromium under Referrer-Policy: no-referrer.
    expect((await send(local, "/set-language", { ...cookie, Origin: "null", "Sec-Fetch-Site": "same-origin" })).status).toBe(200);
    // A sandboxed frame or a data: page also says null, but not same-origin.
    expect((await send(local, "/set-language", { ...cookie, Origin: "null" })).status).toBe(403);
    expect((await send(local, "/set-language", { ...cookie, Origin: "null", "Sec-Fetch-Site": "cross-site" })).status).toBe(403);
  });

  it("compares with APP_URL's origin when it is configured", async () => {
    expect((await send(configured, "/logout", { ...cookie, Origin: "https://care.example.org" })).status).toBe(200);
    expect((await send(configured, "/logout", { ...cookie, Origin: new URL(configured.base).origin })).status).toBe(403);
    expect((await send(configured, "/logout", { ...cookie, Origin: "http://care.example.org" })).status).toBe(403);
    expect((await send(configured, "/logout", { ...cookie, Origin: "https://care.example.org.evil.example" })).status).toBe(403);
  });

  it("refuses a page's write from another site without a cookie too (Remix would answer 500)", async () => {
    for (const path of ["/login", "/report/ABCDEFGH", "/REPORT/ABCDEFGH"]) {
      const answer = await send(local, path, { Origin: "https://evil.example" });
      expect(answer.status, path).toBe(403);
    }
    expect((await send(local, "/login", {})).status).not.toBe(403);
  });

  it("leaves requests without cookies (REST clients with a bearer token) and reads alone", async () => {
    expect((await send(local, "/api/facilities", { Authorization: "Bearer x", Origin: "https://evil.example" })).status).toBe(200);
    expect((await send(local, "/facilities", { ...cookie, Origin: "https://evil.example", "Sec-Fetch-Site": "cross-site" }, "GET")).status).toBe(200);
  });
});
