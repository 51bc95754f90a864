/** Limits shown by forms before any validation code loads (decision 021); `schema-helpers.ts` enforces them. */

/** At most this many tags on a room type, an equipment category or a generic equipment. */
export const MAX_TAGS = 3;
