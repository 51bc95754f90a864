/** Entity settings' fixed values, without zod (the settings page renders without the validation code, decision 021). */

/** Suggested explanatory-sticker image size (SPEC.md section 9). */
export const STICKER_SUGGESTED_SIZE = { width: 172, height: 296 } as const;

/** Greetings, in this order (the values of UserLanguage: English 0, French 1, Dutch 2). */
export const GREETING_LANGUAGES = [0, 1, 2] as const;
