import { ESLint } from "eslint";
import { describe, expect, it } from "vitest";

/**
 * Vite's own virtual modules (`\0vite/...`) are internal to Vite, like a package's unlisted files
 * (decision 019): lint refuses a plugin in vite.config.ts, or code in app/ and server/, that names one.
 * Files are linted as if they sat at the given path; they are never written.
 */
const eslint = new ESLint();

async function ours(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return result.messages.filter((m) => m.severity === 2 && m.ruleId === "caretaker/no-package-internals").map((m) => m.message);
}

const plugin = (body: string) => `import type { Plugin } from "vite";\nexport const replaced = (): Plugin => ({\n  name: "fixture",\n${body}\n});\n`;

describe("lint keeps Vite's internal modules out of reach", () => {
  it.each([
    ["a plugin that loads Vite's import() helper", plugin(`  load(id) {\n    return id === "\\0vite/preload-helper.js" ? "export const __vitePreload = (f) => f();" : null;\n  },`)],
    ["a plugin that resolves to it", plugin(`  resolveId(source) {\n    return source === "x" ? "\\0vite/modulepreload-polyfill.js" : null;\n  },`)],
    ["a template naming it", plugin(`  resolveId(source) {\n    return source === "x" ? \`\\0vite/\${source}\` : null;\n  },`)],
    ["a regular expression matching its ids", plugin(`  load(id) {\n    return /^\\0vite\\//.test(id) ? "" : null;\n  },`)],
    ["a chunk rule placing it", `export const manualChunks = (id: string) => (id === "\\0vite/preload-helper.js" ? "ui" : undefined);\n`],
  ])("refuses %s", async (_what, code) => {
    expect((await ours("vite.config.ts", code)).join("\n")).toMatch(/`\\0vite\/.*` is one of Vite's internal modules/);
  });

  it("refuses it in the app's code too", async () => {
    expect(await ours("server/fixture.ts", `export const helper = "\\0vite/preload-helper.js";\n`)).toHaveLength(1);
  });

  it.each([
    ["a plugin's own virtual module", plugin(`  resolveId(source) {\n    return source === "virtual:fixture" ? "\\0virtual:fixture" : null;\n  },`)],
    ["a module id in Vite's published form", `export const isVirtual = (id: string) => id.startsWith("\\0") || id.includes("/node_modules/vite/");\n`],
    ["a word about Vite", `export const note = "vite/preload-helper is Vite's";\n`],
  ])("allows %s", async (_what, code) => {
    expect(await ours("vite.config.ts", code)).toEqual([]);
  });

  it("passes the project's own vite.config.ts", async () => {
    const [result] = await eslint.lintFiles(["vite.config.ts"]);
    expect(result.messages.filter((m) => m.severity === 2)).toEqual([]);
  });
});
