import fs from "node:fs";
import path from "node:path";
import type { APIRequestContext, Page } from "@playwright/test";
import { accounts, axeProblemsOnce, expect, test } from "./fixtures";
import { apiLogin, markDocument, setLanguage, stillSameDocument } from "./helpers";

/**
 * The dashboard (issue #15), with JavaScript on and off, in English (administrator: the monthly
 * counters) and French (facility manager: the incidents counted within reach): the six months, the top
 * 10 incident types and the assignee table, each count checked against the incidents list API with the
 * filters of its link (an independent query over the demo data), the filter form, a figure's link
 * opening the filtered incidents table, and (JavaScript on) the charts and the CSV export.
 */

type Dict = Record<string, unknown>;
function text(lng: string, key: string): string {
  const [ns, rest] = key.split(":");
  const dict = JSON.parse(fs.readFileSync(path.join("app/locales", lng, `${ns}.json`), "utf8")) as Dict;
  const found = rest.split(".").reduce<unknown>((node, part) => (node as Dict | undefined)?.[part], dict);
  if (typeof found !== "string") throw new Error(`no text ${lng}:${key}`);
  return found;
}

/** The last six months (the current one included) in Brussels, as the dashboard names them. */
function lastSixMonths(lng: string): string[] {
  const [y, m] = new Intl.DateTimeFormat("en-CA", { timeZone: "Europe/Brussels", year: "numeric", month: "2-digit" }).format(new Date()).split("-").map(Number);
  const format = new Intl.DateTimeFormat(lng, { month: "long", year: "numeric", timeZone: "UTC" });
  return Array.from({ length: 6 }, (_, i) => format.format(new Date(Date.UTC(y, m - 1 - (5 - i), 1))));
}

const section = (page: Page, title: string) => page.locator("section").filter({ has: page.getByRole("heading", { name: title, exact: true }) });

/** Every count of the page equals the incidents list API's total for the filters of its link. */
async function expectCountsMatchIncidents(page: Page, request: APIRequestContext, headers: Record<string, string>) {
  const links = await page.locator('main a[href^="/incidents?"]').evaluateAll((as) => as.map((a) => ({ href: a.getAttribute("href") ?? "", text: a.textContent ?? "" })));
  expect(links.length).toBeGreaterThan(30);
  for (const link of links) {
    const params = new URLSearchParams(link.href.split("?")[1]);
    params.delete("view");
    params.set("size", "1");
    const res = await request.get(`/api/incidents?${params}`, { headers });
    expect(res.status(), link.href).toBe(200);
    expect(Number(link.text.replace(/\D/g, "")), link.href).toBe(Number(res.headers()["x-total-count"]));
  }
}

async function expectTables(page: Page, lng: string) {
  await expect(page.getByRole("heading", { level: 1, name: text(lng, "common:screens.dashboard") })).toBeVisible();
  const months = section(page, text(lng, "dashboard:months.title"));
  await expect(months.locator("tbody tr[data-month] th")).toHaveText(lastSixMonths(lng));
  const types = section(page, text(lng, "dashboard:types.title")).locator("tbody tr");
  const typeCount = await types.count();
  expect(typeCount).toBeGreaterThan(0);
  expect(typeCount).toBeLessThanOrEqual(10);
  const assignees = section(page, text(lng, "dashboard:assignees.title")).locator("tbody tr");
  expect(await assignees.count()).toBeGreaterThan(0);
  // The demo data sets targets and replays its incidents' clocks: the service levels end with the period.
  const levels = section(page, text(lng, "dashboard:serviceLevels.title"));
  await expect(levels.getByRole("region", { name: text(lng, "dashboard:serviceLevels.caption") })).toBeVisible();
  await expect(levels.locator('tbody tr[data-scope="period"]')).toHaveCount(1);
}

test("English, administrator: every count of the six months, the top 10 and the assignees matches the incidents; the filters narrow them", async ({ page, login, request }) => {
  await login(accounts.admin, { consent: true });
  const { headers } = await apiLogin(request, accounts.admin);
  await page.goto("/dashboard");
  await expectTables(page, "en");
  await expectCountsMatchIncidents(page, request, headers);

  // The filters are a GET form: the most frequent type narrows every figure to it.
  const top = section(page, "Top 10 incident types").locator("tbody tr").first();
  const typeName = (await top.locator("th").innerText()).trim();
  await page.getByLabel("Incident type", { exact: true }).selectOption({ label: typeName });
  await page.getByRole("button", { name: "Apply filters" }).click();
  await expect(page).toHaveURL(/[?&]type=\d+/);
  await expect(section(page, "Top 10 incident types").locator("tbody tr")).toHaveCount(1);
  await expectCountsMatchIncidents(page, request, headers);
});

