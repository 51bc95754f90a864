import { z } from "zod";
import { roleNeedsLinks } from "~/core/actor";
import { ROLE_VALUES } from "~/db/enums";
import { meetsPasswordPolicy, PASSWORD_MAX_LENGTH } from "~/lib/password-policy";
import { requiredText } from "~/lib/schema-helpers";

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
      priorities: z.array(PrioritySchema, { error: "settings:validation.invalid" }).max(4, "settings:validation.invalid").default([]),
      buildingIds: z
        .array(
          z
            .number({ error: "settings:validation.invalid" })
            .int("settings:validation.invalid")
            .positive("settings:validation.invalid")
            .max(2_147_483_647, "settings:validation.invalid"),
          { error: "settings:validation.invalid" },
        )
        .max(1000, "settings:validation.invalid")
        .default([]),
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

// ---------------------------------------------------------------------------
// User management (SPEC.md sections 3-8): /users, /add-user, /update-user/{id} and the
// REST calls of section 7. One shape for the forms and the bodies.
// ---------------------------------------------------------------------------

/** Role (SPEC.md section 3): one of the enumeration's values. */
export const RoleSchema = z.literal(ROLE_VALUES, { error: "users:validation.role" });

/** User status: inactive (not yet validated) 1, active 2, disabled 3. */
export const UserStatusSchema = z.union([z.literal(1), z.literal(2), z.literal(3)], { error: "users:validation.status" });

/** The status a manager may set (the toggle): active 2 or disabled 3. */
export const NewStatusSchema = z.union([z.literal(2), z.literal(3)], { error: "users:validation.status" });

const linkedIds = () =>
  z
    .array(z.number({ error: "users:validation.invalid" }).int("users:validation.invalid").positive("users:validation.invalid").max(2_147_483_647, "users:validation.invalid"), {
      error: "users:validation.invalid",
    })
    .max(5000, "users:validation.invalid")
    .nullish()
    .transform((ids) => [...new Set(ids ?? [])].sort((a, b) => a - b));

/**
 * The facilities and buildings a technician or facility manager reaches (SPEC.md section 6): a
 * facility grants all its current and future buildings. Administrators reach the whole entity and
 * keep no links.
 */
export const LinkedObjectsSchema = z
  .object({ facilityIds: linkedIds(), buildingIds: linkedIds() }, { error: "users:validation.invalid" })
  .nullish()
  .transform((value) => ({ facilityIds: value?.facilityIds ?? [], buildingIds: value?.buildingIds ?? [] }));
export type LinkedObjects = z.output<typeof LinkedObjectsSchema>;

const email = z
  .string({ error: "users:validation.emailRequired" })
  .trim()
  .toLowerCase()
  .min(1, "users:validation.emailRequired")
  .max(254, "users:validation.emailInvalid")
  .pipe(z.email({ error: "users:validation.emailInvalid" }));

const name = requiredText(100, "users:validation.nameRequired");
const surname = requiredText(100, "users:validation.surnameRequired");

const notificationSettings = accountShape.notificationSettings;

/**
 * Technicians and facility managers need at least one facility or building (SPEC.md section 5): the roles
 * that do not reach the whole entity (the permission table). The forms
 * check it with the other fields, not after them (`when`), so they show every error on the first submit;
 * the verb checks it again (the REST calls' `LINK_REQUIRED`) with what the links name.
 */
export function linksRequired(value: unknown, ctx: z.RefinementCtx): void {
  const v = (value ?? {}) as { role?: unknown; linkedObjects?: { facilityIds?: unknown; buildingIds?: unknown } | null };
  if (typeof v.role !== "number" || !roleNeedsLinks(v.role)) return;
  const count = (ids: unknown) => (Array.isArray(ids) ? ids.length : 0);
  if (count(v.linkedObjects?.facilityIds) + count(v.linkedObjects?.buildingIds) === 0) {
    ctx.addIssue({ code: "custom", message: "users:validation.linkRequired", path: ["linkedObjects"] });
  }
}
const always = { when: () => true };

/**
 * POST /api/users/ and /add-user: the new user receives an email with a single-use link to set a
 * password, and stays "inactive (not yet validated)" until then. `linkedEntityId`, when a REST
 * client sends it, must be the caller's entity.
 */
