/**
 * The printing screen's limits and label lines, apart from the schemas so that the screen's component
 * does not load zod with them (decision 021); `schema.ts` re-exports them.
 */

/** More stickers than this are printed in the background (decision 053): 50 full sheets. */
export const BACKGROUND_THRESHOLD = 1050;
/** The most places one selection list may name. */
export const MAX_SELECTION = 5000;
/** The most stickers one print may hold (a background job's PDF stays a few tens of megabytes). */
export const MAX_STICKERS = 20_000;
/** The most explanatory sticker copies at once: 50 sheets. */
export const MAX_COPIES = 1050;

/** The label lines a QR sticker may carry beside its code, in this order. */
export const LABEL_LINES = ["room", "building", "floor", "code"] as const;
export type LabelLine = (typeof LABEL_LINES)[number];
