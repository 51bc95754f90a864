import { describe, expect, it } from "vitest";
import { decodeCursor, encodeCursor } from "./cursor.server";

describe("keyset cursors", () => {
  it("round-trip a sort key, accents and quotes included", () => {
    for (const key of [["building 12", 7], ["école \"nord\" / ÉTÉ", 2147483647], ["", 1]] as [string, number][]) {
      const cursor = encodeCursor(key);
      expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
      expect(decodeCursor(cursor)).toEqual(key);
    }
  });

  it("refuse anything else", () => {
    const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString("base64url");
    for (const bad of [null, "", "%%%", "not base64!", b64(["a"]), b64(["a", 0]), b64(["a", 1.5]), b64([1, 2]), b64(["a", 2 ** 31]), b64(["a\u0000", 1]), b64({ a: 1 }), "x".repeat(401)]) {
      expect(decodeCursor(bad), String(bad)).toBeNull();
    }
  });
});
