import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import ExcelJS from "exceljs";
import { accounts, axeProblemsOnce, expect, test, unique } from "./fixtures";
import { apiLogin, setLanguage, successToast } from "./helpers";

/**
 * Bulk import end to end (issue 49, decision 054), in English and Dutch, JavaScript on and off: an
 * administrator downloads the rooms template, fills it (exceljs, as Excel would), imports it with faults
 * and sees every fault listed by line and column, fixes the file, imports it, and finds the import done,
 * the success notification and the new rooms; the equipment items' template (issue 63) and a faulty
 * items file's faults. Technicians are refused the tab and the templates; a
 * 100 MB upload is refused before the app reads it.
 */
type Dict = Record<string, unknown>;
function locale(lng: string) {
  const read = (ns: string) => JSON.parse(fs.readFileSync(path.join("app/locales", lng, `${ns}.json`), "utf8")) as Dict;
  const namespaces: Record<string, Dict> = Object.fromEntries(["common", "imports", "notifications"].map((ns) => [ns, read(ns)]));
  return (key: string, values: Record<string, string | number> = {}) => {
    const [ns, rest] = key.includes(":") ? key.split(":") : ["common", key];
    const found = rest.split(".").reduce<unknown>((node, part) => (node as Dict | undefined)?.[part], namespaces[ns]);
    if (typeof found !== "string") throw new Error(`no text ${lng}:${key}`);
    return found.replace(/\{\{(\w+)\}\}/g, (_, name: string) => String(values[name] ?? ""));
  };
}

async function writeWorkbook(template: string, lines: string[][], target: string) {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.readFile(template);
  const data = workbook.worksheets[0];
  for (const line of lines) data.addRow(line);
  await workbook.xlsx.writeFile(target);
}

for (const lng of ["en", "nl-BE"] as const) {
  test.describe(lng, () => {
    const t = locale(lng);
    // The administrator's language is stored: put it back for the next tests of the worker (the shell's
    // menu test reads English).
    test.afterEach(async ({ page }) => {
      if (lng !== "en") await setLanguage(page, "en");
    });

    test(`rooms from a filled template: faults listed, fixed, imported, notified (${lng})`, async ({ page, login, request, javaScriptEnabled }) => {
      test.setTimeout(120_000);
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), "caretaker-import-e2e-"));
      const prefix = unique("Imported");
      await page.context().clearCookies();
      await login(accounts.admin, { consent: true });
      await setLanguage(page, lng);
      await page.goto("/import-data");
      await expect(page.getByRole("heading", { level: 1 })).toHaveText(t("screens.import-data"));
      await expect(page.getByRole("link", { name: t("common:dataTabs.export"), exact: true })).toHaveAttribute("href", "/import-data/export");

      // The template of rooms, in the page's language.
      await page.getByText(t("imports:templates"), { exact: true }).click();
      const download = page.waitForEvent("download");
      await page.getByRole("link", { name: `${t("imports:downloadXlsx")} (${t("imports:types.6")})` }).click();
      const template = path.join(dir, "rooms-template.xlsx");
      await (await download).saveAs(template);
      const workbook = new ExcelJS.Workbook();
      await workbook.xlsx.readFile(template);
      const [data, , lists] = workbook.worksheets;
      expect(data.getRow(1).getCell(1).value).toBe(`${t("imports:columns.name")} *`);
      expect(data.getRow(1).getCell(4).value).toBe(`${t("imports:columns.floor")} *`);
      // A building whose name no other building has (the list offers names; a shared one is ambiguous).
      const admin = await apiLogin(request, accounts.admin);
      const buildings = (await (await request.get("/api/facilities/buildings?size=100", { headers: admin.headers })).json()) as { name: string }[];
      const building = buildings.map((b) => b.name).find((name, _, all) => all.filter((n) => n === name).length === 1)!;
      const offered: string[] = [];
      lists.getColumn(1).eachCell((cell) => offered.push(String(cell.value)));
      expect(offered).toContain(building);
      const roomType = String(lists.getCell("B1").value);

      // With faults on two lines: a missing floor, a room type that does not exist.
      const faulty = path.join(dir, "rooms-faulty.xlsx");
      await writeWorkbook(template, [[`${prefix} 1`, building, roomType, "1"], [`${prefix} 2`, building, roomType, ""], [`${prefix} 3`, building, "No such type", "2"]], faulty);
      await page.getByLabel(t("imports:type")).selectOption({ label: t("imports:types.6") });
      await page.locator('input[type="file"][name="file"]').setInputFiles(faulty);
      await page.getByRole("button", { name: t("imports:start"), exact: true }).click();
      await expect(page.getByText(t("imports:errorsTitle", { count: 2 })).first()).toBeVisible();
      const faults = page.getByRole("table", { name: t("imports:errorsTitle", { count: 2 }) });
      await expect(faults.getByRole("row")).toHaveCount(3);
      await expect(faults.getByRole("row").nth(1)).toContainText(t("imports:errors.missingColumn", { line: 3, column: t("imports:columns.floor") }));
      await expect(faults.getByRole("row").nth(2)).toContainText(t("imports:columns.roomType"));
      await expect(faults.getByRole("row").nth(2)).toContainText(t("imports:errors.unknownReference"));
      expect(await axeProblemsOnce(page, { javaScriptEnabled, screen: "import-data" })).toEqual([]);

      // Fixed: imported in the background.
      const fixed = path.join(dir, "rooms-fixed.xlsx");
      await writeWorkbook(template, [[`${prefix} 1`, building, roomType, "1"], [`${prefix} 2`, building, roomType, "0"], [`${prefix} 3`, building, roomType, "2"]], fixed);
      await page.getByLabel(t("imports:type")).selectOption({ label: t("imports:types.6") });
      await page.locator('input[type="file"][name="file"]').setInputFiles(fixed);
      await page.getByRole("button", { name: t("imports:start"), exact: true }).click();
      await expect(successToast(page)).toContainText(t("imports:started"));
      const latest = page.locator("tr[data-import-id]").first();
      await expect
        .poll(
          async () => {
            await page.goto("/import-data");
            return (await latest.textContent()) ?? "";
          },
          { timeout: 30_000 },
        )
        .toContain(t("imports:status.2"));
      await expect(latest).toContainText("rooms-fixed.xlsx");

      await page.goto("/notifications");
      // A rooms import is announced as one (not as the facilities area's import).
      await expect(page.getByText(t("notifications:importType.6.succeeded")).first()).toBeVisible();
      await page.goto(`/facilities?tab=rooms&q=${encodeURIComponent(prefix)}`);
      for (const n of [1, 2, 3]) await expect(page.getByText(`${prefix} ${n}`, { exact: true })).toBeVisible();
      fs.rmSync(dir, { recursive: true, force: true });
    });
  });
}

