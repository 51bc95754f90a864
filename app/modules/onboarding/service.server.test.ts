import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Database } from "~/db/client.server";
import { Role, UserLanguage, UserStatus } from "~/db/enums";
import { emailVerificationTokens, entities, users } from "~/db/schema";
import { ConflictError, type DomainError, ValidationError } from "~/lib/errors";
import { type MailPayload as Mail, sendEmailJob } from "~/mail/jobs.server";
import { verifyPassword } from "~/modules/auth/password.server";
import { login, type AuthDeps } from "~/modules/auth/service.server";
import { createEntity, createUser } from "#tests/factories";
import { createTestDatabase } from "#tests/test-db";
import { createTestServices, type TestServices } from "#tests/test-context";
import { rejectionOf } from "#tests/service-helpers";
import { createCaptcha } from "./captcha.server";
import { clipEntity, openDraft, sealDraft } from "./draft.server";
import type { SignUpInput } from "./schema";
import { checkAccount, signUp, verifyEmail, VERIFICATION_TTL_HOURS, type OnboardingDeps } from "./service.server";

/**
 * Onboarding runs before any tenant or user exists: there is no entity to get wrong and no role to
 * check, so this file has no wrong-entity/wrong-role case. Instead it checks that a token only ever
 * activates the user it was issued for.
 */
let database: Database;
let services: TestServices;
let deps: OnboardingDeps;
let captchaOk: boolean;
const APP_URL = "https://caretaker.example";

beforeAll(async () => {
  database = await createTestDatabase();
  services = await createTestServices(database);
});
afterAll(async () => {
  await services?.close();
  await database?.close();
});
beforeEach(async () => {
  await services.clearJobs();
  captchaOk = true;
  deps = { db: database.db, appUrl: `${APP_URL}/`, queue: services.queue, verifyCaptcha: async () => captchaOk };
});

let n = 0;
function input(overrides: { account?: Partial<SignUpInput["account"]>; entity?: Partial<SignUpInput["entity"]> } = {}): SignUpInput {
  n += 1;
  return {
    account: {
      name: "Ada",
      surname: "Lovelace",
      email: `ada-${n}@example.test`,
      language: "en",
      password: "Str0ng-pass!",
      confirmPassword: "Str0ng-pass!",
      ...overrides.account,
    },
    entity: {
      entityName: `Analytical Engines ${n}`,
      vatNumber: "BE0123456789",
      streetName: "Rue Royale",
      streetNumber: "12",
      postalCode: "1000",
      city: "Brussels",
      country: "BE",
      ...overrides.entity,
    },
    captcha: { altcha: "payload" },
  };
}

const tokenOf = (mail: Mail) => new URL(mail.link!).searchParams.get("token")!;
const authDeps = (): AuthDeps => ({ db: database.db, jwtSecret: "j".repeat(40), accessTtlSeconds: 900, refreshTtlDays: 30 });

