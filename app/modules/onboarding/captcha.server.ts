import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { createChallenge, randomInt, verifySolution, type Challenge, type Payload } from "altcha-lib";
import { deriveKey } from "altcha-lib/algorithms/pbkdf2";
import { config } from "~/config.server";
import { sharedLimitStore } from "~/core/shared-limits.server";
import { type LimitStore, memoryLimitStore, RateLimiter } from "~/lib/rate-limit.server";
import type { CaptchaInput } from "./schema";

/**
 * The sign-up captcha (docs/decisions/008-onboarding-and-captcha.md), self-hosted:
 *
 * - With JavaScript: an ALTCHA proof-of-work. The browser widget fetches a challenge from
 *   GET /altcha/challenge, finds the counter in web workers and posts the solution in the hidden
 *   field `altcha`. Challenges are HMAC-signed with a key derived from SESSION_SECRET, expire, and a
 *   solved challenge is accepted once.
 * - Without JavaScript the widget cannot run: the page shows a small arithmetic question instead,
 *   with an HMAC-signed, expiring token (`questionToken`) that binds the expected answer.
 *
 * Replay protection remembers the ids of accepted challenges until they expire: in the store the
 * request limits share across processes on PostgreSQL (app/core/shared-limits.server.ts), so an answer
 * accepted by one process is refused by the others; in this process's memory otherwise (one process).
 * A restart of the embedded app forgets them, which only re-opens challenges still within their lifetime.
 */

export interface CaptchaOptions {
  /** Master secret (SESSION_SECRET); the HMAC keys are derived from it. */
  secret: string;
  now?: () => number;
  /** Proof-of-work difficulty: the counter to find lies in [counterMin, counterMax]. */
  cost?: number;
  counterMin?: number;
  counterMax?: number;
  /** Lifetime of a challenge and of a question. */
  ttlSeconds?: number;
  /** Where used ids are remembered across processes (instead of memory). */
  store?: LimitStore;
}

export const ALTCHA_ALGORITHM = "PBKDF2/SHA-256";

export interface ArithmeticQuestion {
  /** The two terms shown to the user ("What is 7 + 5?"). */
  a: number;
  b: number;
  token: string;
}

function derive(secret: string, purpose: string): string {
  return createHmac("sha256", secret).update(`caretaker/captcha/${purpose}`).digest("hex");
}

function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

export function createCaptcha(options: CaptchaOptions) {
  const now = options.now ?? Date.now;
  const cost = options.cost ?? 1_000;
  const counterMin = options.counterMin ?? 1_000;
  const counterMax = options.counterMax ?? 5_000;
  const ttlSeconds = options.ttlSeconds ?? 30 * 60;
  const signatureSecret = derive(options.secret, "altcha-signature");
  const keySignatureSecret = derive(options.secret, "altcha-key-signature");
  const questionSecret = derive(options.secret, "question");
  // An id is counted once for as long as its challenge lives: a second use is over the limit.
  const used = new RateLimiter(1, ttlSeconds * 1000, { store: options.store ?? memoryLimitStore(), scope: "captcha.used" });
  /** Records `id` as used until `expiresAt`; false when it was used before. */
  const spendOnce = (id: string, expiresAt: number): Promise<boolean> => used.hit(id, { windowMs: Math.max(1, expiresAt - now()) });

  /** A fresh ALTCHA challenge (the JSON the widget fetches). */
  async function altchaChallenge(): Promise<Challenge> {
    return createChallenge({
      algorithm: ALTCHA_ALGORITHM,
      cost,
      counter: randomInt(counterMax, counterMin),
      deriveKey,
      hmacSignatureSecret: signatureSecret,
      hmacKeySignatureSecret: keySignatureSecret,
      expiresAt: Math.floor(now() / 1000) + ttlSeconds,
    });
  }

  /** Checks the widget's payload (base64 JSON of `{ challenge, solution }`); accepts each challenge once. */
  async function verifyAltcha(encoded: string): Promise<boolean> {
    let payload: Payload;
    try {
      payload = JSON.parse(Buffer.from(encoded, "base64").toString("utf8"));
    } catch {
      return false;
    }
    const challenge = payload?.challenge;
    if (!challenge?.parameters || typeof challenge.signature !== "string" || !payload.solution) return false;
    if (challenge.parameters.algorithm !== ALTCHA_ALGORITHM) return false;
    const expiresAt = Number(challenge.parameters.expiresAt);
    // Only challenges this server signed carry an expiry; refuse any without one.
    if (!Number.isFinite(expiresAt) || expiresAt * 1000 <= now()) return false;
    try {
      const result = await verifySolution({
        challenge,
        solution: payload.solution,
        deriveKey,
        hmacSignatureSecret: signatureSecret,
        hmacKeySignatureSecret: keySignatureSecret,
      });
      if (!result.verified) return false;
    } catch {
      return false;
    }
    return spendOnce(`altcha:${challenge.signature}`, expiresAt * 1000);
  }

  function signQuestion(body: string, answer: number): string {
    return createHmac("sha256", questionSecret).update(`${body}|${answer}`).digest("base64url");
  }

  /** A no-script question: two terms from 1 to 9 and a token that binds their sum. */
  function question(): ArithmeticQuestion {
    const a = randomInt(9, 1);
    const b = randomInt(9, 1);
    const expiresAt = Math.floor(now() / 1000) + ttlSeconds;
    const body = `${randomBytes(12).toString("base64url")}.${expiresAt}.${a}.${b}`;
    return { a, b, token: `${body}.${signQuestion(body, a + b)}` };
  }

  /** Checks the answer to a question; each question is accepted once. */
  async function verifyQuestion(token: string, answer: string): Promise<boolean> {
    const parts = token.split(".");
    if (parts.length !== 5) return false;
    const [nonce, expires, a, b, signature] = parts;
    const expiresAt = Number(expires);
    if (!Number.isInteger(expiresAt) || expiresAt * 1000 <= now()) return false;
    const value = answer.trim();
    if (!/^\d{1,3}$/.test(value)) return false;
    const body = `${nonce}.${expires}.${a}.${b}`;
    if (!safeEqual(signQuestion(body, Number(value)), signature)) return false;
    return spendOnce(`question:${nonce}`, expiresAt * 1000);
  }

  /** Whichever answer the form carried: the widget's payload first, else the question. */
  async function verify(input: CaptchaInput | undefined): Promise<boolean> {
    if (input?.altcha) return verifyAltcha(input.altcha);
    if (input?.questionToken && input.answer) return verifyQuestion(input.questionToken, input.answer);
    return false;
  }

  return { altchaChallenge, verifyAltcha, question, verifyQuestion, verify, used };
}

export type Captcha = ReturnType<typeof createCaptcha>;

const holder = globalThis as unknown as { __caretakerCaptcha?: Captcha };

/** The process-wide captcha, keyed from SESSION_SECRET, remembering used ids where the limits count. */
export function captcha(): Captcha {
  holder.__caretakerCaptcha ??= createCaptcha({ secret: config().SESSION_SECRET, store: sharedLimitStore() });
  return holder.__caretakerCaptcha;
}