test("equipment items: the ninth type's template, and a faulty file's every fault listed", async ({ page, login, javaScriptEnabled }) => {
  const t = locale("en");
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "caretaker-items-import-e2e-"));
  await page.context().clearCookies();
  await login(accounts.admin, { consent: true });
  await page.goto("/import-data");
  await page.getByText(t("imports:templates"), { exact: true }).click();
  const download = page.waitForEvent("download");
  await page.getByRole("link", { name: `${t("imports:downloadXlsx")} (${t("imports:types.8")})` }).click();
  const template = path.join(dir, "items-template.xlsx");
  await (await download).saveAs(template);
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.readFile(template);
  const header = workbook.worksheets[0].getRow(1);
  expect([1, 2, 3, 10, 13].map((n) => header.getCell(n).value)).toEqual(["Equipment *", "Internal reference", "Serial number", "Room *", "Report identifier"]);

  const faulty = path.join(dir, "items.xlsx");
  await writeWorkbook(template, [["No such equipment", "X-1", "SN-1", "", "", "2025-02-30", "", "", "", "No such room"]], faulty);
  await page.getByLabel(t("imports:type")).selectOption({ label: t("imports:types.8") });
  await page.locator('input[type="file"][name="file"]').setInputFiles(faulty);
  await page.getByRole("button", { name: t("imports:start"), exact: true }).click();
  const faults = page.getByRole("table", { name: t("imports:errorsTitle", { count: 3 }) });
  await expect(faults.getByRole("row")).toHaveCount(4);
  await expect(faults.getByRole("row").nth(1)).toContainText(t("imports:columns.equipment"));
  await expect(faults.getByRole("row").nth(2)).toContainText(t("imports:errors.date"));
  await expect(faults.getByRole("row").nth(3)).toContainText(t("imports:columns.room"));
  expect(await axeProblemsOnce(page, { javaScriptEnabled, screen: "import-data" })).toEqual([]);
  fs.rmSync(dir, { recursive: true, force: true });
});

test("a technician is refused the import tab and its templates", async ({ page, login }) => {
  await page.context().clearCookies();
  await login(accounts.technician, { consent: true });
  await page.goto("/import-data");
  await expect(page).toHaveURL(/\/forbidden$/);
  const template = await page.request.get("/import-template/rooms.xlsx", { maxRedirects: 0 });
  expect(template.status()).toBe(302);
  expect(template.headers().location).toMatch(/\/forbidden$/);
});

test("an unknown template is the 404 page, another spelling of the tab the same tab", async ({ page, login }) => {
  await page.context().clearCookies();
  await login(accounts.admin, { consent: true });
  expect((await page.request.get("/import-template/rooms.pdf")).status()).toBe(404);
  expect((await page.request.get("/import-template/nothing.xlsx")).status()).toBe(404);
  expect((await page.request.get("/IMPORT-DATA")).status()).toBe(200);
});

test("a 100 MB upload is refused (413) before it is read", async ({ request, javaScriptEnabled }) => {
  test.skip(!javaScriptEnabled, "a REST call: once is enough");
  const admin = await apiLogin(request, accounts.admin);
  const response = await request.post("/api/imports", {
    headers: admin.headers,
    multipart: { type: "rooms", file: { name: "huge.csv", mimeType: "text/csv", buffer: Buffer.alloc(100 * 1024 * 1024, 65) } },
  });
  expect(response.status()).toBe(413);
});
