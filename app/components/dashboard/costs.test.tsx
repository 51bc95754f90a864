import i18next from "i18next";
import { initReactI18next } from "react-i18next";
import { beforeAll, describe, expect, it } from "vitest";
import common from "~/locales/en/common.json";
import dashboard from "~/locales/en/dashboard.json";
import frDashboard from "~/locales/fr-BE/dashboard.json";
import type { CostFigures, DashboardCosts } from "~/modules/dashboard/costs.server";
import { renderInRouter } from "#tests/render-in-router";
import { DashboardCostsSection } from "./costs";

const i18n = i18next.createInstance();
beforeAll(async () => {
  await i18n.use(initReactI18next).init({
    lng: "en",
    resources: { en: { common, dashboard }, "fr-BE": { dashboard: frDashboard } },
    defaultNS: "common",
    interpolation: { escapeValue: false },
  });
});

const cost = (minutes: number, labour: string, materials: string, total: string, unpricedEntries = 0): CostFigures => ({ minutes, labour, materials, total, unpricedEntries, entries: 1, lines: 1 });
const zero = cost(0, "0.00", "0.00", "0.00");
zero.entries = 0;
zero.lines = 0;

const costs: DashboardCosts = {
  currency: "EUR",
  period: { from: "2026-01-01", to: "2026-02-28", custom: true },
  total: cost(150, "1234.50", "9.98", "1244.48", 2),
  months: [
    { month: "2026-01", ...cost(150, "1234.50", "9.98", "1244.48", 2) },
    { month: "2026-02", ...zero },
  ],
  facilities: [
    { id: 4, name: "Alpha", ...cost(120, "1234.50", "9.98", "1244.48", 1) },
    { id: null, name: null, ...cost(30, "0.00", "0.00", "0.00", 1) },
  ],
  buildings: Array.from({ length: 21 }, (_, i) => ({ id: i + 1, name: `B${i + 1}`, facilityName: "Alpha", ...cost(1, "1.00", "0.00", "1.00") })),
  types: [
    { kind: "type", id: 3, name: "Leak", ...cost(60, "1000.00", "9.98", "1009.98") },
    { kind: "maintenance", id: null, name: null, ...cost(60, "234.50", "0.00", "234.50") },
    { kind: "none", id: null, name: null, ...cost(30, "0.00", "0.00", "0.00", 2) },
  ],
  rooms: [{ id: 6, name: "Kitchen", buildingName: "B1", ...cost(90, "1234.50", "9.98", "1244.48") }],
  equipment: [{ id: 7, equipmentName: "Boiler", internalReference: "EQ-1", roomName: "Kitchen", ...cost(60, "1000.00", "9.98", "1009.98") }],
};

const render = (c: DashboardCosts) => renderInRouter(i18n, <DashboardCostsSection costs={c} />, "/dashboard");
/** The text of the table row marked by `attributes` (tags dropped, spaces squeezed). */
const rowText = (html: string, attributes: string) => {
  const row = html.match(new RegExp(`<tr[^>]*${attributes}[^>]*>(.*?)</tr>`))?.[1] ?? "";
  return row
    .replace(/<[^>]+>/g, " ")
    .replace(/\s+/g, " ")
    .trim();
};

describe("the dashboard's time and costs", () => {
  it("writes hours and amounts in the entity's currency, says the unpriced entries, and links the rooms and equipment", async () => {
    const html = await render(costs);
    expect(html).toContain(">Time and costs</h2>");
    expect(html).toContain("2 time entries have no hourly rate: their hours are counted, their labour cost is not.");
    expect(html).toMatch(/<div role="region" aria-label="Hours and costs of each month" [^>]*tabindex="0"><table/);
    expect(rowText(html, 'data-month="2026-01"')).toBe("January 2026 2.5 €1,234.50 €9.98 €1,244.48 2");
    expect(rowText(html, 'data-month="2026-02"')).toBe("February 2026 0.0 €0.00 €0.00 €0.00 0");
    expect(rowText(html, 'data-month="period"')).toBe("Whole period 2.5 €1,234.50 €9.98 €1,244.48 2");
    expect(rowText(html, 'data-facility="none"')).toBe("No room 0.5 €0.00 €0.00 €0.00 1");
    expect(rowText(html, 'data-type="maintenance"')).toBe("Planned maintenance 1.0 €234.50 €0.00 €234.50 0");
    expect(rowText(html, 'data-type="none"')).toBe("No type 0.5 €0.00 €0.00 €0.00 2");
    expect(html).toContain('href="/view-room/6"');
    expect(html).toContain('href="/view-equipment/7"');
    expect(rowText(html, 'data-equipment-item="7"')).toBe("Boiler · EQ-1 Kitchen 1.0 €1,000.00 €9.98 €1,009.98 0");
    // 20 of the 21 buildings, and where the others are.
    expect(html).toContain('data-building="20"');
    expect(html).not.toContain('data-building="21"');
    expect(html).toContain("The 20 costliest of 21 buildings; the CSV export lists every one.");
  });

  it("writes the amounts in the person's language", async () => {
    await i18n.changeLanguage("fr-BE");
    try {
      const html = await render(costs);
      expect(rowText(html, 'data-month="2026-01"')).toMatch(/^janvier 2026 2,5 1\s?234,50\s?€ 9,98\s?€ 1\s?244,48\s?€ 2$/);
      expect(html).toContain("2 encodages de temps n&#x27;ont pas de tarif horaire");
    } finally {
      await i18n.changeLanguage("en");
    }
  });

  it("says when nothing was recorded, instead of tables", async () => {
    const html = await render({ ...costs, total: zero, months: [{ month: "2026-01", ...zero }], facilities: [], buildings: [], types: [], rooms: [], equipment: [] });
    expect(html).toContain('data-empty="no-costs"');
    expect(html).toContain("No time or material was recorded in this period.");
    expect(html).not.toContain("<table");
    expect(html).not.toContain("no hourly rate");
  });
});
