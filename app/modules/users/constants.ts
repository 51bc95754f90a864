/**
 * What the user screens show, without zod (pages load the form schemas only when a form is first used,
 * decision 021); the schema module re-exports them.
 */
/** The full name a user is shown (and retyped in the archive dialog) by. */
export const fullName = (user: { name: string; surname: string }) => `${user.name} ${user.surname}`.trim();
