import { describe, expect, it } from "vitest";
import { safeRedirectPath } from "./safe-redirect";

/** What a browser would do with the Location header: resolve it against the page's address. */
const followedFrom = (location: string, page = "https://app.example/settings") => new URL(location, page);

describe("safeRedirectPath", () => {
  it("keeps a same-origin path, its query and fragment", () => {
    expect(safeRedirectPath("/facilities")).toBe("/facilities");
    expect(safeRedirectPath("/incidents?q=leak&page=2#list")).toBe("/incidents?q=leak&page=2#list");
    expect(safeRedirectPath("/update-room/12")).toBe("/update-room/12");
  });

  it("answers the serialised form: ASCII only, usable in a header", () => {
    expect(safeRedirectPath("/salle/é")).toBe("/salle/%C3%A9");
    expect(() => new Headers({ Location: safeRedirectPath("/salle/é ü") })).not.toThrow();
  });

  const hostile: [string, string][] = [
    ["protocol-relative", "//evil.example"],
    ["protocol-relative with a path", "//evil.example/login"],
    ["backslash", "/\\evil.example"],
    ["backslash later", "/\\/evil.example"],
    ["tab between the slashes", "/\t/evil.example"],
    ["newline between the slashes", "/\n/evil.example"],
    ["dot segment to two slashes", "/.//evil.example"],
    ["encoded slashes, no leading slash", "%2F%2Fevil.example"],
    ["absolute URL", "https://evil.example/"],
    ["javascript:", "javascript:alert(1)"],
    ["javascript: after a slash-less space", " javascript:alert(1)"],
    ["data:", "data:text/html,<script>alert(1)</script>"],
    ["relative path", "evil.example"],
    ["CR LF header injection", "/ok\r\nSet-Cookie: a=b"],
    ["LF", "/ok\nLocation: //evil.example"],
    ["NUL", "/ok\u0000"],
    ["DEL", "/ok\u007f"],
    ["empty", ""],
    ["very long", `/${"a".repeat(5000)}`],
  ];
  for (const [name, value] of hostile) {
    it(`falls back for ${name}`, () => {
      expect(safeRedirectPath(value, "/home")).toBe("/home");
    });
  }

  it("keeps an encoded double slash inside the path, where it stays on this origin", () => {
    const kept = safeRedirectPath("/%2F%2Fevil.example");
    expect(kept).toBe("/%2F%2Fevil.example");
    expect(followedFrom(kept).origin).toBe("https://app.example");
  });

  it("never answers anything a browser would follow off the origin", () => {
    const tries = ["//evil", "/\\evil", "/\t/evil", "/.//evil", "/..//evil", "/./%2e//evil", "/%09/evil", "/%5C/evil", "///evil", "/ /evil"];
    for (const value of tries) {
      expect(followedFrom(safeRedirectPath(value)).origin, value).toBe("https://app.example");
    }
  });

  it("falls back for values that are not strings", () => {
    expect(safeRedirectPath(null)).toBe("/");
    expect(safeRedirectPath(undefined, "/x")).toBe("/x");
    expect(safeRedirectPath(["/a"])).toBe("/");
  });
});
