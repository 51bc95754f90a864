import fs from "node:fs";
import path from "node:path";
import type { Page } from "@playwright/test";
import { accounts, expect, test, unique } from "./fixtures";
import { apiLogin, field, setLanguage, successToast } from "./helpers";

/**
 * Planned maintenance from plan to work done, end to end: a facility manager adds a maintenance type
 * (weekly, the technician by default) and plans it on two rooms the technician reaches, starting today;
 * the technician finds the plan's tasks on their list and in the week of the calendar, marks one done,
 * and the calendar feed of their settings serves the plan's tasks as iCalendar. In English with
 * JavaScript on and off, in French with it on.
 */
type Dict = Record<string, unknown>;
function locale(lng: string) {
  const read = (ns: string) => JSON.parse(fs.readFileSync(path.join("app/locales", lng, `${ns}.json`), "utf8")) as Dict;
  const namespaces: Record<string, Dict> = Object.fromEntries(["common", "maintenance", "tasks"].map((ns) => [ns, read(ns)]));
  return (key: string, values: Record<string, string | number> = {}) => {
    const [ns, rest] = key.includes(":") ? key.split(":") : ["common", key];
    const found = rest.split(".").reduce<unknown>((node, part) => (node as Dict | undefined)?.[part], namespaces[ns]);
    if (typeof found !== "string") throw new Error(`no text ${lng}:${key}`);
    return found.replace(/\{\{(\w+)\}\}/g, (_, name: string) => String(values[name] ?? ""));
  };
}

/** Today and later days in the entity's time zone (the demo entity's: Europe/Brussels), as YYYY-MM-DD. */
const brusselsDay = (offsetDays = 0) =>
  new Intl.DateTimeFormat("en-CA", { timeZone: "Europe/Brussels", year: "numeric", month: "2-digit", day: "2-digit" }).format(
    new Date(Date.now() + offsetDays * 86_400_000),
  );

async function signInAs(page: Page, login: (email: string, options?: { consent?: boolean }) => Promise<void>, email: string, lng: string) {
  await page.context().clearCookies();
  await login(email, { consent: true });
  await setLanguage(page, lng);
}

