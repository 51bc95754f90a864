import { and, eq, isNull, sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { UserStatus } from "~/db/enums";
import { passwordResetTokens, refreshTokens, users } from "~/db/schema";
import type { JobQueue } from "~/core/jobs.server";
import { withTx } from "~/core/unit-of-work.server";
import { parseInput } from "~/lib/validation";
import { DomainError, ValidationError } from "~/lib/errors";
import { logger } from "~/lib/logger.server";
import { type LimitStore, RateLimiter } from "~/lib/rate-limit.server";
import { sendEmailJob } from "~/mail/jobs.server";
import { mailLocale, passwordResetMail } from "~/mail/templates.server";
import { passwordProblems, RequestPasswordResetSchema, ResetPasswordSchema } from "~/modules/onboarding/schema";
import { hashPassword } from "./password.server";
import { hashToken, newOpaqueToken } from "./tokens.server";

/**
 * Password reset (SPEC.md section 7: POST /users/password, POST /users/password/reset), shared by
 * the /password/reset screen and the REST routes.
 *
 * - Asking for a reset always answers the same, whether or not the address has an account; mails
 *   to one address are rate-limited (no mail bombing).
 * - The link carries an opaque token (stored hashed) that expires after an hour and works once.
 * - Setting the new password spends every open reset token of the user, revokes all their refresh
 *   tokens (every session ends), and activates a not-yet-validated account: the link proved the
 *   address, as the sign-up link would have.
 */
export interface PasswordResetDeps {
  db: Db;
  appUrl: string;
  /** The mail goes out as a job written in the same transaction as the token. */
  queue: JobQueue | null;
  limits?: ResetLimits;
  now?: () => number;
}

export interface ResetLimits {
  /** Mails per email address. */
  perEmail: RateLimiter;
  /** Requests per client address. */
  perClient: RateLimiter;
}

export const RESET_TTL_MINUTES = 60;

export function createResetLimits(perEmail = 3, perClient = 30, windowMs = 15 * 60 * 1000, store?: LimitStore): ResetLimits {
  return {
    perEmail: new RateLimiter(perEmail, windowMs, { store, scope: "reset.email" }),
    perClient: new RateLimiter(perClient, windowMs, { store, scope: "reset.client" }),
  };
}

export const invalidResetToken = () => new DomainError("INVALID_TOKEN", "onboarding:reset.invalidToken", 400);
export const weakPassword = (problems: string[] = []) =>
  new DomainError("WEAK_PASSWORD", "onboarding:reset.weakPassword", 400, problems.length ? { newPassword: problems } : undefined);

/**
 * Starts a reset: when the address belongs to an account (not archived), stores a token and queues
 * the mail in the user's language. Returns nothing either way. Only an invalid body is an error.
 */
export async function requestPasswordReset(deps: PasswordResetDeps, input: unknown, client?: string): Promise<void> {
  const { email } = parseInput(RequestPasswordResetSchema, input);
  const now = deps.now?.() ?? Date.now();
  if (deps.limits) {
    const clientOk = await deps.limits.perClient.hit(client ?? "unknown");
    const emailOk = await deps.limits.perEmail.hit(email);
    if (!clientOk || !emailOk) {
      logger().warn({ client, limited: !clientOk ? "client" : "email" }, "password reset: rate limited, no mail sent");
      return;
    }
  }
  // tenant-scope: across entities, e-mail addresses are unique over all entities and a reset is asked before any entity is known
  const [user] = await deps.db
    .select({ id: users.id, entityId: users.entityId, email: users.email, name: users.name, language: users.language })
    .from(users)
    .where(and(sql`lower(${users.email}) = ${email}`, isNull(users.archivedAt)))
    .limit(1);
  if (!user) return;

  const token = newOpaqueToken();
  const link = `${deps.appUrl.replace(/\/+$/, "")}/password/reset?token=${encodeURIComponent(token)}`;
  const mail = passwordResetMail(mailLocale(user.language), { name: user.name, link, minutes: RESET_TTL_MINUTES });
  try {
    await withTx({ db: deps.db, queue: deps.queue, entityId: user.entityId, actor: null }, async (tx, effects) => {
      await tx.db.insert(passwordResetTokens).values({
        entityId: user.entityId,
        userId: user.id,
        tokenHash: hashToken(token),
        createdAt: new Date(now),
        expiresAt: new Date(now + RESET_TTL_MINUTES * 60_000),
      });
      await effects.enqueue(sendEmailJob, { to: user.email, ...mail });
    });
  } catch (error) {
    // The answer stays the same (it must not tell whether the address exists).
    logger().error({ err: error, userId: user.id }, "password reset: queueing the mail failed");
  }
}

/** Whether a reset token can still be used (the screen shows "Invalid token" instead of the form). */
export async function isResetTokenUsable(deps: Pick<PasswordResetDeps, "db" | "now">, token: string | null | undefined): Promise<boolean> {
  if (!token || token.length > 200) return false;
  const now = deps.now?.() ?? Date.now();
  // tenant-scope: across entities, a reset token is found by its hash; the row gives the entity
  const [row] = await deps.db
    .select({ usedAt: passwordResetTokens.usedAt, expiresAt: passwordResetTokens.expiresAt, archivedAt: users.archivedAt })
    .from(passwordResetTokens)
    .innerJoin(users, eq(users.id, passwordResetTokens.userId))
    .where(eq(passwordResetTokens.tokenHash, hashToken(token)))
    .limit(1);
  return Boolean(row && !row.usedAt && !row.archivedAt && row.expiresAt.getTime() > now);
}

/**
 * Sets a new password with a reset token. Errors: "Invalid token" (unknown, used, expired, or the
 * account is archived) and "Weak password" (with the broken rules as field errors). The token is
 * checked first and is only spent when the password is accepted.
 */
export async function resetPassword(deps: Pick<PasswordResetDeps, "db" | "now">, input: unknown): Promise<void> {
  let body: { token: string; newPassword: string };
  try {
    body = parseInput(ResetPasswordSchema, input);
  } catch (error) {
    if (error instanceof ValidationError && error.fieldErrors?.newPassword && !error.fieldErrors.token) throw weakPassword();
    throw invalidResetToken();
  }
  const now = deps.now?.() ?? Date.now();
  const problems = passwordProblems(body.newPassword);
  // Hash before the transaction (argon2 takes tens of milliseconds); only when it will be used.
  const passwordHash = problems.length ? null : await hashPassword(body.newPassword);

  const outcome = await withTx({ db: deps.db }, async ({ db: tx }, effects) => {
    // tenant-scope: across entities, a reset token is found by its hash; the row gives the entity
    const [row] = await tx
      .select()
      .from(passwordResetTokens)
      .where(eq(passwordResetTokens.tokenHash, hashToken(body.token)))
      .for("update")
      .limit(1);
    if (!row || row.usedAt || row.expiresAt.getTime() <= now) return "invalid" as const;
    const [user] = await tx
      .select({ id: users.id, status: users.status, archivedAt: users.archivedAt })
      .from(users)
      .where(and(eq(users.id, row.userId), eq(users.entityId, row.entityId)))
      .limit(1);
    if (!user || user.archivedAt) return "invalid" as const;
    if (!passwordHash) return "weak" as const;

    const at = new Date(now);
    await tx
      .update(users)
      .set({
        passwordHash,
        updatedAt: at,
        ...(user.status === UserStatus.INACTIVE ? { status: UserStatus.ACTIVE } : {}),
      })
      .where(and(eq(users.id, user.id), eq(users.entityId, row.entityId)));
    // tenant-scope: scoped by the user id of the token's own user (read above in the token's entity)
    await tx
      .update(passwordResetTokens)
      .set({ usedAt: at })
      .where(and(eq(passwordResetTokens.userId, user.id), isNull(passwordResetTokens.usedAt)));
    // tenant-scope: scoped by the user id of the token's own user (read above in the token's entity)
    await tx
      .update(refreshTokens)
      .set({ revokedAt: at })
      .where(and(eq(refreshTokens.userId, user.id), isNull(refreshTokens.revokedAt)));
    await effects.audit({ action: "resetPassword", recordType: "user", recordId: user.id, entityId: row.entityId });
    return "done" as const;
  });
  if (outcome === "invalid") throw invalidResetToken();
  if (outcome === "weak") throw weakPassword(problems);
}
