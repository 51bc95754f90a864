import type { BackendModule, ReadCallback, ResourceKey } from "i18next";

/**
 * The browser's i18next backend: one request per language for all its namespaces
 * (`/locales/<lng>.json?v=<version>`, see app/routes/resources/locales.ts), shared by every namespace
 * read from it. A failed request is forgotten so the next read tries again.
 */
export function localeBackend(version: string | undefined): BackendModule {
  const bundles = new Map<string, Promise<Record<string, ResourceKey>>>();
  const load = (lng: string) => {
    let bundle = bundles.get(lng);
    if (!bundle) {
      const query = version ? `?v=${encodeURIComponent(version)}` : "";
      bundle = fetch(`/locales/${encodeURIComponent(lng)}.json${query}`).then((response) => {
        if (!response.ok) throw new Error(`translations ${lng}: ${response.status}`);
        return response.json() as Promise<Record<string, ResourceKey>>;
      });
      bundle.catch(() => bundles.delete(lng));
      bundles.set(lng, bundle);
    }
    return bundle;
  };
  return {
    type: "backend",
    init() {},
    read(lng: string, ns: string, callback: ReadCallback) {
      load(lng).then(
        (all) => callback(null, all[ns] ?? {}),
        (error: Error) => callback(error, false),
      );
    },
  };
}
