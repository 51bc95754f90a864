import { describe, expect, it } from "vitest";
import { isSealed, seal, UnreadableSecretError, unseal as unsealWith } from "./sealed-secrets.server";

/** Sealing (decision 057), with explicit key material: no configuration involved. */
const KEY = "k".repeat(32);
const OTHER_KEY = "o".repeat(32);
const SECRET = "whsec_abcdefghijklmnopqrstuvwxyz0123456789ABCDEFG";

/** The secret in clear with `material` as the only key. */
const unseal = (stored: string, purpose: string, context: string, material: string) => unsealWith(stored, purpose, context, { current: material, previous: [] }).secret;

const unreadable = (f: () => unknown) => {
  try {
    f();
  } catch (error) {
    return error instanceof UnreadableSecretError;
  }
  return false;
};

describe("sealed secrets", () => {
  it("seals to a value that does not show the secret and opens to it again", () => {
    const sealed = seal(SECRET, "webhook-secret", "webhook-endpoint:1", KEY);
    expect(isSealed(sealed)).toBe(true);
    expect(sealed).toMatch(/^sealed:v1:[A-Za-z0-9_-]+$/);
    expect(sealed).not.toContain(SECRET);
    expect(sealed).not.toContain(Buffer.from(SECRET).toString("base64url").slice(0, 12));
    expect(unseal(sealed, "webhook-secret", "webhook-endpoint:1", KEY)).toBe(SECRET);
    // A fresh nonce each time: the same secret never seals to the same value.
    expect(seal(SECRET, "webhook-secret", "webhook-endpoint:1", KEY)).not.toBe(sealed);
    expect(unseal(seal("", "webhook-secret", "c", KEY), "webhook-secret", "c", KEY)).toBe("");
    expect(unseal(seal("é ✓ \u0000", "webhook-secret", "c", KEY), "webhook-secret", "c", KEY)).toBe("é ✓ \u0000");
  });

  it("does not open under another key, purpose or record, nor once altered or cut", () => {
    const sealed = seal(SECRET, "webhook-secret", "webhook-endpoint:1", KEY);
    expect(unreadable(() => unseal(sealed, "webhook-secret", "webhook-endpoint:1", OTHER_KEY))).toBe(true);
    expect(unreadable(() => unseal(sealed, "other-purpose", "webhook-endpoint:1", KEY))).toBe(true);
    expect(unreadable(() => unseal(sealed, "webhook-secret", "webhook-endpoint:2", KEY))).toBe(true);
    const bytes = Buffer.from(sealed.slice("sealed:v1:".length), "base64url");
    for (const at of [0, 12, 28, bytes.length - 1]) {
      const altered = Buffer.from(bytes);
      altered[at] ^= 1;
      expect(unreadable(() => unseal(`sealed:v1:${altered.toString("base64url")}`, "webhook-secret", "webhook-endpoint:1", KEY)), `byte ${at}`).toBe(true);
    }
    expect(unreadable(() => unseal("sealed:v1:abc", "webhook-secret", "webhook-endpoint:1", KEY))).toBe(true);
    expect(unreadable(() => unseal("sealed:v1:", "webhook-secret", "webhook-endpoint:1", KEY))).toBe(true);
  });

  it("reads a value written before sealing as it is", () => {
    expect(isSealed(SECRET)).toBe(false);
    expect(unseal(SECRET, "webhook-secret", "webhook-endpoint:1", KEY)).toBe(SECRET);
  });

  it("opens a value sealed with a previous key, and says it is not the current key's", () => {
    const old = seal(SECRET, "webhook-secret", "c", OTHER_KEY);
    expect(unsealWith(old, "webhook-secret", "c", { current: KEY, previous: [OTHER_KEY] })).toEqual({ secret: SECRET, current: false });
    expect(unsealWith(seal(SECRET, "webhook-secret", "c", KEY), "webhook-secret", "c", { current: KEY, previous: [OTHER_KEY] })).toEqual({ secret: SECRET, current: true });
    expect(unsealWith(SECRET, "webhook-secret", "c", { current: KEY, previous: [] })).toEqual({ secret: SECRET, current: false });
    expect(unreadable(() => unsealWith(old, "webhook-secret", "c", { current: KEY, previous: ["p".repeat(32)] }))).toBe(true);
  });
});
