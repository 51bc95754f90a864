/**
 * The whole Drizzle schema (drizzle.config.ts points here). One file per area.
 * Enumerations (numeric values stored in smallint columns) live in `../enums`.
 */
export * from "./entities";
export * from "./files";
export * from "./users";
export * from "./facilities";
export * from "./equipment";
export * from "./incident-types";
export * from "./incidents";
export * from "./maintenance";
export * from "./notifications";
export * from "./reports";
export * from "./data-jobs";
export * from "./audit";
export * from "./job-queue";
export * from "./dashboard";
export * from "./changes";
export * from "./printing";
export * from "./webhooks";
export * from "./api-tokens";
export * from "./service-levels";
export * from "./time-costs";
export * from "./service-level-alerts";
export * from "./offline-writes";
