import { solveChallenge, type Challenge } from "altcha-lib";
import { deriveKey } from "altcha-lib/algorithms/pbkdf2";
import { describe, expect, it } from "vitest";
import { memoryLimitStore } from "~/lib/rate-limit.server";
import { createCaptcha } from "./captcha.server";

const secret = "test-session-secret-".padEnd(40, "x");
/** Small difficulty so a test solves a challenge in a few milliseconds. */
const easy = { cost: 10, counterMin: 1, counterMax: 50 };

async function solvedPayload(challenge: Challenge) {
  const solution = await solveChallenge({ challenge, deriveKey });
  expect(solution).not.toBeNull();
  return Buffer.from(JSON.stringify({ challenge: { parameters: challenge.parameters, signature: challenge.signature }, solution })).toString("base64");
}

describe("ALTCHA proof-of-work", () => {
  it("issues signed, expiring PBKDF2 challenges", async () => {
    const captcha = createCaptcha({ secret });
    const challenge = await captcha.altchaChallenge();
    expect(challenge.parameters.algorithm).toBe("PBKDF2/SHA-256");
    expect(challenge.signature).toMatch(/^[0-9a-f]{64}$/);
    expect(challenge.parameters.expiresAt).toBeGreaterThan(Date.now() / 1000);
  });

  it("accepts a solved challenge once (replay refused)", async () => {
    const captcha = createCaptcha({ secret, ...easy });
    const payload = await solvedPayload(await captcha.altchaChallenge());
    expect(await captcha.verifyAltcha(payload)).toBe(true);
    expect(await captcha.verifyAltcha(payload)).toBe(false);
    expect(await captcha.verify({ altcha: payload })).toBe(false);
  });

  it("refuses a wrong solution, a tampered challenge, another server's key and garbage", async () => {
    const captcha = createCaptcha({ secret, ...easy });
    const challenge = await captcha.altchaChallenge();
    const solution = await solveChallenge({ challenge, deriveKey });
    const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64");

    const wrongKey = { ...solution!, derivedKey: "00".repeat(32) };
    expect(await captcha.verifyAltcha(encode({ challenge, solution: wrongKey }))).toBe(false);

    const tampered = { ...challenge, parameters: { ...challenge.parameters, cost: 1 } };
    expect(await captcha.verifyAltcha(encode({ challenge: tampered, solution }))).toBe(false);

    const other = createCaptcha({ secret: "another-secret".padEnd(40, "y"), ...easy });
    expect(await other.verifyAltcha(encode({ challenge, solution }))).toBe(false);

    // The widget's test mode and unsigned or malformed payloads.
    expect(await captcha.verifyAltcha(encode({ challenge: null, solution: null, test: true }))).toBe(false);
    expect(await captcha.verifyAltcha(encode({ challenge: { parameters: challenge.parameters }, solution }))).toBe(false);
    expect(await captcha.verifyAltcha("not base64 json")).toBe(false);
    expect(await captcha.verifyAltcha("")).toBe(false);

    // The genuine one still passes after all that.
    expect(await captcha.verifyAltcha(encode({ challenge, solution }))).toBe(true);
  });

  it("refuses an expired challenge", async () => {
    let now = Date.now();
    const captcha = createCaptcha({ secret, ...easy, ttlSeconds: 60, now: () => now });
    const payload = await solvedPayload(await captcha.altchaChallenge());
    now += 61_000;
    expect(await captcha.verifyAltcha(payload)).toBe(false);
  });
});

describe("no-script arithmetic question", () => {
  it("accepts the right answer once", async () => {
    const captcha = createCaptcha({ secret });
    const q = captcha.question();
    expect(q.a).toBeGreaterThanOrEqual(1);
    expect(q.b).toBeLessThanOrEqual(9);
    expect(await captcha.verifyQuestion(q.token, ` ${q.a + q.b} `)).toBe(true);
    expect(await captcha.verifyQuestion(q.token, String(q.a + q.b))).toBe(false);
  });

  it("refuses a wrong answer, a forged token and an expired question", async () => {
    let now = Date.now();
    const captcha = createCaptcha({ secret, ttlSeconds: 60, now: () => now });
    const q = captcha.question();
    expect(await captcha.verifyQuestion(q.token, String(q.a + q.b + 1))).toBe(false);
    expect(await captcha.verifyQuestion(q.token, "twelve")).toBe(false);
    // Other operands under the same signature (never the question's own: 1 + 1 is one of the 81 questions).
    const [nonce, expires, , , signature] = q.token.split(".");
    const forged = q.a === 1 && q.b === 1 ? [2, 2] : [1, 1];
    expect(await captcha.verifyQuestion(`${nonce}.${expires}.${forged[0]}.${forged[1]}.${signature}`, String(forged[0] + forged[1]))).toBe(false);
    expect(await captcha.verifyQuestion("garbage", "2")).toBe(false);
    const other = createCaptcha({ secret: "another-secret".padEnd(40, "y") });
    expect(await other.verifyQuestion(q.token, String(q.a + q.b))).toBe(false);
    now += 61_000;
    expect(await captcha.verifyQuestion(q.token, String(q.a + q.b))).toBe(false);
  });

  it("verify() takes the widget payload first, else the question, else fails", async () => {
    const captcha = createCaptcha({ secret });
    const q = captcha.question();
    expect(await captcha.verify(undefined)).toBe(false);
    expect(await captcha.verify({})).toBe(false);
    expect(await captcha.verify({ questionToken: q.token })).toBe(false);
    expect(await captcha.verify({ questionToken: q.token, answer: String(q.a + q.b) })).toBe(true);
  });
});

describe("used ids", () => {
  it("refuses an answer another process accepted, when they share a store", async () => {
    const store = memoryLimitStore();
    const one = createCaptcha({ secret: "s".repeat(40), store });
    const two = createCaptcha({ secret: "s".repeat(40), store });
    const q = one.question();
    expect(await two.verifyQuestion(q.token, String(q.a + q.b))).toBe(true);
    expect(await one.verifyQuestion(q.token, String(q.a + q.b))).toBe(false);
  });
});
