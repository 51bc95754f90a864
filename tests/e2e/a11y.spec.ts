import type { Page } from "@playwright/test";
import { screens } from "../../app/route-access";
import { accounts, axeProblems, axeProblemsOnce, expect, horizontalOverflow, test } from "./fixtures";
import { apiLogin, continueToEntity, DEMO_PASSWORD, fillAccount, setLanguage } from "./helpers";

/**
 * Accessibility and layout of every screen: each screen of app/route-access.ts that the role may open
 * (administrator: all; technician: the signed-in ones), and the public screens signed out; in English,
 * French and Dutch, on a desktop and on a 390 x 844 phone. On each page: no serious or critical axe-core
 * violation, no horizontal overflow, and one <title> "<screen> · Caretaker" in the page's language.
 *
 * Without the full cross product (the suite's time, issue #9): the administrator, who opens every
 * screen, is walked in English on the desktop and in French on the phone; the technician, whose screens
 * are the administrator's with less on them, once, in Dutch on the phone; the visitor in English on the
 * desktop and in French on the phone. A walk is cut into tests of a few screens, so that the workers
 * share it.
 */
const VIEWPORTS = {
  desktop: { width: 1280, height: 800 },
  phone: { width: 390, height: 844 },
} as const;
type ViewportName = keyof typeof VIEWPORTS;
type Language = "en" | "fr-BE" | "nl-BE";
const TITLES = {
  en: { "view-room": "Room", login: "Login", "not-found": "Page not found", settings: "Settings" },
  "fr-BE": { "view-room": "Local", login: "Connexion", "not-found": "Page introuvable", settings: "Paramètres" },
  "nl-BE": { "view-room": "Lokaal", login: "Aanmelden", "not-found": "Pagina niet gevonden", settings: "Instellingen" },
} as const;
/** Screens per test of a walk. */
const CHUNK = 8;

type Role = "admin" | "technician";
/** Ids of the demo data: the first record of each kind the role may open, by screen id. */
type Ids = Record<string, string>;

/** Reads ids from the demo data through the REST API (a room the technician may view, for them). */
async function demoIds(request: Parameters<typeof apiLogin>[0]): Promise<Record<Role, Ids>> {
  const admin = await apiLogin(request, accounts.admin);
  const technician = await apiLogin(request, accounts.technician);
  const manager = await apiLogin(request, accounts.manager);
  const first = async (headers: Record<string, string>, path: string) => {
    const res = await request.get(`/api/${path}?size=1`, { headers });
    expect(res.status(), `GET /api/${path}`).toBe(200);
    const rows = (await res.json()) as { id: number }[];
    expect(rows.length, `the demo data has a record of /api/${path}`).toBeGreaterThan(0);
    return String(rows[0].id);
  };
  const ids: Ids = {
    "update-facility": await first(admin.headers, "facilities"),
    "update-building": await first(admin.headers, "facilities/buildings"),
    "update-room": await first(admin.headers, "facilities/rooms"),
    "update-room-type": await first(admin.headers, "facilities/rooms/roomtype"),
    "update-equipment-type": await first(admin.headers, "equipments/type"),
    "update-category": await first(admin.headers, "equipments/category"),
    "view-equipment": await first(admin.headers, "equipments"),
    "update-user": String(manager.userId),
    "update-incident-type": await firstIncidentType(request),
    "administration-service-level-type": await firstIncidentType(request),
    "update-maintenance-type": await first(admin.headers, "maintenances/types"),
    "update-planned-maintenance": await first(admin.headers, "maintenances/planned"),
    "administration-webhook": await registeredWebhook(request),
  };
  // Notifications are the user's own (issue #14): each role opens one of theirs.
  const notification = async (who: { headers: Record<string, string>; userId: number }) => {
    const res = await request.get(`/api/users/${who.userId}/notifications?size=1`, { headers: who.headers });
    const rows = res.ok() ? ((await res.json()) as { id: number }[]) : [];
    return rows.length > 0 ? String(rows[0].id) : "1";
  };
  // A day of a planned maintenance with a task the role reaches: `view-task` is its plan, `view-task-date` its day.
  const taskDay = async (headers: Record<string, string>) => {
    const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
    const res = await request.get(`/api/tasks?from=${day(-180)}&to=${day(180)}`, { headers });
    expect(res.status(), "GET /api/tasks").toBe(200);
    const rows = (await res.json()) as { plannedMaintenanceId: number; dueDate: string }[];
    expect(rows.length, "the demo data has a task").toBeGreaterThan(0);
    return { "view-task": String(rows[0].plannedMaintenanceId), "view-task-date": rows[0].dueDate };
  };
  return {
    admin: { ...ids, "view-room": ids["update-room"], "view-facility": ids["update-facility"], "view-building": ids["update-building"], notification: await notification(admin), ...(await taskDay(admin.headers)) },
    technician: {
      ...ids,
      "view-room": await first(technician.headers, "facilities/rooms"),
      "view-equipment": await first(technician.headers, "equipments"),
      "view-facility": await first(technician.headers, "facilities"),
      "view-building": await first(technician.headers, "facilities/buildings"), notification: await notification(technician), ...(await taskDay(technician.headers)) },
  };
}

