import fs from "node:fs";
import path from "node:path";
import { accounts, expect, test } from "./fixtures";

/**
 * QR sticker printing end to end, with JavaScript on and off (the two projects), in English: a
 * building's rooms not printed yet are chosen in the tree (the filter, then the rooms), the sheet starts
 * at row 3, the PDF downloads, and the rooms then show as printed and the building as partially printed.
 */
type Dict = Record<string, unknown>;
const texts = JSON.parse(fs.readFileSync(path.join("app/locales/en", "printing.json"), "utf8")) as Dict;
function t(key: string, values: Record<string, string | number> = {}) {
  const found = key.split(".").reduce<unknown>((node, part) => (node as Dict | undefined)?.[part], texts);
  if (typeof found !== "string") throw new Error(`no text en:printing:${key}`);
  return found.replace(/\{\{(\w+)\}\}/g, (_, name: string) => String(values[name] ?? ""));
}

test("a building's rooms not printed yet are printed from row 3, then show as printed", async ({ page, login, javaScriptEnabled }, testInfo) => {
  test.setTimeout(120_000);
  await login(accounts.manager, { consent: true });
  await page.goto("/printing");
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();

  // A building of its own for each project (they may share a server's data).
  const ids = await page.locator('[data-testid^="building-status-"]').evaluateAll((nodes) => nodes.map((n) => Number(n.getAttribute("data-testid")!.split("-").pop())));
  const buildingId = ids[testInfo.project.name === "js-off" ? 1 : 0];
  await page.goto(`/printing?open=${buildingId}`);
  const openRooms = page.locator("section[aria-labelledby='print-open-rooms']");
  await expect(openRooms).toBeVisible();

  // Only what is not printed yet.
  await page.getByLabel(t("tree.notPrintedOnly")).check();
  await page.getByRole("button", { name: t("tree.apply") }).click();
  await expect(page).toHaveURL(/notPrintedOnly=on/);
  const rooms = openRooms.locator('input[name="roomIds"]');
  const count = await rooms.count();
  expect(count).toBeGreaterThanOrEqual(2);
  await expect(openRooms.locator('[data-print-status="0"]')).toHaveCount(0);
  // Every room but the last: the building stays partly without stickers. A chosen room prints the
  // stickers it still misses: its own and its equipment items' (its counts say how many are printed).
  const chosen: string[] = [];
  let stickers = 0;
  for (let i = 0; i < count - 1; i++) {
    await rooms.nth(i).check();
    const id = (await rooms.nth(i).getAttribute("value"))!;
    chosen.push(id);
    const counts = page.getByTestId(`room-counts-${id}`);
    stickers += Number(await counts.getAttribute("data-total")) - Number(await counts.getAttribute("data-printed"));
  }
  expect(stickers).toBeGreaterThanOrEqual(count - 1);
  // What is chosen: with JavaScript as the boxes are ticked, without it once the server has them.
  const chosenText = count - 1 === 1 ? t("tree.chosen_one", { count: 1 }) : t("tree.chosen_other", { count: count - 1 });
  if (javaScriptEnabled) await expect(page.getByText(chosenText, { exact: true })).toBeVisible();
  await page.getByLabel(t("start.row")).selectOption("3");
  await page.getByRole("button", { name: t("preview.update") }).click();
  await expect(page.getByTestId("print-summary")).toHaveText(new RegExp(`^${stickers} sticker`));
  await expect(page.getByText(chosenText, { exact: true })).toBeVisible();
  await expect(page.locator('[data-testid="sheet-preview"] li[data-state="skipped"]')).toHaveCount(6);
  await expect(page.locator('[data-testid="sheet-preview"] li[data-state="sticker"]')).toHaveCount(Math.min(stickers, 15));

  const [download] = await Promise.all([page.waitForEvent("download"), page.getByTestId("print-qr").click()]);
  expect(download.suggestedFilename()).toBe("qr-codes.pdf");
  const file = await download.path();
  expect(fs.readFileSync(file!).subarray(0, 5).toString()).toBe("%PDF-");

  // The rooms are printed now; the building is partially printed.
  await page.goto(`/printing?open=${buildingId}`);
  for (const id of chosen) {
    await expect(openRooms.locator(`li:has(input[name="roomIds"][value="${id}"]) >> [data-print-status]`).first()).toHaveAttribute("data-print-status", "0");
  }
  await expect(page.getByTestId(`building-status-${buildingId}`)).toContainText(t("status.2"));

  // Printing them again with the filter on: nothing to print.
  await page.goto(`/printing?open=${buildingId}&notPrintedOnly=on&roomIds=${chosen[0]}`);
  await page.getByTestId("print-qr").click();
  await expect(page.getByTestId("print-errors")).toContainText(t("errors.nothingToPrint"));
  // The refusal is the form again (400), the choice kept in it and out of the address.
  await expect(page.locator(`#print-qr-form input[name="roomIds"][value="${chosen[0]}"]`)).toHaveCount(1);
  await expect(page).not.toHaveURL(/roomIds=/);
});

test("the printing screen fits a phone, saves the calibration, and the stickers tab refuses 0 copies", async ({ page, login }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await login(accounts.manager, { consent: true });
  await page.goto("/printing");
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow).toBeLessThanOrEqual(0);

  // The printer's calibration offset, kept for the entity.
  await page.getByLabel(t("calibration.offsetX")).fill("1.5");
  await page.getByLabel(t("calibration.offsetY")).fill("-0.5");
  await page.getByRole("button", { name: t("calibration.save") }).click();
  await expect(page.locator('[data-type="success"]').last()).toContainText(t("toast.calibrationSaved"));
  await page.goto("/printing");
  await expect(page.getByLabel(t("calibration.offsetX"))).toHaveValue("1.5");
  await expect(page.getByLabel(t("calibration.offsetY"))).toHaveValue("-0.5");

  await page.goto("/printing?tab=stickers");
  await page.getByLabel(t("stickers.copies")).fill("0");
  await page.getByLabel(t("start.row")).selectOption("7");
  // The browser's own check is skipped by posting the form's fields directly.
  const response = await page.request.post("/printing/explanatory-stickers.pdf", { form: { copies: "0", startRow: "7" }, maxRedirects: 0 });
  expect(response.status()).toBe(303);
  expect(response.headers().location).toContain("err=printing%3Avalidation.copies");
  await page.goto(response.headers().location);
  await expect(page.getByTestId("print-errors")).toContainText(t("validation.copies"));
  await expect(page.getByLabel(t("stickers.copies"))).toHaveValue("0");
});
