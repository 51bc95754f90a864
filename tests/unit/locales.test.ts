import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { supportedLngs } from "../../app/i18n";

/** Every key of every namespace exists, non-empty, in every language; interpolations match. */
const root = path.resolve("app/locales");
const flatten = (obj: Record<string, unknown>, prefix = ""): [string, string][] =>
  Object.entries(obj).flatMap(([k, v]) =>
    v && typeof v === "object" ? flatten(v as Record<string, unknown>, `${prefix}${k}.`) : [[`${prefix}${k}`, String(v)]],
  );
const load = (lng: string, ns: string) =>
  new Map(flatten(JSON.parse(fs.readFileSync(path.join(root, lng, ns), "utf8"))));
const namespaces = new Set(supportedLngs.flatMap((lng) => fs.readdirSync(path.join(root, lng))));
const vars = (text: string) => [...text.matchAll(/{{\s*(\w+)\s*}}/g)].map((m) => m[1]).sort();

describe("translations", () => {
  for (const ns of namespaces) {
    it(`${ns} has the same keys in ${supportedLngs.join(", ")}`, () => {
      const all = supportedLngs.map((lng) => {
        const file = path.join(root, lng, ns);
        expect(fs.existsSync(file), `${lng}/${ns} exists`).toBe(true);
        return load(lng, ns);
      });
      const keys = new Set(all.flatMap((m) => [...m.keys()]));
      for (const key of keys) {
        all.forEach((map, i) => {
          expect(map.get(key), `${supportedLngs[i]}/${ns}: ${key}`).toBeTruthy();
          expect(vars(map.get(key) ?? ""), `${supportedLngs[i]}/${ns}: ${key} placeholders`).toEqual(vars(all[0].get(key) ?? ""));
        });
      }
    });
  }
});