/**
 * A webhook the administrator registers for the walk (the demo data has none), read back from the list
 * screen. The e2e server lets webhooks reach loopback; port 9 answers nothing.
 */
async function registeredWebhook(request: Parameters<typeof apiLogin>[0]): Promise<string> {
  const res = await request.post("/login", { form: { email: accounts.admin, password: DEMO_PASSWORD }, maxRedirects: 0 });
  expect(res.status(), "form login of the administrator").toBe(302);
  const origin = new URL(res.url()).origin;
  const made = await request.post("/administration/webhooks", {
    form: { intent: "create", name: "Ticketing", url: "http://127.0.0.1:9/hook", events: "incident.created" },
    headers: { origin },
  });
  expect(made.status(), "POST /administration/webhooks").toBe(200);
  const match = /\/administration\/webhooks\/(\d+)/.exec(await (await request.get("/administration/webhooks")).text());
  expect(match, "the registered webhook is listed").toBeTruthy();
  return match![1];
}

/** The first incident type of the list screen (its row links to /update-incident-type/{id}), read as the administrator. */
async function firstIncidentType(request: Parameters<typeof apiLogin>[0]): Promise<string> {
  const res = await request.post("/login", { form: { email: accounts.admin, password: DEMO_PASSWORD }, maxRedirects: 0 });
  expect(res.status(), "form login of the administrator").toBe(302);
  const list = await request.get("/configuration?tab=incident-types");
  const match = /\/update-incident-type\/(\d+)/.exec(await list.text());
  expect(match, "the demo data has an incident type").toBeTruthy();
  return match![1];
}

interface Address {
  id: string;
  path: string;
  /** For axe: the component the address renders when several render the same one. */
  screen?: string;
}

/** The addresses of the screens a role may open, with real ids; extra states (tabs, dialogs) too. */
function addresses(ids: Ids, role: Role): Address[] {
  const out: Address[] = [];
  for (const screen of screens) {
    if (screen.access === "visitor" || screen.access === "public") continue;
    if ((screen.access === "manager" || screen.access === "admin") && role !== "admin") continue;
    const path = `/${screen.path}`.replace(":id", ids[screen.id] ?? "1").replace(":date", ids[`${screen.id}-date`] ?? "2026-01-05");
    out.push({ id: screen.id, path });
  }
  out.push({ id: "settings", path: "/settings?dialog=password" }, { id: "report-issue", path: "/report-issue" });
  // The maintenance calendar's two views (a view of /task, decision 051).
  out.push({ id: "task", path: "/task?view=month" }, { id: "task", path: "/task?view=week" });
  if (role === "admin") {
    out.push(
      { id: "settings", path: "/settings?tab=entity" },
      { id: "facilities", path: "/facilities?tab=buildings" },
      { id: "facilities", path: "/facilities?tab=rooms" },
      { id: "equipments", path: "/equipments?tab=categories" },
      { id: "update-facility", path: `/update-facility/${ids["update-facility"]}?dialog=archive` },
      { id: "update-room-type", path: `/update-room-type/${ids["update-room-type"]}?dialog=archive` },
      { id: "update-user", path: `/update-user/${ids["update-user"]}?dialog=archive` },
      { id: "users", path: "/users?status=3" },
      { id: "update-incident-type", path: `/update-incident-type/${ids["update-incident-type"]}?dialog=archive` },
      { id: "maintenances", path: "/maintenances?tab=types" },
      { id: "update-planned-maintenance", path: `/update-planned-maintenance/${ids["update-planned-maintenance"]}?dialog=archive` },
      { id: "update-maintenance-type", path: `/update-maintenance-type/${ids["update-maintenance-type"]}?dialog=archive` },
      { id: "administration-webhook", path: `/administration/webhooks/${ids["administration-webhook"]}?dialog=delete` },
      { id: "configuration", path: "/configuration?tab=incident-types" },
    );
  }
  return out;
}

/**
 * Checks the page: axe (once per screen state in the run), overflow, title; returns the problems found,
 * prefixed with the address.
 */
