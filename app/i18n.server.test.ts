import i18next from "i18next";
import { describe, expect, it } from "vitest";
import { i18nConfig, supportedLngs } from "~/i18n";
import { getT, i18nFor, resources } from "~/i18n.server";

/**
 * The server's translators remember texts and templates (app/i18n.server.ts): every answer must be the
 * one i18next itself gives, per language, namespace and key prefix, with and without values.
 */
function keysOf(node: unknown, prefix = ""): string[] {
  if (typeof node !== "object" || node === null) return [prefix];
  return Object.entries(node).flatMap(([k, v]) => keysOf(v, prefix ? `${prefix}.${k}` : k));
}

describe("the server's remembered texts", () => {
  it("answers what i18next answers for every key of every namespace and language, twice, with and without values", async () => {
    let checked = 0;
    for (const lng of supportedLngs) {
      const reference = i18next.createInstance();
      await reference.init({ ...i18nConfig, lng, resources, initImmediate: false });
      for (const ns of Object.keys(resources[lng])) {
        const mine = i18nFor(lng).getFixedT(lng, ns);
        const theirs = reference.getFixedT(lng, ns);
        for (const key of keysOf(resources[lng][ns]).map((k) => k.replace(/_(zero|one|two|few|many|other)$/, ""))) {
          const text = String(theirs(key));
          const names = [...text.matchAll(/\{\{\s*(\w+)/g)].map((m) => m[1]);
          const values = Object.fromEntries(names.map((name, i) => [name, [`<${name} $& $1>`, i * 7, `{{${name}}}`][(i + checked) % 3]]));
          // Twice: the first call remembers, the second answers from memory.
          for (let round = 0; round < 2; round++) {
            expect(mine(key), `${lng} ${ns}:${key}`).toBe(theirs(key));
            expect(mine(key, values), `${lng} ${ns}:${key} with values`).toBe(theirs(key, values));
          }
          expect(mine(key, { ...values, count: 5 }), `${lng} ${ns}:${key} with a count`).toBe(theirs(key, { ...values, count: 5 }));
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThan(3000);
  });

  it("keeps languages, namespaces and key prefixes apart", () => {
    expect(getT("en")("list.next")).toBe("Next");
    expect(getT("fr-BE")("list.next")).not.toBe("Next");
    const i18n = i18nFor("en");
    expect(i18n.getFixedT("en", "common")("list.empty")).toBe("Nothing here yet.");
    expect(i18n.getFixedT("en", "common", "list")("next")).toBe("Next");
    expect(i18n.getFixedT("en", "common")("next")).toBe("next"); // no such key at the top of common
    expect(i18n.getFixedT("en", "common", "list")("next")).toBe("Next");
  });

  it("fills values each time, and leaves defaults and missing values to i18next", () => {
    const t = getT("en");
    expect(t("list.page", { page: 1, pages: 3 })).toBe("Page 1 of 3");
    expect(t("list.page", { page: 2, pages: 5 })).toBe("Page 2 of 5");
    expect(t("list.range", { from: 21, to: 40, total: 45 })).toBe("21–40 of 45");
    expect(t("list.range", { from: "$1", to: "{{to}}", total: 45 })).toBe("$1–{{to}} of 45");
    expect(t("missing.key.here", "A default")).toBe("A default");
    expect(t("missing.key.here", "Another default")).toBe("Another default");
    expect(t("missing.key.here", { defaultValue: "Third {{n}}", n: 3 })).toBe("Third 3");
  });
});
