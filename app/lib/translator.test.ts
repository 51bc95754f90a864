import i18next from "i18next";
import { describe, expect, it } from "vitest";
import { i18nConfig, supportedLngs } from "~/i18n";
import { resources } from "~/i18n.server";
import { createTranslator, type Bundle } from "~/lib/translator";

/**
 * The browser's translator (decision 033) must give, for every key the pages can ask for, exactly what
 * the server's i18next gives, or hydration would change the page's texts.
 */
function keysOf(node: unknown, prefix = ""): string[] {
  if (typeof node !== "object" || node === null) return [prefix];
  return Object.entries(node).flatMap(([k, v]) => keysOf(v, prefix ? `${prefix}.${k}` : k));
}

async function pair(lng: string) {
  const reference = i18next.createInstance();
  await reference.init({ ...i18nConfig, lng, resources, initImmediate: false, fallbackLng: false });
  const loads: string[] = [];
  const mine = createTranslator({
    lng,
    defaultNS: i18nConfig.defaultNS,
    ns: i18nConfig.ns,
    load: async (language) => {
      loads.push(language);
      if (!resources[language]) throw new Error(`no ${language}`);
      return resources[language] as Bundle;
    },
  });
  await mine.init();
  return { reference, mine, loads };
}

describe("the browser's translator", () => {
  it("answers what i18next answers for every key of every namespace and language, with values, counts and prefixes", async () => {
    let checked = 0;
    const differences: string[] = [];
    const same = (what: string, ours: unknown, theirs: unknown) => {
      if (ours !== theirs) differences.push(`${what}: ${JSON.stringify(ours)} instead of ${JSON.stringify(theirs)}`);
    };
    for (const lng of supportedLngs) {
      const { reference, mine } = await pair(lng);
      const theirsCommon = reference.getFixedT(lng, "common");
      const oursCommon = mine.getFixedT(null, "common");
      for (const ns of Object.keys(resources[lng])) {
        const theirs = reference.getFixedT(lng, ns);
        const ours = mine.getFixedT(null, ns);
        for (const key of new Set(keysOf(resources[lng][ns]).map((k) => k.replace(/_(zero|one|two|few|many|other)$/, "")))) {
          const text = String(theirs(key));
          const names = [...text.matchAll(/\{\{\s*(\w+)/g)].map((m) => m[1]);
          const values = Object.fromEntries(names.map((name, i) => [name, [`<${name} $& $1>`, i * 7, `{{${name}}}`, ""][(i + checked) % 4]]));
          const what = `${lng} ${ns}:${key}`;
          same(what, ours(key), text);
          same(`${what} with values`, ours(key, values), theirs(key, values));
          for (const count of [0, 1, 2, 5, 1.5]) same(`${what} count ${count}`, ours(key, { ...values, count }), theirs(key, { ...values, count }));
          // The same key through another namespace's `t` and through a key prefix.
          same(`${what} from common`, oursCommon(`${ns}:${key}`, values), theirsCommon(`${ns}:${key}`, values));
          const dot = key.indexOf(".");
          if (dot > 0) same(`${what} prefixed`, mine.getFixedT(null, ns, key.slice(0, dot))(key.slice(dot + 1)), reference.getFixedT(lng, ns, key.slice(0, dot))(key.slice(dot + 1)));
          same(`${what} exists`, mine.exists(key, { ns }), reference.exists(key, { ns }));
          checked++;
        }
      }
    }
    expect(differences.slice(0, 20)).toEqual([]);
    expect(checked).toBeGreaterThan(3000);
  });

  it("answers missing keys, defaults, objects, contexts and missing values as i18next does", async () => {
    const { reference, mine } = await pair("en");
    const theirs = reference.getFixedT("en", "common");
    const ours = mine.getFixedT(null, "common");
    const calls: [unknown, ...unknown[]][] = [
      ["no.such.key"],
      ["no.such.key", "A default"],
      ["no.such.key", { defaultValue: "Third {{n}}", n: 3 }],
      ["no.such.key", { defaultValue: "one", defaultValue_other: "many", count: 4 }],
      ["no.such.key", { defaultValue: "", count: 0 }],
      ["no.such.key", "Default {{n}}", { n: 9 }],
      ["list"],
      ["list.page", { page: 1 }],
      ["list.page", { page: undefined, pages: null }],
      ["list.range", { from: "{{to}}", to: "x", total: 1 }],
      ["list.next", { context: "male" }],
      ["list.next", { context: "" }],
      [["no.key", "list.next"]],
      [["no.key", "other.missing"]],
      ["shell:roles.1"],
      ["nosuchns:list.next"],
      ["a sentence: with a colon"],
      ["list.page", { replace: { page: 4, pages: 8 } }],
      ["dashboard:assignees.pagination", { count: 0 }],
    ];
    for (const [key, ...rest] of calls) {
      expect((ours as unknown as (...a: unknown[]) => unknown)(key, ...rest), JSON.stringify([key, ...rest])).toBe((theirs as unknown as (...a: unknown[]) => unknown)(key, ...rest));
    }
    expect(mine.exists("list.next", { ns: "common" })).toBe(true);
    expect(mine.exists("shell:roles.1")).toBe(true);
    expect(mine.exists("no.such.key")).toBe(false);
  });

  it("gives react-i18next what it reads, and changes language by loading the other texts once", async () => {
    const { mine, loads } = await pair("en");
    expect(mine.isInitialized).toBe(true);
    expect(mine.hasLoadedNamespace()).toBe(true);
    expect(mine.getResourceBundle("en", "countries")).toBe(resources.en.countries);
    const seen: unknown[] = [];
    const listener = (lng: unknown) => seen.push(lng);
    mine.on("languageChanged", listener);
    const t = await mine.changeLanguage("nl-BE");
    expect(mine.language).toBe("nl-BE");
    expect(mine.languages).toEqual(["nl-BE"]);
    expect(seen).toEqual(["nl-BE"]);
    expect(t("list.next")).toBe((resources["nl-BE"].common as { list: { next: string } }).list.next);
    expect(t("list.next")).not.toBe("Next");
    await mine.changeLanguage("nl-BE");
    await mine.changeLanguage("en");
    mine.off("languageChanged", listener);
    await mine.changeLanguage("nl-BE");
    expect(seen).toEqual(["nl-BE", "en"]);
    expect(loads).toEqual(["en", "nl-BE"]);
    await expect(mine.changeLanguage("xx")).rejects.toThrow("no xx");
    expect(mine.language).toBe("nl-BE");
  });
});
