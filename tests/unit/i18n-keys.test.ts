import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { defaultNS } from "../../app/i18n";

/**
 * Every translation key written in the code exists in English (tests/unit/locales.test.ts then
 * checks French and Dutch have the same keys). Scanned in app/**\/*.{ts,tsx} (tests excluded):
 *
 * - `t("key")`, `t("key", { ns: "x" })`, `tCommon("key")` (any name bound to a `t`): a key without a namespace is looked up in the
 *   namespace of the nearest `t` declaration above the call (`useTranslation("x")` and
 *   `useTranslation(["x", "y"])`: x; `useTranslation()` and `getT(locale)`: the default namespace,
 *   common; `getT(locale, "x")`: x). app/i18n.ts sets no fallbackNS, so i18next looks nowhere else;
 * - `i18nKey="ns:key"`;
 * - any string literal that looks like a namespaced key ("rooms:room.archive"): zod messages, domain
 *   errors, toasts, field errors;
 * - un-namespaced domain-error keys ("errors.file.tooLarge") outside t(), and dotted literals given
 *   to a `key`/`messageKey` (toasts, error defaults): looked up in the file's namespaces and common,
 *   as the transports and `useErrorText` do.
 *
 * Keys built at run time cannot be checked whole. For template literals (`t(\`screens.${id}\`)`), the
 * fixed part before the first `${` must lead somewhere that exists (e.g. `screens` is an object in
 * common); the list of such keys is printed by the last test. Keys computed by functions
 * (`t(linkTypeLabelKey(type))`, `t(key)`) are not checked here; their helpers have their own tests.
 * The generated `countries` namespace (app/lib/countries.ts) has no file and is not checked.
 */

type Dict = Record<string, unknown>;
const localesDir = path.resolve("app/locales/en");
const namespaces = new Map<string, Dict>(
  fs
    .readdirSync(localesDir)
    .filter((f) => f.endsWith(".json"))
    .map((f) => [f.replace(/\.json$/, ""), JSON.parse(fs.readFileSync(path.join(localesDir, f), "utf8")) as Dict]),
);
const nsNames = [...namespaces.keys()];
const GENERATED = new Set(["countries"]);

/** Files whose `t` has a namespace and key prefix chosen by the caller: the prefixes the callers pass. */
const DYNAMIC_PREFIXES: Record<string, string[]> = {
  "app/components/forms/files-field.tsx": ["rooms:room.", "equipment:type."],
};

function lookup(ns: string, key: string): unknown {
  return key.split(".").reduce<unknown>((node, part) => (node && typeof node === "object" ? (node as Dict)[part] : undefined), namespaces.get(ns));
}

/** A key exists as a string, an object (returnObjects, prefixes) or a plural family (key_one, key_other). */
function exists(ns: string, key: string): boolean {
  if (lookup(ns, key) !== undefined) return true;
  return ["_zero", "_one", "_two", "_few", "_many", "_other"].some((suffix) => typeof lookup(ns, key + suffix) === "string");
}

function splitKey(full: string): { ns: string | null; key: string } {
  const i = full.indexOf(":");
  if (i > 0 && nsNames.concat([...GENERATED]).includes(full.slice(0, i))) return { ns: full.slice(0, i), key: full.slice(i + 1) };
  return { ns: null, key: full };
}

function walk(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === "locales" ? [] : walk(full);
    return /\.(ts|tsx)$/.test(entry.name) && !/\.test\.(ts|tsx)$/.test(entry.name) ? [full] : [];
  });
}

interface Declaration {
  index: number;
  /** The name the `t` function is bound to (`const { t: tCommon } = useTranslation()`: tCommon). */
  name: string;
  /** The namespace un-prefixed keys resolve in. */
  primary: string;
  all: string[];
}

/** Where the file gets `t` functions from, in source order. */
function declarations(source: string): Declaration[] {
  const found: Declaration[] = [];
  const hook = /(?:const\s*\{([^}]*)\}\s*=\s*)?useTranslation\(\s*(\[[^\]]*\]|"[^"]*"|'[^']*')?\s*[,)]/g;
  for (const m of source.matchAll(hook)) {
    const list = m[2] ? [...m[2].matchAll(/["']([^"']+)["']/g)].map((x) => x[1]) : [defaultNS];
    const name = /(?:^|,)\s*t\s*:\s*([\w$]+)/.exec(m[1] ?? "")?.[1] ?? "t";
    if (list.length) found.push({ index: m.index, name, primary: list[0], all: list });
  }
  for (const m of source.matchAll(/(?:const\s+([\w$]+)\s*=\s*)?\bget(?:Fixed)?T\(\s*[\w.]+\s*(?:,\s*["']([^"']+)["'])?\s*\)/g)) {
    found.push({ index: m.index, name: m[1] ?? "t", primary: m[2] ?? defaultNS, all: [m[2] ?? defaultNS] });
  }
  return found.sort((a, b) => a.index - b.index);
}

/**
 * The namespace of a call of `name`: that of the nearest declaration of `name` before it (the
 * component's own `useTranslation`), else the first of the file, else the default namespace.
 */
function namespaceAt(decls: Declaration[], name: string, index: number): string {
  const named = decls.filter((d) => d.name === name);
  const pool = named.length ? named : decls;
  return (pool.filter((d) => d.index < index).at(-1) ?? pool[0])?.primary ?? defaultNS;
}

interface Finding {
  file: string;
  line: number;
  key: string;
  tried: string[];
}

