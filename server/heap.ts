import v8 from "node:v8";

/** V8's default heap growth lets the old space reach 4 times what survives a collection under load. */
export const DEFAULT_HEAP_GROWING_PERCENT = 60;

/**
 * How much the JavaScript heap may grow past what survives a full collection before the next one, from
 * `HEAP_GROWING_PERCENT` (an integer 0-400; 0 leaves V8's own heuristics). Anything else is a
 * configuration error, reported by name.
 */
export function heapGrowingPercent(value: string | undefined): number {
  if (value === undefined || value.trim() === "") return DEFAULT_HEAP_GROWING_PERCENT;
  const n = /^\s*\d{1,3}\s*$/.test(value) ? Number(value) : NaN;
  if (!(n >= 0 && n <= 400)) {
    throw Object.assign(new Error(`HEAP_GROWING_PERCENT must be a whole number from 0 to 400, not "${value}"`), { name: "ConfigError" });
  }
  return n;
}

/**
 * Under load V8 sizes the old space by how fast the pages allocate, not by what they keep, so resident
 * memory climbs far above its idle figure. Letting the heap grow by a bounded share of the live size keeps
 * it near idle, for some more CPU per page (more full collections; decision 019).
 * Read by V8 at each collection, so setting it at start-up works without a command-line flag.
 */
export function limitHeapGrowth(value = process.env.HEAP_GROWING_PERCENT): number {
  const percent = heapGrowingPercent(value);
  if (percent > 0) v8.setFlagsFromString(`--heap-growing-percent=${percent}`);
  return percent;
}
