import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { seal, unseal } from "~/core/sealed-secrets.server";

/**
 * How a delivery is signed (docs/webhooks.md, decision 057): HMAC-SHA256, keyed with the endpoint's
 * secret, over `${timestamp}.${body}` (the Unix time in seconds, a dot, the exact bytes of the JSON
 * body), sent as `Caretaker-Signature: t=<timestamp>,v1=<hex digest>`. A receiver recomputes it and
 * refuses a timestamp too far from its clock (a replayed delivery).
 */
export const SIGNATURE_HEADER = "Caretaker-Signature";
export const EVENT_HEADER = "Caretaker-Event";
export const DELIVERY_HEADER = "Caretaker-Delivery";

/** A new endpoint secret: `whsec_` and 32 random bytes (base64url). */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString("base64url")}`;
}

/** Which key seals endpoint secrets, and the record a sealed secret belongs to (its entity). */
const SECRET_PURPOSE = "webhook-secret";
const secretContext = (entityId: number) => `webhook-endpoint:${entityId}`;

/** An endpoint's secret as it is stored: sealed, bound to its entity (decision 057). */
export function sealWebhookSecret(secret: string, entityId: number): string {
  return seal(secret, SECRET_PURPOSE, secretContext(entityId));
}

/**
 * The stored secret of an endpoint of `entityId` in clear, and whether it is sealed with the current key;
 * throws UnreadableSecretError.
 */
export function openWebhookSecret(stored: string, entityId: number): { secret: string; current: boolean } {
  return unseal(stored, SECRET_PURPOSE, secretContext(entityId));
}

export function signature(secret: string, timestamp: number, body: string): string {
  return createHmac("sha256", secret).update(`${timestamp}.${body}`).digest("hex");
}

/** The Caretaker-Signature header's value. */
export function signatureHeader(secret: string, timestamp: number, body: string): string {
  return `t=${timestamp},v1=${signature(secret, timestamp, body)}`;
}

/**
 * What a receiver does (the reference for docs/webhooks.md and the tests): parse the header, recompute,
 * compare in constant time, refuse a timestamp more than `toleranceSeconds` away from `nowSeconds`.
 */
export function verifySignature(secret: string, header: string | null | undefined, body: string, nowSeconds: number, toleranceSeconds = 300): boolean {
  if (!header) return false;
  const parts = new Map(header.split(",").map((part) => part.trim().split("=", 2) as [string, string]));
  const timestamp = Number(parts.get("t"));
  const given = parts.get("v1");
  if (!Number.isSafeInteger(timestamp) || !given || !/^[0-9a-f]{64}$/.test(given)) return false;
  if (Math.abs(nowSeconds - timestamp) > toleranceSeconds) return false;
  return timingSafeEqual(Buffer.from(given, "hex"), Buffer.from(signature(secret, timestamp, body), "hex"));
}