export const CreateUserSchema = z.object({
  name,
  surname,
  email,
  role: RoleSchema,
  language: UserLanguageSchema.default(0),
  linkedEntityId: z.number({ error: "users:validation.invalid" }).int().positive().max(2_147_483_647).nullish(),
  linkedObjects: LinkedObjectsSchema,
  receiveNotification: z.boolean({ error: "users:validation.invalid" }).default(false),
  notificationSettings,
});
export type CreateUserInput = z.input<typeof CreateUserSchema>;

/** The add form (/add-user): the same fields, with the links' requirement checked alongside the others. */
export const CreateUserFormSchema = CreateUserSchema.superRefine(linksRequired, always);

/**
 * PUT /api/users/{id} and /update-user/{id}. The email is the login and is not changed here;
 * `status` may keep the current one or toggle active/disabled (as PATCH status does);
 * `updatePicture` false keeps the picture, true replaces it with `newPicture` (null removes it).
 */
export const UpdateUserSchema = z.object({
  name,
  surname,
  role: RoleSchema,
  language: UserLanguageSchema,
  status: UserStatusSchema.nullish(),
  receiveNotification: z.boolean({ error: "users:validation.invalid" }).default(false),
  linkedObjects: LinkedObjectsSchema,
  notificationSettings,
  updatePicture: z.boolean({ error: "users:validation.invalid" }).default(false),
  newPicture: z
    .object({
      bytes: z.custom<Uint8Array>((value) => value instanceof Uint8Array, { error: "settings:files.invalidData" }),
      name: z.string().max(255).default("picture"),
    })
    .nullish(),
});
export type UpdateUserInput = z.input<typeof UpdateUserSchema>;

/**
 * PUT /api/users/{id} on one's own id by someone who does not manage users (a technician): the same
 * body, of which only the own settings are saved (name, surname, language, notifications, picture).
 * `role`, `status` and `linkedObjects` may be left out; when sent they must be the current ones.
 */
export const UpdateOwnProfileSchema = UpdateUserSchema.extend({
  role: RoleSchema.nullish(),
  linkedObjects: LinkedObjectsSchema.optional(),
});
export type UpdateOwnProfileInput = z.input<typeof UpdateOwnProfileSchema>;

/**
 * PUT /api/users/{id} body (SPEC.md section 7): the fields of UpdateUserSchema, with the picture as
 * the other REST routes take files: `updatePicture` true replaces it with `newPicture`, a base64 data
 * URL, or removes it when `newPicture` is null; `oldPicture` is accepted and ignored. `linkedObjects`
 * may be left out when a person updates their own profile (they keep theirs).
 */
export const PutUserBodySchema = UpdateUserSchema.omit({ newPicture: true }).extend({
  linkedObjects: LinkedObjectsSchema.optional(),
  oldPicture: z.string({ error: "users:validation.invalid" }).max(2048, "users:validation.invalid").nullish(),
  newPicture: z.string({ error: "settings:files.invalidData" }).nullish(),
});

/** PATCH /api/users/{id}/status and the status toggle. */
export const SetUserStatusSchema = z.object({ newStatus: NewStatusSchema });
export type SetUserStatusInput = z.input<typeof SetUserStatusSchema>;

/**
 * DELETE /api/users/{id}?incidentsUserId=&plannedMaintenanceUserId= and the archive dialog: who takes
 * over the Pending and In Progress incidents, and the planned maintenance and pending tasks; 0 (the
 * default) leaves them unassigned. `confirmName` is the retyped full name of the dialog (the REST
 * call sends none).
 */
export const ArchiveUserSchema = z.object({
  incidentsUserId: z.number({ error: "users:validation.invalid" }).int("users:validation.invalid").min(0, "users:validation.invalid").max(2_147_483_647, "users:validation.invalid").default(0),
  plannedMaintenanceUserId: z.number({ error: "users:validation.invalid" }).int("users:validation.invalid").min(0, "users:validation.invalid").max(2_147_483_647, "users:validation.invalid").default(0),
  confirmName: z.string({ error: "common:archive.wrongName" }).max(300, "common:archive.wrongName").optional(),
});
export type ArchiveUserInput = z.input<typeof ArchiveUserSchema>;

export { fullName } from "./constants";
