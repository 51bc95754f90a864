import { type Page } from "@playwright/test";
import { pngBytes } from "../factories/files";
import { accounts, expect, loginThroughForm, readOutbox, signIn, test, unique, waitForMail } from "./fixtures";
import { markDocument, setLanguage, stillSameDocument } from "./helpers";

/**
 * The signed-in shell: role-aware menu, header (bell, help, user menu, language), cookie consent,
 * the bug/suggestion dialog and the tutorial. Every test runs with JavaScript on and off.
 */
const menu = (page: Page) => page.getByRole("navigation", { name: "Main menu" });

/** Answers the cookie banner with "Technical only" so it does not cover the page. */
async function technicalCookiesOnly(page: Page) {
  const banner = page.getByRole("region", { name: "We value your privacy" });
  const saved = page.waitForResponse((r) => r.url().includes("/cookie-consent") && r.request().method() === "POST");
  await banner.getByRole("button", { name: "Technical only" }).click();
  await saved;
  await expect(banner).toBeHidden();
}

test.describe("navigation menu", () => {
  test("an administrator sees every group of the menu, the active item highlighted", async ({ page, login, javaScriptEnabled }) => {
    await login(accounts.admin, { consent: true });
    await page.goto("/dashboard");
    const nav = menu(page);
    for (const group of ["Administration", "Facility Management", "Incident Management", "Printing", "Maintenance"]) {
      await expect(nav.getByText(group, { exact: true })).toBeVisible();
    }
    for (const item of [
      "Users",
      "Import/Export Data",
      "Dashboard",
      "Facilities",
      "Buildings",
      "Rooms",
      "Equipments",
      "Incidents",
      "Incident Types",
      "QR codes",
      "Explanatory stickers",
      "Report",
      "Planned Maintenances",
      "Tasks",
      "Maintenance calendar",
      "Configuration",
      "Tutorial",
    ]) {
      await expect(nav.getByRole("link", { name: item, exact: true })).toBeVisible();
    }
    await expect(nav.getByRole("link", { name: "Dashboard" })).toHaveAttribute("aria-current", "page");

    // With JavaScript the menu's plain anchors navigate in the app (no new document); without, the browser follows them.
    await markDocument(page, javaScriptEnabled);
    await nav.getByRole("link", { name: "Buildings" }).click();
    await expect(page).toHaveURL(/\/facilities\?tab=buildings$/);
    await expect(nav.getByRole("link", { name: "Buildings" })).toHaveAttribute("aria-current", "page");
    expect(await stillSameDocument(page)).toBe(javaScriptEnabled);
    await expect(nav.getByRole("link", { name: "Facilities" })).not.toHaveAttribute("aria-current", "page");
  });

  test("a technician sees only the screens they may open", async ({ page, login }) => {
    await login(accounts.technician, { consent: true });
    await page.goto("/");
    await expect(page).toHaveURL(/\/incidents$/);
    const nav = menu(page);
    for (const item of ["Incidents", "Tasks", "Maintenance calendar", "Report", "Tutorial"]) {
      await expect(nav.getByRole("link", { name: item, exact: true })).toBeVisible();
    }
    await expect(nav.getByRole("link", { name: "Incidents" })).toHaveAttribute("aria-current", "page");
    for (const item of ["Users", "Import/Export Data", "Dashboard", "Facilities", "Buildings", "Rooms", "Equipments", "Incident Types", "QR codes", "Planned Maintenances", "Configuration"]) {
      await expect(nav.getByRole("link", { name: item, exact: true })).toHaveCount(0);
    }
    for (const group of ["Administration", "Facility Management", "Printing"]) {
      await expect(nav.getByText(group, { exact: true })).toHaveCount(0);
    }
    await nav.getByRole("link", { name: "Maintenance calendar" }).click();
    await expect(page).toHaveURL(/\/task\?view=month$/);
  });

  test("on a phone the menu opens and navigates", async ({ page, login }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await login(accounts.admin, { consent: true });
    await page.goto("/dashboard");
    const nav = menu(page);
    await expect(nav).toBeHidden();
    // One menu in the page: the sidebar, shown as the menu button's panel on a phone.
    await expect(page.locator("nav[aria-label='Main menu']")).toHaveCount(1);
    await page.locator("[data-mobile-menu] > summary").click();
    await expect(nav).toBeVisible();
    await nav.getByRole("link", { name: "Equipments" }).click();
    await expect(page).toHaveURL(/\/equipments$/);
    await expect(page.getByRole("heading", { name: "Equipments" })).toBeVisible();
    await expect(nav).toBeHidden();
    await page.locator("[data-mobile-menu] > summary").click();
    await expect(nav.getByRole("link", { name: "Equipments" })).toHaveAttribute("aria-current", "page");
  });
});

