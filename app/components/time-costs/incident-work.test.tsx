import i18next from "i18next";
import { beforeAll, describe, expect, it } from "vitest";
import { initReactI18next } from "react-i18next";
import common from "~/locales/en/common.json";
import incidentView from "~/locales/en/incidentView.json";
import en from "~/locales/en/timeCosts.json";
import fr from "~/locales/fr-BE/timeCosts.json";
import type { RecordWork } from "~/modules/time-costs/queries.server";
import { renderInRouter } from "#tests/render-in-router";
import { DeleteWorkDialogs, WorkSection } from "./incident-work";

/**
 * The incident view's time and materials section as plain HTML (JavaScript off): the entries and lines
 * with their totals in the page's language, the two forms posting their intents (a manager's with the
 * person to pick), a refused entry's error and kept input, and delete links to confirmations that post
 * the entry's id.
 */
const i18n = i18next.createInstance();
beforeAll(async () => {
  await i18n.use(initReactI18next).init({
    lng: "en",
    resources: { en: { timeCosts: en, common, incidentView }, "fr-BE": { timeCosts: fr, common, incidentView } },
    defaultNS: "common",
    interpolation: { escapeValue: false },
  });
});

const work: RecordWork = {
  entries: [
    { id: 5, person: { id: 2, name: "Tom Tech" }, workedOn: "2026-03-02", minutes: 90, hourlyRate: "45.00", cost: "67.50", costHidden: false, note: "Seal replaced", editable: true },
    { id: 6, person: { id: 3, name: "Cleo Colleague" }, workedOn: "2026-03-03", minutes: 45, hourlyRate: null, cost: null, costHidden: false, note: null, editable: false },
  ],
  lines: [{ id: 9, description: "Copper pipe", quantity: "2.500", unitCost: "12.40", total: "31.00", addedBy: { id: 2, name: "Tom Tech" }, editable: true }],
  totals: { minutes: 135, labour: "67.50", materials: "31.00", total: "98.50", unpricedEntries: 1, entries: 2, lines: 1 },
  currency: "EUR",
  canRecord: true,
  people: [
    { id: 3, name: "Cleo Colleague" },
    { id: 2, name: "Tom Tech" },
  ],
  clock: null,
};