function scanSource(file: string, source: string): { missing: Finding[]; templates: string[] } {
  const missing: Finding[] = [];
  const templates: string[] = [];
  const lineOf = (index: number) => source.slice(0, index).split("\n").length;
  const decls = declarations(source);
  const declared = [...new Set(decls.flatMap((d) => d.all))];
  const dynamic = DYNAMIC_PREFIXES[file];

  const check = (full: string, index: number, candidates: string[]) => {
    const { ns, key } = splitKey(full);
    if (ns && GENERATED.has(ns)) return;
    const tried = ns ? [`${ns}:${key}`] : candidates.map((c) => (c.includes(":") ? `${c}${key}` : `${c}:${key}`));
    const found = tried.some((t) => {
      const s = splitKey(t);
      return s.ns !== null && exists(s.ns, s.key);
    });
    const line = lineOf(index);
    if (!found && !missing.some((f) => f.line === line && f.key === full)) missing.push({ file, line, key: full, tried });
  };

  // t("key"), i18n.t('key'), with an optional { ns: "x" } in the same call.
  // t("key"), tCommon('key'), `t(\`key\`)`: any function bound to a `t`, with an optional { ns: "x" }.
  const names = [...new Set(["t", ...decls.map((d) => d.name)])].map((n) => n.replace(/\$/g, "\\$")).join("|");
  const tCall = new RegExp(`(?<![\\w$.])(${names})\\(\\s*(?:"([^"\\n]+)"|'([^'\\n]+)'|\`([^\`]*)\`)`, "g");
  for (const m of source.matchAll(tCall)) {
    // The options object right after the key, if any (not consumed: it may hold nested t() calls).
    const options = /^\s*,\s*\{[^}]*\}/.exec(source.slice(m.index + m[0].length))?.[0] ?? "";
    const nsOption = /\bns:\s*["']([^"']+)["']/.exec(options)?.[1];
    const candidates = nsOption ? [nsOption] : dynamic ? dynamic : [namespaceAt(decls, m[1], m.index)];
    const template = m[4];
    if (template !== undefined) {
      // Template literal: check its fixed beginning.
      const fixed = template.split("${")[0];
      if (!template.includes("${")) {
        check(fixed, m.index, candidates);
        continue;
      }
      templates.push(`${file}:${lineOf(m.index)} \`${template}\``);
      const prefix = fixed.includes(".") ? fixed.slice(0, fixed.lastIndexOf(".")) : "";
      if (prefix && !prefix.endsWith(":")) check(prefix, m.index, candidates);
      continue;
    }
    check(m[2] ?? m[3], m.index, candidates);
  }

  // <Trans i18nKey="ns:key" />
  for (const m of source.matchAll(/i18nKey=\{?\s*["']([^"']+)["']/g)) check(m[1], m.index, [namespaceAt(decls, "t", m.index)]);

  // Namespaced literals anywhere (zod messages, domain errors, toasts). Those inside t() are checked above too.
  const nsPattern = new RegExp(`["'\`]((?:${nsNames.join("|")}):[A-Za-z0-9_.-]+)["'\`]`, "g");
  for (const m of source.matchAll(nsPattern)) check(m[1], m.index, []);

  // Un-namespaced domain-error keys outside t(): the file's namespaces, then common.
  const errorKeys = /(?<![\w$]\(\s*)["'](errors\.[A-Za-z0-9_.-]+)["']/g;
  const namedKeys = /\b\w*[kK]ey\s*[:=]\s*["']([a-z][\w-]*(?:\.[\w-]+)+)["']/g;
  for (const m of [...source.matchAll(errorKeys), ...source.matchAll(namedKeys)]) {
    check(m[1], m.index, [...new Set([...(dynamic ?? declared), defaultNS])]);
  }
  return { missing, templates };
}

const files = walk(path.resolve("app")).map((f) => path.relative(process.cwd(), f).split(path.sep).join("/"));
const results = files.map((file) => scanSource(file, fs.readFileSync(file, "utf8")));

describe("translation keys used in the code", () => {
  it("finds the code's keys (the scan itself works)", () => {
    expect(files.length).toBeGreaterThan(50);
    const counted = files.reduce((n, file) => n + (fs.readFileSync(file, "utf8").match(/\bt\(/g)?.length ?? 0), 0);
    expect(counted).toBeGreaterThan(300);
  });

  it("all exist in English", () => {
    const missing = results.flatMap((r) => r.missing);
    const report = missing.map((m) => `${m.file}:${m.line} ${m.key} (looked in ${m.tried.join(", ")})`).join("\n");
    expect(missing, `missing keys:\n${report}`).toEqual([]);
  });

  it("resolves keys the way i18next does", () => {
    const source = [
      'const { t } = useTranslation("rooms");',
      't("room.archive"); t("room.noSuchKey"); t("common:toast.created"); t("tags.add", { ns: "common" });',
      'const key = "rooms:validation.nope"; throw new NotFoundError("errors.file.tooLarge");',
      't(`view.${x}`); t(`nowhere.${x}`); t("bell.unread", { count: 2 });',
    ].join("\n");
    const { missing, templates } = scanSource("example.tsx", source);
    expect(missing.map((m) => m.key).sort()).toEqual(["bell.unread", "nowhere", "room.noSuchKey", "rooms:validation.nope"]);
    expect(templates).toHaveLength(2);
    // In shell, the plural family bell.unread_one/_other makes "bell.unread" a key.
    expect(scanSource("x.tsx", 'useTranslation("shell"); t("bell.unread", { count: 1 });').missing).toEqual([]);
    // Without useTranslation arguments, the default namespace (common).
    expect(scanSource("x.tsx", 'useTranslation(); t("toast.created"); t("room.archive");').missing.map((m) => m.key)).toEqual(["room.archive"]);
  });

  it("lists the template-literal keys it could only check in part", () => {
    const templates = results.flatMap((r) => r.templates);
    expect(templates.length).toBeGreaterThan(0);
    console.info(`template-literal keys (prefix checked):\n${templates.join("\n")}`);
  });
});
