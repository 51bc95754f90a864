import fs from "node:fs";
import path from "node:path";
import type { Plugin } from "vite";

/** One chunk of the browser build as `bench/js-weight.ts` reads it. */
export interface ChunkReportEntry {
  file: string;
  name: string;
  isEntry: boolean;
  isDynamicEntry: boolean;
  imports: string[];
  dynamicImports: string[];
  /** Module id (node_modules path or app file) to its minified size in this chunk, in bytes. */
  modules: Record<string, number>;
}

/**
 * Writes `build/chunk-report.json` after the browser build: every JavaScript chunk with the modules
 * it holds and their rendered (minified) size, so `npm run bench:js` can say what a chunk contains
 * (a rollup-visualizer-like breakdown, without a dependency). Outside `build/client`: not served.
 */
export function chunkReport(): Plugin {
  let outDir = "";
  let ssr = false;
  return {
    name: "caretaker-chunk-report",
    apply: "build",
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
      ssr = Boolean(config.build.ssr);
    },
    writeBundle(_options, bundle) {
      if (ssr) return;
      const chunks: ChunkReportEntry[] = [];
      for (const item of Object.values(bundle)) {
        if (item.type !== "chunk") continue;
        const root = process.cwd() + path.sep;
        chunks.push({
          file: item.fileName,
          name: item.name,
          isEntry: item.isEntry,
          isDynamicEntry: item.isDynamicEntry,
          imports: item.imports,
          dynamicImports: item.dynamicImports,
          modules: Object.fromEntries(
            Object.entries(item.modules)
              .filter(([, m]) => m.renderedLength > 0)
              .map(([id, m]) => [id.replace(/^\0/, "").replace(root, "").split("?")[0], m.renderedLength]),
          ),
        });
      }
      fs.writeFileSync(path.join(outDir, "..", "chunk-report.json"), JSON.stringify(chunks, null, 1));
    },
  };
}
