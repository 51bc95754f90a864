import { describe, expect, it } from "vitest";
import en from "~/locales/en/common.json";
import nl from "~/locales/nl-BE/rooms.json";
import { localesVersion } from "~/i18n.server";
import { loader } from "./locales";

const call = (lng: string, query = "") =>
  loader({ params: { lng }, request: new Request(`http://app.test/locales/${lng}.json${query}`), context: {} } as never);

describe("/locales/{lng}.json", () => {
  it("answers every namespace of the language in one document", async () => {
    const response = await call("nl-BE");
    expect(response.status).toBe(200);
    const body = (await response.json()) as Record<string, unknown>;
    expect(body.rooms).toEqual(nl);
    expect(Object.keys(body)).toEqual(expect.arrayContaining(["common", "auth", "shell", "settings", "facilities", "countries"]));
    expect(response.headers.get("Cache-Control")).toBe("public, max-age=300");
  });

  it("may be cached for good under the current version only", async () => {
    expect((await call("en", `?v=${localesVersion}`)).headers.get("Cache-Control")).toContain("immutable");
    expect((await call("en", "?v=old")).headers.get("Cache-Control")).toBe("public, max-age=300");
    expect(((await (await call("en")).json()) as { common: unknown }).common).toEqual(en);
  });

  it("answers 404 for a language it does not have", async () => {
    for (const lng of ["de", "EN", "en/common", "", "__proto__"]) expect((await call(lng)).status).toBe(404);
  });
});