describe("signUp", () => {
  it("creates the entity and its inactive administrator, then queues the verification mail", async () => {
    const data = input({ account: { email: "  Grace@Example.TEST ", language: "fr-BE" }, entity: { suffix: "b2", buildingFloor: "" } });
    const result = await signUp(deps, data);

    const [entity] = await database.db.select().from(entities).where(eq(entities.id, result.entityId));
    expect(entity).toMatchObject({
      name: data.entity.entityName,
      vatNumber: "BE0123456789",
      streetName: "Rue Royale",
      streetNumber: "12",
      suffix: "b2",
      buildingFloor: null,
      postalCode: "1000",
      city: "Brussels",
      country: "BE",
      billingSameAsAddress: true,
    });
    const [user] = await database.db.select().from(users).where(eq(users.id, result.userId));
    expect(user).toMatchObject({
      entityId: result.entityId,
      email: "grace@example.test",
      name: "Ada",
      surname: "Lovelace",
      role: Role.ADMINISTRATOR,
      status: UserStatus.INACTIVE,
      language: UserLanguage.FR,
    });
    expect(await verifyPassword(user.passwordHash, "Str0ng-pass!")).toBe(true);

    expect(await services.mails()).toHaveLength(1);
    const [mail] = await services.mails();
    expect(mail.to).toBe("grace@example.test");
    expect(mail.subject).toBe("Activez votre compte Caretaker");
    expect(mail.link).toMatch(new RegExp(`^${APP_URL}/signup/verify\\?token=[A-Za-z0-9_-]{43}$`));
    expect(mail.text).toContain(mail.link);
    expect(mail.html).toContain(data.entity.entityName);

    const [token] = await database.db.select().from(emailVerificationTokens).where(eq(emailVerificationTokens.userId, user.id));
    expect(token.tokenHash).not.toBe(tokenOf(mail)); // stored hashed
    expect(token.expiresAt.getTime() - token.createdAt.getTime()).toBe(VERIFICATION_TTL_HOURS * 3_600_000);
  });

  it("writes the verification mail job with the new account", async () => {
    const data = input();
    const result = await signUp(deps, data);
    const [job] = (await services.queued(sendEmailJob)).filter((j) => j.data.to === data.account.email);
    expect(job).toBeDefined();
    expect(await database.db.select({ id: users.id }).from(users).where(eq(users.id, result.userId))).toHaveLength(1);
  });

  it("keeps no account, entity or token when the mail job, written after them, fails", async () => {
    const data = input();
    // The database refuses this sign-up's mail job: the write that follows the entity, user and token rows.
    const email = data.account.email.replace(/'/g, "''");
    await database.db.execute(
      sql.raw(`create function refuse_signup_mail() returns trigger language plpgsql as $$
        begin
          if new.payload->>'to' = '${email}' then raise exception 'mail job refused'; end if;
          return new;
        end $$`),
    );
    await database.db.execute(sql.raw("create trigger refuse_signup_mail before insert on job_queue for each row execute function refuse_signup_mail()"));
    try {
      const error = await rejectionOf<DomainError>(signUp(deps, data));
      expect(error.code).toBe("MAIL_FAILED");
    } finally {
      await database.db.execute(sql.raw("drop trigger refuse_signup_mail on job_queue"));
      await database.db.execute(sql.raw("drop function refuse_signup_mail()"));
    }
    expect(await database.db.select({ id: users.id }).from(users).where(eq(users.email, data.account.email))).toEqual([]);
    expect(await database.db.select({ id: entities.id }).from(entities).where(eq(entities.name, data.entity.entityName))).toEqual([]);
    expect(await database.db.select({ id: emailVerificationTokens.id }).from(emailVerificationTokens).where(eq(emailVerificationTokens.email, data.account.email))).toEqual([]);
    expect((await services.queued(sendEmailJob)).filter((j) => j.data.to === data.account.email)).toEqual([]);
    // The same details sign up once the mail can be queued: nothing of the failed attempt is in the way.
    expect((await signUp(deps, data)).email).toBe(data.account.email);
  });

  it("refuses an email that is already in use, whatever its case, and creates nothing", async () => {
    const other = await createEntity(database.db);
    await createUser(database.db, { entityId: other.id, email: "taken@example.test" });
    const before = await database.db.select({ count: sql<number>`count(*)::int` }).from(entities);

    const error = await rejectionOf<DomainError>(signUp(deps, input({ account: { email: "TAKEN@example.test" } })));
    expect(error).toBeInstanceOf(ConflictError);
    expect(error.code).toBe("EMAIL_IN_USE");
    expect(error.messageKey).toBe("onboarding:signup.emailInUse");
    expect(error.fieldErrors).toEqual({ email: ["onboarding:signup.emailInUse"] });

    const after = await database.db.select({ count: sql<number>`count(*)::int` }).from(entities);
    expect(after[0].count).toBe(before[0].count);
    expect(await services.mails()).toHaveLength(0);
  });

  it("refuses a failed captcha before anything is written", async () => {
    captchaOk = false;
    const data = input();
    const error = await rejectionOf<DomainError>(signUp(deps, data));
    expect(error.code).toBe("CAPTCHA_FAILED");
    expect(error.messageKey).toBe("onboarding:signup.captchaFailed");
    expect(await database.db.select().from(users).where(eq(users.email, data.account.email))).toHaveLength(0);
  });

  it("reports every invalid field with its message key", async () => {
    const error = await rejectionOf<DomainError>(
      signUp(deps, {
        account: { name: "", surname: " ", email: "not-an-email", language: "de" as never, password: "weak", confirmPassword: "other" },
        entity: { entityName: "", vatNumber: "", streetName: "", streetNumber: "", postalCode: "", city: "", country: "" as never },
        captcha: {},
      }),
    );
    expect(error).toBeInstanceOf(ValidationError);
    expect(error.fieldErrors).toMatchObject({
      "account.name": ["onboarding:validation.nameRequired"],
      "account.surname": ["onboarding:validation.surnameRequired"],
      "account.email": ["onboarding:validation.emailInvalid"],
      "account.language": ["onboarding:validation.languageRequired"],
      "account.password": [
        "onboarding:password.minLength",
        "onboarding:password.special",
        "onboarding:password.digit",
        "onboarding:password.uppercase",
      ],
      "account.confirmPassword": ["onboarding:password.mismatch"],
      "entity.entityName": ["onboarding:validation.entityNameRequired"],
      "entity.vatNumber": ["onboarding:validation.vatNumberRequired"],
      "entity.country": ["onboarding:validation.countryRequired"],
    });
  });

  it("undoes the registration when the mail cannot be queued, so the visitor can try again", async () => {
    const data = input();
    deps.queue = {
      ...services.queue,
      send: async () => {
        throw new Error("queue down");
      },
    };
    const error = await rejectionOf<DomainError>(signUp(deps, data));
    expect(error.code).toBe("MAIL_FAILED");
    expect(error.messageKey).toBe("onboarding:errors.tryLater");
    expect(await database.db.select().from(users).where(eq(users.email, data.account.email))).toHaveLength(0);
    expect(await database.db.select().from(entities).where(eq(entities.name, data.entity.entityName))).toHaveLength(0);

    deps.queue = services.queue;
    await signUp(deps, data);
    expect(await services.mails()).toHaveLength(1);
  });

  it("escapes what the visitor typed in the HTML of the mail", async () => {
    await signUp(deps, input({ account: { name: "<b>Ada</b>" }, entity: { entityName: `<img src=x onerror=alert(1)> & Co` } }));
    const [mail] = await services.mails();
    expect(mail.html).toContain("&lt;img src=x onerror=alert(1)&gt; &amp; Co");
    expect(mail.html).toContain("Hello &lt;b&gt;Ada&lt;/b&gt;,");
    expect(mail.html).not.toContain("<img src=x");
    expect(mail.text).toContain("Hello <b>Ada</b>,");
  });

  it("works with the real captcha: the no-script question, once", async () => {
    const captcha = createCaptcha({ secret: "s".repeat(40) });
    deps.verifyCaptcha = (answer) => captcha.verify(answer);
    const q = captcha.question();
    const data = { ...input(), captcha: { questionToken: q.token, answer: String(q.a + q.b) } };
    await signUp(deps, data);
    const again = { ...input(), captcha: data.captcha };
    expect((await rejectionOf<DomainError>(signUp(deps, again))).code).toBe("CAPTCHA_FAILED");
  });
});

describe("checkAccount (step 1)", () => {
  it("validates the account and checks that the email is free", async () => {
    const data = input();
    await expect(checkAccount(deps, data.account)).resolves.toMatchObject({ email: data.account.email });
    await signUp(deps, data);
    const error = await rejectionOf<DomainError>(checkAccount(deps, { ...data.account, email: data.account.email.toUpperCase() }));
    expect(error.code).toBe("EMAIL_IN_USE");
    const invalid = await rejectionOf<DomainError>(checkAccount(deps, { ...data.account, email: "" }));
    expect(invalid.fieldErrors).toMatchObject({ email: ["onboarding:validation.emailRequired"] });
  });
});

describe("verifyEmail", () => {
  it("activates the administrator once; then they can log in", async () => {
    const data = input();
    await signUp(deps, data);
    const token = tokenOf((await services.mails())[0]);

    await expect(login(authDeps(), { email: data.account.email, password: "Str0ng-pass!" })).rejects.toMatchObject({ code: "ACCOUNT_NOT_VALIDATED" });
    await expect(verifyEmail(deps, { token })).resolves.toEqual({ email: data.account.email });
    const [user] = await database.db.select().from(users).where(eq(users.email, data.account.email));
    expect(user.status).toBe(UserStatus.ACTIVE);
    await expect(login(authDeps(), { email: data.account.email, password: "Str0ng-pass!" })).resolves.toMatchObject({ userId: user.id, role: Role.ADMINISTRATOR });

    const reused = await rejectionOf<DomainError>(verifyEmail(deps, { token }));
    expect(reused.code).toBe("INVALID_TOKEN");
    expect(reused.messageKey).toBe("onboarding:reset.invalidToken");
  });

  it("refuses unknown, empty, expired tokens and tokens whose address changed", async () => {
    expect((await rejectionOf<DomainError>(verifyEmail(deps, { token: "nope" }))).code).toBe("INVALID_TOKEN");
    expect((await rejectionOf<DomainError>(verifyEmail(deps, {}))).code).toBe("INVALID_TOKEN");

    await signUp(deps, input());
    const expiredToken = tokenOf((await services.mails())[0]);
    const later = { ...deps, now: () => Date.now() + VERIFICATION_TTL_HOURS * 3_600_000 + 1 };
    expect((await rejectionOf<DomainError>(verifyEmail(later, { token: expiredToken }))).code).toBe("INVALID_TOKEN");

    const data = input();
    const created = await signUp(deps, data);
    await database.db.update(users).set({ email: `changed-${n}@example.test` }).where(eq(users.id, created.userId));
    expect((await rejectionOf<DomainError>(verifyEmail(deps, { token: tokenOf((await services.mails())[1]) }))).code).toBe("INVALID_TOKEN");
    const [user] = await database.db.select().from(users).where(eq(users.id, created.userId));
    expect(user.status).toBe(UserStatus.INACTIVE);
  });

  it("only activates the user the token was issued for", async () => {
    const a = await signUp(deps, input());
    const b = await signUp(deps, input());
    await verifyEmail(deps, { token: tokenOf((await services.mails())[0]) });
    const rows = await database.db.select({ id: users.id, status: users.status }).from(users).where(sql`${users.id} in (${a.userId}, ${b.userId})`);
    expect(Object.fromEntries(rows.map((r) => [r.id, r.status]))).toEqual({ [a.userId]: UserStatus.ACTIVE, [b.userId]: UserStatus.INACTIVE });
  });
});

describe("sign-up draft cookie", () => {
  const key = Buffer.alloc(32, 7);
  it("round-trips the draft, encrypted, and refuses anything tampered with or sealed with another key", () => {
    const draft = { account: { name: "Ada", surname: "L", email: "ada@example.test", language: "nl-BE" as const, password: "Str0ng-pass!" }, entity: { city: "Gent" } };
    const sealed = sealDraft(draft, key);
    expect(sealed).not.toContain("Str0ng");
    expect(Buffer.from(sealed, "base64url").toString("latin1")).not.toContain("Str0ng");
    expect(openDraft(sealed, key)).toEqual(draft);
    const bytes = Buffer.from(sealed, "base64url");
    bytes[bytes.length >> 1] ^= 1; // one bit of the ciphertext
    const flipped = bytes.toString("base64url");
    expect(openDraft(flipped, key)).toEqual({});
    expect(openDraft(sealed, Buffer.alloc(32, 8))).toEqual({});
    expect(openDraft("garbage", key)).toEqual({});
    expect(openDraft(undefined, key)).toEqual({});
  });

  it("keeps only step-2 fields, clipped to their maximum length", () => {
    const form = new FormData();
    form.set("entityName", "x".repeat(1000));
    form.set("city", "Liège");
    form.set("password", "not kept");
    form.set("country", "");
    expect(clipEntity(form)).toEqual({ entityName: "x".repeat(150), city: "Liège" });
  });
});
