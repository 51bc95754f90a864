import { pngBytes } from "../factories/files";
import { accounts, DEMO_PASSWORD, expect, test, unique } from "./fixtures";
import { apiLogin, bearer, field, fieldError, setLanguage, successToast, webSession } from "./helpers";

/**
 * /settings (account tab, password dialog, entity tab, explanatory sticker) and its REST routes.
 * Every screen test runs with JavaScript on and off. Tests that change data use the second entity's
 * administrator (other@demo.test) and put every value back before they end, so that they are
 * independent of each other and leave the demo data as it was.
 */

const png = (width: number, height: number) => ({ name: "image.png", mimeType: "image/png", buffer: Buffer.from(pngBytes(width, height)) });

test.describe("settings: account", () => {
  test("saves the account settings and the page follows the chosen language", async ({ page, login }) => {
    await login(accounts.other, { consent: true });
    try {
      await page.goto("/settings");
      await expect(page.getByRole("heading", { name: "Settings", level: 1 })).toBeVisible();
      await expect(page.getByRole("link", { name: "Account Settings" })).toHaveAttribute("aria-current", "page");
      const name = unique("Omar");
      await field(page, "Name").fill(name);
      await field(page, "Receive notifications").check();
      await field(page, "High").check();
      await field(page, "Critical").check();
      await field(page, "Tower (Head Office)").check();
      await field(page, "Picture").setInputFiles(png(24, 24));
      await page.getByRole("combobox", { name: "Language" }).selectOption({ label: "French" });
      await page.getByRole("button", { name: "Save", exact: true }).click();

      // Saved, and rendered again in French.
      await expect(page).toHaveURL(/\/settings$/);
      await expect(successToast(page)).toContainText("Mis à jour");
      // The toast's type is told to screen readers in French too, and the title is French.
      await expect(successToast(page).locator(".sr-only")).toHaveText("Succès\u00a0: ");
      await expect(page.locator("html")).toHaveAttribute("lang", "fr-BE");
      await expect(page).toHaveTitle("Paramètres · Caretaker");
      await expect(page.getByRole("heading", { name: "Paramètres", level: 1 })).toBeVisible();
      await expect(field(page, "Prénom")).toHaveValue(name);
      await expect(field(page, "Recevoir des notifications")).toBeChecked();
      await expect(field(page, "Haute")).toBeChecked();
      await expect(field(page, "Critique")).toBeChecked();
      await expect(field(page, "Basse")).not.toBeChecked();
      await expect(field(page, "Tower (Head Office)")).toBeChecked();
      const picture = page.getByRole("img", { name: "Votre photo" });
      await expect(picture).toBeVisible();
      expect((await page.request.get((await picture.getAttribute("src"))!)).headers()["content-type"]).toBe("image/png");

      // Back to how it was, in English.
      await field(page, "Prénom").fill("Omar");
      await field(page, "Recevoir des notifications").uncheck();
      await field(page, "Haute").uncheck();
      await field(page, "Critique").uncheck();
      await field(page, "Tower (Head Office)").uncheck();
      await field(page, "Supprimer la photo").check();
      await page.getByRole("combobox", { name: "Langue" }).selectOption({ label: "Anglais" });
      await page.getByRole("button", { name: "Enregistrer", exact: true }).click();
      await expect(successToast(page)).toContainText("Updated");
      await expect(page.locator("html")).toHaveAttribute("lang", "en");
      await expect(field(page, "Name")).toHaveValue("Omar");
      await expect(page.getByRole("img", { name: "Your picture" })).toHaveCount(0);
    } finally {
      // Whatever happened, the demo account speaks English again.
      await setLanguage(page, "en");
    }
  });

  test("the notification buildings are a searchable, paged list that keeps the input", async ({ page, login }) => {
    // The demo manager's entity has more buildings than the other one: search them by name.
    await login(accounts.manager, { consent: true });
    await page.goto("/settings");
    await field(page, "Name").fill("Kept while searching");
    await page.getByLabel("Search buildings", { exact: true }).fill("zzz-no-such-building");
    const find = page.getByRole("button", { name: "Find", exact: true });
    // Without JavaScript "Find" submits the search; once the page hydrates the button goes (the field
    // searches as it is typed), so a click racing the hydration may find it gone: that is fine.
    if (await find.isVisible()) await find.click({ timeout: 3000 }).catch(() => undefined);
    await expect(page.getByText("No building matches “zzz-no-such-building”.")).toBeVisible();
    await expect(field(page, "Name")).toHaveValue("Kept while searching");
    // A search the demo data answers on one page, whatever buildings other tests of this worker added
    // (the picker test adds 22 that the manager reaches).
    await page.getByLabel("Search buildings", { exact: true }).fill("Lab Building");
    // Without JavaScript "Find" submits the search; once the page hydrates the button goes (the field
    // searches as it is typed), so a click racing the hydration may find it gone: that is fine.
    if (await find.isVisible()) await find.click({ timeout: 3000 }).catch(() => undefined);
    await expect(page.getByRole("checkbox", { name: "Lab Building A (Science Park)" })).toBeVisible();
    await expect(page.getByText(/^\d+ matching buildings?\.$/)).toBeVisible();
  });

  test("a building search typed before the page's scripts arrive is kept and searched once they run", async ({ page, login, javaScriptEnabled }) => {
    test.skip(!javaScriptEnabled, "about hydration");
    await login(accounts.manager, { consent: true });
    // A slow connection: the client entry arrives only after the person has typed.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(/\/assets\/entry\.client-[\w-]+\.js$/, async (route) => {
      await held;
      await route.continue();
    });
    await page.goto("/settings", { waitUntil: "domcontentloaded" });
    await page.getByLabel("Search buildings", { exact: true }).fill("zzz-typed-early");
    release();
    await expect(page.getByText("No building matches “zzz-typed-early”.")).toBeVisible();
    await expect(page.getByLabel("Search buildings", { exact: true })).toHaveValue("zzz-typed-early");
    await expect(page.getByRole("button", { name: "Find", exact: true })).toBeHidden();
  });

  test("shows the SPEC messages beside the fields and keeps the input", async ({ page, login }) => {
    await login(accounts.other, { consent: true });
    await page.goto("/settings");
    await field(page, "Name").fill("");
    await field(page, "Surname").fill("  ");
    await page.getByRole("button", { name: "Save", exact: true }).click();
    await expect(fieldError(page, "Please set a name")).toBeVisible();
    await expect(fieldError(page, "Please set a surname")).toBeVisible();
    await expect(field(page, "Name")).toHaveAttribute("aria-invalid", "true");

    // A file that is not an image is refused beside the picture field; the other input stays.
    await field(page, "Name").fill("Omar");
    await field(page, "Surname").fill("Vermeulen");
    await field(page, "Picture").setInputFiles({ name: "notes.txt", mimeType: "text/plain", buffer: Buffer.from("hello") });
    await page.getByRole("button", { name: "Save", exact: true }).click();
    await expect(fieldError(page, "Wrong format: use a PNG, JPEG, GIF or WebP image")).toBeVisible();
    await expect(field(page, "Name")).toHaveValue("Omar");
  });

  test("a technician sees no Entity Settings tab and cannot open it", async ({ page, login }) => {
    await login(accounts.technician, { consent: true });
    await page.goto("/settings");
    await expect(page.getByRole("link", { name: "Account Settings" })).toBeVisible();
    await expect(page.getByRole("link", { name: "Entity Settings" })).toHaveCount(0);
    await page.goto("/settings?tab=entity");
    await expect(page).toHaveURL(/\/forbidden$/);
  });
});

