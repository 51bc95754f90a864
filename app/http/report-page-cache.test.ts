import { describe, expect, it } from "vitest";
import { localeCookie } from "~/i18n.server";
import { MAX_POSTS_PER_ADDRESS, REPORTS_BEFORE_CAPTCHA, reportLimits } from "./report-limits.server";
import { type PublicPageRequest, reportPageCacheKey } from "./report-page.server";

/**
 * Which report pages the public page cache may keep, and under which key (decision 031): the page and its
 * form for a visitor without a session, keyed by path, language and cookies; never a page that shows the
 * visitor's own limits or captcha question.
 */
const MULTIPLIER = 7; // its own limits, apart from other tests'
const visitor = (over: Partial<PublicPageRequest> = {}): PublicPageRequest => ({
  url: "/report/ABCDEF234567",
  cookie: null,
  acceptLanguage: null,
  clientAddress: "198.51.100.1",
  ...over,
});

describe("the report page's cache key", () => {
  it("keys the page and its form by path and language", async () => {
    const en = await reportPageCacheKey(visitor(), MULTIPLIER);
    const fr = await reportPageCacheKey(visitor({ acceptLanguage: "fr-BE,fr;q=0.9" }), MULTIPLIER);
    const nl = await reportPageCacheKey(visitor({ cookie: await localeCookie.serialize("nl-BE") }), MULTIPLIER);
    const form = await reportPageCacheKey(visitor({ url: "/report/ABCDEF234567?type=12" }), MULTIPLIER);
    expect(en).not.toBeNull();
    expect(new Set([en, fr, nl, form]).size).toBe(4);
    expect(fr).toContain("fr-BE");
    expect(nl).toContain("nl-BE");
    expect(await reportPageCacheKey(visitor({ clientAddress: "198.51.100.2" }), MULTIPLIER)).toBe(en);
  });

  it("gives no key to other pages, other queries, a signed-in visitor or an unreadable path", async () => {
    for (const url of ["/report/status/abc", "/report/ABC?sent=12&how=folded", "/report/ABC?type=1&x=2", "/report/ABC?type=abc", "/report/%E0%A4%A", "/facilities"]) {
      expect(await reportPageCacheKey(visitor({ url }), MULTIPLIER), url).toBeNull();
    }
    expect(await reportPageCacheKey(visitor({ cookie: "consent=1; __session=abc" }), MULTIPLIER)).toBeNull();
  });

  it("gives no key when the page must show the visitor's captcha question or limits", async () => {
    const limits = reportLimits(MULTIPLIER);
    const address = "198.51.100.77";
    for (let i = 0; i < REPORTS_BEFORE_CAPTCHA * MULTIPLIER; i++) limits.recordReport(address);
    expect(await reportPageCacheKey(visitor({ clientAddress: address }), MULTIPLIER), "the page: no question").not.toBeNull();
    expect(await reportPageCacheKey(visitor({ clientAddress: address, url: "/report/ABCDEF234567?type=3" }), MULTIPLIER), "the form").toBeNull();
    for (let i = 0; i < MAX_POSTS_PER_ADDRESS * MULTIPLIER; i++) limits.admit(address, `code${i}`);
    expect(await reportPageCacheKey(visitor({ clientAddress: address }), MULTIPLIER), "over its limits").toBeNull();
  });
});
