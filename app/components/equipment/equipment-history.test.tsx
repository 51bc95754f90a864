import i18next from "i18next";
import { initReactI18next } from "react-i18next";
import { beforeAll, describe, expect, it } from "vitest";
import common from "~/locales/en/common.json";
import dashboard from "~/locales/en/dashboard.json";
import equipment from "~/locales/en/equipment.json";
import { renderInRouter } from "#tests/render-in-router";
import { LeastReliableEquipment } from "../dashboard/least-reliable";
import { FailuresChart, ReliabilitySummary } from "./equipment-history";

const i18n = i18next.createInstance();
beforeAll(async () => {
  await i18n.use(initReactI18next).init({ lng: "en", resources: { en: { common, dashboard, equipment } }, defaultNS: "common", interpolation: { escapeValue: false } });
});

const none = { failures: 0, repaired: 0, medianRepairHours: null, meanRepairHours: null, mtbfHours: null, downtimeHours: 0 };

describe("an equipment item's history", () => {
  it("says there are no failures yet instead of empty figures", async () => {
    const html = await renderInRouter(i18n, <ReliabilitySummary figures={none} />);
    expect(html).toContain("No failures yet.");
    expect(html).not.toContain("Mean time between failures");
  });

  it("shows the three figures in hours, and why there is no MTBF under two failures", async () => {
    const html = await renderInRouter(i18n, <ReliabilitySummary figures={{ failures: 1, repaired: 1, medianRepairHours: 4, meanRepairHours: 4.25, mtbfHours: null, downtimeHours: 0 }} />);
    expect(html).toContain("4.0 h");
    expect(html).toContain("4.3 h");
    expect(html).toContain("Downtime");
    expect(html).toContain("The mean time between failures needs at least two failures.");
  });

  it("draws the failures per month as HTML, each month read out with its count", async () => {
    const months = [
      { month: "2026-10", failures: 0 },
      { month: "2026-11", failures: 2 },
      { month: "2026-12", failures: 1 },
    ];
    const html = await renderInRouter(i18n, <FailuresChart months={months} />);
    expect(html).toContain("November 2026: 2 failures");
    expect(html).toContain("December 2026: 1 failure");
    expect(html).toContain("height:100%");
    expect(html).toContain("height:50%");
    expect(html).not.toContain("<script");
  });
});

describe("the dashboard's least reliable equipment", () => {
  it("links each item to its history, or says there is none", async () => {
    const row = { id: 7, internalReference: "EQ-7", equipmentName: "Boiler", roomId: 3, roomName: "Cellar", failures: 3, repaired: 2, medianRepairHours: 6, meanRepairHours: 6, mtbfHours: 720, downtimeHours: 0 };
    const html = await renderInRouter(i18n, <LeastReliableEquipment rows={[row]} />, "/dashboard?from=2026-01-01&reliability=1");
    expect(html).toContain('href="/view-equipment/7"');
    expect(html).toContain("720.0 h");
    expect(html).toContain('href="/dashboard?from=2026-01-01#least-reliable-equipment"');
    expect(await renderInRouter(i18n, <LeastReliableEquipment rows={[]} />)).toContain("No failures of equipment over the last 12 months.");
  });

  it("is counted only when asked for, through a plain link", async () => {
    const html = await renderInRouter(i18n, <LeastReliableEquipment rows={null} />, "/dashboard?from=2026-01-01");
    expect(html).toContain('href="/dashboard?from=2026-01-01&amp;reliability=1#least-reliable-equipment"');
    expect(html).not.toContain("<table");
  });
});
