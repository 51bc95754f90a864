/**
 * What the incident type screens show, without zod (pages load the form schema only when the form is
 * first used, decision 021); the schema module re-exports them.
 */

/** The languages a name is kept in, in the order the form shows them. */
export const NAME_LANGUAGES = ["en", "fr", "nl"] as const;
export type NameLanguage = (typeof NAME_LANGUAGES)[number];
export const NAME_FIELDS = { en: "nameEn", fr: "nameFr", nl: "nameNl" } as const;

export const MAX_CHECKLIST_ITEMS = 20;
