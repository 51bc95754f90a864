import fs from "node:fs";
import path from "node:path";
import type { Page } from "@playwright/test";
import { accounts, expect, test, unique } from "./fixtures";
import { field, fieldError, successToast } from "./helpers";

/**
 * Planned maintenance end to end, with JavaScript on and off (the two projects), in English: a
 * maintenance type is added, a plan is started from it ("Plan it" prefills the form), refused without a
 * location, then a room is chosen in the location tree (a building's rooms shown by the server) and the
 * plan saved; it is listed, then archived (a wrong name first).
 */
type Dict = Record<string, unknown>;
const read = (ns: string) => JSON.parse(fs.readFileSync(path.join("app/locales/en", `${ns}.json`), "utf8")) as Dict;
const texts: Record<string, Dict> = { common: read("common"), maintenance: read("maintenance") };
function t(key: string, values: Record<string, string | number> = {}) {
  const [ns, rest] = key.includes(":") ? key.split(":") : ["common", key];
  const found = rest.split(".").reduce<unknown>((node, part) => (node as Dict | undefined)?.[part], texts[ns]);
  if (typeof found !== "string") throw new Error(`no text en:${key}`);
  return found.replace(/\{\{(\w+)\}\}/g, (_, name: string) => String(values[name] ?? ""));
}

async function search(page: Page, text: string) {
  await page.getByRole("searchbox", { name: t("list.search") }).fill(text);
  await page.getByRole("button", { name: t("list.searchButton"), exact: true }).click();
}

test("a maintenance type is added, a plan made from it with a room of the tree, listed and archived", async ({ page, login }) => {
  test.setTimeout(120_000);
  const typeName = unique("Boiler check");
  const planName = unique("Boilers this year");
  await login(accounts.manager, { consent: true });

  // The type.
  await page.goto("/maintenances?tab=types");
  await page.getByRole("link", { name: t("maintenance:types.add") }).click();
  await expect(page).toHaveURL(/\/add-maintenance-type$/);
  await field(page, t("maintenance:form.typeName")).fill(typeName);
  await field(page, t("maintenance:form.occurrenceUnit")).selectOption("2");
  await field(page, t("maintenance:form.occurrenceInterval")).fill("2");
  await field(page, t("maintenance:form.instructionsLabel")).fill("Check the pressure");
  await page.getByRole("button", { name: t("actions.add"), exact: true }).click();
  await expect(page).toHaveURL(/\/maintenances\?tab=types$/);
  await expect(successToast(page)).toContainText(t("toast.created"));
  await search(page, typeName);
  await expect(page.getByRole("cell", { name: t("maintenance:occurrence.every.2_other", { count: 2 }) })).toBeVisible();

  // A plan from it: the form starts from the type.
  await page.getByRole("link", { name: t("maintenance:types.planItNamed", { name: typeName }) }).click();
  await expect(page).toHaveURL(/\/add-planned-maintenance\?type=\d+$/);
  await expect(field(page, t("maintenance:form.planName"))).toHaveValue(typeName);
  await expect(field(page, t("maintenance:form.occurrenceInterval"))).toHaveValue("2");
  await expect(field(page, t("maintenance:form.instructionsLabel"))).toHaveValue("Check the pressure");
  await field(page, t("maintenance:form.planName")).fill(planName);
  await page.getByRole("button", { name: t("actions.add"), exact: true }).click();
  await expect(fieldError(page, t("maintenance:validation.selection"))).toBeVisible();
  await expect(field(page, t("maintenance:form.planName"))).toHaveValue(planName);

  // The tree: a facility opened, a building's rooms shown by the server, a room chosen.
  await page.locator("main form details summary").first().click();
  await page.locator('main form button[name="locBrowse"][value^="building:"]').first().click();
  await expect(page.getByRole("heading", { name: /^Rooms of / })).toBeVisible();
  await expect(field(page, t("maintenance:form.planName"))).toHaveValue(planName);
  const firstRoom = page.locator('main form input[name="roomIds"]').first();
  await firstRoom.check();
  await page.getByRole("button", { name: t("actions.add"), exact: true }).click();
  await expect(page).toHaveURL(/\/maintenances$/);
  await expect(successToast(page)).toContainText(t("toast.created"));
  await search(page, planName);
  await expect(page.getByRole("cell", { name: typeName })).toBeVisible();

  // Archived: a wrong name first, then the right one.
  await page.getByRole("link", { name: planName }).click();
  await expect(page).toHaveURL(/\/update-planned-maintenance\/\d+$/);
  await expect(page.getByText(t("maintenance:picker.chosen_one"))).toBeVisible();
  await page.getByRole("link", { name: t("maintenance:plans.archive") }).click();
  const dialog = page.getByRole("dialog");
  await expect(dialog).toBeVisible();
  await field(dialog, t("archive.confirmLabel")).fill("Not the name");
  await dialog.getByRole("button", { name: t("archive.action"), exact: true }).click();
  await expect(fieldError(page, t("archive.wrongName"))).toBeVisible();
  await field(page.getByRole("dialog"), t("archive.confirmLabel")).fill(planName);
  await page.getByRole("dialog").getByRole("button", { name: t("archive.action"), exact: true }).click();
  await expect(page).toHaveURL(/\/maintenances$/);
  await expect(successToast(page)).toContainText(t("toast.archived"));
  await search(page, planName);
  await expect(page.getByText(t("maintenance:plans.noMatch"))).toBeVisible();
});

test("with JavaScript, the location picker's summary follows the ticks before any round trip", async ({ page, login, javaScriptEnabled }) => {
  test.skip(!javaScriptEnabled, "without JavaScript the summary is the server's, after the next round trip");
  await login(accounts.manager, { consent: true });
  await page.goto("/add-planned-maintenance");
  await page.locator("main form details summary").first().click();
  await page.locator('main form button[name="locBrowse"][value^="building:"]').first().click();
  await expect(page.getByRole("heading", { name: /^Rooms of / })).toBeVisible();
  await expect(page.getByText(t("maintenance:picker.nothingChosen"))).toBeVisible();
  const rooms = page.locator('main form input[name="roomIds"]');
  await rooms.nth(0).check();
  await expect(page.getByText(t("maintenance:picker.chosen_one"))).toBeVisible();
  await rooms.nth(1).check();
  await expect(page.getByText(t("maintenance:picker.chosen_other", { count: 2 }))).toBeVisible();
  await rooms.nth(0).uncheck();
  await rooms.nth(1).uncheck();
  await expect(page.getByText(t("maintenance:picker.nothingChosen"))).toBeVisible();
});