for (const lng of ["en", "fr-BE"] as const) {
  test.describe(lng, () => {
    test.skip(({ javaScriptEnabled }) => lng !== "en" && !javaScriptEnabled, "French runs with JavaScript on");
    const t = locale(lng);

    test(`a weekly plan on two rooms reaches the technician's list, the calendar and the feed (${lng})`, async ({ page, login, request }) => {
      test.setTimeout(150_000);
      const typeName = unique("Gutter check");
      const planName = unique("Gutters weekly");
      const tech = await apiLogin(request, accounts.technician);
      const manager = await apiLogin(request, accounts.manager);
      // Two rooms of one building the technician reaches.
      const rooms = (await (await request.get("/api/facilities/rooms?size=100", { headers: tech.headers })).json()) as { id: number; buildingId: number; name: string }[];
      const byBuilding = new Map<number, typeof rooms>();
      for (const room of rooms) byBuilding.set(room.buildingId, [...(byBuilding.get(room.buildingId) ?? []), room]);
      const [buildingId, twoRooms] = [...byBuilding.entries()].find(([, list]) => list.length >= 2)!;
      const chosen = twoRooms.slice(0, 2);
      const today = brusselsDay();

      try {
        await signInAs(page, login, accounts.manager, lng);
        // The type: weekly, the technician by default.
        await page.goto("/add-maintenance-type");
        await field(page, t("maintenance:form.typeName")).fill(typeName);
        await field(page, t("maintenance:form.occurrenceUnit")).selectOption("2");
        await field(page, t("maintenance:form.occurrenceInterval")).fill("1");
        await page.locator(`input[name="assigneeIds"][value="${tech.userId}"]`).check();
        await page.getByRole("button", { name: t("actions.add"), exact: true }).click();
        await expect(successToast(page)).toContainText(t("toast.created"));

        // The plan, from the type: starting today for four weeks at 08:00, on two rooms of the tree.
        const [type] = (await (await request.get(`/api/maintenances/types?q=${encodeURIComponent(typeName)}`, { headers: manager.headers })).json()) as { id: number }[];
        await page.goto(`/add-planned-maintenance?type=${type.id}`);
        await field(page, t("maintenance:form.planName")).fill(planName);
        await field(page, t("maintenance:form.startDate")).fill(today);
        await field(page, t("maintenance:form.endDate")).fill(brusselsDay(27));
        await field(page, t("maintenance:form.timeOfDay")).fill("08:00");
        await expect(page.locator(`input[name="assigneeIds"][value="${tech.userId}"]`)).toBeChecked();
        const showRooms = page.locator(`button[name="locBrowse"][value="building:${buildingId}"]`);
        await page.locator("main form details", { has: showRooms }).locator("summary").first().click();
        await showRooms.click();
        await expect(field(page, t("maintenance:form.planName"))).toHaveValue(planName);
        for (const room of chosen) await page.locator(`input[name="roomIds"][value="${room.id}"]`).check();
        await page.getByRole("button", { name: t("actions.add"), exact: true }).click();
        await expect(page).toHaveURL(/\/maintenances$/);
        await expect(successToast(page)).toContainText(t("toast.created"));
        const [plan] = (await (await request.get(`/api/maintenances/planned?q=${encodeURIComponent(planName)}`, { headers: manager.headers })).json()) as { id: number }[];

        // The technician's list: four weeks of two rooms, today's first.
        await signInAs(page, login, accounts.technician, lng);
        await page.goto(`/task?plan=${plan.id}`);
        const dayLinks = page.locator(`main a[href^="/view-task/${plan.id}/"]`);
        await expect(dayLinks).toHaveCount(8);
        await expect(dayLinks.first()).toHaveAttribute("href", `/view-task/${plan.id}/${today}`);
        // Each button names its task ("Mark done: <plan, place and time>").
        const markDone = page.getByRole("button", { name: new RegExp(`^${t("tasks:actions.markDone")}: `) });
        await expect(markDone).toHaveCount(8);
        await markDone.first().click();
        await expect(successToast(page)).toContainText(t("tasks:toast.done"));
        await expect(markDone).toHaveCount(7);

        // The week of the calendar shows today's two tasks as one entry of the plan, leading to their day.
        await page.goto(`/task?view=week&plan=${plan.id}`);
        const entry = page.getByTestId("task-calendar-grid").locator(`a[href="/view-task/${plan.id}/${today}"]`);
        await expect(entry).toHaveCount(1);
        await expect(entry).toContainText(t("tasks:calendar.locations_other", { count: 2 }));
        await page.goto(`/view-task/${plan.id}/${today}`);
        await expect(page.getByRole("heading", { name: planName, level: 1 })).toBeVisible();
        for (const room of chosen) await expect(page.locator(`main a[href="/view-room/${room.id}"]`).first()).toBeVisible();

        // The calendar feed serves the plan's tasks.
        await page.goto("/settings");
        const create = page.getByRole("button", { name: t("tasks:feed.create") });
        if (await create.isVisible()) await create.click();
        const address = await page.getByLabel(t("tasks:feed.address")).inputValue();
        const feed = await request.get(new URL(address).pathname);
        expect(feed.status()).toBe(200);
        expect(feed.headers()["content-type"]).toContain("text/calendar");
        const ics = (await feed.text()).replace(/\r\n[ \t]/g, "");
        expect(ics.startsWith("BEGIN:VCALENDAR\r\n")).toBe(true);
        expect(ics.split("BEGIN:VEVENT").length - 1).toBeGreaterThanOrEqual(8);
        expect(ics).toContain(planName);
      } finally {
        if (lng !== "en") {
          await setLanguage(page, "en");
          await signInAs(page, login, accounts.manager, "en");
        }
      }
    });
  });
}
