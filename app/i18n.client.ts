import i18next, { type i18n as I18n, type ResourceKey } from "i18next";
import resourcesToBackend from "i18next-resources-to-backend";
import { initReactI18next } from "react-i18next";
import { i18nConfig, namespaces } from "~/i18n";

type Bundle = Record<string, ResourceKey>;

/**
 * Every namespace of one language in one request (`/locales/<lng>.json?v=<version>`, served by
 * app/routes/resources/locales.ts and cached for good under its version), fetched once per language for all
 * the namespaces i18next asks for, and tried once more when it fails.
 */
function languageDocuments(version: string | undefined, request: typeof fetch) {
  const query = version ? `?v=${encodeURIComponent(version)}` : "";
  const once = async (lng: string): Promise<Bundle> => {
    const response = await request(`/locales/${encodeURIComponent(lng)}.json${query}`);
    if (!response.ok) throw new Error(`translations ${lng}: ${response.status}`);
    return (await response.json()) as Bundle;
  };
  const documents = new Map<string, Promise<Bundle>>();
  return (lng: string): Promise<Bundle> => {
    let document = documents.get(lng);
    if (!document) {
      document = once(lng).catch(() => once(lng));
      // A language that failed twice may be asked for again later (another language change).
      document.catch(() => documents.delete(lng));
      documents.set(lng, document);
    }
    return document;
  };
}

/**
 * The browser's i18next, the same engine and settings as the server's (app/i18n.server.ts), in the page's
 * language (`<html lang>`, chosen by the server) with every namespace loaded before it resolves, so that
 * hydration renders the server's texts and a client navigation never shows a key while a namespace loads.
 * No fallback language: tests/unit/locales.test.ts keeps every key in every language, and a fallback would
 * only cost a second download. Resolves to null when the texts could not be loaded.
 */
export async function createBrowserI18n({ lng, version, request = fetch }: { lng: string; version?: string; request?: typeof fetch }): Promise<I18n | null> {
  const load = languageDocuments(version, request);
  const i18n = i18next.createInstance();
  await i18n
    .use(initReactI18next)
    .use(resourcesToBackend(async (language: string, namespace: string) => (await load(language))[namespace] ?? {}))
    // Every namespace read at once (i18next reads 10 at a time by default), so that they all share one
    // document: otherwise the reads queued behind a failed document would start a new one.
    .init({ ...i18nConfig, lng, fallbackLng: false, maxParallelReads: namespaces.length });
  return i18n.hasResourceBundle(lng, i18nConfig.defaultNS) ? i18n : null;
}
