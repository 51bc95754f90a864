import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { eq } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { UserStatus } from "~/db/enums";
import { users } from "~/db/schema";
import { createEntity, createUser, DEFAULT_PASSWORD } from "#tests/factories";
import { createTestDatabase } from "#tests/test-db";
import { login, type AuthDeps } from "./service.server";
import { commitSession, getSession, REFRESH_WINDOW_MS, resolveSession, storeTokens } from "./session.server";

/**
 * The web session's silent refresh, on an injected clock (the deps' `now`): no waiting. Sessions are
 * resolved from the cookie header as server.ts does on every request.
 */
let database: Database;
let dataDir: string;
let time = Date.parse("2026-01-05T09:00:00Z");
let deps: AuthDeps;
const TTL_SECONDS = 330;

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "caretaker-session-"));
  vi.stubEnv("SESSION_SECRET", "session-test-secret-".padEnd(40, "x"));
  vi.stubEnv("JWT_SECRET", "jwt-test-secret-".padEnd(40, "x"));
  vi.stubEnv("DATA_DIR", dataDir);
  database = await createTestDatabase();
  deps = { db: database.db, jwtSecret: "j".repeat(40), accessTtlSeconds: TTL_SECONDS, refreshTtlDays: 30, now: () => time };
  const entity = await createEntity(database.db, { name: "Session" });
  await createUser(database.db, { entityId: entity.id, email: "session@example.test" });
});
afterAll(async () => {
  vi.unstubAllEnvs();
  await database?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

/** The Cookie header a browser sends after this login. */
async function signedIn(): Promise<string> {
  const session = await getSession(null);
  storeTokens(session, await login(deps, { email: "session@example.test", password: DEFAULT_PASSWORD }));
  return (await commitSession(session)).split(";")[0];
}
const refreshTokenOf = async (setCookie: string) => (await getSession(setCookie.split(";")[0])).get("refreshToken");

describe("resolveSession", () => {
  it("refreshes a token once it is within 5 minutes of expiry, one refresh for every request then", async () => {
    const cookie = await signedIn();
    const before = await getSession(cookie);
    const outside = TTL_SECONDS * 1000 - REFRESH_WINDOW_MS;

    time += outside - 1_000;
    const early = await resolveSession(deps, cookie);
    expect(early.setCookie).toBeNull();
    expect(early.state.user).toMatchObject({ expiresAt: before.get("expiresAt") });

    time += 2_000;
    const [first, second] = await Promise.all([resolveSession(deps, cookie), resolveSession(deps, cookie)]);
    expect(first.setCookie).toBeTruthy();
    const rotated = await refreshTokenOf(first.setCookie!);
    expect(rotated).not.toBe(before.get("refreshToken"));
    expect(await refreshTokenOf(second.setCookie!)).toBe(rotated);
    expect((await getSession(first.setCookie!.split(";")[0])).get("expiresAt")).toBe(Math.floor(time / 1000) * 1000 + TTL_SECONDS * 1000);

    // A request still carrying the old cookie shortly after gets the same new pair...
    time += 30_000;
    const late = await resolveSession(deps, cookie);
    expect(late.state.user).not.toBeNull();
    expect(await refreshTokenOf(late.setCookie!)).toBe(rotated);
  });

  it("ends the session when a rotated refresh token comes back after the grace period", async () => {
    const cookie = await signedIn();
    time += TTL_SECONDS * 1000 - REFRESH_WINDOW_MS + 1_000;
    const refreshed = await resolveSession(deps, cookie);
    const newCookie = refreshed.setCookie!.split(";")[0];

    time += 61_000;
    const replay = await resolveSession(deps, cookie);
    expect(replay.state).toMatchObject({ user: null, expired: true });
    // Reuse revoked the whole family: the new cookie is dead too.
    expect((await resolveSession(deps, newCookie)).state).toMatchObject({ user: null, expired: true });
  });

  it("tells a person disabled while signed in that their account was deactivated, anyone else that the session expired", async () => {
    const entity = await createEntity(database.db, { name: "Disabled later" });
    const person = await createUser(database.db, { entityId: entity.id, email: "disabled-later@example.test" });
    const session = await getSession(null);
    storeTokens(session, await login(deps, { email: "disabled-later@example.test", password: DEFAULT_PASSWORD }));
    const cookie = (await commitSession(session)).split(";")[0];
    await database.db.update(users).set({ status: UserStatus.DISABLED }).where(eq(users.id, person.id));
    const ended = await resolveSession(deps, cookie);
    expect(ended.state).toMatchObject({ user: null, expired: true });
    expect((await getSession(ended.setCookie!.split(";")[0])).get("authMessage")).toBe("accountDisabled");
    // A session that simply ended (the tokens of a forged cookie) says it expired.
    const forged = await getSession(null);
    forged.set("jwtToken", "not-a-token");
    forged.set("expiresAt", time + 3_600_000);
    const other = await resolveSession(deps, (await commitSession(forged)).split(";")[0]);
    expect((await getSession(other.setCookie!.split(";")[0])).get("authMessage")).toBe("sessionExpired");
  });

  it("treats a request without a session cookie as a visitor, with no cookie to set", async () => {
    const anonymous = await resolveSession(deps, null);
    expect(anonymous).toMatchObject({ state: { user: null, expired: false }, setCookie: null });
  });
});
