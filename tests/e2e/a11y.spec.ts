import type { Browser, Page } from "@playwright/test";
import { screens } from "../../app/route-access";
import { accounts, axeProblems, expect, horizontalOverflow, login, test } from "./fixtures";

/**
 * Accessibility and layout of every screen: each screen of app/route-access.ts that the role may open
 * (administrator: all; technician: the signed-in ones), and the public screens signed out; in English
 * and French, on a desktop and on a 390 x 844 phone. On each page: no serious or critical axe-core
 * violation, no horizontal overflow, and one <title> "<screen> · Caretaker" in the page's language.
 */
const VIEWPORTS = [
  { name: "desktop", size: { width: 1280, height: 800 } },
  { name: "phone", size: { width: 390, height: 844 } },
] as const;
const LANGUAGES = ["en", "fr-BE"] as const;
const TITLES = {
  en: { "view-room": "Room", login: "Login", "not-found": "Page not found", settings: "Settings" },
  "fr-BE": { "view-room": "Local", login: "Connexion", "not-found": "Page introuvable", settings: "Paramètres" },
} as const;

/** Ids of the demo data, read from the lists as an administrator: `/update-room/:id` -> ["12", ...]. */
type Ids = Record<string, string[]>;

async function collectIds(browser: Browser, baseURL: string): Promise<Ids> {
  const context = await browser.newContext({ baseURL });
  const page = await context.newPage();
  await login(page, accounts.admin);
  const ids: Ids = {};
  const lists = ["/facilities", "/facilities?tab=buildings", "/facilities?tab=rooms", "/room-type", "/equipments", "/equipments?tab=categories"];
  for (const list of lists) {
    await page.goto(list);
    for (const href of await page.locator("main a[href]").evaluateAll((links) => links.map((a) => a.getAttribute("href") ?? ""))) {
      const m = /^\/([a-z-]+)\/(\d+)$/.exec(href);
      if (!m) continue;
      const list = (ids[m[1]] ??= []);
      if (!list.includes(m[2])) list.push(m[2]);
    }
  }
  // A room's view: the same ids as its update form.
  ids["view-room"] = ids["update-room"] ?? [];
  await context.close();
  return ids;
}

/** The addresses of the screens a role may open, with real ids; extra states (tabs, dialogs) too. */
function addresses(ids: Ids, role: "admin" | "technician"): { id: string; path: string }[] {
  const out: { id: string; path: string }[] = [];
  for (const screen of screens) {
    if (screen.access === "visitor" || screen.access === "public") continue;
    if (screen.access === "manager" && role !== "admin") continue;
    let path = `/${screen.path}`;
    if (path.includes(":id")) {
      const id = ids[screen.id]?.[0] ?? "1"; // placeholder screens (coming soon) take any id
      path = path.replace(":id", id).replace(":date", "2026-01-05");
    }
    out.push({ id: screen.id, path });
  }
  out.push({ id: "settings", path: "/settings?dialog=password" }, { id: "report-issue", path: "/report-issue" });
  if (role === "admin") {
    out.push(
      { id: "settings", path: "/settings?tab=entity" },
      { id: "facilities", path: "/facilities?tab=buildings" },
      { id: "facilities", path: "/facilities?tab=rooms" },
      { id: "equipments", path: "/equipments?tab=categories" },
      { id: "update-facility", path: `/update-facility/${ids["update-facility"]?.[0]}?dialog=archive` },
      { id: "update-room-type", path: `/update-room-type/${ids["update-room-type"]?.[0]}?dialog=archive` },
    );
  }
  return out;
}

/** Checks the page: axe, overflow, title; returns the problems found, prefixed with the address. */
async function check(page: Page, path: string, screenId: string, lng: (typeof LANGUAGES)[number]): Promise<string[]> {
  const problems: string[] = [];
  const response = await page.goto(path);
  const where = `${lng} ${page.viewportSize()?.width}px ${path}`;
  if (!response || response.status() >= 500) return [`${where}: status ${response?.status()}`];
  for (const p of await axeProblems(page)) problems.push(`${where}: ${p}`);
  const overflow = await horizontalOverflow(page);
  if (overflow > 0) problems.push(`${where}: ${overflow} px wider than the window`);
  const titles = await page.locator("head title").allTextContents();
  if (titles.length !== 1 || !titles[0].endsWith(" · Caretaker") || titles[0] === " · Caretaker") {
    problems.push(`${where}: title ${JSON.stringify(titles)}`);
  }
  const known = TITLES[lng][screenId as keyof (typeof TITLES)["en"]];
  if (known && titles[0] !== `${known} · Caretaker`) problems.push(`${where}: title ${JSON.stringify(titles[0])}, expected "${known} · Caretaker"`);
  return problems;
}

