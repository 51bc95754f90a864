// Builds the service worker (app/service-worker/sw.ts, decision 067) into build/client/sw.js: bundled with
// its Workbox modules by esbuild, then Workbox's injectManifest writes in the list of the client build's
// files to precache (each with its revision), so a new build replaces exactly the files that changed.
import { build } from "esbuild";
import { injectManifest } from "workbox-build";

const swDest = "build/client/sw.js";
await build({
  entryPoints: ["app/service-worker/sw.ts"],
  outfile: swDest,
  bundle: true,
  format: "iife",
  target: "es2020",
  minify: true,
  // Workbox's own logging is for development builds only.
  define: { "process.env.NODE_ENV": '"production"' },
  logLevel: "warning",
});
const { count, size, warnings } = await injectManifest({
  swSrc: swDest,
  swDest,
  globDirectory: "build/client",
  // The browser's code and styles and the icon: every page, kept or not, can then start offline.
  globPatterns: ["assets/**/*.{js,css}", "favicon.svg", "icons/*.png"],
  // The dashboard's charts (managers, online) and the sign-up captcha (visitors) are not the day's work.
  globIgnores: ["assets/dashboard-charts-*", "assets/altcha*"],
  // Hashed names change with their content: the name is the revision.
  dontCacheBustURLsMatching: /^assets\//,
  maximumFileSizeToCacheInBytes: 3 * 1024 * 1024,
});
for (const warning of warnings) console.warn(warning);
console.log(`build/client/sw.js written: ${count} files precached (${(size / 1024).toFixed(0)} KB)`);
