import { type APIRequestContext, expect, type Locator, type Page, request as playwrightRequest } from "@playwright/test";

/**
 * Page and API helpers shared by the specs (the fixtures, sign-in and the outbox are in fixtures.ts).
 */

export const DEMO_PASSWORD = "Demo-pass-1!";

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** A control by its label; required fields show a "*" after the label text. */
export const field = (scope: Page | Locator, label: string) => scope.getByLabel(new RegExp(`^${escapeRegExp(label)}\\*?$`));
/** A field's error message (the `<id>-error` element conform links to the field). */
export const fieldError = (page: Page, text: string) => page.locator('[id$="-error"]').getByText(text, { exact: true });
/** The newest success toast. */
export const successToast = (page: Page) => page.locator('[data-type="success"]').last();

/** Saves the signed-in user's language (the language switch's post); the pages follow it. */
export async function setLanguage(page: Page, lng: string) {
  const res = await page.request.post("/set-language", { form: { lng, redirectTo: "/" }, maxRedirects: 0 });
  expect(res.status(), `language ${lng}`).toBe(302);
}

/** A REST session (SPEC.md section 7 login): the bearer token with the user's and entity's ids. */
export async function apiLogin(request: APIRequestContext, username: string, password = DEMO_PASSWORD) {
  const response = await request.post("/api/authentication/login", { data: { username, password } });
  expect(response.status(), `REST login of ${username}`).toBe(200);
  const body = await response.json();
  const token = body.jwtToken as string;
  return { token, userId: body.userId as number, entityId: body.entityId as number, headers: bearer(token) };
}
export const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

/**
 * A request context with a web session (the cookie of the login form's post), or a visitor's (null).
 * Redirects are not followed unless asked, so that a test sees them. Dispose of it at the end.
 */
export async function webSession(baseURL: string, email: string | null, options: { maxRedirects?: number } = {}): Promise<APIRequestContext> {
  const context = await playwrightRequest.newContext({ baseURL, maxRedirects: options.maxRedirects ?? 0 });
  if (email) {
    const res = await context.post("/login", { form: { email, password: DEMO_PASSWORD }, maxRedirects: 0 });
    expect(res.status(), `form login of ${email}`).toBe(302);
    expect(res.headers().location, `form login of ${email}`).not.toMatch(/\/login/);
  }
  return context;
}

// ---------------------------------------------------------------------------
// Sign-up (onboarding.spec.ts, password-reset.spec.ts, a11y.spec.ts, localisation.spec.ts)
// ---------------------------------------------------------------------------
export const SIGNUP_PASSWORD = "Str0ng-pass!";

const textbox = (page: Page, name: string) => page.getByRole("textbox", { name, exact: true });

/** Fills the sign-up's first step (account), in any language (by the fields' ids). */
export async function fillAccount(
  page: Page,
  values: { name?: string; surname?: string; email: string; password?: string; confirm?: string; language?: string },
) {
  await page.locator("#signup-account-name").fill(values.name ?? "Ada");
  await page.locator("#signup-account-surname").fill(values.surname ?? "Lovelace");
  await page.locator("#signup-account-email").fill(values.email);
  await page.locator("#signup-account-password").fill(values.password ?? SIGNUP_PASSWORD);
  await page.locator("#signup-account-confirmPassword").fill(values.confirm ?? values.password ?? SIGNUP_PASSWORD);
  if (values.language) await page.getByRole("combobox", { name: "Language" }).selectOption({ label: values.language });
}

/** Continues from the first step to the second (organisation), in any language. */
export async function continueToEntity(page: Page) {
  await page.locator('button[name="intent"][value="continue"]').click();
  await expect(page).toHaveURL(/\/signup\?step=entity$/);
}

/** Fills the sign-up's second step (organisation) with a Belgian address. */
export async function fillEntity(page: Page, entityName: string) {
  await textbox(page, "Organisation name").fill(entityName);
  await textbox(page, "VAT number").fill("BE0123456789");
  await textbox(page, "Street name").fill("Rue Royale");
  await textbox(page, "Number").fill("12");
  await textbox(page, "Postal code").fill("1000");
  await textbox(page, "City").fill("Brussels");
  await page.getByRole("combobox", { name: "Country" }).selectOption("BE");
}

/** With JavaScript the ALTCHA widget solves by itself; without, answer the question ("What is 7 + 5?"). */
export async function solveCaptcha(page: Page, javaScriptEnabled: boolean, wrong = false) {
  if (javaScriptEnabled) {
    await expect(page.locator('input[name="altcha"]')).toHaveValue(/.+/, { timeout: 30_000 });
    if (wrong) await page.locator('input[name="altcha"]').evaluate((input: HTMLInputElement) => (input.value = btoa("{}")));
    return;
  }
  const label = await page.getByText(/^What is \d+ \+ \d+\?$/).textContent();
  const [, a, b] = /(\d+) \+ (\d+)/.exec(label ?? "") ?? [];
  await page.getByRole("textbox", { name: /What is/ }).fill(String(Number(a) + Number(b) + (wrong ? 1 : 0)));
}

/**
 * Marks the loaded document; `stillSameDocument` then says whether a click was handled by the app's router
 * (JavaScript on: the plain anchors of the menu, tables and dashboard navigate in the app) or loaded a new
 * document (JavaScript off).
 */
export async function markDocument(page: Page, javaScriptEnabled: boolean): Promise<void> {
  if (javaScriptEnabled) {
    await page.waitForFunction(() => Boolean((window as unknown as { __remixRouter?: { state: { initialized: boolean } } }).__remixRouter?.state.initialized));
  }
  await page.evaluate(() => {
    (window as unknown as { __sameDocument?: boolean }).__sameDocument = true;
  });
}

export async function stillSameDocument(page: Page): Promise<boolean> {
  return page.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument === true);
}
