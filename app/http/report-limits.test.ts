import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createReportLimits, MAX_POSTS_PER_ADDRESS, MAX_POSTS_PER_IDENTIFIER, REPORT_WINDOW_MS, REPORTS_BEFORE_CAPTCHA } from "./report-limits.server";

beforeEach(() => {
  vi.useFakeTimers();
  vi.setSystemTime(1_700_000_000_000);
});
afterEach(() => vi.useRealTimers());

describe("report page limits", async () => {

  it("asks for the captcha after three reports an hour from one address, and forgets after the hour", async () => {
    const limits = createReportLimits();
    for (let i = 0; i < REPORTS_BEFORE_CAPTCHA; i++) {
      expect(await limits.needsCaptcha("203.0.113.5")).toBe(false);
      await limits.recordReport("203.0.113.5");
    }
    vi.advanceTimersByTime(1000);
    expect(await limits.needsCaptcha("203.0.113.5")).toBe(true);
    expect(
      await limits.needsCaptcha("203.0.113.6"),
      "another address"
    ).toBe(false);
    vi.advanceTimersByTime(REPORT_WINDOW_MS);
    expect(await limits.needsCaptcha("203.0.113.5")).toBe(false);
  });

  it("counts an IPv6 address by its /64 network", async () => {
    const limits = createReportLimits();
    for (let i = 0; i < REPORTS_BEFORE_CAPTCHA; i++)
      await limits.recordReport(`2001:db8:1:2::${i + 1}`);
    expect(await limits.needsCaptcha("2001:db8:1:2:ffff::9")).toBe(true);
    expect(await limits.needsCaptcha("2001:db8:1:3::1")).toBe(false);
  });

  it("refuses posts beyond 20 an hour from one address, with the seconds to wait", async () => {
    const limits = createReportLimits();
    for (let i = 0; i < MAX_POSTS_PER_ADDRESS; i++)
      expect(await limits.admit("203.0.113.5", `code${i % 3}`)).toEqual({
        ok: true,
      });
    expect((await limits.limited("203.0.113.5", "code0")).ok).toBe(false);
    vi.advanceTimersByTime(60_000);
    const refused = await limits.admit("203.0.113.5", "code0");
    expect(refused).toEqual({
      ok: false,
      retryAfterSeconds: (REPORT_WINDOW_MS - 60_000) / 1000,
    });
    expect(await limits.admit("203.0.113.7", "code0")).toEqual({
      ok: true,
    });
    vi.advanceTimersByTime(REPORT_WINDOW_MS - 60_000);
    expect(await limits.admit("203.0.113.5", "code0")).toEqual({ ok: true });
  });

  it("refuses posts beyond 60 an hour to one identifier, whatever the addresses", async () => {
    const limits = createReportLimits();
    for (let i = 0; i < MAX_POSTS_PER_IDENTIFIER; i++)
      expect((await limits.admit(`198.51.100.${i}`, "sticker")).ok).toBe(
        true
      );
    expect((await limits.admit("198.51.100.200", "sticker")).ok).toBe(
      false
    );
    expect((await limits.limited("198.51.100.201", "sticker")).ok).toBe(
      false
    );
    expect((await limits.admit("198.51.100.200", "another")).ok).toBe(true);
  });

  it("does not let a refused address use up a sticker's allowance", async () => {
    const limits = createReportLimits();
    for (let i = 0; i < MAX_POSTS_PER_ADDRESS + 30; i++)
      await limits.admit("203.0.113.5", "sticker");
    for (let i = 0; i < MAX_POSTS_PER_IDENTIFIER - MAX_POSTS_PER_ADDRESS; i++)
      expect((await limits.admit(`198.51.100.${i}`, "sticker")).ok).toBe(
        true
      );
  });

  it("multiplies every limit by RATE_LIMIT_MULTIPLIER", async () => {
    const limits = createReportLimits(10);
    for (let i = 0; i < REPORTS_BEFORE_CAPTCHA * 10 - 1; i++)
      await limits.recordReport("203.0.113.5");
    expect(await limits.needsCaptcha("203.0.113.5")).toBe(false);
    await limits.recordReport("203.0.113.5");
    expect(await limits.needsCaptcha("203.0.113.5")).toBe(true);
    for (let i = 0; i < MAX_POSTS_PER_ADDRESS * 10; i++)
      expect((await limits.admit("203.0.113.9", "sticker")).ok).toBe(true);
    expect((await limits.admit("203.0.113.9", "sticker")).ok).toBe(false);
  });
});
