import { z } from "zod";
import { meetsPasswordPolicy, PASSWORD_MAX_LENGTH } from "~/lib/password-policy";

/**
 * Users: the signed-in user's own settings and password (SPEC.md sections 3, 5, 7). Client-safe;
 * messages are i18n keys.
 */

const REQUIRED = "settings:validation.required";
const TOO_LONG = "settings:validation.tooLong";

export { meetsPasswordPolicy, PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from "~/lib/password-policy";

/**
 * The password policy as a zod schema, for every form and body that sets a new password (settings,
 * password reset): required ("Field is required"), then the policy ("Weak password"; show
 * `settings:password.policyHint` beside the field). Not trimmed: spaces are part of a password.
 */
export const PasswordPolicy = z
  .string({ error: REQUIRED })
  .min(1, REQUIRED)
  .refine((value) => value === "" || meetsPasswordPolicy(value), { message: "settings:password.weak" });

const requiredPassword = z.string({ error: REQUIRED }).min(1, REQUIRED).max(PASSWORD_MAX_LENGTH, TOO_LONG);

/** PATCH /api/users/{id}/password body, and the `changePassword` input (with the user id). */
export const ChangePasswordSchema = z.object({
  oldPassword: requiredPassword,
  newPassword: PasswordPolicy,
});
export type ChangePasswordBody = z.infer<typeof ChangePasswordSchema>;

/** The "update password" dialog: old, new and repeat, all required; the repeat must equal the new one. */
export const PasswordFormSchema = z
  .object({
    oldPassword: requiredPassword,
    newPassword: PasswordPolicy,
    repeatPassword: z.string({ error: REQUIRED }).min(1, REQUIRED),
  })
  .superRefine(
    (value, ctx) => {
      const v = (value ?? {}) as Partial<typeof value>;
      if (typeof v.repeatPassword === "string" && v.repeatPassword && v.repeatPassword !== v.newPassword) {
        ctx.addIssue({ code: "custom", message: "settings:password.mismatch", path: ["repeatPassword"] });
      }
    },
    { when: () => true },
  );

/** `changePassword` input. `keepSessionId`: the caller's own login session, which stays signed in. */
export const ChangePasswordInputSchema = ChangePasswordSchema.extend({
  userId: z.number().int().positive(),
  keepSessionId: z.uuid().optional(),
});
export type ChangePasswordInput = z.input<typeof ChangePasswordInputSchema>;

/** User language (SPEC.md section 3): English 0, French 1, Dutch 2. */
export const UserLanguageSchema = z.union([z.literal(0), z.literal(1), z.literal(2)], {
  error: "settings:validation.language",
});

const PrioritySchema = z.union([z.literal(0), z.literal(1), z.literal(2), z.literal(3)], {
  error: "settings:validation.invalid",
});

/** The account tab of /settings (the picture file travels beside it, see the route). */
export const accountShape = {
  name: z.string({ error: "settings:validation.name" }).trim().min(1, "settings:validation.name").max(100, TOO_LONG),
  surname: z
    .string({ error: "settings:validation.surname" })
    .trim()
    .min(1, "settings:validation.surname")
    .max(100, TOO_LONG),
  language: UserLanguageSchema,
  receiveNotification: z.boolean({ error: "settings:validation.invalid" }).default(false),
  notificationSettings: z
    .object({
      priorities: z.array(PrioritySchema).max(4).default([]),
      buildingIds: z.array(z.number({ error: "settings:validation.invalid" }).int().positive()).max(1000).default([]),
    })
    .default({ priorities: [], buildingIds: [] }),
};

export const AccountFormSchema = z.object({
  ...accountShape,
  removePicture: z.boolean({ error: "settings:validation.invalid" }).default(false),
});
export type AccountFormInput = z.infer<typeof AccountFormSchema>;

/**
 * `updateAccount` input: the signed-in user's own settings. `updatePicture` false keeps the picture;
 * true replaces it with `newPicture` (null removes it). `userId`, when given, must be the actor.
 */
export const UpdateAccountSchema = z.object({
  ...accountShape,
  userId: z.number().int().positive().optional(),
  updatePicture: z.boolean().default(false),
  newPicture: z
    .object({ bytes: z.custom<Uint8Array>((value) => value instanceof Uint8Array, { error: "settings:files.invalidData" }), name: z.string().max(255).default("picture") })
    .nullish(),
});
export type UpdateAccountInput = z.input<typeof UpdateAccountSchema>;

export const SetLanguageSchema = z.object({ language: UserLanguageSchema });
export type SetLanguageInput = z.input<typeof SetLanguageSchema>;
