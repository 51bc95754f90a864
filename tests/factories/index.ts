/**
 * Test factories, shared by the tests and the demo seed (`app/db/seed.server.ts`). Each takes
 * `(db, overrides)`, inserts real rows with sensible defaults and returns the inserted row. Tenant
 * rows need `entityId`; missing parents (building of a room, category of an equipment type, ...) are
 * created in the same entity.
 */
export * from "./core";
export * from "./places";
export * from "./equipment";
export * from "./incidents";
export * from "./maintenance";
export * from "./notifications";
export { pngBytes } from "./files";
