import { accounts, expect, test } from "./fixtures";

/**
 * Forms load their client-side validation (zod, conform's zod adapter, the schema) when first used
 * (decision 021): the page starts without it, a focus in the form loads it, and from then on an empty
 * submission is refused in the browser, without a request. Without JavaScript the server checks (auth.spec.ts).
 */
test.skip(({ javaScriptEnabled }) => !javaScriptEnabled, "the browser's own validation needs JavaScript");

test("the login form validates in the browser once it has been used, and loads the validation only then", async ({ page }) => {
  const scripts: string[] = [];
  page.on("request", (request) => {
    if (request.resourceType() === "script") scripts.push(new URL(request.url()).pathname);
  });
  await page.goto("/login", { waitUntil: "networkidle" });
  const initial = scripts.length;

  const lateScripts = page.waitForResponse((response) => response.request().resourceType() === "script");
  await page.getByLabel("Password").focus();
  await lateScripts;
  await page.waitForLoadState("networkidle");
  expect(scripts.length).toBeGreaterThan(initial);

  let posts = 0;
  page.on("request", (request) => {
    if (request.method() === "POST") posts++;
  });
  // The validator takes a moment to start after its script arrives; until then the server answers
  // (with the same message), so the click is repeated until the browser refuses it by itself.
  await expect(async () => {
    posts = 0;
    await page.getByRole("button", { name: "Login", exact: true }).click();
    await expect(page.getByText("Please enter your email")).toBeVisible();
    expect(posts, "refused in the browser, without a request").toBe(0);
  }).toPass({ timeout: 10_000 });
});

for (const screen of ["/add-user", "/add-incident-type", "/add-room-type"]) {
  test(`${screen} starts without zod and validates in the browser once used`, async ({ page, login }) => {
    await login(accounts.admin);
    const zodLoaded: string[] = [];
    page.on("response", async (response) => {
      if (response.request().resourceType() !== "script") return;
      const body = await response.text().catch(() => "");
      if (body.includes("ZodError")) zodLoaded.push(new URL(response.url()).pathname);
    });
    // (The signed-in shell keeps a live stream open: the network is never idle. Remix's router is
    // initialised once the page has hydrated, its first load complete.)
    await page.goto(screen);
    await page.waitForFunction(() => Boolean((window as unknown as { __remixRouter?: { state: { initialized: boolean } } }).__remixRouter?.state.initialized));
    expect(zodLoaded, "zod is not part of the page's first load").toEqual([]);

    // The router is ready a moment before React has attached the form's handlers on a slow machine: a
    // focus that came too early is given again (blur, focus) until the form answers it.
    const input = page.locator("main form input:visible").first();
    await expect(async () => {
      await input.blur();
      await input.focus();
      await expect.poll(() => zodLoaded.length, { message: "a focus in the form loads the validation", timeout: 1500 }).toBeGreaterThan(0);
    }).toPass({ timeout: 10_000 });

    let posts = 0;
    page.on("request", (request) => {
      if (request.method() === "POST") posts++;
    });
    // The validator takes a moment to start after its script arrives; until then the server answers.
    await expect(async () => {
      posts = 0;
      await page.locator("main form").first().locator('button[type="submit"]:visible').last().click();
      await expect(page.locator('[id$="-error"]:visible').first()).toBeVisible();
      expect(posts, "refused in the browser, without a request").toBe(0);
    }).toPass({ timeout: 15_000 });
  });
}
