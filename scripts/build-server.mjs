// Compiles server.ts (and the server/ middlewares it imports) to build/server.js, so production runs
// plain JavaScript: no TypeScript loader at run time. Packages stay external (node_modules).
import { build } from "esbuild";

await build({
  entryPoints: ["server.ts"],
  outfile: "build/server.js",
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20.19",
  packages: "external",
  sourcemap: true,
  logLevel: "warning",
});
console.log("build/server.js written");