describe("the time and materials section", () => {
  it("lists the entries and lines with their totals, and offers both forms", async () => {
    await i18n.changeLanguage("en");
    const html = await renderInRouter(i18n, <WorkSection record="incident" work={work} today="2026-03-04" />, "/incident/1");
    expect(html).toContain('id="time-and-materials"');
    expect(html).toContain("1 h 30 min");
    expect(html).toContain("45 min");
    expect(html).toContain("2 h 15 min");
    expect(html).toContain("€12.40");
    expect(html).toContain("€31.00");
    // Each entry's cost at its rate, "no rate" without one; labour, materials and their total.
    expect(html).toContain("€67.50");
    expect(html).toContain("no rate");
    expect(html).toContain("€98.50");
    expect(html).toContain("Partial: 1 entry has no hourly rate.");
    expect(html).toContain(">Labour<");
    expect(html).toContain(">Total<");
    expect(html).toContain('name="intent" value="recordTime"');
    expect(html).toContain('name="intent" value="addMaterial"');
    expect(html).toMatch(/<option value="3">Cleo Colleague<\/option>/);
    expect(html).toMatch(/name="workedOn"[^>]*value="2026-03-04"|value="2026-03-04"[^>]*name="workedOn"/);
    // Only the viewer's editable entry has a delete link, to its confirmation.
    expect(html).toContain('href="/incident/1?dialog=delete-time&amp;entry=5"');
    expect(html).not.toContain("entry=6");
    expect(html).toContain('href="/incident/1?dialog=delete-material&amp;line=9"');
    expect(html).toContain('href="/incident/1?editEntry=5#time-and-materials"');
  });

  it("offers Start, shows a clock running here with Stop, and one running elsewhere without a button", async () => {
    const idle = await renderInRouter(i18n, <WorkSection record="task" work={work} today="2026-03-04" />, "/view-task/3/2026-03-04?work=7");
    expect(idle).toContain('name="intent" value="startClock"');
    expect(idle).toContain(">Start<");
    expect(idle).toContain("The time spent on this task and the material used.");
    // 09:14 UTC is 10:14 in Brussels, the page's zone.
    const running = await renderInRouter(i18n, <WorkSection record="task" work={{ ...work, clock: { startedAt: new Date("2026-03-04T09:14:00Z"), here: true } }} today="2026-03-04" />, "/view-task/3/2026-03-04?work=7");
    expect(running).toContain("Running since 10:14");
    expect(running).toContain('name="intent" value="stopClock"');
    expect(running).not.toContain('value="startClock"');
    const elsewhere = await renderInRouter(i18n, <WorkSection record="incident" work={{ ...work, clock: { startedAt: new Date("2026-03-04T09:14:00Z"), here: false } }} today="2026-03-04" />, "/incident/1");
    expect(elsewhere).toContain("Your clock is running elsewhere since 10:14");
    expect(elsewhere).not.toMatch(/value="(start|stop)Clock"/);
    // Who may not record sees no clock.
    expect(await renderInRouter(i18n, <WorkSection record="incident" work={{ ...work, canRecord: false }} today="2026-03-04" />, "/incident/1")).not.toContain("Clock");
  });

  it("writes amounts and durations in French with a comma and the euro after the amount", async () => {
    await i18n.changeLanguage("fr-BE");
    const html = await renderInRouter(i18n, <WorkSection record="incident" work={work} today="2026-03-04" />, "/incident/1");
    expect(html).toMatch(/12,40\s€/);
    expect(html).toMatch(/98,50\s€/);
    expect(html).toContain("pas de tarif");
    expect(html).toContain("Temps et matériel");
    expect(html).toContain("2 h 15 min");
    await i18n.changeLanguage("en");
  });

  it("shows a refused entry's error beside its field with the input kept", async () => {
    const result = { status: "error" as const, initialValue: { workedOn: "2026-03-02", hours: "0", minutes: "0", note: "Looked at it" }, error: { minutes: ["timeCosts:validation.duration"] } };
    const html = await renderInRouter(i18n, <WorkSection record="incident" work={{ ...work, people: [] }} today="2026-03-04" timeResult={result} />, "/incident/1");
    expect(html).toContain("Enter a duration of at least 1 minute and at most 24 hours.");
    expect(html).toMatch(/value="Looked at it"/);
    expect(html).not.toContain('name="userId"');
  });

  it("puts an entry's correction form, filled in, in place of the add form (only for an entry the viewer may change)", async () => {
    const html = await renderInRouter(i18n, <WorkSection record="incident" work={work} today="2026-03-04" />, "/incident/1?editEntry=5");
    expect(html).toContain('name="intent" value="updateTime"');
    expect(html).toContain('name="entry" value="5"');
    expect(html).not.toContain('name="intent" value="recordTime"');
    expect(html).toMatch(/name="hours"[^>]*value="1"|value="1"[^>]*name="hours"/);
    expect(html).toMatch(/name="minutes"[^>]*value="30"|value="30"[^>]*name="minutes"/);
    expect(html).toMatch(/value="Seal replaced"/);
    expect(html).toMatch(/<option value="2" selected="">Tom Tech<\/option>/);
    expect(html).toContain('href="/incident/1#time-and-materials"');
    const line = await renderInRouter(i18n, <WorkSection record="incident" work={work} today="2026-03-04" />, "/incident/1?editLine=9");
    expect(line).toContain('name="intent" value="updateMaterial"');
    expect(line).toMatch(/name="quantity"[^>]*value="2.5"|value="2.5"[^>]*name="quantity"/);
    const other = await renderInRouter(i18n, <WorkSection record="incident" work={work} today="2026-03-04" />, "/incident/1?editEntry=6");
    expect(other).not.toContain('value="updateTime"');
    expect(other).toContain('name="intent" value="recordTime"');
  });

  it("asks before deleting, and the confirmation posts the entry's id", async () => {
    const html = await renderInRouter(i18n, <DeleteWorkDialogs work={work} />, "/incident/1?dialog=delete-time&entry=5");
    expect(html).toContain("Delete this time entry?");
    expect(html).toContain('name="entry" value="5"');
    expect(html).toContain('value="deleteTime"');
    // Someone else's entry (not editable) opens no dialog.
    const other = await renderInRouter(i18n, <DeleteWorkDialogs work={work} />, "/incident/1?dialog=delete-time&entry=6");
    expect(other).not.toContain("Delete this time entry?");
  });
});

describe("a technician's view of a colleague's time (decision 065)", () => {
  it("shows neither the colleague's cost nor the labour and total that would tell it; the time and material stay", async () => {
    await i18n.changeLanguage("en");
    const colleague = { ...work.entries[1], hourlyRate: null, cost: null, costHidden: true };
    const html = await renderInRouter(
      i18n,
      <WorkSection record="incident" work={{ ...work, entries: [work.entries[0], colleague], totals: { ...work.totals, labour: null, total: null, unpricedEntries: 0 } }} today="2026-03-04" />,
      "/incident/1",
    );
    expect(html).toContain("€67.50");
    expect(html).not.toContain("no rate");
    expect(html).not.toContain("€98.50");
    expect(html).toContain("2 h 15 min");
    expect(html).toContain("€31.00");
    expect(html).not.toContain(">Labour<");
    expect(html).not.toContain(">Total<");
  });
});

describe("amounts in another currency", () => {
  it("writes the entity's currency in the reader's language", async () => {
    await i18n.changeLanguage("fr-BE");
    const html = await renderInRouter(i18n, <WorkSection record="incident" work={{ ...work, currency: "CHF" }} today="2026-03-04" />, "/incident/1");
    expect(html).toMatch(/98,50\sCHF/);
    await i18n.changeLanguage("en");
    const en = await renderInRouter(i18n, <WorkSection record="incident" work={{ ...work, currency: "USD" }} today="2026-03-04" />, "/incident/1");
    expect(en).toContain("$98.50");
  });
});
