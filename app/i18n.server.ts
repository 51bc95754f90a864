import { createHash } from "node:crypto";
import { createCookie } from "@remix-run/node";
import i18next, { type i18n as I18n, type Resource, type TFunction } from "i18next";
import { initReactI18next } from "react-i18next";
import { LanguageDetector } from "remix-i18next/server";
import { fallbackLng, i18nConfig, isLocale, supportedLngs, type Locale } from "~/i18n";
import { countryNames } from "~/lib/countries";
import { secureCookies } from "~/config.server";

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

/** The Set-Cookie header of a language choice (Secure when the app is served over https, like every cookie of the app). */
export function localeCookieHeader(locale: Locale): Promise<string> {
  return localeCookie.serialize(locale, { secure: secureCookies() });
}

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
    rememberTexts(instance);
    holder.__caretakerI18n.set(locale, instance);
  }
  return instance;
}

/** Options a `t` call may carry and still have one answer per key (what `useTranslation`'s `t` adds). */
const PLAIN_OPTIONS = new Set(["lng", "lngs", "ns", "keyPrefix"]);
/** Other options that change how i18next resolves a text (plurals, context, defaults...): never shortcut. */
const RESOLVING_OPTIONS = /^(count|context|ordinal|defaultValue|returnObjects|returnDetails|joinArrays|replace|interpolation|postProcess|skipInterpolation|fallbackLng|nsSeparator|keySeparator)$/;
/** `{{name}}` placeholders only: no formats (`{{n, number}}`), no unescaped `{{- x}}`, no nesting. */
const PLACEHOLDER = /\{\{\s*([A-Za-z_$][\w$]*)\s*\}\}/g;
/** More texts than the app has: keys built from data cannot grow the memory without end. */
const MAX_REMEMBERED = 10_000;

type Translate = (key: unknown, options?: unknown, ...rest: unknown[]) => unknown;

/**
 * Remembers what `t` answers for a key: a text without values as it is, and a text with `{{name}}` values
 * as its template, filled in here. A page makes hundreds of calls and i18next resolves each anew (key
 * parsing, namespace and fallback lookup, interpolation and nesting scans): 5-8 % of a signed-in page's
 * server CPU. The server's instances never change language and their resources never change, so a key's
 * text is always the same. Plurals, contexts, defaults, formats and nesting still go through i18next.
 */
function rememberTexts(instance: I18n): void {
  const translate = instance.t.bind(instance) as unknown as Translate;
  const remembered = new Map<string, unknown>();
  const remember = (id: string, compute: () => unknown) => {
    const known = remembered.get(id);
    if (known !== undefined) return known;
    const text = compute();
    if (typeof text === "string" && remembered.size < MAX_REMEMBERED) remembered.set(id, text);
    return text;
  };
  const t = (key: unknown, options?: unknown, ...rest: unknown[]): unknown => {
    if (rest.length > 0 || typeof key !== "string" || (options !== undefined && (typeof options !== "object" || options === null))) return translate(key, options, ...rest);
    const given = (options ?? {}) as Record<string, unknown>;
    let values: Record<string, string | number> | null = null;
    for (const name in given) {
      if (PLAIN_OPTIONS.has(name)) continue;
      const value = given[name];
      if (RESOLVING_OPTIONS.test(name) || !(typeof value === "string" || (typeof value === "number" && Number.isFinite(value)))) return translate(key, options);
      (values ??= {})[name] = value;
    }
    const { ns, keyPrefix, lng } = given;
    const id = `${String(lng ?? "")}\u0001${Array.isArray(ns) ? ns.join("\u0002") : String(ns ?? "")}\u0001${String(keyPrefix ?? "")}\u0001${key}`;
    if (!values) return remember(id, () => translate(key, options));
    const template = remember(`${id}\u0001template`, () => translate(key, { ...given, skipInterpolation: true }));
    if (typeof template !== "string" || template.includes("$t(")) return translate(key, options);
    let complete = true;
    const filled = template.replace(PLACEHOLDER, (_match, name: string) => {
      const value = values[name];
      if (value === undefined) complete = false;
      return String(value);
    });
    // A placeholder without its value, or one this shortcut does not read: i18next answers it.
    return complete && !filled.includes("{{") ? filled : translate(key, options);
  };
  instance.t = t as unknown as I18n["t"];
}

export function getT(locale: Locale, ns: string = i18nConfig.defaultNS): TFunction {
  return i18nFor(locale).getFixedT(locale, ns);
}
