import type { Bundle } from "~/lib/translator";

/**
 * The browser's texts: one request per language for all its namespaces (`/locales/<lng>.json?v=<version>`,
 * see app/routes/resources/locales.ts). A failed request is tried once more before it fails.
 */
export function localeLoader(version: string | undefined): (lng: string) => Promise<Bundle> {
  const query = version ? `?v=${encodeURIComponent(version)}` : "";
  const once = async (lng: string) => {
    const response = await fetch(`/locales/${encodeURIComponent(lng)}.json${query}`);
    if (!response.ok) throw new Error(`translations ${lng}: ${response.status}`);
    return (await response.json()) as Bundle;
  };
  return (lng) => once(lng).catch(() => once(lng));
}