test.describe("header", () => {
  test("shows the entity, the user with their role, a help link for the area, and logs out", async ({ page, login }) => {
    await login(accounts.admin, { consent: true });
    await page.goto("/dashboard");
    const header = page.getByRole("banner");
    // Label in name (WCAG 2.5.3): the accessible names start with the visible texts.
    await expect(header.getByRole("link", { name: "Demo Campus Caretaker (home page)", exact: true })).toBeVisible();
    await expect(header.getByRole("link", { name: /^Help for this page/ })).toHaveAttribute("href", /\/dashboard$/);
    await page.goto("/facilities?tab=rooms");
    await expect(header.getByRole("link", { name: /^Help for this page/ })).toHaveAttribute("href", /\/rooms$/);

    const account = page.locator("[data-user-menu] > summary");
    await expect(account).toHaveAccessibleName("Ava Peeters Facility Administrator (account menu)");
    await account.click();
    await expect(header.getByText("Facility Administrator", { exact: true }).last()).toBeVisible();
    await expect(header.getByText("admin@demo.test")).toBeVisible();
    await header.getByRole("button", { name: "Logout" }).click();
    await expect(page).toHaveURL(/\/login$/);
  });

  test("the bell shows the unread notification count", async ({ page, login }) => {
    await login(accounts.manager, { consent: true });
    await page.goto("/dashboard");
    // Demo data: the manager has unread notifications (at least the seed's 3 new incidents and a comment;
    // reports made by other tests of the worker add to them).
    const bell = page.getByRole("banner").getByRole("link", { name: /^\d+ unread notifications$/ });
    await expect(bell).toBeVisible();
    await expect(bell).toHaveAttribute("href", "/notifications");
    const count = Number(((await bell.getAttribute("aria-label")) ?? (await bell.textContent()) ?? "").match(/\d+/)?.[0]);
    expect(count).toBeGreaterThanOrEqual(4);
    await expect(bell).toContainText(String(count));
    await page.locator("[data-user-menu] > summary").click();
    await expect(page.getByRole("banner").getByText("Facility Manager", { exact: true }).last()).toBeVisible();
  });

  test("an administrator without unread notifications sees the bell without a count", async ({ page, login, server }) => {
    await login(accounts.admin, { consent: true });
    // The worker's other specs may have left the demo administrator notifications (an import finished, an
    // export ready): the test reads them all first, as the person would.
    const read = await page.request.post("/notifications", { form: { intent: "read-all" }, headers: { origin: server.url }, maxRedirects: 0 });
    expect(read.status(), "POST /notifications read-all").toBeLessThan(400);
    await page.goto("/dashboard");
    await expect(page.getByRole("banner").getByRole("link", { name: "Notifications, none unread" })).toBeVisible();
    await expect(page.getByTestId("unread-badge")).toHaveCount(0);
  });

  test("the shell speaks French and Dutch", async ({ page, login }) => {
    await login(accounts.admin, { consent: true });
    try {
      await page.goto("/dashboard");
      await page.getByRole("banner").getByRole("button", { name: "FR", exact: true }).click();
      let nav = page.getByRole("navigation", { name: "Menu principal" });
      await expect(nav.getByRole("link", { name: "Utilisateurs" })).toBeVisible();
      await expect(nav.getByRole("link", { name: "Tableau de bord" })).toHaveAttribute("aria-current", "page");
      await expect(nav.getByText("Gestion des incidents")).toBeVisible();
      await expect(nav.getByRole("link", { name: "Tutoriel" })).toBeVisible();

      await page.getByRole("banner").getByRole("button", { name: "NL", exact: true }).click();
      nav = page.getByRole("navigation", { name: "Hoofdmenu" });
      await expect(nav.getByRole("link", { name: "Gebruikers" })).toBeVisible();
      await expect(nav.getByRole("link", { name: "Incidenten" })).toBeVisible();
      await expect(nav.getByRole("link", { name: "Onderhoudskalender" })).toBeVisible();
      await expect(nav.getByRole("link", { name: "Handleiding" })).toBeVisible();
      await expect(page.locator("html")).toHaveAttribute("lang", "nl-BE");
    } finally {
      // The switch saves the signed-in user's language: give the shared demo account English back.
      await setLanguage(page, "en");
    }
  });
});

