import fs from "node:fs";
import path from "node:path";
import { accounts, expect, horizontalOverflow, test, unique } from "./fixtures";
import { field, fieldError } from "./helpers";

/**
 * API tokens (issue 50, decision 056), with JavaScript on and off (the two projects): an administrator
 * makes a token at /administration/api-tokens and sees its secret once; a call to the API with it
 * succeeds (with its rate-limit headers); revoked after the confirmation, the next call is refused (401).
 * A facility manager sees the list without the form.
 */
const t = JSON.parse(fs.readFileSync(path.join("app/locales/en/apiTokens.json"), "utf8")) as {
  form: { name: string; role: string; expiry: string; submit: string };
  list: { revokeNamed: string };
  revoke: { confirm: string };
  readOnly: string;
  created: { secret: string };
  validation: { nameRequired: string };
};

test("an administrator makes a token, calls the API with it, revokes it and the next call is refused", async ({ page, login, request }) => {
  await login(accounts.admin, { consent: true });
  await page.goto("/administration/api-tokens");
  const name = unique("ERP sync");
  await page.getByLabel(t.form.name).fill(name);
  await page.getByLabel(t.form.role).selectOption("3");
  await page.getByRole("button", { name: t.form.submit }).click();

  const secretField = page.getByTestId("new-token").getByRole("textbox", { name: t.created.secret });
  await expect(secretField).toBeVisible();
  const secret = await secretField.inputValue();
  expect(secret).toMatch(/^ct_[A-Za-z0-9_-]{43}$/);

  const call = () => request.get("/api/facilities", { headers: { Authorization: `Bearer ${secret}`, "X-Language": "en" } });
  const ok = await call();
  expect(ok.status()).toBe(200);
  expect(Array.isArray(await ok.json())).toBe(true);
  expect(ok.headers()["ratelimit-remaining"]).toMatch(/^\d+$/);

  // The list shows it (never its secret), with its last use after a reload.
  await page.goto("/administration/api-tokens");
  await expect(page.getByText(name)).toBeVisible();
  await expect(page.getByText(secret)).toHaveCount(0);

  await page.getByRole("link", { name: t.list.revokeNamed.replace("{{name}}", name) }).click();
  await expect(page).toHaveURL(/\?revoke=\d+$/);
  await page.getByRole("button", { name: t.revoke.confirm }).click();
  await expect(page).toHaveURL(/\/administration\/api-tokens$/);
  await expect(page.getByRole("link", { name: t.list.revokeNamed.replace("{{name}}", name) })).toHaveCount(0);

  const refused = await call();
  expect(refused.status()).toBe(401);
  expect(await refused.json()).toMatchObject({ code: "UNAUTHORIZED" });
});

test("the API's contract is served: the OpenAPI document and its self-contained page", async ({ request, page: browserPage }) => {
  const doc = await request.get("/api/openapi.json");
  expect(doc.status()).toBe(200);
  expect((await doc.json()).openapi).toBe("3.1.0");
  const page = await request.get("/api/docs");
  expect(page.status()).toBe(200);
  expect(page.headers()["content-type"]).toMatch(/^text\/html/);
  expect(await page.text()).toContain("/api/facilities/rooms/{id}");
  // The page reads on a phone: its long paths and JSON examples scroll inside their boxes, not the page.
  await browserPage.setViewportSize({ width: 390, height: 844 });
  await browserPage.goto("/api/docs");
  expect(await horizontalOverflow(browserPage)).toBe(0);
});

test("a facility manager sees the tokens but cannot make one", async ({ page, login }) => {
  await login(accounts.manager, { consent: true });
  await page.goto("/administration/api-tokens");
  await expect(page.getByText(t.readOnly)).toBeVisible();
  await expect(page.getByRole("button", { name: t.form.submit })).toHaveCount(0);
});

test("on a phone (390 px) the page never scrolls sideways, with a long token name and its secret shown", async ({ page, login }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await login(accounts.admin, { consent: true });
  await page.goto("/administration/api-tokens");
  // A long name without spaces (the most a name may hold is 100 characters).
  const name = unique("Nightly-synchronisation-with-the-accounting-warehouse-and-the-ERP").slice(0, 100);
  await field(page, t.form.name).fill(name);
  await field(page, t.form.role).selectOption("3");
  await page.getByRole("button", { name: t.form.submit }).click();
  await expect(page.getByTestId("new-token").getByRole("textbox", { name: t.created.secret })).toBeVisible();
  const overflow = () => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(await overflow(), "the page with the new secret shown").toBeLessThanOrEqual(0);

  // The list with the token in it, and its revoke confirmation.
  await page.goto("/administration/api-tokens");
  await expect(page.getByText(name)).toBeVisible();
  expect(await overflow(), "the page with the list").toBeLessThanOrEqual(0);
  await page.getByRole("link", { name: t.list.revokeNamed.replace("{{name}}", name) }).click();
  await expect(page.getByRole("button", { name: t.revoke.confirm })).toBeVisible();
  expect(await overflow(), "the page with the revoke confirmation").toBeLessThanOrEqual(0);
});

test.describe("on a phone with a touch screen", () => {
  // A phone's browser: a page wider than the screen is laid out wider and zoomed out, and a tap lands on
  // whatever is drawn at that point of the zoomed page.
  test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

  test("a tap on Create token posts the form, with a token listed: without a name, the error in English and the choices kept", async ({ page, login }) => {
    await login(accounts.admin, { consent: true });
    await page.goto("/administration/api-tokens");
    const name = unique("Nightly-synchronisation-with-the-accounting-warehouse-and-the-ERP").slice(0, 100);
    await field(page, t.form.name).fill(name);
    await field(page, t.form.role).selectOption("3");
    await page.getByRole("button", { name: t.form.submit }).tap();
    await expect(page.getByTestId("new-token").getByRole("textbox", { name: t.created.secret })).toBeVisible();
    await expect(page.getByRole("table").getByText(name, { exact: true })).toBeVisible();

    // Now with the token in the list and its secret shown: no name, a role and a lifetime chosen.
    await field(page, t.form.role).selectOption("3");
    await field(page, t.form.expiry).selectOption("30");
    await page.getByRole("button", { name: t.form.submit }).tap();
    await expect(fieldError(page, t.validation.nameRequired)).toBeVisible();
    await expect(field(page, t.form.role)).toHaveValue("3");
    await expect(field(page, t.form.expiry)).toHaveValue("30");
  });
});
