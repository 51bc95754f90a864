import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Database } from "~/db/client.server";
import { UserLanguage, UserStatus } from "~/db/enums";
import { passwordResetTokens, refreshTokens, users } from "~/db/schema";
import { type DomainError, ValidationError } from "~/lib/errors";
import { type MailPayload as Mail } from "~/mail/jobs.server";
import { createEntity, createUser, type CreateUserOverrides } from "#tests/factories";
import { createTestDatabase } from "#tests/test-db";
import { createTestServices, type TestServices } from "#tests/test-context";
import { rejectionOf } from "#tests/service-helpers";
import { createResetLimits, isResetTokenUsable, requestPasswordReset, resetPassword, RESET_TTL_MINUTES, type PasswordResetDeps } from "./password-reset.server";
import { authenticate, login, refresh, type AuthDeps } from "./service.server";

/**
 * Password reset is reached without a session: there is no tenant or actor to check, so no
 * wrong-entity/wrong-role case here. A token only ever changes the password of its own user.
 */
let database: Database;
let entityId: number;
let services: TestServices;
let deps: PasswordResetDeps;
const NEW_PASSWORD = "N3w-password!";

beforeAll(async () => {
  database = await createTestDatabase();
  services = await createTestServices(database);
  entityId = (await createEntity(database.db)).id;
});
afterAll(async () => {
  await services?.close();
  await database?.close();
});
beforeEach(async () => {
  await services.clearJobs();
  deps = { db: database.db, appUrl: "https://caretaker.example", queue: services.queue };
});

const authDeps = (): AuthDeps => ({ db: database.db, jwtSecret: "j".repeat(40), accessTtlSeconds: 900, refreshTtlDays: 30 });
const tokenOf = (mail: Mail) => new URL(mail.link!).searchParams.get("token")!;
let n = 0;
const email = () => `reset-${++n}@example.test`;

async function mailFor(address: string, overrides: Omit<Partial<CreateUserOverrides>, "entityId" | "email"> = {}) {
  const user = await createUser(database.db, { entityId, email: address, ...overrides });
  await requestPasswordReset(deps, { email: address });
  return { user, token: tokenOf((await services.mails()).at(-1)!) };
}

describe("requestPasswordReset", () => {
  it("mails a link in the user's language, with a token stored hashed that expires in an hour", async () => {
    const address = email();
    const user = await createUser(database.db, { entityId, email: address, language: UserLanguage.NL, name: "Jan" });
    await expect(requestPasswordReset(deps, { email: ` ${address.toUpperCase()} ` })).resolves.toBeUndefined();

    expect(await services.mails()).toHaveLength(1);
    const [mail] = await services.mails();
    expect(mail.to).toBe(address);
    expect(mail.subject).toBe("Stel uw Caretaker-wachtwoord opnieuw in");
    expect(mail.text).toContain("Hallo Jan,");
    expect(mail.link).toMatch(/^https:\/\/caretaker\.example\/password\/reset\?token=[A-Za-z0-9_-]{43}$/);
    const [row] = await database.db.select().from(passwordResetTokens).where(eq(passwordResetTokens.userId, user.id));
    expect(row.tokenHash).not.toBe(tokenOf(mail));
    expect(row.expiresAt.getTime() - row.createdAt.getTime()).toBe(RESET_TTL_MINUTES * 60_000);
  });

  it("answers the same for an unknown or archived address, and sends nothing", async () => {
    const archived = email();
    await createUser(database.db, { entityId, email: archived, archivedAt: new Date() });
    await expect(requestPasswordReset(deps, { email: "nobody@example.test" })).resolves.toBeUndefined();
    await expect(requestPasswordReset(deps, { email: archived })).resolves.toBeUndefined();
    expect(await services.mails()).toHaveLength(0);
  });

  it("refuses an invalid body", async () => {
    const missing = await rejectionOf<DomainError>(requestPasswordReset(deps, {}));
    expect(missing).toBeInstanceOf(ValidationError);
    expect(missing.fieldErrors).toEqual({ email: ["onboarding:validation.emailRequired"] });
    const invalid = await rejectionOf<DomainError>(requestPasswordReset(deps, { email: "nope" }));
    expect(invalid.fieldErrors).toEqual({ email: ["onboarding:validation.emailInvalid"] });
  });

  it("limits the mails per address and per client, silently", async () => {
    const address = email();
    await createUser(database.db, { entityId, email: address });
    deps.limits = createResetLimits(2, 100);
    for (let i = 0; i < 4; i++) await requestPasswordReset(deps, { email: address }, "10.0.0.1");
    expect(await services.mails()).toHaveLength(2);

    const other = email();
    await createUser(database.db, { entityId, email: other });
    deps.limits = createResetLimits(100, 1);
    await requestPasswordReset(deps, { email: other }, "10.0.0.2");
    await requestPasswordReset(deps, { email: other }, "10.0.0.2");
    await requestPasswordReset(deps, { email: other }, "10.0.0.3");
    expect(await services.mails()).toHaveLength(4);
  });
});