test.describe("cookie consent", () => {
  test("the banner disappears after Technical only and stays gone", async ({ page, context }) => {
    await page.goto("/login");
    const banner = page.getByRole("region", { name: "We value your privacy" });
    await expect(banner).toBeVisible();
    await expect(banner.getByRole("button", { name: "Accept all" })).toBeVisible();
    await technicalCookiesOnly(page);
    await expect(page).toHaveURL(/\/login$/);

    const consent = (await context.cookies()).find((c) => c.name === "consent");
    expect(consent).toBeDefined();
    expect(consent!.expires * 1000).toBeGreaterThan(Date.now() + 360 * 24 * 3600 * 1000);

    await page.reload();
    await expect(banner).toBeHidden();
    await loginThroughForm(page, accounts.technician);
    await expect(menu(page)).toBeVisible();
    await expect(banner).toBeHidden();
    await page.goto("/tutorial");
    await expect(banner).toBeHidden();
  });
});

test.describe("report a bug or suggestion", () => {
  test("checks the message and the file, then sends the report", async ({ page, javaScriptEnabled, login }) => {
    await login(accounts.manager, { consent: true });
    await page.goto("/incidents");
    await menu(page).getByRole("link", { name: "Report" }).click();
    await expect(page).toHaveURL(/\/incidents\?dialog=report$/);
    let dialog = page.getByRole("dialog", { name: "Report a bug or suggestion" });
    await expect(dialog).toBeVisible();

    // A blank message is refused.
    await dialog.getByLabel("Message").fill("   ");
    await dialog.getByRole("button", { name: "Send" }).click();
    await expect(page.getByText("Please write a message")).toBeVisible();

    // Without JavaScript the errors come back on the /report-issue page, with the same form.
    const form = javaScriptEnabled ? dialog : page.locator("main");
    const message = unique("The kanban board does not scroll on my phone");
    await form.getByLabel("Message").fill(message);
    await form.getByText("Suggestion", { exact: true }).click();
    await form.getByLabel(/Attachment/).setInputFiles({ name: "screenshot.png", mimeType: "image/png", buffer: Buffer.from("this is not a picture") });
    await form.getByRole("button", { name: "Send" }).click();
    await expect(page.getByText("Wrong format")).toBeVisible();
    await expect(form.getByLabel("Message")).toHaveValue(message);

    const before = readOutbox().length;
    await form.getByLabel(/Attachment/).setInputFiles({ name: "screenshot.png", mimeType: "image/png", buffer: Buffer.from(pngBytes(8, 8)) });
    await form.getByRole("button", { name: "Send" }).click();
    await expect(page.getByRole("status").getByText("Report sent")).toBeVisible();
    await expect(page).toHaveURL(/\/incidents$/);
    dialog = page.getByRole("dialog", { name: "Report a bug or suggestion" });
    await expect(dialog).toHaveCount(0);

    if (process.env.BUG_REPORT_EMAIL) {
      const mail = await waitForMail(process.env.BUG_REPORT_EMAIL, before);
      expect(mail.subject).toContain("Suggestion");
      expect(mail.text).toContain(message);
    }
  });

  test("the dialog closes without sending", async ({ page, login }) => {
    await login(accounts.technician, { consent: true });
    await page.goto("/task?dialog=report");
    const dialog = page.getByRole("dialog", { name: "Report a bug or suggestion" });
    await expect(dialog).toBeVisible();
    await dialog.getByRole("link", { name: "Cancel" }).click();
    await expect(page).toHaveURL(/\/task$/);
    await expect(dialog).toHaveCount(0);
  });
});

test.describe("tutorial", () => {
  test("walks a manager through the set-up and a technician through their work", async ({ page, browser, baseURL, javaScriptEnabled, login }) => {
    await login(accounts.admin, { consent: true });
    await page.goto("/dashboard");
    await menu(page).getByRole("link", { name: "Tutorial" }).click();
    await expect(page.getByRole("heading", { name: "Welcome, Ava" })).toBeVisible();
    await expect(page.getByText("You are signed in as Facility Administrator at Demo Campus.")).toBeVisible();
    await expect(page.getByRole("heading", { name: "Set up your organisation" })).toBeVisible();
    await expect(page.getByRole("heading", { name: "Facilities, buildings and rooms" })).toBeVisible();
    await expect(page.getByRole("link", { name: "Help: Incident types" })).toHaveAttribute("href", /\/incident-types$/);
    await expect(menu(page).getByRole("link", { name: "Tutorial" })).toHaveAttribute("aria-current", "page");

    const context = await browser.newContext({ baseURL, javaScriptEnabled });
    const technician = await context.newPage();
    await signIn(technician, accounts.technician, { consent: true });
    await technician.goto("/tutorial");
    await expect(technician.getByRole("heading", { name: "Your work" })).toBeVisible();
    await expect(technician.getByRole("heading", { name: "Tasks and calendar" })).toBeVisible();
    await expect(technician.getByRole("heading", { name: "Set up your organisation" })).toHaveCount(0);
    await context.close();
  });
});
