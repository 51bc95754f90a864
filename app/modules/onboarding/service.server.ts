import { and, eq, isNull, sql } from "drizzle-orm";
import { isUniqueViolation } from "~/db/errors.server";
import type { Db } from "~/db/client.server";
import { Role, UserStatus, type UserLanguage } from "~/db/enums";
import { emailVerificationTokens, entities, users } from "~/db/schema";
import { userLanguageByLocale } from "~/i18n";
import type { JobQueue } from "~/core/jobs.server";
import { withTx } from "~/core/unit-of-work.server";
import { sendEmailJob } from "~/mail/jobs.server";
import { parseInput } from "~/lib/validation";
import { ConflictError, DomainError, isDomainError } from "~/lib/errors";
import { logger } from "~/lib/logger.server";
import { signupVerificationMail } from "~/mail/templates.server";
import { hashPassword } from "~/modules/auth/password.server";
import { hashToken, newOpaqueToken } from "~/modules/auth/tokens.server";
import { AccountSchema, SignUpSchema, VerifyEmailSchema, type AccountInput, type CaptchaInput, type SignUpInput } from "./schema";
import { AUDIT } from "~/core/audit-actions";

/**
 * Onboarding (SPEC.md section 2: register a new entity and an account in two steps): a visitor
 * creates an entity and its administrator (role 3, status INACTIVE); a link sent by email
 * activates the account. There is no tenant or actor yet, so the verbs take `deps`, not a
 * ServiceContext.
 */
export interface OnboardingDeps {
  db: Db;
  /** Base address of the links in the mails (config APP_URL). */
  appUrl: string;
  /** Queues a mail; called only after the transaction committed. */
  /** The verification mail is a job written in the sign-up transaction. */
  queue: JobQueue | null;
  /** Checks the captcha answer posted with the last step. */
  verifyCaptcha: (input: CaptchaInput | undefined) => Promise<boolean>;
  now?: () => number;
}

/** The verification link stays valid this long. */
export const VERIFICATION_TTL_HOURS = 72;

export const emailInUse = () =>
  new ConflictError("onboarding:signup.emailInUse", "EMAIL_IN_USE", { email: ["onboarding:signup.emailInUse"] });
export const captchaFailed = () => new DomainError("CAPTCHA_FAILED", "onboarding:signup.captchaFailed", 400);
export const invalidToken = () => new DomainError("INVALID_TOKEN", "onboarding:reset.invalidToken", 400);
const couldNotSave = () => new DomainError("SAVE_FAILED", "onboarding:errors.couldNotSave", 500);
const mailFailed = () => new DomainError("MAIL_FAILED", "onboarding:errors.tryLater", 503);

async function emailTaken(db: Db, email: string): Promise<boolean> {
  // tenant-scope: across entities, e-mail addresses are unique over all entities
  const [row] = await db
    .select({ id: users.id })
    .from(users)
    .where(and(sql`lower(${users.email}) = ${email.trim().toLowerCase()}`, isNull(users.archivedAt)))
    .limit(1);
  return Boolean(row);
}

/**
 * Step 1 (Continue): validates the account and checks that the email is free. Writes nothing; the
 * final check is `signUp`'s.
 */
export async function checkAccount(deps: Pick<OnboardingDeps, "db">, input: unknown): Promise<AccountInput> {
  const account = parseInput(AccountSchema, input);
  if (await emailTaken(deps.db, account.email)) throw emailInUse();
  return account;
}

/**
 * Finish: checks both steps and the captcha, creates the entity and its administrator (INACTIVE)
 * with a verification token in one transaction, then queues the verification mail. If the mail
 * cannot be queued, the registration is undone so the visitor can simply try again.
 */
