import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { seal, unseal, unsealStored } from "~/core/sealed-secrets.server";

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

/** An endpoint's secret as it is stored: sealed, bound to its entity (decision 062). */
export function sealWebhookSecret(secret: string, entityId: number): string {
  return seal(secret, "webhook-secret", `webhook-endpoint:${entityId}`);
}

/** The stored secret of an endpoint of `entityId` in clear; throws UnreadableSecretError. */
export function openWebhookSecret(stored: string, entityId: number): string {
  return unseal(stored, "webhook-secret", `webhook-endpoint:${entityId}`);
}

/** `openWebhookSecret`, and whether the stored value is sealed with the current key. */
export function openStoredWebhookSecret(stored: string, entityId: number): { secret: string; current: boolean } {
  return unsealStored(stored, "webhook-secret", `webhook-endpoint:${entityId}`);
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
