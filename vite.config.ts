import { vitePlugin as remix } from "@remix-run/dev";
import tailwindcss from "@tailwindcss/vite";
import path from "node:path";
import { defineConfig, type Plugin } from "vite";
import tsconfigPaths from "vite-tsconfig-paths";
import { chunkReport } from "./scripts/chunk-report";

declare module "@remix-run/node" {
  interface Future {
    v3_singleFetch: true;
  }
}

/**
 * The browser's build: the small modules every page uses (ui primitives, lib helpers, clsx, cva,
 * react-i18next, the shell's icons, toaster, error screen and language switch, the `import()` helper) go into one "ui" chunk
 * instead of a dozen files of a few hundred bytes each (issue #9: fewer requests, better compression;
 * 0.4-1.1 KB gzip less a page). Modules only some pages use (enums, the list parts) stay apart: grouping
 * all list parts in one chunk pulled the table library into the dashboard (+13 KB), so the table and the
 * parts around it are two groups; grouping conform with the form parts, or Rollup's
 * `experimentalMinChunkSize`, made more pages heavier than lighter (measured, dropped).
 */
function manualChunks(id: string) {
  if (/node_modules\/(react|react-dom|scheduler|@remix-run\/[^/]+|react-router|react-router-dom|turbo-stream)\//.test(id)) return "framework";
  if (/node_modules\/(clsx|class-variance-authority|react-i18next|html-parse-stringify|void-elements)\//.test(id)) return "ui";
  // text, errors and list-query: small helpers of the forms' schemas and the lists alike. Left to Rollup they
  // went into the list parts' chunk, and every form page loaded the pager and the toolbar with them (1.9 KB).
  if (/\/app\/components\/ui\/|\/app\/lib\/(utils|use-hydrated|intl|text|errors|list-query)\.ts|\/app\/i18n\.ts/.test(id)) return "ui";
  if (/\/app\/components\/shell\/(icons|toaster|screen-error|language-switch)\.tsx/.test(id)) return "ui";
  if (id === "\0vite/preload-helper.js") return "ui";
  // The list parts: the pager, its links and addresses and the toolbar (lists, dashboard, notifications),
  // and the table with the table library (lists only), as two chunks instead of eight small files.
  if (/\/app\/components\/lists\/(pager|pager-link|list-url|list-toolbar)\.tsx?$/.test(id)) return "list-parts";
  if (/node_modules\/@tanstack\/|\/app\/components\/lists\/(data-table|cells|styles)\.tsx?$|\/app\/lib\/store-selector\.ts$/.test(id)) return "data-table";
  return undefined;
}

/**
 * Modules the browser's build replaces (the server keeps the packages):
 * - the `useSyncExternalStore` shim by React 18's own hook (app/lib/sync-external-store.ts), and for the
 *   table its selector hook by app/lib/store-selector.ts, so that the table and the charts share no chunk;
 * - Vite's `import()` helper by a shorter one in the ui chunk (0.6 → 0.2 KB gzip). With
 *   `modulePreload: false` (decision 034) Vite gives it only a lazy chunk's stylesheets, which it loads
 *   and waits for. It drops Vite's `vite:preloadError` event, which the app does not listen to: a failed
 *   import rejects as it would without the helper.
 */
function browserModules(): Plugin {
  const syncExternalStore = path.resolve("app/lib/sync-external-store.ts");
  const storeSelector = path.resolve("app/lib/store-selector.ts");
  const preloadHelper = "\0vite/preload-helper.js";
  let base = "/";
  return {
    name: "caretaker:browser-modules",
    enforce: "pre",
    configResolved(config) {
      base = config.base;
    },
    load(id, options) {
      if (id !== preloadHelper || options?.ssr) return null;
      const code = `const seen = {};
export const __vitePreload = (load, deps) => Promise.all((deps || []).map((dep) => {
  const href = ${JSON.stringify(base)} + dep;
  if (!dep.endsWith(".css") || seen[href] || document.querySelector(\`link[href="\${href}"]\`)) return;
  seen[href] = true;
  const link = Object.assign(document.createElement("link"), { rel: "stylesheet", href });
  const loaded = new Promise((resolve, reject) => { link.onload = resolve; link.onerror = () => reject(new Error("Unable to preload CSS for " + href)); });
  document.head.appendChild(link);
  return loaded;
})).then(load);`;
      return { code, moduleSideEffects: false };
    },
    resolveId(source, importer, options) {
      if (options?.ssr) return null;
      // React 18 has useSyncExternalStore: the shim's fallback for React 16 and 17 is not needed.
      if (source === "use-sync-external-store/shim" || source === "use-sync-external-store/shim/index.js") return syncExternalStore;
      if (/^use-sync-external-store\/shim\/with-selector(\.js)?$/.test(source) && importer?.includes("/@tanstack/")) return storeSelector;
      return null;
    },
  };
}

export default defineConfig(({ isSsrBuild }) => ({
  build: isSsrBuild
    ? {}
    : // No list of a lazy chunk's imports in each chunk that imports it (decision 034).
      { modulePreload: false, minify: "terser", terserOptions: { compress: { passes: 2 }, format: { comments: false } }, rollupOptions: { output: { manualChunks } } },
  server: {
    watch: { ignored: ["**/data/**", "**/test-results/**", "**/tmp/**"] },
  },
  optimizeDeps: { exclude: ["i18next-fs-backend"] },
  ssr: {
    // Loaded at run time from node_modules (fonts, wasm, native bindings).
    external: ["pdfkit", "@electric-sql/pglite", "@node-rs/argon2", "pg", "pino", "nodemailer", "sharp"],
  },
  plugins: [
    tailwindcss(),
    browserModules(),
    remix({
      future: {
        v3_fetcherPersist: true,
        v3_relativeSplatPath: true,
        v3_throwAbortReason: true,
        v3_singleFetch: true,
        v3_lazyRouteDiscovery: true,
        v3_routeConfig: true,
      },
    }),
    tsconfigPaths(),
    chunkReport(),
  ],
}));
