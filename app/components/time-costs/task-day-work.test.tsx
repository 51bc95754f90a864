import i18next from "i18next";
import { beforeAll, describe, expect, it } from "vitest";
import { initReactI18next } from "react-i18next";
import common from "~/locales/en/common.json";
import tasks from "~/locales/en/tasks.json";
import en from "~/locales/en/timeCosts.json";
import frTasks from "~/locales/fr-BE/tasks.json";
import fr from "~/locales/fr-BE/timeCosts.json";
import type { TaskDayWork } from "~/modules/time-costs/queries.server";
import { renderInRouter } from "#tests/render-in-router";
import { TaskDayWorkTable } from "./task-day-work";

/**
 * The task view's table of the day's work by location, as plain HTML (JavaScript off): each location's
 * time, material and total cost with a plain link to its section, the day's totals over them all, and an
 * empty cell for a cost hidden from the viewer.
 */
const i18n = i18next.createInstance();
beforeAll(async () => {
  await i18n.use(initReactI18next).init({
    lng: "en",
    resources: { en: { timeCosts: en, tasks, common }, "fr-BE": { timeCosts: fr, tasks: frTasks, common } },
    defaultNS: "common",
    interpolation: { escapeValue: false },
  });
});

const totals = (minutes: number, materials: string, total: string | null) => ({ minutes, labour: total, materials, total, unpricedEntries: 0, entries: 1, lines: 1 });
const work: TaskDayWork = {
  currency: "EUR",
  byTask: { 11: totals(30, "10.00", "30.00"), 12: totals(75, "0.00", null) },
  day: totals(105, "10.00", null),
};
const locations = [
  { taskId: 11, place: "Main · Boiler room" },
  { taskId: 12, place: "Main · Hall" },
];

describe("the day's work by location", () => {
  it("gives each location's totals with a link to its section, and the day's", async () => {
    await i18n.changeLanguage("en");
    const html = await renderInRouter(i18n, <TaskDayWorkTable locations={locations} work={work} shownTaskId={12} />, "/view-task/3/2026-06-01");
    expect(html).toContain("Time and materials by location");
    expect(html).toContain('href="/view-task/3/2026-06-01?work=11#time-and-materials"');
    expect(html).toMatch(/href="\/view-task\/3\/2026-06-01\?work=12#time-and-materials" aria-current="true"|aria-current="true"[^>]*href="\/view-task\/3\/2026-06-01\?work=12#time-and-materials"/);
    const row = (id: string) => html.slice(html.indexOf(`data-testid="${id}"`), html.indexOf("</tr>", html.indexOf(`data-testid="${id}"`)));
    expect(row("day-work-11")).toContain("30 min");
    expect(row("day-work-11")).toContain("€10.00");
    expect(row("day-work-11")).toContain("€30.00");
    expect(row("day-work-12")).toContain("1 h 15 min");
    expect(row("day-work-12")).not.toContain("€30.00");
    expect(row("day-work-all")).toContain("All locations");
    expect(row("day-work-all")).toContain("1 h 45 min");
    expect(row("day-work-all")).toContain("€10.00");
  });

  it("speaks French", async () => {
    await i18n.changeLanguage("fr-BE");
    const html = await renderInRouter(i18n, <TaskDayWorkTable locations={locations} work={work} shownTaskId={11} />, "/view-task/3/2026-06-01");
    expect(html).toContain("Temps et matériel par lieu");
    expect(html).toContain("Tous les lieux");
    expect(html).toContain("1 h 45 min");
  });
});
