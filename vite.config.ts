import { vitePlugin as remix } from "@remix-run/dev";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig, type Rollup } from "vite";
import tsconfigPaths from "vite-tsconfig-paths";
import { chunkReport } from "./scripts/chunk-report";

declare module "@remix-run/node" {
  interface Future {
    v3_singleFetch: true;
  }
}

/**
 * The browser's build: the small modules every page uses (ui primitives, lib helpers, clsx, tailwind-merge, cva,
 * react-i18next, the shell's icons, toaster, error screen and language switch) go into one "ui" chunk
 * instead of a dozen files of a few hundred bytes each (issue #9: fewer requests, better compression;
 * 0.4-1.1 KB gzip less a page). Modules only some pages use (enums, the list parts) stay apart: grouping
 * all list parts in one chunk pulled the table library into the dashboard (+13 KB), so the table and the
 * parts around it are two groups; grouping conform with the form parts, or Rollup's
 * `experimentalMinChunkSize`, made more pages heavier than lighter (measured, dropped).
 */
function manualChunks(id: string) {
  if (/node_modules\/(react|react-dom|scheduler|@remix-run\/[^/]+|react-router|react-router-dom|turbo-stream)\//.test(id)) return "framework";
  if (/node_modules\/(clsx|tailwind-merge|class-variance-authority|react-i18next|html-parse-stringify|void-elements)\//.test(id)) return "ui";
  // text, errors and list-query: small helpers of the forms' schemas and the lists alike. Left to Rollup they
  // went into the list parts' chunk, and every form page loaded the pager and the toolbar with them (1.9 KB).
  if (/\/app\/components\/ui\/|\/app\/lib\/(utils|use-hydrated|intl|text|errors|list-query)\.ts|\/app\/i18n\.ts/.test(id)) return "ui";
  if (/\/app\/components\/shell\/(icons|toaster|screen-error|language-switch)\.tsx/.test(id)) return "ui";
  // The list parts: the pager, its links and addresses and the toolbar (lists, dashboard, notifications),
  // and the table with the table library (lists only), as two chunks instead of eight small files.
  if (/\/app\/components\/lists\/(pager|pager-link|list-url|list-toolbar)\.tsx?$/.test(id)) return "list-parts";
  if (/node_modules\/@tanstack\/|\/app\/components\/lists\/(data-table|cells|styles)\.tsx?$/.test(id)) return "data-table";
  return undefined;
}

/**
 * Build warnings whose cause is in a dependency, dropped so that the build prints only what needs attention:
 * - EMPTY_BUNDLE: the Remix plugin makes a browser chunk of every route, also of resource routes, which have
 *   nothing for the browser (an empty file each; remix-run/remix#9055, not fixed in Remix 2).
 * - INVALID_ANNOTATION in zod: plain comments of zod's that mention `@__PURE__` in their text, which Rollup
 *   reads as misplaced annotations and drops (they are only explanations; zod's real annotations stay).
 * Every other warning goes to Vite's handler.
 */
function onwarn(warning: Rollup.RollupLog, handler: (warning: Rollup.RollupLog) => void) {
  if (warning.code === "EMPTY_BUNDLE") return;
  if (warning.code === "INVALID_ANNOTATION" && /node_modules\/zod\//.test(warning.id ?? "")) return;
  handler(warning);
}

export default defineConfig(({ isSsrBuild }) => ({
  build: isSsrBuild
    ? // The server is one file: the browser's lazy imports (form schemas, dialogs) are inlined there, as nothing
      // on the server gains from splitting them.
      { rollupOptions: { onwarn, output: { inlineDynamicImports: true } } }
    : // No list of a lazy chunk's imports in each chunk that imports it (decision 021).
      { modulePreload: false, minify: "terser", terserOptions: { compress: { passes: 2 }, format: { comments: false } }, rollupOptions: { onwarn, output: { manualChunks } } },
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
