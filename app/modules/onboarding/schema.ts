import { z } from "zod";
import { supportedLngs } from "~/i18n";
import { COUNTRY_CODES, PREFERRED_COUNTRIES, type CountryCode } from "~/lib/countries";
import { isStrongPassword, PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH, passwordProblems, passwordRules } from "~/lib/password-policy";

export { COUNTRY_CODES, PREFERRED_COUNTRIES, isStrongPassword, PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH, passwordProblems, passwordRules };
export type { CountryCode };

/**
 * Input schemas of sign-up (onboarding) and password reset, shared by the forms (conform, in the
 * browser and on the server) and the services. Client-safe. Messages are i18n keys of the
 * "onboarding" namespace; the transport translates them.
 */

// ---------------------------------------------------------------------------------------------
// Password policy (SPEC.md sections 5 and 9)
// ---------------------------------------------------------------------------------------------

/** A new password: required, then every rule of the policy reported at once. */
function newPassword(requiredKey: string) {
  return z.string({ error: requiredKey }).superRefine((value, ctx) => {
    for (const key of passwordProblems(value)) ctx.addIssue({ code: "custom", message: key });
  });
}

const MISMATCH = "onboarding:password.mismatch";

// ---------------------------------------------------------------------------------------------
// Common fields
// ---------------------------------------------------------------------------------------------

const TOO_LONG = "onboarding:validation.tooLong";

function requiredText(requiredKey: string, max: number) {
  return z.string({ error: requiredKey }).trim().min(1, requiredKey).max(max, TOO_LONG);
}

function optionalText(max: number) {
  return z
    .string()
    .trim()
    .max(max, TOO_LONG)
    .optional()
    .transform((v) => (v ? v : undefined));
}

/** Email: required, then a valid format; stored trimmed and lower-cased. */
export const EmailSchema = z
  .string({ error: "onboarding:validation.emailRequired" })
  .trim()
  .min(1, "onboarding:validation.emailRequired")
  .max(254, "onboarding:validation.emailInvalid")
  .pipe(z.email({ error: "onboarding:validation.emailInvalid" }))
  .transform((v) => v.toLowerCase());

/** Maximum lengths, also used to clip unvalidated drafts. */
export const FIELD_MAX = {
  name: 100,
  surname: 100,
  email: 254,
  entityName: 150,
  vatNumber: 30,
  streetName: 150,
  streetNumber: 20,
  suffix: 20,
  buildingFloor: 100,
  additionalInfo: 300,
  postalCode: 20,
  city: 100,
  country: 2,
} as const;

// ---------------------------------------------------------------------------------------------
// Sign-up, step 1: the administrator's account
// ---------------------------------------------------------------------------------------------

export const LanguageSchema = z.enum(supportedLngs, { error: "onboarding:validation.languageRequired" });

const accountFields = {
  name: requiredText("onboarding:validation.nameRequired", FIELD_MAX.name),
  surname: requiredText("onboarding:validation.surnameRequired", FIELD_MAX.surname),
  email: EmailSchema,
  language: LanguageSchema,
};

/** Step 1 as the service takes it. */
export const AccountSchema = z
  .object({
    ...accountFields,
    password: newPassword("onboarding:validation.passwordRequired"),
    confirmPassword: z.string({ error: "onboarding:validation.confirmPasswordRequired" }),
  })
  .refine((v) => v.password === v.confirmPassword, {
    path: ["confirmPassword"],
    message: MISMATCH,
    when: (payload) => matchable(payload.value),
  });
export type AccountInput = z.infer<typeof AccountSchema>;

/**
 * Step 1 as the form posts it. When the password was already given (the user came back from step
 * 2), both password fields may stay empty to keep it.
 */
export function accountFormSchema(options: { passwordKept?: boolean } = {}) {
  if (!options.passwordKept) return AccountSchema;
  return z
    .object({
      ...accountFields,
      password: newPassword("onboarding:validation.passwordRequired").optional(),
      confirmPassword: z.string().optional(),
    })
    .refine((v) => v.password === v.confirmPassword, {
      path: ["confirmPassword"],
      message: MISMATCH,
      when: (payload) => {
        const value = payload.value as { password?: unknown; confirmPassword?: unknown } | undefined;
        return value?.password !== undefined || value?.confirmPassword !== undefined;
      },
    });
}