test.describe("settings: password", () => {
  test("the dialog checks its fields, then changes the password and changes it back", async ({ page, request, login }) => {
    const temporary = `Temp-${Date.now().toString(36)}-9!`;
    let changed = false;
    await login(accounts.other, { consent: true });
    try {
      await page.goto("/settings");
      await page.getByRole("link", { name: "Update password" }).click();
      await expect(page).toHaveURL(/dialog=password/);
      const dialog = page.getByRole("dialog", { name: "Update password" });
      await expect(dialog).toBeVisible();

      await dialog.getByRole("button", { name: "Update password" }).click();
      await expect(dialog.getByText("Field is required")).toHaveCount(3);

      await field(dialog, "Old password").fill(DEMO_PASSWORD);
      await field(dialog, "New password").fill(temporary);
      await field(dialog, "Repeat new password").fill(`${temporary}x`);
      await dialog.getByRole("button", { name: "Update password" }).click();
      await expect(dialog.getByText("Password are not the same")).toBeVisible();

      await field(dialog, "Old password").fill(DEMO_PASSWORD);
      await field(dialog, "New password").fill("password");
      await field(dialog, "Repeat new password").fill("password");
      await dialog.getByRole("button", { name: "Update password" }).click();
      await expect(dialog.getByText("Weak password")).toBeVisible();

      await field(dialog, "Old password").fill("Not-the-password-1!");
      await field(dialog, "New password").fill(temporary);
      await field(dialog, "Repeat new password").fill(temporary);
      await dialog.getByRole("button", { name: "Update password" }).click();
      await expect(dialog.getByText("The old password is not correct")).toBeVisible();

      await field(dialog, "Old password").fill(DEMO_PASSWORD);
      await field(dialog, "New password").fill(temporary);
      await field(dialog, "Repeat new password").fill(temporary);
      await dialog.getByRole("button", { name: "Update password" }).click();
      changed = true;
      await expect(successToast(page)).toContainText("Password modified");
      await expect(page).toHaveURL(/\/settings$/);
      await expect(page.getByRole("dialog")).toHaveCount(0);

      // Still signed in; change it back through the dialog.
      await page.goto("/settings?dialog=password");
      await field(dialog, "Old password").fill(temporary);
      await field(dialog, "New password").fill(DEMO_PASSWORD);
      await field(dialog, "Repeat new password").fill(DEMO_PASSWORD);
      await dialog.getByRole("button", { name: "Update password" }).click();
      await expect(successToast(page)).toContainText("Password modified");
      changed = false;
    } finally {
      if (changed) {
        // Put the demo password back through the API whatever the screen did.
        const { token, userId } = await apiLogin(request, accounts.other, temporary).catch(() => ({ token: "", userId: 0 }));
        if (token) {
          await request.patch(`/api/users/${userId}/password`, {
            headers: bearer(token),
            data: { oldPassword: temporary, newPassword: DEMO_PASSWORD },
          });
        }
      }
    }
    await apiLogin(request, accounts.other);
  });

  test("the dialog speaks Dutch for a Dutch-speaking user", async ({ page, login, javaScriptEnabled }) => {
    test.skip(!javaScriptEnabled, "Dutch runs with JavaScript on (decision 016)");
    await login(accounts.other, { consent: true });
    try {
      await setLanguage(page, "nl-BE");
      await page.goto("/settings?dialog=password");
      const dialog = page.getByRole("dialog", { name: "Wachtwoord wijzigen" });
      await field(dialog, "Oud wachtwoord").fill(DEMO_PASSWORD);
      await field(dialog, "Nieuw wachtwoord").fill("Nieuw-wachtwoord-1!");
      await field(dialog, "Herhaal het nieuwe wachtwoord").fill("Ander-wachtwoord-1!");
      await dialog.getByRole("button", { name: "Wachtwoord wijzigen" }).click();
      await expect(dialog.getByText("De wachtwoorden zijn niet gelijk")).toBeVisible();
    } finally {
      await setLanguage(page, "en");
    }
  });
});

