import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "~/db/client.server";
import { createEntity, createUser } from "#tests/factories";
import { createTestDatabase } from "#tests/test-db";
import { formAuthenticator } from "./authenticator.server";
import { AuthError, createLoginLimits, login, type AuthDeps } from "./service.server";

let database: Database;
let deps: AuthDeps;

beforeAll(async () => {
  database = await createTestDatabase();
  deps = { db: database.db, jwtSecret: "s".repeat(40), accessTtlSeconds: 900, refreshTtlDays: 30 };
  const entity = await createEntity(database.db, { name: "A" });
  await createUser(database.db, { entityId: entity.id, email: "form@example.test" });
});
afterAll(async () => {
  await database?.close();
});

function loginPost(email: string, password: string) {
  return new Request("http://app.test/login", {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ email, password }),
  });
}

async function errorCode(promise: Promise<unknown>): Promise<string | null> {
  return promise.then(
    () => null,
    (e: unknown) => (e instanceof AuthError ? e.code : String(e)),
  );
}

describe("the web login form", () => {
  it("counts each client address on its own (the form's limit is not shared by everyone)", async () => {
    const auth = { ...deps, limits: createLoginLimits(100, 2) };
    const form = (address: string, password = "wrong") => formAuthenticator(auth, address).authenticate("form", loginPost("form@example.test", password));
    expect(await errorCode(form("203.0.113.1"))).toBe("INVALID_CREDENTIALS");
    expect(await errorCode(form("203.0.113.1"))).toBe("INVALID_CREDENTIALS");
    expect(await errorCode(form("203.0.113.1"))).toBe("TOO_MANY_ATTEMPTS");
    // Anybody else still reaches the login form.
    const pair = await form("198.51.100.1", "Demo-pass-1!");
    expect(pair.userId).toBeGreaterThan(0);
  });

  it("follows the same rules as the REST login: both count in the same limits", async () => {
    const auth = { ...deps, limits: createLoginLimits(2, 100) };
    const address = "203.0.113.2";
    expect(await errorCode(login(auth, { email: "form@example.test", password: "wrong", address }))).toBe("INVALID_CREDENTIALS");
    expect(await errorCode(formAuthenticator(auth, address).authenticate("form", loginPost("FORM@example.test", "wrong")))).toBe("INVALID_CREDENTIALS");
    // Blocked for this address on both transports, even with the right password...
    expect(await errorCode(formAuthenticator(auth, address).authenticate("form", loginPost("form@example.test", "Demo-pass-1!")))).toBe("TOO_MANY_ATTEMPTS");
    expect(await errorCode(login(auth, { email: "form@example.test", password: "Demo-pass-1!", address }))).toBe("TOO_MANY_ATTEMPTS");
    // ...and not for the owner elsewhere.
    expect(await errorCode(formAuthenticator(auth, "198.51.100.2").authenticate("form", loginPost("form@example.test", "Demo-pass-1!")))).toBeNull();
  });
});
