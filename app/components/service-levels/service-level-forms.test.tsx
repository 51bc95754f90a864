import i18next from "i18next";
import { beforeAll, describe, expect, it } from "vitest";
import { initReactI18next } from "react-i18next";
import common from "~/locales/en/common.json";
import en from "~/locales/en/serviceLevels.json";
import { renderInRouter } from "#tests/render-in-router";
import { ClearOverrideForm, ClosedDayList, HolidaysForm, TargetsForm, TypeOverrides, WarningForm, WorkingWeekForm } from "./service-level-forms";

/**
 * The service levels' forms render as plain HTML forms (JavaScript off): each posts its intent, the
 * working week shows the saved hours, the targets their hours and clocks, and a closed day's removal is a
 * link to its confirmation, which posts the day's id.
 */
const i18n = i18next.createInstance();
beforeAll(async () => {
  await i18n.use(initReactI18next).init({ lng: "en", resources: { en: { serviceLevels: en, common } }, defaultNS: "common", interpolation: { escapeValue: false } });
});

const none = { responseMinutes: null, responseClock: "working", resolutionMinutes: null, resolutionClock: "working" };

describe("the service levels' forms", () => {
  it("show the working week with its hours, closed days unticked", async () => {
    const html = await renderInRouter(i18n, <WorkingWeekForm week={{ 1: [{ opens: 480, closes: 1020 }], 2: [], 3: [], 4: [], 5: [], 6: [], 7: [{ opens: 0, closes: 1440 }] }} />);
    expect(html).toContain('name="intent" value="week"');
    expect(html).toMatch(/name="monday\.opens"[^>]*value="08:00"|value="08:00"[^>]*name="monday\.opens"/);
    expect(html).toMatch(/name="monday\.closes"[^>]*value="17:00"|value="17:00"[^>]*name="monday\.closes"/);
    expect(html).toMatch(/name="sunday\.closes"[^>]*value="00:00"|value="00:00"[^>]*name="sunday\.closes"/);
    expect(html.match(/type="checkbox"[^>]*checked/g) ?? []).toHaveLength(2);
    expect(html).toContain('aria-label="Monday: opens at"');
  });

  it("show the targets in hours with their clocks", async () => {
    const targets = { low: none, medium: none, high: none, critical: { responseMinutes: 90, responseClock: "calendar", resolutionMinutes: 480, resolutionClock: "working" }, none };
    const html = await renderInRouter(i18n, <TargetsForm targets={targets} />);
    expect(html).toContain('name="intent" value="targets"');
    expect(html).toMatch(/name="critical\.responseHours"[^>]*value="1\.5"|value="1\.5"[^>]*name="critical\.responseHours"/);
    expect(html).toMatch(/<option value="calendar" selected="">Calendar hours<\/option>/);
    expect(html).toContain("Not Selected");
  });

  it("show an incident type's own targets, the entity's written under each field, and their removal", async () => {
    const entity = { low: none, medium: none, high: none, critical: { responseMinutes: 60, responseClock: "calendar", resolutionMinutes: 240, resolutionClock: "working" }, none };
    const own = { low: none, medium: none, high: none, critical: { responseMinutes: 30, responseClock: "working", resolutionMinutes: null, resolutionClock: "working" }, none };
    const html = await renderInRouter(i18n, <TargetsForm targets={own} inherited={entity} />);
    expect(html).toContain('name="intent" value="targets"');
    expect(html).toMatch(/name="critical\.responseHours"[^>]*value="0\.5"|value="0\.5"[^>]*name="critical\.responseHours"/);
    expect(html).toContain("Entity&#x27;s: 1 h (Calendar hours)");
    expect(html).toContain("Entity&#x27;s: 4 h (Working hours)");
    expect(html).toContain("Entity&#x27;s: no target");
    expect(html).toContain("Save this type&#x27;s targets");
    expect(html).toMatch(/aria-describedby="[^"]*critical\.resolutionHours-hint|aria-describedby="[^"]*-hint/);
    const clear = await renderInRouter(i18n, <ClearOverrideForm />);
    expect(clear).toContain('name="intent" value="clearOverride"');
    expect(clear).toContain('method="post"');
  });

  it("list the types with targets of their own and choose a type with a GET form", async () => {
    const html = await renderInRouter(i18n, <TypeOverrides overrides={[{ id: 4, name: "Leak", priorities: 2 }]} types={[{ id: 4, name: "Leak" }, { id: 9, name: "Lift" }]} />);
    expect(html).toContain('href="/administration/service-levels/incident-types/4"');
    expect(html).toContain("2 priorities");
    expect(html).toMatch(/<form method="get" action="\/administration\/service-levels"/);
    expect(html).toContain('name="type"');
    expect(html).toContain('<option value="9">Lift</option>');
    const empty = await renderInRouter(i18n, <TypeOverrides overrides={[]} types={[]} />);
    expect(empty).toContain("No incident type sets targets of its own.");
    expect(empty).not.toContain("<form");
  });

  it("offer the holidays, the warning, and a confirmation before removing a closed day", async () => {
    const holidays = await renderInRouter(i18n, <HolidaysForm year={2027} language="fr" />);
    expect(holidays).toContain("Add Belgium&#x27;s public holidays for this year");
    const warning = await renderInRouter(i18n, <WarningForm warnBeforeMinutes={30} />);
    expect(warning).toMatch(/value="30"/);
    const list = await renderInRouter(i18n, <ClosedDayList days={[{ id: 7, day: "2027-12-25", name: "Christmas" }]} formatDay={(d) => d} />, "/administration/service-levels?remove=7");
    expect(list).toContain('href="/administration/service-levels?remove=7"');
    expect(list).toContain('name="closedDayId" value="7"');
    expect(list).toContain('value="removeClosedDay"');
  });
});
