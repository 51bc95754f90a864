import i18next from "i18next";
import { renderToStaticMarkup } from "react-dom/server";
import { I18nextProvider, initReactI18next } from "react-i18next";
import { describe, expect, it } from "vitest";
import { COUNTRY_CODES, countryNames } from "~/lib/countries";
import commonEn from "~/locales/en/common.json";
import commonFr from "~/locales/fr-BE/common.json";
import { CountryOptions } from "./country-options";

async function render(lng: string, countries: Record<string, string> | null) {
  const i18n = i18next.createInstance();
  const bundles = { common: lng === "en" ? commonEn : commonFr, ...(countries ? { countries } : {}) };
  await i18n.use(initReactI18next).init({ lng, resources: { [lng]: bundles }, defaultNS: "common", interpolation: { escapeValue: false } });
  return renderToStaticMarkup(
    <I18nextProvider i18n={i18n}>
      <select>
        <CountryOptions />
      </select>
    </I18nextProvider>,
  );
}

const options = (html: string) => [...html.matchAll(/<option value="([^"]*)">([^<]*)<\/option>/g)].map((m) => [m[1], m[2]]);

describe("CountryOptions", () => {
  it("renders the placeholder, the home market, then the other countries, in the page's language", async () => {
    const html = await render("fr-BE", countryNames("fr-BE"));
    const list = options(html);
    expect(list[0]).toEqual(["", "Sélectionnez un pays"]);
    expect(list).toHaveLength(COUNTRY_CODES.length + 1);
    expect(list.slice(1, 6).map(([code]) => code)).toEqual(["DE", "BE", "FR", "LU", "NL"]);
    expect(list).toContainEqual(["AD", "Andorre"]);
    expect(html).toContain('<optgroup label="Benelux et pays voisins">');
    expect(html).not.toContain("countries.");
  });

  it("shows the names the server sent, in the server's order, even where this runtime's would differ", async () => {
    const fromServer = { ...countryNames("en"), BE: "Belgium (server)" };
    const list = options(await render("en", fromServer));
    expect(list).toContainEqual(["BE", "Belgium (server)"]);
    const others = list.slice(6).map(([code]) => code);
    expect(others).toEqual(Object.keys(fromServer).filter((c) => !["BE", "NL", "FR", "LU", "DE"].includes(c)));
  });

  it("falls back to this runtime's names without the generated namespace", async () => {
    expect(options(await render("en", null))).toContainEqual(["BE", "Belgium"]);
  });
});
