import { describe, expect, it } from "vitest";
import { signAccessToken, verifyAccessToken } from "./tokens.server";

const SECRET = "a-secret-of-at-least-thirty-two-characters";
const OTHER = "another-secret-of-thirty-two-characters!!";
const claims = { userId: 7, entityId: 3, role: 2 as const, sessionId: "family-1" };

describe("verifyAccessToken", () => {
  it("answers the same claims the first time and for a token it has seen", async () => {
    const now = Date.UTC(2026, 10, 28, 8, 0, 0);
    const { token, expiresAt } = await signAccessToken(SECRET, claims, 900, now);
    const first = await verifyAccessToken(SECRET, token, { now });
    expect(first).toEqual({ ...claims, expiresAt });
    first!.userId = 99; // a caller's change does not reach the next request
    expect(await verifyAccessToken(SECRET, token, { now: now + 1000 })).toEqual({ ...claims, expiresAt });
  });

  it("refuses a seen token once its expiry second is reached, unless expiry is ignored", async () => {
    const now = Date.UTC(2026, 10, 28, 9, 0, 0);
    const { token, expiresAt } = await signAccessToken(SECRET, { ...claims, sessionId: "family-2" }, 60, now);
    expect(await verifyAccessToken(SECRET, token, { now })).not.toBeNull();
    expect(await verifyAccessToken(SECRET, token, { now: expiresAt - 1 })).not.toBeNull();
    expect(await verifyAccessToken(SECRET, token, { now: expiresAt })).toBeNull();
    expect(await verifyAccessToken(SECRET, token, { now: expiresAt + 3_600_000 })).toBeNull();
    expect(await verifyAccessToken(SECRET, token, { ignoreExpiry: true, now: expiresAt + 3_600_000 })).toMatchObject({ sessionId: "family-2" });
  });

  it("refuses an expired token it has not seen, at the same boundary", async () => {
    const now = Date.UTC(2026, 10, 28, 10, 0, 0);
    const { token, expiresAt } = await signAccessToken(SECRET, { ...claims, sessionId: "family-3" }, 60, now);
    expect(await verifyAccessToken(SECRET, token, { now: expiresAt })).toBeNull();
    expect(await verifyAccessToken(SECRET, token, { now: expiresAt - 1 })).not.toBeNull();
  });

  it("refuses a changed token and another secret's token even when the genuine one was seen", async () => {
    const now = Date.UTC(2026, 10, 28, 11, 0, 0);
    const { token } = await signAccessToken(SECRET, { ...claims, sessionId: "family-4" }, 900, now);
    expect(await verifyAccessToken(SECRET, token, { now })).not.toBeNull();
    const [header, payload, signature] = token.split(".");
    const forged = JSON.parse(Buffer.from(payload!, "base64url").toString());
    forged.role = 3;
    const raised = `${header}.${Buffer.from(JSON.stringify(forged)).toString("base64url")}.${signature}`;
    expect(await verifyAccessToken(SECRET, raised, { now })).toBeNull();
    expect(await verifyAccessToken(SECRET, `${token.slice(0, -2)}AA`, { now })).toBeNull();
    expect(await verifyAccessToken(OTHER, token, { now })).toBeNull();
    const { token: otherToken } = await signAccessToken(OTHER, claims, 900, now);
    expect(await verifyAccessToken(SECRET, otherToken, { now })).toBeNull();
    expect(await verifyAccessToken(OTHER, otherToken, { now })).not.toBeNull();
    expect(await verifyAccessToken(SECRET, token, { now })).toMatchObject({ sessionId: "family-4" });
  });
});