async function setLanguage(page: Page, lng: string) {
  const res = await page.request.post("/set-language", { form: { lng, redirectTo: "/settings" }, maxRedirects: 0 });
  expect(res.status()).toBe(302);
}

let ids: Ids = {};

test.describe("accessibility of every screen", () => {
  test.describe.configure({ timeout: 600_000 });
  // The pages are the same without JavaScript; the fixture checks the js-off runs' final pages.
  test.skip(({ javaScriptEnabled }) => !javaScriptEnabled, "checked once, with JavaScript on");

  test.beforeAll(async ({ browser, baseURL }) => {
    ids = await collectIds(browser, baseURL!);
    for (const id of ["update-facility", "update-building", "update-room", "update-room-type", "update-equipment-type", "update-category"]) {
      expect(ids[id]?.length, `an id for ${id} in the demo data`).toBeGreaterThan(0);
    }
  });

  // Each role in each language and at each size, without the full cross product (a walk takes minutes).
  const walks = (["admin", "technician"] as const).flatMap((role, r) =>
    LANGUAGES.map((lng, l) => ({ role, lng, viewport: VIEWPORTS[(r + l) % VIEWPORTS.length] })),
  );
  for (const { role, lng, viewport } of walks) {
    {
      {
        test(`${role}, ${lng}, ${viewport.name}`, async ({ page }) => {
          await page.setViewportSize(viewport.size);
          await login(page, accounts[role]);
          try {
            if (lng !== "en") await setLanguage(page, lng);
            let list = addresses(ids, role);
            if (role === "technician") {
              // A room of a building the technician is linked to (the others answer "not found").
              const rooms = ids["view-room"] ?? [];
              let reachable: string | undefined;
              for (const id of rooms) {
                if ((await page.request.get(`/view-room/${id}`)).status() === 200) {
                  reachable = id;
                  break;
                }
              }
              expect(reachable, "a room the technician may view").toBeTruthy();
              list = list.map((a) => (a.id === "view-room" ? { ...a, path: `/view-room/${reachable}` } : a));
            }
            const problems: string[] = [];
            for (const { id, path } of list) problems.push(...(await check(page, path, id, lng)));
            expect(problems, problems.join("\n")).toEqual([]);
          } finally {
            // The user's language is stored: put it back for the other specs.
            if (lng !== "en") await setLanguage(page, "en");
          }
        });
      }
    }
  }

  for (const lng of LANGUAGES) {
    for (const viewport of VIEWPORTS) {
      test(`signed out, ${lng}, ${viewport.name}`, async ({ browser, baseURL }) => {
        const context = await browser.newContext({
          baseURL,
          viewport: viewport.size,
          locale: lng,
          extraHTTPHeaders: { "Accept-Language": lng === "en" ? "en" : "fr-BE,fr;q=0.9" },
        });
        const page = await context.newPage();
        const problems: string[] = [];
        const visits = [
          { id: "login", path: "/login" },
          { id: "signup", path: "/signup" },
          { id: "password-reset", path: "/password/reset" },
          { id: "password-reset", path: "/password/reset?token=not-a-token" },
          { id: "password-reset", path: "/password/reset?sent" },
          { id: "signup-verify", path: "/signup/verify?token=not-a-token" },
          { id: "forbidden", path: "/forbidden" },
          { id: "not-found", path: "/no/such/page" },
        ];
        for (const { id, path } of visits) problems.push(...(await check(page, path, id, lng)));

        // The sign-up's second step (the country list): fill the first step and continue.
        await page.goto("/signup");
        await page.locator("#signup-account-name").fill("Ada");
        await page.locator("#signup-account-surname").fill("Lovelace");
        await page.locator("#signup-account-email").fill(`a11y-${Date.now()}@example.test`);
        await page.locator("#signup-account-password").fill("Str0ng-pass!");
        await page.locator("#signup-account-confirmPassword").fill("Str0ng-pass!");
        await page.locator('button[name="intent"][value="continue"]').click();
        await expect(page).toHaveURL(/step=entity/);
        const country = page.locator('select[name="country"]');
        await expect(country.locator('option[value="BE"]')).toHaveText(lng === "en" ? "Belgium" : "Belgique");
        problems.push(...(await check(page, page.url(), "signup", lng)));
        await context.close();
        expect(problems, problems.join("\n")).toEqual([]);
      });
    }
  }
});
