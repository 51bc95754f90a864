import { afterEach, describe, expect, it } from "vitest";
import { consentCookieHeader } from "~/components/shell/consent.server";
import { config } from "~/config.server";
import { localeCookieHeader } from "~/i18n.server";

/** Every cookie the app sets is Secure when the app is served over https (APP_URL). */
const holder = globalThis as unknown as { __caretakerConfig?: ReturnType<typeof config> };
const original = config();
afterEach(() => {
  holder.__caretakerConfig = original;
});

describe("the language and consent cookies", () => {
  it("are Secure behind an https address, and not on plain http (a local run)", async () => {
    holder.__caretakerConfig = { ...original, APP_URL: "https://caretaker.example" };
    expect(await localeCookieHeader("fr-BE")).toMatch(/; Secure/);
    expect(await consentCookieHeader("technical")).toMatch(/; Secure/);
    holder.__caretakerConfig = { ...original, APP_URL: "http://localhost:3000" };
    expect(await localeCookieHeader("fr-BE")).not.toMatch(/Secure/);
    expect(await consentCookieHeader("all")).not.toMatch(/Secure/);
    expect(await localeCookieHeader("nl-BE")).toMatch(/HttpOnly/);
  });
});
