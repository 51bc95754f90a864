import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";
import { config } from "~/config.server";

/**
 * Secrets the app must read back in clear (a webhook endpoint's signing secret: the signature needs it),
 * kept sealed in the database (decision 057): AES-256-GCM under a key derived for their purpose from
 * SECRETS_KEY (or SESSION_SECRET when that is not set), bound to the record's context (its entity), so a
 * database dump or backup alone does not give them away and a sealed value copied to another entity's
 * record does not open there.
 *
 * Stored form: `sealed:v1:` and base64url(12-byte nonce | 16-byte tag | ciphertext). A value without the
 * prefix was written before sealing and is read as it is; one sealed with a previous key (SECRETS_KEY_PREVIOUS,
 * or SESSION_SECRET before SECRETS_KEY was set) still opens. `resealWebhookSecrets` seals both kinds again
 * with the current key at start.
 */
const PREFIX = "sealed:v1:";
const NONCE_BYTES = 12;
const TAG_BYTES = 16;

/** A sealed secret that this server's key does not open (the key changed, or the value was altered). */
export class UnreadableSecretError extends Error {
  constructor() {
    super("the secret cannot be read with this server's key (SECRETS_KEY or SESSION_SECRET changed?)");
    this.name = "UnreadableSecretError";
  }
}

/** What the keys are derived from: SECRETS_KEY, else SESSION_SECRET. */
export function secretsKeyMaterial(): string {
  const cfg = config();
  return cfg.SECRETS_KEY ?? cfg.SESSION_SECRET;
}

/**
 * What older values may have been sealed with, tried after the current material: SECRETS_KEY_PREVIOUS (a
 * key being replaced), and SESSION_SECRET once SECRETS_KEY is set (values sealed before it was).
 */
export function previousKeyMaterials(): string[] {
  const cfg = config();
  if (!cfg.SECRETS_KEY) return [];
  return [cfg.SECRETS_KEY_PREVIOUS, cfg.SESSION_SECRET].filter((m): m is string => Boolean(m) && m !== cfg.SECRETS_KEY);
}

function keyFor(purpose: string, material: string): Buffer {
  return Buffer.from(hkdfSync("sha256", material, "caretaker/sealed-secrets", purpose, 32));
}

export function isSealed(stored: string): boolean {
  return stored.startsWith(PREFIX);
}

/** `plain` sealed for `purpose` (which key) and `context` (which record it belongs to). */
export function seal(plain: string, purpose: string, context: string, material = secretsKeyMaterial()): string {
  const nonce = randomBytes(NONCE_BYTES);
  const cipher = createCipheriv("aes-256-gcm", keyFor(purpose, material), nonce);
  cipher.setAAD(Buffer.from(context, "utf8"));
  const sealed = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
  return PREFIX + Buffer.concat([nonce, cipher.getAuthTag(), sealed]).toString("base64url");
}

function open(bytes: Buffer, purpose: string, context: string, material: string): string | null {
  try {
    const decipher = createDecipheriv("aes-256-gcm", keyFor(purpose, material), bytes.subarray(0, NONCE_BYTES));
    decipher.setAAD(Buffer.from(context, "utf8"));
    decipher.setAuthTag(bytes.subarray(NONCE_BYTES, NONCE_BYTES + TAG_BYTES));
    return Buffer.concat([decipher.update(bytes.subarray(NONCE_BYTES + TAG_BYTES)), decipher.final()]).toString("utf8");
  } catch {
    return null;
  }
}

/**
 * The secret in clear (a value written before sealing as it is), and whether it is stored as the current
 * key seals it (false: in clear, or sealed with a previous key, so it should be sealed again). Throws
 * UnreadableSecretError.
 */
export function unseal(
  stored: string,
  purpose: string,
  context: string,
  materials: { current: string; previous: readonly string[] } = { current: secretsKeyMaterial(), previous: previousKeyMaterials() },
): { secret: string; current: boolean } {
  if (!isSealed(stored)) return { secret: stored, current: false };
  const bytes = Buffer.from(stored.slice(PREFIX.length), "base64url");
  if (bytes.length < NONCE_BYTES + TAG_BYTES) throw new UnreadableSecretError();
  const now = open(bytes, purpose, context, materials.current);
  if (now !== null) return { secret: now, current: true };
  for (const material of materials.previous) {
    const before = open(bytes, purpose, context, material);
    if (before !== null) return { secret: before, current: false };
  }
  throw new UnreadableSecretError();
}
