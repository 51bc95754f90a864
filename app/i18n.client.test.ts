import { createElement, type ComponentType } from "react";
import { renderToString } from "react-dom/server";
import { I18nextProvider, useTranslation } from "react-i18next";
import { describe, expect, it } from "vitest";
import { supportedLngs, type Locale } from "~/i18n";
import { createBrowserI18n } from "~/i18n.client";
import { i18nFor, localesVersion, resources } from "~/i18n.server";
import { loader } from "~/routes/resources/locales";

/**
 * The browser's i18next (app/i18n.client.ts), loaded from the app's own locale route, must render what the
 * server renders in every language, or hydration would change the page's texts.
 */
function browserRequests(failures = 0) {
  const requested: string[] = [];
  let failing = failures;
  const request = (async (input: string | URL | Request) => {
    const url = new URL(String(input), "http://caretaker.test");
    requested.push(url.pathname + url.search);
    if (failing > 0) {
      failing--;
      return new Response("unavailable", { status: 503 });
    }
    const lng = /^\/locales\/(.+)\.json$/.exec(url.pathname)?.[1] ?? "";
    return loader({ params: { lng }, request: new Request(url), context: {} } as never);
  }) as typeof fetch;
  return { request, requested };
}

function keysOf(node: unknown, prefix = ""): string[] {
  if (typeof node !== "object" || node === null) return [prefix];
  return Object.entries(node).flatMap(([k, v]) => keysOf(v, prefix ? `${prefix}.${k}` : k));
}

describe("the browser's i18next", () => {
  it("answers what the server answers for every key of every namespace and language, with values and counts", async () => {
    let checked = 0;
    for (const lng of supportedLngs) {
      const { request, requested } = browserRequests();
      const browser = await createBrowserI18n({ lng, version: localesVersion, request });
      if (!browser) throw new Error(`no texts for ${lng}`);
      // Every namespace of the language in one request, under the current version.
      expect(requested).toEqual([`/locales/${lng}.json?v=${localesVersion}`]);
      const server = i18nFor(lng);
      for (const ns of Object.keys(resources[lng])) {
        const ours = browser.getFixedT(lng, ns);
        const theirs = server.getFixedT(lng, ns);
        for (const key of new Set(keysOf(resources[lng][ns]).map((k) => k.replace(/_(zero|one|two|few|many|other)$/, "")))) {
          const text = String(theirs(key));
          const names = [...text.matchAll(/\{\{\s*(\w+)/g)].map((m) => m[1]);
          const values = Object.fromEntries(names.map((name, i) => [name, [`<${name} $&>`, i * 7, ""][(i + checked) % 3]]));
          const what = `${lng} ${ns}:${key}`;
          expect(ours(key), what).toBe(text);
          expect(ours(key, values), `${what} with values`).toBe(theirs(key, values));
          for (const count of [0, 1, 2, 5]) expect(ours(key, { ...values, count }), `${what} count ${count}`).toBe(theirs(key, { ...values, count }));
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThan(3000);
    // Tens of thousands of lookups: more than the default 5 s on a busy machine.
  }, 60_000);

  it("gives each language's plural forms and values", async () => {
    const expected: Record<Locale, [number, string][]> = {
      en: [
        [0, "0 matching buildings."],
        [1, "1 matching building."],
        [2, "2 matching buildings."],
      ],
      "fr-BE": [
        [0, "0 bâtiment correspondant."],
        [1, "1 bâtiment correspondant."],
        [2, "2 bâtiments correspondants."],
      ],
      "nl-BE": [
        [0, "0 overeenkomende gebouwen."],
        [1, "1 overeenkomend gebouw."],
        [2, "2 overeenkomende gebouwen."],
      ],
    };
    for (const lng of supportedLngs) {
      const browser = await createBrowserI18n({ lng, request: browserRequests().request });
      for (const [count, text] of expected[lng]) expect(browser?.t("common:picker.allBuildings", { count }), `${lng} ${count}`).toBe(text);
    }
  });

  it("renders the server's HTML through react-i18next's useTranslation", async () => {
    const probes: ComponentType[] = [
      function DefaultNamespace() {
        const { t, i18n } = useTranslation();
        return createElement("p", { lang: i18n.language }, t("picker.allBuildings", { count: 3 }));
      },
      function OtherNamespaces() {
        const { t } = useTranslation(["onboarding", "common"]);
        return createElement("p", null, `${t("common:list.previous")} ${t("no.such.key")}`);
      },
      function Prefixed() {
        const { t } = useTranslation("common", { keyPrefix: "list" });
        return createElement("p", null, t("next"));
      },
    ];
    const page = (i18n: unknown) =>
      renderToString(createElement(I18nextProvider, { i18n: i18n as never }, ...probes.map((Probe, i) => createElement(Probe, { key: i }))));
    for (const lng of supportedLngs) {
      const browser = await createBrowserI18n({ lng, request: browserRequests().request });
      const html = page(browser);
      expect(html).toBe(page(i18nFor(lng)));
      expect(html).toContain(`lang="${lng}"`);
      expect(html).not.toContain("list.next");
    }
    const english = page(await createBrowserI18n({ lng: "en", request: browserRequests().request }));
    expect(english).toContain("3 matching buildings.");
    expect(english).toContain("no.such.key");
  });

  it("loads another language with one more request when the language changes", async () => {
    const { request, requested } = browserRequests();
    const browser = await createBrowserI18n({ lng: "en", version: localesVersion, request });
    await browser?.changeLanguage("nl-BE");
    expect(browser?.language).toBe("nl-BE");
    expect(browser?.t("common:picker.allBuildings", { count: 1 })).toBe("1 overeenkomend gebouw.");
    expect(requested).toEqual([`/locales/en.json?v=${localesVersion}`, `/locales/nl-BE.json?v=${localesVersion}`]);
  });

  it("tries a failed request once more, and gives no instance (no hydration) when that fails too", async () => {
    const once = browserRequests(1);
    const recovered = await createBrowserI18n({ lng: "fr-BE", request: once.request });
    expect(once.requested).toEqual(["/locales/fr-BE.json", "/locales/fr-BE.json"]);
    expect(recovered?.t("common:picker.allBuildings", { count: 2 })).toBe("2 bâtiments correspondants.");

    const twice = browserRequests(2);
    expect(await createBrowserI18n({ lng: "fr-BE", request: twice.request })).toBeNull();
    expect(twice.requested).toHaveLength(2);
  });
});