test.describe("settings: entity", () => {
  test("saves the entity settings; errors, billing address, square logo, colours at once", async ({ page, request, login }) => {
    const { token, entityId } = await apiLogin(request, accounts.other);
    const original = await (await request.get(`/api/entities/${entityId}`, { headers: bearer(token) })).json();
    await login(accounts.other, { consent: true });
    try {
      await page.goto("/settings");
      await page.getByRole("link", { name: "Entity Settings" }).click();
      await expect(page).toHaveURL(/\/settings\?tab=entity$/);
      await expect(page.getByRole("link", { name: "Entity Settings" })).toHaveAttribute("aria-current", "page");
      await expect(field(page, "Name")).toHaveValue(original.name);

      // Required fields and the billing address once "same as address" is unticked.
      await field(page, "Name").fill("");
      await field(page, "Greeting in French").fill("");
      await field(page, "Same as address").uncheck();
      const billing = page.getByRole("group", { name: "Billing address" });
      await field(billing, "Street name").fill("");
      await field(billing, "City").fill("");
      await billing.getByRole("combobox", { name: "Country" }).selectOption("");
      await page.getByRole("button", { name: "Save", exact: true }).click();
      await expect(fieldError(page, "Please set a name")).toBeVisible();
      await expect(page.getByRole("group", { name: "Greeting messages" }).getByText("Field is required")).toBeVisible();
      await expect(billing.getByText("Field is required").first()).toBeVisible();
      await expect(fieldError(page, "Select a country")).toBeVisible();
      await expect(field(page, "Greeting in English")).toHaveValue(original.greetingsMessages[0].message);

      // A logo that is not square is refused.
      await field(page, "Name").fill(original.name);
      await field(page, "Greeting in French").fill(original.greetingsMessages[1].message);
      await field(page, "Same as address").check();
      await field(page, "Logo").setInputFiles(png(60, 30));
      await page.getByRole("button", { name: "Save", exact: true }).click();
      await expect(fieldError(page, "The logo must be square (its width must equal its height)")).toBeVisible();

      // A valid save: new greeting, square logo, colours that apply at once.
      const greeting = unique("Welcome");
      await field(page, "Same as address").check();
      await field(page, "Greeting in English").fill(greeting);
      await field(page, "Logo").setInputFiles(png(40, 40));
      await field(page, "Template colour").fill("#0f766e");
      await field(page, "Template text colour").fill("#fefefe");
      await page.getByRole("button", { name: "Save", exact: true }).click();
      await expect(successToast(page)).toContainText("Updated");
      await expect(page).toHaveURL(/\/settings\?tab=entity$/);
      await expect(field(page, "Greeting in English")).toHaveValue(greeting);
      await expect(page.getByRole("img", { name: `Logo of ${original.name}` })).toBeVisible();
      await expect(page.locator("html")).toHaveAttribute("style", /--brand:\s*#0f766e/);
      await expect(page.locator("html")).toHaveAttribute("style", /--brand-foreground:\s*#fefefe/);
    } finally {
      const { id: _id, logo: _logo, updatedAt: _updatedAt, ...fields } = original;
      const restored = await request.put(`/api/entities/${entityId}`, {
        headers: bearer(token),
        data: { ...fields, updateLogo: original.logo === null, newLogo: null },
      });
      expect(restored.status()).toBe(200);
    }
  });

  test("uploads and removes the explanatory-sticker image", async ({ page, login }) => {
    await login(accounts.other, { consent: true });
    await page.goto("/settings?tab=entity");
    await expect(page.getByText("Suggested size: 172 × 296 pixels.", { exact: false })).toBeVisible();
    await field(page, "Sticker image").setInputFiles(png(172, 296));
    await page.getByRole("button", { name: "Save sticker" }).click();
    await expect(successToast(page)).toContainText("Updated");
    await expect(page.getByRole("img", { name: "Explanatory sticker image" })).toBeVisible();
    await field(page, "Remove the sticker image").check();
    await page.getByRole("button", { name: "Save sticker" }).click();
    await expect(page.getByRole("img", { name: "Explanatory sticker image" })).toHaveCount(0);
  });
});

test.describe("settings: the entity's time zone", () => {
  // A browser far from both zones: the page's dates must not depend on the browser's own zone.
  test.use({ timezoneId: "Pacific/Auckland" });

  test("sets the entity's time zone: the dates of the screens and the dashboard follow it", async ({ page, request, login, javaScriptEnabled }) => {
    const { token, entityId } = await apiLogin(request, accounts.other);
    const original = await (await request.get(`/api/entities/${entityId}`, { headers: bearer(token) })).json();
    expect(original.timeZone).toBe("Europe/Brussels");
    // With JavaScript, the server's text and the hydrated text must be the same (no hydration warning).
    const hydrationErrors: string[] = [];
    const mismatch = /hydrat|did not match|server rendered|Minified React error #4(18|19|2[2-5])/i;
    page.on("console", (message) => {
      if (message.type() === "error" && mismatch.test(message.text())) hydrationErrors.push(message.text());
    });
    // React reports a recovered hydration error through reportError: an uncaught error of the page.
    page.on("pageerror", (error) => {
      if (mismatch.test(error.message)) hydrationErrors.push(error.message);
    });
    await login(accounts.other, { consent: true });
    try {
      await page.goto("/settings?tab=entity");
      const zone = page.getByRole("combobox", { name: "Time zone" });
      await expect(zone).toHaveValue("Europe/Brussels");
      await expect(page.getByText("Dates on every screen, on work orders and the dashboard's months follow this time zone.")).toBeVisible();
      await zone.selectOption("America/New_York");
      await page.getByRole("button", { name: "Save", exact: true }).click();
      await expect(successToast(page)).toContainText("Updated");
      await expect(page.getByRole("combobox", { name: "Time zone" })).toHaveValue("America/New_York");

      // The users' last logins and the incidents' creation times are written in New York time, in the one
      // date-time style, on the table and on the board alike.
      const ny = new Intl.DateTimeFormat("en", { dateStyle: "medium", timeStyle: "short", timeZone: "America/New_York" });
      for (const screen of ["/users", "/incidents?view=table", "/incidents?view=board"]) {
        await page.goto(screen);
        const times = page.locator("main time[datetime]");
        await expect(times.first(), screen).toBeVisible();
        for (const time of await times.all()) {
          const iso = (await time.getAttribute("datetime"))!;
          await expect(time, screen).toHaveText(ny.format(new Date(iso)));
        }
      }
      await page.goto("/dashboard");
      await expect(page.getByText("Months follow the time zone America/New_York.")).toBeVisible();
      if (javaScriptEnabled) expect(hydrationErrors).toEqual([]);
    } finally {
      const { id: _id, logo: _logo, updatedAt: _updatedAt, ...fields } = original;
      const restored = await request.put(`/api/entities/${entityId}`, { headers: bearer(token), data: { ...fields, timeZone: "Europe/Brussels", updateLogo: false } });
      expect(restored.status()).toBe(200);
    }
  });
});

test.describe("settings: REST API", () => {
  test.skip(({ javaScriptEnabled }) => !javaScriptEnabled, "the API does not depend on the browser: run it once");

  test("answers 401 without a token", async ({ request }) => {
    expect((await request.get("/api/entities/1")).status()).toBe(401);
    expect((await request.put("/api/entities/1", { data: {} })).status()).toBe(401);
    expect((await request.get("/api/entities/1/explanatory-sticker")).status()).toBe(401);
    expect((await request.patch("/api/entities/1/explanatory-sticker", { data: {} })).status()).toBe(401);
    const password = await request.patch("/api/users/1/password", { data: { oldPassword: "x", newPassword: "y" } });
    expect(password.status()).toBe(401);
    expect(await password.json()).toMatchObject({ code: "UNAUTHORIZED" });
  });

  test("GET and PUT an entity: own entity only, managers only, 400 with field errors", async ({ request }) => {
    const admin = await apiLogin(request, accounts.admin);
    const other = await apiLogin(request, accounts.other);
    const technician = await apiLogin(request, accounts.technician);

    const own = await request.get(`/api/entities/${admin.entityId}`, { headers: bearer(admin.token) });
    expect(own.status()).toBe(200);
    const entity = await own.json();
    expect(entity).toMatchObject({ id: admin.entityId, name: "Demo Campus", billingSameAsAddress: true, templateColor: expect.stringMatching(/^#/) });
    expect(Object.keys(entity)).toEqual(
      expect.arrayContaining(["vatNumber", "greetingsMessages", "address", "billingAddress", "logo", "templateTextColor"]),
    );
    expect(entity.address).toMatchObject({ streetName: expect.any(String), country: "BE" });

    // Another entity's id: 404, for reading and writing.
    const foreign = await request.get(`/api/entities/${admin.entityId}`, { headers: bearer(other.token) });
    expect(foreign.status()).toBe(404);
    expect(await foreign.json()).toMatchObject({ code: "ENTITY_NOT_FOUND", message: "Entity not found" });
    const { id: _id, logo: _logo, updatedAt: _u, ...fields } = entity;
    expect((await request.put(`/api/entities/${admin.entityId}`, { headers: bearer(other.token), data: fields })).status()).toBe(404);
    expect((await request.get("/api/entities/abc", { headers: bearer(admin.token) })).status()).toBe(404);

    // A technician reads but does not write.
    expect((await request.get(`/api/entities/${admin.entityId}`, { headers: bearer(technician.token) })).status()).toBe(200);
    const forbidden = await request.put(`/api/entities/${admin.entityId}`, { headers: bearer(technician.token), data: fields });
    expect(forbidden.status()).toBe(403);
    expect(await forbidden.json()).toMatchObject({ code: "FORBIDDEN" });

    // Bad bodies: 400 with translated field errors, never 500.
    const empty = await request.put(`/api/entities/${admin.entityId}`, { headers: bearer(admin.token), data: {} });
    expect(empty.status()).toBe(400);
    const emptyBody = await empty.json();
    expect(emptyBody.code).toBe("VALIDATION");
    expect(emptyBody.fieldErrors.name).toEqual(["Please set a name"]);
    const notJson = await request.put(`/api/entities/${admin.entityId}`, {
      headers: { ...bearer(admin.token), "Content-Type": "application/json" },
      data: "{not json",
    });
    expect(notJson.status()).toBe(400);
    const french = await request.put(`/api/entities/${admin.entityId}`, {
      headers: { ...bearer(admin.token), "X-Language": "fr-BE" },
      data: { ...fields, vatNumber: "", greetingsMessages: [{ language: 0, message: "Hi" }] },
    });
    expect(french.status()).toBe(400);
    expect((await french.json()).fieldErrors).toMatchObject({
      vatNumber: ["Ce champ est obligatoire"],
      "greetingsMessages.1.message": ["Ce champ est obligatoire"],
    });
    const badLogo = await request.put(`/api/entities/${admin.entityId}`, {
      headers: bearer(admin.token),
      data: { ...fields, updateLogo: true, newLogo: "data:image/png;base64,@@@" },
    });
    expect(badLogo.status()).toBe(400);
    expect((await badLogo.json()).fieldErrors).toEqual({ newLogo: ["The file could not be read"] });
    const notSquare = await request.put(`/api/entities/${admin.entityId}`, {
      headers: bearer(admin.token),
      data: { ...fields, updateLogo: true, newLogo: `data:image/png;base64,${Buffer.from(pngBytes(20, 10)).toString("base64")}` },
    });
    expect(notSquare.status()).toBe(400);
    expect((await notSquare.json()).fieldErrors).toEqual({ newLogo: ["The logo must be square (its width must equal its height)"] });

    // The same values back: 200 with the saved entity.
    const saved = await request.put(`/api/entities/${admin.entityId}`, { headers: bearer(admin.token), data: { ...fields, oldLogo: entity.logo } });
    expect(saved.status()).toBe(200);
    expect(await saved.json()).toMatchObject({ ...fields, updatedAt: expect.any(String) });
  });

  test("explanatory sticker: read by members, changed by managers, 404 for another entity", async ({ request, baseURL }) => {
    const other = await apiLogin(request, accounts.other);
    const technician = await apiLogin(request, accounts.technician);
    const url = `/api/entities/${other.entityId}/explanatory-sticker`;
    expect((await request.get(url, { headers: bearer(technician.token) })).status()).toBe(404);
    expect((await request.patch(`/api/entities/${technician.entityId}/explanatory-sticker`, { headers: bearer(technician.token), data: { newExplanatorySticker: null } })).status()).toBe(403);

    const image = `data:image/png;base64,${Buffer.from(pngBytes(172, 296)).toString("base64")}`;
    const saved = await request.patch(url, { headers: bearer(other.token), data: { oldExplanatorySticker: null, newExplanatorySticker: image } });
    expect(saved.status()).toBe(200);
    const body = await saved.json();
    expect(body).toMatchObject({ explanatorySticker: expect.stringMatching(/^\/files\//), suggestedWidth: 172, suggestedHeight: 296 });
    expect(await (await request.get(url, { headers: bearer(other.token) })).json()).toEqual(body);

    // The stored file is served to signed-in users of its entity only (another entity: 404; visitor: login).
    const browserSession = (email: string | null) => webSession(baseURL!, email);
    const owner = await browserSession(accounts.other);
    const ownFile = await owner.get(body.explanatorySticker, { maxRedirects: 0 });
    expect(ownFile.status()).toBe(200);
    expect(ownFile.headers()["content-type"]).toBe("image/png");
    const stranger = await browserSession(accounts.admin);
    expect((await stranger.get(body.explanatorySticker, { maxRedirects: 0 })).status()).toBe(404);
    const visitor = await browserSession(null);
    const anonymous = await visitor.get(body.explanatorySticker, { maxRedirects: 0 });
    expect([anonymous.status(), anonymous.headers()["location"]]).toEqual([302, "/login"]);
    await Promise.all([owner.dispose(), stranger.dispose(), visitor.dispose()]);

    const bad = await request.patch(url, { headers: bearer(other.token), data: { newExplanatorySticker: "data:text/plain;base64,aGVsbG8=" } });
    expect(bad.status()).toBe(400);
    expect((await bad.json()).fieldErrors).toEqual({ newExplanatorySticker: ["Wrong format: use a PNG, JPEG, GIF or WebP image"] });
    const removed = await request.patch(url, { headers: bearer(other.token), data: { oldExplanatorySticker: body.explanatorySticker, newExplanatorySticker: null } });
    expect(await removed.json()).toMatchObject({ explanatorySticker: null });
  });

  test("PATCH a password: only your own, the old one must match, the new one must be strong", async ({ request }) => {
    const other = await apiLogin(request, accounts.other);
    const admin = await apiLogin(request, accounts.admin);
    const manager = await apiLogin(request, accounts.manager);
    const temporary = `Api-${Date.now().toString(36)}-7!`;

    // Another entity's user: 404; another user of the same entity: 403.
    const foreign = await request.patch(`/api/users/${admin.userId}/password`, {
      headers: bearer(other.token),
      data: { oldPassword: DEMO_PASSWORD, newPassword: temporary },
    });
    expect(foreign.status()).toBe(404);
    const colleague = await request.patch(`/api/users/${manager.userId}/password`, {
      headers: bearer(admin.token),
      data: { oldPassword: DEMO_PASSWORD, newPassword: temporary },
    });
    expect(colleague.status()).toBe(403);

    const own = `/api/users/${other.userId}/password`;
    const missing = await request.patch(own, { headers: bearer(other.token), data: {} });
    expect(missing.status()).toBe(400);
    expect((await missing.json()).fieldErrors).toEqual({ oldPassword: ["Field is required"], newPassword: ["Field is required"] });
    const weak = await request.patch(own, { headers: bearer(other.token), data: { oldPassword: DEMO_PASSWORD, newPassword: "weak" } });
    expect((await weak.json()).fieldErrors).toEqual({ newPassword: ["Weak password"] });
    const wrong = await request.patch(own, { headers: bearer(other.token), data: { oldPassword: "Wrong-pass-1!", newPassword: temporary } });
    expect(wrong.status()).toBe(400);
    expect((await wrong.json()).fieldErrors).toEqual({ oldPassword: ["The old password is not correct"] });

    const changed = await request.patch(own, { headers: bearer(other.token), data: { oldPassword: DEMO_PASSWORD, newPassword: temporary } });
    try {
      expect(changed.status()).toBe(200);
      expect(await changed.json()).toEqual({ responseCode: 0 });
    } finally {
      // The caller's own session stays valid: change it back with the same token.
      const back = await request.patch(own, { headers: bearer(other.token), data: { oldPassword: temporary, newPassword: DEMO_PASSWORD } });
      if (changed.status() === 200) expect(back.status()).toBe(200);
    }
    await apiLogin(request, accounts.other);
  });
});
