import i18next from "i18next";
import { initReactI18next } from "react-i18next";
import { beforeAll, describe, expect, it } from "vitest";
import common from "~/locales/en/common.json";
import en from "~/locales/en/timeCosts.json";
import nl from "~/locales/nl-BE/timeCosts.json";
import type { HourlyRates } from "~/modules/time-costs/queries.server";
import { renderInRouter } from "#tests/render-in-router";
import { RatesForm } from "./rates-form";

/**
 * The rates form as plain HTML (JavaScript off): the currency offered, the default rate, one field per
 * person beside a hidden field with their id, and a refused form's errors with the input kept.
 */
const i18n = i18next.createInstance();
beforeAll(async () => {
  await i18n.use(initReactI18next).init({
    lng: "en",
    resources: { en: { timeCosts: en, common }, "nl-BE": { timeCosts: nl, common } },
    defaultNS: "common",
    interpolation: { escapeValue: false },
  });
});

const rates: HourlyRates = {
  currency: "GBP",
  defaultRate: "45.00",
  people: [
    { id: 7, name: "Cleo Colleague", email: "cleo@example.test", rate: null },
    { id: 3, name: "Tom Tech", email: "tom@example.test", rate: "38.50" },
  ],
};

describe("the rates form", () => {
  it("posts the currency, the default and each person's id and rate", async () => {
    const html = await renderInRouter(i18n, <RatesForm rates={rates} />, "/administration/rates");
    expect(html).toContain('name="intent" value="rates"');
    for (const code of ["EUR", "USD", "GBP", "CHF"]) expect(html).toContain(`<option value="${code}"`);
    expect(html).toMatch(/<option value="GBP" selected="">GBP<\/option>/);
    expect(html).toMatch(/name="defaultRate"[^>]*value="45.00"|value="45.00"[^>]*name="defaultRate"/);
    expect(html).toMatch(/type="hidden"[^>]*name="rates\[0\].userId"[^>]*value="7"|name="rates\[0\].userId"[^>]*type="hidden"[^>]*value="7"|value="7"[^>]*name="rates\[0\].userId"/);
    expect(html).toMatch(/name="rates\[1\].rate"[^>]*value="38.50"|value="38.50"[^>]*name="rates\[1\].rate"/);
    expect(html).toContain("Hourly rate of Tom Tech");
    expect(html).toContain("Save the rates");
  });

  it("shows a refused rate beside its field with the input kept, and speaks Dutch", async () => {
    await i18n.changeLanguage("nl-BE");
    const lastResult = {
      status: "error" as const,
      initialValue: { currency: "GBP", defaultRate: "abc", rates: [{ userId: "7", rate: "" }, { userId: "3", rate: "38.50" }] },
      error: { defaultRate: ["timeCosts:validation.rate"], rates: ["timeCosts:validation.ratePerson"] },
    };
    const html = await renderInRouter(i18n, <RatesForm rates={rates} lastResult={lastResult} />, "/administration/rates");
    expect(html).toContain("Geef een uurtarief van 0 tot 10.000 in");
    expect(html).toContain("Een van de personen hoort niet bij deze organisatie.");
    expect(html).toMatch(/value="abc"/);
    expect(html).toContain("Tarieven opslaan");
    await i18n.changeLanguage("en");
  });
});
