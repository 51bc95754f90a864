import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AppLoadContext } from "@remix-run/node";
import { Role, UserLanguage } from "~/db/enums";
import { serviceContext } from "~/http/route-context.server";
import type { AuthUser } from "~/modules/auth/service.server";
import { type ApiHarness, apiContext, startApiRuntime } from "#tests/api-helpers";

/**
 * The language of a signed-in screen's services (the due words of the incidents table, the texts a loader
 * writes) is the page's: the person's setting, which the root's page language follows too, over the
 * browser's cookie and Accept-Language; without a setting, the request's.
 */
let api: ApiHarness;
beforeAll(async () => {
  api = await startApiRuntime();
});
afterAll(async () => {
  await api?.close();
});

const person = (language?: number): AuthUser => ({ id: 1, entityId: 1, role: Role.TECHNICIAN, sessionId: "s", expiresAt: Date.now() + 60_000, timeZone: "Europe/Brussels", language });
const request = (headers: Record<string, string>) => new Request("http://x/incidents", { headers });
const localeOf = async (user: AuthUser, headers: Record<string, string>) =>
  (await serviceContext({ request: request(headers), context: apiContext() as unknown as AppLoadContext }, user)).locale;

describe("a signed-in screen's language", () => {
  it("is the person's setting over the browser's", async () => {
    expect(await localeOf(person(UserLanguage.FR), { "accept-language": "en" })).toBe("fr-BE");
    expect(await localeOf(person(UserLanguage.NL), { "accept-language": "fr-BE", cookie: "lng=en" })).toBe("nl-BE");
    expect(await localeOf(person(UserLanguage.EN), { "accept-language": "nl-BE" })).toBe("en");
  });

  it("is the request's without a setting", async () => {
    expect(await localeOf(person(), { "accept-language": "nl-BE" })).toBe("nl-BE");
  });
});
