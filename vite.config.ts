import { vitePlugin as remix } from "@remix-run/dev";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig } from "vite";
import tsconfigPaths from "vite-tsconfig-paths";
import { chunkReport } from "./scripts/chunk-report";

declare module "@remix-run/node" {
  interface Future {
    v3_singleFetch: true;
  }
}

export default defineConfig({
  server: {
    watch: { ignored: ["**/data/**", "**/test-results/**", "**/tmp/**"] },
  },
  optimizeDeps: { exclude: ["i18next-fs-backend"] },
  ssr: {
    // Loaded at run time from node_modules (fonts, wasm, native bindings).
    external: ["pdfkit", "@electric-sql/pglite", "@node-rs/argon2", "pg", "pino", "nodemailer"],
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
});
