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
 * react-i18next, the shell's icons, toaster, error screen and language switch) go into one "ui" chunk
 * instead of a dozen files of a few hundred bytes each (issue #9: fewer requests, better compression;
 * 0.4-1.1 KB gzip less a page). Modules only some pages use (enums, the list parts) stay apart: grouping
 * the list parts pulled the table library into the dashboard (+13 KB).
 */
function manualChunks(id: string) {
  if (/node_modules\/(react|react-dom|scheduler|@remix-run\/[^/]+|react-router|react-router-dom|turbo-stream)\//.test(id)) return "framework";
  if (/node_modules\/(clsx|class-variance-authority|react-i18next|html-parse-stringify|void-elements)\//.test(id)) return "ui";
  if (/\/app\/components\/ui\/|\/app\/lib\/(utils|use-hydrated|intl)\.ts|\/app\/i18n\.ts/.test(id)) return "ui";
  if (/\/app\/components\/shell\/(icons|toaster|screen-error|language-switch)\.tsx/.test(id)) return "ui";
  return undefined;
}

/**
 * Modules the browser's build replaces (the server keeps the packages): `react-i18next` by
 * app/lib/react-translation.ts, a small hook over the browser's translator (decision 033, amendment), and
 * the `useSyncExternalStore` shim by React's own hook (app/lib/sync-external-store.ts).
 */
function browserModules(): Plugin {
  const target = path.resolve("app/lib/react-translation.ts");
  const syncExternalStore = path.resolve("app/lib/sync-external-store.ts");
  return {
    name: "caretaker:browser-modules",
    enforce: "pre",
    resolveId(source, _importer, options) {
      if (options?.ssr) return null;
      if (source === "react-i18next") return target;
      // React 18 has useSyncExternalStore: the shim's fallback for React 16 and 17 is not needed.
      if (source === "use-sync-external-store/shim" || source === "use-sync-external-store/shim/index.js") return syncExternalStore;
      return null;
    },
  };
}

export default defineConfig(({ isSsrBuild }) => ({
  build: isSsrBuild
    ? {}
    : { minify: "terser", terserOptions: { compress: { passes: 2 }, format: { comments: false } }, rollupOptions: { output: { manualChunks } } },
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
