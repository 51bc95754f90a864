import ExcelJS from "exceljs";
import type { Page } from "@playwright/test";
import { accounts, expect, test } from "./fixtures";
import { apiLogin, bearer, setLanguage, successToast } from "./helpers";

/**
 * The export tab of Import/Export Data (issue 49, decision 055), with JavaScript on and off, in English
 * and in Dutch: export the incidents as an Excel workbook, wait for it to finish (the list refreshes
 * itself with JavaScript, the page is reloaded without), download the file and open it: a known
 * incident's title is in it under the translated header. A technician is refused the screen and the API.
 */
async function knownIncidentTitle(request: Parameters<typeof apiLogin>[0], email: string): Promise<string> {
  const session = await apiLogin(request, email);
  const res = await request.get("/api/incidents?size=1", { headers: session.headers });
  expect(res.status()).toBe(200);
  const [first] = (await res.json()) as { title: string }[];
  expect(first, `${email} sees incidents`).toBeTruthy();
  return first.title;
}

/** Waits for the newest export of the list to offer its download (reloading the page), and answers its address. */
async function waitForDownload(page: Page, download: string): Promise<string> {
  const link = page.getByRole("table").getByRole("link", { name: new RegExp(`^${download}`) }).first();
  await expect(async () => {
    if (!(await link.isVisible())) await page.reload();
    await expect(link).toBeVisible({ timeout: 1000 });
  }).toPass({ timeout: 60_000, intervals: [1000] });
  const href = await link.getAttribute("href");
  expect(href).toMatch(/^\/files\/[0-9a-f-]{36}$/);
  return href!;
}

async function openWorkbook(page: Page, href: string): Promise<ExcelJS.Worksheet> {
  const res = await page.request.get(href);
  expect(res.status()).toBe(200);
  expect(res.headers()["content-type"]).toBe("application/vnd.openxmlformats-officedocument.spreadsheetml.sheet");
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load((await res.body()) as unknown as ArrayBuffer);
  return workbook.worksheets[0];
}

function columnValues(sheet: ExcelJS.Worksheet, header: string): unknown[] {
  const headers = (sheet.getRow(1).values as unknown[]).slice(1);
  const column = headers.indexOf(header) + 1;
  expect(column, `column ${header}`).toBeGreaterThan(0);
  const values: unknown[] = [];
  for (let r = 2; r <= sheet.rowCount; r++) values.push(sheet.getRow(r).getCell(column).value);
  return values;
}

test("an administrator exports the incidents as a workbook, downloads it and finds a known incident (English)", async ({ page, login, request }) => {
  const title = await knownIncidentTitle(request, accounts.admin);
  await login(accounts.admin, { consent: true });
  await page.goto("/import-data/export");
  await expect(page.getByRole("heading", { name: "Import/Export Data", level: 1 })).toBeVisible();
  await expect(page.getByRole("link", { name: "Export", exact: true })).toHaveAttribute("aria-current", "page");
  await expect(page.getByLabel("What to export")).toHaveValue("incidents");
  await page.getByRole("button", { name: "Export", exact: true }).click();
  await expect(successToast(page)).toContainText("Export in progress");
  const href = await waitForDownload(page, "Download");
  const sheet = await openWorkbook(page, href);
  expect(sheet.name).toBe("Incidents");
  expect(columnValues(sheet, "Title")).toContain(title);
});

test("a facility manager exports their incidents in Dutch; the other types show their own filters", async ({ page, login, request }) => {
  const title = await knownIncidentTitle(request, accounts.manager);
  await login(accounts.manager, { consent: true });
  await setLanguage(page, "nl-BE");
  try {
    await page.goto("/import-data/export?type=rooms");
    await expect(page.getByLabel("Site")).toBeVisible();
    await page.goto("/import-data/export?type=incidents");
    await expect(page.getByRole("group", { name: "Status" })).toBeVisible();
    await page.getByRole("button", { name: "Exporteren", exact: true }).click();
    await expect(successToast(page)).toContainText("Export bezig");
    const href = await waitForDownload(page, "Downloaden");
    const sheet = await openWorkbook(page, href);
    expect(sheet.name).toBe("Incidenten");
    expect(columnValues(sheet, "Titel")).toContain(title);
  } finally {
    await setLanguage(page, "en");
  }
});

test("a filter that does not read is refused (400) with the error above the form and the input kept", async ({ page, login }) => {
  await login(accounts.admin, { consent: true });
  const res = await page.request.post("/import-data/export", {
    form: { intent: "start", type: "incidents", format: "csv", "filters.status": "9", "filters.q": "kitchen" },
    maxRedirects: 0,
  });
  expect(res.status()).toBe(400);
  const html = await res.text();
  expect(html).toContain("This filter value is not valid.");
  expect(html).toContain('value="kitchen"');
  expect(html).toContain('name="format" checked="" value="csv"');
});

test("a technician is refused the export tab and the export calls", async ({ page, login, request }) => {
  await login(accounts.technician, { consent: true });
  await page.goto("/import-data/export");
  await expect(page).toHaveURL(/\/forbidden$/);
  const tech = await apiLogin(request, accounts.technician);
  const started = await request.post("/api/exports", { headers: bearer(tech.token), data: { type: "incidents", format: "xlsx" } });
  expect(started.status()).toBe(403);
  expect((await request.get("/api/exports", { headers: bearer(tech.token) })).status()).toBe(403);
});
