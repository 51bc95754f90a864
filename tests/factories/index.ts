/**
 * What tests build data with: the production factories (app/seed/factories, also used by the demo
 * seed) plus test-only helpers (images, cascaded trees).
 */
export * from "~/seed/factories";
export { pngBytes } from "./files";
