/**
 * The languages a room type's rating message is written in (0 English, 1 French, 2 Dutch). Kept apart
 * from the zod schema so the room type form can list them without loading zod (decision 021).
 */
export const RATING_LANGUAGES = [0, 1, 2] as const;
