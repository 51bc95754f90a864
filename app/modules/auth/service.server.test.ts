import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "~/db/client.server";
import { Role, UserStatus } from "~/db/enums";
import { entities, refreshTokens, users } from "~/db/schema";
import { getProfile } from "~/modules/users/queries.server";
import { createEntity, createNotification, createUser } from "#tests/factories";
import { createTestDatabase } from "#tests/test-db";
import { authenticate as authenticateOnly, authenticateWithShell, AuthError, createLoginLimits, login, LoginErrorCode, logout, refresh, ROTATION_GRACE_MS, type AuthDeps } from "./service.server";
import { signAccessToken, verifyAccessToken } from "./tokens.server";

let database: Database;
let deps: AuthDeps;
let entityA: number;
let entityB: number;

beforeAll(async () => {
  database = await createTestDatabase();
  deps = { db: database.db, jwtSecret: "s".repeat(40), accessTtlSeconds: 900, refreshTtlDays: 30 };
  entityA = (await createEntity(database.db, { name: "A" })).id;
  entityB = (await createEntity(database.db, { name: "B" })).id;
});
afterAll(async () => {
  await database?.close();
});

async function expectAuthError(promise: Promise<unknown>, code: string, loginErrorCode?: number) {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AuthError);
  expect((error as AuthError).code).toBe(code);
  if (loginErrorCode !== undefined) expect((error as AuthError).loginErrorCode).toBe(loginErrorCode);
  return error as AuthError;
}