describe("resetPassword", () => {
  it("sets the new password, spends the token and ends every session", async () => {
    const address = email();
    const { user, token } = await mailFor(address);
    const session = await login(authDeps(), { email: address, password: "Demo-pass-1!" });
    // A second open link is spent too.
    await requestPasswordReset(deps, { email: address });
    const second = tokenOf((await services.mails()).at(-1)!);

    expect(await isResetTokenUsable(deps, token)).toBe(true);
    await expect(resetPassword(deps, { token, newPassword: NEW_PASSWORD })).resolves.toBeUndefined();

    await expect(login(authDeps(), { email: address, password: "Demo-pass-1!" })).rejects.toMatchObject({ code: "INVALID_CREDENTIALS" });
    await expect(login(authDeps(), { email: address, password: NEW_PASSWORD })).resolves.toMatchObject({ userId: user.id });
    await expect(authenticate(authDeps(), session.jwtToken)).rejects.toMatchObject({ code: "SESSION_EXPIRED" });
    await expect(refresh(authDeps(), { refreshToken: session.refreshToken })).rejects.toMatchObject({ code: "SESSION_EXPIRED" });
    const open = await database.db.select().from(refreshTokens).where(eq(refreshTokens.familyId, session.sessionId));
    expect(open.every((r) => r.revokedAt)).toBe(true);

    expect(await isResetTokenUsable(deps, token)).toBe(false);
    const reused = await rejectionOf<DomainError>(resetPassword(deps, { token, newPassword: "An0ther-pass!" }));
    expect(reused.code).toBe("INVALID_TOKEN");
    expect(reused.messageKey).toBe("onboarding:reset.invalidToken");
    expect((await rejectionOf<DomainError>(resetPassword(deps, { token: second, newPassword: "An0ther-pass!" }))).code).toBe("INVALID_TOKEN");
  });

  it("refuses a weak password with the broken rules, and keeps the token usable", async () => {
    const { token } = await mailFor(email());
    const error = await rejectionOf<DomainError>(resetPassword(deps, { token, newPassword: "weakpass" }));
    expect(error.code).toBe("WEAK_PASSWORD");
    expect(error.status).toBe(400);
    expect(error.messageKey).toBe("onboarding:reset.weakPassword");
    expect(error.fieldErrors).toEqual({
      newPassword: ["onboarding:password.special", "onboarding:password.digit", "onboarding:password.uppercase"],
    });
    await expect(resetPassword(deps, { token, newPassword: NEW_PASSWORD })).resolves.toBeUndefined();
  });

  it("refuses unknown, missing and expired tokens", async () => {
    expect((await rejectionOf<DomainError>(resetPassword(deps, { token: "nope", newPassword: NEW_PASSWORD }))).code).toBe("INVALID_TOKEN");
    expect((await rejectionOf<DomainError>(resetPassword(deps, { newPassword: NEW_PASSWORD }))).code).toBe("INVALID_TOKEN");
    expect((await rejectionOf<DomainError>(resetPassword(deps, { token: "nope" }))).code).toBe("WEAK_PASSWORD");
    // An unknown token with a weak password: the token is what is wrong.
    expect((await rejectionOf<DomainError>(resetPassword(deps, { token: "nope", newPassword: "x" }))).code).toBe("INVALID_TOKEN");

    const { token } = await mailFor(email());
    const later = { ...deps, now: () => Date.now() + RESET_TTL_MINUTES * 60_000 + 1 };
    expect(await isResetTokenUsable(later, token)).toBe(false);
    expect((await rejectionOf<DomainError>(resetPassword(later, { token, newPassword: NEW_PASSWORD }))).code).toBe("INVALID_TOKEN");
  });

  it("activates a not yet validated account (the link proved the address); a disabled one stays disabled", async () => {
    const inactive = await mailFor(email(), { status: UserStatus.INACTIVE, password: null });
    await resetPassword(deps, { token: inactive.token, newPassword: NEW_PASSWORD });
    const [a] = await database.db.select().from(users).where(eq(users.id, inactive.user.id));
    expect(a.status).toBe(UserStatus.ACTIVE);

    const disabled = await mailFor(email(), { status: UserStatus.DISABLED });
    await resetPassword(deps, { token: disabled.token, newPassword: NEW_PASSWORD });
    const [d] = await database.db.select().from(users).where(eq(users.id, disabled.user.id));
    expect(d.status).toBe(UserStatus.DISABLED);
  });

  it("only changes the password of the token's own user", async () => {
    const mine = await mailFor(email());
    const other = await createUser(database.db, { entityId: (await createEntity(database.db)).id, email: email() });
    await resetPassword(deps, { token: mine.token, newPassword: NEW_PASSWORD });
    const [row] = await database.db.select().from(users).where(eq(users.id, other.id));
    expect(row.passwordHash).toBe(other.passwordHash);
  });
});