test("French, facility manager: the figures within reach, and a figure's link opens the filtered incidents table", async ({ page, login, request, javaScriptEnabled }) => {
  test.skip(!javaScriptEnabled, "French runs with JavaScript on; a figure's link is a plain link, and the English test sends the filters without it (decision 016)");
  await login(accounts.manager, { consent: true });
  await setLanguage(page, "fr-BE");
  try {
    const { headers } = await apiLogin(request, accounts.manager);
    await page.goto("/dashboard");
    await expectTables(page, "fr-BE");
    await expectCountsMatchIncidents(page, request, headers);

    // The busiest month's "Terminés" opens the table of those incidents.
    const done = section(page, "Aperçu sur 6 mois").locator("tbody tr[data-month] td:nth-child(3) a");
    const counts = (await done.allInnerTexts()).map((t) => Number(t.replace(/\D/g, "")));
    const index = counts.indexOf(Math.max(...counts));
    expect(counts[index]).toBeGreaterThan(0);
    await markDocument(page, javaScriptEnabled);
    await done.nth(index).click();
    await expect(page).toHaveURL(/\/incidents\?.*status=2.*from=\d{4}-\d{2}-\d{2}&to=\d{4}-\d{2}-\d{2}/);
    await expect(page.getByRole("heading", { level: 1, name: "Incidents" })).toBeVisible();
    expect(await stillSameDocument(page), "in the app with JavaScript, a new page without").toBe(javaScriptEnabled);
    await expect(page.locator("table tbody tr")).toHaveCount(Math.min(counts[index], 25));
  } finally {
    await setLanguage(page, "en");
  }
});

test("charts load when asked for, and the CSV export carries the figures", async ({ page, login, javaScriptEnabled }) => {
  test.skip(!javaScriptEnabled, "charts need JavaScript; the CSV is the same either way");
  await login(accounts.admin, { consent: true });
  await page.goto("/dashboard");
  await expect(page.getByTestId("dashboard-charts")).toHaveCount(0);
  await page.getByRole("button", { name: "Show charts" }).click();
  await expect(page.getByTestId("dashboard-charts").locator("svg.recharts-surface").first()).toBeVisible();
  await expect(page.getByRole("button", { name: "Hide charts" })).toHaveAttribute("aria-expanded", "true");

  const csv = await page.request.get("/dashboard.csv");
  expect(csv.status()).toBe(200);
  expect(csv.headers()["content-type"]).toContain("text/csv");
  const body = await csv.text();
  expect(body).toContain("6-month overview");
  expect(body).toContain("Top 10 incident types");
  expect(body).toContain("Service levels: response,Month – facility,");
  expect(body).toContain("Service levels: resolution,Whole period – All facilities,");
});

test("on a 390 px phone no table is cut off: each fits or scrolls sideways in a named box the keyboard reaches; the page does not (issue #60)", async ({ page, login, javaScriptEnabled }) => {
  await login(accounts.admin, { consent: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto("/dashboard");
  await expectTables(page, "en");
  const tables = page.locator("main table");
  expect(await tables.count()).toBeGreaterThanOrEqual(6);
  for (const table of await tables.all()) {
    const caption = (await table.locator("caption").textContent())!.trim();
    const box = await table.evaluate((element) => {
      const parent = element.parentElement!;
      const rect = parent.getBoundingClientRect();
      return {
        overflowing: parent.scrollWidth > parent.clientWidth,
        overflowX: getComputedStyle(parent).overflowX,
        left: rect.left,
        right: rect.right,
      };
    });
    // The box of the table is on the screen; a table wider than it scrolls inside it.
    expect(box.left, caption).toBeGreaterThanOrEqual(0);
    expect(box.right, caption).toBeLessThanOrEqual(390);
    if (box.overflowing) expect(["auto", "scroll"], caption).toContain(box.overflowX);
    // The box is a region named by the table's caption, which the keyboard reaches (to scroll it).
    const region = page.getByRole("region", { name: caption, exact: true });
    await expect(region).toHaveAttribute("tabindex", "0");
    await expect(region.locator("table")).toHaveCount(1);
  }
  expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);

  expect(await axeProblemsOnce(page, { javaScriptEnabled })).toEqual([]);

  // The filters fold under their name on a phone, and open from it.
  const facility = page.getByLabel("Facility", { exact: true });
  await expect(facility).toBeHidden();
  await page.locator("summary", { hasText: "Dashboard filters" }).click();
  await expect(facility).toBeVisible();
});