describe("login", () => {
  it("returns tokens, role and ids for an active user, whatever the email's case", async () => {
    const user = await createUser(database.db, { entityId: entityA, email: "Case@Example.test", role: Role.FACILITY_MANAGER });
    const pair = await login(deps, { email: "  case@example.TEST ", password: "Demo-pass-1!" });
    expect(pair).toMatchObject({ userId: user.id, entityId: entityA, role: Role.FACILITY_MANAGER });
    const claims = await verifyAccessToken(deps.jwtSecret, pair.jwtToken);
    expect(claims).toMatchObject({ userId: user.id, entityId: entityA, role: Role.FACILITY_MANAGER, sessionId: pair.sessionId });
    const [row] = await database.db.select().from(refreshTokens).where(eq(refreshTokens.familyId, pair.sessionId));
    expect(row.tokenHash).not.toBe(pair.refreshToken); // stored hashed
  });

  it("writes the last login and the session's refresh token together, or neither", async () => {
    const user = await createUser(database.db, { entityId: entityA, email: "atomic@example.test" });
    // A refresh token that cannot be stored (its expiry is not a date) fails the login after the
    // last-login update ran: that update must not stay.
    await expect(login({ ...deps, refreshTtlDays: Number.NaN }, { email: "atomic@example.test", password: "Demo-pass-1!" })).rejects.toThrow();
    const [after] = await database.db.select({ lastLoginAt: users.lastLoginAt }).from(users).where(eq(users.id, user.id));
    expect(after.lastLoginAt).toBeNull();
    expect(await database.db.select().from(refreshTokens).where(eq(refreshTokens.userId, user.id))).toEqual([]);
    await login(deps, { email: "atomic@example.test", password: "Demo-pass-1!" });
    const [signedIn] = await database.db.select({ lastLoginAt: users.lastLoginAt }).from(users).where(eq(users.id, user.id));
    expect(signedIn.lastLoginAt).toBeInstanceOf(Date);
  });

  it("refuses a wrong password and an unknown account with the same error", async () => {
    await createUser(database.db, { entityId: entityA, email: "known@example.test" });
    const a = await expectAuthError(login(deps, { email: "known@example.test", password: "nope" }), "INVALID_CREDENTIALS", LoginErrorCode.INVALID_CREDENTIALS);
    const b = await expectAuthError(login(deps, { email: "nobody@example.test", password: "nope" }), "INVALID_CREDENTIALS");
    expect(a.messageKey).toBe("auth:login.invalidCredentials");
    expect(b.messageKey).toBe(a.messageKey);
  });

  it("refuses a disabled account with the deactivated message, and a not yet validated one", async () => {
    await createUser(database.db, { entityId: entityA, email: "disabled@example.test", status: UserStatus.DISABLED });
    const disabled = await expectAuthError(login(deps, { email: "disabled@example.test", password: "Demo-pass-1!" }), "ACCOUNT_DISABLED", LoginErrorCode.ACCOUNT_DISABLED);
    expect(disabled.messageKey).toBe("auth:login.disabled");
    await createUser(database.db, { entityId: entityA, email: "inactive@example.test", status: UserStatus.INACTIVE });
    await expectAuthError(login(deps, { email: "inactive@example.test", password: "Demo-pass-1!" }), "ACCOUNT_NOT_VALIDATED");
  });

  it("limits failed attempts per account from one address: the attacker locks out only themselves", async () => {
    await createUser(database.db, { entityId: entityA, email: "target@example.test" });
    const limited = { ...deps, limits: createLoginLimits(3, 100) };
    const attacker = "203.0.113.66";
    for (let i = 0; i < 3; i++) await expectAuthError(login(limited, { email: "target@example.test", password: "x", address: attacker }), "INVALID_CREDENTIALS");
    // From the attacker's address even the right password is refused while blocked, whatever the spelling.
    await expectAuthError(login(limited, { email: "target@example.test", password: "Demo-pass-1!", address: attacker }), "TOO_MANY_ATTEMPTS", LoginErrorCode.TOO_MANY_ATTEMPTS);
    await expectAuthError(login(limited, { email: " TARGET@Example.test", password: "Demo-pass-1!", address: attacker }), "TOO_MANY_ATTEMPTS");
    // The owner, elsewhere, still logs in.
    const pair = await login(limited, { email: "target@example.test", password: "Demo-pass-1!", address: "198.51.100.7" });
    expect(pair.userId).toBeGreaterThan(0);
  });

  it("a successful login clears the account's failures from that address", async () => {
    await createUser(database.db, { entityId: entityA, email: "forgetful@example.test" });
    const limited = { ...deps, limits: createLoginLimits(3, 100) };
    const address = "198.51.100.8";
    for (let i = 0; i < 2; i++) await expectAuthError(login(limited, { email: "forgetful@example.test", password: "x", address }), "INVALID_CREDENTIALS");
    await login(limited, { email: "forgetful@example.test", password: "Demo-pass-1!", address });
    for (let i = 0; i < 2; i++) await expectAuthError(login(limited, { email: "forgetful@example.test", password: "x", address }), "INVALID_CREDENTIALS");
    await login(limited, { email: "forgetful@example.test", password: "Demo-pass-1!", address });
  });

  it("limits all attempts per address, one address at a time", async () => {
    const perAddress = { ...deps, limits: createLoginLimits(100, 2) };
    await expectAuthError(login(perAddress, { email: "a@x.test", password: "x", address: "192.0.2.1" }), "INVALID_CREDENTIALS");
    await expectAuthError(login(perAddress, { email: "b@x.test", password: "x", address: "192.0.2.1" }), "INVALID_CREDENTIALS");
    await expectAuthError(login(perAddress, { email: "c@x.test", password: "x", address: "192.0.2.1" }), "TOO_MANY_ATTEMPTS");
    // Another client is not affected.
    await expectAuthError(login(perAddress, { email: "c@x.test", password: "x", address: "192.0.2.2" }), "INVALID_CREDENTIALS");
  });

  it("keeps small keys, whatever user names are sent", async () => {
    const limits = createLoginLimits(10, 1000);
    const limited = { ...deps, limits };
    const before = process.memoryUsage().heapUsed;
    for (let i = 0; i < 20; i++) {
      // Distinct 2 MB user names, sharing nothing: kept, they would be 40 MB.
      const huge = Buffer.alloc(2_000_000, String.fromCharCode(97 + i)).toString("latin1");
      await expectAuthError(login(limited, { email: `${huge}@x.test`, password: "x", address: `192.0.2.${i % 3}` }), "INVALID_CREDENTIALS");
    }
    expect(process.memoryUsage().heapUsed - before).toBeLessThan(20 * 1024 * 1024);
  });
});

