import { z } from "zod";
import { Role } from "~/db/enums";
import { idList, requiredText } from "~/lib/schema-helpers";
import { TOKEN_LIFETIMES } from "./constants";

/**
 * API tokens for integrations (issue 50, decision 056). Client-safe; messages are i18n keys.
 */

export { TOKEN_LIFETIMES };

/** What every token's secret starts with, so that it is recognised (secret scanners, logs). */
export const TOKEN_PREFIX = "ct_";

/** A secret's exact shape: the prefix and 32 random bytes in base64url. */
export const TOKEN_PATTERN = /^ct_[A-Za-z0-9_-]{43}$/;

const roleField = z.union([z.literal(Role.FACILITY_MANAGER), z.literal(Role.TECHNICIAN), z.literal(Role.ADMINISTRATOR)], {
  error: "apiTokens:validation.role",
});

/**
 * A new token: its name, role (never above its maker's, checked by the verb), the facilities it reaches
 * (required for a technician's or facility manager's role, as for the people of SPEC.md section 5;
 * optional for an administrator's, whose token otherwise reaches the whole entity) and its lifetime.
 */
export const CreateApiTokenSchema = z
  .object({
    name: requiredText(100, "apiTokens:validation.nameRequired"),
    role: roleField,
    facilityIds: idList(),
    expiresInDays: z
      .number({ error: "apiTokens:validation.expiry" })
      .int("apiTokens:validation.expiry")
      .refine((days) => (TOKEN_LIFETIMES as readonly number[]).includes(days), "apiTokens:validation.expiry"),
  })
  .superRefine((value, ctx) => {
    if (value.role !== Role.ADMINISTRATOR && value.facilityIds.length === 0) {
      ctx.addIssue({ code: "custom", message: "apiTokens:validation.facilityRequired", path: ["facilityIds"] });
    }
  });
export type CreateApiTokenInput = z.input<typeof CreateApiTokenSchema>;

/** Revoking a token (the confirmation form posts its id). */
export const RevokeApiTokenSchema = z.object({
  id: z.number({ error: "apiTokens:errors.notFound" }).int().positive().max(2_147_483_647),
});
export type RevokeApiTokenInput = z.input<typeof RevokeApiTokenSchema>;

/** The state of a token, shown in the list. */
export type ApiTokenState = "active" | "expired" | "revoked";

/** How roles rank: a token's role is never above its maker's (technician < facility manager < administrator). */
export function roleRank(role: number): number {
  return role === Role.ADMINISTRATOR ? 3 : role === Role.FACILITY_MANAGER ? 2 : role === Role.TECHNICIAN ? 1 : 0;
}
