/**
 * Row factories, shared by the demo seed (app/seed/seed.server.ts) and the tests (through
 * tests/factories). Each takes `(db, overrides)`, inserts real rows with sensible defaults and
 * returns the inserted row. Tenant rows need `entityId`; missing parents (building of a room,
 * category of an equipment type, ...) are created in the same entity. Where a service verb exists,
 * the demo seed calls the verb instead.
 */
export * from "./core";
export * from "./places";
export * from "./equipment";
export * from "./incidents";
export * from "./maintenance";
export * from "./notifications";
export * from "./files";
