import i18next from "i18next";
import { initReactI18next } from "react-i18next";
import { beforeAll, describe, expect, it } from "vitest";
import common from "~/locales/en/common.json";
import dashboard from "~/locales/en/dashboard.json";
import serviceLevels from "~/locales/en/serviceLevels.json";
import frDashboard from "~/locales/fr-BE/dashboard.json";
import frServiceLevels from "~/locales/fr-BE/serviceLevels.json";
import type { ServiceLevelFigures, ServiceLevelSide } from "~/modules/dashboard/service-levels.server";
import { renderInRouter } from "#tests/render-in-router";
import { ServiceLevels } from "./service-levels";

const i18n = i18next.createInstance();
beforeAll(async () => {
  await i18n.use(initReactI18next).init({
    lng: "en",
    resources: {
      en: { common, dashboard, serviceLevels },
      "fr-BE": { dashboard: frDashboard, serviceLevels: frServiceLevels },
    },
    defaultNS: "common",
    interpolation: { escapeValue: false },
  });
});

const side = (counted: number, met: number, medianMinutes: number | null, p90Minutes: number | null): ServiceLevelSide => ({
  counted,
  met,
  share: counted ? met / counted : null,
  medianMinutes,
  p90Minutes,
});
const none = side(0, 0, null, null);

const figures: ServiceLevelFigures = {
  hasTargets: true,
  canSetTargets: true,
  rows: [
    {
      scope: "month",
      month: "2026-01",
      facilityId: null,
      facilityName: null,
      response: side(4, 3, 30, 75),
      resolution: side(2, 1, 200, 3000),
    },
    {
      scope: "facility",
      month: "2026-01",
      facilityId: 7,
      facilityName: "Alpha",
      response: side(3, 3, 30, 45),
      resolution: side(2, 1, 200, 3000),
    },
    {
      scope: "facility",
      month: "2026-01",
      facilityId: null,
      facilityName: null,
      response: side(1, 0, null, null),
      resolution: none,
    },
    {
      scope: "period",
      month: null,
      facilityId: null,
      facilityName: null,
      response: side(4, 3, 30, 75),
      resolution: side(2, 1, 200, 3000),
    },
  ],
};

const render = (f: ServiceLevelFigures) => renderInRouter(i18n, <ServiceLevels figures={f} />, "/dashboard");
/** The text of the table row marked by `attributes` (tags dropped, spaces squeezed). */
const rowText = (html: string, attributes: string) => {
  const row = html.match(new RegExp(`<tr[^>]*${attributes}[^>]*>(.*?)</tr>`))?.[1] ?? "";
  return row
    .replace(/<[^>]+>/g, " ")
    .replace(/\s+/g, " ")
    .trim();
};

describe("the dashboard's service levels", () => {
  it("writes each row's shares with their counts and its times in hours, minutes and days, in a named scrolling region", async () => {
    const html = await render(figures);
    expect(html).toContain('<h2 id="');
    expect(html).toContain(">Service levels</h2>");
    expect(html).toMatch(/<div role="region" aria-label="Service levels per month and facility" [^>]*tabindex="0"><table/);
    expect(rowText(html, 'data-scope="month" data-month="2026-01"')).toBe("January 2026 All facilities 75.0% 3 of 4 30 min 1 h 15 min 50.0% 1 of 2 3 h 20 min 2 d 2 h");
    expect(rowText(html, 'data-scope="facility" data-month="2026-01" data-facility="7"')).toBe("January 2026 Alpha 100.0% 3 of 3 30 min 45 min 50.0% 1 of 2 3 h 20 min 2 d 2 h");
    expect(rowText(html, 'data-facility="none"')).toBe("January 2026 No room 0.0% 0 of 1 – – – – –");
    expect(rowText(html, 'data-scope="period"')).toMatch(/^Whole period All facilities 75.0%/);
    expect(html).toMatch(/<th scope="row"[^>]*>Alpha<\/th>/);
  });

  it("writes the times in the person's language", async () => {
    await i18n.changeLanguage("fr-BE");
    try {
      const html = await render(figures);
      expect(rowText(html, 'data-scope="facility" data-month="2026-01" data-facility="7"')).toMatch(
        /^janvier 2026 Alpha 100,0\s?% 3 sur 3 30 min 45 min 50,0\s?% 1 sur 2 3 h 20 min 2 j 2 h$/
      );
    } finally {
      await i18n.changeLanguage("en");
    }
  });

  it("says when no targets are set, with the way to set them for an administrator only, instead of a table", async () => {
    const admin = await render({
      hasTargets: false,
      canSetTargets: true,
      rows: [],
    });
    expect(admin).toContain('data-empty="no-targets"');
    expect(admin).toContain('href="/administration/service-levels"');
    expect(admin).toContain("Set the service-level targets");
    expect(admin).not.toContain("<table");
    const manager = await render({
      hasTargets: false,
      canSetTargets: false,
      rows: [],
    });
    expect(manager).not.toContain("/administration/service-levels");
    expect(manager).toContain("An administrator can set them.");
    expect(manager).not.toContain("<table");
  });

  it("says when the period has no incident with a target", async () => {
    const html = await render({
      hasTargets: true,
      canSetTargets: true,
      rows: [],
    });
    expect(html).toContain('data-empty="no-incidents"');
    expect(html).toContain("No incident with a target was created in this period.");
    expect(html).not.toContain("<table");
  });
});