describe("refresh", () => {
  it("rotates: a new pair in the same session, the old refresh token spent", async () => {
    await createUser(database.db, { entityId: entityA, email: "rotate@example.test" });
    const first = await login(deps, { email: "rotate@example.test", password: "Demo-pass-1!" });
    const second = await refresh(deps, { refreshToken: first.refreshToken, jwtToken: first.jwtToken });
    expect(second.sessionId).toBe(first.sessionId);
    expect(second.refreshToken).not.toBe(first.refreshToken);
    const third = await refresh(deps, { refreshToken: second.refreshToken });
    expect(third.sessionId).toBe(first.sessionId);
  });

  it("gives a rotated token a pair of its own within the grace (a request that carried the old cookie)", async () => {
    await createUser(database.db, { entityId: entityA, email: "overtaken@example.test" });
    const first = await login(deps, { email: "overtaken@example.test", password: "Demo-pass-1!" });
    const second = await refresh(deps, { refreshToken: first.refreshToken, jwtToken: first.jwtToken });
    // Another process receives the old cookie a moment later: no in-process memory of the first refresh.
    const late = { ...deps, now: () => Date.now() + ROTATION_GRACE_MS - 5_000 };
    const sibling = await refresh(late, { refreshToken: first.refreshToken, jwtToken: first.jwtToken });
    expect(sibling.sessionId).toBe(first.sessionId);
    expect(sibling.refreshToken).not.toBe(second.refreshToken);
    // Both heads of the session stay valid.
    expect((await authenticate(deps, second.jwtToken)).id).toBeGreaterThan(0);
    expect((await refresh(deps, { refreshToken: second.refreshToken })).sessionId).toBe(first.sessionId);
    expect((await refresh(deps, { refreshToken: sibling.refreshToken })).sessionId).toBe(first.sessionId);
    // The grace counts from the first rotation: using it does not extend it.
    const after = { ...deps, now: () => Date.now() + ROTATION_GRACE_MS + 5_000 };
    await expectAuthError(refresh(after, { refreshToken: first.refreshToken }), "SESSION_EXPIRED");
  });

  it("treats reuse of a rotated token after the grace as theft and revokes the whole family", async () => {
    await createUser(database.db, { entityId: entityA, email: "reuse@example.test" });
    const first = await login(deps, { email: "reuse@example.test", password: "Demo-pass-1!" });
    const second = await refresh(deps, { refreshToken: first.refreshToken });
    const later = { ...deps, now: () => Date.now() + ROTATION_GRACE_MS + 1_000 };
    await expectAuthError(refresh(later, { refreshToken: first.refreshToken }), "SESSION_EXPIRED");
    // The legitimate holder's newer token is dead too, and so is its access token.
    await expectAuthError(refresh(deps, { refreshToken: second.refreshToken }), "SESSION_EXPIRED");
    await expectAuthError(authenticate(deps, second.jwtToken), "SESSION_EXPIRED");
  });

  it("refuses an unknown token, an expired one, and an access token of another session", async () => {
    await expectAuthError(refresh(deps, { refreshToken: "made-up" }), "SESSION_EXPIRED");
    await createUser(database.db, { entityId: entityA, email: "expired@example.test" });
    const shortLived = { ...deps, refreshTtlDays: 1, now: () => Date.now() - 2 * 86_400_000 };
    const old = await login(shortLived, { email: "expired@example.test", password: "Demo-pass-1!" });
    await expectAuthError(refresh(deps, { refreshToken: old.refreshToken }), "SESSION_EXPIRED");

    const mine = await login(deps, { email: "expired@example.test", password: "Demo-pass-1!" });
    const other = await login(deps, { email: "expired@example.test", password: "Demo-pass-1!" });
    await expectAuthError(refresh(deps, { refreshToken: mine.refreshToken, jwtToken: other.jwtToken }), "SESSION_EXPIRED");
  });

  it("stops refreshing once the user is disabled", async () => {
    const user = await createUser(database.db, { entityId: entityA, email: "later-disabled@example.test" });
    const pair = await login(deps, { email: "later-disabled@example.test", password: "Demo-pass-1!" });
    await database.db.update(users).set({ status: UserStatus.DISABLED }).where(eq(users.id, user.id));
    await expectAuthError(refresh(deps, { refreshToken: pair.refreshToken }), "ACCOUNT_DISABLED");
  });
});

const authenticate = authenticateOnly;