async function check(page: Page, { path, id: screenId, screen }: Address, lng: Language): Promise<string[]> {
  const problems: string[] = [];
  const response = await page.goto(path);
  const where = `${lng} ${page.viewportSize()?.width}px ${path}`;
  if (!response || response.status() >= 500) return [`${where}: status ${response?.status()}`];
  for (const p of await axeProblemsOnce(page, { screen })) problems.push(`${where}: ${p}`);
  const overflow = await horizontalOverflow(page);
  if (overflow > 0) problems.push(`${where}: ${overflow} px wider than the window`);
  const titles = await page.locator("head title").allTextContents();
  if (titles.length !== 1 || !titles[0].endsWith(" · Caretaker") || titles[0] === " · Caretaker") {
    problems.push(`${where}: title ${JSON.stringify(titles)}`);
  }
  const known = TITLES[lng][screenId as keyof (typeof TITLES)["en"]];
  // A screen about one record names it first ("Lab 0.01 · Room · Caretaker"), so tabs can be told apart.
  const screenTitle = `${known} · Caretaker`;
  if (known && titles[0] !== screenTitle && !titles[0].endsWith(` · ${screenTitle}`)) problems.push(`${where}: title ${JSON.stringify(titles[0])}, expected "${known} · Caretaker"`);
  return problems;
}

const WALKS: { role: Role; lng: Language; viewport: ViewportName }[] = [
  { role: "admin", lng: "en", viewport: "desktop" },
  { role: "admin", lng: "fr-BE", viewport: "phone" },
  { role: "technician", lng: "nl-BE", viewport: "phone" },
];

test.describe("accessibility of every screen", () => {
  // The pages are the same without JavaScript; the fixture checks the js-off runs' final pages.
  test.skip(({ javaScriptEnabled }) => !javaScriptEnabled, "checked once, with JavaScript on");

  let ids: Record<Role, Ids> | undefined;
  test.beforeAll(async ({ playwright, server }) => {
    const request = await playwright.request.newContext({ baseURL: server.url });
    ids = await demoIds(request);
    await request.dispose();
  });

  for (const { role, lng, viewport } of WALKS) {
    // How many addresses the walk has does not depend on the ids: the tests are known before they run.
    const total = addresses({}, role).length;
    for (let from = 0; from < total; from += CHUNK) {
      const to = Math.min(from + CHUNK, total);
      test(`${role}, ${lng}, ${viewport}: screens ${from + 1}-${to} of ${total}`, async ({ page, login }) => {
        await page.setViewportSize(VIEWPORTS[viewport]);
        await login(accounts[role]);
        try {
          if (lng !== "en") await setLanguage(page, lng);
          const problems: string[] = [];
          for (const address of addresses(ids![role], role).slice(from, to)) problems.push(...(await check(page, address, lng)));
          expect(problems, problems.join("\n")).toEqual([]);
        } finally {
          // The user's language is stored: put it back for the next tests of this worker.
          if (lng !== "en") await setLanguage(page, "en");
        }
      });
    }
  }

  test("the checker reports a missing label, a missing alt text and low contrast; contrast only when asked", async ({ page }) => {
    await page.setContent(
      '<html lang="en"><head><title>Check · Caretaker</title></head><body><main><p style="color:#777;background:#888">Grey on grey</p><input type="text"><img src="x.png"></main></body></html>',
    );
    const rules = (problems: string[]) => problems.map((p) => p.split(" ")[0]).sort();
    expect(rules(await axeProblems(page, { colours: true }))).toEqual(["color-contrast", "image-alt", "label"]);
    expect(rules(await axeProblems(page, { colours: false }))).toEqual(["image-alt", "label"]);
  });

  const SIGNED_OUT: { lng: Language; viewport: ViewportName }[] = [
    { lng: "en", viewport: "desktop" },
    { lng: "fr-BE", viewport: "phone" },
  ];
  for (const { lng, viewport } of SIGNED_OUT) {
    test(`signed out, ${lng}, ${viewport}`, async ({ browser, baseURL }) => {
      const context = await browser.newContext({
        baseURL,
        viewport: VIEWPORTS[viewport],
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
      for (const visit of visits) problems.push(...(await check(page, visit, lng)));

      // The sign-up's second step (the country list): fill the first step and continue.
      await page.goto("/signup");
      await fillAccount(page, { email: `a11y-${Date.now()}@example.test` });
      await continueToEntity(page);
      const country = page.locator('select[name="country"]');
      await expect(country.locator('option[value="BE"]')).toHaveText(lng === "en" ? "Belgium" : "Belgique");
      problems.push(...(await check(page, { id: "signup", path: page.url() }, lng)));
      await context.close();
      expect(problems, problems.join("\n")).toEqual([]);
    });
  }
});