/** The `when` of a match check: only once both values are strings (the required errors come first). */
function matchable(value: unknown): boolean {
  const v = value as Record<string, unknown> | undefined;
  if (!v) return false;
  const keys = Object.keys(v).filter((k) => /password/i.test(k));
  return keys.length >= 2 && keys.every((k) => typeof v[k] === "string");
}

// ---------------------------------------------------------------------------------------------
// Sign-up, step 2: the entity (organisation)
// ---------------------------------------------------------------------------------------------

/** ISO 3166-1 alpha-2 codes; names come from `Intl.DisplayNames` in the page's language. */

export const EntitySchema = z.object({
  entityName: requiredText("onboarding:validation.entityNameRequired", FIELD_MAX.entityName),
  vatNumber: requiredText("onboarding:validation.vatNumberRequired", FIELD_MAX.vatNumber),
  streetName: requiredText("onboarding:validation.streetNameRequired", FIELD_MAX.streetName),
  streetNumber: requiredText("onboarding:validation.streetNumberRequired", FIELD_MAX.streetNumber),
  suffix: optionalText(FIELD_MAX.suffix),
  buildingFloor: optionalText(FIELD_MAX.buildingFloor),
  additionalInfo: optionalText(FIELD_MAX.additionalInfo),
  postalCode: requiredText("onboarding:validation.postalCodeRequired", FIELD_MAX.postalCode),
  city: requiredText("onboarding:validation.cityRequired", FIELD_MAX.city),
  country: z.enum(COUNTRY_CODES, { error: "onboarding:validation.countryRequired" }),
});
export type EntityInput = z.infer<typeof EntitySchema>;
export const ENTITY_FIELDS = Object.keys(EntitySchema.shape) as (keyof EntityInput)[];

/** The captcha answer posted with the last step: the ALTCHA payload, or the no-script question. */
export const CaptchaSchema = z.object({
  altcha: z.string().max(20_000).optional(),
  questionToken: z.string().max(1_000).optional(),
  answer: z.string().max(20).optional(),
});
export type CaptchaInput = z.infer<typeof CaptchaSchema>;

/** What `signUp` takes: both steps and the captcha. */
export const SignUpSchema = z.object({
  account: AccountSchema,
  entity: EntitySchema,
  captcha: CaptchaSchema,
});
export type SignUpInput = z.input<typeof SignUpSchema>;

export const VerifyEmailSchema = z.object({
  token: z.string({ error: "onboarding:reset.invalidToken" }).trim().min(1, "onboarding:reset.invalidToken").max(200, "onboarding:reset.invalidToken"),
});

// ---------------------------------------------------------------------------------------------
// Password reset (SPEC.md section 7: POST /users/password, POST /users/password/reset)
// ---------------------------------------------------------------------------------------------

/** Step 1: the address to send the link to. */
export const RequestPasswordResetSchema = z.object({ email: EmailSchema });
export type RequestPasswordResetInput = z.infer<typeof RequestPasswordResetSchema>;

/** The API's body; the policy is checked by the service (answering "Weak password"). */
export const ResetPasswordSchema = z.object({
  token: z.string({ error: "onboarding:reset.invalidToken" }).max(200, "onboarding:reset.invalidToken"),
  newPassword: z.string({ error: "onboarding:reset.weakPassword" }).max(1_000, "onboarding:reset.weakPassword"),
});
export type ResetPasswordInput = z.infer<typeof ResetPasswordSchema>;

/**
 * Step 2 as the form posts it: the precise policy messages beside the field, "Weak password" above
 * the form (a form-level error), and the confirmation must match.
 */
export const ResetPasswordFormSchema = z
  .object({
    token: z.string({ error: "onboarding:reset.invalidToken" }),
    newPassword: newPassword("onboarding:validation.passwordRequired"),
    confirmPassword: z.string({ error: "onboarding:validation.confirmPasswordRequired" }),
  })
  .refine((v) => isStrongPassword(v.newPassword), {
    path: [],
    message: "onboarding:reset.weakPassword",
    when: (payload) => typeof (payload.value as { newPassword?: unknown } | undefined)?.newPassword === "string",
  })
  .refine((v) => v.newPassword === v.confirmPassword, {
    path: ["confirmPassword"],
    message: MISMATCH,
    when: (payload) => matchable(payload.value),
  });