// The page requests' variant applies the same checks (and reads the shell's data with them).
describe.each([
  ["authenticate", authenticateOnly],
  ["authenticateWithShell", (d: AuthDeps, token: string | null | undefined) => authenticateWithShell(d, token).then((r) => r.user)],
])("%s", (variant, authenticate) => {
  it("accepts a valid token and reads the current role", async () => {
    const user = await createUser(database.db, { entityId: entityA, email: `promoted-${variant}@example.test`, role: Role.TECHNICIAN });
    const pair = await login(deps, { email: `promoted-${variant}@example.test`, password: "Demo-pass-1!" });
    await database.db.update(users).set({ role: Role.FACILITY_MANAGER }).where(eq(users.id, user.id));
    expect(await authenticate(deps, pair.jwtToken)).toMatchObject({ id: user.id, entityId: entityA, role: Role.FACILITY_MANAGER });
  });

  it("reads the entity's time zone with the session check, as it is now", async () => {
    const entity = await createEntity(database.db, { name: `Zoned ${variant}` });
    const user = await createUser(database.db, { entityId: entity.id, email: `zoned-${variant}@example.test` });
    const pair = await login(deps, { email: `zoned-${variant}@example.test`, password: "Demo-pass-1!" });
    expect((await authenticate(deps, pair.jwtToken)).timeZone).toBe("Europe/Brussels");
    await database.db.update(entities).set({ timeZone: "America/New_York" }).where(eq(entities.id, entity.id));
    expect(await authenticate(deps, pair.jwtToken)).toMatchObject({ id: user.id, entityId: entity.id, timeZone: "America/New_York" });
  });

  it("ends access at once for a disabled user, a logged-out session, an expired or forged token", async () => {
    const user = await createUser(database.db, { entityId: entityA, email: `gone-${variant}@example.test` });
    const pair = await login(deps, { email: `gone-${variant}@example.test`, password: "Demo-pass-1!" });
    const other = await login(deps, { email: `gone-${variant}@example.test`, password: "Demo-pass-1!" });
    await logout(deps, { sessionId: other.sessionId });
    await expectAuthError(authenticate(deps, other.jwtToken), "SESSION_EXPIRED");
    expect((await authenticate(deps, pair.jwtToken)).id).toBe(user.id); // other sessions live on

    await database.db.update(users).set({ status: UserStatus.DISABLED }).where(eq(users.id, user.id));
    await expectAuthError(authenticate(deps, pair.jwtToken), "ACCOUNT_DISABLED");

    const expired = await signAccessToken(deps.jwtSecret, { userId: user.id, entityId: entityA, role: Role.TECHNICIAN, sessionId: pair.sessionId }, 10, Date.now() - 60_000);
    await expectAuthError(authenticate(deps, expired.token), "SESSION_EXPIRED");
    const forged = await signAccessToken("f".repeat(40), { userId: user.id, entityId: entityA, role: Role.ADMINISTRATOR, sessionId: pair.sessionId }, 900);
    await expectAuthError(authenticate(deps, forged.token), "SESSION_EXPIRED");
    await expectAuthError(authenticate(deps, null), "SESSION_EXPIRED");
  });

  it("refuses a token whose entity claim does not match the user's entity", async () => {
    const user = await createUser(database.db, { entityId: entityA, email: `tenant-${variant}@example.test` });
    const pair = await login(deps, { email: `tenant-${variant}@example.test`, password: "Demo-pass-1!" });
    const crossed = await signAccessToken(deps.jwtSecret, { userId: user.id, entityId: entityB, role: Role.ADMINISTRATOR, sessionId: pair.sessionId }, 900);
    await expectAuthError(authenticate(deps, crossed.token), "SESSION_EXPIRED");
  });
});

describe("authenticateWithShell", () => {
  it("reads the profile and the unread count of the user in the same statement", async () => {
    const user = await createUser(database.db, { entityId: entityA, email: "shell@example.test", name: "Shelly" });
    const other = await createUser(database.db, { entityId: entityA, email: "shell-other@example.test" });
    const pair = await login(deps, { email: "shell@example.test", password: "Demo-pass-1!" });
    await createNotification(database.db, { entityId: entityA, userIds: [user.id, other.id] });
    await createNotification(database.db, { entityId: entityA, userIds: [user.id] });
    await createNotification(database.db, { entityId: entityA, userIds: [user.id], readAt: new Date() });
    await createNotification(database.db, { entityId: entityA, userIds: [other.id] });

    const { user: authUser, shell } = await authenticateWithShell(deps, pair.jwtToken);
    expect(authUser).toMatchObject({ id: user.id, entityId: entityA });
    expect(shell.unread).toBe(2);
    expect(shell.profile).toEqual(await getProfile(database.db, user.id, entityA));
    expect(shell.profile).toMatchObject({ name: "Shelly", entity: { id: entityA, name: "A" } });
  });

  it("gives no profile when the entity is archived (the root loader then logs out)", async () => {
    const entity = await createEntity(database.db, { name: "Closing" });
    await createUser(database.db, { entityId: entity.id, email: "closing@example.test" });
    const pair = await login(deps, { email: "closing@example.test", password: "Demo-pass-1!" });
    await database.db.update(entities).set({ archivedAt: new Date() }).where(eq(entities.id, entity.id));
    const { shell } = await authenticateWithShell(deps, pair.jwtToken);
    expect(shell).toEqual({ profile: null, unread: 0 });
  });
});
