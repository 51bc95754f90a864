import { describe, expect, it } from "vitest";
import { COUNTRY_CODES, countriesByName, countryNames } from "./countries";

describe("countriesByName", () => {
  for (const locale of ["en", "fr-BE", "nl-BE"]) {
    it(`names every country in ${locale}, sorted with the locale's collation`, () => {
      const list = countriesByName(locale);
      expect(list.map((c) => c.code).sort()).toEqual([...COUNTRY_CODES].sort());
      // A real name for each, never the code or a translation key.
      for (const c of list) expect(c.name, c.code).not.toMatch(/^[A-Z]{2}$|countries\./);
      const collator = new Intl.Collator(locale);
      for (let i = 1; i < list.length; i++) expect(collator.compare(list[i - 1].name, list[i].name), list[i].name).toBeLessThanOrEqual(0);
    });
  }

  it("uses the user's language", () => {
    const name = (locale: string, code: string) => countriesByName(locale).find((c) => c.code === code)?.name;
    expect([name("en", "BE"), name("fr-BE", "BE"), name("nl-BE", "BE")]).toEqual(["Belgium", "Belgique", "België"]);
    expect([name("en", "DE"), name("fr-BE", "DE"), name("nl-BE", "DE")]).toEqual(["Germany", "Allemagne", "Duitsland"]);
  });

  it("sorts accented names where the language puts them (É with E in French)", () => {
    const names = countriesByName("fr-BE").map((c) => c.name);
    expect(names.indexOf("Égypte")).toBeGreaterThan(names.indexOf("Dominique"));
    expect(names.indexOf("Égypte")).toBeLessThan(names.indexOf("Espagne"));
  });
});

describe("countryNames", () => {
  it("keeps the display order in its keys", () => {
    expect(Object.values(countryNames("nl-BE"))).toEqual(countriesByName("nl-BE").map((c) => c.name));
    expect(Object.keys(countryNames("nl-BE"))).toHaveLength(COUNTRY_CODES.length);
  });
});
