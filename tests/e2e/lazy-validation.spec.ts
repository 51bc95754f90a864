import { expect, test } from "./fixtures";

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
  await page.getByRole("button", { name: "Login", exact: true }).click();
  await expect(page.getByText("Please enter your email")).toBeVisible();
  expect(posts).toBe(0);
});
