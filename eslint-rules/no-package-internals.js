/**
 * caretaker/no-package-internals: an import names a package's published entry points only.
 *
 * A bare specifier with a sub-path (`pkg/sub`, `@scope/pkg/sub`) is refused when
 * - the package's package.json has an `exports` map and no key of it matches `./sub` (exactly, through a
 *   `*` pattern or a folder key ending in "/"), or the matching key maps to null;
 * - the package has no `exports` map and the sub-path goes through one of its build or source folders
 *   (dist/, src/, build/, esm/, cjs/): those are files of a release, not an interface.
 * Checked: import and export declarations, `import()` (in code and in types), `require()` and
 * `require.resolve()` with a string.
 * Relative paths, Node's modules, the app's own aliases (`~/`, `#tests/`) and Vite's `virtual:` modules are
 * not packages; a bundler's query (`?worker`, `?url`) is left out before the check. A package that is not
 * installed is left to the type checker.
 *
 * Vite's own virtual modules (ids `\0vite/...`, such as its `import()` helper `\0vite/preload-helper.js`) are
 * internal to Vite too: any string, template or regular expression naming one is refused, so that a plugin
 * in vite.config.ts cannot resolve, load or place them.
 */
import fs from "node:fs";
import { builtinModules } from "node:module";
import path from "node:path";

const INTERNAL_FOLDER = /(^|\/)(dist|src|build|esm|cjs)(\/|$)/;
/** The ids of Vite's internal virtual modules start with a NUL character and `vite/`. */
const VITE_INTERNAL_ID = /^\0vite\//;
/** A regular expression's source that matches such ids (`\0vite/`, `\x00vite\/`, `\u0000vite`). */
const VITE_INTERNAL_PATTERN = /\\(0|x00|u0000|u\{0\})vite(\\?\/|$)/;
const builtins = new Set(builtinModules);
const manifests = new Map();

/** The package name and sub-path of a bare specifier, or null for anything that is not a package. */
function parse(specifier) {
  const bare = specifier.split("?")[0];
  if (!bare || /^[./~#]/.test(bare) || bare.startsWith("node:") || bare.startsWith("virtual:")) return null;
  const parts = bare.split("/");
  const nameLength = bare.startsWith("@") ? 2 : 1;
  if (parts.length < nameLength || parts.slice(0, nameLength).some((p) => p === "")) return null;
  const name = parts.slice(0, nameLength).join("/");
  if (builtins.has(name) || builtins.has(bare)) return null;
  return { name, subpath: parts.slice(nameLength).join("/") };
}

/** The package.json of `name` as Node would find it from `dir` (nearest node_modules upwards), or null. */
function manifest(name, dir) {
  for (let at = dir; ; at = path.dirname(at)) {
    const file = path.join(at, "node_modules", name, "package.json");
    if (manifests.has(file)) return manifests.get(file);
    if (fs.existsSync(file)) {
      let json = null;
      try {
        json = JSON.parse(fs.readFileSync(file, "utf8"));
      } catch {
        /* unreadable: left alone */
      }
      manifests.set(file, json);
      return json;
    }
    if (path.dirname(at) === at) return null;
  }
}

/** Whether `exports` publishes `./subpath`. */
function exported(exportsField, subpath) {
  const wanted = `./${subpath}`;
  // A string, an array or an object of conditions publishes the package's root only.
  if (typeof exportsField !== "object" || exportsField === null || Array.isArray(exportsField)) return false;
  const keys = Object.keys(exportsField);
  if (!keys.some((k) => k.startsWith("."))) return false;
  if (keys.includes(wanted)) return exportsField[wanted] !== null;
  // The most specific pattern (longest part before its "*") or folder key decides; a null target refuses.
  let best = null;
  for (const key of keys) {
    const star = key.indexOf("*");
    const matches =
      star >= 0
        ? wanted.startsWith(key.slice(0, star)) && wanted.endsWith(key.slice(star + 1)) && wanted.length >= key.length - 1
        : key.endsWith("/") && wanted.startsWith(key);
    const weight = star >= 0 ? star : key.length;
    if (matches && (best === null || weight > best.weight)) best = { key, weight };
  }
  return best !== null && exportsField[best.key] !== null;
}

export default {
  meta: {
    type: "problem",
    docs: { description: "import a package's published entry points only, never its internal files" },
    messages: {
      notExported: "`{{specifier}}` is not an entry point of {{name}} (not in its package.json `exports`): use what the package publishes.",
      internalFolder: "`{{specifier}}` reaches into {{name}}'s release files: use what the package publishes.",
      viteInternal: "`\\0{{id}}` is one of Vite's internal modules: use Vite's published options and plugin hooks instead.",
    },
    schema: [],
  },
  create(context) {
    const dir = path.dirname(path.resolve(context.cwd ?? process.cwd(), context.filename ?? context.getFilename()));
    const check = (node) => {
      if (!node || node.type !== "Literal" || typeof node.value !== "string") return;
      const specifier = node.value;
      const found = parse(specifier);
      if (!found || found.subpath === "") return;
      const json = manifest(found.name, dir);
      if (!json) return;
      if (json.exports !== undefined) {
        if (!exported(json.exports, found.subpath)) context.report({ node, messageId: "notExported", data: { specifier, name: found.name } });
      } else if (INTERNAL_FOLDER.test(found.subpath)) {
        context.report({ node, messageId: "internalFolder", data: { specifier, name: found.name } });
      }
    };
    const isRequire = (callee) =>
      (callee.type === "Identifier" && callee.name === "require") ||
      (callee.type === "MemberExpression" && !callee.computed && callee.object.type === "Identifier" && callee.object.name === "require" && callee.property.name === "resolve");
    const checkViteId = (node, text) => {
      if (typeof text === "string" && VITE_INTERNAL_ID.test(text)) context.report({ node, messageId: "viteInternal", data: { id: text.slice(1) } });
    };
    return {
      Literal(node) {
        if (node.regex) {
          if (VITE_INTERNAL_PATTERN.test(node.regex.pattern)) context.report({ node, messageId: "viteInternal", data: { id: "vite/..." } });
        } else checkViteId(node, node.value);
      },
      TemplateElement: (node) => checkViteId(node, node.value.cooked),
      ImportDeclaration: (node) => check(node.source),
      ExportNamedDeclaration: (node) => check(node.source),
      ExportAllDeclaration: (node) => check(node.source),
      ImportExpression: (node) => check(node.source),
      // `typeof import("pkg/sub")` in a type
      TSImportType: (node) => check(node.argument?.type === "TSLiteralType" ? node.argument.literal : node.argument),
      CallExpression(node) {
        if (isRequire(node.callee)) check(node.arguments[0]);
      },
    };
  },
};
