import { createHash } from "node:crypto";
import { createCookie } from "@remix-run/node";
import i18next, { type i18n as I18n, type Resource, type TFunction } from "i18next";
import { initReactI18next } from "react-i18next";
import { LanguageDetector } from "remix-i18next/server";
import { fallbackLng, i18nConfig, isLocale, supportedLngs, type Locale } from "~/i18n";
import { countryNames } from "~/lib/countries";

/** All translations, bundled with the server: app/locales/<lng>/<namespace>.json. */
const files = import.meta.glob<{ default: Record<string, unknown> }>("./locales/*/*.json", { eager: true });

export const resources: Resource = {};
for (const [file, mod] of Object.entries(files)) {
  const [, lng, ns] = /\.\/locales\/([^/]+)\/([^/]+)\.json$/.exec(file) ?? [];
  if (!lng || !ns) continue;
  resources[lng] ??= {};
  resources[lng][ns] = mod.default;
}
/** The generated namespace: country names in each language, in display order (see app/i18n.ts). */
for (const lng of supportedLngs) {
  resources[lng] ??= {};
  resources[lng].countries = countryNames(lng);
}

/**
 * What the browser downloads: every namespace of one language as one JSON document (one request per
 * language instead of one per namespace), serialised once. `localesVersion` changes with the texts; the
 * page names it (`<html data-i18n>`) so the browser may cache the document for good.
 */
export const localeBundles = new Map<Locale, string>(supportedLngs.map((lng) => [lng, JSON.stringify(resources[lng] ?? {})]));
export const localesVersion = createHash("sha256")
  .update([...localeBundles.values()].join("\n"))
  .digest("base64url")
  .slice(0, 12);

/** The language cookie, set by the language switch; a signed-in user's own setting wins over it. */
export const localeCookie = createCookie("lng", {
  path: "/",
  sameSite: "lax",
  httpOnly: true,
  maxAge: 60 * 60 * 24 * 365,
});

const detector = new LanguageDetector({
  supportedLanguages: [...supportedLngs],
  fallbackLanguage: fallbackLng,
  cookie: localeCookie,
  order: ["cookie", "header"],
});

/** The request's language: the user's setting when given, else the cookie, else Accept-Language. */
export async function detectLocale(request: Request, userLocale?: Locale | null): Promise<Locale> {
  if (userLocale) return userLocale;
  const found = await detector.detect(request);
  return isLocale(found) ? found : fallbackLng;
}

/**
 * One initialised i18next instance per language, created once and shared by every request
 * (nothing ever calls changeLanguage on them).
 */
const holder = globalThis as unknown as { __caretakerI18n?: Map<Locale, I18n> };

export function i18nFor(locale: Locale): I18n {
  holder.__caretakerI18n ??= new Map();
  let instance = holder.__caretakerI18n.get(locale);
  if (!instance) {
    instance = i18next.createInstance();
    void instance.use(initReactI18next).init({ ...i18nConfig, lng: locale, resources, initImmediate: false });
    holder.__caretakerI18n.set(locale, instance);
  }
  return instance;
}

export function getT(locale: Locale, ns: string = i18nConfig.defaultNS): TFunction {
  return i18nFor(locale).getFixedT(locale, ns);
}
