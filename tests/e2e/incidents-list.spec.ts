import fs from "node:fs";
import path from "node:path";
import type { Locator, Page } from "@playwright/test";
import { accounts, axeProblemsOnce, expect, horizontalOverflow, test } from "./fixtures";
import { markDocument, setLanguage, stillSameDocument, successToast, webSession } from "./helpers";

/**
 * The incidents list (issue #12 parts 1 and 2, issue #46 point 3), end to end, with JavaScript on and off
 * (the two projects), in English and Dutch: filter by status and text, sort by priority, change a status
 * in the table, bulk-change two incidents, assign in bulk with everyone to choose from loaded on demand,
 * the "More filters" panel's choices loaded on demand, the table fitting 1280 px and its rows as cards
 * with their status at 390 px, switch to the board and move a card (dragged with JavaScript, by its form
 * without), the filters remembered after leaving and coming back, and a technician seeing and changing
 * only the incidents in reach.
 *
 * The demo incidents are shared by the tests of a worker, so each test picks its incidents from the
 * list as it finds it (Done ones, oldest first in the table, newest first on the board).
 */

type Dict = Record<string, unknown>;
function locale(lng: string) {
  const read = (ns: string) => JSON.parse(fs.readFileSync(path.join("app/locales", lng, `${ns}.json`), "utf8")) as Dict;
  const namespaces: Record<string, Dict> = Object.fromEntries(["common", "incidents", "incidentList"].map((ns) => [ns, read(ns)]));
  return (key: string, values: Record<string, string | number> = {}) => {
    const [ns, rest] = key.includes(":") ? key.split(":") : ["common", key];
    const found = rest.split(".").reduce<unknown>((node, part) => (node as Dict | undefined)?.[part], namespaces[ns]);
    if (typeof found !== "string") throw new Error(`no text ${lng}:${key}`);
    return found.replace(/\{\{(\w+)\}\}/g, (_, name: string) => String(values[name] ?? ""));
  };
}
type T = ReturnType<typeof locale>;

const DONE = "2";
const REJECTED = "3";
const IN_PROGRESS = "1";

/** Signs in, in the language of the test; the account is back in English afterwards (the worker's other tests expect it). */
async function signedIn(page: Page, login: (email: string, options?: { consent?: boolean }) => Promise<void>, email: string, lng: string, run: () => Promise<void>) {
  await login(email, { consent: true });
  // Always set: a test stopped by its time limit may have left the account in another language.
  await setLanguage(page, lng);
  try {
    await run();
  } finally {
    if (lng !== "en") await setLanguage(page, "en");
  }
}

const rows = (page: Page) => page.locator("tbody tr");
/** The short id of a row ("#12" -> 12). */
async function shortIdOf(row: Locator): Promise<number> {
  return Number((await row.locator("td").nth(1).innerText()).replace("#", "").trim());
}
/** The rows' statuses, as their selects hold them (one per row, `status-{id}`). */
async function statusesOf(page: Page): Promise<string[]> {
  return page.locator('tbody select[name^="status-"]').evaluateAll((selects) => selects.map((s) => (s as HTMLSelectElement).value));
}
/** The rows' priorities, read from their badges: -1 for Not Selected, then 0 (Low) to 3 (Critical). */
async function prioritiesOf(page: Page, t: T): Promise<number[]> {
  const names = new Map(["none", "0", "1", "2", "3"].map((p) => [t(`incidents:priority.${p}`), p === "none" ? -1 : Number(p)]));
  const texts = await page.locator("tbody td.it-pri").allInnerTexts();
  return texts.map((text) => names.get(text.trim()) ?? Number.NaN);
}

/** Submits a row's or card's change: with JavaScript the select posts itself, without it Save does. */
async function change(page: Page, t: T, label: string, value: string | { label: string }, javaScriptEnabled: boolean) {
  const save = page.getByRole("button", { name: t("incidentList:change.saveLabel", { field: label }), exact: true });
  // Save goes once the page is hydrated: from then on the select posts itself.
  if (javaScriptEnabled) await expect(save).toHaveCount(0);
  await page.getByRole("combobox", { name: label, exact: true }).selectOption(value);
  if (!javaScriptEnabled) await save.click();
}

/** The status of an incident, found by its number in the table. */
async function statusOf(page: Page, t: T, shortId: number): Promise<string> {
  await page.goto(`/incidents?view=table&q=%23${shortId}`);
  return page.getByRole("combobox", { name: t("incidentList:change.status", { shortId }), exact: true }).inputValue();
}

