import zlib from "node:zlib";
import compression from "compression";

/**
 * The levels for answers compressed as they are sent (decision 019): brotli quality 3 and gzip level 4,
 * where the `compression` middleware's defaults are 4 and 6: a lower level keeps the compressor's share of
 * a page's CPU well under a tenth for a few percent more bytes (`npm run bench:compression`). Static files
 * are compressed once at build time at the highest levels (scripts/precompress.mjs, server/precompressed.ts).
 */
export const DYNAMIC_COMPRESSION = { brotliQuality: 3, gzipLevel: 4 } as const;

/**
 * Dynamic answers (pages, data requests, API answers) compressed by the `compression` middleware at the
 * levels above. Server-sent events are left alone: compression would hold their events back.
 */
export function dynamicCompression() {
  return compression({
    level: DYNAMIC_COMPRESSION.gzipLevel,
    brotli: { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: DYNAMIC_COMPRESSION.brotliQuality } },
    filter: (req, res) => !String(res.getHeader("Content-Type") ?? "").includes("text/event-stream") && compression.filter(req, res),
  });
}
