/** The lifetimes a token may be given, in days (client-safe, without zod: the screen's options). */
export const TOKEN_LIFETIMES = [7, 30, 90, 180, 365] as const;
export type TokenLifetime = (typeof TOKEN_LIFETIMES)[number];
