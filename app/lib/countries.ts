/**
 * ISO 3166-1 alpha-2 country codes accepted in addresses (sign-up, entity settings, buildings), and
 * the product's home market listed first in selects. The names are not translation files: they come
 * from Intl.DisplayNames in the page's language (`countriesByName`). Client-safe.
 */
export const COUNTRY_CODES = [
  "AD", "AE", "AF", "AG", "AI", "AL", "AM", "AO", "AQ", "AR", "AS", "AT", "AU", "AW", "AX", "AZ",
  "BA", "BB", "BD", "BE", "BF", "BG", "BH", "BI", "BJ", "BL", "BM", "BN", "BO", "BQ", "BR", "BS",
  "BT", "BV", "BW", "BY", "BZ", "CA", "CC", "CD", "CF", "CG", "CH", "CI", "CK", "CL", "CM", "CN",
  "CO", "CR", "CU", "CV", "CW", "CX", "CY", "CZ", "DE", "DJ", "DK", "DM", "DO", "DZ", "EC", "EE",
  "EG", "EH", "ER", "ES", "ET", "FI", "FJ", "FK", "FM", "FO", "FR", "GA", "GB", "GD", "GE", "GF",
  "GG", "GH", "GI", "GL", "GM", "GN", "GP", "GQ", "GR", "GS", "GT", "GU", "GW", "GY", "HK", "HM",
  "HN", "HR", "HT", "HU", "ID", "IE", "IL", "IM", "IN", "IO", "IQ", "IR", "IS", "IT", "JE", "JM",
  "JO", "JP", "KE", "KG", "KH", "KI", "KM", "KN", "KP", "KR", "KW", "KY", "KZ", "LA", "LB", "LC",
  "LI", "LK", "LR", "LS", "LT", "LU", "LV", "LY", "MA", "MC", "MD", "ME", "MF", "MG", "MH", "MK",
  "ML", "MM", "MN", "MO", "MP", "MQ", "MR", "MS", "MT", "MU", "MV", "MW", "MX", "MY", "MZ", "NA",
  "NC", "NE", "NF", "NG", "NI", "NL", "NO", "NP", "NR", "NU", "NZ", "OM", "PA", "PE", "PF", "PG",
  "PH", "PK", "PL", "PM", "PN", "PR", "PS", "PT", "PW", "PY", "QA", "RE", "RO", "RS", "RU", "RW",
  "SA", "SB", "SC", "SD", "SE", "SG", "SH", "SI", "SJ", "SK", "SL", "SM", "SN", "SO", "SR", "SS",
  "ST", "SV", "SX", "SY", "SZ", "TC", "TD", "TF", "TG", "TH", "TJ", "TK", "TL", "TM", "TN", "TO",
  "TR", "TT", "TV", "TW", "TZ", "UA", "UG", "UM", "US", "UY", "UZ", "VA", "VC", "VE", "VG", "VI",
  "VN", "VU", "WF", "WS", "YE", "YT", "ZA", "ZM", "ZW",
] as const;
export type CountryCode = (typeof COUNTRY_CODES)[number];

/** Countries listed first in the select (the product's home market). */
export const PREFERRED_COUNTRIES: readonly CountryCode[] = ["BE", "NL", "FR", "LU", "DE"];

export interface Country {
  code: CountryCode;
  name: string;
}

/**
 * Every country of COUNTRY_CODES with its name in `locale` (Intl.DisplayNames, English when the
 * runtime lacks the language), sorted by that name with the locale's collation.
 */
export function countriesByName(locale: string): Country[] {
  let names: Intl.DisplayNames | null;
  try {
    names = new Intl.DisplayNames([locale, "en"], { type: "region", fallback: "code" });
  } catch {
    names = null;
  }
  const collator = new Intl.Collator(locale);
  return COUNTRY_CODES.map((code) => ({ code, name: names?.of(code) ?? code })).sort(
    (a, b) => collator.compare(a.name, b.name) || a.code.localeCompare(b.code),
  );
}

/**
 * The same as an ordered `code -> name` object: the server computes it once per language and serves
 * it as the generated i18n namespace `countries`, so the browser shows exactly the server's names in
 * the server's order (its own Intl data may differ) and hydration matches.
 */
export function countryNames(locale: string): Record<string, string> {
  return Object.fromEntries(countriesByName(locale).map((c) => [c.code, c.name]));
}
