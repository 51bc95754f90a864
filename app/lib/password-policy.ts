/**
 * The password policy of SPEC.md sections 5 and 9, in one place for sign-up, password reset and the
 * settings dialog: at least 8 characters with a special character, a digit, a lower-case and an
 * upper-case letter. Letters may be accented; a special character is anything but a letter, a digit
 * or white space. One rule per message, so a form can show every rule a password breaks. Client-safe.
 */
export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 128;

export const passwordRules = [
  { key: "onboarding:password.minLength", test: (v: string) => v.length >= PASSWORD_MIN_LENGTH },
  { key: "onboarding:password.special", test: (v: string) => /[^\p{L}\p{N}\s]/u.test(v) },
  { key: "onboarding:password.digit", test: (v: string) => /\p{Nd}/u.test(v) },
  { key: "onboarding:password.lowercase", test: (v: string) => /\p{Ll}/u.test(v) },
  { key: "onboarding:password.uppercase", test: (v: string) => /\p{Lu}/u.test(v) },
] as const;

/** The keys of the rules `password` breaks (empty when it follows the policy). */
export function passwordProblems(password: string): string[] {
  const problems: string[] = passwordRules.filter((rule) => !rule.test(password)).map((rule) => rule.key);
  if (password.length > PASSWORD_MAX_LENGTH) problems.push("onboarding:password.maxLength");
  return problems;
}

export function isStrongPassword(password: string): boolean {
  return passwordProblems(password).length === 0;
}

/** Alias used by the settings forms. */
export const meetsPasswordPolicy = isStrongPassword;
