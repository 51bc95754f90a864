import i18next from "i18next";
import { initReactI18next } from "react-i18next";
import { beforeAll, describe, expect, it } from "vitest";
import common from "~/locales/en/common.json";
import dashboard from "~/locales/en/dashboard.json";
import incidents from "~/locales/en/incidents.json";
import { renderInRouter } from "#tests/render-in-router";
import { ASSIGNEES_PER_PAGE, assigneePage } from "~/modules/dashboard/filters";
import { DashboardTables, type Figures } from "./dashboard-tables";

const i18n = i18next.createInstance();
beforeAll(async () => {
  await i18n.use(initReactI18next).init({ lng: "en", resources: { en: { common, dashboard, incidents } }, defaultNS: "common", interpolation: { escapeValue: false } });
});

const everyone = Array.from({ length: 45 }, (_, i) => ({ id: i + 1, name: `Person ${i + 1}`, open: 50 - i, done: 1, averageHours: 2 }));

function figures(assignees: Figures["assignees"]): Figures {
  return {
    timeZone: "Europe/Brussels",
    period: { from: "2026-06-01", to: "2026-11-27", custom: false },
    filters: { facilityId: 3, buildingId: null, incidentTypeId: null, from: null, to: null },
    total: 0,
    months: [],
    types: [],
    typeCount: 0,
    assignees,
    handling: { done: 0, averageHours: null },
    handlingByPriority: [],
    byStatus: [],
    byPriority: [],
  };
}

/** The screen's rows for `?assignees=<value>` over 45 assignees, as the loader slices them. */
function render(value: string | null, url: string) {
  const page = assigneePage(value, everyone.length);
  const rows = everyone.slice(page.offset, page.offset + ASSIGNEES_PER_PAGE);
  return renderInRouter(i18n, <DashboardTables figures={figures(rows)} assigneePage={page} />, url);
}
const hrefs = (html: string) => [...html.matchAll(/<a href="([^"]*)" rel="(prev|next)"/g)].map((m) => [m[2], m[1].replaceAll("&amp;", "&")]);

describe("assigneePage", () => {
  it("reads the page, falls back to the first on unreadable values and to the last past the end", () => {
    expect(assigneePage(null, 45)).toEqual({ page: 1, pages: 3, total: 45, offset: 0 });
    expect(assigneePage("2", 45)).toEqual({ page: 2, pages: 3, total: 45, offset: 20 });
    expect(assigneePage("99", 45)).toMatchObject({ page: 3, offset: 40 });
    for (const bad of ["0", "-1", "abc", "2.5", "", "1e3", "2\u0000", " 2", "0x2"]) expect(assigneePage(bad, 45).page, bad).toBe(1);
    for (const big of ["4", "2147483648", "99999999999999999999"]) expect(assigneePage(big, 45).page, big).toBe(3);
    expect(assigneePage("3", 0)).toEqual({ page: 1, pages: 1, total: 0, offset: 0 });
  });
});

describe("the assignee table's pager", () => {
  it("shows one page of assignees with links that keep the filters and come back to the table", async () => {
    const html = await render("2", "/dashboard?facility=3&assignees=2");
    expect(html).toContain("Person 21<");
    expect(html).toContain("Person 40<");
    expect(html).not.toContain("Person 20<");
    expect(html).not.toContain("Person 41<");
    expect(html).toContain("21–40 of 45");
    expect(html).toContain("Page 2 of 3");
    expect(html).toMatch(/<nav aria-label="Assignee pages"/);
    expect(hrefs(html)).toEqual([
      ["prev", "/dashboard?facility=3#assignee-statistics"],
      ["next", "/dashboard?facility=3&assignees=3#assignee-statistics"],
    ]);
    expect(html).toContain('id="assignee-statistics"');
  });

  it("disables Previous on the first page and Next on the last", async () => {
    const first = await render(null, "/dashboard");
    expect(hrefs(first)).toEqual([["next", "/dashboard?assignees=2#assignee-statistics"]]);
    expect(first).toMatch(/<span aria-disabled="true"[^>]*>Previous<\/span>/);
    const last = await render("3", "/dashboard?assignees=3");
    expect(last).toContain("41–45 of 45");
    expect(hrefs(last)).toEqual([["prev", "/dashboard?assignees=2#assignee-statistics"]]);
    expect(last).toMatch(/<span aria-disabled="true"[^>]*>Next<\/span>/);
  });

  it("has no pager when every assignee fits on one page", async () => {
    const page = assigneePage(null, 5);
    const html = await renderInRouter(i18n, <DashboardTables figures={figures(everyone.slice(0, 5))} assigneePage={page} />, "/dashboard");
    expect(html).toContain("Person 5<");
    expect(html).not.toContain("Assignee pages");
  });
});