export async function signUp(deps: OnboardingDeps, input: SignUpInput): Promise<{ entityId: number; userId: number; email: string }> {
  const { account, entity, captcha: answer } = parseInput(SignUpSchema, input);
  if (!(await deps.verifyCaptcha(answer))) throw captchaFailed();
  if (await emailTaken(deps.db, account.email)) throw emailInUse();

  const now = deps.now?.() ?? Date.now();
  const passwordHash = await hashPassword(account.password);
  const token = newOpaqueToken();

  let created: { entityId: number; userId: number };
  try {
    created = await withTx({ db: deps.db, queue: deps.queue }, async ({ db: tx }, effects) => {
      const [row] = await tx
        .insert(entities)
        .values({
          name: entity.entityName,
          vatNumber: entity.vatNumber,
          streetName: entity.streetName,
          streetNumber: entity.streetNumber,
          suffix: entity.suffix ?? null,
          buildingFloor: entity.buildingFloor ?? null,
          additionalInfo: entity.additionalInfo ?? null,
          postalCode: entity.postalCode,
          city: entity.city,
          country: entity.country,
          billingSameAsAddress: true,
        })
        .returning({ id: entities.id });
      const [user] = await tx
        .insert(users)
        .values({
          entityId: row.id,
          email: account.email,
          passwordHash,
          name: account.name,
          surname: account.surname,
          role: Role.ADMINISTRATOR,
          language: userLanguageByLocale[account.language] as UserLanguage,
          status: UserStatus.INACTIVE,
        })
        .returning({ id: users.id });
      await tx.insert(emailVerificationTokens).values({
        entityId: row.id,
        userId: user.id,
        email: account.email,
        tokenHash: hashToken(token),
        createdAt: new Date(now),
        expiresAt: new Date(now + VERIFICATION_TTL_HOURS * 3_600_000),
      });
      const link = `${deps.appUrl.replace(/\/+$/, "")}/signup/verify?token=${encodeURIComponent(token)}`;
      const mail = signupVerificationMail(account.language, {
        name: account.name,
        entityName: entity.entityName,
        link,
        hours: VERIFICATION_TTL_HOURS,
      });
      // In the transaction: a registration whose mail cannot be queued is not kept, so the visitor
      // can simply try again.
      await effects.enqueue(sendEmailJob, { to: account.email, ...mail }).catch((error) => {
        logger().error({ err: error }, "sign-up: queueing the verification mail failed");
        throw mailFailed();
      });
      await effects.audit({ action: AUDIT.entity.signUp, recordType: "entity", recordId: row.id, entityId: row.id });
      return { entityId: row.id, userId: user.id };
    });
  } catch (error) {
    if (isDomainError(error)) throw error;
    if (isUniqueViolation(error)) throw emailInUse();
    logger().error({ err: error }, "sign-up: saving failed");
    throw couldNotSave();
  }
  return { ...created, email: account.email };
}

/**
 * Follows the link of the verification mail: a valid, unused, unexpired token activates its user
 * (INACTIVE → ACTIVE) and is spent. Anything else is "Invalid token".
 */
export async function verifyEmail(deps: Pick<OnboardingDeps, "db" | "now">, input: unknown): Promise<{ email: string }> {
  let token: string;
  try {
    token = parseInput(VerifyEmailSchema, input).token;
  } catch {
    throw invalidToken();
  }
  const now = deps.now?.() ?? Date.now();
  const outcome = await withTx({ db: deps.db }, async ({ db: tx }, effects) => {
    // tenant-scope: across entities, a verification token is found by its hash; the row gives the entity
    const [row] = await tx
      .select()
      .from(emailVerificationTokens)
      .where(eq(emailVerificationTokens.tokenHash, hashToken(token)))
      .for("update")
      .limit(1);
    if (!row || row.usedAt || row.expiresAt.getTime() <= now) return null;
    const [user] = await tx
      .select({ id: users.id, email: users.email, status: users.status, archivedAt: users.archivedAt })
      .from(users)
      .where(and(eq(users.id, row.userId), eq(users.entityId, row.entityId)))
      .limit(1);
    // The address changed since the mail was sent, or the account is gone or disabled.
    if (!user || user.archivedAt || user.status === UserStatus.DISABLED || user.email.toLowerCase() !== row.email.toLowerCase()) {
      return null;
    }
    await tx.update(emailVerificationTokens).set({ usedAt: new Date(now) }).where(and(eq(emailVerificationTokens.id, row.id), eq(emailVerificationTokens.entityId, row.entityId)));
    if (user.status === UserStatus.INACTIVE) {
      await tx.update(users).set({ status: UserStatus.ACTIVE, updatedAt: new Date(now) }).where(and(eq(users.id, user.id), eq(users.entityId, row.entityId)));
    }
    await effects.audit({ action: AUDIT.account.verifyEmail, recordType: "user", recordId: user.id, entityId: row.entityId });
    return { email: user.email };
  });
  if (!outcome) throw invalidToken();
  return outcome;
}
