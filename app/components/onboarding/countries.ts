import { COUNTRY_CODES, PREFERRED_COUNTRIES } from "~/modules/onboarding/schema";

export interface CountryOption {
  code: string;
  name: string;
}

/**
 * Country names in `locale` (Intl.DisplayNames), sorted; the preferred ones (the product's home
 * market) first. Computed by the loader so the server and the browser show the same list.
 */
export function countryOptions(locale: string): { preferred: CountryOption[]; others: CountryOption[] } {
  let names: Intl.DisplayNames | null = null;
  try {
    names = new Intl.DisplayNames([locale, "en"], { type: "region" });
  } catch {
    names = null;
  }
  const option = (code: string): CountryOption => ({ code, name: names?.of(code) ?? code });
  const collator = new Intl.Collator(locale);
  const preferred = PREFERRED_COUNTRIES.map(option);
  const others = COUNTRY_CODES.filter((code) => !PREFERRED_COUNTRIES.includes(code))
    .map(option)
    .sort((a, b) => collator.compare(a.name, b.name));
  return { preferred, others };
}
