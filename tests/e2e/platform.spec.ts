import { expect, test } from "./fixtures";

test.describe("platform", () => {
  test("health and readiness probes answer", async ({ request }) => {
    const health = await request.get("/healthz");
    expect(health.status()).toBe(200);
    expect(await health.json()).toEqual({ status: "ok" });
    const ready = await request.get("/readyz");
    expect(ready.status()).toBe(200);
    expect(await ready.json()).toEqual({ status: "ready" });
  });

  test("pages carry security headers with a per-request script nonce", async ({ request }) => {
    const first = await request.get("/forbidden");
    const second = await request.get("/forbidden");
    const csp = first.headers()["content-security-policy"];
    expect(csp).toContain("default-src 'self'");
    expect(csp).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=]+'/);
    expect(second.headers()["content-security-policy"]).not.toBe(csp);
    expect(first.headers()["referrer-policy"]).toBe("strict-origin-when-cross-origin");
    expect(first.headers()["x-request-id"]).toBeTruthy();
  });

  test("an unknown address shows the not-found page with status 404", async ({ page }) => {
    const response = await page.goto("/this/does/not/exist");
    expect(response?.status()).toBe(404);
    await expect(page.getByRole("heading", { name: "Page not found" })).toBeVisible();
    await expect(page.locator('meta[name="theme-color"]')).toHaveAttribute("content", "#1e3a8a");
  });

  test("the language follows Accept-Language, and the switch changes and keeps it", async ({ browser, baseURL }) => {
    const context = await browser.newContext({ baseURL, locale: "nl-BE", extraHTTPHeaders: { "Accept-Language": "nl-BE,nl;q=0.9" } });
    const page = await context.newPage();
    await page.goto("/does-not-exist");
    await expect(page.getByRole("heading", { name: "Pagina niet gevonden" })).toBeVisible();
    await expect(page.locator("html")).toHaveAttribute("lang", "nl-BE");

    await page.goto("/login");
    await expect(page.getByText("Meld u aan op uw account")).toBeVisible();
    await page.getByRole("button", { name: "FR", exact: true }).click();
    await expect(page).toHaveURL(/\/login$/);
    await expect(page.getByText("Connectez-vous à votre compte")).toBeVisible();
    await expect(page.locator("html")).toHaveAttribute("lang", "fr-BE");
    await page.goto("/nowhere");
    await expect(page.getByRole("heading", { name: "Page introuvable" })).toBeVisible();
    await context.close();
  });

  test("hashed build assets are cached for a year", async ({ page, request }) => {
    await page.goto("/forbidden");
    const href = await page.locator('link[rel="stylesheet"]').first().getAttribute("href");
    expect(href).toMatch(/^\/assets\//);
    const css = await request.get(href!);
    expect(css.status()).toBe(200);
    expect(css.headers()["cache-control"]).toContain("max-age=31536000");
    expect(css.headers()["cache-control"]).toContain("immutable");
  });
});

test("an error shows 'Oups... Something happened' in the user's language", async ({ request }) => {
  const english = await request.post("/forbidden", { headers: { "Accept-Language": "en" } });
  expect(english.status()).toBe(405);
  expect(await english.text()).toContain("Oups... Something happened");
  const dutch = await request.post("/forbidden", { headers: { "Accept-Language": "nl-BE" } });
  const html = await dutch.text();
  expect(html).toContain("Oeps... Er is iets gebeurd");
  expect(html).toContain('lang="nl-BE"');
});
