/**
 * Limits of time and material entries (client-safe, no zod: the forms read them for their inputs).
 * The database holds the same bounds (time_entries_minutes_check, numeric(12,3) and numeric(12,2)).
 */

/** One entry is at most a day; longer work is several entries. */
export const MAX_ENTRY_MINUTES = 1440;
/** Well inside numeric(12,3); a larger number is a typing mistake. */
export const MAX_QUANTITY = 100_000;
/** Well inside numeric(12,2), in the entity's currency. */
export const MAX_UNIT_COST = 1_000_000;
export const MATERIAL_DESCRIPTION_MAX = 200;
export const TIME_NOTE_MAX = 1000;
/** The currency of an entity that has not chosen another (issue 62: EUR by default; entities.currency). */
export const DEFAULT_CURRENCY = "EUR";
/** The currencies an administrator may choose (ISO 4217; the column accepts any three capital letters). */
export const CURRENCIES = ["EUR", "USD", "GBP", "CHF"] as const;
export type Currency = (typeof CURRENCIES)[number];
/** Well inside numeric(10,2): an hourly rate above it is a typing mistake. */
export const MAX_HOURLY_RATE = 10_000;
