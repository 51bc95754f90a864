/** Shared i18next settings for the server and the browser. */
export const supportedLngs = ["en", "fr-BE", "nl-BE"] as const;
export type Locale = (typeof supportedLngs)[number];
export const fallbackLng: Locale = "en";
export const defaultNS = "common";
/**
 * `countries` is not a file of app/locales: the server generates it per language from Intl.DisplayNames
 * (app/lib/countries.ts) and serves it like the others, so both sides show the server's names.
 */
export const namespaces = ["common", "auth", "shell", "settings", "onboarding", "facilities", "rooms", "equipment", "users", "incidentTypes", "incidents", "incidentList", "incidentView", "timeCosts", "workOrder", "report", "live", "dashboard", "notifications", "tasks", "maintenance", "printing", "webhooks", "administration", "exports", "imports", "apiTokens", "serviceLevels", "countries"] as const;

export const i18nConfig = {
  supportedLngs: [...supportedLngs],
  fallbackLng,
  defaultNS,
  ns: [...namespaces],
  react: { useSuspense: false },
  interpolation: { escapeValue: false },
};

export function isLocale(value: unknown): value is Locale {
  return typeof value === "string" && (supportedLngs as readonly string[]).includes(value);
}

/** User language enumeration (SPEC.md section 3: English 0, French 1, Dutch 2) to locale and back. */
export const localeByUserLanguage: Record<number, Locale> = { 0: "en", 1: "fr-BE", 2: "nl-BE" };
export const userLanguageByLocale: Record<Locale, number> = { en: 0, "fr-BE": 1, "nl-BE": 2 };