async function applyFilters(page: Page, t: T) {
  await page.getByRole("button", { name: t("incidentList:filters.apply"), exact: true }).click();
}

for (const lng of ["en", "nl-BE"] as const) {
test.describe(lng, () => {
  // English with JavaScript on and off, Dutch with it on: each form is checked without JavaScript once (the suite's time, issue #9).
  test.skip(({ javaScriptEnabled }) => lng !== "en" && !javaScriptEnabled, "Dutch runs with JavaScript on");
  const t = locale(lng);

  test(`filters by status and text and sorts by priority (${lng})`, async ({ page, login, javaScriptEnabled }) => {
    await signedIn(page, login, accounts.manager, lng, async () => {
      await page.goto("/incidents?reset=1");
      await expect(page).toHaveURL(/\/incidents$/);
      await expect(page.getByRole("heading", { level: 1, name: t("screens.incidents") })).toBeVisible();
      // The dashboard counts archived incidents, this list does not by default: it says so, and offers them.
      await expect(page.getByText(t("incidentList:archived.hidden"))).toBeVisible();
      await expect(page.getByRole("link", { name: t("incidentList:archived.show") })).toHaveAttribute("href", /status=0&status=1&status=2&status=3&status=4/);

      // Status: Done only.
      await page.getByRole("checkbox", { name: t("incidents:status.2"), exact: true }).check();
      await applyFilters(page, t);
      await expect(page).toHaveURL(/[?&]status=2(&|$)/);
      // (With JavaScript the address changes a moment before the rows.)
      await expect.poll(async () => [...new Set(await statusesOf(page))].join()).toBe(DONE);

      // Text: an incident's number finds it alone; clear goes back to everything.
      const shortId = await shortIdOf(rows(page).nth(1));
      await page.getByRole("searchbox", { name: t("incidentList:filters.search"), exact: true }).fill(`#${shortId}`);
      await applyFilters(page, t);
      await expect(page).toHaveURL(new RegExp(`q=%23${shortId}`));
      await expect(rows(page)).toHaveCount(1);
      await expect(rows(page).first().locator("td").nth(1)).toHaveText(`#${shortId}`);
      await page.getByRole("searchbox", { name: t("incidentList:filters.search"), exact: true }).fill("zzz-nothing-matches");
      await applyFilters(page, t);
      await expect(page.getByText(t("incidentList:table.noMatch"))).toBeVisible();
      await page.getByRole("link", { name: t("incidentList:clearFilters"), exact: true }).last().click();
      await expect(page).toHaveURL(/\/incidents$/);
      await expect(rows(page)).toHaveCount(25);

      // Sort by priority (shown as a badge): Not Selected first, then Low to Critical; again: the other way round.
      const priorities = () => prioritiesOf(page, t);
      await markDocument(page, javaScriptEnabled);
      await page.getByRole("link", { name: t("incidents:fields.priority"), exact: true }).click();
      const sorted = (values: number[], dir: 1 | -1) => values.every((v, i) => i === 0 || (v - values[i - 1]) * dir >= 0);
      await expect(page).toHaveURL(/sort=priority&dir=asc/);
      await expect.poll(async () => (await priorities())[0]).toBe(-1);
      expect(sorted(await priorities(), 1)).toBe(true);
      await page.getByRole("link", { name: t("incidents:fields.priority"), exact: true }).click();
      await expect(page).toHaveURL(/sort=priority&dir=desc/);
      await expect.poll(async () => (await priorities())[0]).toBe(3);
      expect(sorted(await priorities(), -1)).toBe(true);
      // The sort links are plain anchors: in the app with JavaScript, new pages without.
      expect(await stillSameDocument(page)).toBe(javaScriptEnabled);

      // An incident's title opens it (in the app with JavaScript); its number beside it is text.
      await markDocument(page, javaScriptEnabled);
      await expect(rows(page).first().locator("td").nth(1).getByRole("link")).toHaveCount(0);
      const number = String(await shortIdOf(rows(page).first()));
      await rows(page).first().locator("td").nth(2).getByRole("link").click();
      await expect(page).toHaveURL(/\/incident\/\d+$/);
      await expect(page.getByRole("heading", { level: 1 })).toContainText(number);
      expect(await stillSameDocument(page)).toBe(javaScriptEnabled);
    });
  });

  test(`changes a status in the table and two incidents at once (${lng})`, async ({ page, login, javaScriptEnabled }) => {
    await signedIn(page, login, accounts.manager, lng, async () => {
      await page.goto(`/incidents?view=table&status=${DONE}&sort=shortId&dir=asc`);
      const first = await shortIdOf(rows(page).first());
      await change(page, t, t("incidentList:change.status", { shortId: first }), IN_PROGRESS, javaScriptEnabled);
      await expect(successToast(page)).toContainText(t("incidents:success.status"));
      // Still the same list (the filters kept), without the incident that left it.
      await expect(page).toHaveURL(new RegExp(`status=${DONE}&sort=shortId&dir=asc`));
      await expect(page.getByRole("combobox", { name: t("incidentList:change.status", { shortId: first }), exact: true })).toHaveCount(0);

      // Bulk: nothing selected is refused beside the form; two selected change together.
      await page.getByRole("button", { name: t("incidentList:bulk.apply"), exact: true }).click();
      await expect(page.getByRole("alert").filter({ hasText: t("incidents:validation.selectSome") })).toBeVisible();
      const [a, b] = [await shortIdOf(rows(page).nth(0)), await shortIdOf(rows(page).nth(1))];
      await page.getByRole("checkbox", { name: t("incidentList:select.one", { shortId: a }), exact: true }).check();
      await page.getByRole("checkbox", { name: t("incidentList:select.one", { shortId: b }), exact: true }).check();
      await page.getByRole("combobox", { name: t("incidentList:bulk.change"), exact: true }).selectOption("status");
      await page.getByRole("combobox", { name: t("incidentList:bulk.status"), exact: true }).selectOption(REJECTED);
      await page.getByRole("button", { name: t("incidentList:bulk.apply"), exact: true }).click();
      await expect(successToast(page)).toContainText(t("incidents:success.bulk_other", { count: 2 }));

      expect(await statusOf(page, t, first)).toBe(IN_PROGRESS);
      expect(await statusOf(page, t, a)).toBe(REJECTED);
      expect(await statusOf(page, t, b)).toBe(REJECTED);
    });
  });

  test(`assigns in bulk, everyone to choose from loaded on demand (${lng})`, async ({ page, login, javaScriptEnabled }) => {
    // Each run takes one of the demo's unassigned incidents; the Dutch texts of the bulk form are checked above.
    test.skip(lng !== "en", "runs in English only");
    await signedIn(page, login, accounts.manager, lng, async () => {
      await page.goto("/incidents?view=table&assignee=none&sort=shortId&dir=asc");
      const shortId = await shortIdOf(rows(page).first());
      // A row shows its assignee as text: no select per row for it, nor for the priority.
      await expect(rows(page).first().getByRole("combobox")).toHaveCount(1);
      const assignee = page.getByRole("combobox", { name: t("incidentList:bulk.assignee"), exact: true });
      // The administrator reaches every incident (a technician may not reach the first unassigned one, which the
      // other tests of the worker change), and is not on the page: neither assigned here nor the viewer.
      const everyone = assignee.locator("option", { hasText: "Ava Peeters" });
      if (javaScriptEnabled) {
        // The page carries Unassigned, the viewer and the page's assignees (nobody here); choosing to change
        // the assignee fetches everyone. (Once hydrated: the link for a page without JavaScript is gone.)
        await expect(page.getByRole("link", { name: t("incidentList:bulk.everyone"), exact: true })).toHaveCount(0);
        await page.getByRole("combobox", { name: t("incidentList:bulk.change"), exact: true }).selectOption("assignee");
        await expect(everyone).toHaveCount(1);
      } else {
        await expect(everyone).toHaveCount(0);
        await page.getByRole("link", { name: t("incidentList:bulk.everyone"), exact: true }).click();
        await expect(page).toHaveURL(/bulk=assignee/);
        await expect(everyone).toHaveCount(1);
        await expect(page.getByRole("combobox", { name: t("incidentList:bulk.change"), exact: true })).toHaveValue("assignee");
      }
      await expect(assignee.locator("option", { hasText: t("incidentList:bulk.me", { name: "Marc Dubois" }) })).toHaveCount(1);
      await page.getByRole("checkbox", { name: t("incidentList:select.one", { shortId }), exact: true }).check();
      await assignee.selectOption({ label: "Ava Peeters" });
      await page.getByRole("button", { name: t("incidentList:bulk.apply"), exact: true }).click();
      await expect(successToast(page)).toContainText(t("incidents:success.bulk_one", { count: 1 }));
      await expect(page).not.toHaveURL(/bulk=/);
      await page.goto(`/incidents?view=table&q=%23${shortId}`);
      await expect(rows(page).first().locator("td.it-as")).toHaveText("Ava Peeters");
    });
  });

  test(`loads the More filters panel's choices on demand (${lng})`, async ({ page, login, javaScriptEnabled }) => {
    await signedIn(page, login, accounts.manager, lng, async () => {
      await page.goto("/incidents?view=table&reset=1");
      const filters = page.getByRole("search", { name: t("incidentList:filters.label") });
      // Closed: none of its lists is on the page.
      await expect(filters.locator('select[name="assignee"], select[name="type"], select[name="facility"]')).toHaveCount(0);
      // With JavaScript, open it once the page is hydrated (the bulk form's link for a page without JavaScript
      // is then gone): a click before that loads a new document, which has no reason to move the focus.
      if (javaScriptEnabled) await expect(page.getByRole("link", { name: t("incidentList:bulk.everyone"), exact: true })).toHaveCount(0);
      await filters.getByRole("link", { name: t("incidentList:filters.more"), exact: true }).click();
      await expect(page).toHaveURL(/[?&]filters=1(&|$)/);
      const assignee = filters.getByRole("combobox", { name: t("incidentList:filters.assignee"), exact: true });
      await expect(assignee.locator("option", { hasText: "Tom Janssens" })).toHaveCount(1);
      await expect(filters.getByRole("combobox", { name: t("incidentList:filters.type"), exact: true })).toBeVisible();
      // With JavaScript the panel takes the focus once open.
      if (javaScriptEnabled) await expect(filters.locator("summary")).toBeFocused();

      const tom = (await assignee.locator("option", { hasText: "Tom Janssens" }).getAttribute("value"))!;
      await assignee.selectOption(tom);
      await applyFilters(page, t);
      await expect(page).toHaveURL(new RegExp(`assignee=${tom}`));
      await expect(page).not.toHaveURL(/filters=1/);
      // A filter of the panel set: the panel stays open with its choices.
      await expect(assignee).toHaveValue(tom);
      await expect.poll(async () => [...new Set(await page.locator("tbody td.it-as").allInnerTexts())].join()).toBe("Tom Janssens");
      await page.getByRole("link", { name: t("incidentList:clearFilters"), exact: true }).first().click();
      await expect(page).toHaveURL(/\/incidents$/);
    });
  });

  test(`fits 1280 px as a table, and reads as cards with their status at 390 px (${lng})`, async ({ page, login }) => {
    await signedIn(page, login, accounts.manager, lng, async () => {
      /** How far the page, and the table in its box, reach past their width (0 or less: no sideways scroll). */
      const overflow = () =>
        page.evaluate(() => {
          const root = document.scrollingElement!;
          const box = document.querySelector("table")!.parentElement!;
          return { page: root.scrollWidth - root.clientWidth, table: box.scrollWidth - box.clientWidth };
        });
      await page.setViewportSize({ width: 1280, height: 800 });
      await page.goto("/incidents?view=table&reset=1");
      await expect(rows(page)).toHaveCount(25);
      expect(await overflow()).toEqual({ page: 0, table: 0 });
      // Every column is on screen: the last header ends inside the table's box.
      const box = (await page.locator("table").boundingBox())!;
      const last = (await page.locator("thead th").last().boundingBox())!;
      expect(last.x + last.width).toBeLessThanOrEqual(box.x + box.width + 1);

      // The board: four columns side by side, each wide enough to read a title.
      await page.goto("/incidents?view=board");
      const columns = page.locator("section[data-status]");
      await expect(columns).toHaveCount(4);
      for (const column of await columns.all()) expect((await column.boundingBox())!.width).toBeGreaterThanOrEqual(200);
      expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);

      // A phone: each row is a card whose number and status control are in view, side by side.
      await page.setViewportSize({ width: 390, height: 844 });
      await page.goto("/incidents?view=table");
      await expect(rows(page)).toHaveCount(25);
      expect(await overflow()).toEqual({ page: 0, table: 0 });
      for (const row of (await rows(page).all()).slice(0, 6)) {
        const shortId = await shortIdOf(row);
        const status = row.getByRole("combobox", { name: t("incidentList:change.status", { shortId }), exact: true });
        await status.scrollIntoViewIfNeeded();
        await expect(status).toBeVisible();
        const place = (await status.boundingBox())!;
        expect(place.x).toBeGreaterThanOrEqual(0);
        expect(place.x + place.width).toBeLessThanOrEqual(390);
        const number = (await row.locator("td").nth(1).boundingBox())!;
        expect(Math.abs(number.y + number.height / 2 - (place.y + place.height / 2))).toBeLessThan(place.height);
      }
      // Back to the top for the closing axe check: scrolled, a card's controls may sit under the sticky
      // bar, which axe counts as a target too small to tap.
      await page.evaluate(() => window.scrollTo(0, 0));
    });
  });

  test(`switches to the board and moves a card (${lng})`, async ({ page, login, javaScriptEnabled }) => {
    await signedIn(page, login, accounts.manager, lng, async () => {
      await page.setViewportSize({ width: 390, height: 844 });
      await page.goto("/incidents?view=table&reset=1");
      expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
      await page
        .getByRole("navigation", { name: t("incidentList:views.label") })
        .getByRole("link", { name: t("incidentList:views.board"), exact: true })
        .click();
      await expect(page).toHaveURL(/view=board/);
      for (const status of [0, 1, 2, 3]) await expect(page.getByRole("heading", { level: 2, name: t(`incidents:status.${status}`), exact: true })).toBeVisible();
      expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
      await page.setViewportSize({ width: 1280, height: 900 });

      const done = page.locator(`section[data-status="${DONE}"]`);
      const rejected = page.locator(`section[data-status="${REJECTED}"]`);
      const card = done.locator("li[data-incident]").first();
      const id = await card.getAttribute("data-incident");
      const shortId = Number((await card.getByRole("link").first().innerText()).match(/#(\d+)/)![1]);
      if (javaScriptEnabled) {
        await expect(card).toHaveAttribute("draggable", "true");
        // Onto the column's heading: both stay in view (a drag does not scroll the page under it).
        await card.dragTo(rejected.getByRole("heading", { level: 2 }));
      } else {
        await change(page, t, t("incidentList:board.moveTo", { shortId }), REJECTED, false);
      }
      await expect(successToast(page)).toContainText(t("incidents:success.status"));
      await expect(rejected.locator(`li[data-incident="${id}"]`)).toBeVisible();
      await expect(done.locator(`li[data-incident="${id}"]`)).toHaveCount(0);

      // A column with more cards than a page (Done or Rejected, whichever the worker's earlier tests left
      // larger): "More" shows the next ones.
      // (Without JavaScript the toast stays where it is, over the bottom of the board: read it again.)
      if (!javaScriptEnabled) await page.goto(page.url());
      const more = (status: number) => t("incidentList:board.moreLabel", { status: t(`incidents:status.${status}`) });
      const column = (await done.getByRole(javaScriptEnabled ? "button" : "link", { name: more(2) }).count()) ? 2 : 3;
      const long = page.locator(`section[data-status="${column}"]`);
      const before = await long.locator("li[data-incident]").count();
      await long.getByRole(javaScriptEnabled ? "button" : "link", { name: more(column) }).click();
      if (javaScriptEnabled) {
        await expect.poll(() => long.locator("li[data-incident]").count()).toBeGreaterThan(before);
        // An appended card moves too, and the other appended cards stay once the board is read again.
        const cards = long.locator("li[data-incident]");
        const after = await cards.count();
        const appended = await cards.last().getAttribute("data-incident");
        const appendedShortId = Number((await cards.last().getByRole("link").first().innerText()).match(/#(\d+)/)![1]);
        const revalidated = page.waitForResponse((r) => r.request().method() === "GET" && new URL(r.url()).pathname === "/incidents.data");
        await change(page, t, t("incidentList:board.moveTo", { shortId: appendedShortId }), IN_PROGRESS, true);
        await revalidated;
        await expect(long.locator(`li[data-incident="${appended}"]`)).toHaveCount(0);
        await expect(cards).toHaveCount(after - 1);
      } else {
        await expect(page).toHaveURL(new RegExp(`after${column}=`));
        await expect(long.getByRole("link", { name: t("incidentList:board.first") })).toBeVisible();
      }
      expect(await statusOf(page, t, shortId)).toBe(REJECTED);
    });
  });

  test(`remembers the filters after leaving the list (${lng})`, async ({ page, login }) => {
    await signedIn(page, login, accounts.manager, lng, async () => {
      await page.goto("/incidents?reset=1");
      await page.getByRole("checkbox", { name: t("incidents:status.3"), exact: true }).check();
      await page.getByRole("checkbox", { name: t("incidents:priority.none"), exact: true }).check();
      await applyFilters(page, t);
      await expect(page).toHaveURL(/status=3/);
      await page.goto("/settings");
      await page.goto("/incidents");
      await expect(page).toHaveURL(/status=3&priority=none/);
      await expect(page.getByRole("checkbox", { name: t("incidents:status.3"), exact: true })).toBeChecked();

      await page.getByRole("link", { name: t("incidentList:clearFilters"), exact: true }).first().click();
      await expect(page).toHaveURL(/\/incidents$/);
      await page.goto("/incidents");
      await expect(page).toHaveURL(/\/incidents$/);
      await expect(page.getByRole("checkbox", { name: t("incidents:status.3"), exact: true })).not.toBeChecked();
    });
  });

  test(`a technician sees and changes only the incidents in reach (${lng})`, async ({ page, login, baseURL }) => {
    // An incident of a building the technician is not linked to (Lab Building B), found by the manager.
    const manager = await webSession(baseURL!, accounts.manager);
    const html = await (await manager.get("/incidents?view=table&size=100")).text();
    await manager.dispose();
    const outside = html
      .split("<tr")
      .filter((row) => row.includes("Lab Building B"))
      .map((row) => /href="\/incident\/(\d+)"/.exec(row)?.[1])
      .find(Boolean);
    expect(outside, "an incident in Lab Building B").toBeTruthy();

    await signedIn(page, login, accounts.technician, lng, async () => {
      await page.goto("/incidents?view=table");
      await expect(rows(page).first()).toBeVisible();
      // The place is written under each title.
      const places = await rows(page)
        .locator("td.it-title .it-place")
        .evaluateAll((cells) => cells.map((c) => c.textContent ?? ""));
      expect(places.length).toBeGreaterThan(0);
      for (const place of places) expect(place).toMatch(/^(Main Campus \/|Science Park \/ Lab Building A \/)/);

      const refused = await page.request.post("/incidents?view=table", { form: { intent: "status", id: outside!, status: IN_PROGRESS }, maxRedirects: 0 });
      expect(refused.status()).toBe(404);
      expect(await refused.text()).toContain(t("incidents:errors.notFound"));
    });
  });
});
}

test("on a 390 x 844 phone the first incident is on the first screen, the filters behind a disclosure that keeps them working (issue #60)", async ({ page, login, javaScriptEnabled }) => {
  const t = locale("en");
  await login(accounts.manager, { consent: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto("/incidents?view=table&reset=1");
  await expect(rows(page)).toHaveCount(25);
  // The top of the first row within the first screen, with room under it for the row itself.
  expect((await rows(page).first().boundingBox())!.y).toBeLessThan(600);
  expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
  expect(await axeProblemsOnce(page, { javaScriptEnabled })).toEqual([]);

  // The filters are folded away under "Filters"; opened, every one of them is there and applies.
  const search = page.getByRole("searchbox", { name: t("incidentList:filters.search"), exact: true });
  await expect(search).toBeHidden();
  const disclosure = page.locator("summary", { hasText: t("incidentList:filters.label") });
  await disclosure.click();
  await expect(search).toBeVisible();
  await expect(page.getByRole("checkbox", { name: t("incidents:priority.3"), exact: true })).toBeVisible();
  await expect(page.getByRole("link", { name: t("incidentList:filters.more"), exact: true })).toBeVisible();
  await page.getByRole("checkbox", { name: t("incidents:status.2"), exact: true }).check();
  await applyFilters(page, t);
  await expect(page).toHaveURL(/[?&]status=2(&|$)/);
  await expect.poll(async () => [...new Set(await statusesOf(page))].join()).toBe(DONE);
  // A filter set: the filters show open, saying how many are set.
  await expect(page.getByRole("checkbox", { name: t("incidents:status.2"), exact: true })).toBeChecked();
  await expect(page.getByRole("checkbox", { name: t("incidents:status.2"), exact: true })).toBeVisible();
  await expect(disclosure).toContainText(t("incidentList:filters.active_one", { count: 1 }));
  expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
  expect(await axeProblemsOnce(page, { javaScriptEnabled })).toEqual([]);

  // On a desktop the filters show as before, without the disclosure.
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto("/incidents?view=table&reset=1");
  await expect(search).toBeVisible();
  await expect(disclosure).toBeHidden();
});
