import { z } from "zod";
import { CONTROL_CHARACTERS_MESSAGE, hasControlCharacters } from "./text";
import { MAX_TAGS } from "./limits";

/**
 * zod building blocks shared by the domain schemas (client-safe). Messages are i18n keys; missing
 * values (conform turns an empty input into `undefined`) get the same message as empty ones.
 */
export const REQUIRED = "common:validation.required";
export const TOO_LONG = "common:validation.tooLong";
export const INVALID = "common:validation.invalid";

/** Trimmed, non-empty text of at most `max` characters. */
export const requiredText = (max: number, message = REQUIRED, tooLong = TOO_LONG) =>
  z.string({ error: message }).trim().min(1, message).max(max, tooLong).refine(noControl, CONTROL_CHARACTERS_MESSAGE);

/** Text fields refuse control characters (a NUL byte would otherwise reach PostgreSQL). */
export const noControl = (text: string) => !hasControlCharacters(text);

/** Optional text: empty or missing becomes null. */
export const optionalText = (max: number, messages: { invalid?: string; tooLong?: string } = {}) =>
  z
    .string({ error: messages.invalid ?? INVALID })
    .trim()
    .max(max, messages.tooLong ?? TOO_LONG)
    .refine(noControl, CONTROL_CHARACTERS_MESSAGE)
    .nullish()
    .transform((value) => (value ? value : null));

/** A positive integer id; a missing or empty one answers `message`. */
export const idField = (message = REQUIRED) => z.number({ error: message }).int(message).positive(message).max(2_147_483_647, message);

/** A list of ids (checkboxes, multi-selects): missing means none; duplicates are dropped. */
export const idList = () =>
  z
    .array(z.number({ error: INVALID }).int(INVALID).positive(INVALID).max(2_147_483_647, INVALID), { error: INVALID })
    .nullish()
    .transform((ids) => [...new Set(ids ?? [])]);

// ---------------------------------------------------------------------------
// Tags (SPEC.md sections 5 and 9): not empty, at most 3 per item, at most 20 characters each.
// ---------------------------------------------------------------------------
export { MAX_TAGS } from "./limits";
export const MAX_TAG_LENGTH = 20;
export const TAG_EMPTY = "common:tags.empty";
export const TAG_TOO_MANY = "common:tags.tooMany";
export const TAG_TOO_LONG = "common:tags.tooLong";

export const tagField = () =>
  z.string({ error: TAG_EMPTY }).trim().min(1, TAG_EMPTY).max(MAX_TAG_LENGTH, TAG_TOO_LONG).refine(noControl, CONTROL_CHARACTERS_MESSAGE);

/** The tags of an item; missing means none. Duplicates (ignoring case) are dropped. */
export const tagsField = (max = MAX_TAGS) =>
  z
    .array(tagField(), { error: INVALID })
    .max(max, TAG_TOO_MANY)
    .nullish()
    .transform((tags) => {
      const seen = new Set<string>();
      return (tags ?? []).filter((tag) => {
        const key = tag.toLowerCase();
        if (seen.has(key)) return false;
        seen.add(key);
        return true;
      });
    });

/** A checkbox (form "on") or a JSON boolean. */
export const checkbox = () =>
  z
    .union([z.boolean(), z.literal("on"), z.literal("true"), z.literal("false")])
    .nullish()
    .transform((v) => v === true || v === "on" || v === "true");
