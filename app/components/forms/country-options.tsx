import { useTranslation } from "react-i18next";
import { type Country, countriesByName, type CountryCode, PREFERRED_COUNTRIES } from "~/lib/countries";

/**
 * The countries in the page's language, sorted by name: from the generated `countries` namespace
 * (the server's Intl.DisplayNames, so the server and the browser render the same names in the same
 * order), or from this runtime's Intl data if the namespace is missing.
 */
export function useCountries(): Country[] {
  const { i18n } = useTranslation("countries");
  const bundle = i18n.getResourceBundle(i18n.language, "countries") as Record<string, string> | undefined;
  if (bundle && Object.keys(bundle).length > 0) {
    return Object.entries(bundle).map(([code, name]) => ({ code: code as CountryCode, name }));
  }
  return countriesByName(i18n.language);
}

/**
 * The options of every country select (sign-up, entity settings, buildings): a "select a country"
 * placeholder, the home market first, then all the other countries, each group sorted by name.
 */
export function CountryOptions() {
  const { t } = useTranslation("common");
  const countries = useCountries();
  const preferred = new Set<string>(PREFERRED_COUNTRIES);
  const option = (c: Country) => (
    <option key={c.code} value={c.code}>
      {c.name}
    </option>
  );
  return (
    <>
      <option value="">{t("country.select")}</option>
      <optgroup label={t("country.neighbours")}>{countries.filter((c) => preferred.has(c.code)).map(option)}</optgroup>
      <optgroup label={t("country.others")}>{countries.filter((c) => !preferred.has(c.code)).map(option)}</optgroup>
    </>
  );
}
